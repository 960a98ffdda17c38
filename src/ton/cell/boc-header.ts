// The header of a bag of cells (layout in src/ton/boc/serialize-boc.ts), read and checked before any cell.
import { CodecError } from '../../common/errors.ts';

export const BOC_MAGIC = 0xb5ee9c72;
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

function readUint(src: Buffer, at: number, bytes: number): number {
  let v = 0;
  for (let k = 0; k < bytes; k++) v = v * 256 + (src[at + k] as number);
  return v;
}
