// A masterchain block -> the shard blocks it newly commits. Each shard top its shard_hashes list is walked back
// through its parents (prev_ref: one parent, two after a merge, the parent shard's block after a split) until
// a block the previous masterchain block already listed as a top, or a zero state (seqno 0). The result is
// deduplicated (after a split both children reach the same parent) and ordered parents first: by workchain,
// then seqno, then shard.
import { IndexError } from '../../common/index.ts';
import {
  type Block,
  type BlockIdExt,
  blockKey,
  type FetchedBlock,
  listShards,
  loadBlockCell,
  prevBlockIds,
} from '../../ton/index.ts';

export interface ShardTop {
  workchain: number;
  shard: bigint;
  seqno: number;
  id: BlockIdExt;
}

/** The shard tops a masterchain block lists (its McBlockExtra shard_hashes), sorted by workchain and shard. */
export function shardTopsOf(mc: Block): ShardTop[] {
  const custom = mc.extra.custom;
  if (!custom) {
    throw new IndexError(
      'TG_INDEX_SOURCE',
      `block ${mc.info.shard.workchainId}:${mc.info.seqNo} is not a masterchain block`,
    );
  }
  return listShards(custom.shardHashes).map(({ workchain, shard, descr }) => ({
    workchain,
    shard,
    seqno: descr.seqNo,
    id: { workchain, shard, seqno: descr.seqNo, rootHash: descr.rootHash, fileHash: descr.fileHash },
  }));
}

export interface NewShardBlock {
  fetched: FetchedBlock;
  block: Block;
}

/** The walk stops after this many blocks for one masterchain block: a broken or foreign chain, not a backlog. */
const MAX_BLOCKS = 10_000;

/**
 * The shard blocks between `prevTops` (the previous masterchain block's tops; empty before the first one) and
 * `tops`, fetched through `fetch`.
 */
export async function newShardBlocks(
  tops: readonly ShardTop[],
  prevTops: readonly ShardTop[],
  fetch: (id: BlockIdExt) => Promise<FetchedBlock>,
): Promise<NewShardBlock[]> {
  const stop = new Map(prevTops.map((t) => [blockKey(t.id), t.id]));
  const seen = new Map<string, NewShardBlock>();
  let pending: BlockIdExt[] = tops.map((t) => t.id);
  while (pending.length > 0) {
    const next: BlockIdExt[] = [];
    const batch = pending.filter((id) => {
      const k = blockKey(id);
      const known = stop.get(k);
      if (known) {
        if (!known.rootHash.equals(id.rootHash)) {
          throw new IndexError('TG_INDEX_SOURCE', `shard block ${k}: two different root hashes on the chain (fork)`);
        }
        return false;
      }
      return id.seqno !== 0 && !seen.has(k);
    });
    const unique = [...new Map(batch.map((id) => [blockKey(id), id])).values()];
    const fetched = await Promise.all(unique.map(fetch));
    for (const f of fetched) {
      const block = loadBlockCell(f.root);
      seen.set(blockKey(f.id), { fetched: f, block });
      if (seen.size > MAX_BLOCKS) {
        throw new IndexError(
          'TG_INDEX_SOURCE',
          `shard walk: more than ${MAX_BLOCKS} blocks without meeting the previous tops`,
        );
      }
      next.push(...prevBlockIds(block.info));
    }
    pending = next;
  }
  return [...seen.values()].sort(
    (a, b) =>
      a.fetched.id.workchain - b.fetched.id.workchain ||
      a.fetched.id.seqno - b.fetched.id.seqno ||
      (a.fetched.id.shard < b.fetched.id.shard ? -1 : a.fetched.id.shard > b.fetched.id.shard ? 1 : 0),
  );
}
