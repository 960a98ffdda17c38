// Decoding on every core: a pool of worker threads that decode masterchain blocks (source bytes -> parse -> rows)
// while the main thread coordinates, answers their source calls and writes. A decode thread gets the block bytes
// from the main thread's source, parses them once, and sends the rows back as COPY text (transferred); the main
// thread never parses them. `indexMcBlock` takes the pool as its `decoder`: same rows, same checkpoints.
//
// A thread that dies fails its decodes (the queue retries them) and is replaced; a thread that cannot start three
// times in a row fails every decode with the reason instead of respawning forever.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { IndexError } from '../../common/index.ts';
import { startTsWorker, workerEntry } from '../../common/ts-worker.ts';
import type { DecodedUnit, UnitDecoder } from '../decode/decode-unit.ts';
import type { BlockSource } from '../source/types.ts';
import {
  errorFromWire,
  errorToWire,
  type FromWorker,
  idFromWire,
  type SourceCall,
  stateToWire,
  type ToWorker,
  unitFromWire,
} from './wire.ts';

const WORKER_ENTRY = workerEntry(new URL('./worker.ts', import.meta.url), import.meta.url);
/** Decodes one thread works on at once: each waits part of the time for the main thread's source. */
const PER_THREAD = 2;
const MAX_START_FAILURES = 3;

export interface DecodePoolOptions {
  source: BlockSource;
  /** Decode threads (default: cores - 1, at least 1). */
  threads?: number;
  log?: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
}

export interface DecodePool extends UnitDecoder {
  readonly threads: number;
  /** Resolves once every thread has loaded its code (decodes queue until then; benchmarks wait for it). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The default thread count: every core but the one the main thread (and the database) needs. */
export const defaultDecodeThreads = (): number => Math.max(1, availableParallelism() - 1);

interface Job {
  id: number;
  mcSeqno: number;
  contracts: boolean;
  resolve(u: DecodedUnit): void;
  reject(e: Error): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  jobs: Map<number, Job>;
}

export function createDecodePool(opts: DecodePoolOptions): DecodePool {
  const { source, log } = opts;
  const threads = opts.threads ?? defaultDecodeThreads();
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`decode threads must be >= 1, got ${threads}`);
  const waiting: Job[] = [];
  const pool: Thread[] = [];
  let nextJob = 1;
  let closed = false;
  let startFailures = 0;
  let broken: Error | null = null;
  const readyWaiters: Array<() => void> = [];
  const allReady = () => pool.length === threads && pool.every((t) => t.ready);

  async function answer(t: Thread, call: number, request: SourceCall): Promise<void> {
    let msg: ToWorker;
    try {
      msg = { type: 'source-result', call, value: await serve(request) };
    } catch (e) {
      msg = { type: 'source-failed', call, error: errorToWire(e) };
    }
    if (!closed) t.worker.postMessage(msg);
  }

  /** A decode thread's source call, answered from the real source (block bytes copied by structured clone). */
  async function serve(r: SourceCall): Promise<unknown> {
    switch (r.call) {
      case 'head':
        return source.head();
      case 'mcBlock': {
        const f = await source.mcBlock(r.seqno);
        return f ? { id: f.id, bytes: f.bytes } : null;
      }
      case 'block': {
        const f = await source.block(idFromWire(r.id));
        return { id: f.id, bytes: f.bytes };
      }
      case 'accountStates':
        return (
          await source.accountStates(
            idFromWire(r.id),
            r.addresses.map((a) => Buffer.from(a)),
          )
        ).map(stateToWire);
      case 'declaredUnit':
        return source.declaredUnit ? source.declaredUnit(r.mcSeqno) : null;
    }
  }

  function dispatch(): void {
    while (waiting.length > 0) {
      const t = pool.filter((x) => x.ready && x.jobs.size < PER_THREAD).sort((a, b) => a.jobs.size - b.jobs.size)[0];
      if (!t) return;
      const job = waiting.shift() as Job;
      t.jobs.set(job.id, job);
      const msg: ToWorker = { type: 'decode', job: job.id, mcSeqno: job.mcSeqno, contracts: job.contracts };
      t.worker.postMessage(msg);
    }
  }

  function spawn(): Thread {
    const worker = startTsWorker(
      WORKER_ENTRY,
      { sourceName: source.name, statesFromBlocks: source.statesFromBlocks === true },
      { execArgv: [] },
    );
    const t: Thread = { worker, ready: false, jobs: new Map() };
    worker.on('message', (msg: FromWorker) => {
      switch (msg.type) {
        case 'ready':
          t.ready = true;
          startFailures = 0;
          if (allReady()) for (const w of readyWaiters.splice(0)) w();
          dispatch();
          return;
        case 'source':
          void answer(t, msg.call, msg.request);
          return;
        case 'decoded':
        case 'failed': {
          const job = t.jobs.get(msg.job);
          if (!job) return;
          t.jobs.delete(msg.job);
          if (msg.type === 'decoded') job.resolve(unitFromWire(msg.unit));
          else job.reject(errorFromWire(msg.error));
          dispatch();
          return;
        }
      }
    });
    let lastError: Error | null = null;
    worker.on('error', (e) => {
      lastError = e;
    });
    worker.on('exit', (code) => {
      const i = pool.indexOf(t);
      if (i >= 0) pool.splice(i, 1);
      const why = lastError ? `${lastError.name}: ${lastError.message}` : `exit code ${code}`;
      for (const job of t.jobs.values()) {
        job.reject(
          new IndexError(
            'TG_INDEX_NOT_READY',
            `decode thread stopped (${why}) while decoding masterchain block ${job.mcSeqno}`,
            { retryable: true },
          ),
        );
      }
      t.jobs.clear();
      if (closed) return;
      if (!t.ready) startFailures++;
      if (startFailures >= MAX_START_FAILURES) {
        broken = new Error(`decode threads fail to start (${why})`);
        log?.('error', 'Decode threads fail to start; decoding stops', { reason: why });
        for (const job of waiting.splice(0)) job.reject(broken);
        return;
      }
      log?.('warn', 'A decode thread stopped; starting another', { reason: why });
      pool.push(spawn());
    });
    return t;
  }

  for (let i = 0; i < threads; i++) pool.push(spawn());

  return {
    threads,
    ready() {
      if (allReady()) return Promise.resolve();
      if (broken) return Promise.reject(broken);
      return new Promise<void>((resolve) => readyWaiters.push(resolve));
    },
    decode(mcSeqno, { contracts }) {
      if (closed) return Promise.reject(new Error('the decode pool is closed'));
      if (broken) return Promise.reject(broken);
      return new Promise<DecodedUnit>((resolve, reject) => {
        waiting.push({ id: nextJob++, mcSeqno, contracts, resolve, reject });
        dispatch();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new Error('the decode pool is closed'));
      await Promise.all(pool.map((t) => t.worker.terminate()));
    },
  };
}
