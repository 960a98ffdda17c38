// A transaction cell as v3 shows it outside the index: the same rows the indexer would write for it
// (toTransactionRows), rendered by v3's own transaction and message renderers. Two callers: the send path's
// emulation (pending: in no block yet, so block_ref is the account's shard with seqno 0, `emulated: true`) and the
// streaming feed of shard blocks not yet committed by a masterchain block (confirmed: the real block_ref,
// `emulated: false`). Neither is in a masterchain block yet: mc_block_seqno 0; account states show their hashes only.
import type { Cell } from '@ton/core';
import type { Row } from '../../db/index.ts';
import { MESSAGE_COLUMNS, TRANSACTION_COLUMNS, toTransactionRows } from '../../index/index.ts';
import type { BlockIdExt } from '../../ton/index.ts';
import { messageJson } from '../v3/render/message.ts';
import { transactionJson } from '../v3/render/transaction.ts';
import type { EmulatedTransaction } from './emulate-trace.ts';

const named = (columns: readonly string[], values: readonly unknown[]): Row =>
  Object.fromEntries(columns.map((c, i) => [c, values[i]]));

export interface UnindexedTransactionOptions {
  /** null: left out (toncenter leaves trace_id out while the trace's root is emulated). */
  traceId: string | null;
  traceKey: string;
  globalVersion: number;
  finality: 'pending' | 'confirmed';
}

/** A transaction of `block` (seqno 0: emulated, in no block) as a v3 Transaction with toncenter's stream marks. */
export function unindexedTransactionJson(
  cell: Cell,
  block: BlockIdExt,
  opts: UnindexedTransactionOptions,
): Record<string, unknown> {
  const d = toTransactionRows(cell, block, 0, opts.globalVersion);
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
  out.emulated = opts.finality === 'pending';
  out.finality = opts.finality;
  return out;
}

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
  return unindexedTransactionJson(e.cell, block, { ...opts, finality: 'pending' });
}
