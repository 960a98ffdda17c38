// A Hashmap(Aug) walk from a (virtual) root to one key, independent of src/ton's dictionary readers: what the
// tests use to check the leaves that proofs and states hold.
import type { Cell, Slice } from '@ton/core';
import { loadHmLabel } from '../../src/ton/index.ts';

/** Walks a HashmapAug of `bits`-bit keys (default 256) to the leaf of `key`: the slice after the leaf's label. */
export function dictLeaf(root: Cell, key: bigint, bits = 256): Slice | null {
  let cell = root;
  let n = bits;
  for (;;) {
    const s = cell.beginParse();
    const label = loadHmLabel(s, n);
    const m = n - label.len;
    if (label.bits !== ((key >> BigInt(m)) & ((1n << BigInt(label.len)) - 1n))) return null;
    if (m === 0) return s;
    const left = s.loadRef();
    const right = s.loadRef();
    cell = (key >> BigInt(m - 1)) & 1n ? right : left;
    n = m - 1;
  }
}
