// The celldb writes a node makes when it stores a new state (ton DynamicBagOfCellsDb{,V2}): every cell of the tree
// not yet in the database is Put with a refcount equal to the number of references to it from the other new cells
// (+1 for the root); a cell already there gets the same count added, as a Merge delta (celldb v2, the default) or a
// rewritten Put (v1). Test fixtures and the devnet export write node-format celldbs with this.
//
// --celldb-compress-depth X: the node stores a cell whose depth (the height of its subtree: get_depth(), 0 for a
// leaf) equals X in the −1+BoC form. The node still stores that cell's descendants as separate records; by default
// this writer does not (`compressedChildren: 'omit'`), so a reader is made to serve them from the embedded BoC,
// which is the harder case; `'store'` writes them as the node does.
import type { Cell } from '@ton/core';
import type { KvOp } from '../kv/types.ts';
import { encodeCellRecord, encodeCellRecordBoc, recordRefcount, refcountDelta, withRefcount } from './record.ts';

export interface CellDbWriteOptions {
  /** Whether celldb already holds the cell with this hash. */
  has(hash: Buffer): boolean | Promise<boolean>;
  /** The stored value of a present cell; needed in 'plain' mode to rewrite its refcount. */
  get?(hash: Buffer): Buffer | null | Promise<Buffer | null>;
  /** 'merge' (celldb v2): refcount deltas of present cells as Merge operands; 'plain' (v1): rewritten Puts. */
  mode?: 'plain' | 'merge';
  /** Cells whose subtree height equals this are stored as −1+BoC records (0 = off, the node's default). */
  compressDepth?: number;
  /** Whether the descendants of a −1+BoC cell also get their own records (the node: yes). Default 'omit'. */
  compressedChildren?: 'omit' | 'store';
}

interface Entry {
  cell: Cell;
  hash: Buffer;
  /** References to this cell from new (written) cells, plus 1 for the root. */
  count: number;
  present: boolean;
  compressed: boolean;
}

/** The ops storing `root`'s tree in celldb as the node would (see the file comment). */
export async function cellDbWriteOps(root: Cell, opts: CellDbWriteOptions): Promise<KvOp[]> {
  const mode = opts.mode ?? 'merge';
  const compressDepth = opts.compressDepth ?? 0;
  if (!Number.isInteger(compressDepth) || compressDepth < 0) {
    throw new RangeError(`cellDbWriteOps: compressDepth must be an integer >= 0, got ${compressDepth}`);
  }
  const entries = new Map<string, Entry>();
  const entryOf = (cell: Cell, fresh: Cell[]): Entry => {
    const hash = cell.hash();
    const k = hash.toString('hex');
    let e = entries.get(k);
    if (!e) {
      e = { cell, hash, count: 0, present: false, compressed: false };
      entries.set(k, e);
      fresh.push(cell);
    }
    return e;
  };
  // breadth-first, one `has` round per level; a cell's children are visited once however many parents it has
  let frontier: Cell[] = [];
  entryOf(root, frontier).count++;
  while (frontier.length > 0) {
    const level = frontier.map((c) => entries.get(c.hash().toString('hex'))!);
    const present = await Promise.all(level.map((e) => opts.has(e.hash)));
    const next: Cell[] = [];
    level.forEach((e, i) => {
      e.present = present[i]!;
      if (e.present) return;
      e.compressed = compressDepth > 0 && e.cell.depth() === compressDepth;
      if (e.compressed && opts.compressedChildren !== 'store') return;
      for (const child of e.cell.refs) entryOf(child, next).count++;
    });
    frontier = next;
  }

  const ops: KvOp[] = [];
  for (const e of entries.values()) {
    if (!e.present) {
      const value = e.compressed ? encodeCellRecordBoc(e.cell, e.count) : encodeCellRecord(e.cell, e.count);
      ops.push({ type: 'put', key: e.hash, value });
    } else if (mode === 'merge') {
      ops.push({ type: 'merge', key: e.hash, value: refcountDelta(e.count) });
    } else {
      if (!opts.get) throw new Error('cellDbWriteOps: plain mode needs get() to rewrite the refcount of present cells');
      const old = await opts.get(e.hash);
      if (!old) {
        throw new Error(`cellDbWriteOps: has() reported cell ${e.hash.toString('hex')} present, get() found nothing`);
      }
      ops.push({ type: 'put', key: e.hash, value: withRefcount(old, recordRefcount(old) + e.count) });
    }
  }
  return ops;
}
