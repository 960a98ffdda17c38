// The collator's view of the other chains' message queues: every shard top a masterchain state lists (plus the
// masterchain itself), and compute_shard_end_lt for ProcessedUpto checks.
import { CollateError } from '../../common/errors.ts';
import { MASTERCHAIN, shardContains } from '../../ton/index.ts';
import { type McView, mcBlockRef, topEndLt, viewBlockInfo, viewState } from './chain-view.ts';
import type { Neighbor } from './engine.ts';
import type { AddrPrefix } from './msg-queue.ts';
import type { ShardLeaf } from './shard-config.ts';
import { readProcessed, readQueue } from './state-parts.ts';
import type { ChainTop } from './types.ts';

export function neighborOf(top: ChainTop, own: boolean, parentOfOwn = false): Neighbor {
  const st = viewState(top.state);
  return {
    workchain: st.workchain,
    shard: st.shard,
    endLt: topEndLt(top),
    queue: readQueue(st.outMsgQueueInfo),
    processed: readProcessed(st.outMsgQueueInfo),
    own,
    parentOfOwn,
  };
}

/** The top (state) of every listed leaf, matched by root hash among `candidates`. */
export function topsOf(leaves: readonly ShardLeaf[], candidates: readonly ChainTop[]): ChainTop[] {
  return leaves.map((l) => {
    const top = candidates.find((c) => c.id.workchain === l.workchain && c.id.rootHash.equals(l.descr.rootHash));
    if (!top) {
      throw new CollateError(
        `the state of shard ${l.workchain}:${l.shard.toString(16)} seqno ${l.descr.seqNo} (listed by the masterchain) was not given`,
      );
    }
    return top;
  });
}

/**
 * compute_shard_end_lt(cur) as of masterchain block `mcSeqno`: the end lt of the block of cur's shard that
 * block listed. `mc` is a masterchain state at or after mcSeqno, `leaves`/`tops` the shard tops it lists. A top
 * registered after mcSeqno stands for its predecessor, which is exact as long as every shard block is registered
 * by the masterchain block that follows it (the devnet's lockstep).
 */
export function shardEndLtResolver(
  mc: McView,
  leaves: readonly ShardLeaf[],
  tops: readonly ChainTop[],
): (cur: AddrPrefix, mcSeqno: number) => bigint {
  return (cur, mcSeqno) => {
    if (cur.workchain === MASTERCHAIN) return mcBlockRef(mc, mcSeqno)?.blkRef.endLt ?? 0n;
    const i = leaves.findIndex((l) => l.workchain === cur.workchain && shardContains(l.shard, cur.prefix));
    if (i < 0) return 0n;
    const leaf = leaves[i] as ShardLeaf;
    if (leaf.descr.regMcSeqno <= mcSeqno) return leaf.descr.endLt;
    const top = tops[i] as ChainTop;
    if (!top.block) return 0n;
    const prev = viewBlockInfo(top.block).prevRef;
    return prev.kind === 'prev_blk_info'
      ? prev.prev.endLt
      : prev.prev1.endLt > prev.prev2.endLt
        ? prev.prev1.endLt
        : prev.prev2.endLt;
  };
}
