// Actions as v3 JSON (v3-api.md §4.9, §6.3-6.4): stored rows (actions, whose details column already holds the API's
// details object) and emulated ones (pending_traces.actions, API objects plus `accounts` and `ancestor_type`). What
// the stored form does not decide is decided here at read time, as toncenter's API does: which actions a client sees
// (supported_action_types and the ancestor rule), the `extra_currency_transfer` rename, the error object of types the
// API has no details for, and finality.
import type { FastifyRequest } from 'fastify';
import { hiddenDetailsKeys } from '../../../index/actions/classifier-names.ts';
import { ACTION_TYPE_SETS, expandSupported, isShown } from '../../../index/actions/supported.ts';
import { isStoredRawAddress } from '../../../ton/index.ts';
import { invalid, listParam, type Query } from '../params.ts';
import type { Row } from '../sql-query.ts';
import { num, str } from './values.ts';

const TYPE_NAME = /^[A-Za-z0-9_.]+$/;

/** A list of action type names (action_type, exclude_action_type, supported_action_types), toncenter's charset. */
export function actionTypeListParam(q: Query, name: string): string[] {
  const list = listParam(q, name);
  for (const t of list) {
    if (!TYPE_NAME.test(t)) throw invalid(`invalid ${name}: '${t.slice(0, 40)}' (letters, digits, _ and . only)`);
  }
  return [...new Set(list)];
}

/**
 * The types the client understands: X-Actions-Version (one name) overrides supported_action_types; versions and
 * topics expanded, `latest` when nothing was sent, v1 always (supported.ts).
 */
export function supportedTypes(req: FastifyRequest, q: Query): Set<string> {
  const h = req.headers['x-actions-version'];
  const header = (Array.isArray(h) ? h[0] : h)?.trim();
  if (header) {
    if (!TYPE_NAME.test(header)) throw invalid(`invalid X-Actions-Version: '${header.slice(0, 40)}'`);
    return expandSupported([header]);
  }
  return expandSupported(actionTypeListParam(q, 'supported_action_types'));
}

/** Every type some version or topic names: the types the API has a details mapper for, bar the two below. */
const KNOWN_TYPES = new Set(Object.values(ACTION_TYPE_SETS).flat());
/** Types toncenter lists but renders without details (v3-api.md §6.6: `unknown`, coffee_mev_protect_failed_swap). */
const NO_DETAILS = new Set(['unknown', 'coffee_mev_protect_failed_swap']);

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown) => isObject(v) && Object.keys(v).length > 0;

/** The type clients see: a TON transfer or contract call carrying extra currencies is `extra_currency_transfer`. */
export function publicActionType(type: string, details: unknown): string {
  if (!isObject(details)) return type;
  if (type === 'ton_transfer' && nonEmpty(details.value_extra_currencies)) return 'extra_currency_transfer';
  if (type === 'call_contract' && nonEmpty(details.extra_currencies)) return 'extra_currency_transfer';
  return type;
}

/**
 * The details object clients see: as stored less the classifier's fields toncenter's API does not show
 * (hiddenDetailsKeys), or toncenter's error object for a type without a details mapper.
 */
export function publicDetails(type: string, details: unknown): unknown {
  if (NO_DETAILS.has(type) || !KNOWN_TYPES.has(type)) return { error: `unsupported action type: '${type}'` };
  if (!isObject(details)) return {};
  const hidden = hiddenDetailsKeys(type);
  if (hidden.size === 0) return details;
  return Object.fromEntries(Object.entries(details).filter(([k]) => !hidden.has(k)));
}

export interface ActionExtras {
  /** include_accounts: the action's participants. */
  accounts?: string[];
  /** include_transactions: its transactions, rendered, in its order. */
  transactionsFull?: Json[];
}

/** A stored action row (ACTION_COLUMNS, queries/action.ts) as the API's Action, keys in toncenter's order. */
export function actionJson(r: Row, extras: ActionExtras = {}): Json {
  const type = String(r.type);
  const out: Json = {
    trace_id: r.trace_id,
    action_id: r.action_id,
    start_lt: str(r.start_lt),
    end_lt: str(r.end_lt),
    start_utime: num(r.start_utime),
    end_utime: num(r.end_utime),
    trace_end_lt: str(r.trace_end_lt),
    trace_end_utime: num(r.trace_end_utime),
    trace_mc_seqno_end: num(r.trace_mc_seqno_end),
    transactions: r.tx_hashes ?? [],
    success: r.success,
    type: publicActionType(type, r.details),
    details: publicDetails(type, r.details),
  };
  // toncenter: *HashType with omitempty, so a trace without an external message (tick-tock) has neither key.
  if (r.trace_external_hash) out.trace_external_hash = r.trace_external_hash;
  if (r.trace_external_hash_norm) out.trace_external_hash_norm = r.trace_external_hash_norm;
  if (extras.accounts) out.accounts = extras.accounts;
  if (extras.transactionsFull) out.transactions_full = extras.transactionsFull;
  // Rows in the index belong to committed masterchain blocks (v3-api.md §2.6).
  out.finality = 'finalized';
  return out;
}

/** An emulated action as stored in pending_traces.actions: the API object plus its participants and ancestors. */
export interface StoredPendingAction extends Json {
  type: string;
  accounts?: string[];
  ancestor_type?: string[];
}

export function isStoredPendingAction(v: unknown): v is StoredPendingAction {
  return isObject(v) && typeof v.type === 'string';
}

/** The ancestor rule of v3-api.md §6.4 over an emulated action. */
export function pendingActionShown(a: StoredPendingAction, supported: ReadonlySet<string>): boolean {
  const ancestors = Array.isArray(a.ancestor_type) ? a.ancestor_type.map(String) : [];
  return isShown(a.type, ancestors, supported);
}

/** An emulated action as the API returns it: bookkeeping fields dropped, the read-time rules applied. */
export function pendingActionJson(a: StoredPendingAction, extras: ActionExtras = {}): Json {
  const { accounts: _a, ancestor_type: _t, transactions_full: _f, finality, ...rest } = a;
  const out: Json = { ...rest, type: publicActionType(a.type, a.details), details: publicDetails(a.type, a.details) };
  // As for stored actions: no key rather than null when the trace has no external message.
  for (const k of ['trace_external_hash', 'trace_external_hash_norm']) if (out[k] === null) delete out[k];
  if (extras.accounts) out.accounts = extras.accounts;
  if (extras.transactionsFull) out.transactions_full = extras.transactionsFull;
  out.finality = finality === 'confirmed' || finality === 'finalized' ? finality : 'pending';
  return out;
}

/** Raw addresses anywhere in a JSON value (an action's details name its participants under per-type keys). */
function addressesIn(v: unknown, out: string[]): void {
  if (typeof v === 'string') {
    if (isStoredRawAddress(v)) out.push(v);
  } else if (Array.isArray(v)) {
    for (const x of v) addressesIn(x, out);
  } else if (isObject(v)) {
    for (const x of Object.values(v)) addressesIn(x, out);
  }
}

/** Addresses an action puts in the address book and metadata: its generic columns and those its details name. */
export function actionAddresses(r: Row): string[] {
  const out: string[] = [];
  for (const c of [
    'source',
    'source_secondary',
    'destination',
    'destination_secondary',
    'asset',
    'asset_secondary',
    'asset2',
    'asset2_secondary',
  ]) {
    // Addresses only: tgBTC actions keep a bitcoin txid or a public key in some of these columns, as toncenter does.
    if (typeof r[c] === 'string' && isStoredRawAddress(r[c] as string)) out.push(r[c] as string);
  }
  addressesIn(r.details, out);
  return out;
}

/** Addresses of an emulated action (its details; its participants are not shown, so not listed). */
export function pendingActionAddresses(a: StoredPendingAction): string[] {
  const out: string[] = [];
  addressesIn(a.details, out);
  return out;
}
