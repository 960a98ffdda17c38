// block.tlb:513-514
//   bt_leaf$0 {X:Type} leaf:X = BinTree X;
//   bt_fork$1 {X:Type} left:^(BinTree X) right:^(BinTree X) = BinTree X;
import { type Builder, beginCell, type Slice } from '@ton/core';

export type BinTree<T> = { kind: 'bt_leaf'; leaf: T } | { kind: 'bt_fork'; left: BinTree<T>; right: BinTree<T> };

export function loadBinTree<T>(s: Slice, loadLeaf: (s: Slice) => T): BinTree<T> {
  if (!s.loadBit()) return { kind: 'bt_leaf', leaf: loadLeaf(s) };
  const left = loadBinTree(s.loadRef().beginParse(), loadLeaf);
  const right = loadBinTree(s.loadRef().beginParse(), loadLeaf);
  return { kind: 'bt_fork', left, right };
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
