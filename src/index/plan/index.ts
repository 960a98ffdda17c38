// Planning: which index-mc-block jobs to enqueue (backfill, gaps, tail).
export { type BackfillPlan, type BackfillWindows, createBackfillWindows, planBackfill } from './backfill.ts';
export {
  BULK_KEEP_INDEXES,
  BULK_TABLES,
  type BulkBackfillReport,
  type BulkIndexes,
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
  firstGapFrom,
  type RangeProgress,
  rangeProgress,
  refreshIndexedRanges,
} from './checkpoints.ts';
export { type GapReport, requeueGaps } from './gaps.ts';
export {
  CLASSIFY_MC_BLOCK,
  CORE_PART,
  classifyJob,
  createWorkerWatch,
  INDEX_MC_BLOCK,
  type IndexMcBlockJob,
  mcJob,
  mcJobId,
  type WatchedCounts,
} from './jobs.ts';
export {
  runTail,
  type TailOptions,
  type TailState,
  type TailStatus,
  tailResumePoint,
} from './tail.ts';
