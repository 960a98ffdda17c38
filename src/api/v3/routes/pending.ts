// /pendingTraces, /pendingActions, /pendingTransactions (v3-api.md §3.1, §3.3, §8): traces of external messages sent
// through our APIs, emulated before they land, read from pending_traces (written by the emulator, already in the
// API's shapes). A row past its expires_at is absent. A trace that landed is no longer pending: rows whose message
// roots a complete trace in `traces` are dropped (for traces and actions only once that trace is also classified,
// so its confirmed actions, with the same action_ids, are there to replace them), and pendingTransactions also drops
// each transaction whose inbound message is already in `messages`.
import type { Queryable, Row } from '../../../db/index.ts';
import { HttpError } from '../../../http/errors.ts';
import type { V3Context, V3RouteGroup } from '../context.ts';
import { addressListParam, addressParam, boolParam, hashListParam, invalid, type Query, Where } from '../params.ts';
import { enrichment } from '../queries/enrichment.ts';
import { landedPlaces } from '../queries/pending-places.ts';
import {
  isStoredPendingAction,
  pendingActionAddresses,
  pendingActionJson,
  pendingActionShown,
  type StoredPendingAction,
  supportedTypes,
} from '../render/action.ts';
import { pendingPlaces } from '../render/pending-places.ts';
import { transactionAddresses } from '../render/trace.ts';
import type { SqlQuery } from '../sql-query.ts';

type Json = Record<string, unknown>;

export interface PendingFilter {
  /** Traces with a transaction or an action participant of one of these accounts (pending_traces.accounts). */
  accounts?: string[];
  /** Normalized (the trace key) or as-sent hashes of the external message. */
  extMsgHashes?: string[];
  /** Drop a trace once the landed one is complete and classified (traces, actions), or complete (transactions). */
  needClassified: boolean;
  /** At most this many traces. */
  limit: number;
}

/**
 * The pending traces of a request, newest emulation first. A landed trace is found by its root's inbound message:
 * traces.external_hash_norm is the trace key for an external message, traces.external_hash the hash as sent
 * (traces_index_6 / _5).
 */
export function pendingTracesQuery(f: PendingFilter): SqlQuery {
  const w = new Where();
  w.add('P.expires_at > now()');
  if (f.accounts?.length) w.add(`P.accounts && ${w.value(f.accounts)}::text[]::tonaddr[]`);
  if (f.extMsgHashes?.length) {
    const p = w.value(f.extMsgHashes);
    w.add(`(P.trace_key = ANY(${p}::text[]) OR P.ext_msg_hash = ANY(${p}::text[]))`);
  }
  const landed = `E.state = 'complete'${f.needClassified ? ` AND E.classification_state <> 'unclassified'` : ''}`;
  w.add(`NOT EXISTS (SELECT 1 FROM traces E WHERE E.external_hash_norm = P.trace_key AND ${landed})`);
  w.add(`NOT EXISTS (SELECT 1 FROM traces E WHERE E.external_hash = P.ext_msg_hash AND ${landed})`);
  return {
    sql: `SELECT P.trace_key, P.ext_msg_hash, P.trace, P.actions FROM pending_traces P ${w.sql()}
      ORDER BY P.emulated_at DESC, P.trace_key LIMIT ${w.value(f.limit)}`,
    params: w.params,
  };
}

/** Any unexpired pending trace of these accounts at all (landed or not): toncenter's 404 is about there being none. */
export function anyPendingQuery(accounts: readonly string[]): SqlQuery {
  return {
    sql: 'SELECT 1 AS found FROM pending_traces P WHERE P.expires_at > now() AND P.accounts && $1::text[]::tonaddr[] LIMIT 1',
    params: [[...accounts]],
  };
}

/** A rendered transaction's lt (a decimal string) for ordering; 0 when absent. */
const ltOf = (t: Json): bigint => (/^\d{1,20}$/.test(String(t.lt)) ? BigInt(String(t.lt)) : 0n);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The stored trace's transactions, in its transactions_order, marked as emulated; `trace_external_hash` as the
 * emulator wrote it, else the trace key (the external message's normalized hash, which clients look traces up by).
 */
function pendingTransactions(trace: Json, traceKey: unknown): Json[] {
  const map = isObject(trace.transactions) ? trace.transactions : {};
  const order = Array.isArray(trace.transactions_order) ? trace.transactions_order.map(String) : Object.keys(map);
  const out: Json[] = [];
  for (const h of order) {
    const tx = map[h];
    if (!isObject(tx)) continue;
    out.push({
      ...tx,
      trace_external_hash: tx.trace_external_hash ?? traceKey,
      emulated: true,
      finality: tx.finality === 'confirmed' ? 'confirmed' : 'pending',
    });
  }
  return out;
}

/** A stored trace with toncenter's key order and the client's actions in their place. */
function pendingTraceJson(trace: Json, traceKey: unknown, actions: Json[]): Json {
  const txs = pendingTransactions(trace, traceKey);
  const { actions: _stored, trace: tree, transactions_order, transactions: _t, ...head } = trace;
  const out: Json = { ...head, actions };
  if (tree !== undefined) out.trace = tree;
  if (transactions_order !== undefined) out.transactions_order = transactions_order;
  if (txs.length > 0) out.transactions = Object.fromEntries(txs.map((t) => [String(t.hash), t]));
  return out;
}

function storedActions(row: Row): StoredPendingAction[] {
  return Array.isArray(row.actions) ? row.actions.filter(isStoredPendingAction) : [];
}

/** account (one) or ext_msg_hash (several): at least one. */
function pendingSelection(q: Query): Pick<PendingFilter, 'accounts' | 'extMsgHashes'> {
  const account = addressParam(q, 'account');
  const extMsgHashes = hashListParam(q, 'ext_msg_hash');
  if (account === undefined && extMsgHashes.length === 0) throw invalid('account or ext_msg_hash should be specified');
  return { accounts: account === undefined ? undefined : [account], extMsgHashes };
}

async function readPending(db: Queryable, f: PendingFilter): Promise<Row[]> {
  const built = pendingTracesQuery(f);
  return (await db.query(built.sql, built.params)).rows.filter((r) => isObject(r.trace));
}

export const pendingRoutes: V3RouteGroup = (app, ctx: V3Context) => {
  app.get('/pendingTraces', async (req) => {
    const q = req.query as Query;
    const sel = pendingSelection(q);
    const supported = supportedTypes(req, q);
    return ctx.read(req, async (db) => {
      const rows = await readPending(db, { ...sel, needClassified: true, limit: ctx.maxLimit });
      const addresses: string[] = [];
      const traces = rows.map((r) => {
        const shown = storedActions(r).filter((a) => pendingActionShown(a, supported));
        for (const a of shown) addresses.push(...pendingActionAddresses(a));
        const t = pendingTraceJson(
          r.trace as Json,
          r.trace_key,
          shown.map((a) => pendingActionJson(a)),
        );
        for (const tx of Object.values((t.transactions as Json | undefined) ?? {})) {
          addresses.push(...transactionAddresses(tx as Json));
        }
        return t;
      });
      return { traces, ...(await enrichment(req, db, addresses, { testnet: ctx.testnet })) };
    });
  });

  app.get('/pendingActions', async (req) => {
    const q = req.query as Query;
    const sel = pendingSelection(q);
    const supported = supportedTypes(req, q);
    const includeTransactions = boolParam(q, 'include_transactions') ?? false;
    const includeAccounts = boolParam(q, 'include_accounts') ?? false;
    const account = sel.accounts?.[0];
    return ctx.read(req, async (db) => {
      const rows = await readPending(db, { ...sel, needClassified: true, limit: ctx.maxLimit });
      const addresses: string[] = [];
      const actions: Json[] = [];
      for (const r of rows) {
        const trace = r.trace as Json;
        const txs = includeTransactions ? pendingTransactions(trace, r.trace_key) : [];
        const byHash = new Map(txs.map((t) => [String(t.hash), t]));
        for (const a of storedActions(r)) {
          if (!pendingActionShown(a, supported)) continue;
          // By account: the actions it takes part in (toncenter's action-account index), not every action of its traces.
          const participants = Array.isArray(a.accounts) ? a.accounts.map(String) : [];
          if (account !== undefined && !participants.includes(account)) continue;
          addresses.push(...pendingActionAddresses(a));
          const full = includeTransactions
            ? (Array.isArray(a.transactions) ? a.transactions : []).map((h) => byHash.get(String(h))).filter(isObject)
            : undefined;
          for (const t of full ?? []) addresses.push(...transactionAddresses(t));
          actions.push(
            pendingActionJson(a, { accounts: includeAccounts ? participants : undefined, transactionsFull: full }),
          );
        }
      }
      return { actions, ...(await enrichment(req, db, addresses, { testnet: ctx.testnet })) };
    });
  });

  app.get('/pendingTransactions', async (req) => {
    const q = req.query as Query;
    const accounts = [...new Set(addressListParam(q, 'account'))];
    if (accounts.length === 0) throw invalid('at least 1 account address required');
    const traceIds = new Set(hashListParam(q, 'trace_id'));
    return ctx.read(req, async (db) => {
      const any = anyPendingQuery(accounts);
      if ((await db.query(any.sql, any.params)).rows.length === 0) {
        throw new HttpError(404, 'emulated traces not found');
      }
      const rows = await readPending(db, { accounts, needClassified: false, limit: ctx.maxLimit });
      const wanted = new Set(accounts);
      // A transaction that has landed is the index's to answer for: matched by its place in the trace (below the
      // root an emulated message's hash is not the landed one's).
      const txs: Json[] = [];
      for (const r of rows.filter((x) => traceIds.size === 0 || traceIds.has(String((x.trace as Json).trace_id)))) {
        const trace = r.trace as Json;
        const mine = pendingTransactions(trace, r.trace_key).filter((t) => wanted.has(String(t.account)));
        if (mine.length === 0) continue;
        const landed = await landedPlaces(db, String(r.trace_key), String(r.ext_msg_hash));
        const places = landed.size > 0 ? pendingPlaces(trace) : null;
        for (const t of mine) {
          const place = places?.get(String(t.hash));
          if (place === undefined || !landed.has(place)) txs.push(t);
        }
      }
      // Newest first, as /transactions pages by default.
      txs.sort((a, b) => {
        const x = ltOf(a);
        const y = ltOf(b);
        return x < y ? 1 : x > y ? -1 : String(a.account).localeCompare(String(b.account));
      });
      const { address_book } = await enrichment(req, db, txs.flatMap(transactionAddresses), {
        testnet: ctx.testnet,
        metadata: false,
      });
      return { transactions: txs, address_book };
    });
  });
};
