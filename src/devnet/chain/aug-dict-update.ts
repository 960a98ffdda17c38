// In-place updates of a HashmapAug by path copying (vm::AugmentedDictionary::set / lookup_delete): only the edges
// on the key's path are rebuilt, and every fork's extra is recombined from its children. Labels are written with
// the node's rule (storeHmLabel), so the result is the same cell tree a full rebuild from the entries gives.
import { beginCell, type Cell, type Slice } from '@ton/core';
import { type AugDictCodec, loadHmLabel, storeHmLabel } from '../../ton/index.ts';

interface Edge {
  len: number;
  bits: bigint;
  /** Key bits left below this edge's label (0 for a leaf). */
  m: number;
  /** The node after the label: refs and extra of a fork, extra and value of a leaf. */
  rest: Slice;
}

function readEdge(cell: Cell, n: number): Edge {
  const s = cell.beginParse(true);
  const label = loadHmLabel(s, n);
  return { len: label.len, bits: label.bits, m: n - label.len, rest: s };
}

/** The extra of a subtree (its root node's extra). */
function extraOf<V, E>(cell: Cell, n: number, codec: AugDictCodec<V, E>): E {
  const e = readEdge(cell, n);
  const s = e.rest.clone();
  if (e.m > 0) {
    s.loadRef();
    s.loadRef();
  }
  return codec.loadExtra(s);
}

/** The same node under another label (of `len` bits, for an edge of `n` key bits). */
function relabel(rest: Slice, len: number, bits: bigint, n: number): Cell {
  const b = beginCell();
  storeHmLabel(b, len, bits, n);
  return b.storeSlice(rest.clone()).endCell();
}

function leaf<V, E>(key: bigint, n: number, value: V, extra: E, codec: AugDictCodec<V, E>): Cell {
  const b = beginCell();
  storeHmLabel(b, n, key, n);
  return b.store(codec.storeExtra(extra)).store(codec.storeValue(value)).endCell();
}

function fork<V, E>(len: number, bits: bigint, n: number, left: Cell, right: Cell, codec: AugDictCodec<V, E>): Cell {
  const m = n - len;
  const extra = codec.combine(extraOf(left, m - 1, codec), extraOf(right, m - 1, codec));
  const b = beginCell();
  storeHmLabel(b, len, bits, n);
  return b.storeRef(left).storeRef(right).store(codec.storeExtra(extra)).endCell();
}

const low = (x: bigint, bits: number): bigint => (bits === 0 ? 0n : x & ((1n << BigInt(bits)) - 1n));

/** Sets (value !== null) or deletes `key` under the edge `cell` of `n` key bits; returns the new edge or null. */
function update<V, E>(
  cell: Cell | null,
  n: number,
  key: bigint,
  put: { value: V; extra: E } | null,
  codec: AugDictCodec<V, E>,
): Cell | null {
  if (cell === null) return put ? leaf(key, n, put.value, put.extra, codec) : null;
  const e = readEdge(cell, n);
  const keyTop = n === e.len ? key : key >> BigInt(n - e.len);
  if (keyTop !== e.bits) {
    if (!put) return cell;
    // The key leaves the label after `c` common bits: a new fork there.
    let c = 0;
    while (((keyTop ^ e.bits) >> BigInt(e.len - 1 - c)) % 2n === 0n) c++;
    const forkBits = n - c; // key bits below the new fork's label
    const oldRest = relabel(e.rest, e.len - c - 1, low(e.bits, e.len - c - 1), forkBits - 1);
    const newLeaf = leaf(low(key, forkBits - 1), forkBits - 1, put.value, put.extra, codec);
    const keyBit = (key >> BigInt(forkBits - 1)) & 1n;
    const [l, r] = keyBit === 0n ? [newLeaf, oldRest] : [oldRest, newLeaf];
    return fork(c, e.bits >> BigInt(e.len - c), n, l, r, codec);
  }
  if (e.m === 0) return put ? leaf(key, n, put.value, put.extra, codec) : null;
  const rest = low(key, e.m);
  const bit = (rest >> BigInt(e.m - 1)) & 1n;
  const s = e.rest.clone();
  const left = s.loadRef();
  const right = s.loadRef();
  const child = bit === 0n ? left : right;
  const next = update(child, e.m - 1, low(rest, e.m - 1), put, codec);
  if (next === child) return cell;
  if (next === null) {
    // The fork lost a side: the other child's edge joins this one.
    const other = bit === 0n ? right : left;
    const o = readEdge(other, e.m - 1);
    const otherBit = 1n - bit;
    const len = e.len + 1 + o.len;
    const bits = (((e.bits << 1n) | otherBit) << BigInt(o.len)) | o.bits;
    return relabel(o.rest, len, bits, n);
  }
  return bit === 0n ? fork(e.len, e.bits, n, next, right, codec) : fork(e.len, e.bits, n, left, next, codec);
}

/** Applies sets and deletes to a HashmapAugE root; returns the new root and root extra. */
export function augDictApply<V, E>(
  root: Cell | null,
  keyBits: number,
  changes: Iterable<{ key: bigint; put: { value: V; extra: E } | null }>,
  codec: AugDictCodec<V, E>,
): { root: Cell | null; extra: E } {
  let r = root;
  for (const c of changes) r = update(r, keyBits, c.key, c.put, codec);
  return { root: r, extra: r === null ? codec.empty() : extraOf(r, keyBits, codec) };
}
