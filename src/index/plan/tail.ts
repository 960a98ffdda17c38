// Tail planning: follow the source's masterchain head and enqueue each new seqno once, in order.
// Without --from it resumes where the indexed blocks stop being contiguous (from the trace assembler's watermark,
// else the lowest checkpoint), so blocks between an earlier backfill and the head are queued too and trace
// assembly, which needs every block in order, is never left waiting. It enqueues only blocks the source has and
// only while the queue's backlog is small; every few rounds it re-queues gaps behind the head (jobs that failed
// for good, or lost with the queue). Logs one line per state change (catching up, following, behind, failing,
// recovered, re-queued gaps), plus a progress line now and then while catching up.
import { isTongateError } from '../../common/index.ts';
import type { Log } from '../../common/logger.ts';
import type { Queryable } from '../../db/index.ts';
import type { JobQueue } from '../../queue/index.ts';
import { startTraceAssembly, traceAssemblyState } from '../traces/assemble.ts';
import { checkpointBounds, checkpointedSeqnos, firstGapFrom } from './checkpoints.ts';
import { requeueGaps } from './gaps.ts';
import { createWorkerWatch, INDEX_MC_BLOCK, mcJob, type WatchedCounts } from './jobs.ts';

/**
 * catching-up: working through the blocks behind the head it started with; following: it reached the head
 * (lag 0) and keeps within `behindLag` of it; behind: it had reached the head and fell more than `behindLag` back.
 */
export type TailState = 'catching-up' | 'following' | 'behind';

export interface TailStatus {
  head: number;
  /** Highest seqno enqueued so far. */
  enqueuedThrough: number;
  /** Highest seqno such that every seqno from the start to it is checkpointed (start - 1 when none). */
  indexedThrough: number;
  /** head - indexedThrough. */
  lag: number;
  state: TailState;
}

export interface TailOptions {
  queue: JobQueue;
  db: Queryable;
  /** Anything with the BlockSource's head(). */
  source: { head(): Promise<number> };
  /** First seqno to index; default: see tailResumePoint, else the current head. */
  from?: number;
  /** Head polls, in ms (default 1000). */
  pollMs?: number;
  /** Re-queue gaps every this many polls (default 30). */
  gapEvery?: number;
  /** Most seqnos enqueued per poll, so a tail far behind does not flood the queue (default 1000). */
  maxPerPoll?: number;
  /** No more is enqueued while this many index-mc-block jobs wait or are delayed (default 10 000). */
  maxBacklog?: number;
  /** A tail that was following is "behind" once its lag exceeds this many blocks (default 30). */
  behindLag?: number;
  /** While not following, a progress line at most this often, in ms (default 30 000). */
  statusEveryMs?: number;
  /**
   * Called once when jobs wait and no worker takes any for `noWorkerMs` (default 5000): for a shared queue
   * whose workers are other processes. Not checked without it.
   */
  onNoWorker?: (counts: WatchedCounts) => void;
  noWorkerMs?: number;
  signal: AbortSignal;
  log?: Log;
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

/**
 * Where a tail without --from starts: the first seqno without a checkpoint at or after the trace assembler's
 * watermark (the next block it needs), or, before assembly started, after the lowest contiguous run of checkpoints.
 * Null when nothing was ever indexed or planned.
 */
export async function tailResumePoint(
  db: Queryable,
): Promise<{ from: number; after: 'trace-assembly' | 'checkpoints' } | null> {
  const assembly = await traceAssemblyState(db);
  if (assembly) return { from: await firstGapFrom(db, assembly.nextMcSeqno), after: 'trace-assembly' };
  const bounds = await checkpointBounds(db);
  return bounds ? { from: await firstGapFrom(db, bounds.min), after: 'checkpoints' } : null;
}

/** Runs until `signal` aborts. Retryable errors (source or database unreachable) are logged and retried. */
export async function runTail(opts: TailOptions): Promise<void> {
  const { queue, db, source, signal } = opts;
  const log = opts.log ?? (() => {});
  const pollMs = opts.pollMs ?? 1000;
  const gapEvery = opts.gapEvery ?? 30;
  const maxPerPoll = opts.maxPerPoll ?? 1000;
  const maxBacklog = opts.maxBacklog ?? 10_000;
  const behindLag = opts.behindLag ?? 30;
  const statusEveryMs = opts.statusEveryMs ?? 30_000;
  const watch = opts.onNoWorker ? createWorkerWatch({ afterMs: opts.noWorkerMs ?? 5000 }) : undefined;
  let next: number | undefined;
  let indexedThrough = 0;
  let round = 0;
  let state: TailState | undefined;
  let lastStatusLog = 0;
  let failing = false;
  while (!signal.aborted) {
    try {
      const head = await source.head();
      if (next === undefined) {
        const resume = opts.from === undefined ? await tailResumePoint(db) : null;
        // Masterchain block 0 is the zero state, not a block: an empty source starts at 1.
        const from = opts.from ?? resume?.from ?? Math.max(1, head);
        // Trace assembly begins where following begins, unless it started before (a no-op then).
        await startTraceAssembly(db, from);
        next = from;
        indexedThrough = from - 1;
        log('info', 'Started following the masterchain head', {
          from,
          head,
          startedAt: opts.from !== undefined ? '--from' : resume ? `first unindexed block (${resume.after})` : 'head',
          behind: Math.max(0, head - from + 1),
        });
      }
      const counts = await queue.counts(INDEX_MC_BLOCK);
      const room = Math.min(maxPerPoll, maxBacklog - (counts.waiting + counts.delayed));
      if (next <= head && room > 0) {
        const last = Math.min(head, next + room - 1);
        const done = new Set(await checkpointedSeqnos(db, next, last));
        const jobs = [];
        for (let s = next; s <= last; s++) if (!done.has(s)) jobs.push(mcJob(s));
        if (jobs.length > 0) await queue.addBulk(jobs);
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
      if (round % gapEvery === 0 && indexedThrough + 1 <= next - 1) {
        const r = await requeueGaps({ queue, db, from: indexedThrough + 1, to: next - 1 });
        if (r.requeued > 0) log('warn', 'Re-queued gaps', { requeued: r.requeued, gaps: r.gaps.slice(0, 20) });
      }
      const lag = head - indexedThrough;
      const was = state;
      if (lag <= 0) state = 'following';
      else if (state === undefined) state = 'catching-up';
      else if (state === 'following' && lag > behindLag) state = 'behind';
      const status: TailStatus = { head, enqueuedThrough: next - 1, indexedThrough, lag, state };
      const now = Date.now();
      if (state !== was || (state !== 'following' && now - lastStatusLog >= statusEveryMs)) {
        lastStatusLog = now;
        log('info', 'Followed the masterchain head', { ...status });
      }
      if (watch?.(counts, indexedThrough)) opts.onNoWorker?.(counts);
      opts.onStatus?.(status);
      // Recovered only once a whole round worked: the head can answer while the queue is still away.
      if (failing) {
        failing = false;
        log('info', 'Recovered the tail', { head });
      }
    } catch (e) {
      if (isTongateError(e) && !e.retryable) throw e;
      const error = e instanceof Error ? e.message : String(e);
      if (!failing) log('warn', 'Failed a tail round, will retry until it works', { error });
      else log('debug', 'Failed a tail round again', { error });
      failing = true;
    }
    await sleep(pollMs, signal);
  }
}
