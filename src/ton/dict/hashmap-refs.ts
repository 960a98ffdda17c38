// block.tlb:20-27
//   hm_edge#_ {n:#} {X:Type} {l:#} {m:#} label:(HmLabel ~l n) {n = (~m) + l} node:(HashmapNode m X) = Hashmap n X;
//   hmn_leaf#_ {X:Type} value:X = HashmapNode 0 X;
//   hmn_fork#_ {n:#} {X:Type} left:^(Hashmap n X) right:^(Hashmap n X) = HashmapNode (n + 1) X;
//   hme_empty$0 {n:#} {X:Type} = HashmapE n X;
//   hme_root$1 {n:#} {X:Type} root:^(Hashmap n X) = HashmapE n X;
//
// A reader for the one shape the hot path meets, HashmapE n ^X with keys of at most 32 bits (a transaction's
// out_msgs: HashmapE 15 ^Message): entries in ascending key order, each the referenced cell. @ton/core's
// Dictionary reads the same but rebuilds every leaf's value as a new Cell (hashed on construction): a fifth of
// decoding a transaction went there.
import type { Cell } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { loadHmLabel } from './hm-label.ts';

export interface RefEntry {
  key: number;
  value: Cell;
}

/** The entries of HashmapE `keyBits` ^X rooted at `root` (null: hme_empty), ascending by key. */
export function loadHashmapRefs(root: Cell | null, keyBits: number, what: string): RefEntry[] {
  if (keyBits > 32) throw new CodecError(`${what}: keys of ${keyBits} bits (at most 32 here)`);
  const out: RefEntry[] = [];
  if (root) edge(root, keyBits, 0, out, what);
  return out;
}

function edge(cell: Cell, n: number, prefix: number, out: RefEntry[], what: string): void {
  if (cell.isExotic) throw new CodecError(`${what}: a dictionary edge is an exotic cell (type ${cell.type}, pruned?)`);
  const s = cell.beginParse(true);
  const label = loadHmLabel(s, n);
  const m = n - label.len;
  // Unsigned arithmetic on at most 32 bits: shifts would turn bit 31 into a sign.
  const key = prefix * 2 ** label.len + Number(label.bits);
  if (m === 0) {
    if (s.remainingRefs < 1) throw new CodecError(`${what}: a leaf without its value's reference`);
    out.push({ key, value: s.loadRef() });
    return;
  }
  if (s.remainingRefs < 2) throw new CodecError(`${what}: a fork without its two references`);
  const left = s.loadRef();
  const right = s.loadRef();
  edge(left, m - 1, key * 2, out, what);
  edge(right, m - 1, key * 2 + 1, out, what);
}
