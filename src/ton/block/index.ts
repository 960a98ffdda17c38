// The block codec (block.tlb: Block and everything inside it), read and write.
export * from './account-block.ts';
export * from './block.ts';
export * from './block-extra.ts';
export {
  type BlkPrevInfo,
  type BlockInfo,
  loadBlkPrevInfo,
  loadBlockInfo,
  loadShardIdentTlb,
  shardIdOf,
  storeBlkPrevInfo,
  storeBlockInfo,
  storeShardIdentTlb,
} from './block-info.ts';
export { addCurrencies, zeroCurrencies } from './currency.ts';
export * from './ext-blk-ref.ts';
export * from './in-msg.ts';
// loadConfigParams / storeConfigParams stay file-level here: src/ton/config owns those names (it decodes the
// Hashmap 32 ^Cell into a Map); McBlockExtra keeps the config as the raw dictionary root cell.
export {
  type ConfigParams,
  type CryptoSignature,
  type CryptoSignaturePair,
  type CryptoSignatureSimple,
  cryptoSignaturePairValue,
  loadCryptoSignature,
  loadCryptoSignaturePair,
  loadMcBlockExtra,
  loadShardFeeCreated,
  loadShardFees,
  type McBlockExtra,
  type ShardFeeCreated,
  type ShardFees,
  shardFeesCodec,
  shardFeesKey,
  storeCryptoSignature,
  storeCryptoSignaturePair,
  storeMcBlockExtra,
  storeShardFeeCreated,
  storeShardFees,
} from './mc-block-extra.ts';
export * from './msg-envelope.ts';
export * from './out-msg.ts';
export * from './shard-descr.ts';
export * from './shard-id.ts';
export * from './value-flow.ts';
