// block.tlb:563-566
//   _ key:Bool max_end_lt:uint64 = KeyMaxLt;
//   _ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef;
//
//   _ (HashmapAugE 32 KeyExtBlkRef KeyMaxLt) = OldMcBlocksInfo;
import type { Builder, Slice } from '@ton/core';
import { decoding } from '../block/codec-util.ts';
import { type ExtBlkRef, loadExtBlkRef, storeExtBlkRef } from '../block/ext-blk-ref.ts';
import type { AugDict, AugDictCodec, AugEntry } from '../dict/index.ts';
import { type AugDictRoot, augDictEntries, buildAugDictRoot, loadAugDictRoot, storeAugDictRoot } from './dict-root.ts';

export interface KeyMaxLt {
  key: boolean;
  maxEndLt: bigint;
}

export function loadKeyMaxLt(s: Slice): KeyMaxLt {
  return decoding('KeyMaxLt', () => ({ key: s.loadBit(), maxEndLt: s.loadUintBig(64) }));
}

export function storeKeyMaxLt(v: KeyMaxLt): (b: Builder) => void {
  return (b) => {
    b.storeBit(v.key).storeUint(v.maxEndLt, 64);
  };
}

function maxLt(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** A fork's extra: is there a key block below, and the largest end_lt below. */
export function combineKeyMaxLt(left: KeyMaxLt, right: KeyMaxLt): KeyMaxLt {
  return { key: left.key || right.key, maxEndLt: maxLt(left.maxEndLt, right.maxEndLt) };
}

export interface KeyExtBlkRef {
  key: boolean;
  blkRef: ExtBlkRef;
}

export function loadKeyExtBlkRef(s: Slice): KeyExtBlkRef {
  return decoding('KeyExtBlkRef', () => ({ key: s.loadBit(), blkRef: loadExtBlkRef(s) }));
}

export function storeKeyExtBlkRef(v: KeyExtBlkRef): (b: Builder) => void {
  return (b) => {
    b.storeBit(v.key).store(storeExtBlkRef(v.blkRef));
  };
}

/** A leaf's extra, from its block: whether it is a key block, and its end_lt. */
export function keyMaxLtOf(v: KeyExtBlkRef): KeyMaxLt {
  return { key: v.key, maxEndLt: v.blkRef.endLt };
}

export const oldMcBlocksInfoCodec: AugDictCodec<KeyExtBlkRef, KeyMaxLt> = {
  loadValue: loadKeyExtBlkRef,
  storeValue: storeKeyExtBlkRef,
  loadExtra: loadKeyMaxLt,
  storeExtra: storeKeyMaxLt,
  combine: combineKeyMaxLt,
  empty: () => ({ key: false, maxEndLt: 0n }),
};

/** OldMcBlocksInfo as it arrived: every earlier masterchain block, keyed by seqno. */
export type OldMcBlocksInfo = AugDictRoot<KeyMaxLt>;

export function loadOldMcBlocksInfo(s: Slice): OldMcBlocksInfo {
  return decoding('OldMcBlocksInfo', () => loadAugDictRoot(s, loadKeyMaxLt));
}

export function storeOldMcBlocksInfo(v: OldMcBlocksInfo): (b: Builder) => void {
  return storeAugDictRoot(v, storeKeyMaxLt);
}

export function oldMcBlocksInfoEntries(v: OldMcBlocksInfo): AugDict<KeyExtBlkRef, KeyMaxLt> {
  return decoding('OldMcBlocksInfo', () => augDictEntries(v, 32, oldMcBlocksInfoCodec));
}

/** Builds OldMcBlocksInfo from blocks keyed by seqno (leaf extras: `keyMaxLtOf`). */
export function buildOldMcBlocksInfo(entries: AugEntry<KeyExtBlkRef, KeyMaxLt>[]): OldMcBlocksInfo {
  return buildAugDictRoot(entries, 32, oldMcBlocksInfoCodec);
}
