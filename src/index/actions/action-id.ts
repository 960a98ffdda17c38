// action_id (v3-api.md §6.3): SHA-256 over a key of the action's first transaction (as base64 text) and the type. toncenter keys by
// that transaction's inbound message hash; an internal message's cell holds created_lt and created_at, so a trace
// emulated before it lands (src/api/pending) has other hashes for every message below the root than the trace the
// chain later commits, and the pending action could never keep its id. So only the root keeps toncenter's key (its
// inbound message hash, the transaction hash when it has none: tick-tock); a transaction below it is keyed by its
// place in the tree, the root's key plus each message's offset in its sender's out-list (created_lt minus the
// sender's lt: 1 + the out_msgs index, the same on the chain and in any emulation). The key depends only on chain
// data, so re-classification and the pending -> confirmed transition keep the id.
import { createHash } from 'node:crypto';
import type { IntendedMessage, TraceNode } from './types.ts';

/** Offsets of the messages from the root down to `node` (empty for the root), and the root. */
function placeOf(node: TraceNode): { root: TraceNode; path: bigint[] } {
  const path: bigint[] = [];
  let n = node;
  while (n.parent) {
    const lt = n.tx.inMsg?.createdLt;
    // A parent is linked only through an internal message, which always has created_lt.
    if (lt === null || lt === undefined) break;
    path.push(lt - n.parent.tx.lt);
    n = n.parent;
  }
  return { root: n, path: path.reverse() };
}

const shallower = (a: bigint[], b: bigint[]): boolean => {
  if (a.length !== b.length) return a.length < b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
};

/** The key of a transaction: its inbound message hash (or its hash) at the root, its place below it. */
function keyOf({ root, path }: { root: TraceNode; path: bigint[] }): Buffer {
  const rootKey = Buffer.from(root.tx.inMsg?.hash ?? root.tx.hash, 'base64');
  if (path.length === 0) return rootKey;
  const h = createHash('sha256').update(rootKey);
  for (const off of path) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt.asUintN(64, off));
    h.update(b);
  }
  return h.digest();
}

export function actionIdOf(nodes: readonly TraceNode[], type: string): string {
  // The first transaction is the one nearest the root (the earliest by lt for a connected action); ties between
  // unrelated branches go by their places, not by lt, which an emulation does not reproduce.
  let first: { root: TraceNode; path: bigint[] } | undefined;
  for (const n of nodes) {
    const place = placeOf(n);
    if (!first || shallower(place.path, first.path)) first = place;
  }
  if (!first) throw new RangeError(`action ${type} has no transactions`);
  // As toncenter hashes it: the key's standard base64 text, then the type (both as UTF-8 text).
  return createHash('sha256').update(keyOf(first).toString('base64'), 'utf8').update(type, 'utf8').digest('base64');
}

/**
 * toncenter stands a made-up message hash in for the message that never existed, the base64 of the text
 * `<cell hash, base64><position>` (the position tells identical messages apart), and keys the action by it as by any
 * inbound message hash.
 */
export function intendedActionIdOf(m: IntendedMessage, type: string): string {
  const key = Buffer.from(`${m.cellHash.toString('base64')}${m.index}`, 'utf8').toString('base64');
  return createHash('sha256').update(key, 'utf8').update(type, 'utf8').digest('base64');
}
