// Bag of cells, as the node writes it (crypto/vm/boc.cpp, tvm.pdf §5.3.2 "serialized_boc"):
//   serialized_boc#b5ee9c72 has_idx:(## 1) has_crc32c:(## 1) has_cache_bits:(## 1) flags:(## 2) { flags = 0 }
//     size:(## 3) { size <= 4 } off_bytes:(## 8) { off_bytes <= 8 }
//     cells:(##(size * 8)) roots:(##(size * 8)) absent:(##(size * 8)) { roots + absent <= cells }
//     tot_cells_size:(##(off_bytes * 8)) root_list:(roots * ##(size * 8))
//     index:has_idx?(cells * ##(off_bytes * 8)) cell_data:(tot_cells_size * [ uint8 ])
//     crc32c:has_crc32c?uint32 = BagOfCells;
// @ton/core's `toBoc` writes one root only and orders cells its own way. This writer takes any number of
// roots, deduplicates cells by representation hash and orders them as the node's BagOfCells does, so a
// BoC the node produced (a liteserver proof, a block file) comes out byte for byte the same.
import { type Cell, CellType } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { BOC_MAGIC, bitsDescriptor, crc32c, writePaddedBits } from '../cell/index.ts';

export interface SerializeBocOptions {
  /** Write the cell offset index (default false). */
  idx?: boolean;
  /** Append the CRC32-C of everything before it (default true, as @ton/core's `toBoc`). */
  crc32?: boolean;
  /** Mark cells referenced more than once in the index (needs `idx`; block files have it). Default false. */
  cacheBits?: boolean;
  /**
   * Store hashes and depths inside the cells the node's weighting marks as special (the node's mode bit 8,
   * "with int hashes"; block files are written with it). Default false.
   */
  hashes?: boolean;
}

// The node's weight budget for one cell and its children (BagOfCells::max_cell_whs). Weights only decide
// which cells count as "special" (would get stored hashes); that in turn changes the cell order.
const MAX_CELL_WHS = 64;
const NOT_SEEN = -1;
const PREVISITED = -2;
const VISITED = -3;

interface Node {
  cell: Cell;
  refs: number[];
  wt: number;
  shouldCache: boolean;
  newIdx: number;
}

/** Serializes one or more roots into one bag of cells in the node's cell order. */
export function serializeBoc(roots: readonly Cell[], opts: SerializeBocOptions = {}): Buffer {
  const idx = opts.idx ?? false;
  const crc = opts.crc32 ?? true;
  const cacheBits = opts.cacheBits ?? false;
  const withHashes = opts.hashes ?? false;
  if (roots.length === 0) throw new CodecError('BoC: expected at least one root, got none');
  if (cacheBits && !idx) throw new CodecError('BoC: cache bits need the index (idx: true)');

  // 1. Import: children before parents, one node per distinct representation hash.
  const nodes: Node[] = [];
  const byHash = new Map<string, number>();
  let dataBytes = 0;
  let intRefs = 0;
  const importCell = (cell: Cell): number => {
    const key = cell.hash().toString('latin1');
    const seen = byHash.get(key);
    if (seen !== undefined) {
      (nodes[seen] as Node).shouldCache = true;
      return seen;
    }
    let wt = 1;
    const refs = cell.refs.map((r) => {
      const i = importCell(r);
      wt += (nodes[i] as Node).wt;
      intRefs++;
      return i;
    });
    byHash.set(key, nodes.length);
    nodes.push({ cell, refs, wt: Math.min(0xff, wt), shouldCache: false, newIdx: NOT_SEEN });
    dataBytes += 2 + Math.ceil(cell.bits.length / 8);
    return nodes.length - 1;
  };
  const rootIdx = roots.map(importCell);

  // 2. Weights: cap each child's share of its parent's budget, then mark the cells whose subtree does not
  // fit as special (wt = 0).
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i] as Node;
    const s = node.refs.length;
    let c = s;
    let sum = MAX_CELL_WHS - 1;
    let fits = 0;
    for (let j = 0; j < s; j++) {
      const child = nodes[node.refs[j] as number] as Node;
      if (child.wt <= Math.floor((MAX_CELL_WHS - 1 + j) / s)) {
        sum -= child.wt;
        c--;
        fits |= 1 << j;
      }
    }
    if (c === 0) continue;
    for (let j = 0; j < s; j++) {
      if (fits & (1 << j)) continue;
      const child = nodes[node.refs[j] as number] as Node;
      const limit = Math.floor(sum++ / c);
      if (child.wt > limit) child.wt = limit;
    }
  }
  let hashBytes = 0;
  for (const node of nodes) {
    let sum = 1;
    for (const r of node.refs) sum += (nodes[r] as Node).wt;
    if (sum <= node.wt) node.wt = sum;
    else {
      node.wt = 0;
      if (withHashes) hashBytes += node.cell.mask.hashCount * (32 + 2);
    }
  }

  // 3. Order: previsit (stop at special cells and visit those), visit (children first), allocate.
  // Allocation order is reversed on output, so a parent always precedes its children.
  const order: Node[] = [];
  const revisit = (i: number, force: 0 | 1 | 2): number => {
    const node = nodes[i] as Node;
    if (node.newIdx >= 0) return node.newIdx;
    if (force === 0) {
      if (node.newIdx !== NOT_SEEN) return node.newIdx;
      for (let j = node.refs.length - 1; j >= 0; j--) {
        const r = node.refs[j] as number;
        revisit(r, (nodes[r] as Node).wt === 0 ? 1 : 0);
      }
      node.newIdx = PREVISITED;
      return PREVISITED;
    }
    if (force === 2) {
      node.newIdx = order.length;
      order.push(node);
      return node.newIdx;
    }
    if (node.newIdx === VISITED) return VISITED;
    if (node.wt === 0) revisit(i, 0);
    for (let j = node.refs.length - 1; j >= 0; j--) revisit(node.refs[j] as number, 1);
    for (let j = node.refs.length - 1; j >= 0; j--) revisit(node.refs[j] as number, 2);
    node.newIdx = VISITED;
    return VISITED;
  };
  for (const r of rootIdx) {
    revisit(r, 0);
    revisit(r, 1);
  }
  for (const r of rootIdx) revisit(r, 2);

  // 4. Sizes: the smallest byte widths that hold the cell count and the largest offset.
  const count = order.length;
  let sizeBytes = 1;
  while (count >= 2 ** (8 * sizeBytes)) sizeBytes++;
  const totalSize = dataBytes + intRefs * sizeBytes + hashBytes;
  const maxOffset = cacheBits ? totalSize * 2 : totalSize;
  let offBytes = 1;
  while (maxOffset >= 2 ** (8 * offBytes)) offBytes++;
  if (sizeBytes > 4 || offBytes > 8) throw new CodecError(`BoC: too large (${count} cells, ${totalSize} bytes)`);

  const headerSize = 6 + 3 * sizeBytes + offBytes + roots.length * sizeBytes;
  const indexSize = idx ? count * offBytes : 0;
  const out = Buffer.alloc(headerSize + indexSize + totalSize + (crc ? 4 : 0));
  let pos = 0;
  const writeUint = (value: number, bytes: number) => {
    for (let k = bytes - 1; k >= 0; k--) {
      out[pos + k] = value % 256;
      value = Math.floor(value / 256);
    }
    pos += bytes;
  };
  const outIndex = (n: Node) => count - 1 - n.newIdx;

  writeUint(BOC_MAGIC, 4);
  writeUint((idx ? 0x80 : 0) | (crc ? 0x40 : 0) | (cacheBits ? 0x20 : 0) | sizeBytes, 1);
  writeUint(offBytes, 1);
  writeUint(count, sizeBytes);
  writeUint(roots.length, sizeBytes);
  writeUint(0, sizeBytes);
  writeUint(totalSize, offBytes);
  for (const r of rootIdx) writeUint(outIndex(nodes[r] as Node), sizeBytes);

  if (idx) {
    let offset = 0;
    for (let k = count - 1; k >= 0; k--) {
      const node = order[k] as Node;
      offset += cellSize(node.cell, withHashes && node.wt === 0) + node.refs.length * sizeBytes;
      writeUint(cacheBits ? offset * 2 + (node.shouldCache ? 1 : 0) : offset, offBytes);
    }
  }
  for (let k = count - 1; k >= 0; k--) {
    const node = order[k] as Node;
    pos = writeCellData(out, pos, node.cell, withHashes && node.wt === 0);
    for (const r of node.refs) writeUint(outIndex(nodes[r] as Node), sizeBytes);
  }
  if (crc) {
    crc32c(out.subarray(0, pos)).copy(out, pos);
    pos += 4;
  }
  return out;
}

function cellSize(cell: Cell, withHashes: boolean): number {
  return 2 + (withHashes ? cell.mask.hashCount * (32 + 2) : 0) + Math.ceil(cell.bits.length / 8);
}

/**
 * d1, d2, [hashes and depths of each significant level], data bytes with the completion tag
 * (tvm.pdf §3.1.4 "standard cell representation"; d1 bit 4 flags the stored hashes).
 */
function writeCellData(out: Buffer, pos: number, cell: Cell, withHashes: boolean): number {
  const bits = cell.bits;
  const len = bits.length;
  const exotic = cell.type !== CellType.Ordinary;
  out[pos++] = cell.refs.length + (exotic ? 8 : 0) + (withHashes ? 16 : 0) + cell.mask.value * 32;
  out[pos++] = bitsDescriptor(len);
  if (withHashes) {
    const levels = significantLevels(cell.mask.value);
    for (const l of levels) pos += cell.hash(l).copy(out, pos);
    for (const l of levels) {
      const d = cell.depth(l);
      out[pos++] = d >> 8;
      out[pos++] = d & 0xff;
    }
  }
  pos += writePaddedBits(bits, out, pos);
  return pos;
}

/** Levels that carry a hash in a level mask: 0, then every level whose bit is set, in increasing order. */
export function significantLevels(mask: number): number[] {
  const levels = [0];
  for (let l = 1; l <= 3; l++) if (mask & (1 << (l - 1))) levels.push(l);
  return levels;
}
