// One key of a dictionary, found by walking its edges (at most `keyBits` of them) instead of loading every entry:
// contract content cells are untrusted, and a hostile dictionary may hold any number of entries; a block's state
// update holds only the paths it changed.
//   hm_edge#_ {n:#} {X:Type} {l:#} {m:#} label:(HmLabel ~l n) {n = (~m) + l} node:(HashmapNode m X) = Hashmap n X;
//   hmn_leaf#_ {X:Type} value:X = HashmapNode 0 X;
//   hmn_fork#_ {n:#} {X:Type} left:^(Hashmap n X) right:^(Hashmap n X) = HashmapNode (n + 1) X;
import type { Cell, Slice } from '@ton/core';
import { loadHmLabel } from '../dict/hm-label.ts';
import { isPrunedCell } from '../state/pruned.ts';

/**
 * The value slice stored under `key` (an unsigned `keyBits`-bit number) in the Hashmap whose root edge is `root`,
 * or null when the key is absent. Throws (a cell underflow, a bad label) when the dictionary is malformed.
 */
export function lookupHashmap(root: Cell, keyBits: number, key: bigint): Slice | null {
  return walk(root, keyBits, key, false) as Slice | null;
}

/** lookupHashmapInProof's answer when the path to the key reaches a pruned branch. */
export const PRUNED_PATH = Symbol('pruned path');

/**
 * lookupHashmap in a Merkle proof or update side, where subtrees may be pruned branches: PRUNED_PATH when the path
 * to `key` reaches one (the cells present cannot say whether the key is there), null when they prove it absent.
 */
export function lookupHashmapInProof(root: Cell, keyBits: number, key: bigint): Slice | null | typeof PRUNED_PATH {
  return walk(root, keyBits, key, true);
}

function walk(root: Cell, keyBits: number, key: bigint, proof: boolean): Slice | null | typeof PRUNED_PATH {
  let cell = root;
  let n = keyBits;
  for (;;) {
    if (proof && isPrunedCell(cell)) return PRUNED_PATH;
    const s = cell.beginParse(proof);
    const label = loadHmLabel(s, n);
    if (label.len > 0) {
      const want = (key >> BigInt(n - label.len)) & ((1n << BigInt(label.len)) - 1n);
      if (want !== label.bits) return null;
    }
    n -= label.len;
    if (n === 0) return s;
    const bit = Number((key >> BigInt(n - 1)) & 1n);
    cell = s.loadRef();
    if (bit === 1) cell = s.loadRef();
    n -= 1;
  }
}
