// The BoC of a subtree of one cell table (a message body or an init state in a block), in @ton/core's cell order
// (boc-order.ts), on cell indices: no cell object, hash key or map entry per cell. Numbering any cells by their hash
// strings (cell-boc.ts) cost ~0.65 us a cell; blocks store ~37 cells per content BoC on average (26,000 a round of
// bench/codec), so this path is the one the indexer takes.
//
// Equal cells are one: a cell's number is the first cell of the subtree met with the same representation hash
// (found by the hash's first 32 bits, then compared whole). The root may be a lazy cell outside the table (an
// inline body) whose references are all cells of the table: it gets the number `t.count`.
import type { Cell } from '@ton/core';
import { bytesFor, startBoc } from './boc-head.ts';
import { type OrderMarks, serializationOrder } from './boc-order.ts';
import { type CellTable, ORDINARY } from './cell-table.ts';
import { crc32c } from './crc32c.ts';
import { bitsDescriptor, writePaddedBits } from './padded-bits.ts';

/** Per-table marks, stamped per call so one allocation per table serves every call on it. */
interface Marks extends OrderMarks {
  /** Calls that numbered cells: canonStamp[c] === numbering, canon[c] is cell c's number in this call. */
  numbering: number;
  canonStamp: Int32Array;
  canon: Int32Array;
}

const marksOf = new WeakMap<CellTable, Marks>();

function marks(t: CellTable): Marks {
  let m = marksOf.get(t);
  if (!m) {
    const n = t.count + 1;
    m = {
      stamp: 0,
      numbering: 0,
      canonStamp: new Int32Array(n),
      canon: new Int32Array(n),
      seen: new Int32Array(n),
      placed: new Int32Array(n),
      position: new Int32Array(n),
    };
    marksOf.set(t, m);
  }
  return m;
}

/**
 * toBoc of table cell `root`, or (root -1) of `lazyRoot`, whose references are the table's cells `lazyRefs`.
 * Byte for byte what @ton/core's serializeBoc writes for the same cell (cell-boc.ts's tests compare them).
 */
export function tableBoc(
  t: CellTable,
  root: number,
  lazyRoot: Cell | null,
  lazyRefs: readonly number[] | null,
  hasIdx: boolean,
  hasCrc: boolean,
): Buffer {
  const m = marks(t);
  const stamp = ++m.numbering;
  const { canonStamp, canon } = m;
  const { refStart, refIdx } = t;
  const lazy = t.count;
  const byPrefix = new Map<number, number>();
  /** Cells whose hash shares its first 32 bits with an unequal earlier one (rare): searched in full. */
  const collided: number[] = [];
  const numberOf = (c: number): number => {
    if (canonStamp[c] === stamp) return canon[c] as number;
    const p = t.hashPrefix(c);
    let n = byPrefix.get(p);
    if (n === undefined) {
      byPrefix.set(p, c);
      n = c;
    } else if (!t.sameHash(n, c)) {
      n = c;
      for (const o of collided) {
        if (t.sameHash(o, c)) {
          n = o;
          break;
        }
      }
      if (n === c) collided.push(c);
    }
    canonStamp[c] = stamp;
    canon[c] = n;
    return n;
  };
  const refsFrom = (id: number) => (id === lazy ? 0 : (refStart[id] as number));
  const refsTo = (id: number) => (id === lazy ? (lazyRefs as readonly number[]).length : (refStart[id + 1] as number));
  const kid = (id: number, r: number) =>
    numberOf(id === lazy ? ((lazyRefs as readonly number[])[r] as number) : (refIdx[r] as number));

  const { sorted, n } = serializationOrder(root < 0 ? lazy : numberOf(root), { refsFrom, refsTo, kid }, m);
  const { position } = m;

  const sizeBytes = bytesFor(n);
  const dataBytes = (id: number) => {
    if (id === lazy) return ((lazyRoot as Cell).bits.length + 7) >> 3;
    const d2 = t.d2[id] as number;
    return (d2 >> 1) + (d2 & 1);
  };
  let total = 0;
  for (let p = 0; p < n; p++) {
    const id = sorted[n - 1 - p] as number;
    total += 2 + dataBytes(id) + (refsTo(id) - refsFrom(id)) * sizeBytes;
  }
  const boc = startBoc(n, total, sizeBytes, hasIdx, hasCrc);
  const { out, offBytes } = boc;
  let at = boc.at;
  if (hasIdx) {
    let end = 0;
    for (let p = 0; p < n; p++) {
      const id = sorted[n - 1 - p] as number;
      end += 2 + dataBytes(id) + (refsTo(id) - refsFrom(id)) * sizeBytes;
      at = out.writeUIntBE(end, at, offBytes);
    }
  }
  const { bytes, dataAt, d2, kind, mask } = t;
  for (let p = 0; p < n; p++) {
    const id = sorted[n - 1 - p] as number;
    const from = refsFrom(id);
    const to = refsTo(id);
    if (id === lazy) {
      const c = lazyRoot as Cell;
      out[at] = to - from + 32 * c.mask.value;
      out[at + 1] = bitsDescriptor(c.bits.length);
      at += 2 + writePaddedBits(c.bits, out, at + 2);
    } else {
      const dd = d2[id] as number;
      out[at] = to - from + (kind[id] === ORDINARY ? 0 : 8) + 32 * (mask[id] as number);
      out[at + 1] = dd;
      const data = dataAt[id] as number;
      const len = (dd >> 1) + (dd & 1);
      for (let k = 0; k < len; k++) out[at + 2 + k] = bytes[data + k] as number;
      at += 2 + len;
    }
    for (let r = from; r < to; r++) {
      const x = position[kid(id, r)] as number;
      for (let b = sizeBytes - 1; b >= 0; b--) out[at + b] = (x >>> (8 * (sizeBytes - 1 - b))) & 0xff;
      at += sizeBytes;
    }
  }
  if (hasCrc) crc32c(out.subarray(0, at)).copy(out, at);
  return out;
}
