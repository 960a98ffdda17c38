import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { CodecError } from '../../common/errors.ts';
import { masterRefId, prevBlockIds } from './block.ts';
import { type BlockInfo, loadBlockInfo, shardIdOf, storeBlockInfo } from './block-info.ts';
import type { ExtBlkRef } from './ext-blk-ref.ts';

const ref = (seqNo: number, fill: number): ExtBlkRef => ({
  endLt: 1000n + BigInt(seqNo),
  seqNo,
  rootHash: Buffer.alloc(32, fill),
  fileHash: Buffer.alloc(32, fill + 1),
});

const base: BlockInfo = {
  version: 0,
  notMaster: true,
  afterMerge: false,
  beforeSplit: false,
  afterSplit: false,
  wantSplit: false,
  wantMerge: true,
  keyBlock: false,
  vertSeqnoIncr: false,
  flags: 1,
  seqNo: 100,
  vertSeqNo: 0,
  // shard 0:a000000000000000 (prefix 101 -> two bits "10" then the tag bit)
  shard: { shardPrefixBits: 2, workchainId: 0, shardPrefix: 0x8000000000000000n },
  genUtime: 1_700_000_000,
  startLt: 5n,
  endLt: 9n,
  genValidatorListHashShort: 1,
  genCatchainSeqno: 2,
  minRefMcSeqno: 3,
  prevKeyBlockSeqno: 4,
  genSoftware: { version: 11, capabilities: 494n },
  masterRef: { master: ref(7, 0x70) },
  prevRef: { kind: 'prev_blk_info', prev: ref(99, 0x10) },
  prevVertRef: null,
};
const roundTrip = (v: BlockInfo) => loadBlockInfo(beginCell().store(storeBlockInfo(v)).endCell().beginParse());

describe('BlockInfo', () => {
  it('shard ids: prefix bits followed by the tag bit', () => {
    expect(shardIdOf(base.shard)).toBe(0xa000000000000000n);
    expect(shardIdOf({ shardPrefixBits: 0, workchainId: -1, shardPrefix: 0n })).toBe(0x8000000000000000n);
  });

  it('the parent of a block after a split is the parent shard; after a merge, the two children', () => {
    const split = roundTrip({ ...base, afterSplit: true });
    expect(prevBlockIds(split).map((p) => [p.shard, p.seqno])).toEqual([[0xc000000000000000n, 99]]);
    const merged = roundTrip({
      ...base,
      afterMerge: true,
      prevRef: { kind: 'prev_blks_info', prev1: ref(50, 0x20), prev2: ref(60, 0x30) },
    });
    expect(merged.prevRef.kind).toBe('prev_blks_info');
    expect(prevBlockIds(merged).map((p) => [p.shard, p.seqno, p.rootHash[0]])).toEqual([
      [0x9000000000000000n, 50, 0x20],
      [0xb000000000000000n, 60, 0x30],
    ]);
    expect(masterRefId(merged)).toMatchObject({ workchain: -1, shard: 0x8000000000000000n, seqno: 7 });
  });

  it('vert_seqno_incr brings prev_vert_ref, flags 0 drops gen_software', () => {
    const v = roundTrip({
      ...base,
      flags: 0,
      genSoftware: null,
      vertSeqnoIncr: true,
      vertSeqNo: 1,
      prevVertRef: { kind: 'prev_blk_info', prev: ref(1, 0x40) },
    });
    expect(v.genSoftware).toBeNull();
    expect(v.prevVertRef?.prev.seqNo).toBe(1);
    const cell = beginCell()
      .store(storeBlockInfo({ ...base, flags: 0, genSoftware: null }))
      .endCell();
    // tag + version + 8 flag bits + flags + seq_no + vert_seq_no + ShardIdent (104) + utime + 2 lts + 4 uint32
    expect(cell.bits.length).toBe(32 + 32 + 8 + 8 + 32 + 32 + 104 + 32 + 128 + 128);
    expect(cell.refs.length).toBe(2);
  });

  it('refuses to write a record whose parts disagree with its flags', () => {
    expect(() => storeBlockInfo({ ...base, genSoftware: null })).toThrow(/gen_software/);
    expect(() => storeBlockInfo({ ...base, masterRef: null })).toThrow(/master_ref/);
    expect(() => storeBlockInfo({ ...base, afterMerge: true })).toThrow(/prev_ref prev_blk_info/);
    expect(() => storeBlockInfo({ ...base, vertSeqnoIncr: true })).toThrow(CodecError);
  });

  it('rejects flags > 1, seq_no 0, a wrong tag, a bad shard_ident', () => {
    const cell = beginCell().store(storeBlockInfo(base)).endCell();
    const patch = (offset: number, width: number, value: number) => {
      const s = cell.beginParse();
      const b = beginCell().storeBits(s.loadBits(offset)).storeUint(value, width);
      s.skip(width);
      b.storeBits(s.loadBits(s.remainingBits));
      while (s.remainingRefs) b.storeRef(s.loadRef());
      return b.endCell().beginParse();
    };
    expect(() => loadBlockInfo(patch(72, 8, 2))).toThrow('BlockInfo: expected flags <= 1, got 2');
    expect(() => loadBlockInfo(patch(80, 32, 0))).toThrow(/expected seq_no >= 1/);
    expect(() => loadBlockInfo(patch(0, 32, 0x9bc7a986))).toThrow('BlockInfo: expected tag 0x9bc7a987, got 0x9bc7a986');
    expect(() => loadBlockInfo(patch(144, 2, 1))).toThrow('ShardIdent: expected tag $00, got $01');
    expect(() => loadBlockInfo(patch(146, 6, 61))).toThrow('ShardIdent: expected shard_pfx_bits <= 60, got 61');
  });
});
