import { describe, expect, it } from 'vitest';
import { shardLayout } from './shard-layout.ts';

const TWO_64 = 1n << 64n;

/** The [lo, hi) range of 64-bit account prefixes a shard id covers: its lowest set bit marks the prefix end. */
function range(id: bigint): [bigint, bigint] {
  const low = id & -id;
  return [id - low, id + low];
}

describe('shardLayout', () => {
  it.each(Array.from({ length: 16 }, (_, i) => i + 1))('covers the workchain exactly with %i shards', (n) => {
    const ids = shardLayout(n);
    expect(ids).toHaveLength(n);
    let next = 0n;
    for (const id of ids) {
      expect(id > 0n && id < TWO_64).toBe(true);
      const [lo, hi] = range(id);
      expect(lo).toBe(next); // no gap, no overlap, ascending
      next = hi;
    }
    expect(next).toBe(TWO_64);
    // Depths differ by at most one (a balanced split).
    const depths = ids.map((id) => 63 - (id & -id).toString(2).length + 1);
    expect(Math.max(...depths) - Math.min(...depths)).toBeLessThanOrEqual(1);
  });

  it('uses the documented split', () => {
    expect(shardLayout(1)).toEqual([0x8000000000000000n]);
    expect(shardLayout(2)).toEqual([0x4000000000000000n, 0xc000000000000000n]);
    expect(shardLayout(3)).toEqual([0x4000000000000000n, 0xa000000000000000n, 0xe000000000000000n]);
    expect(shardLayout(4)).toEqual([
      0x2000000000000000n,
      0x6000000000000000n,
      0xa000000000000000n,
      0xe000000000000000n,
    ]);
  });

  it.each([0, 17, 2.5, -1])('refuses %s shards', (n) => {
    expect(() => shardLayout(n)).toThrow(/shards: expected an integer in 1\.\.16/);
  });
});
