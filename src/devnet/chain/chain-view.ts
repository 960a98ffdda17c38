// Decoded views of a chain top (block + state cells), computed once per cell: what a collation reads from the
// previous state, the masterchain state it refers to, and the neighbours' blocks.
import type { Cell, Slice } from '@ton/core';
import { CollateError } from '../../common/errors.ts';
import {
  type BlockIdExt,
  type BlockInfo,
  binTreeLeaves,
  type ExtBlkRef,
  isPruned,
  type KeyExtBlkRef,
  loadBlockInfo,
  loadHmLabel,
  loadKeyExtBlkRef,
  loadKeyMaxLt,
  loadShardStateUnsplit,
  loadValueFlow,
  MASTER_SHARD,
  MASTERCHAIN,
  type McStateExtra,
  type McStateExtraR1,
  mcStateShardHashes,
  type OutMsgQueueInfo,
  type Prunable,
  type ShardAccounts,
  type ShardDescr,
  type ShardHashes,
  type ShardStateUnsplit,
  type ShardStateUnsplitR1,
  shardIdFromPath,
  shardIdOf,
  type ValueFlow,
} from '../../ton/index.ts';
import type { PrevBlocksInfo } from '../../tvm/index.ts';
import { type ChainConfig, readChainConfig } from './config-view.ts';
import type { ChainTop } from './types.ts';

function whole<T>(v: Prunable<T>, what: string): T {
  if (isPruned(v)) throw new CollateError(`${what} is a pruned branch: the collator needs complete states`);
  return v;
}

export interface StateView {
  raw: ShardStateUnsplit;
  workchain: number;
  shard: bigint;
  seqno: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
  beforeSplit: boolean;
  outMsgQueueInfo: OutMsgQueueInfo;
  accounts: ShardAccounts;
  r1: ShardStateUnsplitR1;
  custom: McStateExtra | null;
}

const stateCache = new WeakMap<Cell, StateView>();

export function viewState(state: Cell): StateView {
  const hit = stateCache.get(state);
  if (hit) return hit;
  const s = state.beginParse();
  const raw = loadShardStateUnsplit(s);
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) throw new CollateError('ShardState: trailing data');
  const v: StateView = {
    raw,
    workchain: raw.shardId.workchainId,
    shard: shardIdOf(raw.shardId),
    seqno: raw.seqNo,
    genUtime: raw.genUtime,
    genLt: raw.genLt,
    minRefMcSeqno: raw.minRefMcSeqno,
    beforeSplit: raw.beforeSplit,
    outMsgQueueInfo: whole(raw.outMsgQueueInfo, 'OutMsgQueueInfo'),
    accounts: whole(raw.accounts, 'ShardAccounts'),
    r1: whole(raw.r1, 'ShardStateUnsplit ^[...]'),
    custom: raw.custom === null ? null : whole(raw.custom, 'McStateExtra'),
  };
  stateCache.set(state, v);
  return v;
}

const infoCache = new WeakMap<Cell, BlockInfo>();
const flowCache = new WeakMap<Cell, ValueFlow>();

export function viewBlockInfo(block: Cell): BlockInfo {
  let v = infoCache.get(block);
  if (!v) {
    v = loadBlockInfo((block.refs[0] as Cell).beginParse());
    infoCache.set(block, v);
  }
  return v;
}

export function viewValueFlow(block: Cell): ValueFlow {
  let v = flowCache.get(block);
  if (!v) {
    v = loadValueFlow((block.refs[1] as Cell).beginParse());
    flowCache.set(block, v);
  }
  return v;
}

/** end_lt of a chain top: the block's end_lt, or the zero state's gen_lt. */
export function topEndLt(top: ChainTop): bigint {
  return top.block ? viewBlockInfo(top.block).endLt : viewState(top.state).genLt;
}

/** ExtBlkRef of a chain top (how the next block, or master_ref, refers to it). */
export function extBlkRefOf(top: ChainTop): ExtBlkRef {
  return { endLt: topEndLt(top), seqNo: top.id.seqno, rootHash: top.id.rootHash, fileHash: top.id.fileHash };
}

export interface ShardTop {
  workchain: number;
  shard: bigint;
  descr: ShardDescr;
}

export interface McView {
  top: ChainTop;
  state: StateView;
  extra: McStateExtra;
  r1: McStateExtraR1;
  config: ChainConfig;
  shardHashes: ShardHashes;
  shards: ShardTop[];
  seqno: number;
  /** The masterchain block's end_lt (= the state's gen_lt): config_->lt of the node. */
  lt: bigint;
  genUtime: number;
}

const mcCache = new WeakMap<Cell, McView>();

export function viewMc(top: ChainTop): McView {
  const hit = mcCache.get(top.state);
  if (hit?.top.id.rootHash.equals(top.id.rootHash)) return hit;
  const state = viewState(top.state);
  if (state.workchain !== MASTERCHAIN || !state.custom) {
    throw new CollateError(`expected a masterchain state, got a state of workchain ${state.workchain}`);
  }
  const extra = state.custom;
  const shardHashes = mcStateShardHashes(extra);
  const shards: ShardTop[] = [];
  for (const [workchain, tree] of shardHashes) {
    for (const { path, leaf } of binTreeLeaves(tree))
      shards.push({ workchain, shard: shardIdFromPath(path), descr: leaf });
  }
  const v: McView = {
    top,
    state,
    extra,
    r1: whole(extra.r1, 'McStateExtra ^[...]'),
    config: readChainConfig(extra.config.config),
    shardHashes,
    shards,
    seqno: state.seqno,
    lt: state.genLt,
    genUtime: state.genUtime,
  };
  mcCache.set(top.state, v);
  return v;
}

/** Walks a HashmapAug(E) root to `key`; returns the leaf slice positioned at its extra, or null. */
export function augDictLookup(root: Cell | null, keyBits: number, key: bigint): Slice | null {
  if (root === null) return null;
  let cell = root;
  let n = keyBits;
  let rest = key;
  for (;;) {
    const s = cell.beginParse();
    const label = loadHmLabel(s, n);
    const top = n === label.len ? rest : rest >> BigInt(n - label.len);
    if (top !== label.bits) return null;
    n -= label.len;
    rest &= n === 0 ? 0n : (1n << BigInt(n)) - 1n;
    if (n === 0) return s;
    const bit = (rest >> BigInt(n - 1)) & 1n;
    cell = s.loadRef();
    if (bit === 1n) cell = s.loadRef();
    n -= 1;
    rest &= n === 0 ? 0n : (1n << BigInt(n)) - 1n;
  }
}

/** An older masterchain block of `mc`'s OldMcBlocksInfo (prev_blocks), or `mc` itself. */
export function mcBlockRef(mc: McView, seqno: number): KeyExtBlkRef | null {
  if (seqno === mc.seqno) {
    return {
      key: mc.r1.afterKeyBlock,
      blkRef: { endLt: mc.lt, seqNo: mc.seqno, rootHash: mc.top.id.rootHash, fileHash: mc.top.id.fileHash },
    };
  }
  const s = augDictLookup(mc.r1.prevBlocks.root, 32, BigInt(seqno));
  if (!s) return null;
  loadKeyMaxLt(s);
  return loadKeyExtBlkRef(s);
}

function mcId(ref: ExtBlkRef): BlockIdExt {
  return {
    workchain: MASTERCHAIN,
    shard: MASTER_SHARD,
    seqno: ref.seqNo,
    rootHash: ref.rootHash,
    fileHash: ref.fileHash,
  };
}

/** ConfigInfo::get_last_key_block (non-strict): the masterchain state itself if it is a key state. */
export function lastKeyBlock(mc: McView): ExtBlkRef {
  if (mc.r1.afterKeyBlock) {
    return { endLt: mc.lt, seqNo: mc.seqno, rootHash: mc.top.id.rootHash, fileHash: mc.top.id.fileHash };
  }
  if (!mc.r1.lastKeyBlock) throw new CollateError('masterchain state has no last key block');
  return mc.r1.lastKeyBlock;
}

const prevBlocksCache = new WeakMap<Cell, PrevBlocksInfo>();

/** ConfigInfo::get_prev_blocks_info: c7 PREVBLOCKS for transactions collated against `mc`. */
export function prevBlocksInfo(mc: McView): PrevBlocksInfo {
  const hit = prevBlocksCache.get(mc.top.state);
  if (hit) return hit;
  const byRef = (seqno: number): BlockIdExt => {
    const r = mcBlockRef(mc, seqno);
    if (!r) throw new CollateError(`masterchain block ${seqno} is missing from prev_blocks`);
    return mcId(r.blkRef);
  };
  const lastMcBlocks: BlockIdExt[] = [];
  for (let seqno = mc.seqno; seqno >= 0 && lastMcBlocks.length < 16; seqno--) lastMcBlocks.push(byRef(seqno));
  const info: PrevBlocksInfo = { lastMcBlocks, prevKeyBlock: mcId(lastKeyBlock(mc)) };
  if (mc.config.globalVersion.version >= 9) {
    const list: BlockIdExt[] = [];
    for (let seqno = Math.floor(mc.seqno / 100) * 100; list.length < 16; seqno -= 100) {
      list.push(byRef(seqno));
      if (seqno < 100) break;
    }
    info.lastMcBlocks100 = list;
  }
  prevBlocksCache.set(mc.top.state, info);
  return info;
}
