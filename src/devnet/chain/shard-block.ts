// collateShardBlock: one basechain block as Collator does it for a shardchain (validator/impl/collator.cpp):
// check the previous block against the masterchain block it refers to, clean the OutMsgQueue, import the
// neighbours' queued messages for us, run externals, enqueue the new messages, and build state and block.
import { beginCell, type Cell, Dictionary } from '@ton/core';
import { CollateError } from '../../common/errors.ts';
import {
  accountPrefix,
  addCurrencies,
  isPruned,
  isRightChild,
  libraryEntries,
  shardContains,
  shardIsAncestor,
  shardParent,
  shardPrefixLength,
  zeroCurrencies,
} from '../../ton/index.ts';
import { buildAccounts, readAccounts } from './account-dict.ts';
import { assembleBlock } from './assemble.ts';
import { extBlkRefOf, lastKeyBlock, prevBlocksInfo, viewMc, viewState } from './chain-view.ts';
import {
  createEngine,
  dequeueDelivered,
  enqueueNewMessages,
  type Neighbor,
  processExternals,
  processInbound,
} from './engine.ts';
import {
  compactifyProcessed,
  describeEnqueued,
  insertProcessed,
  insertProcessedInfty,
  prefixInShard,
  splitProcessed,
} from './msg-queue.ts';
import { neighborOf, shardEndLtResolver, topsOf } from './neighbors.ts';
import { leavesOf, type ShardLeaf, shardCcSeqno } from './shard-config.ts';
import { alignStartLt, blockOverload, classifyLoad, readProcessed, readQueue } from './state-parts.ts';
import type { ChainTvm, CollatedBlock, McChainState, ShardChainState } from './types.ts';
import { computeValidatorNodes, validatorSetHash } from './validator-set.ts';

export interface CollateShardArgs {
  /** This shard's last block (or the workchain zero state); right after a split, the parent's last block. */
  prev: ShardChainState;
  /** The shard to collate: prev's shard, or one of its children when the masterchain lists prev before_split. */
  shard?: bigint;
  /** The masterchain block this block refers to (master_ref); it must list `prev` as the shard's top. */
  mcRef: McChainState;
  /** The tops `mcRef` lists for the other shards of the workchain: their queues hold our inbound messages. */
  neighbors: readonly ShardChainState[];
  /** Wall-clock unix time; the block's gen_utime is at least this (and after its predecessors). */
  now: number;
  randSeed: Buffer;
  /** Inbound external messages (Message cells), run in this order. */
  externals?: readonly Cell[];
  tvm: ChainTvm;
  /** created_by: the collating validator's public key (default: the first key of the current validator set). */
  createdBy?: Buffer;
  /** The devnet's fixed layout: a shard above it asks to split (want_split). */
  layout?: readonly bigint[];
}

export async function collateShardBlock(a: CollateShardArgs): Promise<CollatedBlock> {
  const mc = viewMc(a.mcRef);
  const cfg = mc.config;
  const prevState = viewState(a.prev.state);
  const wc = prevState.workchain;
  if (wc === -1) throw new CollateError('collateShardBlock: prev is a masterchain state');
  const prevShard = prevState.shard;
  const shard = a.shard ?? prevShard;
  const leaves = leavesOf(mc.shardHashes);
  const listed = leaves.find((l) => l.workchain === wc && l.shard === prevShard);
  if (!listed || listed.descr.seqNo !== a.prev.id.seqno || !listed.descr.rootHash.equals(a.prev.id.rootHash)) {
    throw new CollateError(
      `collateShardBlock: masterchain block ${mc.seqno} does not list ${wc}:${prevShard.toString(16)}:${a.prev.id.seqno} as the shard's top`,
    );
  }
  const afterSplit = shard !== prevShard;
  if (afterSplit) {
    if (shardParent(shard) !== prevShard) {
      throw new CollateError(`collateShardBlock: ${shard.toString(16)} is not a child of ${prevShard.toString(16)}`);
    }
    if (!listed.descr.beforeSplit) throw new CollateError('collateShardBlock: the parent block is not before_split');
  } else if (listed.descr.beforeSplit) {
    throw new CollateError('collateShardBlock: the previous block is before_split; collate its two children');
  }
  if (!cfg.workchains.get(wc)?.active) throw new CollateError(`collateShardBlock: workchain ${wc} is not active`);

  // Previous state, split if this is the first block of a child shard (ShardState::split).
  let accounts = prevState.accounts;
  let queue = readQueue(prevState.outMsgQueueInfo);
  let processed = readProcessed(prevState.outMsgQueueInfo);
  let overloadHistory = prevState.r1.overloadHistory;
  let underloadHistory = prevState.r1.underloadHistory;
  const oldFees = prevState.r1.totalValidatorFees;
  if (isPruned(oldFees) || oldFees.otherPruned)
    throw new CollateError('collateShardBlock: pruned total_validator_fees');
  let totalValidatorFees = addCurrencies(zeroCurrencies(), oldFees);
  let fromPrev = prevState.r1.totalBalance;
  if (afterSplit) {
    const mine = [...readAccounts(prevState.accounts)].filter(([hex]) =>
      shardContains(shard, accountPrefix(Buffer.from(hex, 'hex'))),
    );
    accounts = buildAccounts(mine);
    queue = new Map(
      [...queue].filter(([key, q]) => prefixInShard(describeEnqueued(key, q.enqueuedLt, q.envelope).cur, wc, shard)),
    );
    processed = splitProcessed(processed, shard);
    totalValidatorFees = { coins: (oldFees.coins + (isRightChild(shard) ? 1n : 0n)) >> 1n };
    overloadHistory = 0n;
    underloadHistory = 0n;
    fromPrev = accounts.extra.balance;
  }

  const sameTime = cfg.globalVersion.version >= 13 ? 0 : 1;
  const now = Math.max(a.now, Math.max(prevState.genUtime, mc.genUtime) + sameTime);
  const startLt = alignStartLt(mc.lt > prevState.genLt ? mc.lt : prevState.genLt);

  // Neighbours: every top the masterchain lists (ourselves: our previous state), and the masterchain.
  const wcLeaves = leaves.filter((l) => l.workchain === wc);
  const tops = topsOf(wcLeaves, [a.prev, ...a.neighbors]);
  const neighbors: Neighbor[] = wcLeaves.map((l, i) => {
    const own = l.shard === prevShard && !afterSplit;
    if (own) return { ...neighborOf(a.prev, true), queue, processed };
    return neighborOf(tops[i] as ShardChainState, false, afterSplit && l.shard === prevShard);
  });
  if (afterSplit) {
    neighbors.push({ workchain: wc, shard, endLt: 0n, queue, processed, own: true });
  }
  neighbors.push(neighborOf(a.mcRef, false));

  const e = createEngine({
    workchain: wc,
    shard,
    config: cfg,
    now,
    startLt,
    randSeed: a.randSeed,
    libs: libsOf(mc.state.r1.libraries),
    prevBlocks: prevBlocksInfo(mc),
    tvm: a.tvm,
    baseAccounts: accounts,
    queue,
    processed,
    shardEndLt: shardEndLtResolver(mc, wcLeaves, tops),
  });
  dequeueDelivered(e, neighbors);
  const created = wc === 0 ? { coins: cfg.basechainBlockFee >> BigInt(shardPrefixLength(shard)) } : zeroCurrencies();
  await processInbound(e, neighbors);
  await processExternals(e, a.externals ?? []);
  enqueueNewMessages(e);
  if (e.maxLt === startLt) e.maxLt = startLt + 1n;

  // Load, split and merge wishes (check_block_overload), and before_split from the masterchain's schedule.
  const load = blockOverload(
    overloadHistory,
    underloadHistory,
    classifyLoad(cfg.wcBlockLimits, e.gasUsed, e.maxLt - startLt),
  );
  const layoutSplit = a.layout?.some((s) => s !== shard && shardIsAncestor(shard, s)) ?? false;
  const wantSplit = load.wantSplit || layoutSplit;
  const wantMerge = !wantSplit && load.wantMerge;
  let beforeSplit = false;
  const fsm = listed.descr.splitMergeAt;
  if (!afterSplit && fsm.kind === 'fsm_split' && now >= fsm.splitUtime && now + 13 < fsm.splitUtime + fsm.interval) {
    beforeSplit = true;
  }

  // ProcessedUpto and min_ref_mc_seqno (update_processed_upto).
  let procOut = processed;
  if (e.lastProcInt) procOut = insertProcessed(procOut, shard, mc.seqno, e.lastProcInt.lt, e.lastProcInt.hash);
  else if (e.inboundQueuesEmpty && mc.lt > 0n) procOut = insertProcessedInfty(procOut, shard, mc.seqno, mc.lt - 1n);
  procOut = compactifyProcessed(procOut);
  const minRefMcSeqno = procOut.reduce((m, p) => Math.min(m, p.mcSeqno), mc.seqno);

  const cc = shardCcSeqno(leaves as ShardLeaf[], wc, shard);
  const nodes = computeValidatorNodes(cfg.catchain, wc, shard, cfg.validators, cc);
  return assembleBlock({
    e,
    config: cfg,
    globalId: prevState.raw.globalId,
    seqno: a.prev.id.seqno + 1,
    prev: a.prev,
    prevRef: extBlkRefOf(a.prev),
    afterSplit,
    beforeSplit,
    wantSplit,
    wantMerge,
    keyBlock: false,
    overloadHistory: load.overloadHistory,
    underloadHistory: load.underloadHistory,
    fromPrevBlk: fromPrev,
    oldTotalValidatorFees: totalValidatorFees,
    processed: procOut,
    minRefMcSeqno,
    prevKeyBlockSeqno: lastKeyBlock(mc).seqNo,
    validatorListHashShort: validatorSetHash(cc, nodes),
    catchainSeqno: cc,
    createdBy: a.createdBy ?? firstValidatorKey(cfg),
    libraries: prevState.r1.libraries,
    masterRef: { master: extBlkRefOf(a.mcRef) },
    mcRefId: a.mcRef.id,
    created,
  });
}

export function firstValidatorKey(cfg: { validators: { list: Map<number, { publicKey: Buffer }> } }): Buffer {
  const first = [...cfg.validators.list.entries()].sort((x, y) => x[0] - y[0])[0];
  if (!first) throw new CollateError('config: the current validator set is empty');
  return first[1].publicKey;
}

/** The emulator's library dictionary (hash -> library root) from a masterchain state's LibDescr dictionary. */
export function libsOf(libraries: Cell | null): Cell | null {
  if (libraries === null) return null;
  return librariesToDict(libraries);
}

function librariesToDict(root: Cell): Cell | null {
  const d = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const e of libraryEntries(root).entries)
    d.set(Buffer.from(e.key.toString(16).padStart(64, '0'), 'hex'), e.value.lib);
  if (d.size === 0) return null;
  return beginCell().storeDictDirect(d).endCell();
}
