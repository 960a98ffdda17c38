import { describe, expect, it } from 'vitest';
import type { BlockIdExt } from '../ton/index.ts';
import { type BlockHandle, blockHandleKey, decodeBlockHandle, encodeBlockHandle, HANDLE_FLAGS } from './handle.ts';
import { NodeDbFormatError } from './tl.ts';

const id = (seqno: number, shard = 0x8000000000000000n, workchain = 0): BlockIdExt => ({
  workchain,
  shard,
  seqno,
  rootHash: Buffer.alloc(32, seqno & 0xff),
  fileHash: Buffer.alloc(32, (seqno + 1) & 0xff),
});

const F = HANDLE_FLAGS;

describe('HANDLE_FLAGS', () => {
  it('has the bit values of node-db.md §4.1 (validator/block-handle.hpp)', () => {
    expect(F).toEqual({
      masterchain: 0x1,
      initedPrevLeft: 0x2,
      initedPrevRight: 0x4,
      initedNextLeft: 0x8,
      initedNextRight: 0x10,
      initedSplitAfter: 0x20,
      splitAfter: 0x40,
      initedMergeBefore: 0x80,
      mergeBefore: 0x100,
      received: 0x200,
      isKeyBlock: 0x400,
      initedProof: 0x800,
      initedProofLink: 0x1000,
      initedLt: 0x2000,
      initedTs: 0x4000,
      initedIsKeyBlock: 0x8000,
      initedState: 0x20000,
      initedSignatures: 0x40000,
      initedStateBoc: 0x100000,
      archived: 0x200000,
      applied: 0x400000,
      initedMasterchainRef: 0x800000,
      deleted: 0x2000000,
      deletedBoc: 0x4000000,
      movedNew: 0x8000000,
      processed: 0x10000000,
      movedHandle: 0x20000000,
    });
  });
});

describe('db.block.info', () => {
  const full: BlockHandle = {
    id: id(76, 0x4000000000000000n),
    flags:
      F.initedPrevLeft |
      F.initedPrevRight |
      F.initedNextLeft |
      F.initedNextRight |
      F.initedLt |
      F.initedTs |
      F.initedState |
      F.initedMasterchainRef |
      F.applied |
      0x80000000, // a bit this format does not know: kept, no field
    prevLeft: id(75, 0x2000000000000000n),
    prevRight: id(74, 0x6000000000000000n),
    nextLeft: id(77, 0x2000000000000000n),
    nextRight: id(77, 0x6000000000000000n),
    lt: 0xfedcba9876543210n,
    ts: 0xfffffff0,
    state: Buffer.alloc(32, 0x5a),
    masterchainRefSeqno: 93,
  };

  it('round-trips a handle with every optional field, in schema order', () => {
    const b = encodeBlockHandle(full);
    expect(b.length).toBe(4 + 80 + 4 + 4 * 80 + 8 + 4 + 32 + 4);
    expect(b.subarray(0, 4).toString('hex')).toBe('27e7c64a');
    expect(b.readUInt32LE(84)).toBe(full.flags >>> 0);
    // prev_left comes right after the flags; masterchain_ref_seqno is last
    expect(b.readUInt32LE(88 + 12)).toBe(75);
    expect(b.readUInt32LE(b.length - 4)).toBe(93);
    const h = decodeBlockHandle(b);
    expect(h).toEqual({ ...full, flags: full.flags >>> 0 });
    expect(encodeBlockHandle(h)).toEqual(b);
  });

  it('writes no optional field without its bit, and reads none', () => {
    const bare: BlockHandle = { id: id(5), flags: F.applied | F.archived | F.deletedBoc };
    const b = encodeBlockHandle({ ...bare, lt: 1n, state: Buffer.alloc(32), prevLeft: id(4) });
    expect(b.length).toBe(88);
    expect(decodeBlockHandle(b)).toEqual(bare);
  });

  it('refuses to encode a set bit whose field is missing', () => {
    for (const [bit, field] of [
      [F.initedPrevLeft, 'prevLeft'],
      [F.initedNextRight, 'nextRight'],
      [F.initedLt, 'lt'],
      [F.initedState, 'state'],
      [F.initedMasterchainRef, 'masterchainRefSeqno'],
    ] as const) {
      expect(() => encodeBlockHandle({ id: id(1), flags: bit })).toThrow(new RegExp(`${field} is missing`));
    }
  });

  it('is strict about length and constructor', () => {
    const b = encodeBlockHandle(full);
    expect(() => decodeBlockHandle(Buffer.concat([b, Buffer.alloc(1)]))).toThrow(/1 trailing bytes/);
    expect(() => decodeBlockHandle(b.subarray(0, b.length - 1))).toThrow(NodeDbFormatError);
    const wrong = Buffer.from(b);
    wrong.writeUInt32LE(0x12345678, 0);
    expect(() => decodeBlockHandle(wrong)).toThrow(/expected constructor 0x4ac6e727/);
  });

  it('does not keep the input buffer', () => {
    const b = encodeBlockHandle(full);
    const h = decodeBlockHandle(b);
    b.fill(0);
    expect(h.id.rootHash).toEqual(Buffer.alloc(32, 76));
    expect(h.state).toEqual(Buffer.alloc(32, 0x5a));
    expect(h.prevLeft!.fileHash).toEqual(Buffer.alloc(32, 76));
  });
});

describe('blockHandleKey', () => {
  it('is the boxed db.blockdb.key.value id: 84 bytes', () => {
    const k = blockHandleKey(id(264, 0x8000000000000000n, -1));
    expect(k.length).toBe(84);
    expect(k.subarray(0, 4).toString('hex')).toBe('73d1577f');
    expect(k.subarray(4, 20).toString('hex')).toBe('ffffffff000000000000008008010000');
  });
});
