// An emulated trace as the pending_traces row (schema/0007): the classifier's tree built from the emulated
// transactions with the same code block transactions go through (transactionView -> traceTxOfView -> linkTrees ->
// traceOfTree), its actions, and the Trace object /api/v3/pendingTraces serves (v3-api.md §4.8, §3.3): trace_id the
// emulated root transaction's hash, mc_seqno_start/end "0", trace_state "pending", the `trace` tree,
// transactions_order (lt, then account) and the transactions map.
import {
  type Action,
  linkTrees,
  type TraceInput,
  type TraceNode,
  traceOfTree,
  traceTxOfView,
} from '../../index/actions/index.ts';
import { transactionView } from '../../ton/index.ts';
import { type PendingActionJson, pendingActionJson } from './action-json.ts';
import type { EmulatedTrace } from './emulate-trace.ts';
import { pendingTransactionJson } from './transaction-json.ts';

export interface PendingTraceRow {
  /** TEP-467 normalized hash of the external message, base64 (the primary key). */
  traceKey: string;
  /** Hash of the message as sent, base64. */
  extMsgHash: string;
  /** Raw addresses of the emulated transactions and of the actions' participants, sorted. */
  accounts: string[];
  /** Inbound message hash of every emulated transaction. */
  txInMsgHashes: string[];
  trace: Record<string, unknown>;
  actions: PendingActionJson[];
}

const b64 = (b: Buffer) => b.toString('base64');

/** The classifier's input for an emulated trace: one tree rooted at the transaction of the external message. */
export function pendingTraceInput(e: EmulatedTrace): TraceInput {
  const txs = e.transactions.map((t) =>
    traceTxOfView(transactionView(t.tx, { workchain: t.workchain, globalVersion: e.globalVersion }), 0, true),
  );
  const rootHash = txs[0]?.hash;
  // Every emulated transaction descends from the root through the messages that made it: one tree.
  const tree = linkTrees(txs).find((t) => t.root.tx.hash === rootHash);
  if (!tree) throw new RangeError('an emulated trace has no transactions');
  return traceOfTree(tree, { externalHashNorm: b64(e.message.hashNorm) });
}

function treeJson(n: TraceNode): Record<string, unknown> {
  return { tx_hash: n.tx.hash, in_msg_hash: n.tx.inMsg?.hash ?? null, children: n.children.map(treeJson) };
}

export function pendingTraceRow(e: EmulatedTrace, input: TraceInput, actions: readonly Action[]): PendingTraceRow {
  const traceKey = b64(e.message.hashNorm);
  const inTree = new Set(input.nodes.map((n) => n.tx.hash));
  const transactions: Record<string, unknown> = {};
  for (const t of e.transactions) {
    const hash = b64(t.cell.hash());
    if (!inTree.has(hash)) continue;
    transactions[hash] = pendingTransactionJson(t, {
      traceId: input.traceId,
      traceKey,
      globalVersion: e.globalVersion,
    });
  }
  let startUtime = Number.MAX_SAFE_INTEGER;
  // Completed edges as the assembler counts them: the root's external message, every internal message received,
  // every external-out message (log).
  let messages = 0;
  for (const n of input.nodes) {
    startUtime = Math.min(startUtime, n.tx.now);
    if (n.tx.inMsg) messages++;
    for (const m of n.tx.outMsgs) if (m.destination === null) messages++;
  }
  const trace: Record<string, unknown> = {
    trace_id: input.traceId,
    external_hash: input.externalHash,
    mc_seqno_start: '0',
    mc_seqno_end: '0',
    start_lt: input.nodes[0]!.tx.lt.toString(),
    start_utime: startUtime,
    end_lt: input.endLt.toString(),
    end_utime: input.endUtime,
    trace_info: {
      trace_state: 'pending',
      messages,
      transactions: input.nodes.length,
      pending_messages: 0,
      classification_state: 'ok',
    },
    is_incomplete: e.incomplete,
    trace: treeJson(input.root),
    transactions_order: input.nodes.map((n) => n.tx.hash),
    transactions,
  };
  const accounts = new Set<string>();
  for (const n of input.nodes) accounts.add(n.tx.account);
  for (const a of actions) for (const p of a.accounts) accounts.add(p);
  return {
    traceKey,
    extMsgHash: b64(e.message.hash),
    accounts: [...accounts].sort(),
    txInMsgHashes: input.nodes.flatMap((n) => (n.tx.inMsg ? [n.tx.inMsg.hash] : [])),
    trace,
    actions: actions.map(pendingActionJson),
  };
}
