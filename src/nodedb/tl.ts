// The TL objects a TON node keeps in its databases (ton_api.tl, `db.*`): constructor ids and a small
// little-endian reader/writer. Boxed = 4-byte LE constructor id then the fields; a `tonNode.blockIdExt` field is
// bare (80 bytes). Ids are TL's CRC32 of the schema line (src/adnl/tl.ts's rule); nodedb/tl.test.ts recomputes each.
import type { BlockIdExt } from '../ton/index.ts';

export const TL = {
  blockIdExt: 0x6752eb78,
  boolTrue: 0x997275b5,
  boolFalse: 0xbc799737,
  // file keys (an index's file offset is keyed by upper-hex sha256 of the boxed key)
  fileBlock: 0xb0eae471,
  fileProof: 0xda954dec,
  fileProofLink: 0x98fbc5ce,
  // block handles
  blockdbKey: 0x7f57d173,
  blockInfo: 0x4ac6e727,
  // ltdb
  ltDescKey: 0xf1e3e791,
  ltDescValue: 0x71af51b4,
  ltElKey: 0xa5321ae2,
  ltElValue: 0x95e65f64,
  ltShardKey: 0x50a6f90f,
  ltShardValue: 0x3c739a7b,
  ltStatusKey: 0x776c6057,
  ltStatusValue: 0xfabeed39,
  // global index
  filesIndexKey: 0x7dc40502,
  filesIndexValue: 0xa2b1dafc,
  filesPackageKey: 0xa504033e,
  filesPackageValue: 0xe44cd52b,
  // celldb
  celldbValue: 0xe6101440,
  // state db: keys are sha256 of the boxed key object, except dbVersion's (the raw 4 bytes)
  stateShardClient: 0x0b16a69d,
  stateGcBlockId: 0xdf30bd4f,
  stateInitBlockId: 0x732c9cf5,
  stateDbVersion: 0xd93720f7,
  stateKeyShardClient: 0xc99b3187,
  stateKeyGcBlockId: 0xc379f3de,
  stateKeyInitBlockId: 0x758278e3,
  stateKeyDbVersion: 0x724f2154,
} as const;

/** The node's format errors: what was being read and why it does not parse. */
export class NodeDbFormatError extends Error {
  override readonly name = 'NodeDbFormatError';
}

export const BLOCK_ID_BYTES = 80;

/** Sequential LE writer (sizes are small: keys and values of a few hundred bytes). */
export class TlWriter {
  private readonly parts: Buffer[] = [];
  u32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v >>> 0);
    this.parts.push(b);
    return this;
  }
  i32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.parts.push(b);
    return this;
  }
  i64(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(BigInt.asIntN(64, v));
    this.parts.push(b);
    return this;
  }
  /** A 64-bit shard id, stored as TL `long` (its bits; 0x8000000000000000 reads back as the same unsigned value). */
  shard(v: bigint): this {
    return this.i64(v);
  }
  int256(v: Buffer): this {
    if (v.length !== 32) throw new NodeDbFormatError(`int256: expected 32 bytes, got ${v.length}`);
    this.parts.push(Buffer.from(v));
    return this;
  }
  bool(v: boolean): this {
    return this.u32(v ? TL.boolTrue : TL.boolFalse);
  }
  blockId(id: BlockIdExt): this {
    return this.i32(id.workchain).shard(id.shard).i32(id.seqno).int256(id.rootHash).int256(id.fileHash);
  }
  raw(b: Buffer): this {
    this.parts.push(b);
    return this;
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** Sequential LE reader; every read checks bounds and names `what` in its error. */
export class TlReader {
  offset = 0;
  constructor(
    readonly buf: Buffer,
    readonly what: string,
  ) {}
  private need(n: number): void {
    if (this.offset + n > this.buf.length) {
      throw new NodeDbFormatError(
        `${this.what}: expected ${n} more bytes at offset ${this.offset}, the value has ${this.buf.length}`,
      );
    }
  }
  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.offset);
    this.offset += 4;
    return v;
  }
  i32(): number {
    this.need(4);
    const v = this.buf.readInt32LE(this.offset);
    this.offset += 4;
    return v;
  }
  i64(): bigint {
    this.need(8);
    const v = this.buf.readBigInt64LE(this.offset);
    this.offset += 8;
    return v;
  }
  /** A shard id: the TL long's 64 bits as an unsigned bigint (0x8000000000000000n for a whole workchain). */
  shard(): bigint {
    return BigInt.asUintN(64, this.i64());
  }
  int256(): Buffer {
    this.need(32);
    const v = this.buf.subarray(this.offset, this.offset + 32);
    this.offset += 32;
    return v;
  }
  bool(): boolean {
    const v = this.u32();
    if (v === TL.boolTrue) return true;
    if (v === TL.boolFalse) return false;
    throw new NodeDbFormatError(`${this.what}: expected a Bool, got constructor 0x${v.toString(16)}`);
  }
  blockId(): BlockIdExt {
    return {
      workchain: this.i32(),
      shard: this.shard(),
      seqno: this.i32(),
      rootHash: this.int256(),
      fileHash: this.int256(),
    };
  }
  /** Reads a constructor id and checks it. */
  expect(id: number): this {
    const got = this.u32();
    if (got !== id) {
      throw new NodeDbFormatError(`${this.what}: expected constructor 0x${id.toString(16)}, got 0x${got.toString(16)}`);
    }
    return this;
  }
  /** Throws unless every byte was read. */
  end(): void {
    if (this.offset !== this.buf.length) {
      throw new NodeDbFormatError(
        `${this.what}: ${this.buf.length - this.offset} trailing bytes at offset ${this.offset}`,
      );
    }
  }
}
