// TransactionInput from the two places a transaction comes from: the pipeline's TransactionView (src/ton) and the
// rows the database stores (transactions, messages, message_contents; encodings in src/index/decode/rows.ts:
// base64 hashes, raw upper-case addresses, base64 BoCs). `rederive` uses the second; both must give equal inputs
// for the same transaction, so out messages are in creation (created_lt) order in both.
import { Address, type Cell } from '@ton/core';
import type { MessageView, TransactionView } from '../../../../ton/index.ts';
import { cellFromBase64 } from '../../../../ton/index.ts';
import type { MessageInput, TransactionInput } from '../types.ts';

function messageInput(m: MessageView): MessageInput {
  return {
    hash: m.hash,
    source: m.source,
    destination: m.destination,
    value: m.value,
    bounced: m.bounced,
    opcode: m.opcode,
    body: m.body,
    createdLt: m.createdLt,
  };
}

/** A transaction as the pipeline decodes it (`transactionView` of a block's transaction cell). */
export function transactionInput(view: TransactionView, mcSeqno: number): TransactionInput {
  const c = view.description.computePh;
  return {
    account: view.account,
    hash: view.hash,
    lt: view.lt,
    now: view.now,
    mcSeqno,
    aborted: view.description.aborted === true,
    computeSuccess: c && !c.skipped ? c.success : null,
    inMsg: view.inMsg ? messageInput(view.inMsg) : null,
    outMsgs: view.outMsgs.map(messageInput),
  };
}

/** A row as read from the database (column name -> value) or built by zipping a Row with its column list. */
export type StoredRow = Readonly<Record<string, unknown>>;

function text(row: StoredRow, col: string): string {
  const v = row[col];
  if (typeof v !== 'string') throw new TypeError(`stored row: ${col} is ${v === null ? 'null' : typeof v}, not text`);
  return v;
}

function bigOrNull(v: unknown): bigint | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' || typeof v === 'string') return BigInt(v);
  throw new TypeError(`stored row: ${typeof v} is not an integer`);
}

function numOrNull(v: unknown): number | null {
  const b = bigOrNull(v);
  return b === null ? null : Number(b);
}

const boolOrNull = (v: unknown): boolean | null => (v === null || v === undefined ? null : v === true || v === 't');
const addressOrNull = (v: unknown): Address | null => (typeof v === 'string' && v !== '' ? Address.parseRaw(v) : null);

function bodyOf(row: StoredRow, bodies: ReadonlyMap<string, string | Cell> | undefined): Cell | null {
  const inline = row.body_boc;
  if (typeof inline === 'string') return cellFromBase64(inline);
  const hash = row.body_hash;
  const stored = typeof hash === 'string' ? bodies?.get(hash) : undefined;
  if (stored === undefined) return null;
  return typeof stored === 'string' ? cellFromBase64(stored) : stored;
}

function storedMessage(row: StoredRow, bodies: ReadonlyMap<string, string | Cell> | undefined): MessageInput {
  return {
    hash: Buffer.from(text(row, 'msg_hash'), 'base64'),
    source: addressOrNull(row.source),
    destination: addressOrNull(row.destination),
    value: bigOrNull(row.value),
    bounced: boolOrNull(row.bounced),
    opcode: numOrNull(row.opcode),
    body: bodyOf(row, bodies),
    createdLt: bigOrNull(row.created_lt),
  };
}

const byCreation = (a: MessageInput, b: MessageInput): number => {
  const x = a.createdLt ?? 0n;
  const y = b.createdLt ?? 0n;
  return x < y ? -1 : x > y ? 1 : Buffer.compare(a.hash, b.hash);
};

/**
 * A transaction from its stored rows: `tx` a transactions row, `messages` its messages rows (both directions;
 * each may carry its body BoC as `body_boc`, as rederive's join does), `bodies` message_contents by hash for rows
 * without `body_boc`. A body found nowhere is null (its message yields no event).
 */
export function transactionInputFromRows(
  tx: StoredRow,
  messages: readonly StoredRow[],
  bodies?: ReadonlyMap<string, string | Cell>,
): TransactionInput {
  let inMsg: MessageInput | null = null;
  const outMsgs: MessageInput[] = [];
  for (const m of messages) {
    if (m.direction === 'in') inMsg = storedMessage(m, bodies);
    else outMsgs.push(storedMessage(m, bodies));
  }
  outMsgs.sort(byCreation);
  return {
    account: Address.parseRaw(text(tx, 'account')),
    hash: Buffer.from(text(tx, 'hash'), 'base64'),
    lt: bigOrNull(tx.lt) ?? 0n,
    now: numOrNull(tx.now) ?? 0,
    mcSeqno: numOrNull(tx.mc_block_seqno) ?? 0,
    aborted: boolOrNull(tx.aborted) === true,
    computeSuccess: boolOrNull(tx.compute_success),
    inMsg,
    outMsgs,
  };
}
