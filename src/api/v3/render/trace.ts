// Traces as v3 JSON (v3-api.md §4.8, §6.1): the traces row (counters as trace_info, seqnos as strings) and, for a
// trace small enough, its transactions in (lt, account) order, the map of them, and the tree rebuilt from them: a
// transaction is the child of the one that sent its inbound message. The tree is rebuilt here from the transactions
// rather than stored, as toncenter's API does, so it always agrees with the rows it is shown with.
import type { Row } from '../sql-query.ts';
import { str } from './values.ts';

/** toncenter's -max-trace-txs default: a larger trace is listed without its transactions. */
export const MAX_TRACE_TXS = 4000;

export const TOO_LARGE = 'trace is too large';

/** Deepest tree served: JSON.stringify recurses per level and overflows near 2,000 (a linear chain of txs). */
export const MAX_TREE_DEPTH = 1000;

function depthOf(tree: TraceNodeJson): number {
  let max = 0;
  const stack: Array<[TraceNodeJson, number]> = [[tree, 1]];
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    max = Math.max(max, d);
    for (const c of n.children) stack.push([c, d + 1]);
  }
  return max;
}
export const MISSING_NODE = 'missing node in trace found';

type Json = Record<string, unknown>;

export interface TraceNodeJson {
  tx_hash: string;
  /** Absent for a transaction without an inbound message (tick-tock). */
  in_msg_hash?: string;
  children: TraceNodeJson[];
}

/** A rendered transaction's inbound message hash and outbound message hashes. */
function links(tx: Json): { inHash: string | null; outHashes: string[] } {
  const inMsg = tx.in_msg as Json | null | undefined;
  const outs = (tx.out_msgs as Json[] | undefined) ?? [];
  return {
    inHash: inMsg && typeof inMsg.hash === 'string' ? inMsg.hash : null,
    outHashes: outs.map((m) => m.hash).filter((h): h is string => typeof h === 'string'),
  };
}

/**
 * The tree of a trace's transactions, given in (lt, account) order: each transaction hangs under the one whose
 * outbound message it received (a sender always precedes its receivers in lt). The first transaction without a
 * sender in the set is the root; any further one means a member is missing (its sender was never indexed, or the
 * trace is still being emulated) and is reported as toncenter reports it, by the warning, without a place in the tree.
 */
export function buildTraceTree(
  order: readonly string[],
  txs: ReadonlyMap<string, Json>,
): { tree: TraceNodeJson | null; warning: string | null } {
  const senderOf = new Map<string, TraceNodeJson>();
  let root: TraceNodeJson | null = null;
  let warning: string | null = null;
  for (const hash of order) {
    const tx = txs.get(hash);
    if (!tx) continue;
    const { inHash, outHashes } = links(tx);
    const node: TraceNodeJson = inHash
      ? { tx_hash: hash, in_msg_hash: inHash, children: [] }
      : { tx_hash: hash, children: [] };
    const parent = inHash ? senderOf.get(inHash) : undefined;
    if (parent && inHash) {
      senderOf.delete(inHash);
      parent.children.push(node);
    } else if (root === null) root = node;
    else warning = MISSING_NODE;
    for (const h of outHashes) senderOf.set(h, node);
  }
  return { tree: root, warning };
}

export interface TraceParts {
  /** Rendered transactions of the trace in (lt, account) order; absent when the trace is too large to list. */
  transactions?: Json[];
  /** With include_actions: the actions shown to the client. */
  actions?: Json[];
}

/** True when the trace is listed without its transactions (more than MAX_TRACE_TXS of them). */
export function traceTooLarge(r: Row): boolean {
  return Number(r.nodes_) > MAX_TRACE_TXS;
}

/** A traces row (TRACE_COLUMNS, queries/trace.ts) and its parts as the API's Trace, in toncenter's key order. */
export function traceJson(r: Row, parts: TraceParts): Json {
  const warnings: string[] = [];
  const tooLarge = traceTooLarge(r);
  if (tooLarge) warnings.push(TOO_LARGE);
  const out: Json = {
    trace_id: r.trace_id,
    // toncenter: *HashType without omitempty, so a trace with no inbound message on its root says null.
    external_hash: r.external_hash ?? null,
    mc_seqno_start: str(r.mc_seqno_start),
    mc_seqno_end: str(r.mc_seqno_end),
    start_lt: str(r.start_lt),
    start_utime: Number(r.start_utime),
    end_lt: str(r.end_lt),
    end_utime: Number(r.end_utime),
    trace_info: {
      trace_state: r.state,
      messages: Number(r.edges_),
      transactions: Number(r.nodes_),
      pending_messages: Number(r.pending_edges_),
      classification_state: r.classification_state,
    },
    is_incomplete: tooLarge,
  };
  let txs = tooLarge ? [] : (parts.transactions ?? []);
  let tree: TraceNodeJson | null = null;
  if (txs.length > 0) {
    const byHash = new Map(txs.map((t) => [String(t.hash), t]));
    const built = buildTraceTree([...byHash.keys()], byHash);
    tree = built.tree;
    if (built.warning) warnings.push(built.warning);
    if (tree && depthOf(tree) > MAX_TREE_DEPTH) {
      // A chain this deep would overflow the JSON serializer's recursion: listed as too large instead of a 500.
      tree = null;
      txs = [];
      out.is_incomplete = true;
      warnings.push(TOO_LARGE);
    }
  }
  if (warnings.length > 0) out.warning = warnings.join(', ');
  if (parts.actions) out.actions = parts.actions;
  // omitempty in toncenter: a trace listed without transactions has none of the three keys.
  if (tree) out.trace = tree;
  if (txs.length > 0) {
    out.transactions_order = txs.map((t) => t.hash);
    out.transactions = Object.fromEntries(txs.map((t) => [String(t.hash), t]));
  }
  return out;
}

/** The addresses a rendered transaction puts in the address book: its account, sender, receivers. */
export function transactionAddresses(tx: Json): string[] {
  const out: string[] = [];
  if (typeof tx.account === 'string') out.push(tx.account);
  const inMsg = tx.in_msg as Json | null | undefined;
  if (inMsg && typeof inMsg.source === 'string') out.push(inMsg.source);
  for (const m of (tx.out_msgs as Json[] | undefined) ?? [])
    if (typeof m.destination === 'string') out.push(m.destination);
  return out;
}
