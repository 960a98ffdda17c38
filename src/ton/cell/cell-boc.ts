// toBoc for the cells this layer makes (table cells and lazy cells; any other @ton/core cell works too): a one-root
// BoC written with byte copies, byte for byte what @ton/core's serializeBoc writes for the same cell: its cell order
// (cells collected breadth-first and deduplicated by hash, then a depth-first post-order that visits references
// last to first, reversed), descriptors from the computed level mask, its size fields. A test compares the two on
// every cell of the vectors' blocks. @ton/core's own writer pads bits one at a time, keys cells by hex strings and
// computes its CRC one bit at a time: it was a quarter of decoding a block (message bodies are stored as BoCs).
import type { Cell } from '@ton/core';
import { bytesFor, startBoc } from './boc-head.ts';
import { serializationOrder } from './boc-order.ts';
import { CellTable } from './cell-table.ts';
import { crc32c } from './crc32c.ts';
import { bitsDescriptor, writePaddedBits } from './padded-bits.ts';
import { tableBoc } from './table-boc.ts';

export interface BocOptions {
  idx?: boolean | null;
  crc32?: boolean | null;
}

/** Any cells: numbered as first met, equal hashes one number. */
function order(root: Cell): { cells: Cell[]; refs: number[][] } {
  const numbers = new Map<string, number>();
  const byNumber: Cell[] = [];
  const numberOf = (c: Cell): number => {
    const key = c.hash().toString('latin1');
    let n = numbers.get(key);
    if (n === undefined) {
      n = byNumber.length;
      numbers.set(key, n);
      byNumber.push(c);
    }
    return n;
  };
  const kids: number[][] = [];
  const kidsOf = (n: number): number[] => {
    let k = kids[n];
    if (k === undefined) {
      k = (byNumber[n] as Cell).refs.map(numberOf);
      kids[n] = k;
    }
    return k;
  };
  const m = { stamp: 0, seen: [], placed: [], position: [] as number[] };
  const graph = {
    refsFrom: () => 0,
    refsTo: (n: number) => kidsOf(n).length,
    kid: (n: number, r: number) => kidsOf(n)[r] as number,
  };
  const { sorted, n } = serializationOrder(numberOf(root), graph, m);
  const cells: Cell[] = [];
  const refs: number[][] = [];
  for (let p = 0; p < n; p++) {
    const id = sorted[n - 1 - p] as number;
    cells.push(byNumber[id] as Cell);
    refs.push(kidsOf(id).map((k) => m.position[k] as number));
  }
  return { cells, refs };
}

/** Writes cell `c`'s d1, d2 and padded data at `at`; returns where it ended. */
function writeCell(c: Cell, nRefs: number, out: Buffer, at: number): number {
  out[at] = nRefs + (c.isExotic ? 8 : 0) + 32 * c.mask.value;
  out[at + 1] = bitsDescriptor(c.bits.length);
  return at + 2 + writePaddedBits(c.bits, out, at + 2);
}

/** The table behind a table cell (table-cell.ts), else null. */
function tableCellOf(c: Cell): { table: CellTable; index: number } | null {
  const { table, index } = c as unknown as { table?: unknown; index?: number };
  return table instanceof CellTable && index !== undefined ? { table, index } : null;
}

/** A cell to write: a table index, the lazy root (-1) or any cell. */
interface Layout {
  count: number;
  refs: number[][];
  write(p: number, out: Buffer, at: number): number;
  dataBytes(p: number): number;
}

function layoutOf(root: Cell): Layout {
  const { cells, refs } = order(root);
  return {
    count: cells.length,
    refs,
    dataBytes: (p) => ((cells[p] as Cell).bits.length + 7) >> 3,
    write: (p, out, at) => writeCell(cells[p] as Cell, (refs[p] as number[]).length, out, at),
  };
}

/**
 * The usual shapes, on table indices (table-boc.ts): a table cell, or a lazy cell (an inline body) whose references
 * are all cells of one table. A lazy root cannot equal a cell below it (that would be its own descendant).
 */
function inOneTable(root: Cell, hasIdx: boolean, hasCrc: boolean): Buffer | null {
  const rootInTable = tableCellOf(root);
  if (rootInTable) return tableBoc(rootInTable.table, rootInTable.index, null, null, hasIdx, hasCrc);
  if (root.isExotic || root.refs.length === 0) return null;
  const inner = root.refs.map(tableCellOf);
  const first = inner[0]?.table;
  if (!first || !inner.every((r) => r?.table === first)) return null;
  const lazyRefs = inner.map((r) => (r as { index: number }).index);
  return tableBoc(first, -1, root, lazyRefs, hasIdx, hasCrc);
}

/** The BoC of `root` and its subtree, as @ton/core's `cell.toBoc(opts)` writes it. */
export function cellToBoc(root: Cell, opts?: BocOptions): Buffer {
  const hasIdx = opts?.idx ?? false;
  const hasCrc = opts?.crc32 ?? true;
  const fromTable = inOneTable(root, hasIdx, hasCrc);
  if (fromTable) return fromTable;
  const l = layoutOf(root);
  const n = l.count;
  const sizeBytes = bytesFor(n);
  let total = 0;
  const ends: number[] = [];
  for (let p = 0; p < n; p++) {
    total += 2 + l.dataBytes(p) + (l.refs[p] as number[]).length * sizeBytes;
    ends.push(total);
  }
  const head = startBoc(n, total, sizeBytes, hasIdx, hasCrc);
  const { out, offBytes } = head;
  let at = head.at;
  if (hasIdx) for (const e of ends) at = out.writeUIntBE(e, at, offBytes);
  for (let p = 0; p < n; p++) {
    at = l.write(p, out, at);
    for (const x of l.refs[p] as number[]) at = out.writeUIntBE(x, at, sizeBytes);
  }
  if (hasCrc) crc32c(out.subarray(0, at)).copy(out, at);
  return out;
}
