// Gap repair: seqnos in a range with no checkpoint are queued again. A job that is still waiting or
// running is left alone; one that finished without leaving a checkpoint (failed for good, or lost)
// is restarted with fresh attempts.
import type { Queryable } from '../../db/index.ts';
import type { JobQueue } from '../../queue/index.ts';
import { checkpointBounds, findGaps } from './checkpoints.ts';
import { INDEX_MC_BLOCK, mcJobId } from './jobs.ts';

export interface GapReport {
  from: number;
  to: number;
  gaps: number[];
  /** Gaps whose job was added or restarted (the others are still pending). */
  requeued: number;
}

/** Without a range, checks between the lowest and highest checkpoint. */
export async function requeueGaps(opts: {
  queue: JobQueue;
  db: Queryable;
  from?: number;
  to?: number;
}): Promise<GapReport> {
  let { from, to } = opts;
  if (from === undefined || to === undefined) {
    const bounds = await checkpointBounds(opts.db);
    if (!bounds) return { from: from ?? 0, to: to ?? -1, gaps: [], requeued: 0 };
    from ??= bounds.min;
    to ??= bounds.max;
  }
  const gaps = await findGaps(opts.db, from, to);
  let requeued = 0;
  for (const s of gaps) {
    if (await opts.queue.requeue(INDEX_MC_BLOCK, { mcSeqno: s }, { jobId: mcJobId(s) })) requeued += 1;
  }
  return { from, to, gaps, requeued };
}
