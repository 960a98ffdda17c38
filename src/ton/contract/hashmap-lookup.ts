// One key of a dictionary, found by walking its edges (at most `keyBits` of them) instead of loading every entry:
// contract content cells are untrusted, and a hostile dictionary may hold any number of entries.
//   hm_edge#_ {n:#} {X:Type} {l:#} {m:#} label:(HmLabel ~l n) {n = (~m) + l} node:(HashmapNode m X) = Hashmap n X;
//   hmn_leaf#_ {X:Type} value:X = HashmapNode 0 X;
//   hmn_fork#_ {n:#} {X:Type} left:^(Hashmap n X) right:^(Hashmap n X) = HashmapNode (n + 1) X;
import type { Cell, Slice } from '@ton/core';
import { loadHmLabel } from '../dict/hm-label.ts';

/**
 * The value slice stored under `key` (an unsigned `keyBits`-bit number) in the Hashmap whose root edge is `root`,
 * or null when the key is absent. Throws (a cell underflow, a bad label) when the dictionary is malformed.
 */
export function lookupHashmap(root: Cell, keyBits: number, key: bigint): Slice | null {
  let cell = root;
  let n = keyBits;
  for (;;) {
    const s = cell.beginParse();
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
