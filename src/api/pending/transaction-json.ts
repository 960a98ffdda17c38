// An emulated transaction as v3 shows a pending one: the same rows the indexer would write for it
// (toTransactionRows), rendered by v3's own transaction and message renderers, then marked as toncenter marks
// emulated data (`emulated: true`, `finality: "pending"`, `trace_external_hash` = the trace's key). It is in no
// block yet: mc_block_seqno 0, block_ref the account's shard with seqno 0; account states show their hashes only.
import type { Row } from '../../db/index.ts';
import { MESSAGE_COLUMNS, TRANSACTION_COLUMNS, toTransactionRows } from '../../index/index.ts';
import { messageJson } from '../v3/render/message.ts';
import { transactionJson } from '../v3/render/transaction.ts';
import type { EmulatedTransaction } from './emulate-trace.ts';

const named = (columns: readonly string[], values: readonly unknown[]): Row =>
  Object.fromEntries(columns.map((c, i) => [c, values[i]]));

export function pendingTransactionJson(
  e: EmulatedTransaction,
  opts: { traceId: string; traceKey: string; globalVersion: number },
): Record<string, unknown> {
  const block = {
    workchain: e.workchain,
    shard: e.shard,
    seqno: 0,
    rootHash: Buffer.alloc(32),
    fileHash: Buffer.alloc(32),
  };
  const d = toTransactionRows(e.cell, block, 0, opts.globalVersion);
  const bodies = new Map(d.contents.map((c) => [String(c[0]), String(c[1])]));
  const messages = d.messages.map((m) => {
    const r = named(MESSAGE_COLUMNS, m);
    r.body_boc = bodies.get(String(r.body_hash)) ?? null;
    r.init_state_boc = r.init_state_hash ? (bodies.get(String(r.init_state_hash)) ?? null) : null;
    return r;
  });
  const inRow = messages.find((m) => m.direction === 'in');
  const tx = transactionJson(
    { ...named(TRANSACTION_COLUMNS, d.row), trace_id: opts.traceId },
    {
      inMsg: inRow ? messageJson(inRow) : null,
      outMsgs: messages.filter((m) => m.direction === 'out').map((m) => messageJson(m)),
      states: new Map(),
    },
  );
  // toncenter's key order: trace_external_hash right after trace_id.
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tx)) {
    out[k] = v;
    if (k === 'trace_id') out.trace_external_hash = opts.traceKey;
  }
  out.emulated = true;
  out.finality = 'pending';
  return out;
}
