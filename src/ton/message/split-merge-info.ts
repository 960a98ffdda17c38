// block.tlb:371-373
//   split_merge_info$_ cur_shard_pfx_len:(## 6)
//     acc_split_depth:(## 6) this_addr:bits256 sibling_addr:bits256
//     = SplitMergeInfo;
import type { Builder, Slice } from '@ton/core';
import { decoding, loadBits256, storeBits256 } from './util.ts';

export interface SplitMergeInfo {
  curShardPfxLen: number;
  accSplitDepth: number;
  thisAddr: Buffer;
  siblingAddr: Buffer;
}

const T = 'SplitMergeInfo';

export function loadSplitMergeInfo(s: Slice): SplitMergeInfo {
  return decoding(T, () => ({
    curShardPfxLen: s.loadUint(6),
    accSplitDepth: s.loadUint(6),
    thisAddr: loadBits256(s, T, 'this_addr'),
    siblingAddr: loadBits256(s, T, 'sibling_addr'),
  }));
}

export function storeSplitMergeInfo(v: SplitMergeInfo): (b: Builder) => void {
  return (b) => {
    b.storeUint(v.curShardPfxLen, 6).storeUint(v.accSplitDepth, 6);
    storeBits256(b, v.thisAddr, T, 'this_addr');
    storeBits256(b, v.siblingAddr, T, 'sibling_addr');
  };
}
