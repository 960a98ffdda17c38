// Tail planning: follow the source's masterchain head and enqueue each new seqno once, in order; every
// few rounds re-queue gaps behind the head (jobs that failed for good); report the lag behind the head.
import { isTongateError } from '../../common/index.ts';
import type { Queryable } from '../../db/index.ts';
import type { JobQueue } from '../../queue/index.ts';
import { startTraceAssembly } from '../traces/assemble.ts';
import { checkpointBounds, checkpointedSeqnos } from './checkpoints.ts';
import { requeueGaps } from './gaps.ts';
import { mcJob } from './jobs.ts';

export type PlanLog = (
  level: 'debug' | 'info' | 'warn' | 'error',
  msg: string,
  fields?: Record<string, unknown>,
) => void;

export interface TailStatus {
  head: number;
  /** Highest seqno enqueued so far. */
  enqueuedThrough: number;
  /** Highest seqno such that every seqno from the start to it is checkpointed (start - 1 when none). */
  indexedThrough: number;
  /** head - indexedThrough. */
  lag: number;
}

export interface TailOptions {
  queue: JobQueue;
  db: Queryable;
  /** Anything with the BlockSource's head(). */
  source: { head(): Promise<number> };
  /** First seqno to index; default: after the highest checkpoint, else the current head. */
  from?: number;
  /** Head polls, in ms (default 1000). */
  pollMs?: number;
  /** Re-queue gaps every this many polls (default 30). */
  gapEvery?: number;
  /** Most seqnos enqueued per poll, so a tail far behind does not flood the queue (default 1000). */
  maxPerPoll?: number;
  signal: AbortSignal;
  log?: PlanLog;
  onStatus?: (s: TailStatus) => void;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** Runs until `signal` aborts. Retryable errors (source or database unreachable) are logged and retried. */
export async function runTail(opts: TailOptions): Promise<void> {
  const { queue, db, source, signal } = opts;
  const log = opts.log ?? (() => {});
  const pollMs = opts.pollMs ?? 1000;
  const gapEvery = opts.gapEvery ?? 30;
  const maxPerPoll = opts.maxPerPoll ?? 1000;
  let start: number | undefined = opts.from;
  let next: number | undefined = opts.from;
  let indexedThrough = (opts.from ?? 0) - 1;
  let round = 0;
  while (!signal.aborted) {
    try {
      const head = await source.head();
      if (next === undefined) {
        const bounds = await checkpointBounds(db);
        next = bounds ? bounds.max + 1 : head;
        start = next;
        indexedThrough = next - 1;
        log('info', 'Started following the masterchain head', { from: next, head });
      }
      if (round === 0 && next !== undefined) {
        // Trace assembly begins where following begins, unless it started before (a no-op then).
        await startTraceAssembly(db, next);
      }
      if (next <= head) {
        const last = Math.min(head, next + maxPerPoll - 1);
        const jobs = [];
        for (let s = next; s <= last; s++) jobs.push(mcJob(s));
        await queue.addBulk(jobs);
        next = last + 1;
      }
      // Advance the contiguous indexed prefix.
      if (indexedThrough < next - 1) {
        const done = await checkpointedSeqnos(db, indexedThrough + 1, next - 1);
        for (const s of done) {
          if (s !== indexedThrough + 1) break;
          indexedThrough = s;
        }
      }
      round += 1;
      if (round % gapEvery === 0 && start !== undefined && indexedThrough + 1 <= next - 1) {
        const r = await requeueGaps({ queue, db, from: indexedThrough + 1, to: next - 1 });
        if (r.requeued > 0) log('warn', 'Re-queued gaps', { requeued: r.requeued, gaps: r.gaps.slice(0, 20) });
      }
      const status: TailStatus = { head, enqueuedThrough: next - 1, indexedThrough, lag: head - indexedThrough };
      log('info', 'Followed the masterchain head', { ...status });
      opts.onStatus?.(status);
    } catch (e) {
      if (isTongateError(e) && !e.retryable) throw e;
      log('warn', 'Failed a tail round, will retry', { error: e instanceof Error ? e.message : String(e) });
    }
    await sleep(pollMs, signal);
  }
}
