import { describe, expect, it } from 'vitest';
import { fromTlBlockId, isMasterchainExt, isValidFull, shardPfxLen, toTlBlockId } from './ids.ts';

const ALL = 0x8000000000000000n;
const RIGHT = 0xc000000000000000n; // prefix 1
const RIGHT_LEFT = 0xa000000000000000n; // prefix 10

describe('shard arithmetic (ton-types.h)', () => {
  it('shardPfxLen counts the prefix bits', () => {
    expect(shardPfxLen(ALL)).toBe(0);
    expect(shardPfxLen(RIGHT)).toBe(1);
    expect(shardPfxLen(RIGHT_LEFT)).toBe(2);
  });
});

describe('block ids', () => {
  const mc = { workchain: -1, shard: ALL, seqno: 5, rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) };

  it('TL carries the shard signed; the view unsigned', () => {
    const tl = toTlBlockId(mc);
    expect(tl.shard).toBe(-(1n << 63n));
    expect(fromTlBlockId(tl).shard).toBe(ALL);
  });

  it('validity as BlockIdExt::is_valid_full and is_masterchain_ext', () => {
    expect(isValidFull(mc)).toBe(true);
    expect(isMasterchainExt(mc)).toBe(true);
    expect(isValidFull({ ...mc, rootHash: Buffer.alloc(32) })).toBe(false);
    expect(isValidFull({ ...mc, shard: RIGHT })).toBe(false);
    expect(isValidFull({ ...mc, workchain: 0, shard: RIGHT })).toBe(true);
    expect(isMasterchainExt({ ...mc, workchain: 0 })).toBe(false);
    expect(isValidFull({ ...mc, workchain: 0, shard: RIGHT | 1n })).toBe(false);
    expect(isValidFull({ ...mc, seqno: -1 })).toBe(false);
  });
});
