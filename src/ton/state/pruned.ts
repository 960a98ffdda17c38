// Pruned branches: a Merkle proof (liteserver state/config proofs, a block's state_update) keeps only the
// cells it needs and replaces every other subtree by an exotic pruned-branch cell that carries the
// subtree's hash. A loader that meets one where a ref is expected exposes it as `Pruned` instead of
// throwing, and the storer writes the same cell back, so a re-encoded proof tree hashes as the original.
import { type Builder, beginCell, type Cell, CellType, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';

export interface Pruned {
  pruned: true;
  /** The hash of the subtree the proof left out (the pruned cell's level-0 hash). */
  hash: Buffer;
  /**
   * The cell as it arrived, written back unchanged by the storers: a pruned branch, or (for an Account) an
   * ordinary cell above pruned parts that cannot be decoded whole.
   */
  cell: Cell;
}

export type Prunable<T> = T | Pruned;

export function isPrunedCell(c: Cell): boolean {
  return c.isExotic && c.type === CellType.PrunedBranch;
}

export function isPruned<T>(v: Prunable<T>): v is Pruned {
  return typeof v === 'object' && v !== null && (v as { pruned?: unknown }).pruned === true;
}

export function prunedOf(c: Cell): Pruned {
  return { pruned: true, hash: c.hash(0), cell: c };
}

/** Asserts that a cell's contents were read to the end (bits and refs). */
export function endOf(s: Slice, what: string): void {
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) {
    throw new CodecError(`${what}: expected end of cell, got ${s.remainingBits} bits and ${s.remainingRefs} refs left`);
  }
}

/** Decodes a whole referenced cell with `load`, or exposes it as Pruned. Other exotic cells are errors. */
export function loadPrunableCell<T>(c: Cell, what: string, load: (s: Slice) => T): Prunable<T> {
  if (isPrunedCell(c)) return prunedOf(c);
  if (c.isExotic)
    throw new CodecError(`${what}: expected an ordinary or pruned cell, got exotic type ${CellType[c.type]}`);
  const s = c.beginParse();
  const v = load(s);
  endOf(s, what);
  return v;
}

/** `^X` where the ref may be a pruned branch. */
export function loadPrunableRef<T>(s: Slice, what: string, load: (s: Slice) => T): Prunable<T> {
  return loadPrunableCell(s.loadRef(), what, load);
}

/** The cell a `^X` ref points to: the original pruned cell, or `v` written with `store`. */
export function prunableCell<T>(v: Prunable<T>, store: (v: T) => (b: Builder) => void): Cell {
  return isPruned(v) ? v.cell : beginCell().store(store(v)).endCell();
}

/** Writes `^X` where X may be pruned. */
export function storePrunableRef<T>(v: Prunable<T>, store: (v: T) => (b: Builder) => void): (b: Builder) => void {
  return (b) => {
    b.storeRef(prunableCell(v, store));
  };
}
