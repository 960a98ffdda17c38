// Response objects of /traces, /events, /actions and the pending endpoints (v3-api.md §4.8-4.9, §8), as OpenAPI 3.0
// schemas merged into components.schemas by schemas.ts; the Schema type comes from primitives.ts.
// Names follow toncenter's document (Trace, TraceNode, Action, …) so clients generated from either find the same types.
import type { Schema } from './primitives.ts';

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const int = (description: string): Schema => ({ type: 'integer', format: 'int64', description });
const bool = (description: string): Schema => ({ type: 'boolean', description });
const list = (items: Schema, description: string): Schema => ({ type: 'array', items, description });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});

const HASH = 'standard base64 (44 characters)';
const U64 = 'decimal string';
const FINALITY = str('"finalized" for indexed data; "pending" or "confirmed" for emulated data', {
  enum: ['pending', 'confirmed', 'finalized'],
});

const action = obj(
  {
    trace_id: str(`the trace it belongs to, ${HASH}`),
    action_id: str(
      `SHA-256 of its first transaction's key (the root's inbound message hash, or its place in the trace below the root) and its type, ${HASH}: stable from pending to confirmed`,
    ),
    start_lt: str(`smallest lt of its transactions, ${U64}`),
    end_lt: str(`largest lt of its transactions, ${U64}`),
    start_utime: int('smallest time of its transactions, unix seconds'),
    end_utime: int('largest time of its transactions, unix seconds'),
    trace_end_lt: str(`end lt of its trace, ${U64}`),
    trace_end_utime: int('end time of its trace, unix seconds'),
    trace_mc_seqno_end: int('masterchain block in which its trace completed (0 while emulated)'),
    transactions: list(str(HASH), 'its transactions and the one that initiated them, in lt order'),
    success: bool('false when it failed by its type’s rule (aborted, bounced)'),
    type: str(
      'action type (v3-api.md §6.6), e.g. ton_transfer, jetton_transfer, multisig_execute; a ton_transfer or ' +
        'call_contract carrying extra currencies is extra_currency_transfer',
    ),
    details: {
      type: 'object',
      additionalProperties: true,
      description:
        'per-type fields (addresses raw, amounts decimal strings); {"error": "unsupported action type: …"} for a ' +
        'type without details (unknown)',
    },
    trace_external_hash: str(`hash of its trace’s external message, ${HASH}; absent when there is none`),
    trace_external_hash_norm: str(`normalized (TEP-467) hash of that message, ${HASH}; absent when there is none`),
    accounts: list(str('raw address'), 'participants, sorted (only with include_accounts)'),
    transactions_full: list(ref('Transaction'), 'its transactions in full (only with include_transactions)'),
    finality: FINALITY,
  },
  [
    'trace_id',
    'action_id',
    'start_lt',
    'end_lt',
    'start_utime',
    'end_utime',
    'trace_end_lt',
    'trace_end_utime',
    'trace_mc_seqno_end',
    'transactions',
    'success',
    'type',
    'details',
    'finality',
  ],
);

const traceNode = obj(
  {
    tx_hash: str(`transaction hash, ${HASH}`),
    in_msg_hash: str(`hash of its inbound message, ${HASH}; absent without one (tick-tock)`),
    children: list(ref('TraceNode'), 'the transactions its outbound messages started, in lt order'),
  },
  ['tx_hash', 'children'],
);

const traceInfo = obj({
  trace_state: str('complete, pending (messages still in flight) or broken (a member’s parent was never indexed)'),
  messages: int('completed edges: messages received, the root’s external message and outbound logs'),
  transactions: int('transactions in the trace'),
  pending_messages: int('messages sent and not yet received'),
  classification_state: str('unclassified, ok, failed or broken'),
});

const trace = obj(
  {
    trace_id: str(`hash of the root transaction, ${HASH}`),
    external_hash: { ...str(`hash of the root’s inbound message, ${HASH}; null without one`), nullable: true },
    mc_seqno_start: str('masterchain block of its first transaction, decimal string'),
    mc_seqno_end: str('masterchain block of its last transaction so far, decimal string'),
    start_lt: str(`lt of its first transaction, ${U64}`),
    start_utime: int('time of its first transaction, unix seconds'),
    end_lt: str(`lt of its last transaction, ${U64}`),
    end_utime: int('time of its last transaction, unix seconds'),
    trace_info: ref('TraceInfo'),
    is_incomplete: bool('true when listed without its transactions (more than 4000 of them)'),
    warning: str('"trace is too large" and/or "missing node in trace found"; absent when none'),
    actions: list(ref('Action'), 'its actions the client supports (only with include_actions; always on /events)'),
    trace: ref('TraceNode'),
    transactions_order: list(str(HASH), 'its transactions sorted by lt, then account'),
    transactions: {
      type: 'object',
      additionalProperties: ref('Transaction'),
      description: 'its transactions keyed by hash',
    },
  },
  [
    'trace_id',
    'external_hash',
    'mc_seqno_start',
    'mc_seqno_end',
    'start_lt',
    'start_utime',
    'end_lt',
    'end_utime',
    'trace_info',
    'is_incomplete',
  ],
);

const pendingTransaction: Schema = {
  allOf: [
    ref('Transaction'),
    obj({ trace_external_hash: str(`hash of the external message of its emulated trace, ${HASH}`) }, []),
  ],
};

export const TRACE_SCHEMAS: Record<string, Schema> = {
  Action: action,
  TraceNode: traceNode,
  TraceInfo: traceInfo,
  Trace: trace,
  TracesResponse: obj({
    traces: list(ref('Trace'), 'traces'),
    address_book: ref('AddressBook'),
    metadata: ref('Metadata'),
  }),
  EventsResponse: obj({
    events: list(ref('Trace'), 'traces, with actions'),
    address_book: ref('AddressBook'),
    metadata: ref('Metadata'),
  }),
  ActionsResponse: obj({
    actions: list(ref('Action'), 'actions'),
    address_book: ref('AddressBook'),
    metadata: ref('Metadata'),
  }),
  PendingTransaction: pendingTransaction,
  PendingTransactionsResponse: obj({
    transactions: list(ref('PendingTransaction'), 'emulated transactions not yet in the index, newest first'),
    address_book: ref('AddressBook'),
  }),
};
