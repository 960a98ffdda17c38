// A BitReader for the cells of a CellTable. @ton/core's BitReader reads every integer one bit at a time through
// BitString.at() and BigInt additions (and an unaligned 32-byte hash as 32 such 8-bit reads), which made slice
// reading the largest cost of decoding a block after hashing. This subclass reads whole bytes from the BitString's
// buffer instead; values, offsets and out-of-bounds errors are those of @ton/core's reader (a test compares them
// on random bit strings and every read width). Only the readers that table cells hand out are of this class.
import { BitReader, type BitString } from '@ton/core';

/** The fields of @ton/core's BitString and BitReader this module reads (they are private in its typings). */
interface RawBits {
  _data: Buffer;
  _offset: number;
  _length: number;
}
interface RawReader {
  _bits: RawBits;
  _offset: number;
}

function outOfBounds(index: number, length: number): Error {
  return new Error(`Index ${index} > ${length} is out of bounds`);
}

/** An unsigned integer of `bits` <= 52 bits at bit position `pos` of `data`. */
function readSmall(data: Buffer, pos: number, bits: number): number {
  let n = 0;
  let left = bits;
  let p = pos;
  const lead = p & 7;
  if (lead !== 0 && left > 0) {
    const take = Math.min(8 - lead, left);
    n = ((data[p >> 3] as number) >> (8 - lead - take)) & ((1 << take) - 1);
    left -= take;
    p += take;
  }
  while (left >= 8) {
    n = n * 256 + (data[p >> 3] as number);
    left -= 8;
    p += 8;
  }
  if (left > 0) n = n * (1 << left) + ((data[p >> 3] as number) >> (8 - left));
  return n;
}

function readBig(data: Buffer, pos: number, bits: number): bigint {
  if (bits <= 52) return BigInt(readSmall(data, pos, bits));
  let res = 0n;
  let left = bits;
  let p = pos;
  while (left > 0) {
    const take = left >= 48 ? 48 : left;
    res = (res << BigInt(take)) | BigInt(readSmall(data, p, take));
    left -= take;
    p += take;
  }
  return res;
}

function checked(r: RawReader, offset: number, bits: number): RawBits {
  const b = r._bits;
  if (offset < 0 || offset + bits > b._length) throw outOfBounds(Math.max(offset, b._length), b._length);
  return b;
}

export class FastBitReader extends BitReader {
  override clone(): BitReader {
    return new FastBitReader((this as unknown as { _bits: BitString })._bits, this.offset);
  }

  override loadUint(bits: number): number {
    const r = this as unknown as RawReader;
    if (bits > 52) return super.loadUint(bits);
    const n = bits === 0 ? 0 : readSmall(checked(r, r._offset, bits)._data, r._bits._offset + r._offset, bits);
    r._offset += bits;
    return n;
  }

  override preloadUint(bits: number): number {
    const r = this as unknown as RawReader;
    if (bits > 52) return super.preloadUint(bits);
    return bits === 0 ? 0 : readSmall(checked(r, r._offset, bits)._data, r._bits._offset + r._offset, bits);
  }

  override loadInt(bits: number): number {
    const r = this as unknown as RawReader;
    if (bits > 52 || bits === 0) return super.loadInt(bits);
    const u = readSmall(checked(r, r._offset, bits)._data, r._bits._offset + r._offset, bits);
    r._offset += bits;
    const half = 2 ** (bits - 1);
    return u >= half ? u - 2 * half : u;
  }
}

// The private readers every public method goes through (TypeScript cannot override private members, so they are
// put on the prototype here).
const proto = FastBitReader.prototype as unknown as Record<string, unknown>;
proto._preloadUint = function (this: RawReader, bits: number, offset: number): bigint {
  if (bits === 0) return 0n;
  const b = checked(this, offset, bits);
  return readBig(b._data, b._offset + offset, bits);
};
proto._preloadInt = function (this: RawReader, bits: number, offset: number): bigint {
  if (bits === 0) return 0n;
  const b = checked(this, offset, bits);
  const u = readBig(b._data, b._offset + offset, bits);
  return u >= 1n << BigInt(bits - 1) ? u - (1n << BigInt(bits)) : u;
};
proto._preloadBuffer = function (this: RawReader, bytes: number, offset: number): Buffer {
  const b = checked(this, offset, bytes * 8);
  const pos = b._offset + offset;
  // Always a copy: callers may change what they get (an anycast address is rewritten in place), and the bytes
  // here are the table's BoC, which its hashes are computed from.
  if ((pos & 7) === 0) return Buffer.from(b._data.subarray(pos >> 3, (pos >> 3) + bytes));
  const out = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) out[i] = readSmall(b._data, pos + i * 8, 8);
  return out;
};
