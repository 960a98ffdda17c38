// Bag-of-cells reader (layout in serialize-boc.ts). @ton/core's `Cell.fromBoc` reads the same format, but
// fails with bare messages ("Invalid magic") and accepts some malformed input (trailing bytes, references
// to earlier cells, unused bytes in the index). This reader checks what the node checks
// (BagOfCells::deserialize) and says what was expected and what arrived.
import { BitString, Cell, crc32c } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { BOC_MAGIC } from './serialize-boc.ts';

const MAGIC_IDX = 0x68ff65f3;
const MAGIC_IDX_CRC32C = 0xacc3a728;

export interface BocHeader {
  magic: number;
  hasIdx: boolean;
  hasCrc32c: boolean;
  hasCacheBits: boolean;
  /** Bytes per cell reference (1..4). */
  sizeBytes: number;
  /** Bytes per offset (1..8). */
  offBytes: number;
  cellCount: number;
  rootCount: number;
  /** Indices of the roots in the cell list. */
  rootIndices: number[];
  /** Size of the cell data section in bytes. */
  totalCellsSize: number;
  /** Where the index (or the cell data, when there is no index) starts. */
  indexOffset: number;
  dataOffset: number;
  /** Total BoC length, CRC included. */
  totalSize: number;
}

/** Reads and checks the header; the cells themselves are not touched. */
export function parseBocHeader(bytes: Uint8Array): BocHeader {
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (n: number, what: string) => {
    if (src.length < n) throw new CodecError(`BoC: truncated ${what}: need ${n} bytes, got ${src.length}`);
  };
  need(6, 'header');
  const magic = src.readUInt32BE(0);
  const flags = src[4] as number;
  let hasIdx: boolean;
  let hasCrc32c: boolean;
  let hasCacheBits = false;
  if (magic === BOC_MAGIC) {
    hasIdx = (flags & 0x80) !== 0;
    hasCrc32c = (flags & 0x40) !== 0;
    hasCacheBits = (flags & 0x20) !== 0;
    if (flags & 0x18) throw new CodecError(`BoC: reserved flag bits must be 0, got 0x${(flags & 0x18).toString(16)}`);
    if (hasCacheBits && !hasIdx) throw new CodecError('BoC: has_cache_bits is set without has_idx');
  } else if (magic === MAGIC_IDX || magic === MAGIC_IDX_CRC32C) {
    hasIdx = true;
    hasCrc32c = magic === MAGIC_IDX_CRC32C;
  } else {
    throw new CodecError(
      `BoC: expected magic 0xb5ee9c72 (or 0x68ff65f3, 0xacc3a728), got 0x${magic.toString(16).padStart(8, '0')}`,
    );
  }
  const sizeBytes = flags & 7;
  if (sizeBytes < 1 || sizeBytes > 4) throw new CodecError(`BoC: expected size 1..4 bytes, got ${sizeBytes}`);
  const offBytes = src[5] as number;
  if (offBytes < 1 || offBytes > 8) throw new CodecError(`BoC: expected off_bytes 1..8, got ${offBytes}`);
  const rootsOffset = 6 + 3 * sizeBytes + offBytes;
  need(rootsOffset, 'header');
  const cellCount = readUint(src, 6, sizeBytes);
  const rootCount = readUint(src, 6 + sizeBytes, sizeBytes);
  const absent = readUint(src, 6 + 2 * sizeBytes, sizeBytes);
  const totalCellsSize = readUint(src, 6 + 3 * sizeBytes, offBytes);
  if (cellCount < 1) throw new CodecError('BoC: expected at least one cell, got 0');
  if (rootCount < 1) throw new CodecError('BoC: expected at least one root, got 0');
  if (absent !== 0) throw new CodecError(`BoC: absent cells are not supported, got ${absent}`);
  // TL-B says roots + absent <= cells, but the node neither writes nor checks that: a root given twice is
  // listed twice, so a one-cell BoC may have two roots.
  if (magic !== BOC_MAGIC && rootCount !== 1)
    throw new CodecError(`BoC: indexed BoC must have 1 root, got ${rootCount}`);
  if (totalCellsSize < cellCount * (2 + sizeBytes) - sizeBytes || totalCellsSize > cellCount * 1024) {
    throw new CodecError(`BoC: cell data size ${totalCellsSize} does not fit ${cellCount} cells`);
  }
  const rootIndices: number[] = [];
  let indexOffset = rootsOffset;
  if (magic === BOC_MAGIC) {
    need(rootsOffset + rootCount * sizeBytes, 'root list');
    for (let i = 0; i < rootCount; i++) {
      const r = readUint(src, rootsOffset + i * sizeBytes, sizeBytes);
      if (r >= cellCount) throw new CodecError(`BoC: root #${i} points to cell ${r}, only ${cellCount} cells`);
      rootIndices.push(r);
    }
    indexOffset += rootCount * sizeBytes;
  } else {
    rootIndices.push(0);
  }
  const dataOffset = indexOffset + (hasIdx ? cellCount * offBytes : 0);
  const totalSize = dataOffset + totalCellsSize + (hasCrc32c ? 4 : 0);
  if (src.length !== totalSize) {
    throw new CodecError(`BoC: expected ${totalSize} bytes from the header, got ${src.length}`);
  }
  return {
    magic,
    hasIdx,
    hasCrc32c,
    hasCacheBits,
    sizeBytes,
    offBytes,
    cellCount,
    rootCount,
    rootIndices,
    totalCellsSize,
    indexOffset,
    dataOffset,
    totalSize,
  };
}

export interface ParseBocOptions {
  /**
   * Accept a cell whose d1 level mask differs from the one its contents imply. The node rejects such cells
   * ("level mask mismatch"); some tools write them (tonutils-go writes 0 above pruned branches, and the
   * historical 280-bit pruned-branch form has no mask). Default false.
   */
  allowLevelMaskMismatch?: boolean;
}

/** Parses a bag of cells into its roots (in root-list order). Throws CodecError on any malformation. */
export function parseBoc(bytes: Uint8Array, opts: ParseBocOptions = {}): Cell[] {
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const h = parseBocHeader(src);
  if (h.hasCrc32c) {
    const stored = src.subarray(src.length - 4);
    const computed = crc32c(src.subarray(0, src.length - 4));
    if (!computed.equals(stored)) {
      throw new CodecError(
        `BoC: CRC32-C mismatch: stored ${stored.toString('hex')}, computed ${computed.toString('hex')}`,
      );
    }
  }

  interface Raw {
    exotic: boolean;
    levelMask: number;
    bits: BitString;
    refs: number[];
    storedHashes: Buffer | undefined;
  }
  const raws: Raw[] = [];
  const refCount = new Uint8Array(h.cellCount);
  for (const r of h.rootIndices) refCount[r] = Math.min(2, (refCount[r] as number) + 1);
  const end = h.dataOffset + h.totalCellsSize;
  let pos = h.dataOffset;
  for (let i = 0; i < h.cellCount; i++) {
    const at = `cell #${i} at byte ${pos}`;
    if (pos + 2 > end) throw new CodecError(`BoC: ${at}: truncated cell data`);
    const d1 = src[pos] as number;
    const d2 = src[pos + 1] as number;
    const refsCount = d1 & 7;
    if (refsCount > 4) throw new CodecError(`BoC: ${at}: expected at most 4 refs, got ${refsCount} (absent cell?)`);
    const withHashes = (d1 & 16) !== 0;
    const levelMask = d1 >> 5;
    const hashCount = popcount(levelMask) + 1;
    const hashesLen = withHashes ? hashCount * (32 + 2) : 0;
    const dataLen = (d2 >> 1) + (d2 & 1);
    const cellEnd = pos + 2 + hashesLen + dataLen + refsCount * h.sizeBytes;
    if (cellEnd > end) throw new CodecError(`BoC: ${at}: cell runs past the data section (${cellEnd} > ${end})`);
    const dataStart = pos + 2 + hashesLen;
    const data = Buffer.from(src.subarray(dataStart, dataStart + dataLen));
    let bitLen = dataLen * 8;
    if (d2 & 1) {
      const last = data[dataLen - 1] as number;
      if ((last & 0x7f) === 0)
        throw new CodecError(`BoC: ${at}: bad completion tag in last data byte 0x${last.toString(16)}`);
      const tail = 31 - Math.clz32(last & -last);
      bitLen = dataLen * 8 - tail - 1;
      data[dataLen - 1] = last & ~((1 << (tail + 1)) - 1);
    }
    const refs: number[] = [];
    for (let k = 0; k < refsCount; k++) {
      const r = readUint(src, dataStart + dataLen + k * h.sizeBytes, h.sizeBytes);
      if (r <= i) throw new CodecError(`BoC: ${at}: ref #${k} points back to cell ${r}`);
      if (r >= h.cellCount)
        throw new CodecError(`BoC: ${at}: ref #${k} points to cell ${r}, only ${h.cellCount} cells`);
      refs.push(r);
      refCount[r] = Math.min(2, (refCount[r] as number) + 1);
    }
    if (h.hasIdx) {
      const raw = readUint(src, h.indexOffset + i * h.offBytes, h.offBytes);
      const offset = h.hasCacheBits ? Math.floor(raw / 2) : raw;
      if (offset !== cellEnd - h.dataOffset) {
        throw new CodecError(`BoC: ${at}: index says the cell ends at ${offset}, it ends at ${cellEnd - h.dataOffset}`);
      }
    }
    raws.push({
      exotic: (d1 & 8) !== 0,
      levelMask,
      bits: new BitString(data, 0, bitLen),
      refs,
      storedHashes: withHashes ? Buffer.from(src.subarray(pos + 2, pos + 2 + hashesLen)) : undefined,
    });
    pos = cellEnd;
  }
  if (pos !== end) throw new CodecError(`BoC: ${end - pos} unused bytes after the last cell`);
  if (h.hasCacheBits) {
    for (let i = 0; i < h.cellCount; i++) {
      const flag = readUint(src, h.indexOffset + i * h.offBytes, h.offBytes) % 2 === 1;
      if (flag !== (refCount[i] as number) > 1) {
        throw new CodecError(
          `BoC: cell #${i}: cache bit ${flag ? 1 : 0} but the cell is referenced ${refCount[i]} time(s)`,
        );
      }
    }
  }

  const cells: Cell[] = new Array(h.cellCount);
  for (let i = h.cellCount - 1; i >= 0; i--) {
    const raw = raws[i] as Raw;
    let cell: Cell;
    try {
      cell = new Cell({ exotic: raw.exotic, bits: raw.bits, refs: raw.refs.map((r) => cells[r] as Cell) });
    } catch (e) {
      throw new CodecError(`BoC: cell #${i} is invalid: ${(e as Error).message}`, { cause: e });
    }
    if (cell.mask.value !== raw.levelMask && !opts.allowLevelMaskMismatch) {
      throw new CodecError(`BoC: cell #${i}: level mask ${raw.levelMask} in d1, computed ${cell.mask.value}`);
    }
    if (raw.storedHashes) checkStoredHashes(i, cell, raw.storedHashes);
    cells[i] = cell;
  }
  return h.rootIndices.map((r) => cells[r] as Cell);
}

function checkStoredHashes(i: number, cell: Cell, stored: Buffer): void {
  const levels = [0];
  for (let l = 1; l <= 3; l++) if (cell.mask.value & (1 << (l - 1))) levels.push(l);
  const n = levels.length;
  levels.forEach((l, k) => {
    const hash = stored.subarray(k * 32, k * 32 + 32);
    const depth = stored.readUInt16BE(n * 32 + k * 2);
    if (!hash.equals(cell.hash(l)) || depth !== cell.depth(l)) {
      throw new CodecError(
        `BoC: cell #${i}: stored hash/depth of level ${l} is ${hash.toString('hex')}/${depth}, computed ${cell.hash(l).toString('hex')}/${cell.depth(l)}`,
      );
    }
  });
}

function readUint(src: Buffer, at: number, bytes: number): number {
  let v = 0;
  for (let k = 0; k < bytes; k++) v = v * 256 + (src[at + k] as number);
  return v;
}

function popcount(n: number): number {
  let c = 0;
  for (let m = n; m; m &= m - 1) c++;
  return c;
}
