// Cell-tree helpers for tests that compare what a store holds with what a tree contains.
import type { Cell } from '@ton/core';

/** Every distinct cell under `root` (itself included) by hex representation hash, walked without recursion. */
export function distinctCells(root: Cell): Map<string, Cell> {
  const seen = new Map<string, Cell>();
  const stack = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const k = c.hash().toString('hex');
    if (seen.has(k)) continue;
    seen.set(k, c);
    stack.push(...c.refs);
  }
  return seen;
}

/**
 * The refcounts a celldb should hold after storing `roots` in order, counted from the sets of distinct cells alone
 * (independent of the writer): +1 for each root, +1 for each reference from a cell stored for the first time.
 */
export function expectedRefcounts(roots: readonly Cell[]): Map<string, number> {
  const counts = new Map<string, number>();
  const bump = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);
  const stored = new Set<string>();
  for (const root of roots) {
    bump(root.hash().toString('hex'));
    const fresh = [...distinctCells(root)].filter(([k]) => !stored.has(k));
    for (const [, c] of fresh) for (const r of c.refs) bump(r.hash().toString('hex'));
    for (const [k] of fresh) stored.add(k);
  }
  return counts;
}
