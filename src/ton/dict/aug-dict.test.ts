import { beginCell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { type AugDictCodec, buildHashmapAug, loadHashmapAug, loadHashmapAugE, storeHashmapAugE } from './aug-dict.ts';
import { loadHmLabel, storeHmLabel } from './hm-label.ts';

// An augmentation with a zero-bit extra makes HashmapAug n X exactly Hashmap n X, so @ton/core's
// independent Dictionary writer is an oracle for our labels and tree shape.
const unitCodec: AugDictCodec<number, null> = {
  loadValue: (s) => s.loadUint(32),
  storeValue: (v) => (b) => b.storeUint(v, 32),
  loadExtra: () => null,
  storeExtra: () => () => {},
  combine: () => null,
  empty: () => null,
};

// A summing extra, to check fork extras are recomputed from children.
const sumCodec: AugDictCodec<number, bigint> = {
  loadValue: (s) => s.loadUint(16),
  storeValue: (v) => (b) => b.storeUint(v, 16),
  loadExtra: (s) => s.loadCoins(),
  storeExtra: (e) => (b) => b.storeCoins(e),
  combine: (a, b) => a + b,
  empty: () => 0n,
};

function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

function randomKey(r: () => number, bits: number): bigint {
  let k = 0n;
  for (let i = 0; i < bits; i++) k = (k << 1n) | (r() < 0.5 ? 0n : 1n);
  return k;
}

describe('HashmapAug writer', () => {
  for (const bits of [1, 8, 15, 32, 64, 96, 256, 352]) {
    it(`matches @ton/core's plain Hashmap for ${bits}-bit keys`, () => {
      const r = rng(bits * 7919);
      for (let round = 0; round < 20; round++) {
        const n = 1 + Math.floor(r() * (bits < 4 ? 2 : 40));
        const keys = new Set<bigint>();
        // Clustered keys exercise hml_same and hml_long labels as well as short ones.
        const base = randomKey(r, bits);
        while (keys.size < n) {
          const k = r() < 0.5 ? randomKey(r, bits) : base ^ BigInt(Math.floor(r() * 8));
          keys.add(k & ((1n << BigInt(bits)) - 1n));
        }
        const entries = [...keys].map((key, i) => ({ key, value: i, extra: null }));
        const dict = Dictionary.empty(Dictionary.Keys.BigUint(bits), Dictionary.Values.Uint(32));
        for (const e of entries) dict.set(e.key, e.value);
        const ours = beginCell()
          .store(storeHashmapAugE(entries, bits, unitCodec))
          .endCell();
        const theirs = beginCell().storeDict(dict).endCell();
        expect(ours.hash().toString('hex')).toBe(theirs.hash().toString('hex'));
        const back = loadHashmapAugE(ours.beginParse(), bits, unitCodec);
        expect(back.entries.map((e) => [e.key, e.value])).toEqual(
          [...entries].sort((a, b) => (a.key < b.key ? -1 : 1)).map((e) => [e.key, e.value]),
        );
      }
    });
  }

  it('recomputes fork extras from the children and round-trips them', () => {
    const entries = [5n, 9n, 200n, 201n, 65535n].map((key, i) => ({ key, value: i, extra: BigInt(i + 1) * 1000n }));
    const cell = beginCell()
      .store(storeHashmapAugE(entries, 16, sumCodec))
      .endCell();
    const back = loadHashmapAugE(cell.beginParse(), 16, sumCodec);
    expect(back.extra).toBe(15000n);
    expect(back.entries).toEqual(entries);
    expect(buildHashmapAug(entries.slice(2), 16, sumCodec).extra).toBe(12000n);
  });

  it('writes an empty HashmapAugE as the flag and the empty extra', () => {
    const cell = beginCell()
      .store(storeHashmapAugE([], 32, sumCodec))
      .endCell();
    expect(cell.bits.length).toBe(1 + 4);
    expect(loadHashmapAugE(cell.beginParse(), 32, sumCodec)).toEqual({ entries: [], extra: 0n, pruned: 0 });
  });

  it('rejects duplicate and oversized keys', () => {
    expect(() =>
      buildHashmapAug(
        [
          { key: 1n, value: 1, extra: 1n },
          { key: 1n, value: 2, extra: 1n },
        ],
        8,
        sumCodec,
      ),
    ).toThrow(/duplicate key/);
    expect(() => buildHashmapAug([{ key: 256n, value: 1, extra: 1n }], 8, sumCodec)).toThrow(/does not fit/);
  });

  it('refuses a leaf whose value codec leaves data unread', () => {
    const cell = beginCell()
      .store(storeHashmapAugE([{ key: 3n, value: 7, extra: 1n }], 8, sumCodec))
      .endCell();
    const shortCodec = { ...sumCodec, loadValue: (s: import('@ton/core').Slice) => s.loadUint(8) };
    expect(() => loadHashmapAugE(cell.beginParse(), 8, shortCodec)).toThrow(/left after the value/);
  });
});

describe('HmLabel', () => {
  it('reads back every form it writes', () => {
    for (const m of [1, 2, 7, 64, 256, 700]) {
      for (const len of [0, 1, 2, 3, Math.floor(m / 2), m].filter((l) => l <= m)) {
        for (const bits of [0n, len > 0 ? (1n << BigInt(len)) - 1n : 0n, len > 1 ? 1n : 0n]) {
          const b = beginCell();
          storeHmLabel(b, len, bits, m);
          const back = loadHmLabel(b.endCell().beginParse(), m);
          expect(back).toEqual({ len, bits });
        }
      }
    }
  });
});

describe('HashmapAug inline root', () => {
  it('reads a single-leaf root followed by its container fields', () => {
    const entries = [{ key: 7n, value: 3, extra: 5n }];
    const cell = beginCell()
      .store((b) => {
        b.storeSlice(buildHashmapAug(entries, 16, sumCodec).cell.beginParse());
      })
      .storeUint(0xabc, 12)
      .storeRef(beginCell().endCell())
      .endCell();
    const s = cell.beginParse();
    expect(loadHashmapAug(s, 16, sumCodec).entries).toEqual(entries);
    expect(s.loadUint(12)).toBe(0xabc);
    expect(s.remainingRefs).toBe(1);
  });
});
