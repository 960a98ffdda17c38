// TL byte buffers with the method set ton-lite-client's generated codecs call (`Functions.x.encodeRequest(req, w)`,
// `decodeResponse(r)`). We use these instead of importing `ton-tl` (a transitive dependency, not ours) and because
// its reader slices `bytes` past the end without noticing and flips the sign bit of negative int64s in place.
// Every read is bounds-checked and throws CodecError, so a garbled answer can only fail its own request.
import type { Functions } from 'ton-lite-client/dist/schema.js';
import { CodecError } from '../../common/index.ts';

type SampleFunction = (typeof Functions)['liteServer_getTime'];
/** The writer type ton-lite-client's codecs are declared against (ton-tl's TLWriteBuffer). */
export type TlEncoder = Parameters<SampleFunction['encodeRequest']>[1];
/** The reader type ton-lite-client's codecs are declared against (ton-tl's TLReadBuffer). */
export type TlDecoder = Parameters<SampleFunction['decodeResponse']>[0];

/** A lite_api function as ton-lite-client's schema describes it (structurally ton-tl's TLFunction). */
export interface TlFunction<REQ, RES> {
  encodeRequest(src: REQ, encoder: TlEncoder): void;
  decodeResponse(decoder: TlDecoder): RES;
}

const BOOL_TRUE = 0x997275b5;
const BOOL_FALSE = 0xbc799737;

export class TlWriter {
  private buf = Buffer.alloc(256);
  private used = 0;

  private ensure(n: number): void {
    if (this.used + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.used + n));
    this.buf.copy(next, 0, 0, this.used);
    this.buf = next;
  }

  writeInt32(v: number): void {
    this.ensure(4);
    this.buf.writeInt32LE(v, this.used);
    this.used += 4;
  }

  writeUInt32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.used);
    this.used += 4;
  }

  /** ton-lite-client passes 64-bit values as decimal strings (signed shards, unsigned lts). */
  writeInt64(v: string | bigint | number): void {
    let n: bigint;
    try {
      n = BigInt(v);
    } catch {
      throw new CodecError(`TL long: expected a decimal integer, got ${JSON.stringify(String(v))}`);
    }
    if (n < -(2n ** 63n) || n >= 2n ** 64n) throw new CodecError(`TL long: ${n} does not fit in 64 bits`);
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt.asUintN(64, n), this.used);
    this.used += 8;
  }

  writeUInt8(v: number): void {
    this.ensure(1);
    this.buf[this.used++] = v & 0xff;
  }

  writeInt256(v: Buffer): void {
    if (v.length !== 32) throw new CodecError(`TL int256: expected 32 bytes, got ${v.length}`);
    this.ensure(32);
    v.copy(this.buf, this.used);
    this.used += 32;
  }

  writeBuffer(v: Buffer): void {
    const head = v.length < 254 ? 1 : 4;
    const padded = (head + v.length + 3) & ~3;
    this.ensure(padded);
    if (head === 1) this.buf[this.used] = v.length;
    else {
      this.buf[this.used] = 254;
      this.buf.writeUIntLE(v.length, this.used + 1, 3);
    }
    v.copy(this.buf, this.used + head);
    this.buf.fill(0, this.used + head + v.length, this.used + padded);
    this.used += padded;
  }

  writeString(v: string): void {
    this.writeBuffer(Buffer.from(v, 'utf8'));
  }

  writeBool(v: boolean): void {
    this.writeUInt32(v ? BOOL_TRUE : BOOL_FALSE);
  }

  writeVector<T>(codec: (item: T, w: TlEncoder) => void, items: T[]): void {
    this.writeUInt32(items.length);
    for (const item of items) codec(item, this.asEncoder());
  }

  build(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.used));
  }

  /** The same object typed as ton-tl's writer: the generated codecs only call the methods above. */
  asEncoder(): TlEncoder {
    return this as unknown as TlEncoder;
  }
}

export class TlReader {
  private offset = 0;
  constructor(private readonly buf: Buffer) {}

  get remaining(): number {
    return this.buf.length - this.offset;
  }

  private take(n: number, what: string): number {
    if (n > this.buf.length - this.offset) {
      throw new CodecError(`TL ${what}: needed ${n} bytes at offset ${this.offset}, only ${this.remaining} left`);
    }
    const at = this.offset;
    this.offset += n;
    return at;
  }

  readInt32(): number {
    return this.buf.readInt32LE(this.take(4, 'int'));
  }

  readUInt32(): number {
    return this.buf.readUInt32LE(this.take(4, '#'));
  }

  readInt64(): string {
    return this.buf.readBigInt64LE(this.take(8, 'long')).toString();
  }

  readUInt8(): number {
    return this.buf[this.take(1, 'byte')]!;
  }

  readInt256(): Buffer {
    const at = this.take(32, 'int256');
    return Buffer.from(this.buf.subarray(at, at + 32));
  }

  readBuffer(): Buffer {
    const start = this.offset;
    let len = this.readUInt8();
    if (len === 254) len = this.buf.readUIntLE(this.take(3, 'bytes length'), 3);
    else if (len === 255) throw new CodecError(`TL bytes: length byte 255 at offset ${start} is not valid`);
    const at = this.take(len, 'bytes');
    const out = Buffer.from(this.buf.subarray(at, at + len));
    const pad = (4 - ((this.offset - start) % 4)) % 4;
    this.take(pad, 'bytes padding');
    return out;
  }

  readString(): string {
    return this.readBuffer().toString('utf8');
  }

  readBool(): boolean {
    const at = this.offset;
    const v = this.readUInt32();
    if (v === BOOL_TRUE) return true;
    if (v === BOOL_FALSE) return false;
    throw new CodecError(`TL Bool: expected boolTrue or boolFalse, got 0x${v.toString(16)} at offset ${at}`);
  }

  readVector<T>(codec: (r: TlDecoder) => T): T[] {
    const at = this.offset;
    const count = this.readUInt32();
    // Every element takes at least 4 bytes, so a count larger than that is garbage (and would loop for ages).
    if (count * 4 > this.remaining) {
      throw new CodecError(`TL vector: ${count} elements announced at offset ${at}, only ${this.remaining} bytes left`);
    }
    const out: T[] = [];
    for (let i = 0; i < count; i++) out.push(codec(this.asDecoder()));
    return out;
  }

  readObject(): Buffer {
    const at = this.take(this.remaining, 'object');
    return Buffer.from(this.buf.subarray(at));
  }

  asDecoder(): TlDecoder {
    return this as unknown as TlDecoder;
  }
}
