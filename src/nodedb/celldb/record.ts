// One celldb record (node-db.md §3.2): the value stored under a cell's 32-byte representation hash.
//   plain: int32 LE refcount, d1, d2, the data bytes (completion tag included), then per reference: the child's
//          level mask byte, its hashes for each significant level (level 0 first), the same number of 2-byte
//          big-endian depths. The child's key is its LAST listed hash.
//   boc:   int32 −1, int32 LE refcount, a standard BoC whose root is the cell with its whole subtree
//          (`--celldb-compress-depth`).
// Since celldb v2 the node changes refcounts with RocksDB Merge operands of int32 LE deltas; cellRefcountMerge is
// that operator (ton's MergeOperatorAddCellRefcnt; the C addon implements the same rule).
// The key of a plain record is checked without loading children: a cell's hashes depend only on d1, d2, the data
// and the children's (depth, hash) pairs at each level, all of which the record holds (TON's cell hashing,
// higher levels included: pruned branches, Merkle proofs and updates).
import { createHash } from 'node:crypto';
import type { BitString, Cell } from '@ton/core';
import { cellsFromBoc } from '../../ton/index.ts';
import type { MergeFn } from '../kv/types.ts';
import { NodeDbFormatError } from '../tl.ts';

export interface CellRecordRef {
  /** The child's level mask (0 for an ordinary subtree with no pruned branches below). */
  levelMask: number;
  /** The child's hashes at its significant levels, level 0 first (popcount(mask)+1 of them). */
  hashes: Buffer[];
  /** The child's depths at the same levels. */
  depths: number[];
  /** The child's representation hash (the last of `hashes`): its celldb key. */
  key: Buffer;
}

export type ParsedCellRecord =
  | {
      refcount: number;
      kind: 'plain';
      d1: number;
      d2: number;
      /** ⌈bits/8⌉ bytes, with the completion tag when bits mod 8 ≠ 0. */
      data: Buffer;
      bits: number;
      exotic: boolean;
      levelMask: number;
      refs: CellRecordRef[];
    }
  | { refcount: number; kind: 'boc'; root: Cell };

export type PlainCellRecord = Extract<ParsedCellRecord, { kind: 'plain' }>;

const BOC_MARKER = -1;
const MAX_LEVEL = 3;
/** TON's exotic cell types (first data byte). */
const EXOTIC_PRUNED = 1;
const EXOTIC_LIBRARY = 2;
const EXOTIC_MERKLE_PROOF = 3;
const EXOTIC_MERKLE_UPDATE = 4;

const popcount = (m: number) => (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1);
const levelOf = (m: number) => 32 - Math.clz32(m);
/** Index of the hash that stands for `level` among a mask's significant levels. */
const hashIndexAt = (mask: number, level: number) => popcount(mask & ((1 << Math.min(level, MAX_LEVEL)) - 1));
const hexOf = (b: Buffer | undefined) => (b ? b.toString('hex') : '(none)');

/** The cell's data bytes as a BoC stores them: ⌈bits/8⌉ bytes, a completion tag after the last bit. */
function paddedData(bits: BitString): Buffer {
  const n = bits.length;
  const out = Buffer.alloc((n + 7) >> 3);
  const whole = n - (n & 7);
  const aligned = whole > 0 ? bits.subbuffer(0, whole) : null;
  if (aligned) aligned.copy(out);
  else for (let i = 0; i < whole; i++) if (bits.at(i)) out[i >> 3]! |= 0x80 >> (i & 7);
  if (n & 7) {
    let last = 0;
    for (let i = whole; i < n; i++) if (bits.at(i)) last |= 0x80 >> (i - whole);
    out[out.length - 1] = last | (0x80 >> (n - whole));
  }
  return out;
}

/** The plain form of a record: `cell`'s own bytes and its children's (mask, hashes, depths). */
export function encodeCellRecord(cell: Cell, refcount: number): Buffer {
  checkRefcount(refcount, 'encodeCellRecord');
  const n = cell.bits.length;
  const parts: Buffer[] = [];
  const head = Buffer.alloc(6);
  head.writeInt32LE(refcount, 0);
  head[4] = cell.refs.length + (cell.isExotic ? 8 : 0) + cell.mask.value * 32;
  head[5] = (n >> 3) + ((n + 7) >> 3);
  parts.push(head, paddedData(cell.bits));
  for (const child of cell.refs) {
    const mask = child.mask.value;
    const levels: number[] = [];
    for (let l = 0; l <= levelOf(mask); l++) if (l === 0 || (mask >> (l - 1)) & 1) levels.push(l);
    const ref = Buffer.alloc(1 + levels.length * 34);
    ref[0] = mask;
    levels.forEach((l, i) => {
      child.hash(l).copy(ref, 1 + i * 32);
      ref.writeUInt16BE(child.depth(l), 1 + levels.length * 32 + i * 2);
    });
    parts.push(ref);
  }
  return Buffer.concat(parts);
}

/** The −1 form: marker, refcount, then a BoC of the whole subtree (no index, no CRC: std_boc_serialize mode 0). */
export function encodeCellRecordBoc(cell: Cell, refcount: number): Buffer {
  checkRefcount(refcount, 'encodeCellRecordBoc');
  const head = Buffer.alloc(8);
  head.writeInt32LE(BOC_MARKER, 0);
  head.writeInt32LE(refcount, 4);
  return Buffer.concat([head, cell.toBoc({ idx: false, crc32: false })]);
}

function checkRefcount(refcount: number, what: string): void {
  if (!Number.isInteger(refcount) || refcount <= 0 || refcount > 0x7fffffff) {
    throw new RangeError(`${what}: refcount must be an int32 > 0, got ${refcount}`);
  }
}

/**
 * Parses a record. With `key`, checks that the record is the cell stored under that key (plain: the
 * representation hash recomputed from the record alone; boc: the embedded root's hash).
 */
export function parseCellRecord(value: Buffer, key?: Buffer): ParsedCellRecord {
  const where = `celldb record ${hexOf(key)}`;
  if (value.length < 4) throw new NodeDbFormatError(`${where}: ${value.length} bytes, expected at least 4`);
  let refcount = value.readInt32LE(0);
  if (refcount === BOC_MARKER) {
    if (value.length < 8) throw new NodeDbFormatError(`${where}: −1 marker without a refcount (${value.length} bytes)`);
    refcount = value.readInt32LE(4);
    if (refcount <= 0) throw new NodeDbFormatError(`${where}: refcount ${refcount}, expected > 0`);
    let roots: Cell[];
    try {
      roots = cellsFromBoc(value.subarray(8));
    } catch (e) {
      throw new NodeDbFormatError(`${where}: the embedded BoC does not parse (${(e as Error).message})`);
    }
    if (roots.length !== 1)
      throw new NodeDbFormatError(`${where}: the embedded BoC has ${roots.length} roots, expected 1`);
    const root = roots[0]!;
    if (key && !root.hash().equals(key)) {
      throw new NodeDbFormatError(`${where}: the embedded BoC's root hash is ${root.hash().toString('hex')}`);
    }
    return { refcount, kind: 'boc', root };
  }
  if (refcount <= 0) throw new NodeDbFormatError(`${where}: refcount ${refcount}, expected > 0`);
  const rec = parsePlain(value, refcount, where);
  if (key) {
    const got = cellRecordHash(rec);
    if (!got.equals(key)) throw new NodeDbFormatError(`${where}: the record hashes to ${got.toString('hex')}`);
  }
  return rec;
}

function parsePlain(value: Buffer, refcount: number, where: string): PlainCellRecord {
  if (value.length < 6)
    throw new NodeDbFormatError(`${where}: ${value.length} bytes, expected d1 and d2 after the refcount`);
  const d1 = value[4]!;
  const d2 = value[5]!;
  const refCount = d1 & 7;
  if (refCount > 4) throw new NodeDbFormatError(`${where}: d1 0x${d1.toString(16)} gives ${refCount} refs, at most 4`);
  if (d1 & 16)
    throw new NodeDbFormatError(`${where}: d1 0x${d1.toString(16)} has the with-hashes bit, not used in celldb`);
  const exotic = (d1 & 8) !== 0;
  const levelMask = d1 >> 5;
  const len = (d2 + 1) >> 1;
  let off = 6;
  if (off + len > value.length) {
    throw new NodeDbFormatError(`${where}: d2 ${d2} needs ${len} data bytes, ${value.length - off} left`);
  }
  const data = Buffer.from(value.subarray(off, off + len));
  off += len;
  let bits = (d2 >> 1) * 8;
  if (d2 & 1) {
    const last = data[len - 1]!;
    const tz = last === 0 ? 8 : 31 - Math.clz32(last & -last);
    if (tz > 6) throw new NodeDbFormatError(`${where}: last data byte 0x${last.toString(16)} has no completion tag`);
    bits = (len - 1) * 8 + (7 - tz);
  }
  const refs: CellRecordRef[] = [];
  for (let i = 0; i < refCount; i++) {
    if (off >= value.length) throw new NodeDbFormatError(`${where}: ref ${i} missing (record ends at ${off})`);
    const mask = value[off]!;
    if (mask > 7) throw new NodeDbFormatError(`${where}: ref ${i} level mask ${mask}, expected 0..7`);
    const n = popcount(mask) + 1;
    const end = off + 1 + n * 34;
    if (end > value.length) throw new NodeDbFormatError(`${where}: ref ${i} needs ${n * 34 + 1} bytes at ${off}`);
    const hashes: Buffer[] = [];
    const depths: number[] = [];
    for (let j = 0; j < n; j++) {
      hashes.push(Buffer.from(value.subarray(off + 1 + j * 32, off + 33 + j * 32)));
      depths.push(value.readUInt16BE(off + 1 + n * 32 + j * 2));
    }
    refs.push({ levelMask: mask, hashes, depths, key: hashes[n - 1]! });
    off = end;
  }
  if (off !== value.length)
    throw new NodeDbFormatError(`${where}: ${value.length - off} trailing bytes after the refs`);
  const rec: PlainCellRecord = { refcount, kind: 'plain', d1, d2, data, bits, exotic, levelMask, refs };
  checkLevelMask(rec, where);
  return rec;
}

/** The level mask a cell must have given its type and children (DataCell::create's rule). */
function checkLevelMask(rec: PlainCellRecord, where: string): void {
  const childMasks = rec.refs.reduce((m, r) => m | r.levelMask, 0);
  let want = childMasks;
  if (rec.exotic) {
    if (rec.bits < 8) throw new NodeDbFormatError(`${where}: exotic cell with ${rec.bits} bits, no type byte`);
    const type = rec.data[0]!;
    const shape = (bits: number, refs: number) => {
      if (rec.bits !== bits || rec.refs.length !== refs) {
        throw new NodeDbFormatError(
          `${where}: exotic type ${type} expects ${bits} bits and ${refs} refs, got ${rec.bits} and ${rec.refs.length}`,
        );
      }
    };
    if (type === EXOTIC_PRUNED) {
      want = rec.data[1] ?? 0;
      if (want === 0 || want > 7) throw new NodeDbFormatError(`${where}: pruned branch with level mask ${want}`);
      shape(16 + popcount(want) * (256 + 16), 0);
    } else if (type === EXOTIC_LIBRARY) {
      want = 0;
      shape(8 + 256, 0);
    } else if (type === EXOTIC_MERKLE_PROOF) {
      want = childMasks >> 1;
      shape(8 + 256 + 16, 1);
    } else if (type === EXOTIC_MERKLE_UPDATE) {
      want = childMasks >> 1;
      shape(8 + 2 * (256 + 16), 2);
    } else {
      throw new NodeDbFormatError(`${where}: unknown exotic cell type ${type}`);
    }
  }
  if (want !== rec.levelMask) {
    throw new NodeDbFormatError(`${where}: d1 level mask ${rec.levelMask}, the cell's type and refs give ${want}`);
  }
}

/**
 * A plain record's hashes at each significant level of its mask (level 0 first; the last is the representation
 * hash). Pruned branches keep their lower hashes in their data, so only the last is computed for them.
 */
export function cellRecordHashes(rec: PlainCellRecord): Buffer[] {
  const type = rec.exotic ? rec.data[0]! : 0;
  const merkle = type === EXOTIC_MERKLE_PROOF || type === EXOTIC_MERKLE_UPDATE;
  const mask = rec.levelMask;
  const out: Buffer[] = [];
  if (type === EXOTIC_PRUNED) {
    // lower levels: the hashes stored in the pruned branch's own data (after type and mask bytes)
    const n = popcount(mask);
    for (let i = 0; i < n; i++) out.push(rec.data.subarray(2 + i * 32, 34 + i * 32));
    out.push(sha256(Buffer.from([rec.d1, rec.d2]), rec.data));
    return out;
  }
  for (let level = 0; level <= levelOf(mask); level++) {
    if (level !== 0 && !((mask >> (level - 1)) & 1)) continue;
    const d1 = rec.refs.length + (rec.exotic ? 8 : 0) + (mask & ((1 << level) - 1)) * 32;
    const childLevel = merkle ? level + 1 : level;
    const depthBytes = Buffer.alloc(rec.refs.length * 2);
    const hashes: Buffer[] = [];
    rec.refs.forEach((r, i) => {
      const at = hashIndexAt(r.levelMask, childLevel);
      depthBytes.writeUInt16BE(r.depths[at]!, i * 2);
      hashes.push(r.hashes[at]!);
    });
    // level 0 hashes the data; each higher level hashes the previous level's hash in its place
    const body = out.length === 0 ? rec.data : out[out.length - 1]!;
    out.push(sha256(Buffer.from([d1, rec.d2]), body, depthBytes, ...hashes));
  }
  return out;
}

/** A plain record's representation hash: the key it must be stored under. */
export function cellRecordHash(rec: PlainCellRecord): Buffer {
  return cellRecordHashes(rec).at(-1)!;
}

function sha256(...parts: Buffer[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** The refcount of a stored value, wherever the −1 marker puts it. */
export function recordRefcount(value: Buffer): number {
  const at = refcountOffset(value);
  return value.readInt32LE(at);
}

/** A copy of a stored value with its refcount replaced (marker and payload kept). */
export function withRefcount(value: Buffer, refcount: number): Buffer {
  const out = Buffer.from(value);
  out.writeInt32LE(refcount, refcountOffset(value));
  return out;
}

function refcountOffset(value: Buffer): number {
  if (value.length < 4) throw new NodeDbFormatError(`celldb value: ${value.length} bytes, expected at least 4`);
  if (value.readInt32LE(0) !== BOC_MARKER) return 0;
  if (value.length < 8) throw new NodeDbFormatError(`celldb value: −1 marker in ${value.length} bytes, expected 8+`);
  return 4;
}

/** One Merge operand: an int32 LE refcount delta. */
export function refcountDelta(n: number): Buffer {
  if (!Number.isInteger(n) || n < -0x80000000 || n > 0x7fffffff) {
    throw new RangeError(`refcountDelta: expected an int32, got ${n}`);
  }
  const b = Buffer.alloc(4);
  b.writeInt32LE(n);
  return b;
}

/**
 * celldb v2's merge operator (ton's MergeOperatorAddCellRefcnt): the operands' int32 deltas are summed (wrapping
 * as int32) and added to the record's refcount (the first int32, or the second after the −1 marker); the rest of
 * the value is kept. Empty operands count as 0 (ton skips them). With no existing value (or an empty one, which
 * celldb reads as absent) the result is the 4-byte delta sum, or an empty value when every operand was empty;
 * that is also how partial merges combine operands. The node itself never merges into an absent key. Same rule
 * as native/tonrocks's operator.
 */
export const cellRefcountMerge: MergeFn = (existing, operands) => {
  let sum = 0;
  let any = false;
  for (const op of operands) {
    if (op.length === 0) continue;
    if (op.length !== 4) throw new NodeDbFormatError(`celldb merge operand: ${op.length} bytes, expected 4`);
    sum = (sum + op.readInt32LE(0)) | 0;
    any = true;
  }
  if (existing === null || existing.length === 0) return any ? refcountDelta(sum) : Buffer.alloc(0);
  const at = refcountOffset(existing);
  const out = Buffer.from(existing);
  out.writeInt32LE((existing.readInt32LE(at) + sum) | 0, at);
  return out;
};
