// Test-only: traces for the classifier from what @ton/sandbox's emulator ran (real TVM transactions of real contract
// code), through the same view and linking code the pipeline uses for block transactions.
import type { Address, Transaction } from '@ton/core';
import { transactionFromCell, transactionView } from '../../../ton/index.ts';
import { linkTrees, traceOfTree, traceTxOfView } from '../tree.ts';
import type { TraceInput, TraceMessage, TraceNode, TraceTx } from '../types.ts';

/** The account's workchain: a transaction holds only the 256-bit id, its inbound message the full address. */
function workchainOf(tx: Transaction): number {
  const dest = tx.inMessage?.info.dest;
  if (dest && typeof dest === 'object' && 'workChain' in dest) return dest.workChain;
  throw new Error('sandboxTrace: a transaction without an inbound message (tick-tock) has no known workchain');
}

export function traceTxOfSandbox(tx: Transaction, mcSeqno = 1): TraceTx {
  return traceTxOfView(transactionView(transactionFromCell(tx.raw), { workchain: workchainOf(tx) }), mcSeqno);
}

/**
 * The sandbox hands each internal message to the next transaction re-serialised (@ton/core's storeMessage), so a
 * message with a StateInit can reach its receiver under another cell hash than the one its sender emitted. On a
 * chain both are the same cell: give the inbound message the hash its sender's out-message has.
 */
function sameHashes(txs: TraceTx[]): TraceTx[] {
  const key = (m: TraceMessage) => `${m.source}|${m.destination}|${m.createdLt}`;
  const sent = new Map<string, string>();
  for (const t of txs) for (const m of t.outMsgs) sent.set(key(m), m.hash);
  return txs.map((t) => {
    const m = t.inMsg;
    const hash = m?.source ? sent.get(key(m)) : undefined;
    return m && hash && hash !== m.hash ? { ...t, inMsg: { ...m, hash } } : t;
  });
}

/** The one trace the transactions form (throws when they form several or none). */
export function sandboxTrace(txs: readonly Transaction[]): TraceInput {
  const trees = linkTrees(sameHashes(txs.map((t) => traceTxOfSandbox(t))));
  if (trees.length !== 1) throw new Error(`sandboxTrace: expected one trace, got ${trees.length}`);
  return traceOfTree(trees[0]!);
}

/** Raw upper-case form, as the classifier's model and the API write addresses. */
export const rawOf = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

/** The node whose transaction received a message from `from` to `to` (raw addresses), with inbound opcode `op`. */
export function nodeOf(trace: TraceInput, q: { from?: Address; to: Address; op?: number }): TraceNode {
  const found = trace.nodes.filter((n) => {
    const m = n.tx.inMsg;
    return (
      n.tx.account === rawOf(q.to) &&
      (!q.from || m?.source === rawOf(q.from)) &&
      (q.op === undefined || m?.opcode === q.op)
    );
  });
  if (found.length !== 1) throw new Error(`nodeOf: expected one transaction, got ${found.length}`);
  return found[0]!;
}
