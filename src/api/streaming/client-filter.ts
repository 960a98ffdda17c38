// Per-connection cut of the streaming feed (../shared/specs/streaming.md §3.2–§3.7, Appendix B): which notifications
// one client gets for one internal event, and the connection's set of traces that may still be invalidated.
//
// The hub runs this for every client for every event, so the common "nothing for this client" path allocates
// nothing, and whatever is the same for every client (sorted transactions, the trace's transaction map, the
// account notifications) is derived once per event and memoised on the event object. The returned notifications
// therefore share objects with the event and with other clients' notifications: the hub must treat them as
// read-only (and may cache their encoding by identity). The event itself is never mutated.

import {
  type AccountFeedEvent,
  type FeedEvent,
  FINALITY_ORDER,
  type Finality,
  type Json,
  type StreamAction,
  type TraceFeedEvent,
} from './events.ts';
import type { Subscription } from './subscription.ts';

const NONE: readonly Json[] = Object.freeze([]);

type Book = Record<string, Json>;

/** Allocates the result list only once there is something in it. */
function append(list: Json[] | undefined, n: Json): Json[] {
  if (!list) return [n];
  list.push(n);
  return list;
}

function reaches(finality: Finality, sub: Subscription): boolean {
  return FINALITY_ORDER[finality] >= FINALITY_ORDER[sub.minFinality];
}

/** Traces one connection may hold for invalidation: far more than it can be in the middle of (pending lasts 60 s). */
export const MAX_ARMED_TRACES = 10_000;

/** One connection's filter: holds its invalidation set (§3.7), which a reconnect starts afresh. */
export class ClientFilter {
  private readonly armed = new Set<string>();

  /** Traces this connection was sent pending or confirmed data of, and no finalized data or invalidation since. */
  get invalidationSet(): ReadonlySet<string> {
    return this.armed;
  }

  /**
   * The notifications to send this client for one event, in order (often none). Read-only: see the file header.
   * `sub` null (a WebSocket before its first subscribe) still gets the invalidations it is owed.
   */
  notificationsFor(event: FeedEvent, sub: Subscription | null): readonly Json[] {
    switch (event.kind) {
      case 'trace':
        return sub ? this.forTrace(event, sub) : NONE;
      case 'account':
        return sub ? forAccount(event, sub) : NONE;
      case 'trace_invalidated':
        // Only to a connection that got non-final data of the trace, whatever it subscribes to now; once.
        if (!this.armed.delete(event.traceKey)) return NONE;
        return [invalidationNotification(event.traceKey)];
    }
  }

  private forTrace(e: TraceFeedEvent, sub: Subscription): readonly Json[] {
    if (!reaches(e.finality, sub)) return NONE;
    let out: Json[] | undefined;
    if (sub.types.has('transactions')) {
      const n = transactionsNotification(e, sub);
      if (n) out = append(out, n);
    }
    if (e.classified) {
      if (sub.types.has('actions')) {
        const n = actionsNotification(e, sub);
        if (n) out = append(out, n);
      }
      if (sub.types.has('trace') && e.tree !== null && sub.traceHashes.has(e.traceKey)) {
        out = append(out, traceNotification(e, sub));
      }
    }
    if (!out) return NONE;
    // Non-final data may yet be invalidated; finalized data settles the trace for this connection.
    if (e.finality === 'finalized') this.armed.delete(e.traceKey);
    else {
      // Re-armed traces move to the end; past the bound the oldest is forgotten (insertion order), so a connection
      // that is never given the end of its traces cannot grow the set without limit (toncenter's has no bound).
      this.armed.delete(e.traceKey);
      this.armed.add(e.traceKey);
      if (this.armed.size > MAX_ARMED_TRACES) this.armed.delete(this.armed.values().next().value as string);
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What is the same for every client, derived once per event
// ---------------------------------------------------------------------------------------------------------------

interface TraceDerived {
  byLtDesc?: readonly Json[];
  txMap?: Json;
  actionJson?: readonly Json[];
}
interface AccountDerived {
  state?: Json;
  /** jettons_change by [with address_book][with metadata]. */
  jetton: (Json | undefined)[];
}

const traceDerived = new WeakMap<TraceFeedEvent, TraceDerived>();
const accountDerived = new WeakMap<AccountFeedEvent, AccountDerived>();

function derivedOf(e: TraceFeedEvent): TraceDerived {
  let d = traceDerived.get(e);
  if (!d) {
    d = {};
    traceDerived.set(e, d);
  }
  return d;
}

function ltOf(tx: Json): bigint {
  const lt = tx.lt;
  if (typeof lt !== 'string' && typeof lt !== 'number') return -1n;
  try {
    return BigInt(lt);
  } catch {
    return -1n;
  }
}

/** The event's transactions by lt descending, compared as integers (a stable sort: equal lts keep event order). */
function transactionsByLtDesc(e: TraceFeedEvent): readonly Json[] {
  const d = derivedOf(e);
  if (!d.byLtDesc) {
    const keyed = e.transactions.map((tx) => ({ tx, lt: ltOf(tx) }));
    keyed.sort((a, b) => (a.lt === b.lt ? 0 : a.lt > b.lt ? -1 : 1));
    d.byLtDesc = keyed.map((k) => k.tx);
  }
  return d.byLtDesc;
}

/** Every transaction of the trace keyed by hash, keys in byte order as Go's map encoder writes them. */
function traceTransactionMap(e: TraceFeedEvent): Json {
  const d = derivedOf(e);
  if (!d.txMap) {
    const list = [...(e.traceTransactions ?? e.transactions)];
    list.sort((a, b) => compareStrings(String(a.hash), String(b.hash)));
    const map: Json = {};
    for (const tx of list) map[String(tx.hash)] = tx;
    d.txMap = map;
  }
  return d.txMap;
}

function allActionJson(e: TraceFeedEvent): readonly Json[] {
  const d = derivedOf(e);
  d.actionJson ??= e.actions.map((a) => a.json);
  return d.actionJson;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Address book and metadata
// ---------------------------------------------------------------------------------------------------------------

/** The entries of `book` for `addresses` (those it has), keys sorted as Go writes a map. */
function pick(book: Book, addresses: readonly string[]): Book {
  const out: Book = {};
  for (const a of addresses) if (Object.hasOwn(book, a)) out[a] = book[a]!;
  return out;
}

/**
 * Adds address_book and metadata cut to the addresses `collect` yields, each only when the client asked and the
 * event carries it (then `{}` if none applies). `collect` runs only when something is to be cut.
 */
function attachCut(
  n: Json,
  sub: Subscription,
  src: { addressBook?: Book; metadata?: Book },
  collect: (into: Set<string>) => void,
): Json {
  const book = sub.includeAddressBook ? src.addressBook : undefined;
  const meta = sub.includeMetadata ? src.metadata : undefined;
  if (!book && !meta) return n;
  const set = new Set<string>();
  collect(set);
  const addresses = [...set].sort(compareStrings);
  if (book) n.address_book = pick(book, addresses);
  if (meta) n.metadata = pick(meta, addresses);
  return n;
}

/** address_book and metadata whole (trace, jettons_change), each only when asked for and present. */
function attachWhole(n: Json, sub: Subscription, src: { addressBook?: Book; metadata?: Book }): Json {
  if (sub.includeAddressBook && src.addressBook) n.address_book = src.addressBook;
  if (sub.includeMetadata && src.metadata) n.metadata = src.metadata;
  return n;
}

// ---------------------------------------------------------------------------------------------------------------
// Trace-based notifications
// ---------------------------------------------------------------------------------------------------------------

function accountOf(tx: Json): unknown {
  return tx.account;
}

/** §3.2: the subscribed accounts' transactions, lt descending; none when no account matches. */
function transactionsNotification(e: TraceFeedEvent, sub: Subscription): Json | undefined {
  const subscribed = sub.addresses;
  if (subscribed.size === 0 || !e.transactions.some((tx) => subscribed.has(accountOf(tx) as string))) return undefined;
  const kept = transactionsByLtDesc(e).filter((tx) => subscribed.has(accountOf(tx) as string));
  const n: Json = {
    type: 'transactions',
    finality: e.finality,
    trace_external_hash_norm: e.traceKey,
    transactions: kept,
  };
  return attachCut(n, sub, e, (into) => {
    for (const tx of kept) collectTransactionAddresses(tx, into);
  });
}

/** The account, the inbound message's source and the outbound messages' destinations (§3.2). */
function collectTransactionAddresses(tx: Json, into: Set<string>): void {
  if (typeof tx.account === 'string') into.add(tx.account);
  const inMsg = tx.in_msg as Json | null | undefined;
  if (inMsg && typeof inMsg.source === 'string') into.add(inMsg.source);
  const outMsgs = tx.out_msgs;
  if (Array.isArray(outMsgs)) {
    for (const m of outMsgs as (Json | null)[]) if (m && typeof m.destination === 'string') into.add(m.destination);
  }
}

/** §2.4: the action_types filter, then the ancestor rule, then the supported set. */
function passesActionFilters(a: StreamAction, sub: Subscription): boolean {
  const type = a.json.type as string;
  if (sub.actionTypes && !sub.actionTypes.has(type)) return false;
  for (const t of a.ancestorType) if (sub.supportedActionTypes.has(t)) return false;
  return sub.supportedActionTypes.has(type);
}

function touchesSubscribed(a: StreamAction, subscribed: ReadonlySet<string>): boolean {
  const accounts = a.json.accounts;
  if (!Array.isArray(accounts)) return false;
  for (const acc of accounts as unknown[]) if (subscribed.has(acc as string)) return true;
  return false;
}

/** §3.3: actions naming a subscribed account and passing §2.4; none when none is left. */
function actionsNotification(e: TraceFeedEvent, sub: Subscription): Json | undefined {
  if (sub.addresses.size === 0) return undefined;
  let kept: StreamAction[] | undefined;
  for (const a of e.actions) {
    if (!touchesSubscribed(a, sub.addresses) || !passesActionFilters(a, sub)) continue;
    if (kept) kept.push(a);
    else kept = [a];
  }
  if (!kept) return undefined;
  const actions = kept;
  const n: Json = {
    type: 'actions',
    finality: e.finality,
    trace_external_hash_norm: e.traceKey,
    actions: actions.length === e.actions.length ? allActionJson(e) : actions.map((a) => a.json),
  };
  return attachCut(n, sub, e, (into) => {
    for (const a of actions) for (const addr of a.addresses) into.add(addr);
  });
}

/** §3.4: the whole trace; its actions after §2.4 (left out when none is left); address book and metadata whole. */
function traceNotification(e: TraceFeedEvent, sub: Subscription): Json {
  const n: Json = {
    type: 'trace',
    finality: e.finality,
    trace_external_hash_norm: e.traceKey,
    trace: e.tree,
    transactions: traceTransactionMap(e),
  };
  let kept = 0;
  for (const a of e.actions) if (passesActionFilters(a, sub)) kept++;
  if (kept > 0) {
    n.actions =
      kept === e.actions.length
        ? allActionJson(e)
        : e.actions.filter((a) => passesActionFilters(a, sub)).map((a) => a.json);
  }
  return attachWhole(n, sub, e);
}

/** No finality: an invalidation is not data at a level. Built per delivery; a connection gets it at most once. */
function invalidationNotification(traceKey: string): Json {
  return { type: 'trace_invalidated', trace_external_hash_norm: traceKey };
}

// ---------------------------------------------------------------------------------------------------------------
// Account-based notifications
// ---------------------------------------------------------------------------------------------------------------

/** §3.5 and §3.6: account_state_change for a subscribed account, then jettons_change for its wallet or owner. */
function forAccount(e: AccountFeedEvent, sub: Subscription): readonly Json[] {
  const subscribed = sub.addresses;
  if (subscribed.size === 0 || !reaches(e.finality, sub)) return NONE;
  const state = sub.types.has('account_state_change') && subscribed.has(e.account);
  const jetton =
    e.jetton !== undefined &&
    sub.types.has('jettons_change') &&
    (subscribed.has(e.jetton.address as string) || subscribed.has(e.jetton.owner as string));
  if (!state && !jetton) return NONE;
  let d = accountDerived.get(e);
  if (!d) {
    d = { jetton: [] };
    accountDerived.set(e, d);
  }
  const out: Json[] = [];
  if (state) {
    d.state ??= { type: 'account_state_change', finality: e.finality, account: e.account, state: e.state };
    out.push(d.state);
  }
  if (jetton) {
    const withBook = sub.includeAddressBook && e.addressBook !== undefined;
    const withMeta = sub.includeMetadata && e.metadata !== undefined;
    const slot = (withBook ? 2 : 0) + (withMeta ? 1 : 0);
    let n = d.jetton[slot];
    if (!n) {
      n = { type: 'jettons_change', finality: e.finality, jetton: e.jetton };
      if (withBook) n.address_book = e.addressBook;
      if (withMeta) n.metadata = e.metadata;
      d.jetton[slot] = n;
    }
    out.push(n);
  }
  return out;
}
