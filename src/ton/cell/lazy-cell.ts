// An ordinary cell made from bits and references (a slice's remainder: an inline message body, a StateInit read
// in place), hashed on first use with node:crypto. @ton/core's `slice.asCell()` builds a frozen Cell through a
// Builder and hashes it at once; decoding a block made one for most messages. Like table cells, a lazy cell is an
// instance of @ton/core's Cell (its prototype chain runs through Cell.prototype).
import { hash as sha256Native } from 'node:crypto';
import { type BitReader, type BitString, Cell, CellType, Slice } from '@ton/core';
import { LevelMask } from '@ton/core/dist/boc/cell/LevelMask.js';
import { type BocOptions, cellToBoc } from './cell-boc.ts';
import { hashIndex, levelOfMask } from './cell-table.ts';
import { FastBitReader } from './fast-bit-reader.ts';
import { bitsDescriptor, writePaddedBits } from './padded-bits.ts';

const scratch = Buffer.allocUnsafe(2 + 128 + 4 * 34);
const MASKS = Array.from({ length: 8 }, (_, m) => Object.freeze(new LevelMask(m)));

/** @ton/core's LevelMask for a mask value: one shared, frozen instance per value. */
export const levelMask = (mask: number): LevelMask => MASKS[mask] as LevelMask;

class LazyCell {
  readonly bits: BitString;
  readonly refs: Cell[];
  readonly mask: LevelMask;
  private hashes: Buffer[] | null = null;
  private depths: number[] | null = null;

  constructor(bits: BitString, refs: Cell[]) {
    this.bits = bits;
    this.refs = refs;
    let m = 0;
    for (const r of refs) m |= r.mask.value;
    this.mask = levelMask(m);
  }

  get type(): CellType {
    return CellType.Ordinary;
  }

  beginParse(): Slice {
    return new FastSlice(new FastBitReader(this.bits), this.refs, this as unknown as Cell) as unknown as Slice;
  }

  hash(level = 3): Buffer {
    if (this.hashes === null) this.compute();
    return (this.hashes as Buffer[])[hashIndex(this.mask.value, level)] as Buffer;
  }

  depth(level = 3): number {
    if (this.depths === null) this.compute();
    return (this.depths as number[])[hashIndex(this.mask.value, level)] as number;
  }

  level(): number {
    return levelOfMask(this.mask.value);
  }

  equals(other: Cell): boolean {
    return this.hash().equals(other.hash());
  }

  toBoc(opts?: BocOptions): Buffer {
    return cellToBoc(this as unknown as Cell, opts);
  }

  private compute(): void {
    const m = this.mask.value;
    const hashes: Buffer[] = [];
    const depths: number[] = [];
    const d2 = bitsDescriptor(this.bits.length);
    for (let level = 0; level <= levelOfMask(m); level++) {
      if (level !== 0 && ((m >> (level - 1)) & 1) === 0) continue;
      scratch[0] = this.refs.length + 32 * (m & ((1 << level) - 1));
      scratch[1] = d2;
      let n = 2;
      if (hashes.length === 0) n += writePaddedBits(this.bits, scratch, 2);
      else n += (hashes[hashes.length - 1] as Buffer).copy(scratch, 2);
      let depth = 0;
      for (const r of this.refs) {
        const d = r.depth(level);
        scratch[n++] = d >> 8;
        scratch[n++] = d & 0xff;
        if (d > depth) depth = d;
      }
      for (const r of this.refs) n += r.hash(level).copy(scratch, n);
      hashes.push(sha256Native('sha256', scratch.subarray(0, n), 'buffer'));
      depths.push(this.refs.length > 0 ? depth + 1 : 0);
    }
    this.hashes = hashes;
    this.depths = depths;
  }
}
Object.setPrototypeOf(LazyCell.prototype, Cell.prototype);

/**
 * A slice of a table cell or a lazy cell: an instance of @ton/core's Slice (its prototype chain runs through Slice.prototype) made
 * without Slice's constructor, which clones the reader, copies the references and adds a closure per slice. Its
 * asCell() is what @ton/core's is (an ordinary cell of the remaining bits and references) without a Builder: the
 * cell itself when nothing was read from an ordinary cell, else a lazy cell.
 */
export class FastSlice {
  // Slice's own fields, by the names its methods read.
  private readonly _reader: BitReader;
  private readonly _refs: Cell[];
  private _refsOffset = 0;
  private readonly cell: Cell;

  constructor(reader: BitReader, refs: Cell[], cell: Cell) {
    this._reader = reader;
    this._refs = refs;
    this.cell = cell;
  }

  asCell(): Cell {
    const r = this._reader;
    if (r.offset === 0 && this._refsOffset === 0 && !this.cell.isExotic) return this.cell;
    return lazyCell(r.preloadBits(r.remaining), this._refs.slice(this._refsOffset));
  }

  /** Slice.clone, keeping this class: the reader at the same place (or the start), the same references read. */
  clone(fromStart = false): Slice {
    const reader = this._reader.clone();
    if (fromStart) reader.reset();
    const c = new FastSlice(reader, this._refs, this.cell);
    if (!fromStart) c._refsOffset = this._refsOffset;
    return c as unknown as Slice;
  }
}
Object.setPrototypeOf(FastSlice.prototype, Slice.prototype);

/** An ordinary cell of these bits and references, hashed when first asked. */
export function lazyCell(bits: BitString, refs: Cell[]): Cell {
  return new LazyCell(bits, refs) as unknown as Cell;
}
