// A cell's data in its padded form (the bytes a BoC and a cell representation hold): the bits, then, when they do
// not fill the last byte, a 1 bit and zeros. @ton/core builds it one bit at a time through a BitBuilder.
import type { BitString } from '@ton/core';

interface RawBits {
  _data: Buffer;
  _offset: number;
  _length: number;
}

/** Writes the padded data of `bits` into `out` at `at`; returns the number of bytes written. */
export function writePaddedBits(bits: BitString, out: Uint8Array, at: number): number {
  const { _data: data, _offset: offset, _length: length } = bits as unknown as RawBits;
  const n = (length + 7) >> 3;
  if ((offset & 7) === 0) {
    const from = offset >> 3;
    for (let i = 0; i < n; i++) out[at + i] = data[from + i] as number;
  } else {
    const shift = offset & 7;
    let p = offset >> 3;
    for (let i = 0; i < n; i++, p++) {
      out[at + i] = (((data[p] as number) << shift) | ((data[p + 1] ?? 0) >> (8 - shift))) & 0xff;
    }
  }
  const tail = length & 7;
  if (tail !== 0) {
    const last = at + n - 1;
    out[last] = ((out[last] as number) & (0xff << (8 - tail))) | (0x80 >> tail);
  }
  return n;
}

/** The padded data of `bits` as a new buffer. */
export function paddedBits(bits: BitString): Buffer {
  const out = Buffer.allocUnsafe(((bits.length + 7) >> 3) as number);
  writePaddedBits(bits, out, 0);
  return out;
}

/** d2 of a cell with `bitLength` data bits: floor(b / 8) + ceil(b / 8). */
export const bitsDescriptor = (bitLength: number): number => (bitLength >> 3) + ((bitLength + 7) >> 3);
