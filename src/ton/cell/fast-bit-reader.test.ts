// FastBitReader against @ton/core's BitReader: the same values, offsets and failures for every read width at
// every alignment, on random bits.
import { randomBytes } from 'node:crypto';
import { BitReader, BitString, crc32c as tonCrc32c } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { crc32c } from './crc32c.ts';
import { FastBitReader } from './fast-bit-reader.ts';

function outcome(fn: () => unknown): unknown {
  try {
    const v = fn();
    return { ok: Buffer.isBuffer(v) ? `buf:${v.toString('hex')}` : typeof v === 'bigint' ? `big:${v}` : v };
  } catch (e) {
    return { threw: e instanceof Error };
  }
}

describe('FastBitReader', () => {
  const data = randomBytes(160);
  const reads: Array<[string, (r: BitReader, w: number) => unknown]> = [
    ['loadUint', (r, w) => r.loadUint(w)],
    ['loadUintBig', (r, w) => r.loadUintBig(w)],
    ['preloadUint', (r, w) => r.preloadUint(w)],
    ['loadInt', (r, w) => r.loadInt(w)],
    ['loadIntBig', (r, w) => r.loadIntBig(w)],
    ['preloadIntBig', (r, w) => r.preloadIntBig(w)],
    ['loadBuffer', (r, w) => r.loadBuffer(w >> 3)],
    ['loadVarUintBig', (r, w) => r.loadVarUintBig(Math.min(w, 5))],
    ['loadCoins', (r) => r.loadCoins()],
  ];

  it('reads what @ton/core reads at every width and alignment, and fails where it fails', () => {
    let compared = 0;
    for (const start of [0, 1, 3, 7, 8, 13]) {
      const length = 1000 - start;
      const bits = new BitString(data, start, length);
      for (const [name, read] of reads) {
        for (let w = 0; w <= 270; w += w < 70 ? 1 : 17) {
          for (const at of [0, 5, 8, length - w, length - w + 1, length - 3]) {
            if (at < 0 || at > length) continue;
            const slow = new BitReader(bits, at);
            const fast = new FastBitReader(bits, at);
            const a = outcome(() => read(slow, w));
            const b = outcome(() => read(fast, w));
            expect(b, `${name}(${w}) at ${at}+${start}`).toEqual(a);
            expect(fast.offset, `${name}(${w}) offset`).toBe(slow.offset);
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(5000);
  });

  it('keeps its speed through clone (a Slice clones its reader)', () => {
    const r = new FastBitReader(new BitString(data, 0, 64));
    expect(r.clone()).toBeInstanceOf(FastBitReader);
  });

  it('hands out buffers the caller may change without changing the bits', () => {
    const copy = Buffer.from(data);
    const buf = new FastBitReader(new BitString(copy, 0, 256)).loadBuffer(32);
    buf.fill(0);
    expect(copy.equals(data)).toBe(true);
  });
});

describe('crc32c', () => {
  it('equals @ton/core crc32c on random inputs of every small length', () => {
    for (let n = 0; n < 300; n++) {
      const b = randomBytes(n);
      expect(crc32c(b)).toEqual(tonCrc32c(b));
    }
  });
});
