// Reads a bag of cells into a CellTable (cell-table.ts): one pass over the bytes, checking what the node checks
// (BagOfCells::deserialize) and saying what was expected and what arrived. Hashes are not computed here.
import { CodecError } from '../../common/errors.ts';
import { parseBocHeader } from './boc-header.ts';
import {
  CellTable,
  LIBRARY,
  levelOfMask,
  MERKLE_PROOF,
  MERKLE_UPDATE,
  ORDINARY,
  PRUNED_BRANCH,
  popcount,
} from './cell-table.ts';
import { crc32c } from './crc32c.ts';
import { nativeHasher, nativeReadFaults } from './native-hash.ts';

export interface ReadBocOptions {
  /** Skip the CRC32-C check (the caller checked the file's SHA-256 already). Default false. */
  skipCrc?: boolean;
}

/** Reads and checks a BoC's structure; throws CodecError on any malformation. */
export function readCellTable(input: Uint8Array, opts: ReadBocOptions = {}): CellTable {
  // The table keeps the bytes (cells' bits point into them), so it owns a copy the caller cannot change.
  const src = Buffer.from(input);
  const h = parseBocHeader(src);
  if (h.hasCrc32c && !opts.skipCrc) {
    const stored = src.subarray(src.length - 4);
    const computed = crc32c(src.subarray(0, src.length - 4));
    if (!computed.equals(stored)) {
      throw new CodecError(
        `BoC: CRC32-C mismatch: stored ${stored.toString('hex')}, computed ${computed.toString('hex')}`,
      );
    }
  }
  const n = h.cellCount;
  const dataAt = new Int32Array(n);
  const d2s = new Uint8Array(n);
  const bitLen = new Uint16Array(n);
  const refStart = new Int32Array(n + 1);
  const refIdx = new Int32Array(n * 4);
  const kind = new Uint8Array(n);
  const mask = new Uint8Array(n);
  const storedMask = new Uint8Array(n);
  const storedHashesAt = new Int32Array(n).fill(-1);
  const fast = nativeHasher?.readCells(
    src,
    Int32Array.of(
      n,
      h.sizeBytes,
      h.dataOffset,
      h.dataOffset + h.totalCellsSize,
      h.hasIdx ? 1 : 0,
      h.indexOffset,
      h.offBytes,
      h.hasCacheBits ? 1 : 0,
    ),
    Int32Array.from(h.rootIndices),
    dataAt,
    d2s,
    bitLen,
    refStart,
    refIdx,
    kind,
    mask,
    storedMask,
    storedHashesAt,
  );
  // The addon reads the same cells with the same checks; when it finds the BoC broken (-1), the loop below reads
  // it again to say where and why.
  const table = (refs: number) =>
    new CellTable({
      bytes: src,
      count: n,
      roots: h.rootIndices,
      dataAt,
      d2: d2s,
      bitLen,
      refStart,
      refIdx: refIdx.subarray(0, refs),
      kind,
      mask,
      storedMask,
      storedHashesAt,
    });
  if (fast !== undefined && fast >= 0) return table(fast);
  if (fast !== undefined) nativeReadFaults.count++;
  const refCount = h.hasCacheBits ? new Uint8Array(n) : null;
  if (refCount) for (const r of h.rootIndices) refCount[r] = Math.min(2, (refCount[r] as number) + 1);
  const sizeBytes = h.sizeBytes;
  const end = h.dataOffset + h.totalCellsSize;
  let pos = h.dataOffset;
  let nRefs = 0;
  for (let i = 0; i < n; i++) {
    if (pos + 2 > end) throw new CodecError(`BoC: cell #${i} at byte ${pos}: truncated cell data`);
    const d1 = src[pos] as number;
    const d2 = src[pos + 1] as number;
    const refsCount = d1 & 7;
    if (refsCount > 4) {
      throw new CodecError(`BoC: cell #${i} at byte ${pos}: expected at most 4 refs, got ${refsCount} (absent cell?)`);
    }
    const levelMask = d1 >> 5;
    const hashesLen = (d1 & 16) !== 0 ? (popcount(levelMask) + 1) * (32 + 2) : 0;
    const dataLen = (d2 >> 1) + (d2 & 1);
    const cellEnd = pos + 2 + hashesLen + dataLen + refsCount * sizeBytes;
    if (cellEnd > end) {
      throw new CodecError(`BoC: cell #${i} at byte ${pos}: cell runs past the data section (${cellEnd} > ${end})`);
    }
    const start = pos + 2 + hashesLen;
    let bits = dataLen * 8;
    if (d2 & 1) {
      const last = src[start + dataLen - 1] as number;
      if ((last & 0x7f) === 0) {
        throw new CodecError(
          `BoC: cell #${i} at byte ${pos}: bad completion tag in last data byte 0x${last.toString(16)}`,
        );
      }
      bits -= 32 - Math.clz32(last & -last);
    }
    dataAt[i] = start;
    d2s[i] = d2;
    bitLen[i] = bits;
    storedMask[i] = levelMask;
    if (hashesLen > 0) storedHashesAt[i] = pos + 2;
    refStart[i] = nRefs;
    let at = start + dataLen;
    for (let k = 0; k < refsCount; k++, at += sizeBytes) {
      let r = 0;
      for (let b = 0; b < sizeBytes; b++) r = r * 256 + (src[at + b] as number);
      if (r <= i) throw new CodecError(`BoC: cell #${i} at byte ${pos}: ref #${k} points back to cell ${r}`);
      if (r >= n)
        throw new CodecError(`BoC: cell #${i} at byte ${pos}: ref #${k} points to cell ${r}, only ${n} cells`);
      refIdx[nRefs++] = r;
      if (refCount) refCount[r] = Math.min(2, (refCount[r] as number) + 1);
    }
    kind[i] = (d1 & 8) === 0 ? ORDINARY : exoticKind(src, i, start, bits, refsCount);
    if (h.hasIdx) {
      let raw = 0;
      for (let b = 0; b < h.offBytes; b++) raw = raw * 256 + (src[h.indexOffset + i * h.offBytes + b] as number);
      const offset = h.hasCacheBits ? Math.floor(raw / 2) : raw;
      if (offset !== cellEnd - h.dataOffset) {
        throw new CodecError(
          `BoC: cell #${i} at byte ${pos}: index says the cell ends at ${offset}, it ends at ${cellEnd - h.dataOffset}`,
        );
      }
    }
    pos = cellEnd;
  }
  refStart[n] = nRefs;
  if (pos !== end) throw new CodecError(`BoC: ${end - pos} unused bytes after the last cell`);
  if (refCount) checkCacheBits(src, h.indexOffset, h.offBytes, refCount);
  // Level masks from the children up (references point forward, so a reverse pass sees children first).
  for (let i = n - 1; i >= 0; i--) {
    const from = refStart[i] as number;
    const to = refStart[i + 1] as number;
    const k = kind[i] as number;
    let m = 0;
    if (k === PRUNED_BRANCH) m = bitLen[i] === 280 ? 1 : (src[(dataAt[i] as number) + 1] as number);
    else if (k === MERKLE_PROOF || k === MERKLE_UPDATE) {
      for (let r = from; r < to; r++) m |= mask[refIdx[r] as number] as number;
      m >>= 1;
    } else if (k === ORDINARY) for (let r = from; r < to; r++) m |= mask[refIdx[r] as number] as number;
    mask[i] = m;
  }
  return table(nRefs);
}

/** An exotic cell's type from its first byte, with its size and references checked for that type. */
function exoticKind(src: Buffer, i: number, at: number, bits: number, refs: number): number {
  const bad = (why: string): never => {
    throw new CodecError(`BoC: cell #${i} is invalid: ${why}`);
  };
  if (bits < 8) bad(`an exotic cell needs a type byte, got ${bits} bits`);
  const type = src[at] as number;
  switch (type) {
    case PRUNED_BRANCH: {
      if (refs !== 0) bad(`Pruned branch cell must have no refs, got ${refs}`);
      if (bits === 280) return PRUNED_BRANCH; // the historical form without a mask byte (level 1)
      const m = bits >= 16 ? (src[at + 1] as number) : 0;
      if (m < 1 || m > 7) bad(`Pruned branch cell level mask must be 1..7, got ${m}`);
      const size = 16 + popcount(m) * (256 + 16);
      if (bits !== size) bad(`Pruned branch cell with mask ${m} must have exactly ${size} bits, got ${bits}`);
      if (levelOfMask(m) < 1) bad('Pruned branch cell level must be 1..3');
      return PRUNED_BRANCH;
    }
    case LIBRARY:
      if (bits !== 8 + 256 || refs !== 0)
        bad(`Library cell must have exactly 264 bits and no refs, got ${bits}/${refs}`);
      return LIBRARY;
    case MERKLE_PROOF:
      if (bits !== 8 + 256 + 16 || refs !== 1) {
        bad(`Merkle Proof cell must have exactly 280 bits and 1 ref, got ${bits} bits and ${refs} refs`);
      }
      return MERKLE_PROOF;
    case MERKLE_UPDATE:
      if (bits !== 8 + 512 + 32 || refs !== 2) {
        bad(`Merkle Update cell must have exactly 552 bits and 2 refs, got ${bits} bits and ${refs} refs`);
      }
      return MERKLE_UPDATE;
    default:
      return bad(`unknown exotic cell type ${type}`);
  }
}

function checkCacheBits(src: Buffer, indexOffset: number, offBytes: number, refCount: Uint8Array): void {
  for (let i = 0; i < refCount.length; i++) {
    let raw = 0;
    for (let b = 0; b < offBytes; b++) raw = raw * 256 + (src[indexOffset + i * offBytes + b] as number);
    const flag = raw % 2 === 1;
    if (flag !== (refCount[i] as number) > 1) {
      throw new CodecError(
        `BoC: cell #${i}: cache bit ${flag ? 1 : 0} but the cell is referenced ${refCount[i]} time(s)`,
      );
    }
  }
}
