// getOneTransaction (with its block proof) and getTransactions (the prev_trans_lt/hash chain, no proof).
import type { Cell } from '@ton/core';
import { LiteServerError } from '../../common/index.ts';
import {
  accountPrefix,
  type BlockIdExt,
  buildMerkleProof,
  shardContains,
  shardIdOf,
  trackCellUsage,
} from '../../ton/index.ts';
import { dictLookup, dictLookupRoot, open } from './cell-walk.ts';
import { blockParts, boc, readBlockExtra, readBlockInfo, skipCurrencyCollection } from './chain-read.ts';
import { type HandlerContext, type HandlerTable, loadBlock } from './handler-context.ts';
import {
  addressKey,
  formatBlockId,
  fromTlBlockId,
  isValidFull,
  toTlBlockId,
  toUnsigned64,
  WORKCHAIN_INVALID,
} from './ids.ts';
import { badRequest, LITE_NOT_FOUND, notFound } from './lite-errors.ts';

/** The node's max_transaction_count for one getTransactions answer. */
const MAX_TRANSACTION_COUNT = 16;

export const transactionHandlers: HandlerTable = {
  'liteServer.getOneTransaction': async (q, ctx) => {
    const id = fromTlBlockId(q.id);
    if (!isValidFull(id)) throw badRequest('block id in getOneTransaction() is invalid');
    const wc = q.account.workchain;
    if (wc !== id.workchain || !shardContains(id.shard, accountPrefix(q.account.id))) {
      throw badRequest('requested account id is not contained in the shard of the specified block');
    }
    const rec = await loadBlock(ctx, id);
    const usage = trackCellUsage(rec.root);
    const tx = blockTransaction(usage.root, id, wc, q.account.id, toUnsigned64(q.lt), true);
    const proof = buildMerkleProof(rec.root, usage.visited);
    // The transaction itself from the untracked block: its cells stay out of the proof (the proof has its hash).
    const txCell = tx ? blockTransaction(rec.root, id, wc, q.account.id, toUnsigned64(q.lt), true) : null;
    return {
      _: 'liteServer.transactionInfo',
      id: toTlBlockId(id),
      proof: boc(proof),
      transaction: txCell ? boc(txCell) : Buffer.alloc(0),
    };
  },

  'liteServer.getTransactions': async (q, ctx) => {
    const count = Math.min(q.count, MAX_TRANSACTION_COUNT);
    const wc = q.account.workchain;
    if (wc === WORKCHAIN_INVALID) throw badRequest('invalid workchain specified');
    const chain = await transactionChain(ctx, wc, q.account.id, toUnsigned64(q.lt), q.hash, count);
    return {
      _: 'liteServer.transactionList',
      ids: chain.map((t) => toTlBlockId(t.block)),
      transactions: chain.length > 0 ? boc(...chain.map((t) => t.cell)) : Buffer.alloc(0),
    };
  },
};

/**
 * block::get_block_transaction: root, BlockInfo (shard check), BlockExtra, ShardAccountBlocks[addr],
 * AccountBlock.transactions[lt]; returns the ^Transaction cell (not opened) or null.
 */
export function blockTransaction(
  root: Cell,
  id: BlockIdExt,
  workchain: number,
  address: Buffer,
  lt: bigint,
  checkShard: boolean,
): Cell | null {
  const what = `block ${formatBlockId(id)}`;
  const parts = blockParts(root, what);
  const info = readBlockInfo(parts, what);
  if (
    checkShard &&
    (info.shard.workchainId !== workchain || !shardContains(shardIdOf(info.shard), accountPrefix(address)))
  ) {
    throw badRequest(`requested account is not contained in the shard of block ${formatBlockId(id)}`);
  }
  const extra = readBlockExtra(parts, what);
  const s = open(extra.accountBlocks, `${what} ShardAccountBlocks`);
  const accRoot = s.loadBit() ? s.loadRef() : null;
  const acc = dictLookupRoot(accRoot, 256, addressKey(address), `${what} ShardAccountBlocks`);
  if (!acc) return null;
  skipCurrencyCollection(acc);
  const tag = acc.loadUint(4);
  if (tag !== 5 || !acc.loadBuffer(32).equals(address)) {
    throw badRequest(`invalid AccountBlock for account ${address.toString('hex')} in ${what}`);
  }
  const leaf = dictLookup(acc, 64, lt, `${what} AccountBlock transactions`);
  if (!leaf) return null;
  skipCurrencyCollection(leaf);
  return leaf.loadRef();
}

interface ChainedTransaction {
  block: BlockIdExt;
  cell: Cell;
}

/** continue_getTransactions: follow prev_trans_lt/hash from (lt, hash) through the blocks holding them. */
async function transactionChain(
  ctx: HandlerContext,
  workchain: number,
  address: Buffer,
  startLt: bigint,
  startHash: Buffer,
  count: number,
): Promise<ChainedTransaction[]> {
  const out: ChainedTransaction[] = [];
  const prefix = accountPrefix(address);
  let lt = startLt;
  let hash = startHash;
  // Stop quietly once something was found: a later block the node cannot serve ends the list, as in the node.
  const stop = (e: LiteServerError): ChainedTransaction[] => {
    if (out.length === 0) throw e;
    return out;
  };
  while (out.length < count && lt !== 0n) {
    const found = await ctx.view.lookupBlock({ workchain, prefix, lt });
    if (!found) {
      return stop(notFound('cannot compute block with specified transaction: ltdb: block not found'));
    }
    const rec = await ctx.view.block(found);
    if (!rec) return stop(notFound(`cannot load block ${formatBlockId(found)} with specified transaction: not in db`));
    if (found.workchain !== workchain || !shardContains(found.shard, prefix)) {
      throw badRequest('obtained a block that cannot contain specified account');
    }
    let exact = true;
    for (;;) {
      let cell: Cell | null;
      try {
        cell = blockTransaction(rec.root, found, workchain, address, lt, false);
      } catch (e) {
        if (e instanceof LiteServerError && e.liteCode === LITE_NOT_FOUND) return stop(e);
        throw e;
      }
      if (!cell) {
        if (exact) {
          if (out.length === 0) throw badRequest('cannot locate transaction in block with specified logical time');
          return out;
        }
        break;
      }
      if (!cell.hash(0).equals(hash)) throw badRequest('transaction hash mismatch');
      const prev = prevTransaction(cell);
      if (prev.lt >= lt) throw badRequest('previous transaction time is not less than the current one');
      out.push({ block: found, cell });
      lt = prev.lt;
      hash = prev.hash;
      exact = false;
      if (out.length >= count || lt === 0n) return out;
    }
  }
  return out;
}

/** transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64 … */
function prevTransaction(cell: Cell): { hash: Buffer; lt: bigint } {
  const s = open(cell, 'transaction');
  if (s.loadUint(4) !== 0b0111) throw badRequest('cannot unpack transaction');
  s.skip(256 + 64);
  const hash = s.loadBuffer(32);
  return { hash, lt: s.loadUintBig(64) };
}
