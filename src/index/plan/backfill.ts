// Backfill planning: one job per masterchain seqno in [from, to] that has no checkpoint yet, added in
// ascending order and in bulk. Re-planning is harmless: existing job ids are skipped by the queue and
// checkpointed blocks by this planner (and again by the processor, which checks before working).
import type { Queryable } from '../../db/index.ts';
import type { JobQueue } from '../../queue/index.ts';
import { startTraceAssembly } from '../traces/assemble.ts';
import { checkpointedSeqnos } from './checkpoints.ts';
import { mcJob } from './jobs.ts';

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
