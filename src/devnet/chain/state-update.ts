// The block's state_update (MERKLE_UPDATE ShardState) from the previous state to the new one, built the way the
// node's MerkleUpdate::generate works from the collator's usage tree: the old side keeps the old cells the
// collation walked through and prunes the rest; the new side prunes every subtree that is one of those known
// old cells. Only the changed paths are visited, so the cost follows the change, not the state size (src/ton's
// buildMerkleUpdate indexes the whole old tree, which grows with every masterchain block's prev_blocks).
import type { Cell } from '@ton/core';
import { createMerkleUpdate, createPrunedBranch, pruneTree } from '../../ton/index.ts';

const keyOf = (c: Cell): string => c.hash().toString('latin1');

export function buildStateUpdate(oldRoot: Cell, newRoot: Cell): Cell {
  const known = new Set<string>([keyOf(oldRoot)]);
  const expanded = new Set<string>();
  const pruneNew = new Set<string>();
  const seen = new Set<string>();
  const expand = (old: Cell) => {
    const k = keyOf(old);
    if (expanded.has(k)) return;
    expanded.add(k);
    for (const r of old.refs) known.add(keyOf(r));
  };
  const visit = (cell: Cell, hint: Cell | null) => {
    const k = keyOf(cell);
    if (cell.refs.length > 0 && known.has(k)) {
      pruneNew.add(k);
      return;
    }
    if (seen.has(k)) return;
    seen.add(k);
    if (hint) expand(hint);
    cell.refs.forEach((child, i) => {
      visit(child, hint?.refs[i] ?? null);
    });
  };
  visit(newRoot, oldRoot);
  const newSide = pruneNew.has(keyOf(newRoot))
    ? createPrunedBranch(newRoot, 0)
    : pruneTree(newRoot, (c: Cell) => !pruneNew.has(keyOf(c)));
  const oldSide =
    expanded.has(keyOf(oldRoot)) || oldRoot.refs.length === 0
      ? pruneTree(oldRoot, (c: Cell) => expanded.has(keyOf(c)))
      : createPrunedBranch(oldRoot, 0);
  return createMerkleUpdate(oldSide, newSide);
}
