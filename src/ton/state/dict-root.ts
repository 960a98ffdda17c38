// block.tlb:36-37, 52-55
//   hme_empty$0 {n:#} {X:Type} = HashmapE n X;
//   hme_root$1 {n:#} {X:Type} root:^(Hashmap n X) = HashmapE n X;
//   ahme_empty$0 {n:#} {X:Type} {Y:Type} extra:Y = HashmapAugE n X Y;
//   ahme_root$1 {n:#} {X:Type} {Y:Type} root:^(HashmapAug n X Y) extra:Y = HashmapAugE n X Y;
//
// The dictionaries of a shard state are kept as they arrived (root cell + root extra) and decoded on demand:
// a full mainnet state holds millions of accounts and every masterchain block in prev_blocks, and a proof
// holds them with pruned subtrees that an entry list cannot carry. Kept this way they re-encode bit-exactly,
// pruned branches included; `augDictEntries` / `dictEntries` decode them (counting the subtrees a proof
// left out) and `buildAugDictRoot` / `buildDictRoot` make one from entries the way a node does.
import type { Builder, Cell, Slice } from '@ton/core';
import { type AugDict, type AugDictCodec, type AugEntry, buildHashmapAug, loadHashmapAug } from '../dict/index.ts';
import { isPrunedCell } from './pruned.ts';

/** A HashmapE as it arrived: the root cell of a non-empty dictionary (possibly a pruned branch), or null. */
export type DictRoot = Cell | null;

/** A HashmapAugE as it arrived: the root cell (null when empty, possibly a pruned branch) and the root extra. */
export interface AugDictRoot<E> {
  root: Cell | null;
  extra: E;
}

export function loadDictRoot(s: Slice): DictRoot {
  return s.loadMaybeRef();
}

export function storeDictRoot(root: DictRoot): (b: Builder) => void {
  return (b) => {
    b.storeMaybeRef(root);
  };
}

export function loadAugDictRoot<E>(s: Slice, loadExtra: (s: Slice) => E): AugDictRoot<E> {
  const root = s.loadMaybeRef();
  return { root, extra: loadExtra(s) };
}

export function storeAugDictRoot<E>(
  d: AugDictRoot<E>,
  storeExtra: (e: E) => (b: Builder) => void,
): (b: Builder) => void {
  return (b) => {
    b.storeMaybeRef(d.root).store(storeExtra(d.extra));
  };
}

/** A plain Hashmap is a HashmapAug whose extra has no bits, so one reader and one writer serve both. */
const noExtra: Omit<AugDictCodec<never, undefined>, 'loadValue' | 'storeValue'> = {
  loadExtra: () => undefined,
  storeExtra: () => () => {},
  combine: () => undefined,
  empty: () => undefined,
};

export interface DictEntries<V> {
  /** Entries in ascending key order. */
  entries: Array<{ key: bigint; value: V }>;
  /** Subtrees skipped because they are pruned branches. */
  pruned: number;
}

/** Decodes every entry of a HashmapE that is present; `pruned` counts the subtrees a proof left out. */
export function dictEntries<V>(root: DictRoot, keyBits: number, loadValue: (s: Slice) => V): DictEntries<V> {
  if (root === null) return { entries: [], pruned: 0 };
  if (isPrunedCell(root)) return { entries: [], pruned: 1 };
  return hashmapEntries(root.beginParse(), keyBits, loadValue);
}

/** The entries of a non-empty Hashmap whose root edge starts at `s` (an inline Hashmap, not HashmapE). */
export function hashmapEntries<V>(s: Slice, keyBits: number, loadValue: (s: Slice) => V): DictEntries<V> {
  const d = loadHashmapAug<V, undefined>(s, keyBits, { ...noExtra, loadValue, storeValue: () => () => {} });
  return { entries: d.entries.map(({ key, value }) => ({ key, value })), pruned: d.pruned };
}

/** Builds a non-empty Hashmap's root cell (null for no entries) with the node's label rule. */
export function buildDictRoot<V>(
  entries: Array<{ key: bigint; value: V }>,
  keyBits: number,
  storeValue: (v: V) => (b: Builder) => void,
): DictRoot {
  if (entries.length === 0) return null;
  const codec: AugDictCodec<V, undefined> = { ...noExtra, loadValue: () => undefined as V, storeValue };
  return buildHashmapAug(
    entries.map((e) => ({ ...e, extra: undefined })),
    keyBits,
    codec,
  ).cell;
}

/** Decodes every entry that is present; `pruned` counts the subtrees a proof left out. */
export function augDictEntries<V, E>(d: AugDictRoot<E>, keyBits: number, codec: AugDictCodec<V, E>): AugDict<V, E> {
  if (d.root === null) return { entries: [], extra: d.extra, pruned: 0 };
  if (isPrunedCell(d.root)) return { entries: [], extra: d.extra, pruned: 1 };
  const dict = loadHashmapAug(d.root.beginParse(), keyBits, codec);
  return { ...dict, extra: d.extra };
}

/** Builds a dictionary from entries the way a node does (fork extras from `codec.combine`). */
export function buildAugDictRoot<V, E>(
  entries: AugEntry<V, E>[],
  keyBits: number,
  codec: AugDictCodec<V, E>,
): AugDictRoot<E> {
  if (entries.length === 0) return { root: null, extra: codec.empty() };
  const built = buildHashmapAug(entries, keyBits, codec);
  return { root: built.cell, extra: built.extra };
}
