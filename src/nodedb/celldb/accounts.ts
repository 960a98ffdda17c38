// Account states read straight out of celldb (node-db.md §3.4): from a stored ShardState root, down the accounts
// HashmapAug 256 by records (not whole Cells), every address of a batch advancing one trie node per round so each
// round is one multiGet; at a leaf the ^Account subtree is loaded whole and its hash checked against the leaf's ref.
// A subtree stored as a −1+BoC record is walked as Cells from the point it is reached.
import { BitReader, BitString, type Cell } from '@ton/core';
import { ACCOUNT_NONE, type AccountStateAfter } from '../../ton/index.ts';
import { NodeDbFormatError } from '../tl.ts';
import type { PlainCellRecord } from './record.ts';
import { type CellStore, NodeDbMissingCellError } from './store.ts';

const SHARD_STATE_TAG = 0x9023afe2;
const SPLIT_STATE_TAG = 0x5f327da5;
const KEY_BITS = 256;

/** A trie node as read: a record (children by hash) or a Cell from an embedded BoC (children in hand). */
type Node = { rec: PlainCellRecord; hash: Buffer } | { cell: Cell; hash: Buffer };
/** Where a lookup goes next: a record to fetch, or a Cell already loaded. */
type Next = { hash: Buffer } | { cell: Cell };

function bitsOf(n: Node): BitReader {
  if ('rec' in n) return new BitReader(new BitString(n.rec.data, 0, n.rec.bits));
  return new BitReader(n.cell.bits);
}

function refOf(n: Node, i: number, what: string): Next {
  if ('rec' in n) {
    const r = n.rec.refs[i];
    if (!r) throw new NodeDbFormatError(`${what}: cell ${n.hash.toString('hex')} has no ref ${i}`);
    return { hash: r.key };
  }
  const c = n.cell.refs[i];
  if (!c) throw new NodeDbFormatError(`${what}: cell ${n.hash.toString('hex')} has no ref ${i}`);
  return { cell: c };
}

function checkOrdinary(n: Node, what: string): void {
  if ('rec' in n ? n.rec.exotic : n.cell.isExotic) {
    throw new NodeDbFormatError(
      `${what}: cell ${n.hash.toString('hex')} is exotic (a pruned branch in a stored state?)`,
    );
  }
}

const keyBit = (key: Buffer, i: number) => (key[i >> 3]! >> (7 - (i & 7))) & 1;
/** Bits of `#<= m`: ⌈log2(m+1)⌉. */
const lenBits = (m: number) => 32 - Math.clz32(m);

/**
 * Reads an edge label (hml_short / hml_long / hml_same) for `m` remaining key bits and compares it with the key
 * from `pos`. Returns the label length, or -1 when the label departs from the key (the key is not in the map).
 */
function matchLabel(r: BitReader, m: number, key: Buffer, pos: number): number {
  if (!r.loadBit()) {
    let n = 0;
    while (r.loadBit()) n++;
    if (n > m) throw new NodeDbFormatError(`hml_short label of ${n} bits where ${m} remain`);
    let ok = true;
    for (let i = 0; i < n; i++) if ((r.loadBit() ? 1 : 0) !== keyBit(key, pos + i)) ok = false;
    return ok ? n : -1;
  }
  if (!r.loadBit()) {
    const n = r.loadUint(lenBits(m));
    if (n > m) throw new NodeDbFormatError(`hml_long label of ${n} bits where ${m} remain`);
    let ok = true;
    for (let i = 0; i < n; i++) if ((r.loadBit() ? 1 : 0) !== keyBit(key, pos + i)) ok = false;
    return ok ? n : -1;
  }
  const v = r.loadBit() ? 1 : 0;
  const n = r.loadUint(lenBits(m));
  if (n > m) throw new NodeDbFormatError(`hml_same label of ${n} bits where ${m} remain`);
  for (let i = 0; i < n; i++) if (keyBit(key, pos + i) !== v) return -1;
  return n;
}

/** The ref index of ^Account in a leaf, after skipping DepthBalanceInfo (split_depth, Grams, extra currencies). */
function accountRefIndex(r: BitReader): number {
  r.skip(5); // split_depth:(#<= 30)
  r.skip(r.loadUint(4) * 8); // grams: VarUInteger 16
  return r.loadBit() ? 1 : 0; // ExtraCurrencyCollection: HashmapE 32, its root (if any) is the leaf's first ref
}

interface Lookup {
  index: number;
  address: Buffer;
  next: Next | null;
  node: Node | null;
  pos: number;
  /** The ^Account ref when the leaf is reached. */
  account?: Next;
  done: boolean;
}

/** Resolves every pending `next` into a node: cells directly, hashes with one records() call. */
async function resolve(store: CellStore, lookups: Lookup[], what: string): Promise<void> {
  const want = lookups.filter((l) => l.next && 'hash' in l.next);
  const recs = await store.records(want.map((l) => (l.next as { hash: Buffer }).hash));
  want.forEach((l, i) => {
    const hash = (l.next as { hash: Buffer }).hash;
    const rec = recs[i];
    if (!rec) throw new NodeDbMissingCellError(hash, what);
    l.node = rec.kind === 'plain' ? { rec, hash } : { cell: rec.root, hash };
    l.next = null;
  });
  for (const l of lookups) {
    if (l.next && 'cell' in l.next) {
      l.node = { cell: l.next.cell, hash: l.next.cell.hash() };
      l.next = null;
    }
  }
}

/**
 * The states of `addresses` (256-bit account ids of `workchain`) in the shard state stored under `stateRootHash`,
 * in the order asked; an address the accounts map lacks is account_none. Throws NodeDbMissingCellError when a
 * record on the way is absent (a gc'd state).
 */
export async function readAccountStates(
  store: CellStore,
  stateRootHash: Buffer,
  workchain: number,
  addresses: readonly Buffer[],
): Promise<AccountStateAfter[]> {
  const what = `shard state ${stateRootHash.toString('hex')}`;
  for (const a of addresses) {
    if (a.length !== 32) throw new RangeError(`${what}: an address is 32 bytes, got ${a.length}`);
  }
  const lookups: Lookup[] = addresses.map((address, index) => ({
    index,
    address,
    next: { hash: stateRootHash },
    node: null,
    pos: 0,
    done: false,
  }));
  if (lookups.length === 0) return [];

  // 1. the state root: ShardStateUnsplit, or split_state whose halves are picked by their shard prefixes
  await resolve(store, lookups, what);
  const root = lookups[0]!.node!;
  checkOrdinary(root, what);
  const tag = bitsOf(root).loadUint(32);
  if (tag === SPLIT_STATE_TAG) {
    for (const l of lookups) l.next = refOf(root, 0, what);
    await resolve(store, lookups, what);
    const left = lookups[0]!.node!;
    const leftShard = shardIdentOf(left, what);
    for (const l of lookups) l.next = refOf(root, inShard(l.address, leftShard) ? 0 : 1, what);
    await resolve(store, lookups, what);
  } else if (tag !== SHARD_STATE_TAG) {
    throw new NodeDbFormatError(`${what}: expected ShardState tag 0x9023afe2 or 0x5f327da5, got 0x${tag.toString(16)}`);
  }
  for (const l of lookups) {
    const s = l.node!;
    const ident = shardIdentOf(s, what);
    if (ident.workchain !== workchain || !inShard(l.address, ident)) {
      throw new RangeError(
        `${what}: address ${workchain}:${l.address.toString('hex')} is not in its shard ${ident.workchain}:${ident.prefix.toString(16)} (${ident.bits} bits)`,
      );
    }
    // shard_state: … out_msg_queue_info:^OutMsgQueueInfo before_split:(## 1) accounts:^ShardAccounts …
    l.next = refOf(s, 1, what);
  }

  // 2. ShardAccounts = HashmapAugE 256: ahme_empty$0 | ahme_root$1 root:^HashmapAug extra
  await resolve(store, lookups, what);
  for (const l of lookups) {
    const n = l.node!;
    checkOrdinary(n, what);
    if (bitsOf(n).loadBit()) l.next = refOf(n, 0, what);
    else l.done = true;
  }

  // 3. the trie, one node per round for every lookup still walking
  let walking = lookups.filter((l) => !l.done);
  while (walking.length > 0) {
    await resolve(store, walking, what);
    for (const l of walking) {
      const n = l.node!;
      checkOrdinary(n, what);
      const r = bitsOf(n);
      const len = matchLabel(r, KEY_BITS - l.pos, l.address, l.pos);
      if (len < 0) {
        l.done = true;
        continue;
      }
      l.pos += len;
      if (l.pos === KEY_BITS) {
        l.account = refOf(n, accountRefIndex(r), what);
        l.done = true;
        continue;
      }
      // fork: left:^ right:^ (its extra follows the label and is not needed)
      l.next = refOf(n, keyBit(l.address, l.pos), what);
      l.pos += 1;
    }
    walking = walking.filter((l) => !l.done);
  }

  // 4. the accounts themselves, all subtrees walked together
  const toLoad = lookups.filter((l) => l.account && 'hash' in l.account);
  const loaded = await store.loadCells(toLoad.map((l) => (l.account as { hash: Buffer }).hash));
  const byIndex = new Map(toLoad.map((l, i) => [l.index, loaded[i]!]));
  return lookups.map((l): AccountStateAfter => {
    let account = ACCOUNT_NONE;
    if (l.account) {
      const expected = 'hash' in l.account ? l.account.hash : l.account.cell.hash();
      account = 'hash' in l.account ? byIndex.get(l.index)! : l.account.cell;
      if (!account.hash().equals(expected)) {
        throw new NodeDbFormatError(`${what}: account ${l.address.toString('hex')} loads with another hash`);
      }
    }
    return { address: l.address, workchain, account, hash: account.hash(), complete: true };
  });
}

interface ShardIdent {
  bits: number;
  workchain: number;
  prefix: bigint;
}

/** shard_state#9023afe2 global_id:int32 shard_id:ShardIdent …; shard_ident$00 pfx_bits:(#<= 60) wc:int32 prefix:uint64. */
function shardIdentOf(n: Node, what: string): ShardIdent {
  const r = bitsOf(n);
  const tag = r.loadUint(32);
  if (tag !== SHARD_STATE_TAG) {
    throw new NodeDbFormatError(`${what}: expected ShardStateUnsplit tag 0x9023afe2, got 0x${tag.toString(16)}`);
  }
  r.skip(32);
  if (r.loadUint(2) !== 0) throw new NodeDbFormatError(`${what}: ShardIdent does not start with $00`);
  const bits = r.loadUint(6);
  const workchain = r.loadInt(32);
  const prefix = r.loadUintBig(64);
  if (bits > 60) throw new NodeDbFormatError(`${what}: ShardIdent prefix of ${bits} bits`);
  return { bits, workchain, prefix };
}

/** Whether the first `bits` bits of the address equal those of the shard prefix. */
function inShard(address: Buffer, s: ShardIdent): boolean {
  if (s.bits === 0) return true;
  const top = address.readBigUInt64BE(0);
  const shift = BigInt(64 - s.bits);
  return top >> shift === s.prefix >> shift;
}
