// The end of a collation (Collator::create_shard_state, compute_total_balance, create_block_info, create_block):
// the new ShardStateUnsplit, the ValueFlow whose balance equation must hold, the Merkle update from the previous
// state, the Block, and its file.
import { Address, beginCell, type Cell, type CurrencyCollection } from '@ton/core';
import { CollateError } from '../../common/errors.ts';
import {
  addCurrencies,
  type BlkMasterInfo,
  type BlkPrevInfo,
  type BlockExtra,
  type BlockIdExt,
  type BlockInfo,
  type ExtBlkRef,
  type GlobalVersion,
  inMsgDescrCodec,
  loadMerkleUpdate,
  type McBlockExtra,
  type McStateExtra,
  outMsgDescrCodec,
  type ShardStateUnsplit,
  shardIdent,
  storeBlock,
  storeShardStateUnsplit,
  type ValueFlow,
  zeroCurrencies,
} from '../../ton/index.ts';
import { type AccountRecord, updateAccounts } from './account-dict.ts';
import type { ChainConfig } from './config-view.ts';
import { accountBlocks, type Engine } from './engine.ts';
import type { ProcessedUptoRec } from './msg-queue.ts';
import { buildQueueInfo, chainFile } from './state-parts.ts';
import { buildStateUpdate } from './state-update.ts';
import type { ChainTop, CollatedBlock } from './types.ts';

export interface AssembleArgs {
  e: Engine;
  config: ChainConfig;
  globalId: number;
  seqno: number;
  /** The previous block (or zero state); after a split, the parent's last block. */
  prev: ChainTop;
  prevRef: ExtBlkRef;
  afterSplit: boolean;
  beforeSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  overloadHistory: bigint;
  underloadHistory: bigint;
  fromPrevBlk: CurrencyCollection;
  oldTotalValidatorFees: CurrencyCollection;
  processed: ProcessedUptoRec[];
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  validatorListHashShort: number;
  catchainSeqno: number;
  createdBy: Buffer;
  libraries: Cell | null;
  masterRef: BlkMasterInfo | null;
  mcRefId: BlockIdExt | null;
  /** Masterchain only. */
  mc?: {
    created: CurrencyCollection;
    feesImported: CurrencyCollection;
    /** Imported fees burnt by the burning config (already taken out of feesImported's contribution). */
    burnedImported: bigint;
    stateExtra: McStateExtra;
    blockExtra: McBlockExtra;
  };
  /** Shard blocks: value created by the block (ConfigParam 14 basechain fee >> depth). */
  created?: CurrencyCollection;
}

function sum<T>(xs: readonly T[], f: (x: T) => CurrencyCollection): CurrencyCollection {
  return xs.reduce((a, x) => addCurrencies(a, f(x)), zeroCurrencies());
}

function coinsOnly(c: bigint): CurrencyCollection {
  return { coins: c };
}

export function assembleBlock(a: AssembleArgs): CollatedBlock {
  const { e } = a;
  const isMc = e.workchain === -1;
  const shardAccountBlocks = accountBlocks(e);
  const newAccounts = updateAccounts(
    e.baseAccounts,
    [...e.touched.keys()].map((hex) => [hex, e.accounts.get(hex) as AccountRecord]),
  );
  const importFees = e.inMsgs.reduce((x, m) => inMsgDescrCodec.combine(x, m.extra), inMsgDescrCodec.empty());
  const exported = e.outMsgs.reduce((x, m) => outMsgDescrCodec.combine(x, m.extra), outMsgDescrCodec.empty());
  const txFees = sum(shardAccountBlocks, (b) => b.extra);

  const created = a.mc?.created ?? a.created ?? zeroCurrencies();
  const feesImported = a.mc?.feesImported ?? zeroCurrencies();
  let burned = a.mc?.burnedImported ?? 0n;
  let feesCollected = addCurrencies(created, coinsOnly(feesImported.coins - burned));
  const totalFees = addCurrencies(txFees, coinsOnly(importFees.feesCollected));
  feesCollected = addCurrencies(feesCollected, totalFees);
  if (isMc && a.config.burning) {
    const b = (totalFees.coins * BigInt(a.config.burning.feeBurnNum)) / BigInt(a.config.burning.feeBurnDenom);
    feesCollected = { ...feesCollected, coins: feesCollected.coins - b };
    burned += b;
  }
  const toNextBlk = newAccounts.extra.balance;
  const lhs = a.fromPrevBlk.coins + importFees.valueImported.coins + feesImported.coins + created.coins;
  const rhs = toNextBlk.coins + exported.coins + feesCollected.coins + burned;
  if (lhs !== rhs) {
    // Value taken by the masterchain blackhole account (BurningConfig) leaves no other trace in the block.
    if (!isMc || lhs < rhs) {
      throw new CollateError(
        `value flow does not balance: in ${lhs} != out ${rhs} (${e.workchain}:${e.shard.toString(16)})`,
      );
    }
    burned += lhs - rhs;
  }
  const common = {
    fromPrevBlk: a.fromPrevBlk,
    toNextBlk,
    imported: importFees.valueImported,
    exported,
    feesCollected,
    feesImported,
    recovered: zeroCurrencies(),
    created,
    minted: zeroCurrencies(),
  };
  const valueFlow: ValueFlow =
    burned === 0n ? { kind: 'value_flow', ...common } : { kind: 'value_flow_v2', burned: coinsOnly(burned), ...common };
  const totalValidatorFees = addCurrencies(a.oldTotalValidatorFees, feesCollected);

  const custom = a.mc ? a.mc.stateExtra : null;
  const storeSize = (a.config.globalVersion.capabilities & 64n) !== 0n;
  const state: ShardStateUnsplit = {
    kind: 'shard_state',
    globalId: a.globalId,
    shardId: shardIdent(e.workchain, e.shard),
    seqNo: a.seqno,
    vertSeqNo: 0,
    genUtime: e.now,
    genLt: e.maxLt,
    minRefMcSeqno: a.minRefMcSeqno,
    outMsgQueueInfo: buildQueueInfo(e.queue, a.processed, storeSize),
    beforeSplit: a.beforeSplit,
    accounts: newAccounts,
    r1: {
      overloadHistory: a.overloadHistory,
      underloadHistory: a.underloadHistory,
      totalBalance: toNextBlk,
      totalValidatorFees,
      libraries: a.libraries,
      masterRef: a.masterRef,
    },
    custom,
  };
  const stateCell = beginCell().store(storeShardStateUnsplit(state)).endCell();
  const updateCell = buildStateUpdate(a.prev.state, stateCell);
  const u = loadMerkleUpdate(updateCell.beginParse(true));

  const gv: GlobalVersion = a.config.globalVersion;
  const report = (gv.capabilities & 8n) !== 0n;
  const prevRef: BlkPrevInfo = { kind: 'prev_blk_info', prev: a.prevRef };
  const info: BlockInfo = {
    version: 0,
    notMaster: !isMc,
    afterMerge: false,
    beforeSplit: a.beforeSplit,
    afterSplit: a.afterSplit,
    wantSplit: a.wantSplit,
    wantMerge: a.wantMerge,
    keyBlock: a.keyBlock,
    vertSeqnoIncr: false,
    flags: report ? 1 : 0,
    seqNo: a.seqno,
    vertSeqNo: 0,
    shard: shardIdent(e.workchain, e.shard),
    genUtime: e.now,
    startLt: e.startLt,
    endLt: e.maxLt,
    genValidatorListHashShort: a.validatorListHashShort,
    genCatchainSeqno: a.catchainSeqno,
    minRefMcSeqno: a.minRefMcSeqno,
    prevKeyBlockSeqno: a.prevKeyBlockSeqno,
    genSoftware: report ? { version: gv.version, capabilities: gv.capabilities } : null,
    masterRef: a.masterRef,
    prevRef,
    prevVertRef: null,
  };
  const extra: BlockExtra = {
    inMsgDescr: { entries: e.inMsgs, extra: importFees, pruned: 0 },
    outMsgDescr: { entries: e.outMsgs, extra: exported, pruned: 0 },
    accountBlocks: { entries: shardAccountBlocks, extra: txFees, pruned: 0 },
    randSeed: e.randSeed,
    createdBy: a.createdBy,
    custom: a.mc?.blockExtra ?? null,
  };
  const block = beginCell()
    .store(
      storeBlock({
        globalId: a.globalId,
        info,
        valueFlow,
        stateUpdate: {
          cell: updateCell,
          oldHash: u.oldHash,
          newHash: u.newHash,
          oldDepth: u.oldDepth,
          newDepth: u.newDepth,
        },
        extra,
      }),
    )
    .endCell();
  const { boc, fileHash } = chainFile(block);
  const prevId: BlockIdExt = a.prev.id;
  return {
    id: { workchain: e.workchain, shard: e.shard, seqno: a.seqno, rootHash: block.hash(), fileHash },
    block,
    state: stateCell,
    boc,
    prev: prevId,
    mcRef: a.mcRefId,
    info,
    valueFlow,
    genUtime: e.now,
    startLt: e.startLt,
    endLt: e.maxLt,
    transactions: [...e.transactions].sort(
      (x, y) => Buffer.compare(x.account, y.account) || (x.lt < y.lt ? -1 : x.lt > y.lt ? 1 : 0),
    ),
    accounts: [...e.touched.keys()].map((hex) => ({
      address: new Address(e.workchain, Buffer.from(hex, 'hex')),
      shardAccount: (e.accounts.get(hex) as { cell: Cell }).cell,
    })),
    rejected: e.rejected,
    outbound: e.outbound,
    externalOut: e.externalOut,
  };
}
