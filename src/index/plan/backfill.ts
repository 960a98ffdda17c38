// Backfill planning: one job per masterchain seqno in [from, to] that has no checkpoint yet, added in
// ascending order and in bulk. Re-planning is harmless: existing job ids are skipped by the queue and
// checkpointed blocks by this planner (and again by the processor, which checks before working).
// `walk backfill` plans through createBackfillWindows: window by window, never past the source's head (a job
// for a block that does not exist yet only fails and retries), and only while the queue's backlog is small.
import type { Queryable } from '../../db/index.ts';
import type { JobQueue } from '../../queue/index.ts';
import { startTraceAssembly } from '../traces/assemble.ts';
import { checkpointedSeqnos } from './checkpoints.ts';
import { INDEX_MC_BLOCK, mcJob } from './jobs.ts';

export interface BackfillPlan {
  from: number;
  to: number;
  /** Seqnos in the range. */
  total: number;
  /** Already checkpointed, not enqueued. */
  indexed: number;
  /** Jobs newly added (the rest of the missing ones were already queued). */
  added: number;
  /** Missing seqnos, i.e. the work still to do (queued now or before). */
  missing: number;
}

export async function planBackfill(opts: {
  queue: JobQueue;
  db: Queryable;
  from: number;
  to: number;
  /** Seqnos per round trip (default 1000). */
  chunk?: number;
}): Promise<BackfillPlan> {
  const { queue, db, from, to } = opts;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from) {
    throw new RangeError(`backfill range must be 0 <= from <= to, got [${from}, ${to}]`);
  }
  // Trace assembly begins where the first planned range begins (a no-op once it started).
  await startTraceAssembly(db, from);
  const chunk = opts.chunk ?? 1000;
  const plan: BackfillPlan = { from, to, total: to - from + 1, indexed: 0, added: 0, missing: 0 };
  for (let lo = from; lo <= to; lo += chunk) {
    const hi = Math.min(to, lo + chunk - 1);
    const done = new Set(await checkpointedSeqnos(db, lo, hi));
    const jobs = [];
    for (let s = lo; s <= hi; s++) if (!done.has(s)) jobs.push(mcJob(s));
    plan.indexed += done.size;
    plan.missing += jobs.length;
    if (jobs.length > 0) plan.added += await queue.addBulk(jobs);
  }
  return plan;
}

/** A backfill planned window by window, as the head and the queue allow. */
export interface BackfillWindows {
  /**
   * Plans more of [from, to], never past `head`, while fewer than `maxBacklog` index-mc-block jobs wait.
   * Returns what this call planned (null when nothing).
   */
  extend(head: number): Promise<BackfillPlan | null>;
  /** Highest seqno planned so far (from - 1 before the first window). */
  readonly plannedThrough: number;
  /** Everything planned so far (`to` is plannedThrough). */
  readonly planned: BackfillPlan;
}

export function createBackfillWindows(opts: {
  queue: JobQueue;
  db: Queryable;
  from: number;
  to: number;
  /** Most seqnos planned per window (default 1000). */
  window?: number;
  /** Most index-mc-block jobs waiting or delayed before no more are planned (default 10 000). */
  maxBacklog?: number;
}): BackfillWindows {
  const { queue, db, from, to } = opts;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from) {
    throw new RangeError(`backfill range must be 1 <= from <= to, got [${from}, ${to}]`);
  }
  const window = opts.window ?? 1000;
  const maxBacklog = opts.maxBacklog ?? 10_000;
  let plannedThrough = from - 1;
  const planned: BackfillPlan = { from, to: from - 1, total: 0, indexed: 0, added: 0, missing: 0 };
  return {
    get plannedThrough() {
      return plannedThrough;
    },
    get planned() {
      return { ...planned };
    },
    async extend(head) {
      const limit = Math.min(to, head);
      let now: BackfillPlan | null = null;
      while (plannedThrough < limit) {
        const c = await queue.counts(INDEX_MC_BLOCK);
        const room = maxBacklog - (c.waiting + c.delayed);
        if (room <= 0) break;
        const hi = Math.min(limit, plannedThrough + Math.min(window, room));
        const p = await planBackfill({ queue, db, from: plannedThrough + 1, to: hi });
        plannedThrough = hi;
        now ??= { from: p.from, to: p.to, total: 0, indexed: 0, added: 0, missing: 0 };
        for (const acc of [planned, now]) {
          acc.to = hi;
          acc.total += p.total;
          acc.indexed += p.indexed;
          acc.added += p.added;
          acc.missing += p.missing;
        }
      }
      return now;
    },
  };
}
