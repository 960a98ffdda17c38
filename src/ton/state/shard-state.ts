// block.tlb:428-448
//   shard_state#9023afe2 global_id:int32
//     shard_id:ShardIdent
//     seq_no:uint32 vert_seq_no:#
//     gen_utime:uint32 gen_lt:uint64
//     min_ref_mc_seqno:uint32
//     out_msg_queue_info:^OutMsgQueueInfo
//     before_split:(## 1)
//     accounts:^ShardAccounts
//     ^[ overload_history:uint64 underload_history:uint64
//     total_balance:CurrencyCollection
//     total_validator_fees:CurrencyCollection
//     libraries:(HashmapE 256 LibDescr)
//     master_ref:(Maybe BlkMasterInfo) ]
//     custom:(Maybe ^McStateExtra)
//     = ShardStateUnsplit;
//
//   _ ShardStateUnsplit = ShardState;
//   split_state#5f327da5 left:^ShardStateUnsplit right:^ShardStateUnsplit = ShardState;
//
//   shared_lib_descr$00 lib:^Cell publishers:(Hashmap 256 True)
//     = LibDescr;
//
// Every ref may be a pruned branch when the state comes from a proof or a block's state_update.
import type { Builder, Cell, ShardIdent, Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { loadShardIdentTlb, storeShardIdentTlb } from '../block/block-info.ts';
import { decoding, expectTag } from '../block/codec-util.ts';
import { type BlkMasterInfo, loadBlkMasterInfo, storeBlkMasterInfo } from '../block/ext-blk-ref.ts';
import { loadPrunableCurrencies, type PrunableCurrencyCollection, storePrunableCurrencies } from './currencies.ts';
import {
  buildDictRoot,
  type DictEntries,
  type DictRoot,
  dictEntries,
  hashmapEntries,
  loadDictRoot,
  storeDictRoot,
} from './dict-root.ts';
import { loadMcStateExtra, type McStateExtra, storeMcStateExtra } from './mc-state-extra.ts';
import { loadOutMsgQueueInfo, type OutMsgQueueInfo, storeOutMsgQueueInfo } from './out-msg-queue.ts';
import { loadPrunableCell, loadPrunableRef, type Prunable, prunableCell, storePrunableRef } from './pruned.ts';
import { loadShardAccounts, type ShardAccounts, storeShardAccounts } from './shard-accounts.ts';

export interface LibDescr {
  lib: Cell;
  /** Keys of the non-empty Hashmap 256 True: the accounts that publish the library. */
  publishers: bigint[];
}

export function loadLibDescr(s: Slice): LibDescr {
  return decoding('LibDescr', () => {
    expectTag(s, 'LibDescr', 0b00, 2);
    const lib = s.loadRef();
    const d = hashmapEntries(s, 256, () => true);
    if (d.pruned > 0) throw new CodecError('LibDescr: cannot list publishers, a proof pruned some of them');
    return { lib, publishers: d.entries.map((e) => e.key) };
  });
}

export function storeLibDescr(v: LibDescr): (b: Builder) => void {
  if (v.publishers.length === 0)
    throw new CodecError('LibDescr: expected at least one publisher (Hashmap, not HashmapE)');
  const publishers = buildDictRoot(
    v.publishers.map((key) => ({ key, value: true })),
    256,
    () => () => {},
  );
  return (b) => {
    b.storeUint(0b00, 2).storeRef(v.lib).storeSlice(publishers!.beginParse());
  };
}

/** The shard's public libraries present, keyed by library hash; `pruned` counts subtrees a proof left out. */
export function libraryEntries(libraries: DictRoot): DictEntries<LibDescr> {
  return decoding('ShardStateUnsplit', () => dictEntries(libraries, 256, loadLibDescr));
}

/** The anonymous ^[ … ] cell of ShardStateUnsplit (named r1 after tlbc's generated code). */
export interface ShardStateUnsplitR1 {
  overloadHistory: bigint;
  underloadHistory: bigint;
  totalBalance: PrunableCurrencyCollection;
  totalValidatorFees: PrunableCurrencyCollection;
  /** HashmapE 256 LibDescr as it arrived; `libraryEntries` decodes it. */
  libraries: DictRoot;
  masterRef: BlkMasterInfo | null;
}

export function loadShardStateUnsplitR1(s: Slice): ShardStateUnsplitR1 {
  return decoding('ShardStateUnsplit', () => ({
    overloadHistory: s.loadUintBig(64),
    underloadHistory: s.loadUintBig(64),
    totalBalance: loadPrunableCurrencies(s),
    totalValidatorFees: loadPrunableCurrencies(s),
    libraries: loadDictRoot(s),
    masterRef: s.loadBit() ? loadBlkMasterInfo(s) : null,
  }));
}

export function storeShardStateUnsplitR1(v: ShardStateUnsplitR1): (b: Builder) => void {
  return (b) => {
    b.storeUint(v.overloadHistory, 64)
      .storeUint(v.underloadHistory, 64)
      .store(storePrunableCurrencies(v.totalBalance))
      .store(storePrunableCurrencies(v.totalValidatorFees))
      .store(storeDictRoot(v.libraries));
    if (v.masterRef === null) b.storeBit(false);
    else b.storeBit(true).store(storeBlkMasterInfo(v.masterRef));
  };
}

export interface ShardStateUnsplit {
  kind: 'shard_state';
  globalId: number;
  shardId: ShardIdent;
  seqNo: number;
  vertSeqNo: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
  outMsgQueueInfo: Prunable<OutMsgQueueInfo>;
  beforeSplit: boolean;
  accounts: Prunable<ShardAccounts>;
  r1: Prunable<ShardStateUnsplitR1>;
  /** McStateExtra: present in masterchain states only. */
  custom: Prunable<McStateExtra> | null;
}

export interface SplitState {
  kind: 'split_state';
  left: Prunable<ShardStateUnsplit>;
  right: Prunable<ShardStateUnsplit>;
}

export type ShardState = ShardStateUnsplit | SplitState;

const SHARD_STATE_TAG = 0x9023afe2;
const SPLIT_STATE_TAG = 0x5f327da5;

/** ShardStateUnsplit after its tag. */
function loadShardStateUnsplitBody(s: Slice): ShardStateUnsplit {
  return {
    kind: 'shard_state',
    globalId: s.loadInt(32),
    shardId: loadShardIdentTlb(s),
    seqNo: s.loadUint(32),
    vertSeqNo: s.loadUint(32),
    genUtime: s.loadUint(32),
    genLt: s.loadUintBig(64),
    minRefMcSeqno: s.loadUint(32),
    outMsgQueueInfo: loadPrunableRef(s, 'OutMsgQueueInfo', loadOutMsgQueueInfo),
    beforeSplit: s.loadBit(),
    accounts: loadPrunableRef(s, 'ShardAccounts', loadShardAccounts),
    r1: loadPrunableRef(s, 'ShardStateUnsplit', loadShardStateUnsplitR1),
    custom: s.loadBit() ? loadPrunableRef(s, 'McStateExtra', loadMcStateExtra) : null,
  };
}

export function loadShardStateUnsplit(s: Slice): ShardStateUnsplit {
  return decoding('ShardStateUnsplit', () => {
    expectTag(s, 'ShardStateUnsplit', SHARD_STATE_TAG, 32);
    return loadShardStateUnsplitBody(s);
  });
}

export function storeShardStateUnsplit(v: ShardStateUnsplit): (b: Builder) => void {
  return (b) => {
    b.storeUint(SHARD_STATE_TAG, 32)
      .storeInt(v.globalId, 32)
      .store(storeShardIdentTlb(v.shardId))
      .storeUint(v.seqNo, 32)
      .storeUint(v.vertSeqNo, 32)
      .storeUint(v.genUtime, 32)
      .storeUint(v.genLt, 64)
      .storeUint(v.minRefMcSeqno, 32)
      .store(storePrunableRef(v.outMsgQueueInfo, storeOutMsgQueueInfo))
      .storeBit(v.beforeSplit)
      .store(storePrunableRef(v.accounts, storeShardAccounts))
      .store(storePrunableRef(v.r1, storeShardStateUnsplitR1));
    if (v.custom === null) b.storeBit(false);
    else b.storeBit(true).storeRef(prunableCell(v.custom, storeMcStateExtra));
  };
}

function loadHalf(c: Cell): Prunable<ShardStateUnsplit> {
  return loadPrunableCell(c, 'ShardStateUnsplit', loadShardStateUnsplit);
}

export function loadShardState(s: Slice): ShardState {
  return decoding('ShardState', () => {
    if (s.remainingBits < 32) throw new CodecError(`ShardState: expected a 32-bit tag, got ${s.remainingBits} bits`);
    const tag = s.loadUint(32);
    if (tag === SHARD_STATE_TAG) return loadShardStateUnsplitBody(s);
    if (tag === SPLIT_STATE_TAG)
      return { kind: 'split_state', left: loadHalf(s.loadRef()), right: loadHalf(s.loadRef()) };
    throw new CodecError(
      `ShardState: expected tag 0x${SHARD_STATE_TAG.toString(16)} or 0x${SPLIT_STATE_TAG.toString(16)}, got 0x${tag.toString(16).padStart(8, '0')}`,
    );
  });
}

export function storeShardState(v: ShardState): (b: Builder) => void {
  if (v.kind === 'shard_state') return storeShardStateUnsplit(v);
  return (b) => {
    b.storeUint(SPLIT_STATE_TAG, 32)
      .store(storePrunableRef(v.left, storeShardStateUnsplit))
      .store(storePrunableRef(v.right, storeShardStateUnsplit));
  };
}
