// block.tlb:557-561
//   validator_info$_
//     validator_list_hash_short:uint32
//     catchain_seqno:uint32
//     nx_cc_updated:Bool
//   = ValidatorInfo;
// block.tlb:574-584
//   masterchain_state_extra#cc26
//     shard_hashes:ShardHashes
//     config:ConfigParams
//     ^[ flags:(## 16) { flags <= 1 }
//        validator_info:ValidatorInfo
//        prev_blocks:OldMcBlocksInfo
//        after_key_block:Bool
//        last_key_block:(Maybe ExtBlkRef)
//        block_create_stats:(flags . 0)?BlockCreateStats ]
//     global_balance:CurrencyCollection
//   = McStateExtra;
//
// ConfigParams (block.tlb:554-555) is shared with McBlockExtra and lives in block/mc-block-extra.ts.
// Written from block.tlb, not from @ton/core's loadMasterchainStateExtra, which reads `config` as a Maybe
// ref and so misreads global_balance (ton-libs.md §4.3).
import { type Builder, beginCell, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { decoding, expectTag } from '../block/codec-util.ts';
import { type ExtBlkRef, loadExtBlkRef, storeExtBlkRef } from '../block/ext-blk-ref.ts';
import { type ConfigParams, loadConfigParams, storeConfigParams } from '../block/mc-block-extra.ts';
import { loadShardHashes, type ShardHashes } from '../block/shard-descr.ts';
import { type BlockCreateStats, loadBlockCreateStats, storeBlockCreateStats } from './block-create-stats.ts';
import { loadPrunableCurrencies, type PrunableCurrencyCollection, storePrunableCurrencies } from './currencies.ts';
import { type DictRoot, loadDictRoot, storeDictRoot } from './dict-root.ts';
import { loadOldMcBlocksInfo, type OldMcBlocksInfo, storeOldMcBlocksInfo } from './old-mc-blocks-info.ts';
import { isPrunedCell, loadPrunableRef, type Prunable, storePrunableRef } from './pruned.ts';

export interface ValidatorInfo {
  validatorListHashShort: number;
  catchainSeqno: number;
  nxCcUpdated: boolean;
}

export function loadValidatorInfo(s: Slice): ValidatorInfo {
  return decoding('ValidatorInfo', () => ({
    validatorListHashShort: s.loadUint(32),
    catchainSeqno: s.loadUint(32),
    nxCcUpdated: s.loadBit(),
  }));
}

export function storeValidatorInfo(v: ValidatorInfo): (b: Builder) => void {
  return (b) => {
    b.storeUint(v.validatorListHashShort, 32).storeUint(v.catchainSeqno, 32).storeBit(v.nxCcUpdated);
  };
}

/** The anonymous ^[ … ] cell of McStateExtra (named r1 after tlbc's generated code). */
export interface McStateExtraR1 {
  flags: number;
  validatorInfo: ValidatorInfo;
  prevBlocks: OldMcBlocksInfo;
  afterKeyBlock: boolean;
  lastKeyBlock: ExtBlkRef | null;
  /** Present exactly when bit 0 of `flags` is set. */
  blockCreateStats: BlockCreateStats | null;
}

export function loadMcStateExtraR1(s: Slice): McStateExtraR1 {
  return decoding('McStateExtra', () => {
    const flags = s.loadUint(16);
    if (flags > 1) throw new CodecError(`McStateExtra: expected flags <= 1, got ${flags}`);
    return {
      flags,
      validatorInfo: loadValidatorInfo(s),
      prevBlocks: loadOldMcBlocksInfo(s),
      afterKeyBlock: s.loadBit(),
      lastKeyBlock: s.loadBit() ? loadExtBlkRef(s) : null,
      blockCreateStats: flags & 1 ? loadBlockCreateStats(s) : null,
    };
  });
}

export function storeMcStateExtraR1(v: McStateExtraR1): (b: Builder) => void {
  if (v.flags < 0 || v.flags > 1) throw new CodecError(`McStateExtra: expected flags <= 1, got ${v.flags}`);
  if (((v.flags & 1) === 1) !== (v.blockCreateStats !== null)) {
    throw new CodecError(
      `McStateExtra: block_create_stats must be present exactly when flags bit 0 is set (flags ${v.flags})`,
    );
  }
  return (b) => {
    b.storeUint(v.flags, 16)
      .store(storeValidatorInfo(v.validatorInfo))
      .store(storeOldMcBlocksInfo(v.prevBlocks))
      .storeBit(v.afterKeyBlock);
    if (v.lastKeyBlock === null) b.storeBit(false);
    else b.storeBit(true).store(storeExtBlkRef(v.lastKeyBlock));
    if (v.blockCreateStats !== null) b.store(storeBlockCreateStats(v.blockCreateStats));
  };
}

export interface McStateExtra {
  /** ShardHashes (HashmapE 32 ^(BinTree ShardDescr)) as it arrived; `mcStateShardHashes` decodes it. */
  shardHashes: DictRoot;
  config: ConfigParams;
  r1: Prunable<McStateExtraR1>;
  globalBalance: PrunableCurrencyCollection;
}

const MC_STATE_EXTRA_TAG = 0xcc26;

export function loadMcStateExtra(s: Slice): McStateExtra {
  return decoding('McStateExtra', () => {
    expectTag(s, 'McStateExtra', MC_STATE_EXTRA_TAG, 16);
    return {
      shardHashes: loadDictRoot(s),
      config: loadConfigParams(s),
      r1: loadPrunableRef(s, 'McStateExtra', loadMcStateExtraR1),
      globalBalance: loadPrunableCurrencies(s),
    };
  });
}

export function storeMcStateExtra(v: McStateExtra): (b: Builder) => void {
  return (b) => {
    b.storeUint(MC_STATE_EXTRA_TAG, 16)
      .store(storeDictRoot(v.shardHashes))
      .store(storeConfigParams(v.config))
      .store(storePrunableRef(v.r1, storeMcStateExtraR1))
      .store(storePrunableCurrencies(v.globalBalance));
  };
}

/** Decodes shard_hashes (every workchain's shard tree); throws if a proof pruned any of it. */
export function mcStateShardHashes(v: McStateExtra): ShardHashes {
  if (v.shardHashes !== null && isPrunedCell(v.shardHashes)) {
    throw new CodecError('McStateExtra: cannot decode shard_hashes, its root is a pruned branch');
  }
  const root = v.shardHashes;
  return decoding('ShardHashes', () => loadShardHashes(beginCell().storeMaybeRef(root).endCell().beginParse()));
}
