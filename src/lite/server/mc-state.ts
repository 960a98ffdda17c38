// Queries on a masterchain state's prev_blocks (OldMcBlocksInfo = HashmapAugE 32 KeyExtBlkRef KeyMaxLt), as
// block::ConfigInfo answers them: is a block an ancestor, which key block precedes / follows a seqno.
// They walk only the paths they need, so a tracked state yields the node's proofs (state_proof of a backward
// link, client_mc_state_proof of lookupBlockWithProof).
import type { Cell, Slice } from '@ton/core';
import { type BlockIdExt, loadExtBlkRef, loadHmLabel, sameBlockId } from '../../ton/index.ts';
import { dictLookupRoot, open } from './cell-walk.ts';
import { readMcStateExtra, readStateRoot } from './chain-read.ts';
import { MASTERCHAIN, SHARD_ALL } from './chain-view.ts';
import { formatBlockId } from './ids.ts';
import { badRequest } from './lite-errors.ts';

interface PrevBlocks {
  root: Cell | null;
  /** The state is a key block's state (McStateExtra.after_key_block). */
  isKeyState: boolean;
}

function prevBlocks(state: Cell, stateId: BlockIdExt): PrevBlocks {
  const what = `masterchain state of ${formatBlockId(stateId)}`;
  const r1 = readMcStateExtra(readStateRoot(state, what), what).r1;
  return { root: r1.prevBlocks.root, isKeyState: r1.afterKeyBlock };
}

function mcId(seqno: number, s: Slice): BlockIdExt {
  const ref = loadExtBlkRef(s);
  if (ref.seqNo !== seqno) throw badRequest(`prev_blocks: entry ${seqno} names block ${ref.seqNo}`);
  return { workchain: MASTERCHAIN, shard: SHARD_ALL, seqno, rootHash: ref.rootHash, fileHash: ref.fileHash };
}

/** The id of masterchain block `seqno` as the state's prev_blocks records it (null if absent). */
export function oldMcBlockId(state: Cell, stateId: BlockIdExt, seqno: number): BlockIdExt | null {
  if (seqno === stateId.seqno) return stateId;
  if (seqno > stateId.seqno) return null;
  const leaf = dictLookupRoot(prevBlocks(state, stateId).root, 32, BigInt(seqno), 'prev_blocks');
  if (!leaf) return null;
  leaf.skip(1 + 64);
  leaf.loadBit();
  return mcId(seqno, leaf);
}

/** check_old_mc_block_id: `id` is the state's own block or listed in its prev_blocks with the same hashes. */
export function isOldMcBlock(state: Cell, stateId: BlockIdExt, id: BlockIdExt): boolean {
  if (id.workchain !== MASTERCHAIN || id.shard !== SHARD_ALL) return false;
  const known = oldMcBlockId(state, stateId, id.seqno);
  return known !== null && sameBlockId(known, id);
}

export function checkOldMcBlock(state: Cell, stateId: BlockIdExt, id: BlockIdExt): void {
  if (!isOldMcBlock(state, stateId, id)) {
    throw badRequest(
      `requested masterchain block ${formatBlockId(id)} is unknown from the perspective of reference block ${formatBlockId(stateId)}`,
    );
  }
}

interface Node {
  /** Key bits fixed so far (top bits of the seqno). */
  prefix: number;
  /** Key bits below this node. */
  remaining: number;
  slice: Slice;
  leaf: boolean;
  /** KeyMaxLt.key: a key block lies in this subtree. */
  hasKey: boolean;
}

/** Reads one HashmapAug node: label, then (fork) two refs and the extra, or (leaf) the extra and the value. */
function node(cell: Cell, prefix: number, remaining: number): Node {
  const s = open(cell, 'prev_blocks');
  const label = loadHmLabel(s, remaining);
  const m = remaining - label.len;
  const p = prefix * 2 ** label.len + Number(label.bits);
  if (m === 0) {
    const hasKey = s.loadBit();
    s.skip(64);
    return { prefix: p, remaining: 0, slice: s, leaf: true, hasKey };
  }
  const copy = s.clone();
  copy.loadRef();
  copy.loadRef();
  return { prefix: p, remaining: m, slice: s, leaf: false, hasKey: copy.loadBit() };
}

/**
 * The key block with the largest seqno <= `seqno` (`prev`), or the smallest >= `seqno` (!`prev`), found through
 * the subtrees whose KeyMaxLt says they hold a key block (ConfigInfo::get_prev_key_block / get_next_key_block).
 */
function keyBlock(root: Cell | null, seqno: number, prev: boolean): BlockIdExt | null {
  if (!root) return null;
  const search = (n: Node): BlockIdExt | null => {
    if (!n.hasKey) return null;
    const lo = n.prefix * 2 ** n.remaining;
    const hi = lo + 2 ** n.remaining - 1;
    if (prev ? lo > seqno : hi < seqno) return null;
    if (n.leaf) {
      n.slice.loadBit();
      return mcId(n.prefix, n.slice);
    }
    const left = n.slice.loadRef();
    const right = n.slice.loadRef();
    const order = prev ? [right, left] : [left, right];
    for (const [i, child] of order.entries()) {
      const bit = prev ? 1 - i : i;
      const found = search(node(child, n.prefix * 2 + bit, n.remaining - 1));
      if (found) return found;
    }
    return null;
  };
  return search(node(root, 0, 32));
}

/** prev_key_block_id(seqno): the state's own block if it is a key block at or below seqno, else from prev_blocks. */
export function prevKeyBlockId(state: Cell, stateId: BlockIdExt, seqno: number): BlockIdExt {
  const pb = prevBlocks(state, stateId);
  if (pb.isKeyState && stateId.seqno <= seqno) return stateId;
  const found = keyBlock(pb.root, seqno, true);
  if (!found) throw badRequest(`cannot compute previous key block for seqno ${seqno}`);
  return found;
}

/** next_key_block_id(seqno): the first key block at or above seqno (null when none follows). */
export function nextKeyBlockId(state: Cell, stateId: BlockIdExt, seqno: number): BlockIdExt | null {
  const pb = prevBlocks(state, stateId);
  const found = keyBlock(pb.root, seqno, false);
  if (found) return found;
  return pb.isKeyState && stateId.seqno >= seqno ? stateId : null;
}

/**
 * What block::ConfigInfo::extract_config reads of prev_blocks beyond Config::extract_from_state, so that a proof
 * over the visited cells passes it (tonlib checks backward proof links and config proofs with it): the zero
 * state's entry (every state but the zero state), and with `prevBlocks` (mode needPrevBlocks, what
 * get_prev_blocks_info reads for c7) the 15 blocks before the state's and every 100th block below it.
 */
export function visitConfigInfo(state: Cell, stateId: BlockIdExt, prevBlocks: boolean): void {
  if (stateId.seqno > 0) oldMcBlockId(state, stateId, 0);
  if (!prevBlocks) return;
  for (let s = stateId.seqno - 1; s >= 0 && s >= stateId.seqno - 15; s--) oldMcBlockId(state, stateId, s);
  for (let s = Math.floor(stateId.seqno / 100) * 100, n = 0; n < 16; n++, s -= 100) {
    oldMcBlockId(state, stateId, s);
    if (s < 100) break;
  }
}
