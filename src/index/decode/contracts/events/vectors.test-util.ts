// Test support: a vector transaction through the pipeline's own row builder, both TransactionInputs (from the view
// and from the rows), a comparable form of them, and raw reads of reply bodies with plain @ton/core slice calls
// (not this folder's parsers), so cross-checks compare against what the contracts wrote.
import type { Address, Cell } from '@ton/core';
import type { BlockIdExt } from '../../../../ton/index.ts';
import { MESSAGE_COLUMNS, type Row, TRANSACTION_COLUMNS } from '../../columns.ts';
import { toTransactionRows } from '../../rows.ts';
import type { ContractEvent, MessageInput, TransactionInput } from '../types.ts';
import { transactionInput, transactionInputFromRows } from './transaction-input.ts';

const zip = (cols: readonly string[], row: Row): Record<string, unknown> =>
  Object.fromEntries(cols.map((c, i) => [c, row[i]]));

export interface BothInputs {
  fromView: TransactionInput;
  fromRows: TransactionInput;
}

/** One transaction cell -> its TransactionInput built from the view and from its rows (toTransactionRows). */
export function bothInputs(cell: Cell, id: BlockIdExt, mcSeqno: number, globalVersion: number): BothInputs {
  const d = toTransactionRows(cell, id, mcSeqno, globalVersion);
  const bodies = new Map(d.contents.map((r) => [r[0] as string, r[1] as string]));
  return {
    fromView: transactionInput(d.view, mcSeqno),
    fromRows: transactionInputFromRows(
      zip(TRANSACTION_COLUMNS, d.row),
      d.messages.map((m) => zip(MESSAGE_COLUMNS, m)),
      bodies,
    ),
  };
}

/** Anything holding Addresses, Cells, Buffers and bigints -> plain comparable values. */
export function plain(v: unknown): unknown {
  if (v === null || v === undefined) return v;
  if (typeof v === 'bigint') return `${v}n`;
  if (Buffer.isBuffer(v)) return `0x${v.toString('hex')}`;
  if (typeof v !== 'object') return v;
  if ('workChain' in v && 'hash' in v && typeof (v as Address).toRawString === 'function') {
    return (v as Address).toRawString();
  }
  if ('bits' in v && 'refs' in v && typeof (v as Cell).hash === 'function')
    return `cell:${(v as Cell).hash().toString('hex')}`;
  if (Array.isArray(v)) return v.map(plain);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
}

export const plainEvents = (es: ContractEvent[]) => es.map(plain);

export const raw = (a: Address | null | undefined) => (a ? a.toRawString() : null);

/** The out message of `tx` with this opcode (unsigned), or undefined. */
export function outWithOp(tx: TransactionInput, op: number): MessageInput | undefined {
  return tx.outMsgs.find((m) => m.opcode !== null && m.opcode >>> 0 === op >>> 0);
}

// internal_transfer#178d4519 query_id amount from response ...; burn_notification#7bdd97de query_id amount sender
// response; transfer_notification#7362d09c query_id amount sender ...; ownership_assigned#05138d91 query_id prev_owner
export function rawHead(body: Cell | null, addresses: number) {
  if (!body) throw new Error('no body');
  const s = body.beginParse();
  const op = s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const amount = addresses === 1 && op === 0x05138d91 ? null : s.loadCoins();
  const addrs: Array<string | null> = [];
  for (let i = 0; i < addresses; i++) addrs.push(raw(s.loadMaybeAddress()));
  return { op, queryId, amount, addrs };
}
