export { classifyFailure, type FailureKind, isHistoryMiss } from './failure.ts';
export { LiteConnection, type LiteConnectionOptions, type LiteQueryOptions } from './lite-connection.ts';
export {
  type AttemptContext,
  type BlockData,
  type BlockLookupQuery,
  type BlockRef,
  createAttemptLiteClient,
  functionName,
  type ListBlockTransactionsArgs,
  type LiteMethods,
  type LiteRequestOptions,
  methodId,
  type RunMethodResult,
  shardToString,
  toBlockIdExt,
} from './lite-methods.ts';
export {
  createLitePool,
  type LitePool,
  type LitePoolOptions,
  type LiteServerHealth,
  type LiteServerState,
  type PinnedLiteClient,
  type WithServerOptions,
} from './lite-pool.ts';
export {
  type HistogramSample,
  LATENCY_BUCKETS_SECONDS,
  type LitePoolMetrics,
  type MetricFamily,
  type MetricLabels,
  type ValueSample,
} from './pool-metrics.ts';
export { type TlFunction, TlReader, TlWriter } from './tl-buffer.ts';
