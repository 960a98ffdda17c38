// Planning: which index-mc-block jobs to enqueue (backfill, gaps, tail).
export { type BackfillPlan, planBackfill } from './backfill.ts';
export {
  BULK_KEEP_INDEXES,
  BULK_TABLES,
  type BulkBackfillReport,
  type BulkIndexes,
  type BulkLog,
  type BulkOptions,
  bulkBackfill,
  type DropReport,
  dropSecondaryIndexes,
  openBulkIndexes,
  pendingBulkIndexes,
  type RecordedIndex,
  type RestoreReport,
  restoreSecondaryIndexes,
  secondaryIndexes,
} from './bulk.ts';
export {
  checkpointBounds,
  checkpointedSeqnos,
  findGaps,
  type RangeProgress,
  rangeProgress,
  refreshIndexedRanges,
} from './checkpoints.ts';
export { type GapReport, requeueGaps } from './gaps.ts';
export {
  CLASSIFY_MC_BLOCK,
  CORE_PART,
  classifyJob,
  INDEX_MC_BLOCK,
  type IndexMcBlockJob,
  mcJob,
  mcJobId,
} from './jobs.ts';
export { type PlanLog, runTail, type TailOptions, type TailStatus } from './tail.ts';
