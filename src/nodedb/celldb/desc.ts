// celldb's list of stored states (node-db.md §3.1, ton validator/db/celldb.cpp): one `db.celldb.value` per block
// whose state is kept, under `desc` + base64(sha256(boxed tonNode.blockIdExt)), linked by key hashes into a
// doubly linked list headed by `desczero` (key hash zero): desczero.next is the oldest (what gc removes next),
// desczero.prev the newest. The order is the order states were stored, not chain order.
import { createHash } from 'node:crypto';
import { type BlockIdExt, sameBlockId } from '../../ton/index.ts';
import type { KvOp, KvReader } from '../kv/types.ts';
import { NodeDbFormatError, TL, TlReader, TlWriter } from '../tl.ts';

export const DESC_ZERO_KEY = Buffer.from('desczero', 'ascii');
/** The meta key the node bumps when it gc's a masterchain state. */
export const LAST_DELETED_MC_SEQNO_KEY = Buffer.from('stats.last_deleted_mc_seqno', 'ascii');
export const CELLDB_VALUE_BYTES = 4 + 80 + 3 * 32;

const ZERO_HASH = Buffer.alloc(32);
/** The block id desczero holds (ton's get_empty_key: workchainInvalid, everything else zero). */
const EMPTY_ID: BlockIdExt = {
  workchain: -0x80000000,
  shard: 0n,
  seqno: 0,
  rootHash: ZERO_HASH,
  fileHash: ZERO_HASH,
};
const MAX_STATES = 10_000_000;

export interface CellDbValue {
  blockId: BlockIdExt;
  /** Key hash of the previous (older) entry; zero = desczero. */
  prev: Buffer;
  /** Key hash of the next (newer) entry; zero = desczero. */
  next: Buffer;
  rootHash: Buffer;
}

export interface StoredState {
  id: BlockIdExt;
  rootHash: Buffer;
}

/** sha256 of the boxed tonNode.blockIdExt: what desc keys and prev/next links are made of. */
export function descKeyHash(id: BlockIdExt): Buffer {
  return createHash('sha256').update(new TlWriter().u32(TL.blockIdExt).blockId(id).done()).digest();
}

/** `desc` + standard base64 (with padding) of the key hash: 48 bytes. */
export function descKey(id: BlockIdExt): Buffer {
  return keyOfHash(descKeyHash(id));
}

/** The meta key a link points at: desczero for the zero hash. */
function keyOfHash(h: Buffer): Buffer {
  return h.equals(ZERO_HASH) ? DESC_ZERO_KEY : Buffer.from(`desc${h.toString('base64')}`, 'ascii');
}

export function encodeCellDbValue(v: CellDbValue): Buffer {
  return new TlWriter().u32(TL.celldbValue).blockId(v.blockId).int256(v.prev).int256(v.next).int256(v.rootHash).done();
}

export function decodeCellDbValue(value: Buffer, what = 'db.celldb.value'): CellDbValue {
  const r = new TlReader(value, what).expect(TL.celldbValue);
  const v = { blockId: r.blockId(), prev: r.int256(), next: r.int256(), rootHash: r.int256() };
  r.end();
  return {
    blockId: v.blockId,
    prev: Buffer.from(v.prev),
    next: Buffer.from(v.next),
    rootHash: Buffer.from(v.rootHash),
  };
}

const isEmptyEntry = (v: CellDbValue) => v.blockId.workchain === EMPTY_ID.workchain;
const emptyEntry = (): CellDbValue => ({ blockId: EMPTY_ID, prev: ZERO_HASH, next: ZERO_HASH, rootHash: ZERO_HASH });

async function readEntry(kv: KvReader, keyHash: Buffer): Promise<CellDbValue | null> {
  const key = keyOfHash(keyHash);
  const v = await kv.get(key);
  return v ? decodeCellDbValue(v, `celldb ${kv.path} ${key.toString('ascii')}`) : null;
}

async function mustReadEntry(kv: KvReader, keyHash: Buffer, from: string): Promise<CellDbValue> {
  const e = await readEntry(kv, keyHash);
  if (!e) {
    throw new NodeDbFormatError(`celldb ${kv.path}: ${from} links to ${keyOfHash(keyHash).toString('ascii')}, absent`);
  }
  return e;
}

/** Every stored state, oldest first (desczero.next, then each entry's next until desczero). */
export async function listStoredStates(kv: KvReader): Promise<StoredState[]> {
  const head = await readEntry(kv, ZERO_HASH);
  if (!head) return [];
  const out: StoredState[] = [];
  const seen = new Set<string>();
  let at = head.next;
  while (!at.equals(ZERO_HASH)) {
    const hex = at.toString('hex');
    if (seen.has(hex) || out.length > MAX_STATES) {
      throw new NodeDbFormatError(`celldb ${kv.path}: the desc list loops at ${keyOfHash(at).toString('ascii')}`);
    }
    seen.add(hex);
    const e = await mustReadEntry(kv, at, out.length === 0 ? 'desczero.next' : 'a desc entry');
    if (!descKeyHash(e.blockId).equals(at)) {
      throw new NodeDbFormatError(
        `celldb ${kv.path}: entry ${keyOfHash(at).toString('ascii')} holds another block's id`,
      );
    }
    out.push({ id: e.blockId, rootHash: e.rootHash });
    at = e.next;
  }
  return out;
}

/** The state root hash stored for block `id`, or null when celldb keeps no state for it. */
export async function stateRootOf(kv: KvReader, id: BlockIdExt): Promise<Buffer | null> {
  const key = descKey(id);
  const v = await kv.get(key);
  if (!v) return null;
  const e = decodeCellDbValue(v, `celldb ${kv.path} ${key.toString('ascii')}`);
  if (!sameBlockId(e.blockId, id)) {
    throw new NodeDbFormatError(`celldb ${kv.path}: ${key.toString('ascii')} holds a different block id`);
  }
  return e.rootHash;
}

/**
 * Ops that link a new entry for `id` as the newest (CellDbIn::store_cell): the new entry points back at the old
 * newest, which (or desczero, for an empty list) points forward at it; desczero.prev moves to it. Writes desczero
 * when absent, as the node does on first start. The cells themselves are written separately (write.ts).
 */
export async function appendStateOps(kv: KvReader, id: BlockIdExt, rootHash: Buffer): Promise<KvOp[]> {
  const keyHash = descKeyHash(id);
  if (await kv.get(keyOfHash(keyHash))) {
    throw new NodeDbFormatError(
      `celldb ${kv.path}: a state for this block is already listed (${descKey(id).toString('ascii')})`,
    );
  }
  const head = (await readEntry(kv, ZERO_HASH)) ?? emptyEntry();
  const entry: CellDbValue = { blockId: id, prev: head.prev, next: ZERO_HASH, rootHash };
  const ops: KvOp[] = [];
  if (head.prev.equals(ZERO_HASH)) {
    // empty list: desczero is both neighbours
    ops.push(put(ZERO_HASH, { ...head, prev: keyHash, next: keyHash }));
  } else {
    const newest = await mustReadEntry(kv, head.prev, 'desczero.prev');
    ops.push(put(head.prev, { ...newest, next: keyHash }), put(ZERO_HASH, { ...head, prev: keyHash }));
  }
  ops.push(put(keyHash, entry));
  return ops;
}

/**
 * Ops that unlink the oldest entry (the node's gc order; CellDbIn::gc_cont2) and, for a masterchain state, record
 * its seqno as the last deleted one. Its cells are not released here. No ops when the list is empty.
 */
export async function removeOldestStateOps(kv: KvReader): Promise<KvOp[]> {
  const head = await readEntry(kv, ZERO_HASH);
  if (!head || head.next.equals(ZERO_HASH)) return [];
  const oldestHash = head.next;
  const oldest = await mustReadEntry(kv, oldestHash, 'desczero.next');
  const ops: KvOp[] = [{ type: 'del', key: keyOfHash(oldestHash) }];
  if (oldest.next.equals(ZERO_HASH)) {
    // it was the only entry: desczero points at itself again
    ops.push(put(ZERO_HASH, { ...head, prev: ZERO_HASH, next: ZERO_HASH }));
  } else {
    const after = await mustReadEntry(kv, oldest.next, 'the oldest entry');
    if (isEmptyEntry(after)) throw new NodeDbFormatError(`celldb ${kv.path}: a desc entry links to an empty entry`);
    ops.push(put(ZERO_HASH, { ...head, next: oldest.next }), put(oldest.next, { ...after, prev: ZERO_HASH }));
  }
  if (oldest.blockId.workchain === -1) {
    ops.push({
      type: 'put',
      key: LAST_DELETED_MC_SEQNO_KEY,
      value: Buffer.from(String(oldest.blockId.seqno), 'ascii'),
    });
  }
  return ops;
}

const put = (keyHash: Buffer, v: CellDbValue): KvOp => ({
  type: 'put',
  key: keyOfHash(keyHash),
  value: encodeCellDbValue(v),
});
