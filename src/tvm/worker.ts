// Worker thread entry: one Executor, calls handled strictly one after another in arrival order (the blob caches
// on both sides rely on that order). Started by worker-lane.ts through src/common/ts-worker.ts: compiled, or with
// tsx's loader in a checkout.
import { parentPort, workerData } from 'node:worker_threads';
import type { ExecutorVerbosity } from '@ton/sandbox';
import { createJobHandler } from './job-handler.ts';
import type { WorkerReply, WorkerRequest } from './wire.ts';

const port = parentPort;
if (port === null) throw new Error('src/tvm/worker.ts must run in a worker thread');

const { verbosity } = workerData as { verbosity: ExecutorVerbosity };
const handler = createJobHandler({ verbosity });

function reply(msg: WorkerReply, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(msg, transfer);
}

let chain: Promise<void> = Promise.resolve();

port.on('message', (msg: WorkerRequest) => {
  chain = chain.then(async () => {
    try {
      const { result, transfer } = await handler.handle(msg.job);
      reply({ type: 'result', id: msg.id, result }, transfer);
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      reply({ type: 'failed', id: msg.id, message: err.message, name: err.name });
    }
  });
});

try {
  await handler.ready();
  reply({ type: 'ready' });
} catch (e) {
  reply({ type: 'start-failed', message: e instanceof Error ? e.message : String(e) });
}
