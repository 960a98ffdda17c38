// block.tlb:513-514
//   bt_leaf$0 {X:Type} leaf:X = BinTree X;
//   bt_fork$1 {X:Type} left:^(BinTree X) right:^(BinTree X) = BinTree X;
//
// In a Merkle proof (a masterchain state's shard_hashes in a liteserver proof) any subtree may be a pruned
// branch: `loadBinTree` refuses it with a CodecError, `binTreePresentLeaves` skips and counts it.
import { type Builder, beginCell, type Cell, CellType, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';

export type BinTree<T> = { kind: 'bt_leaf'; leaf: T } | { kind: 'bt_fork'; left: BinTree<T>; right: BinTree<T> };

function isPrunedBranch(c: Cell): boolean {
  return c.isExotic && c.type === CellType.PrunedBranch;
}

/** The slice of a ^(BinTree X) subtree; a pruned or other exotic cell is a CodecError. */
function subtree(c: Cell): Slice {
  if (isPrunedBranch(c)) {
    throw new CodecError('BinTree: expected a subtree, got a pruned branch (a Merkle proof left it out)');
  }
  if (c.isExotic) throw new CodecError(`BinTree: expected an ordinary cell, got exotic type ${CellType[c.type]}`);
  return c.beginParse();
}

export function loadBinTree<T>(s: Slice, loadLeaf: (s: Slice) => T): BinTree<T> {
  if (!s.loadBit()) return { kind: 'bt_leaf', leaf: loadLeaf(s) };
  const left = loadBinTree(subtree(s.loadRef()), loadLeaf);
  const right = loadBinTree(subtree(s.loadRef()), loadLeaf);
  return { kind: 'bt_fork', left, right };
}

/** ^(BinTree X): the tree in cell `c` (a pruned branch is a CodecError). */
export function loadBinTreeCell<T>(c: Cell, loadLeaf: (s: Slice) => T): BinTree<T> {
  return loadBinTree(subtree(c), loadLeaf);
}

/**
 * The leaves of the BinTree in cell `c` that are present, left to right with their paths (0 = left);
 * `pruned` counts the subtrees (or the whole tree) a Merkle proof replaced by pruned branches.
 */
export function binTreePresentLeaves<T>(
  c: Cell,
  loadLeaf: (s: Slice) => T,
): { leaves: Array<{ path: boolean[]; leaf: T }>; pruned: number } {
  const out: { leaves: Array<{ path: boolean[]; leaf: T }>; pruned: number } = { leaves: [], pruned: 0 };
  const visit = (cell: Cell, path: boolean[]): void => {
    if (isPrunedBranch(cell)) {
      out.pruned++;
      return;
    }
    const s = subtree(cell);
    if (!s.loadBit()) {
      out.leaves.push({ path, leaf: loadLeaf(s) });
      return;
    }
    const left = s.loadRef();
    const right = s.loadRef();
    visit(left, [...path, false]);
    visit(right, [...path, true]);
  };
  visit(c, []);
  return out;
}

export function storeBinTree<T>(tree: BinTree<T>, storeLeaf: (v: T) => (b: Builder) => void): (b: Builder) => void {
  return (b) => {
    if (tree.kind === 'bt_leaf') {
      b.storeBit(false).store(storeLeaf(tree.leaf));
      return;
    }
    b.storeBit(true)
      .storeRef(beginCell().store(storeBinTree(tree.left, storeLeaf)))
      .storeRef(beginCell().store(storeBinTree(tree.right, storeLeaf)));
  };
}

/** Leaves in left-to-right order with their path (0 = left) from the root. */
export function binTreeLeaves<T>(tree: BinTree<T>, path: boolean[] = []): Array<{ path: boolean[]; leaf: T }> {
  if (tree.kind === 'bt_leaf') return [{ path, leaf: tree.leaf }];
  return [...binTreeLeaves(tree.left, [...path, false]), ...binTreeLeaves(tree.right, [...path, true])];
}
