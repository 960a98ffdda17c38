// Queue and job names and the deterministic job id (style guide §5, §6.3): one job per masterchain
// block, `mc-<seqno>`, carrying only the seqno (never BoCs or rows).
export const INDEX_MC_BLOCK = 'index-mc-block';

/** What `index_checkpoints.part` the core pipeline writes (schema/0002); owned by the writer. */
export { CORE_PART } from '../index.ts';

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
