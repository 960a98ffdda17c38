// getOutMsgQueueSizes, getBlockOutMsgQueueSize, getDispatchQueueInfo, getDispatchQueueMessages: the
// outbound queue parts of a shard state (OutMsgQueueInfo and its OutMsgQueueExtra).
import type { Cell, Slice } from '@ton/core';
import {
  type BlockIdExt,
  buildMerkleProof,
  loadMsgEnvelope,
  shardIntersects,
  trackCellUsage,
} from '../../ton/index.ts';
import type { LiteServerDispatchQueueMessage, LiteServerTransactionMetadata } from '../tl/index.ts';
import { stateRootProof } from './block-proofs.ts';
import { dictNearest, dictNearestRoot, open } from './cell-walk.ts';
import { blockParts, boc, readBlockExtra, readMcBlockExtra, readMcStateExtra, readStateRoot } from './chain-read.ts';
import { SHARD_ALL } from './chain-view.ts';
import { type HandlerContext, type HandlerTable, loadBlock, loadState } from './handler-context.ts';
import {
  addressKey,
  formatBlockId,
  fromTlBlockId,
  keyToAddress,
  toTlBlockId,
  toUnsigned64,
  WORKCHAIN_INVALID,
} from './ids.ts';
import { badRequest, notFound } from './lite-errors.ts';

/** Collator::get_skip_externals_queue_size(): the queue size above which collators skip external messages. */
const EXT_MSG_QUEUE_SIZE_LIMIT = 8000;
const MAX64 = (1n << 64n) - 1n;

interface QueueExtra {
  /** DispatchQueue root (HashmapAugE 256 AccountDispatchQueue uint64), null when empty or absent. */
  dispatchRoot: Cell | null;
  outQueueSize: bigint | null;
  present: boolean;
}

/** OutMsgQueueInfo: out_queue:OutMsgQueue proc_info:ProcessedInfo extra:(Maybe OutMsgQueueExtra). */
function queueExtra(state: Cell, id: BlockIdExt): QueueExtra {
  const what = `state of ${formatBlockId(id)}`;
  const st = readStateRoot(state, what);
  const s = open(st.outMsgQueueInfo, `${what} OutMsgQueueInfo`);
  if (s.loadBit()) s.loadRef();
  s.skip(64);
  if (s.loadBit()) s.loadRef();
  if (!s.loadBit()) return { dispatchRoot: null, outQueueSize: null, present: false };
  if (s.loadUint(4) !== 0) throw badRequest('cannot unpack OutMsgQueueExtra');
  const dispatchRoot = s.loadBit() ? s.loadRef() : null;
  s.skip(64);
  const outQueueSize = s.loadBit() ? s.loadUintBig(48) : null;
  return { dispatchRoot, outQueueSize, present: true };
}

async function stateProofs(ctx: HandlerContext, id: BlockIdExt, state: Cell, usage: ReturnType<typeof trackCellUsage>) {
  const rec = await loadBlock(ctx, id);
  return boc(stateRootProof(rec.root, id, state.hash(0)), buildMerkleProof(state, usage.visited));
}

/** Shard tops of the last masterchain block: from its state, or from the block's McBlockExtra (same table). */
async function shardTops(ctx: HandlerContext, last: BlockIdExt): Promise<BlockIdExt[]> {
  const state = await ctx.view.shardState(last);
  let shardHashes: Cell | null;
  if (state) {
    const what = `masterchain state of ${formatBlockId(last)}`;
    shardHashes = readMcStateExtra(readStateRoot(state, what), what).shardHashes;
  } else {
    const rec = await loadBlock(ctx, last);
    const what = `block ${formatBlockId(last)}`;
    const custom = readBlockExtra(blockParts(rec.root, what), what).custom;
    if (!custom) throw badRequest(`cannot unpack McBlockExtra of ${what}`);
    shardHashes = readMcBlockExtra(custom, what).shardHashes;
  }
  const out: BlockIdExt[] = [];
  if (!shardHashes) return out;
  const walkTree = (wc: number, cell: Cell, shard: bigint) => {
    const s = open(cell, 'shard_hashes');
    if (!s.loadBit()) {
      s.loadUint(4);
      const seqno = s.loadUint(32);
      s.skip(32 + 64 + 64);
      out.push({ workchain: wc, shard, seqno, rootHash: s.loadBuffer(32), fileHash: s.loadBuffer(32) });
      return;
    }
    const delta = (shard & -shard) >> 1n;
    const left = s.loadRef();
    const right = s.loadRef();
    walkTree(wc, left, shard - delta);
    walkTree(wc, right, shard + delta);
  };
  let key = 0n;
  let first = true;
  for (;;) {
    const e = dictNearestRoot(shardHashes, 32, key, true, first, 'shard_hashes');
    if (!e) break;
    first = false;
    key = e.key;
    walkTree(Number(BigInt.asIntN(32, e.key)), e.value.loadRef(), SHARD_ALL);
  }
  return out;
}

async function queueSize(ctx: HandlerContext, id: BlockIdExt): Promise<number> {
  const fromView = await ctx.view.outMsgQueueSize?.(id);
  if (fromView !== undefined && fromView !== null) return fromView;
  const extra = queueExtra(await loadState(ctx, id), id);
  if (extra.outQueueSize === null) throw notFound(`out_msg_queue_size of ${formatBlockId(id)} is not known`);
  return Number(extra.outQueueSize);
}

function metadataOf(env: ReturnType<typeof loadMsgEnvelope>): LiteServerTransactionMetadata {
  if (env.kind === 'msg_envelope_v2' && env.metadata) {
    const m = env.metadata;
    return {
      _: 'liteServer.transactionMetadata',
      mode: 0,
      depth: m.depth,
      initiator: { _: 'liteServer.accountId', workchain: m.initiatorAddr.workChain, id: m.initiatorAddr.hash },
      initiatorLt: m.initiatorLt,
    };
  }
  return {
    _: 'liteServer.transactionMetadata',
    mode: 0,
    depth: -1,
    initiator: { _: 'liteServer.accountId', workchain: WORKCHAIN_INVALID, id: Buffer.alloc(32) },
    initiatorLt: -1n,
  };
}

/** AccountDispatchQueue: _ messages:(HashmapE 64 EnqueuedMsg) count:uint48 — the messages' dictionary root. */
function accountQueue(value: Slice, what: string): { root: Cell | null; count: bigint } {
  value.skip(64);
  const root = value.loadBit() ? value.loadRef() : null;
  const count = value.loadUintBig(48);
  if (count === 0n) throw badRequest(`invalid account dispatch queue in ${what}`);
  return { root, count };
}

export const queueHandlers: HandlerTable = {
  'liteServer.getOutMsgQueueSizes': async (q, ctx) => {
    const info = await ctx.view.masterchainInfo();
    const filter = q.mode & 1 ? { wc: q.wc ?? 0, shard: toUnsigned64(q.shard ?? 0n) } : null;
    const keep = (id: BlockIdExt) => !filter || (id.workchain === filter.wc && shardIntersects(filter.shard, id.shard));
    const blocks = [info.last, ...(await shardTops(ctx, info.last))].filter(keep);
    const shards = [];
    for (const id of blocks)
      shards.push({ _: 'liteServer.outMsgQueueSize' as const, id: toTlBlockId(id), size: await queueSize(ctx, id) });
    return { _: 'liteServer.outMsgQueueSizes', shards, extMsgQueueSizeLimit: EXT_MSG_QUEUE_SIZE_LIMIT };
  },

  'liteServer.getBlockOutMsgQueueSize': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    await loadBlock(ctx, id);
    const state = await loadState(ctx, id);
    const withProof = (q.mode & 1) !== 0;
    const usage = trackCellUsage(state);
    const extra = queueExtra(withProof ? usage.root : state, id);
    if (!extra.present || extra.outQueueSize === null) throw badRequest('no out_msg_queue_size in shard state');
    const r: {
      _: 'liteServer.blockOutMsgQueueSize';
      mode: number;
      id: ReturnType<typeof toTlBlockId>;
      size: bigint;
      proof?: Buffer;
    } = {
      _: 'liteServer.blockOutMsgQueueSize',
      mode: q.mode,
      id: toTlBlockId(id),
      size: extra.outQueueSize,
    };
    if (withProof) r.proof = await stateProofs(ctx, id, state, usage);
    return r;
  },

  'liteServer.getDispatchQueueInfo': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    if (q.maxAccounts <= 0) throw badRequest('invalid max_accounts');
    await loadBlock(ctx, id);
    const state = await loadState(ctx, id);
    const withProof = (q.mode & 1) !== 0;
    const usage = trackCellUsage(state);
    const { dispatchRoot } = queueExtra(withProof ? usage.root : state, id);
    const what = `dispatch queue of ${formatBlockId(id)}`;
    let remaining = Math.min(q.maxAccounts, 64);
    let complete = false;
    let allowEq = !(q.mode & 2);
    let after = q.mode & 2 && q.afterAddr ? addressKey(q.afterAddr) : 0n;
    const result = [];
    for (;;) {
      const e = dictNearestRoot(dispatchRoot, 256, after, true, allowEq, what);
      allowEq = false;
      if (!e) {
        complete = true;
        break;
      }
      if (remaining === 0) break;
      remaining--;
      after = e.key;
      const { root, count } = accountQueue(e.value, what);
      const min = root ? dictNearestRoot(root, 64, 0n, true, true, what) : null;
      const max = root ? dictNearestRoot(root, 64, MAX64, false, true, what) : null;
      result.push({
        _: 'liteServer.accountDispatchQueueInfo' as const,
        addr: keyToAddress(e.key),
        size: count,
        minLt: min?.key ?? 0n,
        maxLt: max?.key ?? 0n,
      });
    }
    const r: {
      _: 'liteServer.dispatchQueueInfo';
      mode: number;
      id: ReturnType<typeof toTlBlockId>;
      accountDispatchQueues: typeof result;
      complete: boolean;
      proof?: Buffer;
    } = {
      _: 'liteServer.dispatchQueueInfo',
      mode: q.mode,
      id: toTlBlockId(id),
      accountDispatchQueues: result,
      complete,
    };
    if (withProof) r.proof = await stateProofs(ctx, id, state, usage);
    return r;
  },

  'liteServer.getDispatchQueueMessages': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    if (q.maxMessages <= 0) throw badRequest('invalid max_messages');
    await loadBlock(ctx, id);
    const state = await loadState(ctx, id);
    const withProof = (q.mode & 1) !== 0;
    const oneAccount = (q.mode & 2) !== 0;
    const withBoc = (q.mode & 4) !== 0;
    const usage = trackCellUsage(state);
    const { dispatchRoot } = queueExtra(withProof ? usage.root : state, id);
    const what = `dispatch queue of ${formatBlockId(id)}`;
    let remaining = Math.min(q.maxMessages, withBoc ? 16 : 64);
    let complete = false;
    const messages: LiteServerDispatchQueueMessage[] = [];
    const roots: Cell[] = [];
    const orig = addressKey(q.addr);
    let addr = orig;
    let lt = q.afterLt < 0n ? 0n : toUnsigned64(q.afterLt);
    let first = true;
    while (remaining > 0) {
      const e = dictNearestRoot(dispatchRoot, 256, addr, true, first, what);
      if (!e || (oneAccount && e.key !== orig)) {
        complete = true;
        break;
      }
      addr = e.key;
      const { root } = accountQueue(e.value, what);
      for (;;) {
        const m = root ? dictNearest(open(root, what), 64, lt, true, false, what) : null;
        if (!m) break;
        lt = m.key;
        if (remaining === 0) break;
        remaining--;
        // EnqueuedMsg: enqueued_lt:uint64 out_msg:^MsgEnvelope
        m.value.skip(64);
        const env = loadMsgEnvelope(open(m.value.loadRef(), `${what} MsgEnvelope`));
        roots.push(env.msg);
        messages.push({
          _: 'liteServer.dispatchQueueMessage',
          addr: keyToAddress(addr),
          lt,
          hash: env.msg.hash(0),
          metadata: metadataOf(env),
        });
      }
      first = false;
      lt = 0n;
    }
    const r: {
      _: 'liteServer.dispatchQueueMessages';
      mode: number;
      id: ReturnType<typeof toTlBlockId>;
      messages: LiteServerDispatchQueueMessage[];
      complete: boolean;
      proof?: Buffer;
      messagesBoc?: Buffer;
    } = { _: 'liteServer.dispatchQueueMessages', mode: q.mode, id: toTlBlockId(id), messages, complete };
    if (withProof) r.proof = await stateProofs(ctx, id, state, usage);
    if (withBoc) r.messagesBoc = roots.length > 0 ? boc(...roots) : Buffer.alloc(0);
    return r;
  },
};
