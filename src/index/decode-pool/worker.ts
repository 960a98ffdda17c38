// Decode thread entry (started by pool.ts through src/common/ts-worker.ts: compiled, or with tsx's loader): decodes
// masterchain blocks with the one pipeline (decodeMcBlock) over a proxy of the main thread's source, and sends the
// rows back as COPY text.
// Several decodes may be under way at once: each spends part of its time waiting for the main thread's source.
import { parentPort, workerData } from 'node:worker_threads';
import { decodeMcBlock } from '../decode/decode-unit.ts';
import { createProxySource } from './proxy-source.ts';
import { errorFromWire, errorToWire, type FromWorker, type SourceCall, type ToWorker, unitToWire } from './wire.ts';

const port = parentPort;
if (port === null) throw new Error('src/index/decode-pool/worker.ts must run in a worker thread');
const { sourceName, statesFromBlocks } = workerData as { sourceName: string; statesFromBlocks: boolean };

const send = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

let nextCall = 1;
const calls = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
const ask = (request: SourceCall): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const call = nextCall++;
    calls.set(call, { resolve, reject });
    send({ type: 'source', call, request });
  });
const source = createProxySource(sourceName, statesFromBlocks, ask);

async function decode(job: number, mcSeqno: number, contracts: boolean): Promise<void> {
  try {
    const unit = await decodeMcBlock(mcSeqno, source, contracts);
    const { unit: wire, transfer } = unitToWire(unit);
    send({ type: 'decoded', job, unit: wire }, transfer);
  } catch (e) {
    send({ type: 'failed', job, error: errorToWire(e) });
  }
}

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'decode') {
    void decode(msg.job, msg.mcSeqno, msg.contracts);
    return;
  }
  const pending = calls.get(msg.call);
  if (!pending) return;
  calls.delete(msg.call);
  if (msg.type === 'source-result') pending.resolve(msg.value);
  else pending.reject(errorFromWire(msg.error));
});

send({ type: 'ready' });
