// A bag of cells read once into flat arrays: for each cell its descriptor bytes, where its data sits in the BoC,
// its references and its level mask; no object per cell. Representation hashes and depths are computed only when
// asked (a cell's, with its subtree, or all at once for a root check), with SHA-256 from node:crypto, and kept in
// one flat pool. table-cell.ts's `cellOf(table, i)` hands out @ton/core-compatible views for code that reads cells.
//
// Why by hand: @ton/core's Cell.fromBoc builds a frozen object with five closures per cell and hashes every cell
// eagerly with @ton/crypto's pure-JS SHA-256 (a hex round trip through jssha); reading a 500 KB block that way
// took ~100 ms of which most was hashing and garbage collection. No maintained library reads BoCs lazily.
//
// Hashing follows the TVM's cell representation (tvm.pdf 3.1.4-3.1.6 and the node's DataCell):
//   repr_l = d1_l d2 data_l depth(child_0, l') .. hash(child_0, l') ..
// where d1_l = refs + 8*exotic + 32*(mask & (2^l - 1)), data_l is the padded data for the lowest significant level
// (a pruned branch: its own level) and the previous level's hash above it, and l' = l + 1 under a Merkle proof or
// update, l otherwise. A pruned branch keeps the hashes and depths of its lower levels in its data.
import { hash as sha256Native } from 'node:crypto';
import { CodecError } from '../../common/errors.ts';
import { nativeHasher } from './native-hash.ts';

export const ORDINARY = 0;
export const PRUNED_BRANCH = 1;
export const LIBRARY = 2;
export const MERKLE_PROOF = 3;
export const MERKLE_UPDATE = 4;

export function popcount(n: number): number {
  let c = 0;
  for (let m = n; m; m &= m - 1) c++;
  return c;
}

export const levelOfMask = (mask: number): number => 32 - Math.clz32(mask);

/** Which of a cell's hashes (and depths) serves `level`: the number of significant levels below it. */
export const hashIndex = (mask: number, level: number): number => popcount(mask & ((1 << (level < 3 ? level : 3)) - 1));

/**
 * Copies `n` bytes; returns n. A plain loop: for the few dozen bytes of a cell's data or a hash, Buffer.copy's
 * argument checks and native call cost more than the copy (it showed in profiles of block hashing).
 */
function copyBytes(from: Uint8Array, at: number, n: number, to: Uint8Array, into: number): number {
  for (let i = 0; i < n; i++) to[into + i] = from[at + i] as number;
  return n;
}

/** The structure of one BoC: a cell's place in the bytes and its links. Built by readCellTable (boc-reader.ts). */
export interface CellLayout {
  /** The BoC bytes (owned by the table: copied when read). */
  bytes: Buffer;
  count: number;
  roots: number[];
  /** Byte offset of each cell's data (after d1, d2 and any stored hashes). */
  dataAt: Int32Array;
  d2: Uint8Array;
  bitLen: Uint16Array;
  /** Children of cell i are refIdx[refStart[i] .. refStart[i + 1]). */
  refStart: Int32Array;
  refIdx: Int32Array;
  /** ORDINARY, PRUNED_BRANCH, LIBRARY, MERKLE_PROOF or MERKLE_UPDATE. */
  kind: Uint8Array;
  /** The level mask the contents imply (computed, not the one d1 states). */
  mask: Uint8Array;
  /** The level mask d1 states. */
  storedMask: Uint8Array;
  /** Offset of the stored hashes in bytes (cells written with_hashes), else -1. */
  storedHashesAt: Int32Array;
}

const scratch = Buffer.allocUnsafe(2 + 128 + 4 * 34);
/** scratchOf[n]: the first n bytes of scratch, made once (a view per hash was a measurable allocation). */
const scratchOf = Array.from({ length: scratch.length + 1 }, (_, n) => scratch.subarray(0, n));

export class CellTable {
  readonly bytes: Buffer;
  readonly count: number;
  readonly roots: readonly number[];
  readonly dataAt: Int32Array;
  readonly d2: Uint8Array;
  readonly bitLen: Uint16Array;
  readonly refStart: Int32Array;
  readonly refIdx: Int32Array;
  readonly kind: Uint8Array;
  readonly mask: Uint8Array;
  readonly storedMask: Uint8Array;
  readonly storedHashesAt: Int32Array;
  /** First hash slot of each cell: popcount(mask) + 1 slots (one for a pruned branch). */
  private readonly slot: Int32Array;
  private readonly pool: Buffer;
  private readonly depthPool: Uint16Array;
  /** 1 once a cell's hashes and depths are in the pool. */
  private readonly done: Uint8Array;
  /** Views handed out by cell(i), so a cell read twice is one object (filled by table-cell.ts). */
  readonly views: unknown[];

  constructor(l: CellLayout) {
    this.bytes = l.bytes;
    this.count = l.count;
    this.roots = l.roots;
    this.dataAt = l.dataAt;
    this.d2 = l.d2;
    this.bitLen = l.bitLen;
    this.refStart = l.refStart;
    this.refIdx = l.refIdx;
    this.kind = l.kind;
    this.mask = l.mask;
    this.storedMask = l.storedMask;
    this.storedHashesAt = l.storedHashesAt;
    this.slot = new Int32Array(l.count + 1);
    let s = 0;
    for (let i = 0; i < l.count; i++) {
      this.slot[i] = s;
      s += l.kind[i] === PRUNED_BRANCH ? 1 : popcount(l.mask[i] as number) + 1;
    }
    this.slot[l.count] = s;
    this.pool = Buffer.alloc(s * 32);
    this.depthPool = new Uint16Array(s);
    this.done = new Uint8Array(l.count);
    this.views = new Array(l.count);
  }

  /** How many representation hashes hashAll computes: one per significant level of each cell (one for a pruned branch). */
  get hashCount(): number {
    return this.slot[this.count] as number;
  }

  refCount(i: number): number {
    return (this.refStart[i + 1] as number) - (this.refStart[i] as number);
  }

  /** The hash of cell i at `level` (3: the representation hash), computing its subtree's hashes if needed. */
  hash(i: number, level = 3): Buffer {
    if (this.done[i] === 0) this.hashSubtree(i);
    const { buf, at } = this.hashAt(i, level);
    return Buffer.from(buf.buffer, buf.byteOffset + at, 32);
  }

  depth(i: number, level = 3): number {
    if (this.done[i] === 0) this.hashSubtree(i);
    return this.depthAt(i, level);
  }

  /** The first 32 bits of cell i's representation hash (a key for finding equal cells; hashes it if needed). */
  hashPrefix(i: number): number {
    if (this.done[i] === 0) this.hashSubtree(i);
    const at = this.hashOffset(i, 3);
    const buf = this.inPrunedData(i, 3) ? this.bytes : this.pool;
    return (
      ((buf[at] as number) << 24) |
      ((buf[at + 1] as number) << 16) |
      ((buf[at + 2] as number) << 8) |
      (buf[at + 3] as number)
    );
  }

  /** Whether cells i and j have the same representation hash (both hashed already: hashPrefix first). */
  sameHash(i: number, j: number): boolean {
    const a = this.hashAt(i, 3);
    const b = this.hashAt(j, 3);
    for (let k = 0; k < 32; k++) if (a.buf[a.at + k] !== b.buf[b.at + k]) return false;
    return true;
  }

  /** Hashes every cell (what a root-hash check needs): one pass from the last cell up, children first. */
  hashAll(): void {
    if (nativeHasher) {
      this.hashNatively(-1);
      return;
    }
    for (let i = this.count - 1; i >= 0; i--) if (this.done[i] === 0) this.compute(i);
  }

  /** hashAll (root -1) or hashSubtree in one call to native/tonhash: the same hashes, depths and checks. */
  private hashNatively(root: number): void {
    const bad = (nativeHasher as NonNullable<typeof nativeHasher>).hashCells(
      this.bytes,
      this.dataAt,
      this.d2,
      this.bitLen,
      this.refStart,
      this.refIdx,
      this.kind,
      this.mask,
      this.slot,
      this.pool,
      this.depthPool,
      this.done,
      root,
    );
    // The addon stops at a Merkle cell whose links disagree; the TypeScript check words the error.
    if (bad >= 0) this.checkMerkleLinks(bad, this.refStart[bad] as number, this.refStart[bad + 1] as number);
  }

  /** Hashes cell i and every cell below it that is not hashed yet, children first, without recursion. */
  private hashSubtree(root: number): void {
    if (nativeHasher) {
      this.hashNatively(root);
      return;
    }
    const stack = [root];
    while (stack.length > 0) {
      const i = stack[stack.length - 1] as number;
      if (this.done[i] !== 0) {
        stack.pop();
        continue;
      }
      let pending = false;
      for (let r = this.refStart[i] as number, e = this.refStart[i + 1] as number; r < e; r++) {
        const c = this.refIdx[r] as number;
        if (this.done[c] === 0) {
          stack.push(c);
          pending = true;
        }
      }
      if (!pending) {
        stack.pop();
        this.compute(i);
      }
    }
  }

  /** Whether cell i's hash and depth at `level` are stored in its data (a pruned branch's lower levels). */
  private inPrunedData(i: number, level: number): boolean {
    if (this.kind[i] !== PRUNED_BRANCH) return false;
    const m = this.mask[i] as number;
    return hashIndex(m, level) !== popcount(m);
  }

  /** Offset of cell i's hash at `level`: in the BoC bytes when inPrunedData, else in the pool. */
  private hashOffset(i: number, level: number): number {
    if (this.inPrunedData(i, level)) return this.prunedHashAt(i, hashIndex(this.mask[i] as number, level));
    return (
      ((this.slot[i] as number) + (this.kind[i] === PRUNED_BRANCH ? 0 : hashIndex(this.mask[i] as number, level))) * 32
    );
  }

  private hashAt(i: number, level: number): { buf: Buffer; at: number } {
    return { buf: this.inPrunedData(i, level) ? this.bytes : this.pool, at: this.hashOffset(i, level) };
  }

  private depthAt(i: number, level: number): number {
    const m = this.mask[i] as number;
    if (this.inPrunedData(i, level))
      return this.bytes.readUInt16BE(this.prunedDepthAt(i, hashIndex(m, level), popcount(m)));
    return this.depthPool[
      (this.slot[i] as number) + (this.kind[i] === PRUNED_BRANCH ? 0 : hashIndex(m, level))
    ] as number;
  }

  /** A pruned branch's data: type, mask, then `own` hashes and `own` depths (the 280-bit form: type, hash, depth). */
  private prunedHashAt(i: number, k: number): number {
    const at = this.dataAt[i] as number;
    return this.bitLen[i] === 280 ? at + 1 : at + 2 + k * 32;
  }

  private prunedDepthAt(i: number, k: number, own: number): number {
    const at = this.dataAt[i] as number;
    return this.bitLen[i] === 280 ? at + 33 : at + 2 + own * 32 + k * 2;
  }

  /** The depth writeRepr found (kept in a field: no object per call on the hashing path). */
  private reprDepth = 0;

  /**
   * Writes cell i's representation at `level` into the scratch buffer and returns its length; the depth it
   * implies is left in reprDepth. `h` is the level's hash index among those computed (0: the data itself, else
   * the previous hash).
   */
  private writeRepr(i: number, level: number, h: number): number {
    const m = this.mask[i] as number;
    const kind = this.kind[i] as number;
    const refsFrom = this.refStart[i] as number;
    const refsTo = this.refStart[i + 1] as number;
    const d2 = this.d2[i] as number;
    scratch[0] = refsTo - refsFrom + (kind === ORDINARY ? 0 : 8) + 32 * (m & ((1 << level) - 1));
    scratch[1] = d2;
    let n = 2;
    if (h === 0) {
      const dataAt = this.dataAt[i] as number;
      n += copyBytes(this.bytes, dataAt, (d2 >> 1) + (d2 & 1), scratch, 2);
    } else {
      const prev = ((this.slot[i] as number) + h - 1) * 32;
      n += copyBytes(this.pool, prev, 32, scratch, 2);
    }
    const childLevel = kind === MERKLE_PROOF || kind === MERKLE_UPDATE ? level + 1 : level;
    let depth = 0;
    for (let r = refsFrom; r < refsTo; r++) {
      const d = this.depthAt(this.refIdx[r] as number, childLevel);
      scratch[n++] = d >> 8;
      scratch[n++] = d & 0xff;
      if (d > depth) depth = d;
    }
    for (let r = refsFrom; r < refsTo; r++) {
      const c = this.refIdx[r] as number;
      const at = this.hashOffset(c, childLevel);
      n += copyBytes(this.inPrunedData(c, childLevel) ? this.bytes : this.pool, at, 32, scratch, n);
    }
    this.reprDepth = refsTo > refsFrom ? depth + 1 : 0;
    return n;
  }

  /** Computes cell i's hashes and depths; its children must be done. Checks Merkle links on the way. */
  private compute(i: number): void {
    const m = this.mask[i] as number;
    const kind = this.kind[i] as number;
    if (kind === MERKLE_PROOF || kind === MERKLE_UPDATE) {
      this.checkMerkleLinks(i, this.refStart[i] as number, this.refStart[i + 1] as number);
    }
    const top = levelOfMask(m);
    const base = this.slot[i] as number;
    let h = 0;
    for (let level = kind === PRUNED_BRANCH ? top : 0; level <= top; level++) {
      if (level !== 0 && ((m >> (level - 1)) & 1) === 0) continue;
      const n = this.writeRepr(i, level, h);
      copyBytes(sha256Native('sha256', scratchOf[n] as Buffer, 'buffer'), 0, 32, this.pool, (base + h) * 32);
      this.depthPool[base + h] = this.reprDepth;
      h++;
    }
    this.done[i] = 1;
  }

  /**
   * Cell i's representation at its own level (what its representation hash is taken over), as a copy: for
   * benchmarks' SHA-256 floor and for tests. Hashes the cell's subtree first if needed.
   */
  representation(i: number): Buffer {
    if (this.done[i] === 0) this.hashSubtree(i);
    const m = this.mask[i] as number;
    const h = this.kind[i] === PRUNED_BRANCH ? 0 : popcount(m);
    return Buffer.from(scratchOf[this.writeRepr(i, levelOfMask(m), h)] as Buffer);
  }

  /** A Merkle proof or update names its children's level-0 hashes and depths in its data; they must agree. */
  private checkMerkleLinks(i: number, from: number, to: number): void {
    const at = (this.dataAt[i] as number) + 1;
    const n = to - from;
    for (let k = 0; k < n; k++) {
      const c = this.refIdx[from + k] as number;
      const { buf, at: hAt } = this.hashAt(c, 0);
      const stated = this.bytes.subarray(at + k * 32, at + k * 32 + 32);
      const depth = this.bytes.readUInt16BE(at + n * 32 + k * 2);
      const name = n === 1 ? 'Merkle Proof cell ref' : `Merkle Update cell ref #${k}`;
      const actual = buf.subarray(hAt, hAt + 32);
      if (!stated.equals(actual)) {
        throw new CodecError(
          `BoC: cell #${i} is invalid: ${name} hash must be exactly ${stated.toString('hex')}, got ${actual.toString('hex')}`,
        );
      }
      if (depth !== this.depthAt(c, 0)) {
        throw new CodecError(
          `BoC: cell #${i} is invalid: ${name} depth must be exactly ${depth}, got ${this.depthAt(c, 0)}`,
        );
      }
    }
  }
}
