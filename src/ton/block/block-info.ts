// block.tlb:450-469
//   block_info#9bc7a987 version:uint32
//     not_master:(## 1)
//     after_merge:(## 1) before_split:(## 1)
//     after_split:(## 1)
//     want_split:Bool want_merge:Bool
//     key_block:Bool vert_seqno_incr:(## 1)
//     flags:(## 8) { flags <= 1 }
//     seq_no:# vert_seq_no:# { vert_seq_no >= vert_seqno_incr }
//     { prev_seq_no:# } { ~prev_seq_no + 1 = seq_no }
//     shard:ShardIdent gen_utime:uint32
//     start_lt:uint64 end_lt:uint64
//     gen_validator_list_hash_short:uint32
//     gen_catchain_seqno:uint32
//     min_ref_mc_seqno:uint32
//     prev_key_block_seqno:uint32
//     gen_software:flags . 0?GlobalVersion
//     master_ref:not_master?^BlkMasterInfo
//     prev_ref:^(BlkPrevInfo after_merge)
//     prev_vert_ref:vert_seqno_incr?^(BlkPrevInfo 0)
//     = BlockInfo;
// block.tlb:471-472
//   prev_blk_info$_ prev:ExtBlkRef = BlkPrevInfo 0;
//   prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef = BlkPrevInfo 1;
// block.tlb:416-417
//   shard_ident$00 shard_pfx_bits:(#<= 60)
//     workchain_id:int32 shard_prefix:uint64 = ShardIdent;
// block.tlb:637
//   capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion;
import { type Builder, beginCell, type ShardIdent, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { decoding, expectTag, loadWhole } from './codec-util.ts';
import {
  type BlkMasterInfo,
  type ExtBlkRef,
  loadBlkMasterInfo,
  loadExtBlkRef,
  storeBlkMasterInfo,
  storeExtBlkRef,
} from './ext-blk-ref.ts';

export type GlobalVersion = { version: number; capabilities: bigint };

/** BlkPrevInfo 0 (one parent) or BlkPrevInfo 1 (two parents: the block follows a merge). */
export type BlkPrevInfo = { kind: 'prev_blk_info'; prev: ExtBlkRef } | BlkPrevInfoMerged;
type BlkPrevInfoMerged = { kind: 'prev_blks_info'; prev1: ExtBlkRef; prev2: ExtBlkRef };
type BlkPrevInfoSingle = Extract<BlkPrevInfo, { kind: 'prev_blk_info' }>;

export type BlockInfo = {
  version: number;
  notMaster: boolean;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  vertSeqnoIncr: boolean;
  flags: number;
  seqNo: number;
  vertSeqNo: number;
  shard: ShardIdent;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  genValidatorListHashShort: number;
  genCatchainSeqno: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  /** Present exactly when bit 0 of `flags` is set. */
  genSoftware: GlobalVersion | null;
  /** Present exactly when `notMaster`. */
  masterRef: BlkMasterInfo | null;
  /** `prev_blks_info` exactly when `afterMerge`. */
  prevRef: BlkPrevInfo;
  /** Present exactly when `vertSeqnoIncr`. */
  prevVertRef: BlkPrevInfoSingle | null;
};

const BLOCK_INFO_TAG = 0x9bc7a987;

export function loadShardIdentTlb(s: Slice): ShardIdent {
  return decoding('ShardIdent', () => {
    const tag = s.loadUint(2);
    if (tag !== 0) throw new CodecError(`ShardIdent: expected tag $00, got $${tag.toString(2).padStart(2, '0')}`);
    const shardPrefixBits = s.loadUint(6);
    if (shardPrefixBits > 60) throw new CodecError(`ShardIdent: expected shard_pfx_bits <= 60, got ${shardPrefixBits}`);
    return { shardPrefixBits, workchainId: s.loadInt(32), shardPrefix: s.loadUintBig(64) };
  });
}

export function storeShardIdentTlb(v: ShardIdent): (b: Builder) => void {
  return (b) => {
    b.storeUint(0, 2).storeUint(v.shardPrefixBits, 6).storeInt(v.workchainId, 32).storeUint(v.shardPrefix, 64);
  };
}

function loadGlobalVersion(s: Slice): GlobalVersion {
  return decoding('GlobalVersion', () => {
    expectTag(s, 'GlobalVersion', 0xc4, 8);
    return { version: s.loadUint(32), capabilities: s.loadUintBig(64) };
  });
}

function storeGlobalVersion(v: GlobalVersion): (b: Builder) => void {
  return (b) => {
    b.storeUint(0xc4, 8).storeUint(v.version, 32).storeUint(v.capabilities, 64);
  };
}

/** Reads `BlkPrevInfo afterMerge` from the slice (the contents of the prev_ref cell). */
export function loadBlkPrevInfo(s: Slice, afterMerge: boolean): BlkPrevInfo {
  return decoding('BlkPrevInfo', () => {
    if (!afterMerge) return { kind: 'prev_blk_info', prev: loadExtBlkRef(s) };
    const prev1 = loadWhole('ExtBlkRef', s.loadRef(), loadExtBlkRef);
    const prev2 = loadWhole('ExtBlkRef', s.loadRef(), loadExtBlkRef);
    return { kind: 'prev_blks_info', prev1, prev2 };
  });
}

export function storeBlkPrevInfo(v: BlkPrevInfo): (b: Builder) => void {
  return (b) => {
    if (v.kind === 'prev_blk_info') {
      b.store(storeExtBlkRef(v.prev));
    } else {
      b.storeRef(beginCell().store(storeExtBlkRef(v.prev1)));
      b.storeRef(beginCell().store(storeExtBlkRef(v.prev2)));
    }
  };
}

export function loadBlockInfo(s: Slice): BlockInfo {
  return decoding('BlockInfo', () => {
    expectTag(s, 'BlockInfo', BLOCK_INFO_TAG, 32);
    const version = s.loadUint(32);
    const notMaster = s.loadBit();
    const afterMerge = s.loadBit();
    const beforeSplit = s.loadBit();
    const afterSplit = s.loadBit();
    const wantSplit = s.loadBit();
    const wantMerge = s.loadBit();
    const keyBlock = s.loadBit();
    const vertSeqnoIncr = s.loadBit();
    const flags = s.loadUint(8);
    if (flags > 1) throw new CodecError(`BlockInfo: expected flags <= 1, got ${flags}`);
    const seqNo = s.loadUint(32);
    if (seqNo < 1) throw new CodecError('BlockInfo: expected seq_no >= 1 (seq_no = prev_seq_no + 1), got 0');
    const vertSeqNo = s.loadUint(32);
    if (vertSeqNo < (vertSeqnoIncr ? 1 : 0)) {
      throw new CodecError(`BlockInfo: expected vert_seq_no >= vert_seqno_incr, got ${vertSeqNo} < 1`);
    }
    const shard = loadShardIdentTlb(s);
    const genUtime = s.loadUint(32);
    const startLt = s.loadUintBig(64);
    const endLt = s.loadUintBig(64);
    const genValidatorListHashShort = s.loadUint(32);
    const genCatchainSeqno = s.loadUint(32);
    const minRefMcSeqno = s.loadUint(32);
    const prevKeyBlockSeqno = s.loadUint(32);
    const genSoftware = flags & 1 ? loadGlobalVersion(s) : null;
    const masterRef = notMaster ? loadWhole('BlkMasterInfo', s.loadRef(), loadBlkMasterInfo) : null;
    const prevRef = loadWhole('BlkPrevInfo', s.loadRef(), (p) => loadBlkPrevInfo(p, afterMerge));
    const prevVertRef = vertSeqnoIncr
      ? (loadWhole('BlkPrevInfo', s.loadRef(), (p) => loadBlkPrevInfo(p, false)) as BlkPrevInfoSingle)
      : null;
    return {
      version,
      notMaster,
      afterMerge,
      beforeSplit,
      afterSplit,
      wantSplit,
      wantMerge,
      keyBlock,
      vertSeqnoIncr,
      flags,
      seqNo,
      vertSeqNo,
      shard,
      genUtime,
      startLt,
      endLt,
      genValidatorListHashShort,
      genCatchainSeqno,
      minRefMcSeqno,
      prevKeyBlockSeqno,
      genSoftware,
      masterRef,
      prevRef,
      prevVertRef,
    };
  });
}

export function storeBlockInfo(v: BlockInfo): (b: Builder) => void {
  // The optional fields are governed by flags elsewhere in the record: refuse a value whose parts disagree,
  // since writing it would produce a cell that no reader (ours or the node's) decodes back to the same value.
  if (v.flags > 1) throw new CodecError(`BlockInfo: expected flags <= 1, got ${v.flags}`);
  if (((v.flags & 1) === 1) !== (v.genSoftware !== null)) {
    throw new CodecError(`BlockInfo: gen_software must be present exactly when flags & 1 (flags = ${v.flags})`);
  }
  if (v.notMaster !== (v.masterRef !== null)) {
    throw new CodecError(`BlockInfo: master_ref must be present exactly when not_master (not_master = ${v.notMaster})`);
  }
  if (v.afterMerge !== (v.prevRef.kind === 'prev_blks_info')) {
    throw new CodecError(`BlockInfo: prev_ref ${v.prevRef.kind} does not match after_merge = ${v.afterMerge}`);
  }
  if (v.vertSeqnoIncr !== (v.prevVertRef !== null)) {
    throw new CodecError(`BlockInfo: prev_vert_ref must be present exactly when vert_seqno_incr`);
  }
  return (b) => {
    b.storeUint(BLOCK_INFO_TAG, 32)
      .storeUint(v.version, 32)
      .storeBit(v.notMaster)
      .storeBit(v.afterMerge)
      .storeBit(v.beforeSplit)
      .storeBit(v.afterSplit)
      .storeBit(v.wantSplit)
      .storeBit(v.wantMerge)
      .storeBit(v.keyBlock)
      .storeBit(v.vertSeqnoIncr)
      .storeUint(v.flags, 8)
      .storeUint(v.seqNo, 32)
      .storeUint(v.vertSeqNo, 32)
      .store(storeShardIdentTlb(v.shard))
      .storeUint(v.genUtime, 32)
      .storeUint(v.startLt, 64)
      .storeUint(v.endLt, 64)
      .storeUint(v.genValidatorListHashShort, 32)
      .storeUint(v.genCatchainSeqno, 32)
      .storeUint(v.minRefMcSeqno, 32)
      .storeUint(v.prevKeyBlockSeqno, 32);
    if (v.genSoftware) b.store(storeGlobalVersion(v.genSoftware));
    if (v.masterRef) b.storeRef(beginCell().store(storeBlkMasterInfo(v.masterRef)));
    b.storeRef(beginCell().store(storeBlkPrevInfo(v.prevRef)));
    if (v.prevVertRef) b.storeRef(beginCell().store(storeBlkPrevInfo(v.prevVertRef)));
  };
}

/** The 64-bit shard id (prefix bits followed by a single 1 bit), e.g. 0x8000000000000000n for the whole chain. */
export function shardIdOf(shard: ShardIdent): bigint {
  return shard.shardPrefix | (1n << BigInt(63 - shard.shardPrefixBits));
}
