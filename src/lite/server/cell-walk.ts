// Path walks over (possibly tracked, possibly pruned) cell trees: one dictionary key, the nearest key, one
// shard of a ShardHashes BinTree. They touch only the cells on the path, so a proof built from the tracked
// reads stays small (the node's MerkleProofBuilder sees the same cells). A pruned branch on the path means
// the node does not hold that part of the tree: the query is answered 651.
import { type Cell, CellType, type Slice } from '@ton/core';
import { loadHmLabel } from '../../ton/index.ts';
import { badRequest, notFound } from './lite-errors.ts';

export function isPrunedBranchCell(c: Cell): boolean {
  return c.type === CellType.PrunedBranch;
}

/** The contents of an ordinary cell; a pruned branch is data this node does not hold (651). */
export function open(cell: Cell, what: string): Slice {
  if (cell.type === CellType.PrunedBranch) throw notFound(`${what} is not known to this node (pruned)`);
  if (cell.type !== CellType.Ordinary)
    throw badRequest(`${what}: expected an ordinary cell, got exotic type ${cell.type}`);
  return cell.beginParse();
}

function mask(bits: number): bigint {
  return (1n << BigInt(bits)) - 1n;
}

/**
 * Looks `key` (unsigned, keyBits wide) up in a Hashmap / HashmapAug whose root edge starts at `s`; returns the
 * slice at the leaf's contents (for an augmented dictionary: extra, then value) or null when absent.
 */
export function dictLookup(s: Slice, keyBits: number, key: bigint, what: string): Slice | null {
  let cur = s;
  let remaining = keyBits;
  for (;;) {
    const label = loadHmLabel(cur, remaining);
    const m = remaining - label.len;
    if (label.bits !== ((key >> BigInt(m)) & mask(label.len))) return null;
    if (m === 0) return cur;
    const left = cur.loadRef();
    const right = cur.loadRef();
    cur = open((key >> BigInt(m - 1)) & 1n ? right : left, what);
    remaining = m - 1;
  }
}

/** dictLookup on a HashmapE root cell (null = empty dictionary). */
export function dictLookupRoot(root: Cell | null, keyBits: number, key: bigint, what: string): Slice | null {
  return root === null ? null : dictLookup(open(root, what), keyBits, key, what);
}

export interface DictEntry {
  key: bigint;
  /** At the leaf's contents (extra first for augmented dictionaries). */
  value: Slice;
}

/**
 * The node's DictionaryFixed::lookup_nearest_key: the smallest key above `key` (`next`) or the largest below
 * it, `key` itself included when `allowEq`. Touches the search path and the one subtree it descends into.
 */
export function dictNearest(
  s: Slice,
  keyBits: number,
  key: bigint,
  next: boolean,
  allowEq: boolean,
  what: string,
): DictEntry | null {
  const extreme = (cur: Slice, remaining: number, prefix: bigint): DictEntry => {
    for (;;) {
      const label = loadHmLabel(cur, remaining);
      const m = remaining - label.len;
      prefix = (prefix << BigInt(label.len)) | label.bits;
      if (m === 0) return { key: prefix, value: cur };
      const left = cur.loadRef();
      const right = cur.loadRef();
      cur = open(next ? left : right, what);
      prefix = (prefix << 1n) | (next ? 0n : 1n);
      remaining = m - 1;
    }
  };
  const walk = (cur: Slice, remaining: number, prefix: bigint): DictEntry | null => {
    const label = loadHmLabel(cur, remaining);
    const m = remaining - label.len;
    const want = (key >> BigInt(m)) & mask(label.len);
    const here = (prefix << BigInt(label.len)) | label.bits;
    if (label.bits !== want) {
      // The subtree lies entirely on one side of `key`.
      if (label.bits > want !== next) return null;
      if (m === 0) return { key: here, value: cur };
      return extremeFork(cur, m, here);
    }
    if (m === 0) return allowEq ? { key: here, value: cur } : null;
    const left = cur.loadRef();
    const right = cur.loadRef();
    const bit = (key >> BigInt(m - 1)) & 1n;
    const found = walk(open(bit ? right : left, what), m - 1, (here << 1n) | bit);
    if (found) return found;
    if (next && bit === 0n) return extreme(open(right, what), m - 1, (here << 1n) | 1n);
    if (!next && bit === 1n) return extreme(open(left, what), m - 1, here << 1n);
    return null;
  };
  // A fork whose label was already read: continue to its extreme leaf.
  const extremeFork = (cur: Slice, m: number, here: bigint): DictEntry => {
    const left = cur.loadRef();
    const right = cur.loadRef();
    return extreme(open(next ? left : right, what), m - 1, (here << 1n) | (next ? 0n : 1n));
  };
  return walk(s, keyBits, 0n);
}

/** dictNearest on a HashmapE root cell (null = empty dictionary). */
export function dictNearestRoot(
  root: Cell | null,
  keyBits: number,
  key: bigint,
  next: boolean,
  allowEq: boolean,
  what: string,
): DictEntry | null {
  return root === null ? null : dictNearest(open(root, what), keyBits, key, next, allowEq, what);
}

export interface ShardLeaf {
  /** The shard the leaf describes (64-bit id with its terminating bit). */
  shard: bigint;
  /** The BinTree leaf cell (bt_leaf$0 + ShardDescr): what getShardInfo returns as shard_descr. */
  cell: Cell;
  /** At the ShardDescr, just after the leaf tag. */
  descr: Slice;
}

/**
 * ShardConfig::get_shard_hash_raw_from (crypto/block/mc-config.cpp): walks the workchain's BinTree along the
 * bits of `shard` (or an account prefix turned into a leaf shard). With `exact`, the leaf must be `shard`
 * itself; otherwise the leaf containing it. A requested shard above the leaves is not found.
 */
export function findShardLeaf(
  shardHashesRoot: Cell | null,
  workchain: number,
  shard: bigint,
  exact: boolean,
  what: string,
): ShardLeaf | null {
  const entry = dictLookupRoot(shardHashesRoot, 32, BigInt.asUintN(32, BigInt(workchain)), what);
  if (!entry) return null;
  let cell = entry.loadRef();
  const MAX = (1n << 64n) - 1n;
  let z = shard;
  let m = MAX;
  let len = pfxLen(shard);
  for (;;) {
    const s = open(cell, what);
    if (!s.loadBit()) {
      if (len && exact) return null;
      return { shard: ((shard | m) - (m >> 1n)) & MAX, cell, descr: s };
    }
    if (!len || s.remainingRefs !== 2) return null;
    const left = s.loadRef();
    const right = s.loadRef();
    cell = z >> 63n ? right : left;
    z = (z << 1n) & MAX;
    len--;
    m >>= 1n;
  }
}

function pfxLen(shard: bigint): number {
  if (shard === 0n) return 0;
  let n = 0;
  let x = shard;
  while ((x & 1n) === 0n) {
    x >>= 1n;
    n++;
  }
  return 63 - n;
}
