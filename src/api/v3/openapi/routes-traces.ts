// Route table entries of /traces, /events, /actions and the pending endpoints (routes/traces.ts, actions.ts,
// pending.ts; v3-api.md §3.1, §3.3, §8), merged into ROUTES by routes.ts. The types come from primitives.ts.
import { ADDRESS_PARAM, HASH_PARAM, type ParamDoc, pageParamDocs, type RouteDoc, schemaRef } from './primitives.ts';

export const TRACES_TAG = {
  name: 'Actions and traces',
  description:
    'Traces (trees of transactions started by one external message), the actions classified from them, and the ' +
    'traces of messages sent through this server, emulated before they land.',
};

const ANY_ADDRESS = 'in any form: raw (0:…), user-friendly (EQ…/UQ…) or url-safe';
const ANY_HASH = '64 hex digits (0x optional) or 44-character base64 / base64url';
const many = { type: 'array', items: { type: 'string' } };
const addresses = { type: 'array', items: ADDRESS_PARAM };
const hashes = { type: 'array', items: HASH_PARAM };
const q = (name: string, description: string, schema: Record<string, unknown>): ParamDoc => ({
  name,
  in: 'query',
  description,
  schema,
});
const header = (name: string, description: string, schema: Record<string, unknown>): ParamDoc => ({
  name,
  in: 'header',
  description,
  schema,
});

const int32 = { type: 'integer', format: 'int32' };
const window = (what: string): ParamDoc[] => [
  q('start_utime', `Only ${what} ending at or after this unix time; with a time bound pages go by end time.`, {
    ...int32,
    minimum: 0,
  }),
  q('end_utime', `Only ${what} ending at or before this unix time.`, { ...int32, minimum: 0 }),
  q('start_lt', `Only ${what} whose end lt is at least this.`, { type: 'integer', format: 'int64', minimum: 0 }),
  q('end_lt', `Only ${what} whose end lt is at most this.`, { type: 'integer', format: 'int64', minimum: 0 }),
];
const page: ParamDoc[] = pageParamDocs();
const sort = (what: string) =>
  q('sort', `Order by ${what}: asc or desc (a / d accepted).`, {
    type: 'string',
    enum: ['asc', 'desc'],
    default: 'desc',
  });
const supported = q(
  'supported_action_types',
  'Action types the client understands: versions (v1 … v4, latest), topics (jettons, nft, dns, multisig, vesting, …) ' +
    'or single types; v1 is always added, latest when none is sent. An action is shown when its type is supported ' +
    'and the types of the actions enclosing it are not (so a v1 client sees the parts of a multisig_execute).',
  many,
);
const COMMON_HEADERS: ParamDoc[] = [
  header('X-Timeout', 'Statement timeout in ms, at most the server cap (3000 by default); also x_timeout.', {
    ...int32,
    minimum: 1,
  }),
  header('X-No-Address-Book', 'true: answer address_book as {} (also x_no_address_book).', { type: 'boolean' }),
  header('X-No-Metadata', 'true: answer metadata as {} (also x_no_metadata).', { type: 'boolean' }),
];
const actionsVersion = header(
  'X-Actions-Version',
  'One supported_action_types value (e.g. v2, latest) that replaces the parameter.',
  { type: 'string' },
);

const traceParams: ParamDoc[] = [
  q('account', `Traces with a transaction of this account, ${ANY_ADDRESS}.`, ADDRESS_PARAM),
  q('trace_id', `Traces by id (the root transaction's hash), ${ANY_HASH}; repeatable.`, hashes),
  q('tx_hash', `Traces containing one of these transactions, ${ANY_HASH}; repeatable.`, hashes),
  q('msg_hash', `Traces containing one of these messages (hash or normalized hash), ${ANY_HASH}; repeatable.`, hashes),
  q('mc_seqno', 'Complete traces that ended in this masterchain block.', int32),
  ...window('traces'),
  q('include_actions', 'true: add each trace’s actions (the supported ones).', { type: 'boolean', default: false }),
  supported,
  ...page,
  sort('end lt (end time with a time bound), then trace id'),
  actionsVersion,
  ...COMMON_HEADERS,
];

const TRACE_DESCRIPTION =
  'Traces matching the filters; at most one of account, trace_id, tx_hash, msg_hash (422 otherwise). Each has its ' +
  'counters (trace_info), its transactions in lt order with the tree they form, and, with more than 4000 ' +
  'transactions, none of them: is_incomplete true and warning "trace is too large".';

const pendingSelection: ParamDoc[] = [
  q('account', `Pending traces touching this account, ${ANY_ADDRESS}.`, ADDRESS_PARAM),
  q(
    'ext_msg_hash',
    `Pending traces of these external messages: the normalized hash (as wallets report it) or the hash as sent, ${ANY_HASH}; repeatable.`,
    hashes,
  ),
];

export const TRACES_ROUTES: RouteDoc[] = [
  {
    method: 'get',
    path: '/traces',
    tag: TRACES_TAG.name,
    summary: 'Traces',
    description: TRACE_DESCRIPTION,
    params: traceParams,
    response: schemaRef('TracesResponse'),
  },
  {
    method: 'get',
    path: '/events',
    tag: TRACES_TAG.name,
    summary: 'Traces with actions (deprecated alias of /traces)',
    description: `${TRACE_DESCRIPTION} Always includes actions; the list is under "events".`,
    params: traceParams.filter((p) => p.name !== 'include_actions'),
    response: schemaRef('EventsResponse'),
  },
  {
    method: 'get',
    path: '/actions',
    tag: TRACES_TAG.name,
    summary: 'Actions',
    description:
      'Actions of classified traces. action_id replaces every other filter, and so does trace_id without account. ' +
      'Time and lt bounds apply to the end of the action’s trace. mc_seqno: actions of the complete traces that ' +
      'ended in that masterchain block (404 when the block is not indexed).',
    params: [
      q('account', `Actions this account takes part in, ${ANY_ADDRESS}.`, ADDRESS_PARAM),
      q('tx_hash', `Actions including one of these transactions, ${ANY_HASH}; repeatable.`, hashes),
      q('msg_hash', `Actions one of whose transactions sent or received one of these messages, ${ANY_HASH}.`, hashes),
      q('action_id', `Actions by id, ${ANY_HASH}; replaces every other filter.`, hashes),
      q('trace_id', `Actions of these traces, ${ANY_HASH}; without account it replaces every other filter.`, hashes),
      q('mc_seqno', 'Actions of complete traces that ended in this masterchain block.', int32),
      ...window('actions of traces'),
      q(
        'action_type',
        'Only these types (letters, digits, _ and . only); it takes the place of the supported-type condition.',
        many,
      ),
      q('exclude_action_type', 'Leave out these types.', many),
      supported,
      q('include_accounts', 'true: add each action’s participants (accounts).', { type: 'boolean', default: false }),
      q('include_transactions', 'true: add each action’s transactions in full (transactions_full).', {
        type: 'boolean',
        default: false,
      }),
      ...page,
      sort('trace end lt, trace id, action end lt, action id (end times with a time bound)'),
      actionsVersion,
      ...COMMON_HEADERS,
    ],
    response: schemaRef('ActionsResponse'),
    errors: [404],
  },
  {
    method: 'get',
    path: '/pendingTraces',
    tag: TRACES_TAG.name,
    summary: 'Pending (emulated) traces',
    description:
      'Traces of external messages sent through this server (v2 sendBoc*, v3 /message), emulated before they land; ' +
      'one that landed complete and classified is left out (the index has it). account or ext_msg_hash is required.',
    params: [...pendingSelection, supported, actionsVersion, ...COMMON_HEADERS],
    response: schemaRef('TracesResponse'),
  },
  {
    method: 'get',
    path: '/pendingActions',
    tag: TRACES_TAG.name,
    summary: 'Pending (emulated) actions',
    description:
      'Actions of the pending traces, by the account taking part or by external message; account or ext_msg_hash ' +
      'is required. They carry the action_id the confirmed action will have.',
    params: [
      ...pendingSelection,
      supported,
      q('include_accounts', 'true: add each action’s participants (accounts).', { type: 'boolean', default: false }),
      q('include_transactions', 'true: add each action’s emulated transactions (transactions_full).', {
        type: 'boolean',
        default: false,
      }),
      actionsVersion,
      ...COMMON_HEADERS,
    ],
    response: schemaRef('ActionsResponse'),
  },
  {
    method: 'get',
    path: '/pendingTransactions',
    tag: 'Blockchain',
    summary: 'Pending (emulated) transactions',
    description:
      'Emulated transactions of these accounts whose inbound message is not in the index yet (emulated true, ' +
      'finality pending). 404 "emulated traces not found" when no pending trace touches the accounts.',
    params: [
      q('account', `Accounts ${ANY_ADDRESS}; at least one (422 otherwise); repeatable.`, addresses),
      q('trace_id', `Only transactions of these emulated traces, ${ANY_HASH}; repeatable.`, hashes),
      COMMON_HEADERS[0]!,
      COMMON_HEADERS[1]!,
    ],
    response: schemaRef('PendingTransactionsResponse'),
    errors: [404],
  },
];
