// A unit from a source: what masterchain seqno N commits (its masterchain block, then the shard blocks it newly
// commits, walked back by parse/new-shard-blocks.ts) or the unit the source declares instead (the file source), with
// the root hash its checkpoint records. decode/decode-unit.ts turns a unit into rows.
import { createHash } from 'node:crypto';
import { IndexError } from '../../common/index.ts';
import { type Block, blockKey, type FetchedBlock, loadBlockCell } from '../../ton/index.ts';
import { newShardBlocks, type ShardTop, shardTopsOf } from '../parse/new-shard-blocks.ts';
import type { BlockSource } from './types.ts';

export interface UnitBlock {
  fetched: FetchedBlock;
  block: Block;
}

/** A unit's blocks (masterchain first), its shard tops and its checkpoint's root hash (base64). */
export interface CollectedUnit {
  blocks: UnitBlock[];
  tops: ShardTop[];
  rootHash: string;
}

/** What the source says masterchain seqno `mcSeqno` commits: its blocks (masterchain first) and shard tops. */
export async function collectUnit(mcSeqno: number, source: BlockSource): Promise<CollectedUnit> {
  const declared = source.declaredUnit ? await source.declaredUnit(mcSeqno) : null;
  if (declared) {
    const blocks = await Promise.all(
      declared.blocks.map(async (id) => {
        const fetched = await source.block(id);
        return { fetched, block: loadBlockCell(fetched.root) };
      }),
    );
    blocks.sort((a, b) => a.fetched.id.workchain - b.fetched.id.workchain || a.fetched.id.seqno - b.fetched.id.seqno);
    const mc = blocks.find((b) => b.fetched.id.workchain === -1);
    // Without its masterchain block a unit's checkpoint hash is sha256 over its blocks' root hashes, in order.
    const rootHash = mc
      ? mc.fetched.id.rootHash.toString('base64')
      : createHash('sha256')
          .update(Buffer.concat(blocks.map((b) => b.fetched.id.rootHash)))
          .digest()
          .toString('base64');
    return { blocks, tops: mc ? shardTopsOf(mc.block) : [], rootHash };
  }
  if (mcSeqno < 1) {
    throw new IndexError(
      'TG_INDEX_SOURCE',
      'masterchain seqno 0 is the zero state, which has no block: indexing starts at 1',
    );
  }
  const mcFetched = await source.mcBlock(mcSeqno);
  if (!mcFetched) {
    throw new IndexError('TG_INDEX_NOT_READY', `${source.name}: masterchain block ${mcSeqno} is not available yet`, {
      details: { mcSeqno, source: source.name },
    });
  }
  const mc = { fetched: mcFetched, block: loadBlockCell(mcFetched.root) };
  if (mc.fetched.id.seqno !== mcSeqno || mc.fetched.id.workchain !== -1) {
    throw new IndexError(
      'TG_INDEX_SOURCE',
      `${source.name}: asked masterchain block ${mcSeqno}, got ${blockKey(mc.fetched.id)}`,
    );
  }
  const tops = shardTopsOf(mc.block);
  let prevTops: ShardTop[] = [];
  if (mcSeqno > 1) {
    const prev = await source.mcBlock(mcSeqno - 1);
    if (!prev) {
      throw new IndexError('TG_INDEX_NOT_READY', `${source.name}: masterchain block ${mcSeqno - 1} is not available`);
    }
    prevTops = shardTopsOf(loadBlockCell(prev.root));
  }
  const shards = await newShardBlocks(tops, prevTops, (id) => source.block(id));
  return { blocks: [mc, ...shards], tops, rootHash: mc.fetched.id.rootHash.toString('base64') };
}
