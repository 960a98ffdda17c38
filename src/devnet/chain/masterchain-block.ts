// collateMasterchainBlock: one masterchain block as the node's masterchain collator builds it
// (validator/impl/collator.cpp: adjust_shard_config, import_new_shard_top_blocks, create_mc_state_extra,
// create_mc_block_extra), then signed by the devnet's single validator.
import { beginCell, type Cell, type CurrencyCollection, Dictionary } from '@ton/core';
import { CollateError } from '../../common/errors.ts';
import {
  type AugEntry,
  addCurrencies,
  cryptoSignaturePairValue,
  keyMaxLtOf,
  MASTER_SHARD,
  MASTERCHAIN,
  type McBlockExtra,
  type McStateExtra,
  nodeIdShort,
  oldMcBlocksInfoCodec,
  type ShardFeeCreated,
  shardChild,
  shardFeesCodec,
  shardParent,
  storeShardHashes,
  zeroCurrencies,
} from '../../ton/index.ts';
import { assembleBlock } from './assemble.ts';
import { augDictApply } from './aug-dict-update.ts';
import { extBlkRefOf, lastKeyBlock, prevBlocksInfo, viewBlockInfo, viewMc, viewValueFlow } from './chain-view.ts';
import { burnedFees, type ChainConfig, readChainConfig } from './config-view.ts';
import { createEngine, dequeueDelivered, enqueueNewMessages, processExternals, processInbound } from './engine.ts';
import { compactifyProcessed, insertProcessed, insertProcessedInfty } from './msg-queue.ts';
import { neighborOf, shardEndLtResolver, topsOf } from './neighbors.ts';
import { firstValidatorKey, libsOf } from './shard-block.ts';
import { descrFromBlock, hashesOf, leavesOf, newWorkchainDescr, type ShardLeaf, updateShards } from './shard-config.ts';
import { alignStartLt, blockOverload, classifyLoad, readProcessed, readQueue } from './state-parts.ts';
import type { ChainTop, ChainTvm, CollatedMcBlock, McChainState, ShardChainState, ValidatorKey } from './types.ts';
import { computeValidatorNodes, signBlock, validatorSetHash } from './validator-set.ts';

export interface CollateMcArgs {
  prev: McChainState;
  /**
   * The latest block of every shard (and, before the first masterchain block lists them, each workchain's zero
   * state). Those newer than the shard tops `prev` lists are registered; each must follow the registered top.
   */
  shards: readonly ShardChainState[];
  now: number;
  randSeed: Buffer;
  externals?: readonly Cell[];
  tvm: ChainTvm;
  /** The collating validator; it must be in the current validator set and signs the block. */
  validator: ValidatorKey;
  /** A new config (ConfigParams root): installs it and makes this a key block. */
  newConfig?: Cell;
  /**
   * Makes this a key block even when the config stays as it is (McBlockExtra carries it, the catchain seqnos move
   * on): the devnet's first masterchain block is one, so its global config can name a key block as `init_block`, the
   * block strict clients start their proof chains from (a forward link's config proof must be a block's).
   */
  keyBlock?: boolean;
  /** The devnet's fixed layout: its shards are never scheduled to merge. */
  layout?: readonly bigint[];
}

const U32 = (wc: number): bigint => BigInt.asUintN(32, BigInt(wc));

function blockFacts(top: ChainTop) {
  if (!top.block) throw new CollateError('a zero state cannot be registered as a new shard top');
  const info = viewBlockInfo(top.block);
  const flow = viewValueFlow(top.block);
  return {
    info,
    facts: {
      seqNo: info.seqNo,
      startLt: info.startLt,
      endLt: info.endLt,
      rootHash: top.id.rootHash,
      fileHash: top.id.fileHash,
      beforeSplit: info.beforeSplit,
      wantSplit: info.wantSplit,
      wantMerge: info.wantMerge,
      genCatchainSeqno: info.genCatchainSeqno,
      minRefMcSeqno: info.minRefMcSeqno,
      genUtime: info.genUtime,
      feesCollected: flow.feesCollected,
      fundsCreated: flow.created,
    },
  };
}

/** The HashmapE 32 root cell of ShardHashes (McStateExtra keeps the root as it is). */
function shardHashesRoot(leaves: ShardLeaf[]): Cell | null {
  const c = beginCell()
    .store(storeShardHashes(hashesOf(leaves)))
    .endCell();
  return c.bits.at(0) ? (c.refs[0] as Cell) : null;
}

export async function collateMasterchainBlock(a: CollateMcArgs): Promise<CollatedMcBlock> {
  const pv = viewMc(a.prev);
  const cfg = pv.config;
  const seqno = pv.seqno + 1;
  const newCfg: ChainConfig = a.newConfig ? readChainConfig(a.newConfig) : cfg;
  const keyBlock = a.keyBlock === true || (a.newConfig !== undefined && !a.newConfig.hash().equals(cfg.root.hash()));
  const sameTime = cfg.globalVersion.version >= 13 ? 0 : 1;
  let now = Math.max(a.now, pv.genUtime + sameTime);

  // 1. adjust_shard_config: add workchains the config enables.
  let leaves = leavesOf(pv.shardHashes);
  const fees: AugEntry<ShardFeeCreated, ShardFeeCreated>[] = [];
  let adjusted = false;
  for (const [wc, w] of [...cfg.workchains].sort((x, y) => x[0] - y[0])) {
    if (!w.active || w.enabledSince > now || leaves.some((l) => l.workchain === wc)) continue;
    leaves.push({
      workchain: wc,
      shard: MASTER_SHARD,
      descr: newWorkchainDescr(seqno, w.zerostateRootHash, w.zerostateFileHash),
    });
    fees.push({
      key: (U32(wc) << 64n) | MASTER_SHARD,
      value: { fees: zeroCurrencies(), create: zeroCurrencies() },
      extra: { fees: zeroCurrencies(), create: zeroCurrencies() },
    });
    adjusted = true;
  }

  // 2. import_new_shard_top_blocks: every given shard block newer than its registered top.
  let shardsMaxEndLt = 0n;
  const fresh = a.shards.filter(
    (s) =>
      s.id.workchain !== MASTERCHAIN &&
      !leaves.some((l) => l.workchain === s.id.workchain && l.descr.rootHash.equals(s.id.rootHash)),
  );
  const handled = new Set<ChainTop>();
  for (const s of fresh) {
    if (handled.has(s)) continue;
    const { info, facts } = blockFacts(s);
    const prev = info.prevRef;
    if (prev.kind !== 'prev_blk_info') throw new CollateError('merged shard blocks are not supported');
    const wc = s.id.workchain;
    const follows = (l: ShardLeaf) => l.descr.seqNo === prev.prev.seqNo && l.descr.rootHash.equals(prev.prev.rootHash);
    now = Math.max(now, info.genUtime + sameTime);
    if (!info.afterSplit) {
      const i = leaves.findIndex((l) => l.workchain === wc && l.shard === s.id.shard);
      const old = leaves[i];
      if (!old || !follows(old)) {
        throw new CollateError(
          `shard block ${wc}:${s.id.shard.toString(16)}:${s.id.seqno} does not follow the registered top: register every shard block in the next masterchain block`,
        );
      }
      const d = descrFromBlock(s.id.shard, facts, seqno);
      if (old.descr.splitMergeAt.kind !== 'fsm_none') d.splitMergeAt = old.descr.splitMergeAt;
      leaves[i] = { workchain: wc, shard: s.id.shard, descr: d };
      handled.add(s);
      fees.push({
        key: (U32(wc) << 64n) | s.id.shard,
        value: { fees: d.feesCollected, create: d.fundsCreated },
        extra: { fees: d.feesCollected, create: d.fundsCreated },
      });
      if (facts.endLt > shardsMaxEndLt) shardsMaxEndLt = facts.endLt;
    } else {
      const parent = shardParent(s.id.shard);
      const i = leaves.findIndex((l) => l.workchain === wc && l.shard === parent);
      const old = leaves[i];
      if (!old?.descr.beforeSplit || !follows(old))
        throw new CollateError(`split block ${wc}:${s.id.shard.toString(16)} does not follow a before_split top`);
      const kids = [shardChild(parent, false), shardChild(parent, true)].map((k) =>
        fresh.find((f) => f.id.workchain === wc && f.id.shard === k),
      );
      if (!kids[0] || !kids[1]) throw new CollateError('both children of a split must be registered together');
      const newLeaves: ShardLeaf[] = [];
      for (const k of kids as ShardChainState[]) {
        const kf = blockFacts(k);
        if (!kf.info.afterSplit) throw new CollateError('a child of a split is not after_split');
        const d = descrFromBlock(k.id.shard, kf.facts, seqno);
        newLeaves.push({ workchain: wc, shard: k.id.shard, descr: d });
        handled.add(k);
        fees.push({
          key: (U32(wc) << 64n) | k.id.shard,
          value: { fees: d.feesCollected, create: d.fundsCreated },
          extra: { fees: d.feesCollected, create: d.fundsCreated },
        });
        if (kf.facts.endLt > shardsMaxEndLt) shardsMaxEndLt = kf.facts.endLt;
        now = Math.max(now, kf.info.genUtime + sameTime);
      }
      leaves = [...leaves.slice(0, i), ...newLeaves, ...leaves.slice(i + 1)];
    }
    adjusted = true;
  }
  const feeSum = fees.reduce((x, f) => shardFeesCodec.combine(x, f.extra), shardFeesCodec.empty());
  const feesImported: CurrencyCollection = feeSum.fees;
  const importCreated: CurrencyCollection = feeSum.create;

  // 3. lt, value creation, and the engine over the masterchain's accounts and the shards' queues.
  const startLt = alignStartLt(pv.lt > shardsMaxEndLt ? pv.lt : shardsMaxEndLt);
  const st = pv.state;
  const queue = readQueue(st.outMsgQueueInfo);
  const processed = readProcessed(st.outMsgQueueInfo);
  const wcLeaves = leaves.filter((l) => l.workchain !== MASTERCHAIN);
  const tops = topsOf(wcLeaves, a.shards);
  const e = createEngine({
    workchain: MASTERCHAIN,
    shard: MASTER_SHARD,
    config: cfg,
    now,
    startLt,
    randSeed: a.randSeed,
    libs: libsOf(st.r1.libraries),
    prevBlocks: prevBlocksInfo(pv),
    tvm: a.tvm,
    baseAccounts: st.accounts,
    queue,
    processed,
    shardEndLt: shardEndLtResolver(pv, wcLeaves, tops),
  });
  e.maxLt = startLt + (adjusted ? 1n : 0n);
  const neighbors = [
    { ...neighborOf(a.prev, true), queue: e.queue, processed },
    ...tops.map((t) => neighborOf(t, false)),
  ];
  dequeueDelivered(e, neighbors);
  await processInbound(e, neighbors);
  await processExternals(e, a.externals ?? []);
  enqueueNewMessages(e);
  if (e.maxLt === startLt) e.maxLt = startLt + 1n;
  const load = blockOverload(
    st.r1.overloadHistory,
    st.r1.underloadHistory,
    classifyLoad(cfg.mcBlockLimits, e.gasUsed, e.maxLt - startLt),
  );

  // 4. McStateExtra: shard configuration pass, validator info, prev_blocks, key block links, global balance.
  const cc = newCfg.catchain;
  const prevNow = pv.genUtime;
  const updateShardCc =
    keyBlock || Math.floor(now / cc.shardCatchainLifetime) > Math.floor(prevNow / cc.shardCatchainLifetime);
  const minRefShards = leaves.reduce((m, l) => Math.min(m, l.descr.minRefMcSeqno), 0xffffffff);
  const finalLeaves = updateShards(leaves, {
    now,
    updateCc: updateShardCc,
    workchains: newCfg.workchains,
    layout: a.layout,
  });
  const vi = pv.r1.validatorInfo;
  const ccUpdated = keyBlock || Math.floor(now / cc.mcCatchainLifetime) > Math.floor(prevNow / cc.mcCatchainLifetime);
  const newCc = vi.catchainSeqno + (ccUpdated ? 1 : 0);
  const newNodes = computeValidatorNodes(cc, MASTERCHAIN, MASTER_SHARD, newCfg.validators, newCc);
  const validatorInfo = {
    validatorListHashShort: validatorSetHash(0, newNodes),
    catchainSeqno: newCc,
    nxCcUpdated: ccUpdated && updateShardCc,
  };
  const added = { key: pv.r1.afterKeyBlock, blkRef: extBlkRefOf(a.prev) };
  const prevBlocks = augDictApply(
    pv.r1.prevBlocks.root,
    32,
    [{ key: BigInt(pv.seqno), put: { value: added, extra: keyMaxLtOf(added) } }],
    oldMcBlocksInfoCodec,
  );
  const lastKey = lastKeyBlock(pv);
  const oldGlobal = pv.extra.globalBalance;
  if (oldGlobal.otherPruned) throw new CollateError('pruned global_balance');
  const created = { coins: cfg.masterchainBlockFee };
  const globalBalance = addCurrencies(addCurrencies(oldGlobal, created), importCreated);
  const shardRoot = shardHashesRoot(finalLeaves);
  const configParams = { configAddr: newCfg.configAddr, config: newCfg.root };
  const stateExtra: McStateExtra = {
    shardHashes: shardRoot,
    config: configParams,
    r1: { flags: 0, validatorInfo, prevBlocks, afterKeyBlock: keyBlock, lastKeyBlock: lastKey, blockCreateStats: null },
    globalBalance,
  };
  const blockExtra: McBlockExtra = {
    keyBlock,
    shardHashes: hashesOf(finalLeaves),
    shardFees: { entries: fees, extra: feeSum, pruned: 0 },
    // The node leaves prev_blk_signatures empty ("TODO" in Collator::create_mc_block_extra).
    prevBlkSignatures: Dictionary.empty(Dictionary.Keys.Uint(16), cryptoSignaturePairValue),
    recoverCreateMsg: null,
    mintMsg: null,
    config: keyBlock ? configParams : null,
  };

  // 5. ProcessedUpto, min_ref_mc_seqno, the creating group, and the block.
  let procOut = processed;
  if (e.lastProcInt) procOut = insertProcessed(procOut, MASTER_SHARD, seqno, e.lastProcInt.lt, e.lastProcInt.hash);
  else if (e.inboundQueuesEmpty && pv.lt > 0n) procOut = insertProcessedInfty(procOut, MASTER_SHARD, seqno, pv.lt - 1n);
  procOut = compactifyProcessed(procOut);
  const minRefMcSeqno = procOut.reduce((m, p) => Math.min(m, p.mcSeqno), Math.min(seqno, minRefShards));
  const groupCc = vi.catchainSeqno;
  const group = computeValidatorNodes(cfg.catchain, MASTERCHAIN, MASTER_SHARD, cfg.validators, groupCc);
  if (!group.some((n) => n.publicKey.equals(a.validator.publicKey))) {
    throw new CollateError('collateMasterchainBlock: the validator is not in the masterchain validator group');
  }
  const oldFees = st.r1.totalValidatorFees;
  const block = assembleBlock({
    e,
    config: cfg,
    globalId: st.raw.globalId,
    seqno,
    prev: a.prev,
    prevRef: extBlkRefOf(a.prev),
    afterSplit: false,
    beforeSplit: false,
    wantSplit: load.wantSplit,
    wantMerge: load.wantMerge,
    keyBlock,
    overloadHistory: load.overloadHistory,
    underloadHistory: load.underloadHistory,
    fromPrevBlk: st.r1.totalBalance,
    oldTotalValidatorFees: addCurrencies(zeroCurrencies(), oldFees),
    processed: procOut,
    minRefMcSeqno,
    prevKeyBlockSeqno: lastKey.seqNo,
    validatorListHashShort: validatorSetHash(groupCc, group),
    catchainSeqno: groupCc,
    createdBy: a.validator.publicKey ?? firstValidatorKey(cfg),
    libraries: st.r1.libraries,
    masterRef: null,
    mcRefId: null,
    mc: {
      created,
      feesImported,
      burnedImported: burnedFees(cfg, feesImported.coins - importCreated.coins),
      stateExtra,
      blockExtra,
    },
  });
  const signature = signBlock(a.validator.seed, block.id.rootHash, block.id.fileHash);
  return {
    ...block,
    keyBlock,
    signatures: [{ nodeIdShort: nodeIdShort(a.validator.publicKey), signature }],
    validatorSetHash: validatorSetHash(groupCc, group),
    catchainSeqno: groupCc,
  };
}
