// /traces and its deprecated alias /events (v3-api.md §3.3, §4.8, §6.1): one statement per page over `traces`, then
// by key the transactions of the traces small enough to list (one statement over transactions_index_7), their
// actions with include_actions (the supported types and the ancestor rule of §6.4), the address book and metadata.
// The tree of each trace is rebuilt from its transactions (render/trace.ts). Builders are exported for the tests.
import type { FastifyRequest } from 'fastify';
import { groupBy } from '../../../common/index.ts';
import type { Row } from '../../../db/index.ts';
import type { V3Context, V3RouteGroup } from '../context.ts';
import {
  addressParam,
  boolParam,
  hashListParam,
  invalid,
  type Page,
  pageParams,
  type Query,
  Where,
} from '../params.ts';
import { ACTION_COLUMNS } from '../queries/action.ts';
import { enrichment } from '../queries/enrichment.ts';
import { TRACE_COLUMNS, traceTransactionsQuery } from '../queries/trace.ts';
import { renderTransactions } from '../queries/transaction.ts';
import { supportedTypes } from '../render/action.ts';
import { hasUtime, int32Param, type Window, windowParams } from '../render/filters.ts';
import { traceJson, traceTooLarge, transactionAddresses } from '../render/trace.ts';
import type { SqlQuery } from '../sql-query.ts';
import { renderActionRows } from './actions.ts';

export interface TraceFilter {
  account?: string;
  traceIds?: string[];
  txHashes?: string[];
  msgHashes?: string[];
  /** Complete traces that ended in this masterchain block. */
  mcSeqno?: number;
  /** On the trace's end_utime / end_lt. */
  window?: Window;
  page: Page;
}

/**
 * The page statement: `end_lt <sort>, trace_id <sort>` (end_utime with a utime bound), indexes traces_index_3/4.
 * Account, transaction and message filters select the traces their rows belong to (transactions_index_9, the
 * transactions key, messages_index_1/9).
 */
export function tracesQuery(f: TraceFilter): SqlQuery {
  const w = new Where();
  const s = f.page.sort;
  const win = f.window ?? {};
  if (win.startUtime !== undefined) w.add(`E.end_utime >= ${w.value(win.startUtime)}`);
  if (win.endUtime !== undefined) w.add(`E.end_utime <= ${w.value(win.endUtime)}`);
  if (win.startLt !== undefined) w.add(`E.end_lt >= ${w.value(win.startLt)}`);
  if (win.endLt !== undefined) w.add(`E.end_lt <= ${w.value(win.endLt)}`);
  if (f.account !== undefined) {
    w.add(`EXISTS (SELECT 1 FROM transactions T WHERE T.account = ${w.value(f.account)} AND T.trace_id = E.trace_id)`);
  }
  if (f.traceIds?.length) w.add(`E.trace_id = ANY(${w.value(f.traceIds)}::text[])`);
  if (f.txHashes?.length) {
    w.add(`E.trace_id IN (SELECT T.trace_id FROM transactions T WHERE T.hash = ANY(${w.value(f.txHashes)}::text[]))`);
  }
  if (f.msgHashes?.length) {
    const p = w.value(f.msgHashes);
    w.add(`E.trace_id IN (SELECT M.trace_id FROM messages M
      WHERE M.msg_hash = ANY(${p}::text[]) OR M.msg_hash_norm = ANY(${p}::text[]))`);
  }
  if (f.mcSeqno !== undefined) w.add(`E.state = 'complete' AND E.mc_seqno_end = ${w.value(f.mcSeqno)}`);
  const order = hasUtime(win) ? `E.end_utime ${s}, E.trace_id ${s}` : `E.end_lt ${s}, E.trace_id ${s}`;
  const sql = `SELECT ${TRACE_COLUMNS} FROM traces E ${w.sql()} ORDER BY ${order}
    LIMIT ${w.value(f.page.limit)} OFFSET ${w.value(f.page.offset)}`;
  return { sql, params: w.params };
}

/** The actions of the given traces a client with `supported` types sees, in (start_lt, end_lt) order per trace. */
export function traceActionsQuery(traceIds: readonly string[], supported: readonly string[]): SqlQuery {
  return {
    sql: `SELECT ${ACTION_COLUMNS} FROM actions A WHERE A.trace_id = ANY($1::text[])
      AND A.type = ANY($2::text[]) AND NOT (A.ancestor_type && $2::varchar[])
      ORDER BY A.trace_id, A.start_lt, A.end_lt, A.action_id`,
    params: [[...traceIds], [...supported]],
  };
}

/** account, trace_id, tx_hash, msg_hash select the traces in different ways: at most one of them. */
export function traceFilterParams(q: Query, page: Page): TraceFilter {
  const f: TraceFilter = {
    account: addressParam(q, 'account'),
    traceIds: hashListParam(q, 'trace_id'),
    txHashes: hashListParam(q, 'tx_hash'),
    msgHashes: hashListParam(q, 'msg_hash'),
    mcSeqno: int32Param(q, 'mc_seqno'),
    window: windowParams(q),
    page,
  };
  const given = [f.account !== undefined, !!f.traceIds?.length, !!f.txHashes?.length, !!f.msgHashes?.length];
  if (given.filter(Boolean).length > 1) {
    throw invalid('only one of account, trace_id, tx_hash, msg_hash should be specified');
  }
  return f;
}

/** One page of traces, rendered: the body of /traces (under `traces`) and of /events (under `events`). */
async function readTraces(req: FastifyRequest, ctx: V3Context, listKey: 'traces' | 'events', forceActions: boolean) {
  const q = req.query as Query;
  const page = pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: ctx.defaultLimit });
  const built = tracesQuery(traceFilterParams(q, page));
  const includeActions = forceActions || (boolParam(q, 'include_actions') ?? false);
  const supported = includeActions ? [...supportedTypes(req, q)] : [];
  return ctx.read(req, async (db) => {
    const rows = (await db.query(built.sql, built.params)).rows;
    const listed = rows.filter((r) => !traceTooLarge(r)).map((r) => String(r.trace_id));
    let txsOf = new Map<string, Record<string, unknown>[]>();
    let known: Record<string, unknown> = {};
    const addresses: string[] = [];
    if (listed.length > 0) {
      const tq = traceTransactionsQuery(listed);
      const txRows = (await db.query(tq.sql, tq.params)).rows;
      const rendered = await renderTransactions(req, db, txRows, ctx.testnet);
      txsOf = groupBy(rendered.transactions, (t) => String(t.trace_id));
      known = rendered.address_book;
      for (const t of rendered.transactions) addresses.push(...transactionAddresses(t));
    }
    let actionsOf: Map<string, Record<string, unknown>[]> | undefined;
    if (includeActions) {
      let actionRows: Row[] = [];
      if (listed.length > 0) {
        const aq = traceActionsQuery(listed, supported);
        actionRows = (await db.query(aq.sql, aq.params)).rows;
      }
      const r = await renderActionRows(req, db, actionRows, { testnet: ctx.testnet });
      actionsOf = groupBy(r.actions, (a) => String(a.trace_id));
      addresses.push(...r.addresses);
    }
    const traces = rows.map((r) =>
      traceJson(r, {
        transactions: txsOf.get(String(r.trace_id)),
        actions: actionsOf ? (actionsOf.get(String(r.trace_id)) ?? []) : undefined,
      }),
    );
    const e = await enrichment(req, db, addresses, { testnet: ctx.testnet, known });
    return { [listKey]: traces, ...e };
  });
}

export const traceRoutes: V3RouteGroup = (app, ctx) => {
  app.get('/traces', (req) => readTraces(req, ctx, 'traces', false));
  // Deprecated by toncenter: the same page with actions always included, under `events`.
  app.get('/events', (req) => readTraces(req, ctx, 'events', true));
};
