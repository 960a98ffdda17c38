// lookupHashmap against @ton/core's Dictionary (an independent reader and the writer of the test dictionaries):
// every stored key is found with its value, absent keys are not, at several key widths and densities.
import { beginCell, Cell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { lookupHashmap } from './hashmap-lookup.ts';

function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
    return x;
  };
}

function randomKey(next: () => number, bits: number): bigint {
  let k = 0n;
  for (let i = 0; i < bits; i += 16) k = (k << 16n) | BigInt(next() & 0xffff);
  return k & ((1n << BigInt(bits)) - 1n);
}

describe('lookupHashmap', () => {
  it.each([8, 32, 256, 264])('finds what @ton/core stored with %i-bit keys', (bits) => {
    const next = rng(bits);
    const dict = Dictionary.empty(Dictionary.Keys.BigUint(bits), Dictionary.Values.Uint(32));
    const keys = new Set<bigint>();
    const count = bits === 8 ? 100 : 300;
    while (keys.size < count) keys.add(randomKey(next, bits));
    for (const k of keys) dict.set(k, Number(k & 0xffffffffn));
    // Neighbours of stored keys (the same labels for most of the path) and the extremes.
    if (bits !== 8) dict.set((1n << BigInt(bits)) - 1n, 7).set(0n, 9);
    const root = beginCell().storeDictDirect(dict).endCell();
    for (const k of dict.keys()) expect(lookupHashmap(root, bits, k)?.loadUint(32)).toBe(dict.get(k));
    const stored = [...keys];
    let absent = 0;
    for (let i = 0; i < 200; i++) {
      const k = i % 2 === 0 ? randomKey(next, bits) : stored[i % stored.length]! ^ 1n;
      if (dict.has(k)) continue;
      absent++;
      expect(lookupHashmap(root, bits, k)).toBeNull();
    }
    expect(absent).toBeGreaterThan(50);
  });

  it('a one-entry dictionary (a single leaf edge)', () => {
    const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell()).set(5n, Cell.EMPTY);
    const root = beginCell().storeDictDirect(dict).endCell();
    expect(lookupHashmap(root, 256, 5n)?.loadRef().equals(Cell.EMPTY)).toBe(true);
    expect(lookupHashmap(root, 256, 4n)).toBeNull();
  });

  it('throws on a malformed dictionary', () => {
    expect(() => lookupHashmap(Cell.EMPTY, 256, 1n)).toThrow();
  });
});
