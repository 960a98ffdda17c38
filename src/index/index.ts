// The indexing processor (issue 5): block sources, the shard-chain walk, row decoding, the per-masterchain-block
// writer, and indexMcBlock, the one function every mode runs.

export {
  accountInputOf,
  type DecodedUnit,
  decodeMcBlock,
  type UnitDecoder,
} from './decode/decode-unit.ts';
export * from './decode/index.ts';
export {
  createDecodePool,
  type DecodePool,
  type DecodePoolOptions,
  defaultDecodeThreads,
} from './decode-pool/index.ts';
export { type IndexDeps, type IndexResult, indexMcBlock } from './index-mc-block.ts';
export { createIndexMetrics, type IndexMetrics } from './metrics.ts';
export { type NewShardBlock, newShardBlocks, type ShardTop, shardTopsOf } from './parse/new-shard-blocks.ts';
export * from './source/index.ts';
export * from './write/index.ts';
