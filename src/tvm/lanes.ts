// An executor the runner can hand one call at a time: a worker thread (the default), or the same job handler in
// the caller's thread (`threads: 0`). Both encode the call per executor and retry once on a blob-cache miss.
import type { Worker } from 'node:worker_threads';
import type { ExecutorVerbosity } from '@ton/sandbox';
import { TvmError } from '../common/errors.ts';
import { startTsWorker, workerEntry } from '../common/ts-worker.ts';
import { CALL_NAMES, type Call, encodeCall } from './calls.ts';
import { createJobHandler } from './job-handler.ts';
import { BlobSender, type WireResult, type WorkerReply, type WorkerRequest } from './wire.ts';

export interface Lane {
  readonly index: number;
  /** True when the lane can take a call now. */
  readonly idle: boolean;
  /** True while a call runs. */
  readonly busy: boolean;
  /** True once the lane gave up starting executors. */
  readonly broken: boolean;
  /** Resolves when the executor is first ready; rejects if it never starts. */
  readonly started: Promise<void>;
  readonly restarts: number;
  /** Runs one call; only called while `idle`. */
  run(call: Call): Promise<WireResult>;
  /** Ends the executor as a crash would (in-flight call rejected, replacement started). */
  kill(): Promise<void>;
  /** Lets the in-flight call finish, then ends the executor for good. */
  close(): Promise<void>;
}

export interface LaneEvents {
  /** The lane became idle (started, finished a call, or was replaced). */
  onIdle(): void;
  /** The lane cannot start an executor any more; queued calls should fail with `error`. */
  onBroken(error: TvmError): void;
}

/** Consecutive failed starts after which a lane gives up instead of respawning forever. */
const MAX_START_FAILURES = 3;

const WORKER_ENTRY = workerEntry(new URL('./worker.ts', import.meta.url), import.meta.url);

function settle<T>(p: Promise<T>): Promise<void> {
  return p.then(
    () => undefined,
    () => undefined,
  );
}

export function createWorkerLane(index: number, opts: { verbosity: ExecutorVerbosity }, events: LaneEvents): Lane {
  type Current = { id: number; call: Call; resolve(r: WireResult): void; reject(e: Error): void; done: Promise<void> };
  let worker: Worker | null = null;
  let ready = false;
  let stopping = false;
  let broken = false;
  let startFailures = 0;
  let restarts = 0;
  let lastError: string | null = null;
  let current: Current | null = null;
  let nextId = 1;
  let sender = new BlobSender();
  let resolveStarted!: () => void;
  let rejectStarted!: (e: Error) => void;
  const started = new Promise<void>((res, rej) => {
    resolveStarted = res;
    rejectStarted = rej;
  });
  started.catch(() => undefined);

  function post(c: Current): void {
    const { job, transfer } = encodeCall(c.call, sender);
    const msg: WorkerRequest = { type: 'job', id: c.id, job };
    worker!.postMessage(msg, transfer);
  }

  function finish(): void {
    current = null;
    if (!stopping) events.onIdle();
  }

  function onMessage(w: Worker, msg: WorkerReply): void {
    if (w !== worker) return;
    switch (msg.type) {
      case 'ready':
        ready = true;
        startFailures = 0;
        resolveStarted();
        if (!stopping) events.onIdle();
        return;
      case 'start-failed':
        lastError = msg.message;
        void w.terminate();
        return;
      case 'result': {
        const c = current;
        if (c === null || c.id !== msg.id) return;
        if (msg.result.kind === 'blob-miss') {
          sender.reset();
          post(c);
          return;
        }
        c.resolve(msg.result);
        finish();
        return;
      }
      case 'failed': {
        const c = current;
        if (c === null || c.id !== msg.id) return;
        c.reject(
          new TvmError(`${CALL_NAMES[c.call.kind]}: TVM executor ${index} failed: ${msg.name}: ${msg.message}`, {
            details: { worker: index, call: c.call.kind },
          }),
        );
        finish();
        return;
      }
    }
  }

  function onExit(w: Worker, code: number): void {
    if (w !== worker) return;
    worker = null;
    const wasReady = ready;
    ready = false;
    sender = new BlobSender();
    const c = current;
    if (c !== null) {
      current = null;
      const why = stopping ? 'the runner was closed' : `TVM worker ${index} exited with code ${code}`;
      c.reject(
        new TvmError(`${CALL_NAMES[c.call.kind]}: ${why} while running the call; it did not complete`, {
          retryable: !stopping,
          details: { worker: index, exitCode: code, call: c.call.kind, ...(lastError ? { lastError } : {}) },
        }),
      );
    }
    if (stopping) return;
    if (!wasReady && ++startFailures >= MAX_START_FAILURES) {
      broken = true;
      const err = new TvmError(
        `TVM worker ${index} failed to start ${startFailures} times${lastError ? `: ${lastError}` : ` (exit code ${code})`}`,
        { details: { worker: index, exitCode: code } },
      );
      rejectStarted(err);
      events.onBroken(err);
      return;
    }
    restarts++;
    spawn();
  }

  function spawn(): void {
    lastError = null;
    const w = startTsWorker(WORKER_ENTRY, { verbosity: opts.verbosity }, { execArgv: [] });
    worker = w;
    w.on('message', (msg: WorkerReply) => onMessage(w, msg));
    w.on('error', (e: Error) => {
      if (w === worker) lastError = `${e.name}: ${e.message}`;
    });
    w.on('exit', (code: number) => onExit(w, code));
  }

  spawn();

  return {
    index,
    get idle() {
      return ready && current === null && !stopping && !broken;
    },
    get busy() {
      return current !== null;
    },
    get broken() {
      return broken;
    },
    started,
    get restarts() {
      return restarts;
    },
    run(call) {
      if (!ready || current !== null || worker === null) {
        return Promise.reject(new TvmError(`TVM worker ${index} is not idle`, { retryable: true }));
      }
      let resolve!: (r: WireResult) => void;
      let reject!: (e: Error) => void;
      const p = new Promise<WireResult>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      current = { id: nextId++, call, resolve, reject, done: settle(p) };
      post(current);
      return p;
    },
    async kill() {
      if (worker !== null) await worker.terminate();
    },
    async close() {
      stopping = true;
      if (current !== null) await current.done;
      const w = worker;
      if (w !== null) await w.terminate();
      rejectStarted(new TvmError('TVM runner closed before its worker started'));
    },
  };
}

/** The same job handler in this thread: every call blocks the event loop while the emulator runs. */
export function createInProcessLane(index: number, opts: { verbosity: ExecutorVerbosity }, events: LaneEvents): Lane {
  const handler = createJobHandler(opts);
  const sender = new BlobSender();
  let ready = false;
  let busy: Promise<void> | null = null;
  let stopping = false;
  let restarts = 0;
  const started = handler.ready().then(() => {
    ready = true;
    events.onIdle();
  });
  started.catch(() => undefined);

  async function runOnce(call: Call): Promise<WireResult> {
    for (let attempt = 0; ; attempt++) {
      const { job } = encodeCall(call, sender);
      const { result } = await handler.handle(job);
      if (result.kind !== 'blob-miss' || attempt > 0) return result;
      sender.reset();
    }
  }

  return {
    index,
    get idle() {
      return ready && busy === null && !stopping;
    },
    get busy() {
      return busy !== null;
    },
    broken: false,
    started,
    get restarts() {
      return restarts;
    },
    run(call) {
      if (busy !== null) return Promise.reject(new TvmError(`TVM executor ${index} is not idle`, { retryable: true }));
      const p = runOnce(call).catch((e: unknown) => {
        sender.reset();
        const err = e instanceof Error ? e : new Error(String(e));
        throw new TvmError(`${CALL_NAMES[call.kind]}: TVM executor ${index} failed: ${err.name}: ${err.message}`, {
          cause: err,
          details: { worker: index, call: call.kind },
        });
      });
      busy = settle(p).then(() => {
        busy = null;
        if (!stopping) events.onIdle();
      });
      return p;
    },
    async kill() {
      // Nothing runs concurrently in this thread, so there is no call to interrupt: replace the Executor.
      restarts++;
      handler.reset();
      sender.reset();
    },
    async close() {
      stopping = true;
      if (busy !== null) await busy;
      handler.reset();
    },
  };
}
