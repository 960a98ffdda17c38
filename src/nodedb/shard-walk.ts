// The shard blocks a masterchain block commits (node-db.md §2.6 step 4), read from block headers only: the top of
// each shard from the masterchain block's McBlockExtra.shard_hashes, then each block's prev links (BlockInfo
// prev_ref: one parent, the parent shard's block after a split, two after a merge) back to the tops the previous
// masterchain block listed. Only the BlockInfo and McBlockExtra cells are decoded, never the transactions.
import type { Cell } from '@ton/core';
import {
  type BlockIdExt,
  type BlockInfo,
  listShards,
  loadBlockInfo,
  loadMcBlockExtra,
  prevBlockIds,
} from '../ton/index.ts';
import { NodeDbFormatError } from './tl.ts';

const BLOCK_TAG = 0x11ef55aa;
const BLOCK_EXTRA_TAG = 0x4a33f6fd;

/** The BlockInfo of a block root (block#11ef55aa global_id info:^BlockInfo …). */
export function blockInfoOf(root: Cell, what: string): BlockInfo {
  try {
    const s = root.beginParse();
    const tag = s.loadUint(32);
    if (tag !== BLOCK_TAG) throw new Error(`expected Block tag 0x11ef55aa, got 0x${tag.toString(16)}`);
    return loadBlockInfo(root.refs[0]!.beginParse());
  } catch (e) {
    throw new NodeDbFormatError(`${what}: block header does not decode (${(e as Error).message})`);
  }
}

/**
 * The shard tops a masterchain block lists (block_extra … custom:(Maybe ^McBlockExtra)), as full ids, sorted by
 * workchain and shard.
 */
export function shardTopsOfRoot(root: Cell, what: string): BlockIdExt[] {
  try {
    const extra = root.refs[3];
    if (!extra) throw new Error('the block has no extra');
    const s = extra.beginParse();
    const tag = s.loadUint(32);
    if (tag !== BLOCK_EXTRA_TAG) throw new Error(`expected BlockExtra tag 0x4a33f6fd, got 0x${tag.toString(16)}`);
    s.loadRef();
    s.loadRef();
    s.loadRef();
    s.skip(512); // rand_seed, created_by
    const custom = s.loadMaybeRef();
    if (!custom) throw new Error('not a masterchain block (no McBlockExtra)');
    const mc = loadMcBlockExtra(custom.beginParse());
    return listShards(mc.shardHashes)
      .map(({ workchain, shard, descr }) => ({
        workchain,
        shard,
        seqno: descr.seqNo,
        rootHash: descr.rootHash,
        fileHash: descr.fileHash,
      }))
      .sort((a, b) => a.workchain - b.workchain || (a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : 0));
  } catch (e) {
    if (e instanceof NodeDbFormatError) throw e;
    throw new NodeDbFormatError(`${what}: shard_hashes do not decode (${(e as Error).message})`);
  }
}

const key = (id: BlockIdExt) => `${id.workchain}:${id.shard}:${id.seqno}`;

export interface WalkStop {
  /** The previous masterchain block's tops: the walk stops on reaching one of them. */
  prevTops?: readonly BlockIdExt[];
  /** Used when the previous tops are unknown: stop at a block for which this says true (it is not followed). */
  before?: (id: BlockIdExt) => Promise<boolean>;
}

/** More blocks than this under one masterchain block means a broken or foreign chain, not a backlog. */
const MAX_BLOCKS = 10_000;

/**
 * The blocks between `tops` and the stop set, fetched through `info` (a block's BlockInfo), ordered parents first:
 * by workchain, then seqno, then shard (so oldest → newest within each shard).
 */
export async function walkCommitted(
  tops: readonly BlockIdExt[],
  stop: WalkStop,
  info: (id: BlockIdExt) => Promise<BlockInfo>,
  what: string,
): Promise<BlockIdExt[]> {
  const stopAt = new Map((stop.prevTops ?? []).map((t) => [key(t), t]));
  const seen = new Map<string, BlockIdExt>();
  let pending = [...tops];
  while (pending.length > 0) {
    const next: BlockIdExt[] = [];
    for (const id of pending) {
      const k = key(id);
      const known = stopAt.get(k);
      if (known) {
        if (!known.rootHash.equals(id.rootHash)) {
          throw new NodeDbFormatError(`${what}: shard block ${k} has two different root hashes on the chain`);
        }
        continue;
      }
      if (id.seqno === 0 || seen.has(k)) continue;
      if (!stop.prevTops && stop.before && (await stop.before(id))) continue;
      seen.set(k, id);
      if (seen.size > MAX_BLOCKS) throw new NodeDbFormatError(`${what}: over ${MAX_BLOCKS} shard blocks`);
      next.push(...prevBlockIds(await info(id)));
    }
    pending = next;
  }
  return [...seen.values()].sort(
    (a, b) => a.workchain - b.workchain || a.seqno - b.seqno || (a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : 0),
  );
}
