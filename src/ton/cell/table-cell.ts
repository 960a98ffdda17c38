// @ton/core-compatible views of a CellTable's cells, made only for the cells code reads. A view is an instance of
// @ton/core's Cell (its prototype chain runs through Cell.prototype: `instanceof Cell`, toBoc, asSlice, Builder's
// storeRef and Dictionary all take it), but it holds two fields instead of a frozen object with five closures and
// eagerly computed hashes: bits point into the BoC bytes, children are made when `refs` is first read, hashes are
// computed by the table on first `hash()`.
import { BitString, Cell, CellType, type Slice } from '@ton/core';
import type { LevelMask } from '@ton/core/dist/boc/cell/LevelMask.js';
import { type BocOptions, cellToBoc } from './cell-boc.ts';
import { type CellTable, levelOfMask, ORDINARY } from './cell-table.ts';
import { FastBitReader } from './fast-bit-reader.ts';
import { FastSlice, levelMask } from './lazy-cell.ts';

const CELL_TYPES = [
  CellType.Ordinary,
  CellType.PrunedBranch,
  CellType.Library,
  CellType.MerkleProof,
  CellType.MerkleUpdate,
] as const;

class TableCell {
  readonly table: CellTable;
  readonly index: number;
  private cachedBits: BitString | null = null;
  private cachedRefs: Cell[] | null = null;
  private cachedHash: Buffer | null = null;

  constructor(table: CellTable, index: number) {
    this.table = table;
    this.index = index;
  }

  get type(): CellType {
    return CELL_TYPES[this.table.kind[this.index] as number] as CellType;
  }

  get bits(): BitString {
    if (this.cachedBits === null) {
      const t = this.table;
      this.cachedBits = new BitString(t.bytes, (t.dataAt[this.index] as number) * 8, t.bitLen[this.index] as number);
    }
    return this.cachedBits;
  }

  get refs(): Cell[] {
    if (this.cachedRefs === null) {
      const t = this.table;
      const from = t.refStart[this.index] as number;
      const to = t.refStart[this.index + 1] as number;
      const refs = new Array<Cell>(to - from);
      for (let r = from; r < to; r++) refs[r - from] = cellOf(t, t.refIdx[r] as number);
      this.cachedRefs = refs;
    }
    return this.cachedRefs;
  }

  get mask(): LevelMask {
    return levelMask(this.table.mask[this.index] as number);
  }

  beginParse(allowExotic = false): Slice {
    if (!allowExotic && this.table.kind[this.index] !== ORDINARY) throw new Error('Exotic cells cannot be parsed');
    return new FastSlice(new FastBitReader(this.bits), this.refs, this as unknown as Cell) as unknown as Slice;
  }

  hash(level = 3): Buffer {
    if (level >= 3) {
      this.cachedHash ??= this.table.hash(this.index, 3);
      return this.cachedHash;
    }
    return this.table.hash(this.index, level);
  }

  depth(level = 3): number {
    return this.table.depth(this.index, level);
  }

  level(): number {
    return levelOfMask(this.table.mask[this.index] as number);
  }

  equals(other: Cell): boolean {
    return this.hash().equals(other.hash());
  }

  toBoc(opts?: BocOptions): Buffer {
    return cellToBoc(this as unknown as Cell, opts);
  }
}
Object.setPrototypeOf(TableCell.prototype, Cell.prototype);

/** Cell i of the table as an @ton/core Cell (one view per cell, made on first use). */
export function cellOf(table: CellTable, i: number): Cell {
  let v = table.views[i] as Cell | undefined;
  if (v === undefined) {
    v = new TableCell(table, i) as unknown as Cell;
    table.views[i] = v;
  }
  return v;
}

/** The table's roots as cells, in root-list order. */
export function rootsOf(table: CellTable): Cell[] {
  return table.roots.map((r) => cellOf(table, r));
}

/** The table and index behind a view made here, or null for any other cell. */
export function tableOf(cell: Cell): { table: CellTable; index: number } | null {
  return cell instanceof TableCell ? { table: cell.table, index: cell.index } : null;
}
