// An ordinary cell made from bits and references (a slice's remainder: an inline message body, a StateInit read
// in place), hashed on first use with node:crypto. @ton/core's `slice.asCell()` builds a frozen Cell through a
// Builder and hashes it at once; decoding a block made one for most messages. Like table cells, a lazy cell is an
// instance of @ton/core's Cell (its prototype chain runs through Cell.prototype).
import { hash as sha256Native } from 'node:crypto';
import { BitReader, type BitString, Cell, CellType, Slice } from '@ton/core';
import { LevelMask } from '@ton/core/dist/boc/cell/LevelMask.js';
import { type BocOptions, cellToBoc } from './cell-boc.ts';
import { levelOfMask, popcount } from './cell-table.ts';
import { bitsDescriptor, writePaddedBits } from './padded-bits.ts';

const scratch = Buffer.allocUnsafe(2 + 128 + 4 * 34);

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
    this.mask = new LevelMask(m);
  }

  get type(): CellType {
    return CellType.Ordinary;
  }

  beginParse(): Slice {
    return new Slice(new BitReader(this.bits), this.refs);
  }

  hash(level = 3): Buffer {
    if (this.hashes === null) this.compute();
    return (this.hashes as Buffer[])[popcount(this.mask.value & ((1 << Math.min(level, 3)) - 1))] as Buffer;
  }

  depth(level = 3): number {
    if (this.depths === null) this.compute();
    return (this.depths as number[])[popcount(this.mask.value & ((1 << Math.min(level, 3)) - 1))] as number;
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

/** An ordinary cell of these bits and references, hashed when first asked. */
export function lazyCell(bits: BitString, refs: Cell[]): Cell {
  return new LazyCell(bits, refs) as unknown as Cell;
}
