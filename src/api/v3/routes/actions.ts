// /actions (v3-api.md §3.3, §6.3-6.4): what classified traces did, one statement per page over `actions` (or over
// `action_accounts` joined to it when an account is given, its primary key being the page order), then by key the
// participants (include_accounts), the transactions (include_transactions), the address book and metadata. Builders
// are exported for the tests.
//
// Filter precedence is toncenter's, as intended rather than as its SQL happens to behave: `action_id` replaces every
// other filter; `trace_id` without `account` replaces every other filter too (time windows, tx/msg hashes, mc_seqno,
// action_type, exclude_action_type). toncenter's query then still carries the dropped filters' bound values, which
// errors or shows unsupported types; here a dropped action_type simply means the supported types decide.
import type { FastifyRequest } from 'fastify';
import type { Queryable, Row } from '../../../db/index.ts';
import { HttpError } from '../../../http/errors.ts';
import type { V3RouteGroup } from '../context.ts';
import { addressParam, boolParam, hashListParam, type Page, pageParams, type Query, Where } from '../params.ts';
import { ACTION_COLUMNS, actionAccountsQuery } from '../queries/action.ts';
import { enrichment } from '../queries/enrichment.ts';
import { renderTransactions, TRANSACTION_COLUMNS } from '../queries/transaction.ts';
import { actionAddresses, actionJson, actionTypeListParam, supportedTypes } from '../render/action.ts';
import { hasUtime, int32Param, type Window, windowParams } from '../render/filters.ts';
import type { SqlQuery } from '../sql-query.ts';
import { masterchainBlockExistsQuery } from './blocks.ts';

export interface ActionFilter {
  account?: string;
  actionIds?: string[];
  traceIds?: string[];
  txHashes?: string[];
  msgHashes?: string[];
  /** Actions of traces that completed in this masterchain block. */
  mcSeqno?: number;
  /** On the trace's end (trace_end_utime / trace_end_lt), not the action's own times. */
  window?: Window;
  actionTypes?: string[];
  excludeTypes?: string[];
  /** Expanded supported_action_types (supported.ts expandSupported). */
  supported: readonly string[];
  page: Page;
}

/** The filters that apply after the precedence rules (see the header). */
export function effectiveActionFilter(f: ActionFilter): ActionFilter {
  const base = { supported: f.supported, page: f.page };
  if (f.actionIds?.length) return { ...base, actionIds: f.actionIds };
  if (f.traceIds?.length && f.account === undefined) return { ...base, traceIds: f.traceIds };
  return f;
}

/**
 * The page statement. Order: `trace_end_lt, trace_id, end_lt, action_id` in <sort> (trace_end_utime and end_utime
 * with a utime bound), all four unique together, from action_accounts' columns when an account is given so its
 * primary key (account, trace_end_lt, trace_id, action_end_lt, action_id) serves it. Always: a type the client
 * supports (or one it asked for with action_type) whose enclosing actions' types it does not support (§6.4).
 */
export function actionsQuery(input: ActionFilter): SqlQuery {
  const f = effectiveActionFilter(input);
  const w = new Where();
  const s = f.page.sort;
  const win = f.window ?? {};
  const byNow = hasUtime(win);
  const viaAccount = f.account !== undefined;
  const from = viaAccount
    ? 'action_accounts AA JOIN actions A ON A.trace_id = AA.trace_id AND A.action_id = AA.action_id'
    : 'actions A';
  const k = viaAccount ? 'AA' : 'A';
  if (viaAccount) w.add(`AA.account = ${w.value(f.account)}`);
  if (f.actionIds?.length) w.add(`A.action_id = ANY(${w.value(f.actionIds)}::text[])`);
  if (f.traceIds?.length) w.add(`A.trace_id = ANY(${w.value(f.traceIds)}::text[])`);
  if (f.txHashes?.length) w.add(`A.tx_hashes && ${w.value(f.txHashes)}::text[]::tonhash[]`);
  if (f.msgHashes?.length) {
    // Actions one of whose transactions sent or received the message (either hash form).
    const p = w.value(f.msgHashes);
    w.add(`A.tx_hashes && ARRAY(SELECT M.tx_hash FROM messages M
      WHERE M.msg_hash = ANY(${p}::text[]) OR M.msg_hash_norm = ANY(${p}::text[]))`);
  }
  if (f.mcSeqno !== undefined) {
    w.add(`A.trace_mc_seqno_end = ${w.value(f.mcSeqno)}`);
    w.add(`EXISTS (SELECT 1 FROM traces E WHERE E.trace_id = A.trace_id AND E.state = 'complete')`);
  }
  if (win.startUtime !== undefined) w.add(`${k}.trace_end_utime >= ${w.value(win.startUtime)}`);
  if (win.endUtime !== undefined) w.add(`${k}.trace_end_utime <= ${w.value(win.endUtime)}`);
  if (win.startLt !== undefined) w.add(`${k}.trace_end_lt >= ${w.value(win.startLt)}`);
  if (win.endLt !== undefined) w.add(`${k}.trace_end_lt <= ${w.value(win.endLt)}`);
  const supported = w.value([...f.supported]);
  if (f.actionTypes?.length) w.add(`A.type = ANY(${w.value(f.actionTypes)}::text[])`);
  else w.add(`A.type = ANY(${supported}::text[])`);
  if (f.excludeTypes?.length) w.add(`NOT (A.type = ANY(${w.value(f.excludeTypes)}::text[]))`);
  w.add(`NOT (A.ancestor_type && ${supported}::varchar[])`);
  // The action's own end: action_end_* in action_accounts, end_* in actions.
  const endCol = viaAccount ? 'action_end' : 'end';
  const order = byNow
    ? `${k}.trace_end_utime ${s}, ${k}.trace_id ${s}, ${k}.${endCol}_utime ${s}, ${k}.action_id ${s}`
    : `${k}.trace_end_lt ${s}, ${k}.trace_id ${s}, ${k}.${endCol}_lt ${s}, ${k}.action_id ${s}`;
  const sql = `SELECT ${ACTION_COLUMNS} FROM ${from} ${w.sql()} ORDER BY ${order}
    LIMIT ${w.value(f.page.limit)} OFFSET ${w.value(f.page.offset)}`;
  return { sql, params: w.params };
}

export interface RenderActionOptions {
  includeAccounts?: boolean;
  includeTransactions?: boolean;
  testnet: boolean;
}

export interface RenderedActions {
  actions: Record<string, unknown>[];
  /** Addresses for the address book and metadata. */
  addresses: string[];
  /** Address book entries already built for the transactions (include_transactions). */
  known: Record<string, unknown>;
}

/** Action rows (ACTION_COLUMNS) with what the request asked to include, loaded by key. */
export async function renderActionRows(
  req: FastifyRequest,
  q: Queryable,
  rows: Row[],
  opts: RenderActionOptions,
): Promise<RenderedActions> {
  const addresses = rows.flatMap(actionAddresses);
  let accounts: Map<string, string[]> | undefined;
  if (opts.includeAccounts && rows.length > 0) {
    const aq = actionAccountsQuery(rows.map((r) => String(r.action_id)));
    const res = await q.query(aq.sql, aq.params);
    accounts = new Map(res.rows.map((r) => [`${r.trace_id}/${r.action_id}`, (r.accounts as string[]) ?? []]));
  }
  let txs: Map<string, Record<string, unknown>> | undefined;
  let known: Record<string, unknown> = {};
  if (opts.includeTransactions && rows.length > 0) {
    const hashes = [...new Set(rows.flatMap((r) => (r.tx_hashes as string[]) ?? []))];
    const txRows = (
      await q.query(`SELECT ${TRANSACTION_COLUMNS} FROM transactions T WHERE T.hash = ANY($1::text[])`, [hashes])
    ).rows;
    const rendered = await renderTransactions(req, q, txRows, opts.testnet);
    txs = new Map(rendered.transactions.map((t) => [String(t.hash), t]));
    known = rendered.address_book;
    addresses.push(...Object.keys(known));
  }
  const actions = rows.map((r) =>
    actionJson(r, {
      accounts: accounts ? (accounts.get(`${r.trace_id}/${r.action_id}`) ?? []) : undefined,
      transactionsFull: txs
        ? ((r.tx_hashes as string[]) ?? []).map((h) => txs.get(h)).filter((t): t is Record<string, unknown> => !!t)
        : undefined,
    }),
  );
  return { actions, addresses, known };
}

export function actionFilterParams(req: FastifyRequest, q: Query, page: Page): ActionFilter {
  return {
    account: addressParam(q, 'account'),
    actionIds: hashListParam(q, 'action_id'),
    traceIds: hashListParam(q, 'trace_id'),
    txHashes: hashListParam(q, 'tx_hash'),
    msgHashes: hashListParam(q, 'msg_hash'),
    mcSeqno: int32Param(q, 'mc_seqno'),
    window: windowParams(q),
    actionTypes: actionTypeListParam(q, 'action_type'),
    excludeTypes: actionTypeListParam(q, 'exclude_action_type'),
    supported: [...supportedTypes(req, q)],
    page,
  };
}

export const actionRoutes: V3RouteGroup = (app, ctx) => {
  app.get('/actions', async (req) => {
    const q = req.query as Query;
    const page = pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: ctx.defaultLimit });
    const f = actionFilterParams(req, q, page);
    const opts = {
      includeAccounts: boolParam(q, 'include_accounts') ?? false,
      includeTransactions: boolParam(q, 'include_transactions') ?? false,
      testnet: ctx.testnet,
    };
    const built = actionsQuery(f);
    const mcSeqno = effectiveActionFilter(f).mcSeqno;
    return ctx.read(req, async (db) => {
      if (mcSeqno !== undefined) {
        const e = masterchainBlockExistsQuery(mcSeqno);
        if ((await db.query(e.sql, e.params)).rows.length === 0) {
          throw new HttpError(404, `masterchain block ${mcSeqno} not found`);
        }
      }
      const rows = (await db.query(built.sql, built.params)).rows;
      const r = await renderActionRows(req, db, rows, opts);
      const e = await enrichment(req, db, r.addresses, { testnet: ctx.testnet, known: r.known });
      return { actions: r.actions, ...e };
    });
  });
};
