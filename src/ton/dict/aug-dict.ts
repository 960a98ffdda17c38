// block.tlb:45-55
//   ahm_edge#_ {n:#} {X:Type} {Y:Type} {l:#} {m:#} label:(HmLabel ~l n) {n = (~m) + l}
//     node:(HashmapAugNode m X Y) = HashmapAug n X Y;
//   ahmn_leaf#_ {X:Type} {Y:Type} extra:Y value:X = HashmapAugNode 0 X Y;
//   ahmn_fork#_ {n:#} {X:Type} {Y:Type} left:^(HashmapAug n X Y) right:^(HashmapAug n X Y) extra:Y
//     = HashmapAugNode (n + 1) X Y;
//   ahme_empty$0 {n:#} {X:Type} {Y:Type} extra:Y = HashmapAugE n X Y;
//   ahme_root$1 {n:#} {X:Type} {Y:Type} root:^(HashmapAug n X Y) extra:Y = HashmapAugE n X Y;
//
// @ton/core reads these (ignoring fork extras) but writes plain Hashmap forks (ton-libs.md §4.2), so a
// dictionary it builds is not what a node builds. This writer recomputes every fork's extra from its
// children with the codec's `combine`, and uses the node's label rule, so its cells hash like a node's.
import { type Builder, beginCell, type Cell, CellType, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { loadHmLabel, storeHmLabel } from './hm-label.ts';

export interface AugDictCodec<V, E> {
  /** The value part of a leaf (after its extra). */
  loadValue(s: Slice): V;
  storeValue(v: V): (b: Builder) => void;
  loadExtra(s: Slice): E;
  storeExtra(e: E): (b: Builder) => void;
  /** A fork's extra from its children's (the node's eval_fork). */
  combine(left: E, right: E): E;
  /** The extra of an empty HashmapAugE (the node's eval_empty). */
  empty(): E;
}

export interface AugEntry<V, E> {
  /** Unsigned, keyBits wide. */
  key: bigint;
  value: V;
  extra: E;
}

export interface AugDict<V, E> {
  /** Entries in ascending key order. */
  entries: AugEntry<V, E>[];
  /** The root extra (for HashmapAugE, the one stored beside the root; for HashmapAug, the root node's). */
  extra: E;
  /** Subtrees skipped because they are pruned branches (a Merkle proof's unvisited parts). */
  pruned: number;
}

function isPruned(c: Cell): boolean {
  return c.isExotic && c.type === CellType.PrunedBranch;
}

function checkConsumed(s: Slice, what: string): void {
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) {
    throw new CodecError(
      `${what}: ${s.remainingBits} bits and ${s.remainingRefs} refs left after the value (wrong value codec?)`,
    );
  }
}

/** Reads one HashmapAug edge (label + node) of `n` remaining key bits; returns the node's extra. */
function loadEdge<V, E>(
  s: Slice,
  n: number,
  prefix: bigint,
  codec: AugDictCodec<V, E>,
  out: AugDict<V, E>,
  ownCell: boolean,
): E | undefined {
  const label = loadHmLabel(s, n);
  const m = n - label.len;
  const key = (prefix << BigInt(label.len)) | label.bits;
  if (m === 0) {
    const extra = codec.loadExtra(s);
    const value = codec.loadValue(s);
    // An edge in its own cell must end with its value; an inline root (HashmapAug inside a larger
    // structure, e.g. AccountBlock) is followed by its container's fields.
    if (ownCell) checkConsumed(s, 'HashmapAug leaf');
    out.entries.push({ key, value, extra });
    return extra;
  }
  const left = s.loadRef();
  const right = s.loadRef();
  const extra = codec.loadExtra(s);
  for (const [child, bit] of [
    [left, 0n],
    [right, 1n],
  ] as const) {
    if (isPruned(child)) {
      out.pruned++;
      continue;
    }
    const cs = child.beginParse(true);
    loadEdge(cs, m - 1, (key << 1n) | bit, codec, out, true);
  }
  return extra;
}

/** HashmapAug n X Y: a non-empty augmented dictionary whose root edge starts at `s`. */
export function loadHashmapAug<V, E>(s: Slice, keyBits: number, codec: AugDictCodec<V, E>): AugDict<V, E> {
  const out: AugDict<V, E> = { entries: [], extra: codec.empty(), pruned: 0 };
  const extra = loadEdge(s, keyBits, 0n, codec, out, false);
  if (extra !== undefined) out.extra = extra;
  return out;
}

/** HashmapAugE n X Y: a flag bit, the root in a ref when non-empty, then the root extra. */
export function loadHashmapAugE<V, E>(s: Slice, keyBits: number, codec: AugDictCodec<V, E>): AugDict<V, E> {
  const out: AugDict<V, E> = { entries: [], extra: codec.empty(), pruned: 0 };
  if (!s.loadBit()) {
    out.extra = codec.loadExtra(s);
    return out;
  }
  const root = s.loadRef();
  out.extra = codec.loadExtra(s);
  if (isPruned(root)) out.pruned++;
  else loadEdge(root.beginParse(true), keyBits, 0n, codec, out, true);
  return out;
}

interface Built<E> {
  cell: Cell;
  extra: E;
}

/** Builds the edge for `entries` (sorted, distinct), all sharing the key bits above `n`. */
function buildEdge<V, E>(
  entries: AugEntry<V, E>[],
  lo: number,
  hi: number,
  n: number,
  codec: AugDictCodec<V, E>,
): Built<E> {
  const mask = n === 0 ? 0n : (1n << BigInt(n)) - 1n;
  const first = entries[lo]!.key & mask;
  const b = beginCell();
  if (hi - lo === 1) {
    const e = entries[lo]!;
    storeHmLabel(b, n, first, n);
    b.store(codec.storeExtra(e.extra)).store(codec.storeValue(e.value));
    return { cell: b.endCell(), extra: e.extra };
  }
  // Common prefix of the sorted range = common prefix of its first and last keys.
  const diff = first ^ (entries[hi - 1]!.key & mask);
  const l = n - diff.toString(2).length;
  const labelBits = l === 0 ? 0n : first >> BigInt(n - l);
  const m = n - l;
  // Split where the key bit just below the label turns to 1.
  const bit = 1n << BigInt(m - 1);
  let mid = lo;
  while (mid < hi && (entries[mid]!.key & bit) === 0n) mid++;
  const left = buildEdge(entries, lo, mid, m - 1, codec);
  const right = buildEdge(entries, mid, hi, m - 1, codec);
  const extra = codec.combine(left.extra, right.extra);
  storeHmLabel(b, l, labelBits, n);
  b.storeRef(left.cell).storeRef(right.cell).store(codec.storeExtra(extra));
  return { cell: b.endCell(), extra };
}

function sortedEntries<V, E>(entries: AugEntry<V, E>[], keyBits: number): AugEntry<V, E>[] {
  const limit = 1n << BigInt(keyBits);
  const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 0; i < sorted.length; i++) {
    const k = sorted[i]!.key;
    if (k < 0n || k >= limit) throw new CodecError(`HashmapAug: key ${k} does not fit ${keyBits} bits`);
    if (i > 0 && sorted[i - 1]!.key === k) throw new CodecError(`HashmapAug: duplicate key ${k}`);
  }
  return sorted;
}

/** Builds the root cell of a non-empty HashmapAug and returns it with its extra. */
export function buildHashmapAug<V, E>(entries: AugEntry<V, E>[], keyBits: number, codec: AugDictCodec<V, E>): Built<E> {
  if (entries.length === 0) throw new CodecError('HashmapAug: cannot build an empty dictionary (use HashmapAugE)');
  const sorted = sortedEntries(entries, keyBits);
  return buildEdge(sorted, 0, sorted.length, keyBits, codec);
}

/** HashmapAug n X Y written in place (the root edge goes into the current builder). */
export function storeHashmapAug<V, E>(
  entries: AugEntry<V, E>[],
  keyBits: number,
  codec: AugDictCodec<V, E>,
): (b: Builder) => void {
  return (b) => {
    b.storeSlice(buildHashmapAug(entries, keyBits, codec).cell.beginParse());
  };
}

/** HashmapAugE n X Y: the flag, the root ref when non-empty, and the root extra. */
export function storeHashmapAugE<V, E>(
  entries: AugEntry<V, E>[],
  keyBits: number,
  codec: AugDictCodec<V, E>,
): (b: Builder) => void {
  return (b) => {
    if (entries.length === 0) {
      b.storeBit(false).store(codec.storeExtra(codec.empty()));
      return;
    }
    const root = buildHashmapAug(entries, keyBits, codec);
    b.storeBit(true).storeRef(root.cell).store(codec.storeExtra(root.extra));
  };
}
