// The indexing processor (issue 5): block sources, the shard-chain walk, row decoding, the per-masterchain-block
// writer, and indexMcBlock, the one function every mode runs. src/index/plan (walker, gaps) imports from here.
export * from './decode/index.ts';
export {
  createDecodePool,
  type DecodePool,
  type DecodePoolOptions,
  defaultDecodeThreads,
} from './decode-pool/index.ts';
export {
  accountInputOf,
  type DecodedUnit,
  decodeMcBlock,
  type IndexDeps,
  type IndexResult,
  indexMcBlock,
  type UnitDecoder,
} from './index-mc-block.ts';
export { createIndexMetrics, type IndexMetrics } from './metrics.ts';
export { type NewShardBlock, newShardBlocks, type ShardTop, shardTopsOf } from './parse/new-shard-blocks.ts';
export * from './source/index.ts';
export * from './write/index.ts';
