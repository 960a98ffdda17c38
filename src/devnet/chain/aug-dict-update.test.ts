import { describe, expect, it } from 'vitest';
import { buildAugDictRoot, type KeyExtBlkRef, type KeyMaxLt, oldMcBlocksInfoCodec } from '../../ton/index.ts';
import { augDictApply } from './aug-dict-update.ts';

// Deterministic pseudo-random keys (xorshift) over a few key widths, checked against a full rebuild by src/ton.
function* xorshift(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    yield x >>> 0;
  }
}

const ref = (n: number): KeyExtBlkRef => ({
  key: n % 3 === 0,
  blkRef: {
    endLt: BigInt(n) * 1000n,
    seqNo: n,
    rootHash: Buffer.alloc(32, n & 255),
    fileHash: Buffer.alloc(32, (n * 7) & 255),
  },
});
const extra = (v: KeyExtBlkRef): KeyMaxLt => ({ key: v.key, maxEndLt: v.blkRef.endLt });

describe('augDictApply', () => {
  it('gives the cells a full rebuild gives, after every insert, replace and delete', () => {
    const rnd = xorshift(12345);
    const live = new Map<bigint, KeyExtBlkRef>();
    let dict = { root: null as import('@ton/core').Cell | null, extra: oldMcBlocksInfoCodec.empty() };
    for (let i = 0; i < 400; i++) {
      const r = rnd.next().value as number;
      const key = BigInt(r % 97) * (i % 2 === 0 ? 1n : 40000n); // dense and sparse keys
      const del = r % 5 === 0;
      const value = ref(r % 1000);
      dict = augDictApply(
        dict.root,
        32,
        [{ key, put: del ? null : { value, extra: extra(value) } }],
        oldMcBlocksInfoCodec,
      );
      if (del) live.delete(key);
      else live.set(key, value);
      const full = buildAugDictRoot(
        [...live].map(([k, v]) => ({ key: k, value: v, extra: extra(v) })),
        32,
        oldMcBlocksInfoCodec,
      );
      expect(dict.root?.hash().toString('hex')).toBe(full.root?.hash().toString('hex'));
      expect(dict.extra).toEqual(full.extra);
    }
    expect(live.size).toBeGreaterThan(10);
  });

  it('appends increasing keys (a masterchain block a time)', () => {
    let dict = { root: null as import('@ton/core').Cell | null, extra: oldMcBlocksInfoCodec.empty() };
    const all: Array<{ key: bigint; value: KeyExtBlkRef; extra: KeyMaxLt }> = [];
    for (let n = 0; n < 300; n++) {
      const value = ref(n);
      all.push({ key: BigInt(n), value, extra: extra(value) });
      dict = augDictApply(
        dict.root,
        32,
        [{ key: BigInt(n), put: { value, extra: extra(value) } }],
        oldMcBlocksInfoCodec,
      );
    }
    expect(dict.root?.hash().equals(buildAugDictRoot(all, 32, oldMcBlocksInfoCodec).root?.hash() as Buffer)).toBe(true);
  });
});
