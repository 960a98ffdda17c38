// getBlock, getBlockHeader, getState, lookupBlock, getAllShardsInfo, listBlockTransactions(Ext).
import { createHash } from 'node:crypto';
import { beginCell, type Cell, type Slice } from '@ton/core';
import { type BlockIdExt, buildMerkleProof, loadMsgEnvelope, trackCellUsage } from '../../ton/index.ts';
import type { LiteServerTransactionId, LiteServerTransactionMetadata } from '../tl/index.ts';
import { blockHeaderProof } from './block-proofs.ts';
import { dictLookupRoot, dictNearest, dictNearestRoot, open } from './cell-walk.ts';
import {
  type BlockExtraParts,
  blockParts,
  boc,
  readBlockExtra,
  readMcBlockExtra,
  skipCurrencyCollection,
  visitAll,
} from './chain-read.ts';
import type { BlockLookup } from './chain-view.ts';
import {
  type HandlerContext,
  type HandlerTable,
  loadBlock,
  loadState,
  requireMasterchainId,
} from './handler-context.ts';
import {
  addressKey,
  formatBlockId,
  formatShortId,
  fromTlBlockId,
  isValidFull,
  keyToAddress,
  toTlBlockId,
  toUnsigned64,
} from './ids.ts';
import { badRequest, notFound } from './lite-errors.ts';

const MAX_ANSWER_TRANSACTIONS = 256;
const MAX64 = (1n << 64n) - 1n;
const MAX256 = (1n << 256n) - 1n;

export const blockHandlers: HandlerTable = {
  'liteServer.getBlock': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    const rec = await loadBlock(ctx, id);
    if (!rec.data) throw notFound(`cannot load block ${formatBlockId(id)} : block data not in db`);
    return { _: 'liteServer.blockData', id: toTlBlockId(id), data: rec.data };
  },

  'liteServer.getBlockHeader': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    const rec = await loadBlock(ctx, id);
    const proof = blockHeaderProof(rec.root, id, q.mode);
    return { _: 'liteServer.blockHeader', id: toTlBlockId(id), mode: q.mode, headerProof: boc(proof) };
  },

  'liteServer.getState': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    if (!isValidFull(id)) throw badRequest('invalid BlockIdExt');
    if (id.seqno > 1000) throw badRequest('cannot request total state: possibly too large');
    if (id.seqno === 0) {
      const data = await ctx.view.zeroState?.(id);
      if (!data) throw notFound(`cannot load zerostate of ${formatBlockId(id)} : not in db`);
      return { _: 'liteServer.blockState', id: toTlBlockId(id), rootHash: id.rootHash, fileHash: id.fileHash, data };
    }
    await loadBlock(ctx, id);
    const state = await loadState(ctx, id);
    visitAll(state, `state of ${formatBlockId(id)}`);
    const data = boc(state);
    const fileHash = createHash('sha256').update(data).digest();
    return { _: 'liteServer.blockState', id: toTlBlockId(id), rootHash: state.hash(0), fileHash, data };
  },

  'liteServer.lookupBlock': async (q, ctx) => {
    const found = await lookup(ctx, q.mode, q.id, q.lt, q.utime);
    const rec = await loadBlock(ctx, found);
    const mode = q.mode >> 4;
    const proof = blockHeaderProof(rec.root, found, mode);
    return { _: 'liteServer.blockHeader', id: toTlBlockId(found), mode, headerProof: boc(proof) };
  },

  'liteServer.getAllShardsInfo': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    requireMasterchainId(id);
    const rec = await loadBlock(ctx, id);
    const what = `block ${formatBlockId(id)}`;
    const usage = trackCellUsage(rec.root);
    const extra = readBlockExtra(blockParts(usage.root, what), what);
    if (!extra.custom) throw badRequest(`cannot unpack header of block ${formatBlockId(id)}`);
    readMcBlockExtra(extra.custom, what);
    const proof = buildMerkleProof(rec.root, usage.visited);
    // The data is the whole ShardHashes, read from the untracked block so it stays out of the proof.
    const custom = readBlockExtra(blockParts(rec.root, what), what).custom as Cell;
    const shardHashes = readMcBlockExtra(custom, what).shardHashes;
    if (shardHashes) visitAll(shardHashes, `${what} shard_hashes`);
    const data = boc(beginCell().storeMaybeRef(shardHashes).endCell());
    return { _: 'liteServer.allShardsInfo', id: toTlBlockId(id), proof: boc(proof), data };
  },

  'liteServer.listBlockTransactions': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    const rec = await loadBlock(ctx, id);
    const withMetadata = (q.mode & 256) !== 0;
    const mode = q.mode & ~256;
    const wantProof = (mode & 32) !== 0;
    const usage = trackCellUsage(rec.root);
    const what = `block ${formatBlockId(id)}`;
    const extra = readBlockExtra(blockParts(wantProof ? usage.root : rec.root, what), what);
    const walk = walkTransactions(extra, q.mode, q.count, q.after);
    const ids: LiteServerTransactionId[] = walk.items.map(({ account, lt, cell }) => {
      const metadata = withMetadata ? inMsgMetadata(extra, cell, what) : null;
      const idMode = mode | (metadata ? 256 : 0);
      const txId: LiteServerTransactionId = { _: 'liteServer.transactionId', mode: idMode };
      if (idMode & 1) txId.account = keyToAddress(account);
      if (idMode & 2) txId.lt = lt;
      if (idMode & 4) txId.hash = cell.hash(0);
      if (metadata) txId.metadata = metadata;
      return txId;
    });
    const proof = wantProof ? boc(buildMerkleProof(rec.root, usage.visited)) : Buffer.alloc(0);
    return {
      _: 'liteServer.blockTransactions',
      id: toTlBlockId(id),
      reqCount: q.count,
      incomplete: !walk.eof,
      ids,
      proof,
    };
  },

  'liteServer.listBlockTransactionsExt': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    const rec = await loadBlock(ctx, id);
    let mode = q.mode;
    if (mode & 256) mode |= 32;
    const wantProof = (mode & 32) !== 0;
    const usage = trackCellUsage(rec.root);
    const what = `block ${formatBlockId(id)}`;
    const extra = readBlockExtra(blockParts(wantProof ? usage.root : rec.root, what), what);
    const walk = walkTransactions(extra, mode, q.count, q.after);
    if (mode & 256) for (const t of walk.items) inMsgMetadata(extra, t.cell, what);
    const proof = wantProof ? boc(buildMerkleProof(rec.root, usage.visited)) : Buffer.alloc(0);
    const transactions = walk.items.length > 0 ? boc(...walk.items.map((t) => t.cell)) : Buffer.alloc(0);
    return {
      _: 'liteServer.blockTransactionsExt',
      id: toTlBlockId(id),
      reqCount: q.count,
      incomplete: !walk.eof,
      transactions,
      proof,
    };
  },
};

/** lookupBlock's mode rule and the view lookup; 651 when the block is not found. */
export async function lookup(
  ctx: HandlerContext,
  mode: number,
  id: { workchain: number; shard: bigint; seqno: number },
  lt: bigint | undefined,
  utime: number | undefined,
): Promise<BlockIdExt> {
  if (!((1 << (mode & 7)) & 0x16)) throw badRequest('exactly one of mode.0, mode.1 and mode.2 bits must be set');
  const prefix = toUnsigned64(id.shard);
  const base = { workchain: id.workchain, prefix };
  const by: BlockLookup =
    mode & 2
      ? { ...base, lt: toUnsigned64(lt ?? 0n) }
      : mode & 4
        ? { ...base, utime: utime ?? 0 }
        : { ...base, seqno: id.seqno };
  const found = await ctx.view.lookupBlock(by);
  if (!found) {
    const key = 'lt' in by ? `lt ${by.lt}` : 'utime' in by ? `utime ${by.utime}` : `seqno ${by.seqno}`;
    throw notFound(`block not found: ${formatShortId({ ...id, seqno: 'seqno' in by ? by.seqno : 0 })} by ${key}`);
  }
  return found;
}

interface WalkedTransaction {
  account: bigint;
  lt: bigint;
  /** The ^Transaction cell (not opened: a proof carries its hash only). */
  cell: Cell;
}

/** finish_listBlockTransactions' traversal of ShardAccountBlocks (forward or reverse, resuming after `after`). */
function walkTransactions(
  extra: BlockExtraParts,
  mode: number,
  reqCount: number,
  after: { account: Buffer; lt: bigint } | undefined,
): { items: WalkedTransaction[]; eof: boolean } {
  const reverse = (mode & 64) !== 0;
  let accAddr = mode & 128 && after ? addressKey(after.account) : 0n;
  let transLt = mode & 128 && after ? toUnsigned64(after.lt) : 0n;
  if ((mode & 192) === 64) {
    accAddr = MAX256;
    transLt = MAX64;
  }
  const restart = reverse ? MAX64 : 0n;
  const s = open(extra.accountBlocks, 'ShardAccountBlocks');
  const root = s.loadBit() ? s.loadRef() : null;
  const items: WalkedTransaction[] = [];
  let eof = false;
  let allowSame = true;
  let curAddr = accAddr;
  const limit = Math.min(reqCount, MAX_ANSWER_TRANSACTIONS);
  while (!eof && items.length < limit) {
    const entry = dictNearestRoot(root, 256, curAddr, !reverse, allowSame, 'ShardAccountBlocks');
    if (!entry) {
      eof = true;
      break;
    }
    allowSame = false;
    curAddr = entry.key;
    if (curAddr !== accAddr) transLt = restart;
    const v = entry.value;
    skipCurrencyCollection(v);
    const tag = v.loadUint(4);
    const addr = v.loadBuffer(32);
    if (tag !== 5 || addressKey(addr) !== curAddr) {
      throw badRequest(`invalid AccountBlock for account ${keyToAddress(curAddr).toString('hex')}`);
    }
    let curTrans = transLt;
    while (items.length < limit) {
      const t = dictNearest(v.clone(), 64, curTrans, !reverse, false, 'AccountBlock transactions');
      if (!t) {
        transLt = restart;
        break;
      }
      skipCurrencyCollection(t.value);
      items.push({ account: curAddr, lt: t.key, cell: t.value.loadRef() });
      curTrans = t.key;
    }
  }
  return { items, eof };
}

const IMPORT_TAGS = new Set(['011', '100', '00100']);

/** get_in_msg_metadata: the metadata of the envelope that brought the transaction's inbound message. */
function inMsgMetadata(extra: BlockExtraParts, txCell: Cell, what: string): LiteServerTransactionMetadata | null {
  const tx = open(txCell, `${what} transaction`);
  if (tx.loadUint(4) !== 0b0111) throw badRequest('invalid Transaction in block');
  const r1 = open(tx.loadRef(), `${what} transaction`);
  if (!r1.loadBit()) return null;
  const msgHash = r1.loadRef().hash(0);
  const descr = open(extra.inMsgDescr, `${what} InMsgDescr`);
  const root = descr.loadBit() ? descr.loadRef() : null;
  const leaf = dictLookupRoot(root, 256, addressKey(msgHash), `${what} InMsgDescr`);
  if (!leaf) throw badRequest(`no InMsg in InMsgDescr for message with hash ${msgHash.toString('hex')}`);
  leaf.loadCoins();
  skipCurrencyCollection(leaf);
  const tag = inMsgTag(leaf);
  if (!IMPORT_TAGS.has(tag)) return null;
  const env = loadMsgEnvelope(open(leaf.loadRef(), `${what} MsgEnvelope`));
  if (env.kind !== 'msg_envelope_v2' || !env.metadata) return null;
  const m = env.metadata;
  return {
    _: 'liteServer.transactionMetadata',
    mode: 0,
    depth: m.depth,
    initiator: { _: 'liteServer.accountId', workchain: m.initiatorAddr.workChain, id: m.initiatorAddr.hash },
    initiatorLt: m.initiatorLt,
  };
}

/** The InMsg constructor: 3 bits, or 5 for the deferred ones ($00100, $00101). */
function inMsgTag(s: Slice): string {
  const t3 = s.loadUint(3).toString(2).padStart(3, '0');
  if (t3 !== '001') return t3;
  return t3 + s.loadUint(2).toString(2).padStart(2, '0');
}
