// getBlockTransactions, getBlockTransactionsExt, getTransactions, getTransactionsStd, tryLocateResultTx
// (tryLocateTx), tryLocateSourceTx (v2-api.md §6.3).
//
// Paging as toncenter 2.1 does it (ton-http-api-cpp tonlib_worker_transactions.cpp):
// - a block's transactions are ordered by (account, lt); the cursor after_hash + after_lt is the last item's
//   account and lt, exclusive; the server asks the liteserver for ≤256 at a time until `count` or the end;
// - an account's history runs newest first from lt + hash (inclusive; the head's last transaction when absent),
//   following each transaction's prev_trans_lt/hash, until `limit`, a transaction with lt <= to_lt, or lt 0.
import type { Address, Cell } from '@ton/core';
import { LiteServerError, ProofError } from '../../../common/index.ts';
import { HttpError } from '../../../http/errors.ts';
import { isHistoryMiss, type LiteMethods } from '../../../lite/index.ts';
import { accountPrefix, parseAddress, parseBoc } from '../../../ton/index.ts';
import { LATEST_TTL_MS } from '../cache.ts';
import type { V2Context } from '../context.ts';
import type { V2Params } from '../params.ts';
import { readHeaderProof, shortTxIdJson, tonBlockIdExt } from '../render/block.ts';
import {
  type DecodedTransaction,
  decodeTransaction,
  extTransactionJson,
  rawTransactionJson,
  transactionExtJson,
  transactionIdJson,
} from '../render/transaction.ts';
import {
  type BlockIdTl,
  type BlockParams,
  blockKey,
  blockParams,
  cached,
  FOREVER,
  lookupBlock,
  pinned,
  resolveBlock,
} from './block-reads.ts';
import { invalid, optInt64 } from './checks.ts';
import type { V2Method } from './types.ts';
import { addressParam } from './utilities.ts';

/** The most transactions a liteserver gives per listBlockTransactions(Ext) call. */
const BLOCK_CHUNK = 256;
/** The most transactions a liteserver gives per getTransactions call. */
const HISTORY_CHUNK = 16;
/** toncenter 2.1's bounds (v2-api.md §6.0). */
const MAX_BLOCK_COUNT = 10_000;
const MAX_LIMIT = 1000;
/** List mode: account, lt and hash of each, `after` given (the first page starts after account 0, lt 0). */
const LIST_MODE = 1 | 2 | 4 | 128;
const ZERO_HASH = Buffer.alloc(32);

// ---- a block's transactions ---------------------------------------------------------------------------------

interface BlockTxParams {
  block: BlockParams;
  count: number;
  after: { account: Buffer; lt: bigint };
}

function blockTxParams(p: V2Params): BlockTxParams {
  const block = blockParams(p);
  const count = optInt64(p, 'count') ?? 40n;
  if (count <= 0n) throw invalid('count should be positive');
  if (count > BigInt(MAX_BLOCK_COUNT)) throw invalid(`count should be less or equal ${MAX_BLOCK_COUNT}`);
  const afterLt = optInt64(p, 'after_lt');
  if (afterLt !== undefined && afterLt < 0n) throw invalid('after_lt should be non-negative');
  const afterText = p.optString('after_hash');
  if ((afterLt !== undefined) !== (afterText !== undefined)) {
    throw invalid('after_lt and after_hash should be used together');
  }
  // after_hash is an account: any address form (its workchain ignored) or the 32 bytes as a hash.
  let account: Buffer = ZERO_HASH;
  if (afterText !== undefined) {
    try {
      account = parseAddress(afterText).address.hash;
    } catch {
      account = p.hash('after_hash');
    }
  }
  return { block, count: Number(count), after: { account, lt: afterLt ?? 0n } };
}

/** Pages through a block on one server until `count` items or the end, the way ton-http-api-cpp loops. */
async function walkBlock<T>(
  count: number,
  first: { account: Buffer; lt: bigint },
  chunk: (
    n: number,
    after: { account: Buffer; lt: bigint },
  ) => Promise<{
    id: BlockIdTl;
    items: T[];
    incomplete: boolean;
    last: { account: Buffer; lt: bigint } | null;
  }>,
): Promise<{ id: BlockIdTl; items: T[]; incomplete: boolean }> {
  const items: T[] = [];
  let after = first;
  for (;;) {
    const page = await chunk(Math.min(BLOCK_CHUNK, count - items.length), after);
    items.push(...page.items);
    if (page.last) after = page.last;
    if (items.length >= count || !page.incomplete || page.items.length === 0) {
      return { id: page.id, items, incomplete: page.incomplete };
    }
  }
}

async function listShort(c: LiteMethods, id: BlockIdTl, n: number, after: { account: Buffer; lt: bigint }) {
  const res = await c.queryTl({
    _: 'liteServer.listBlockTransactions',
    id,
    mode: LIST_MODE,
    count: n,
    after,
    reverseOrder: false,
    wantProof: false,
  });
  const items = res.ids.map((t) => {
    if (!t.account || t.lt === undefined || !t.hash) {
      throw new ProofError(`listBlockTransactions: the liteserver left out a field of mode ${t.mode}`);
    }
    return { mode: t.mode, account: t.account, lt: t.lt, hash: t.hash };
  });
  const tail = items[items.length - 1];
  return {
    id: res.id,
    items,
    incomplete: res.incomplete,
    last: tail ? { account: tail.account, lt: tail.lt } : null,
  };
}

async function listFull(c: LiteMethods, id: BlockIdTl, n: number, after: { account: Buffer; lt: bigint }) {
  const res = await c.queryTl({
    _: 'liteServer.listBlockTransactionsExt',
    id,
    mode: LIST_MODE,
    count: n,
    after,
    reverseOrder: false,
    wantProof: false,
  });
  const roots: Cell[] = res.transactions.length > 0 ? parseBoc(res.transactions) : [];
  const items = roots.map((cell) => decodeTransaction(cell, id.workchain));
  const tail = items[items.length - 1];
  return {
    id: res.id,
    items,
    incomplete: res.incomplete,
    last: tail ? { account: tail.view.account.hash, lt: tail.view.lt } : null,
  };
}

// ---- an account's history -----------------------------------------------------------------------------------

interface HistoryParams {
  address: Address;
  /** Where to start (inclusive); the account's last transaction when absent. */
  from?: { lt: bigint; hash: Buffer };
  toLt: bigint;
  limit: number;
  archival?: boolean;
}

function historyParams(p: V2Params, std: boolean): HistoryParams {
  const address = addressParam(p, 'address').address;
  const limit = optInt64(p, 'limit') ?? 10n;
  if (limit <= 0n) throw invalid('limit should be positive');
  if (limit > BigInt(MAX_LIMIT)) throw invalid(`limit should be less or equal ${MAX_LIMIT}`);
  const lt = optInt64(p, 'lt');
  if (lt !== undefined && lt < 0n) throw invalid('lt should be non-negative');
  const hash = p.optHash('hash');
  // getTransactions treats lt=0 as absent; getTransactionsStd does not (ton-http-api-cpp ValidateRequest).
  const hasLt = lt !== undefined && (std || lt !== 0n);
  if (hasLt !== (hash !== undefined)) throw invalid('lt and hash should be used together');
  return {
    address,
    from: hasLt && hash ? { lt: lt as bigint, hash } : undefined,
    toLt: optInt64(p, 'to_lt') ?? 0n,
    limit: Number(limit),
    archival: p.optBool('archival'),
  };
}

/**
 * Walks the history on one server. `next` is where the following page starts: the transaction before the last
 * one returned (lt 0 at the start of the history). Each answer must continue the chain it was asked for.
 */
async function accountHistory(
  ctx: V2Context,
  h: HistoryParams,
): Promise<{ txs: DecodedTransaction[]; next: { lt: bigint; hash: Buffer } }> {
  // archival=true starts on archive servers; without it the pool moves to one when a server lacks the history.
  return pinned(
    ctx,
    async (c) => {
      let next = h.from;
      if (!next) {
        const head = (await c.queryTl({ _: 'liteServer.getMasterchainInfo' })).last;
        const state = await c.getAccountState(h.address, head);
        const last = state.lastTx;
        next =
          last && last.lt > 0n
            ? { lt: last.lt, hash: Buffer.from(last.hash.toString(16).padStart(64, '0'), 'hex') }
            : { lt: 0n, hash: ZERO_HASH };
      }
      const txs: DecodedTransaction[] = [];
      let reached = false;
      while (!reached && txs.length < h.limit && next.lt > 0n) {
        const res = await c.getTransactions(
          h.address,
          next.lt,
          next.hash,
          Math.min(HISTORY_CHUNK, h.limit - txs.length),
        );
        const roots = res.transactions.length > 0 ? parseBoc(res.transactions) : [];
        if (roots.length === 0 || roots.length !== res.ids.length) {
          throw new ProofError(`getTransactions: ${roots.length} transactions for ${res.ids.length} block ids`);
        }
        for (const cell of roots) {
          const tx = decodeTransaction(cell, h.address.workChain);
          const v = tx.view;
          if (!v.hash.equals(next.hash) || v.lt !== next.lt) {
            throw new ProofError(
              `getTransactions: expected transaction ${next.lt}:${next.hash.toString('hex')}, got ${v.lt}:${v.hash.toString('hex')}`,
            );
          }
          if (v.lt <= h.toLt) {
            reached = true;
            break;
          }
          txs.push(tx);
          next = { lt: v.prevTransLt, hash: v.prevTransHash };
          if (txs.length >= h.limit || next.lt === 0n) break;
        }
      }
      return { txs, next };
    },
    { archive: h.archival === true },
  );
}

function historyKey(h: HistoryParams): unknown[] {
  return [h.address.toRawString(), h.from?.lt, h.from?.hash, h.toLt, h.limit, h.archival];
}

// ---- tryLocate ----------------------------------------------------------------------------------------------

/** Blocks of the receiver's shard chain searched after the one where the message was created. */
const LOCATE_BLOCKS = 8;

/** The account's transactions in a block (listBlockTransactionsExt from (account, lt 0): its own come first). */
async function accountTransactions(c: LiteMethods, id: BlockIdTl, account: Address): Promise<DecodedTransaction[]> {
  const out: DecodedTransaction[] = [];
  let after = { account: account.hash, lt: 0n };
  for (;;) {
    const page = await listFull(c, id, 16, after);
    const mine = page.items.filter((t) => t.view.account.hash.equals(account.hash));
    out.push(...mine);
    if (mine.length < page.items.length || !page.incomplete || !page.last) return out;
    after = page.last;
  }
}

/** The first block of the account's shard chain whose end_lt is at least `lt`; null when there is none yet. */
async function blockByLt(
  c: LiteMethods,
  account: Address,
  lt: bigint,
): Promise<{ id: BlockIdTl; endLt: bigint } | null> {
  try {
    const id = await lookupBlock(c, { workchain: account.workChain, shard: accountPrefix(account.hash), lt });
    const header = await c.queryTl({ _: 'liteServer.getBlockHeader', id, mode: 0 });
    return { id, endLt: readHeaderProof(id, header.headerProof).info.endLt };
  } catch (e) {
    if (e instanceof LiteServerError && isHistoryMiss(e)) return null;
    throw e;
  }
}

const sameAddress = (a: Address | null, b: Address) =>
  a !== null && a.workChain === b.workChain && a.hash.equals(b.hash);

interface LocateParams {
  source: Address;
  destination: Address;
  createdLt: bigint;
}

function locateParams(p: V2Params): LocateParams {
  if (p.optString('source') === undefined) throw invalid('empty source address');
  if (p.optString('destination') === undefined) throw invalid('empty destination address');
  const source = addressParam(p, 'source').address;
  const destination = addressParam(p, 'destination').address;
  const createdLt = optInt64(p, 'created_lt');
  if (createdLt === undefined) throw p.fail('failed to parse created_lt');
  if (createdLt < 0n) throw invalid('created_lt should be non-negative');
  return { source, destination, createdLt };
}

const NOT_FOUND = () => new HttpError(404, 'transaction was not found');

/**
 * The receiver's transaction of the message source → destination created at created_lt: it is in one of the first
 * blocks of the receiver's shard chain that end at or after created_lt. ton-http-api-cpp looks at blocks by
 * lt + k·1e6 and at most 40 transactions of each; we walk LOCATE_BLOCKS consecutive blocks (by end_lt) and read
 * only the receiver's transactions in them, so a busy block does not hide it.
 */
async function locateResult(c: LiteMethods, q: LocateParams): Promise<DecodedTransaction> {
  let lt = q.createdLt;
  for (let i = 0; i < LOCATE_BLOCKS; i++) {
    const block = await blockByLt(c, q.destination, lt);
    if (!block) break;
    for (const tx of await accountTransactions(c, block.id, q.destination)) {
      const m = tx.view.inMsg;
      if (m?.kind === 'int_msg_info' && m.createdLt === q.createdLt && sameAddress(m.source, q.source)) return tx;
    }
    lt = block.endLt + 1n;
  }
  throw NOT_FOUND();
}

/** The sender's transaction that created the message: in the block of the sender's shard chain holding created_lt. */
async function locateSource(c: LiteMethods, q: LocateParams): Promise<DecodedTransaction> {
  const block = await blockByLt(c, q.source, q.createdLt);
  if (!block) throw NOT_FOUND();
  for (const tx of await accountTransactions(c, block.id, q.source)) {
    for (const m of tx.view.outMsgs) {
      if (m.createdLt === q.createdLt && sameAddress(m.destination, q.destination)) return tx;
    }
  }
  throw NOT_FOUND();
}

function locateKey(q: LocateParams): unknown[] {
  return [q.source.toRawString(), q.destination.toRawString(), q.createdLt];
}

// ---- the methods --------------------------------------------------------------------------------------------

export const transactionMethods: V2Method[] = [
  {
    name: 'getBlockTransactions',
    verbs: 'read',
    run(p, ctx) {
      const q = blockTxParams(p);
      return cached(ctx, p, 'getBlockTransactions', [...blockKey(q.block), q.count, q.after], FOREVER, () =>
        pinned(ctx, async (c) => {
          const id = await resolveBlock(c, q.block);
          const r = await walkBlock(q.count, q.after, (n, after) => listShort(c, id, n, after));
          return {
            '@type': 'blocks.transactions',
            id: tonBlockIdExt(r.id),
            req_count: q.count,
            incomplete: r.incomplete,
            transactions: r.items.map((t) => shortTxIdJson(r.id.workchain, t)),
          };
        }),
      );
    },
  },

  {
    name: 'getBlockTransactionsExt',
    verbs: 'read',
    run(p, ctx) {
      const q = blockTxParams(p);
      return cached(ctx, p, 'getBlockTransactionsExt', [...blockKey(q.block), q.count, q.after], FOREVER, () =>
        pinned(ctx, async (c) => {
          const id = await resolveBlock(c, q.block);
          const r = await walkBlock(q.count, q.after, (n, after) => listFull(c, id, n, after));
          return {
            '@type': 'blocks.transactionsExt',
            id: tonBlockIdExt(r.id),
            req_count: q.count,
            incomplete: r.incomplete,
            transactions: r.items.map(transactionExtJson),
          };
        }),
      );
    },
  },

  {
    // The history before a given transaction never changes; from the head it does.
    name: 'getTransactions',
    verbs: 'read',
    run(p, ctx) {
      const h = historyParams(p, false);
      return cached(ctx, p, 'getTransactions', historyKey(h), h.from ? FOREVER : LATEST_TTL_MS, async () =>
        (await accountHistory(ctx, h)).txs.map(extTransactionJson),
      );
    },
  },

  {
    name: 'getTransactionsStd',
    verbs: 'read',
    run(p, ctx) {
      const h = historyParams(p, true);
      return cached(ctx, p, 'getTransactionsStd', historyKey(h), h.from ? FOREVER : LATEST_TTL_MS, async () => {
        const r = await accountHistory(ctx, h);
        return {
          '@type': 'raw.transactions',
          transactions: r.txs.map(rawTransactionJson),
          previous_transaction_id: transactionIdJson(r.next.lt, r.next.hash),
        };
      });
    },
  },

  {
    name: 'tryLocateResultTx',
    aliases: ['tryLocateTx'],
    verbs: 'read',
    run(p, ctx) {
      const q = locateParams(p);
      return cached(ctx, p, 'tryLocateResultTx', locateKey(q), FOREVER, async () =>
        extTransactionJson(await pinned(ctx, (c) => locateResult(c, q))),
      );
    },
  },

  {
    name: 'tryLocateSourceTx',
    verbs: 'read',
    run(p, ctx) {
      const q = locateParams(p);
      return cached(ctx, p, 'tryLocateSourceTx', locateKey(q), FOREVER, async () =>
        extTransactionJson(await pinned(ctx, (c) => locateSource(c, q))),
      );
    },
  },
];
