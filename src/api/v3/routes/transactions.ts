// /transactions, /transactionsByMasterchainBlock, /transactionsByMessage, /adjacentTransactions
// (v3-api.md §3.1). A page is one main statement (transactionsQuery / adjacentTransactionsQuery) and then,
// by primary key, its messages with their contents, its account states and the address book (renderTransactions in
// queries/transaction.ts, which /actions, /traces and the streaming feed share). Builders are exported for
// test/api/v3-explain.test.ts.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../../http/errors.ts';
import type { V3Context, V3RouteGroup } from '../context.ts';
import {
  addressListParam,
  hashListParam,
  hashParam,
  invalid,
  ltParam,
  oneParam,
  type Page,
  pageParams,
  parseOpcode,
  type Query,
  required,
  Where,
} from '../params.ts';
import { renderTransactions, TRANSACTION_COLUMNS } from '../queries/transaction.ts';
import {
  type Direction,
  directionParam,
  hasUtime,
  int32Param,
  requiredSeqno,
  shardParam,
  type Window,
  windowParams,
} from '../render/filters.ts';
import type { SqlQuery } from '../sql-query.ts';
import { masterchainBlockExistsQuery } from './blocks.ts';

/** Filters on a transaction's messages (/transactionsByMessage). */
export interface MessageMatch {
  msgHashes?: string[];
  bodyHash?: string;
  opcode?: number;
  direction?: Direction;
}

export interface TransactionFilter {
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  mcSeqno?: number;
  accounts?: string[];
  excludeAccounts?: string[];
  hashes?: string[];
  lt?: bigint;
  window?: Window;
  message?: MessageMatch;
  page: Page;
}

/**
 * The main statement of /transactions and its variants, with toncenter's ordering rules (later rules win):
 * `lt, account asc` (or `now, lt, account asc` with a utime bound); mc_seqno: `lt, account asc`; exactly one
 * account: `account asc, lt` (`account, now, lt`), served by (account, lt) / (account, now, lt); hash: `hash`;
 * lt: `lt asc, account <sort>`. Message filters are an EXISTS on the transaction's messages, so a
 * transaction with several matching messages is listed once (toncenter's join would repeat it).
 */
export function transactionsQuery(f: TransactionFilter): SqlQuery {
  const w = new Where();
  const s = f.page.sort;
  const win = f.window ?? {};
  const byNow = hasUtime(win);
  if (win.startUtime !== undefined) w.add(`T.now >= ${w.value(win.startUtime)}`);
  if (win.endUtime !== undefined) w.add(`T.now <= ${w.value(win.endUtime)}`);
  if (win.startLt !== undefined) w.add(`T.lt >= ${w.value(win.startLt)}`);
  if (win.endLt !== undefined) w.add(`T.lt <= ${w.value(win.endLt)}`);
  let order = byNow ? `T.now ${s}, T.lt ${s}, T.account ASC` : `T.lt ${s}, T.account ASC`;
  if (f.workchain !== undefined) w.add(`T.block_workchain = ${w.value(f.workchain)}`);
  if (f.shard !== undefined) w.add(`T.block_shard = ${w.value(f.shard)}`);
  if (f.seqno !== undefined) w.add(`T.block_seqno = ${w.value(f.seqno)}`);
  if (f.mcSeqno !== undefined) {
    w.add(`T.mc_block_seqno = ${w.value(f.mcSeqno)}`);
    order = `T.lt ${s}, T.account ASC`;
  }
  const accounts = f.accounts ?? [];
  if (accounts.length === 1) {
    w.add(`T.account = ${w.value(accounts[0])}`);
    order = byNow ? `T.account ASC, T.now ${s}, T.lt ${s}` : `T.account ASC, T.lt ${s}`;
  } else if (accounts.length > 1) {
    w.add(`T.account = ANY(${w.value(accounts)})`);
  }
  // toncenter accepts exclude_account but does not apply it (a TODO on master); the documented meaning is
  // applied here.
  if (f.excludeAccounts?.length) w.add(`T.account <> ALL(${w.value(f.excludeAccounts)})`);
  if (f.hashes?.length) {
    w.add(`T.hash = ANY(${w.value(f.hashes)})`);
    order = `T.hash ${s}, T.lt ${s}`;
  }
  if (f.lt !== undefined) {
    w.add(`T.lt = ${w.value(f.lt)}`);
    order = `T.lt ASC, T.account ${s}`;
  }
  const m = f.message;
  if (m) {
    const c = ['M.tx_hash = T.hash', 'M.tx_lt = T.lt'];
    if (m.direction) c.push(`M.direction = ${w.value(m.direction)}`);
    if (m.msgHashes?.length) {
      const p = w.value(m.msgHashes);
      c.push(`(M.msg_hash = ANY(${p}) OR M.msg_hash_norm = ANY(${p}))`);
    }
    if (m.bodyHash !== undefined) c.push(`M.body_hash = ${w.value(m.bodyHash)}`);
    // An opcode matches inbound messages only, as toncenter's does.
    if (m.opcode !== undefined) c.push(`M.opcode = ${w.value(m.opcode)}`, `M.direction = 'in'`);
    w.add(`EXISTS (SELECT 1 FROM messages M WHERE ${c.join(' AND ')})`);
  }
  const sql = `SELECT ${TRANSACTION_COLUMNS} FROM transactions T ${w.sql()} ORDER BY ${order}
    LIMIT ${w.value(f.page.limit)} OFFSET ${w.value(f.page.offset)}`;
  return { sql, params: w.params };
}

/**
 * The transactions linked to transaction `hash` by a message: with direction=in its parent (the sender of its
 * inbound message), with out its children (the receivers of its outbound messages), both without. lt order.
 */
export function adjacentTransactionsQuery(hash: string, direction?: Direction): SqlQuery {
  const params: unknown[] = [hash];
  let dir = '';
  if (direction) {
    params.push(direction);
    dir = 'AND M1.direction = $2';
  }
  return {
    sql: `SELECT ${TRANSACTION_COLUMNS} FROM transactions T WHERE (T.hash, T.lt) IN (
        SELECT M2.tx_hash, M2.tx_lt FROM messages M1
        JOIN messages M2 ON M2.msg_hash = M1.msg_hash AND M2.direction <> M1.direction
        WHERE M1.tx_hash = $1 ${dir})
      ORDER BY T.lt ASC, T.account ASC`,
    params,
  };
}

async function answer(req: FastifyRequest, ctx: V3Context, built: SqlQuery, mcSeqno?: number) {
  return ctx.read(req, async (q) => {
    if (mcSeqno !== undefined) {
      const e = masterchainBlockExistsQuery(mcSeqno);
      if ((await q.query(e.sql, e.params)).rows.length === 0) {
        throw new HttpError(404, `masterchain block ${mcSeqno} not found`);
      }
    }
    return renderTransactions(req, q, (await q.query(built.sql, built.params)).rows, ctx.testnet);
  });
}

export function transactionFilterParams(q: Query, page: Page): TransactionFilter {
  return {
    workchain: int32Param(q, 'workchain'),
    shard: shardParam(q),
    seqno: int32Param(q, 'seqno'),
    mcSeqno: int32Param(q, 'mc_seqno'),
    accounts: addressListParam(q, 'account'),
    excludeAccounts: addressListParam(q, 'exclude_account'),
    hashes: hashListParam(q, 'hash'),
    lt: ltParam(q, 'lt'),
    window: windowParams(q),
    page,
  };
}

export function messageMatchParams(q: Query): MessageMatch {
  const op = oneParam(q, 'opcode');
  const m: MessageMatch = {
    msgHashes: hashListParam(q, 'msg_hash'),
    bodyHash: hashParam(q, 'body_hash'),
    opcode: op === undefined ? undefined : parseOpcode(op),
    direction: directionParam(q),
  };
  if (!m.msgHashes?.length && m.bodyHash === undefined && m.opcode === undefined) {
    throw invalid('at least one of msg_hash, body_hash, opcode should be specified');
  }
  return m;
}

export const transactionRoutes: V3RouteGroup = (app, ctx) => {
  const page = (q: Query) => pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: ctx.defaultLimit });

  app.get('/transactions', async (req) => {
    const q = req.query as Query;
    const f = transactionFilterParams(q, page(q));
    return answer(req, ctx, transactionsQuery(f), f.mcSeqno);
  });

  app.get('/transactionsByMasterchainBlock', async (req) => {
    const q = req.query as Query;
    const seqno = requiredSeqno(q);
    return answer(req, ctx, transactionsQuery({ mcSeqno: seqno, page: page(q) }), seqno);
  });

  // `sort` is not in the OpenAPI document for this endpoint but toncenter honours it; so do we.
  app.get('/transactionsByMessage', async (req) => {
    const q = req.query as Query;
    const p = page(q);
    return answer(req, ctx, transactionsQuery({ message: messageMatchParams(q), page: p }));
  });

  // toncenter answers a missing hash with 404 and ignores a bad direction; both are refused with a 422 here.
  app.get('/adjacentTransactions', async (req) => {
    const q = req.query as Query;
    required(q, 'hash');
    const hash = hashParam(q, 'hash') as string;
    const built = adjacentTransactionsQuery(hash, directionParam(q));
    const res = await ctx.read(req, async (db) => {
      const rows = (await db.query(built.sql, built.params)).rows;
      return rows.length === 0 ? null : renderTransactions(req, db, rows, ctx.testnet);
    });
    if (!res) throw new HttpError(404, 'adjacent transactions not found');
    return res;
  });
};
