// What crosses between the main thread and a decode thread: decode requests, the source calls a decode thread makes
// (the main thread owns the source), and a decoded unit, whose core rows travel as COPY text (transferred, not
// copied) and whose contract decoders' inputs travel as plain values and BoCs. Structured clone turns Buffers into
// Uint8Arrays; asBuffer turns them back without copying.
import { Address } from '@ton/core';
import { CodecError, IndexError, type IndexErrorCode, ProofError, TongateError } from '../../common/index.ts';
import { asBuffer, ownBytes } from '../../common/thread-bytes.ts';
import { EncodedCopy, encodeCopyText } from '../../db/index.ts';
import { type AccountStateAfter, type BlockIdExt, cellsFromBoc, cellToBoc } from '../../ton/index.ts';
import type { Row } from '../decode/columns.ts';
import {
  ACCOUNT_STATE_COLUMNS,
  BLOCK_COLUMNS,
  LATEST_ACCOUNT_STATE_COLUMNS,
  MESSAGE_COLUMNS,
  MESSAGE_CONTENT_COLUMNS,
  SHARD_STATE_COLUMNS,
  TRANSACTION_COLUMNS,
} from '../decode/columns.ts';
import type { AccountInput, MessageInput, TransactionInput } from '../decode/contracts/types.ts';
import type { DecodedUnit } from '../decode/decode-unit.ts';
import type { DeclaredUnit } from '../source/types.ts';
import { uniqueByKey } from '../write/write-unit.ts';

// ---------------------------------------------------------------------------------------------- errors

export interface WireError {
  name: string;
  message: string;
  code?: string;
  retryable?: boolean;
  details?: Record<string, unknown>;
}

export function errorToWire(e: unknown): WireError {
  if (e instanceof TongateError) {
    return { name: e.name, message: e.message, code: e.code, retryable: e.retryable, details: e.details };
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { name: err.name, message: err.message };
}

/** The error again, as the class it was where it was thrown (so retry decisions and messages stay the same). */
export function errorFromWire(w: WireError): Error {
  const opts = { details: w.details ?? {}, ...(w.retryable !== undefined ? { retryable: w.retryable } : {}) };
  if (w.name === 'IndexError' && w.code) return new IndexError(w.code as IndexErrorCode, w.message, opts);
  if (w.name === 'CodecError') return new CodecError(w.message, opts);
  if (w.name === 'ProofError') return new ProofError(w.message, opts);
  if (w.code) {
    const e = new TongateError(w.code as TongateError['code'], w.message, opts);
    e.name = w.name;
    return e;
  }
  const e = new Error(w.message);
  e.name = w.name;
  return e;
}

// ---------------------------------------------------------------------------------------------- source calls

export type SourceCall =
  | { call: 'head' }
  | { call: 'mcBlock'; seqno: number }
  | { call: 'block'; id: BlockIdExt }
  | { call: 'accountStates'; id: BlockIdExt; addresses: Buffer[] }
  | { call: 'declaredUnit'; mcSeqno: number };

export interface WireFetched {
  id: BlockIdExt;
  bytes: Uint8Array;
}

export interface WireState {
  address: Uint8Array;
  workchain: number;
  account: Uint8Array;
  hash: Uint8Array;
  complete: boolean;
}

export const idFromWire = (id: BlockIdExt): BlockIdExt => ({
  workchain: id.workchain,
  shard: id.shard,
  seqno: id.seqno,
  rootHash: asBuffer(id.rootHash),
  fileHash: asBuffer(id.fileHash),
});

export const stateToWire = (s: AccountStateAfter): WireState => ({
  address: s.address,
  workchain: s.workchain,
  account: cellToBoc(s.account, { crc32: false }),
  hash: s.hash,
  complete: s.complete,
});

export const stateFromWire = (s: WireState): AccountStateAfter => ({
  address: asBuffer(s.address),
  workchain: s.workchain,
  account: cellsFromBoc(s.account)[0]!,
  hash: asBuffer(s.hash),
  complete: s.complete,
});

export const declaredFromWire = (d: DeclaredUnit | null): DeclaredUnit | null =>
  d ? { mcSeqno: d.mcSeqno, blocks: d.blocks.map(idFromWire) } : null;

// ---------------------------------------------------------------------------------------------- messages

export type ToWorker =
  | { type: 'decode'; job: number; mcSeqno: number; contracts: boolean }
  | { type: 'source-result'; call: number; value: unknown }
  | { type: 'source-failed'; call: number; error: WireError };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'decoded'; job: number; unit: WireUnit }
  | { type: 'failed'; job: number; error: WireError }
  | { type: 'source'; call: number; request: SourceCall };

// ---------------------------------------------------------------------------------------------- decoded units

const CORE_TABLES = {
  blocks: BLOCK_COLUMNS,
  shardState: SHARD_STATE_COLUMNS,
  transactions: TRANSACTION_COLUMNS,
  messages: MESSAGE_COLUMNS,
  messageContents: MESSAGE_CONTENT_COLUMNS,
  accountStates: ACCOUNT_STATE_COLUMNS,
  latestAccountStates: LATEST_ACCOUNT_STATE_COLUMNS,
} as const;
type CoreTable = keyof typeof CORE_TABLES;
/** Content-addressed tables: written insert-if-absent, so deduplicated and sorted by key before they are sent. */
const BY_KEY: ReadonlySet<CoreTable> = new Set(['messageContents', 'accountStates', 'latestAccountStates']);

interface WireMessage {
  hash: Uint8Array;
  source: string | null;
  destination: string | null;
  value: bigint | null;
  bounced: boolean | null;
  opcode: number | null;
  body: Uint8Array | null;
  createdLt: bigint | null;
}

interface WireTransaction {
  account: string;
  hash: Uint8Array;
  lt: bigint;
  now: number;
  mcSeqno: number;
  aborted: boolean;
  computeSuccess: boolean | null;
  inMsg: WireMessage | null;
  outMsgs: WireMessage[];
}

interface WireAccount {
  address: string;
  code: Uint8Array;
  data: Uint8Array;
  balance: bigint;
  lastTransLt: bigint;
}

export interface WireUnit {
  mcSeqno: number;
  mcRootHash: string;
  tables: Record<CoreTable, { text: Uint8Array; count: number; width: number; decoded: number }>;
  mcId: BlockIdExt | null;
  tops: Array<{ workchain: number; shard: bigint; seqno: number; id: BlockIdExt }>;
  now: number;
  inputs: { transactions: WireTransaction[]; states: Array<[string, WireAccount]> } | null;
}

const boc = (c: Parameters<typeof cellToBoc>[0]): Uint8Array => cellToBoc(c, { crc32: false });
const cell = (u: Uint8Array) => cellsFromBoc(u)[0]!;

const messageToWire = (m: MessageInput): WireMessage => ({
  hash: m.hash,
  source: m.source?.toRawString() ?? null,
  destination: m.destination?.toRawString() ?? null,
  value: m.value,
  bounced: m.bounced,
  opcode: m.opcode,
  body: m.body ? boc(m.body) : null,
  createdLt: m.createdLt,
});

const messageFromWire = (m: WireMessage): MessageInput => ({
  hash: asBuffer(m.hash),
  source: m.source === null ? null : Address.parseRaw(m.source),
  destination: m.destination === null ? null : Address.parseRaw(m.destination),
  value: m.value,
  bounced: m.bounced,
  opcode: m.opcode,
  body: m.body ? cell(m.body) : null,
  createdLt: m.createdLt,
});

/** A decoded unit for the trip to the main thread, and the buffers to transfer with it. */
export function unitToWire(u: DecodedUnit<Row[]>): { unit: WireUnit; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const tables = {} as WireUnit['tables'];
  for (const [name, columns] of Object.entries(CORE_TABLES) as Array<[CoreTable, readonly string[]]>) {
    const rows = BY_KEY.has(name) ? uniqueByKey(u.rows[name]) : u.rows[name];
    const e = encodeCopyText(rows, columns.length);
    const text = ownBytes(e.text);
    transfer.push(text.buffer as ArrayBuffer);
    tables[name] = { text, count: e.count, width: e.width, decoded: u.rows[name].length };
  }
  const unit: WireUnit = {
    mcSeqno: u.rows.mcSeqno,
    mcRootHash: u.rows.mcRootHash,
    tables,
    mcId: u.mcId ?? null,
    tops: u.tops.map((t) => ({ workchain: t.workchain, shard: t.shard, seqno: t.seqno, id: t.id })),
    now: u.now,
    inputs: u.inputs
      ? {
          transactions: u.inputs.transactions.map(
            (t: TransactionInput): WireTransaction => ({
              account: t.account.toRawString(),
              hash: t.hash,
              lt: t.lt,
              now: t.now,
              mcSeqno: t.mcSeqno,
              aborted: t.aborted,
              computeSuccess: t.computeSuccess,
              inMsg: t.inMsg ? messageToWire(t.inMsg) : null,
              outMsgs: t.outMsgs.map(messageToWire),
            }),
          ),
          states: [...u.inputs.states].map(([k, a]: [string, AccountInput]): [string, WireAccount] => [
            k,
            {
              address: a.address.toRawString(),
              code: boc(a.code),
              data: boc(a.data),
              balance: a.balance,
              lastTransLt: a.lastTransLt,
            },
          ]),
        }
      : null,
  };
  return { unit, transfer };
}

/** The unit again on the main thread: rows as EncodedCopy (written as they are), inputs as cells and addresses. */
export function unitFromWire(w: WireUnit): DecodedUnit {
  const enc = (name: CoreTable) =>
    new EncodedCopy(asBuffer(w.tables[name].text), w.tables[name].count, w.tables[name].width, w.tables[name].decoded);
  return {
    rows: {
      mcSeqno: w.mcSeqno,
      mcRootHash: w.mcRootHash,
      blocks: enc('blocks'),
      shardState: enc('shardState'),
      transactions: enc('transactions'),
      messages: enc('messages'),
      messageContents: enc('messageContents'),
      accountStates: enc('accountStates'),
      latestAccountStates: enc('latestAccountStates'),
    },
    mcId: w.mcId ? idFromWire(w.mcId) : undefined,
    tops: w.tops.map((t) => ({ workchain: t.workchain, shard: t.shard, seqno: t.seqno, id: idFromWire(t.id) })),
    now: w.now,
    inputs: w.inputs
      ? {
          transactions: w.inputs.transactions.map(
            (t): TransactionInput => ({
              account: Address.parseRaw(t.account),
              hash: asBuffer(t.hash),
              lt: t.lt,
              now: t.now,
              mcSeqno: t.mcSeqno,
              aborted: t.aborted,
              computeSuccess: t.computeSuccess,
              inMsg: t.inMsg ? messageFromWire(t.inMsg) : null,
              outMsgs: t.outMsgs.map(messageFromWire),
            }),
          ),
          states: new Map(
            w.inputs.states.map(([k, a]): [string, AccountInput] => [
              k,
              {
                address: Address.parseRaw(a.address),
                code: cell(a.code),
                data: cell(a.data),
                balance: a.balance,
                lastTransLt: a.lastTransLt,
              },
            ]),
          ),
        }
      : null,
  };
}
