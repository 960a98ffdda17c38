// block.tlb:419-421
//   ext_blk_ref$_ end_lt:uint64
//     seq_no:uint32 root_hash:bits256 file_hash:bits256
//     = ExtBlkRef;
// block.tlb:426
//   master_info$_ master:ExtBlkRef = BlkMasterInfo;
import type { Builder, Slice } from '@ton/core';
import { decoding, expectHash } from './codec-util.ts';

export type ExtBlkRef = {
  endLt: bigint;
  seqNo: number;
  rootHash: Buffer;
  fileHash: Buffer;
};

export type BlkMasterInfo = { master: ExtBlkRef };

export function loadExtBlkRef(s: Slice): ExtBlkRef {
  return decoding('ExtBlkRef', () => ({
    endLt: s.loadUintBig(64),
    seqNo: s.loadUint(32),
    rootHash: s.loadBuffer(32),
    fileHash: s.loadBuffer(32),
  }));
}

export function storeExtBlkRef(v: ExtBlkRef): (b: Builder) => void {
  expectHash('ExtBlkRef', 'root_hash', v.rootHash);
  expectHash('ExtBlkRef', 'file_hash', v.fileHash);
  return (b) => {
    b.storeUint(v.endLt, 64).storeUint(v.seqNo, 32).storeBuffer(v.rootHash).storeBuffer(v.fileHash);
  };
}

export function loadBlkMasterInfo(s: Slice): BlkMasterInfo {
  return { master: loadExtBlkRef(s) };
}

export function storeBlkMasterInfo(v: BlkMasterInfo): (b: Builder) => void {
  return storeExtBlkRef(v.master);
}
