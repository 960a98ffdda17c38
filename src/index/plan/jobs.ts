// Queue and job names and the deterministic job id (style guide §5, §6.3): one job per masterchain
// block, `mc-<seqno>`, carrying only the seqno (never BoCs or rows).
export const INDEX_MC_BLOCK = 'index-mc-block';

/** What `index_checkpoints.part` the core pipeline writes (schema/0002); owned by the writer. */
export { CORE_PART } from '../write/index.ts';

export interface IndexMcBlockJob {
  mcSeqno: number;
}

export function mcJobId(mcSeqno: number): string {
  if (!Number.isInteger(mcSeqno) || mcSeqno < 0 || mcSeqno > 0xffffffff) {
    throw new RangeError(`masterchain seqno must be a uint32, got ${mcSeqno}`);
  }
  return `mc-${mcSeqno}`;
}

export function mcJob(mcSeqno: number): { name: string; data: IndexMcBlockJob; jobId: string } {
  return { name: INDEX_MC_BLOCK, data: { mcSeqno }, jobId: mcJobId(mcSeqno) };
}

/** Classification of the traces that became final in one masterchain block: `classify-<seqno>`. */
export const CLASSIFY_MC_BLOCK = 'classify-mc-block';

export function classifyJob(mcSeqno: number): { name: string; data: IndexMcBlockJob; jobId: string } {
  return { name: CLASSIFY_MC_BLOCK, data: { mcSeqno }, jobId: `classify-${mcJobId(mcSeqno).slice(3)}` };
}

/** What a worker watch reads each round: the queue's counts of index-mc-block jobs. */
export interface WatchedCounts {
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
}

/**
 * Notices a shared queue nobody works on: jobs waiting, none active, none finishing and no checkpoint progress,
 * for `afterMs` in a row. Feed it each round's counts and a progress number (e.g. checkpointed blocks); it returns
 * true once, the first time that state has lasted `afterMs`, and false ever after.
 */
export function createWorkerWatch(
  opts: { afterMs?: number; now?: () => number } = {},
): (counts: WatchedCounts, progress: number) => boolean {
  const afterMs = opts.afterMs ?? 5000;
  const now = opts.now ?? Date.now;
  let idleSince: number | undefined;
  let prev: { completed: number; failed: number; progress: number } | undefined;
  let reported = false;
  return (counts, progress) => {
    if (reported) return false;
    const moved =
      prev !== undefined &&
      (counts.completed !== prev.completed || counts.failed !== prev.failed || progress !== prev.progress);
    prev = { completed: counts.completed, failed: counts.failed, progress };
    if (counts.waiting === 0 || counts.active > 0 || moved) {
      idleSince = undefined;
      return false;
    }
    idleSince ??= now();
    if (now() - idleSince < afterMs) return false;
    reported = true;
    return true;
  };
}
