// The streaming feed's internal events (before per-client filtering), as producers publish them on the bus and the
// hub hands them to each connection's subscription. The client-facing notifications (toncenter Streaming API v2,
// ../shared/specs/streaming.md §3) are cut from these per client by ./client-filter.ts.

export type Finality = 'pending' | 'confirmed' | 'finalized';

export const FINALITY_ORDER: Readonly<Record<Finality, number>> = { pending: 0, confirmed: 1, finalized: 2 };

export type Json = Record<string, unknown>;

/** A node of the trace tree, as streaming.md §3.4 sends it. */
export interface StreamTraceNode {
  tx_hash: string;
  in_msg_hash?: string;
  /** [] for a transaction without outbound messages; null when its outbound messages made no transaction here. */
  children: StreamTraceNode[] | null;
}

/** An action as v3 /actions renders it, with what the filters need beside it (never sent). */
export interface StreamAction {
  /** The v3 Action object, including `accounts` (raw addresses), `type` and `finality`. */
  json: Json;
  /** Types of the actions enclosing this one (the §2.4 ancestor rule). */
  ancestorType: readonly string[];
  /** Raw addresses named in the action's fields (source, destination, assets, …): the address-book cut (§3.3). */
  addresses: readonly string[];
}

/**
 * One trace at one finality: the source of `transactions`, `actions` and `trace` notifications. `transactions` are v3
 * Transaction objects (each with its own `finality`), in lt order; the per-client cut keeps the subscribed accounts'
 * ones and sorts them by lt descending.
 */
export interface TraceFeedEvent {
  kind: 'trace';
  finality: Finality;
  /** trace_external_hash_norm: base64 of the normalized hash of the external-in message (or the trace id). */
  traceKey: string;
  transactions: Json[];
  /**
   * The same transactions as the `trace` notification's map shows them, when they differ from `transactions`: there
   * each carries `trace_external_hash` and decoded message bodies (§3.2, §3.4), which `transactions` events leave
   * out or null. Absent: `transactions` is used for the map too.
   */
  traceTransactions?: Json[];
  /** The trace's actions (all types; the per-client filters apply §2.4). Empty when not classified yet. */
  actions: StreamAction[];
  /** null when the tree could not be assembled: no `trace` notification then. */
  tree: StreamTraceNode | null;
  /** Whether `actions` and `trace` notifications come from this event (false: transactions only). */
  classified: boolean;
  /** Address book and metadata of every address in the event, when the producer had a database. */
  addressBook?: Record<string, Json>;
  metadata?: Record<string, Json>;
}

/** An account's state moved forward: `account_state_change`, and `jettons_change` when `jetton` is set. */
export interface AccountFeedEvent {
  kind: 'account';
  finality: Exclude<Finality, 'pending'>;
  /** Raw uppercase address. */
  account: string;
  /** streaming.md §3.5 AccountState. */
  state: Json;
  /** The v3 JettonWallet object when the account is a jetton wallet. */
  jetton?: Json;
  /** For jettons_change: the wallet, owner and master (address book) and owner and master (metadata). */
  addressBook?: Record<string, Json>;
  metadata?: Record<string, Json>;
}

/** Pending or confirmed data of a trace that will not land as sent (§3.7). */
export interface InvalidationFeedEvent {
  kind: 'trace_invalidated';
  traceKey: string;
}

export type FeedEvent = TraceFeedEvent | AccountFeedEvent | InvalidationFeedEvent;

/**
 * A feed event with its place: finalized events from the index carry a cursor (opaque to clients, ordered as the
 * index replays them); pending and invalidation events carry none.
 */
export interface Positioned<E extends FeedEvent = FeedEvent> {
  event: E;
  cursor?: string;
}
