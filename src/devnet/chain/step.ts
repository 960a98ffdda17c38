// One devnet step in lockstep, as the node's validators would run it with one validator: every shard collates one
// block against the last masterchain block (the two children of a shard the masterchain lists before_split),
// then one masterchain block registers them all. External messages are routed by destination.
import { createHash } from 'node:crypto';
import type { Cell } from '@ton/core';
import { MASTERCHAIN, messageFromCell, shardChild, shardContains } from '../../ton/index.ts';
import { viewMc } from './chain-view.ts';
import { type CollateMcArgs, collateMasterchainBlock } from './masterchain-block.ts';
import { addrPrefix } from './msg-queue.ts';
import { collateShardBlock } from './shard-block.ts';
import type { ChainTvm, CollatedBlock, CollatedMcBlock, McChainState, ShardChainState, ValidatorKey } from './types.ts';

/** The latest masterchain block and the shard tops it lists. */
export interface ChainTops {
  mc: McChainState;
  shards: ShardChainState[];
}

export interface StepArgs {
  /** Wall-clock time of the step; shard blocks get at least `now`, the masterchain block at least `now + 1`. */
  now: number;
  /** Seed of the step: each block's rand_seed is sha256(seed ‖ workchain ‖ shard ‖ seqno). */
  seed: Buffer;
  externals?: readonly Cell[];
  tvm: ChainTvm;
  validator: ValidatorKey;
  layout?: readonly bigint[];
  newConfig?: CollateMcArgs['newConfig'];
  keyBlock?: CollateMcArgs['keyBlock'];
}

export interface StepResult {
  tops: ChainTops;
  shardBlocks: CollatedBlock[];
  mcBlock: CollatedMcBlock;
  /** Externals no chain of this step could take (not an inbound external, or no shard for its address yet). */
  unrouted: Cell[];
}

export function blockRandSeed(seed: Buffer, workchain: number, shard: bigint, seqno: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeInt32BE(workchain, 0);
  b.writeBigUInt64BE(shard, 4);
  b.writeUInt32BE(seqno, 12);
  return createHash('sha256').update(seed).update(b).digest();
}

/** The chain (workchain, 64-bit prefix) an external message is addressed to, or null if it is not one. */
function externalTarget(cell: Cell): { workchain: number; prefix: bigint } | null {
  try {
    const m = messageFromCell(cell);
    return m.info.kind === 'ext_in_msg_info' ? addrPrefix(m.info.dest) : null;
  } catch {
    return null;
  }
}

export async function collateStep(tops: ChainTops, a: StepArgs): Promise<StepResult> {
  const mcv = viewMc(tops.mc);
  const ext = (a.externals ?? []).map((c) => ({ c, t: externalTarget(c), routed: false }));
  const take = (f: (t: { workchain: number; prefix: bigint }) => boolean): Cell[] => {
    const out: Cell[] = [];
    for (const x of ext) {
      if (x.routed || !x.t || !f(x.t)) continue;
      x.routed = true;
      out.push(x.c);
    }
    return out;
  };
  const shardBlocks: CollatedBlock[] = [];
  if (mcv.shards.length > 0) {
    for (const top of tops.shards) {
      const leaf = mcv.shards.find((l) => l.workchain === top.id.workchain && l.descr.rootHash.equals(top.id.rootHash));
      const targets = leaf?.descr.beforeSplit
        ? [shardChild(top.id.shard, false), shardChild(top.id.shard, true)]
        : [top.id.shard];
      for (const shard of targets) {
        shardBlocks.push(
          await collateShardBlock({
            prev: top,
            shard,
            mcRef: tops.mc,
            neighbors: tops.shards,
            now: a.now,
            randSeed: blockRandSeed(a.seed, top.id.workchain, shard, top.id.seqno + 1),
            externals: take((t) => t.workchain === top.id.workchain && shardContains(shard, t.prefix)),
            tvm: a.tvm,
            layout: a.layout,
          }),
        );
      }
    }
  }
  const shards = mcv.shards.length > 0 ? shardBlocks : tops.shards;
  const mcBlock = await collateMasterchainBlock({
    prev: tops.mc,
    shards,
    now: a.now + 1,
    randSeed: blockRandSeed(a.seed, MASTERCHAIN, tops.mc.id.shard, tops.mc.id.seqno + 1),
    externals: take((t) => t.workchain === MASTERCHAIN),
    tvm: a.tvm,
    validator: a.validator,
    newConfig: a.newConfig,
    keyBlock: a.keyBlock,
    layout: a.layout,
  });
  const unrouted = ext.filter((x) => !x.routed).map((x) => x.c);
  return { tops: { mc: mcBlock, shards }, shardBlocks, mcBlock, unrouted };
}
