// The response objects of our /api/v3, as OpenAPI 3.0 schemas (components.schemas of /api/v3/openapi.json).
// They describe what this server sends, field by field (v3-api.md §4 shapes): 64-bit numbers are strings,
// hashes standard base64, addresses raw upper-case, a field that may be absent is not in `required`, a field
// that may be null is `nullable`.
import { schemaRef as ref, type Schema } from './primitives.ts';
import { CONTRACT_SCHEMAS } from './schemas-contracts.ts';
import { LEGACY_SCHEMAS } from './schemas-legacy.ts';
import { TOKEN_SCHEMAS } from './schemas-tokens.ts';
import { TRACE_SCHEMAS } from './schemas-traces.ts';

const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const int = (description: string, extra: Schema = {}): Schema => ({
  type: 'integer',
  format: 'int32',
  description,
  ...extra,
});
const bool = (description: string, extra: Schema = {}): Schema => ({ type: 'boolean', description, ...extra });
const nullable = (s: Schema): Schema => ({ ...s, nullable: true });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});
const list = (items: Schema, description?: string): Schema =>
  description ? { type: 'array', items, description } : { type: 'array', items };

const HASH = 'a 256-bit hash, standard base64 (44 characters)';
const ADDRESS = 'an account address, raw form <workchain>:<64 upper-case hex digits>';
const U64 = 'unsigned 64-bit integer as a decimal string';
const COINS = 'amount in nanotons, decimal string';
const currencies = (description: string): Schema => ({
  type: 'object',
  additionalProperties: { type: 'string' },
  description: `${description}: {"<currency id>": "<amount>"}`,
});

const blockId = obj({
  workchain: int('workchain id (-1 masterchain, 0 basechain)'),
  shard: str('shard id as 16 upper-case hex digits of the unsigned 64-bit value, e.g. 8000000000000000'),
  seqno: int('block sequence number'),
});

const block = obj({
  workchain: int('workchain id'),
  shard: str('shard id, 16 upper-case hex digits'),
  seqno: int('block sequence number'),
  root_hash: str(`representation hash of the block, ${HASH}`),
  file_hash: str(`hash of the block file, ${HASH}`),
  global_id: int('network id (-239 mainnet, -3 testnet)'),
  version: int('block format version'),
  after_merge: bool('the block follows a merge of two shards'),
  before_split: bool('the shard splits after this block'),
  after_split: bool('the block follows a split'),
  want_merge: bool('the shard asks to merge'),
  want_split: bool('the shard asks to split'),
  key_block: bool('a key block (changes the configuration)'),
  vert_seqno_incr: bool('the vertical seqno was incremented'),
  flags: int('block info flags'),
  gen_utime: str('creation time, unix seconds, decimal string'),
  start_lt: str(`first logical time of the block, ${U64}`),
  end_lt: str(`last logical time of the block, ${U64}`),
  validator_list_hash_short: int('short hash of the validator set'),
  gen_catchain_seqno: int('catchain session seqno'),
  min_ref_mc_seqno: int('lowest masterchain seqno referenced'),
  prev_key_block_seqno: int('seqno of the previous key block'),
  vert_seqno: int('vertical seqno'),
  master_ref_seqno: int('masterchain block this shard block refers to (0 in the masterchain)'),
  rand_seed: str(`random seed of the block, ${HASH}`),
  created_by: str('public key of the validator that created the block, base64'),
  tx_count: int('number of transactions in the block'),
  masterchain_block_ref: nullable({
    ...blockId,
    description: 'the masterchain block that committed this block (null when not known)',
  }),
  prev_blocks: list(ref('BlockId'), 'the previous block(s): two after a merge'),
});

const messageContent = obj({
  hash: str(`hash of the cell, ${HASH}`),
  body: str('the cell as a base64 BoC'),
  decoded: nullable({
    type: 'object',
    additionalProperties: true,
    description:
      'the decoded body with an "@type" key (text comments: {"type":"text_comment","comment":…}); null when not decoded',
  }),
});

const message = obj(
  {
    hash: str(`message hash, ${HASH}`),
    source: nullable(str(`${ADDRESS}; null for an external-in message`)),
    destination: nullable(str(`${ADDRESS}; null for an external-out message (log)`)),
    value: nullable(str(`${COINS}; null for external messages`)),
    value_extra_currencies: nullable(currencies('extra currencies carried; null for external messages')),
    fwd_fee: nullable(str(`forwarding fee, ${COINS}`)),
    ihr_fee: nullable(str(`IHR fee, ${COINS}`)),
    extra_flags: nullable(str('extra flags of the message, decimal string')),
    created_lt: nullable(str(`logical time of creation, ${U64}; null for external-in`)),
    created_at: nullable(str('creation time, unix seconds, decimal string; null for external-in')),
    opcode: nullable(str('first 32 bits of the body as "0x%08x"; null when the body is shorter')),
    decoded_opcode: nullable(str('name of the opcode when known')),
    ihr_disabled: nullable(bool('IHR disabled flag')),
    bounce: nullable(bool('bounce flag')),
    bounced: nullable(bool('this message is a bounce')),
    import_fee: nullable(str(`import fee of an external-in message, ${COINS}`)),
    message_content: nullable(ref('MessageContent')),
    init_state: nullable(ref('MessageContent')),
    hash_norm: str(`normalized hash of an external-in message (TEP-467), ${HASH}; only on external-in`),
    in_msg_tx_hash: str(`hash of the transaction that received it (only in /messages), ${HASH}`),
    out_msg_tx_hash: str(`hash of the transaction that sent it (only in /messages), ${HASH}`),
  },
  ['hash', 'source', 'destination', 'created_lt', 'opcode', 'message_content', 'init_state'],
);

const msgSize = obj({ cells: str('cells, decimal string'), bits: str('bits, decimal string') }, []);

const storagePhase = obj(
  {
    storage_fees_collected: str(`storage fees collected, ${COINS}`),
    storage_fees_due: str(`storage fees due, ${COINS}`),
    status_change: str('unchanged | frozen | deleted'),
  },
  [],
);

const creditPhase = obj(
  {
    due_fees_collected: str(`due fees collected, ${COINS}`),
    credit: str(`credited value, ${COINS}`),
    credit_extra_currencies: currencies('credited extra currencies'),
  },
  [],
);

const computePhase = obj(
  {
    skipped: bool('the compute phase was skipped'),
    reason: str('why it was skipped: no_state | bad_state | no_gas | suspended'),
    success: bool('the VM exited successfully'),
    msg_state_used: bool('the StateInit of the inbound message was used'),
    account_activated: bool('the account was activated'),
    gas_fees: str(`gas fees, ${COINS}`),
    gas_used: str('gas used, decimal string'),
    gas_limit: str('gas limit, decimal string'),
    gas_credit: str('gas credit, decimal string'),
    mode: int('VM mode'),
    exit_code: int('VM exit code'),
    exit_arg: int('VM exit argument'),
    vm_steps: int('VM steps'),
    vm_init_state_hash: str(`VM initial state hash, ${HASH}`),
    vm_final_state_hash: str(`VM final state hash, ${HASH}`),
  },
  [],
);

const actionPhase = obj(
  {
    success: bool('all actions succeeded'),
    valid: bool('the action list was valid'),
    no_funds: bool('the account ran out of funds'),
    status_change: str('unchanged | frozen | deleted'),
    total_fwd_fees: str(`total forwarding fees, ${COINS}`),
    total_action_fees: str(`total action fees, ${COINS}`),
    result_code: int('action phase result code'),
    result_arg: int('action phase result argument'),
    tot_actions: int('actions in the list'),
    spec_actions: int('special actions'),
    skipped_actions: int('skipped actions'),
    msgs_created: int('messages created'),
    action_list_hash: str(`hash of the action list, ${HASH}`),
    tot_msg_size: ref('MsgSize'),
  },
  [],
);

const bouncePhase = obj(
  {
    type: str('negfunds | nofunds | ok'),
    msg_size: ref('MsgSize'),
    req_fwd_fees: str(`required forwarding fees, ${COINS}`),
    msg_fees: str(`message fees, ${COINS}`),
    fwd_fees: str(`forwarding fees, ${COINS}`),
  },
  ['type'],
);

const splitInfo = obj(
  {
    cur_shard_pfx_len: int('current shard prefix length'),
    acc_split_depth: int('account split depth'),
    this_addr: str(ADDRESS),
    sibling_addr: str(ADDRESS),
  },
  [],
);

const transactionDescr = obj(
  {
    type: str('ord | storage | tick_tock | split_prepare | split_install | merge_prepare | merge_install'),
    aborted: bool('the transaction was aborted'),
    destroyed: bool('the account was destroyed'),
    credit_first: bool('the credit phase ran before the storage phase'),
    is_tock: bool('tock (not tick) of a tick-tock transaction'),
    installed: bool('the split/merge was installed'),
    storage_ph: ref('StoragePhase'),
    credit_ph: ref('CreditPhase'),
    compute_ph: ref('ComputePhase'),
    action: ref('ActionPhase'),
    bounce: ref('BouncePhase'),
    split_info: ref('SplitInfo'),
  },
  ['type'],
);

const accountState = obj(
  {
    hash: str(`hash of the account state, ${HASH}`),
    balance: nullable(str(COINS)),
    extra_currencies: nullable(currencies('extra-currency balances')),
    account_status: nullable(str('uninit | frozen | active | nonexist')),
    frozen_hash: nullable(str(`state hash a frozen account keeps, ${HASH}`)),
    data_hash: nullable(str(`hash of the data cell, ${HASH}`)),
    code_hash: nullable(str(`hash of the code cell, ${HASH}`)),
  },
  ['hash'],
);

const transaction = obj(
  {
    account: str(ADDRESS),
    hash: str(`transaction hash, ${HASH}`),
    lt: str(`logical time, ${U64}`),
    now: int('time of the transaction, unix seconds'),
    mc_block_seqno: int('masterchain block that committed it'),
    trace_id: nullable(str(`trace the transaction belongs to, ${HASH}`)),
    prev_trans_hash: str(`hash of the account's previous transaction, ${HASH}`),
    prev_trans_lt: str(`lt of the account's previous transaction, ${U64}`),
    orig_status: str('account status before: uninit | frozen | active | nonexist'),
    end_status: str('account status after'),
    total_fees: str(`total fees, ${COINS}`),
    total_fees_extra_currencies: currencies('fees paid in extra currencies'),
    description: ref('TransactionDescr'),
    block_ref: ref('BlockId'),
    in_msg: nullable(ref('Message')),
    out_msgs: list(ref('Message'), 'outbound messages in created_lt order'),
    account_state_before: nullable(ref('AccountState')),
    account_state_after: nullable(ref('AccountState')),
    emulated: bool('always false for indexed transactions'),
    finality: str('"finalized" for indexed transactions'),
  },
  [
    'account',
    'hash',
    'lt',
    'now',
    'mc_block_seqno',
    'prev_trans_hash',
    'prev_trans_lt',
    'orig_status',
    'end_status',
    'total_fees',
    'description',
    'block_ref',
    'in_msg',
    'out_msgs',
  ],
);

const addressBookEntry = obj({
  user_friendly: str(
    'user-friendly form (url-safe base64): non-bounceable for accounts without code or with a wallet code, bounceable otherwise, test-only on testnet; "addr_none" when there is no such form',
  ),
  domain: nullable(str('the .ton / .t.me domain that resolves back to this account, or null')),
  interfaces: list(str('interface name'), 'contract interfaces recognised from the code (e.g. wallet_v4r2)'),
});

const tokenInfo = obj(
  {
    valid: bool('the off-chain metadata was fetched and is valid'),
    type: str('jetton_masters | jetton_wallets | nft_collections | nft_items'),
    name: str('token name'),
    symbol: str('token symbol'),
    description: str('token description'),
    image: str('image URL'),
    nft_index: str('item index (NFT items)'),
    is_nsfw: bool('flagged as not safe for work (never, here: no moderation lists)'),
    is_scam: bool('flagged as a scam (never, here: no moderation lists)'),
    extra: { type: 'object', additionalProperties: true, description: 'other metadata fields' },
  },
  [],
);

const addressMetadata = obj({
  is_indexed: bool('the off-chain metadata has been fetched'),
  token_info: list(ref('TokenInfo')),
});

const accountStateFull = obj(
  {
    address: str(ADDRESS),
    account_state_hash: str(`hash of the account state, ${HASH}`),
    balance: str(COINS),
    extra_currencies: currencies('extra-currency balances'),
    status: str('uninit | frozen | active | nonexist'),
    frozen_hash: str(`state hash of a frozen account, ${HASH}; absent otherwise`),
    last_transaction_hash: str(`hash of the account's last transaction, ${HASH}`),
    last_transaction_lt: str(`lt of the account's last transaction, ${U64}`),
    data_hash: str(`hash of the data cell, ${HASH}; absent without data`),
    code_hash: str(`hash of the code cell, ${HASH}; absent without code`),
    data_boc: str('the data cell as a base64 BoC; absent with include_boc=false'),
    code_boc: str('the code cell as a base64 BoC; absent with include_boc=false'),
    contract_methods: nullable(
      list(
        { type: 'integer', format: 'int64' },
        'get-method ids of the code (keys of its method dictionary, unsigned); null when the code has none',
      ),
    ),
    interfaces: list(str('interface name'), 'contract interfaces recognised from the code hash'),
  },
  [
    'address',
    'account_state_hash',
    'balance',
    'extra_currencies',
    'status',
    'last_transaction_hash',
    'last_transaction_lt',
    'contract_methods',
    'interfaces',
  ],
);

const walletState = obj(
  {
    address: str(ADDRESS),
    is_wallet: bool('the code is one of the 11 user wallet codes (v1r1 … v5r1)'),
    wallet_type: str('"wallet v1 r1" … "wallet v4 r2", "wallet v5 beta", "wallet v5 r1"; only for wallets'),
    seqno: { type: 'integer', format: 'int64', description: 'seqno stored in the wallet data; only for wallets' },
    wallet_id: {
      type: 'integer',
      format: 'int64',
      description: 'wallet id (subwallet id) as an unsigned 32-bit number; v3 and later',
    },
    balance: str(COINS),
    extra_currencies: currencies('extra-currency balances; absent when there are none'),
    is_signature_allowed: bool('signature authentication allowed; v5 wallets'),
    status: str('uninit | frozen | active | nonexist'),
    code_hash: str(`hash of the code cell, ${HASH}; absent without code`),
    last_transaction_hash: str(`hash of the account's last transaction, ${HASH}`),
    last_transaction_lt: str(`lt of the account's last transaction, ${U64}`),
  },
  ['address', 'is_wallet', 'balance', 'status', 'last_transaction_hash', 'last_transaction_lt'],
);

/** components.schemas of the document. */
export const SCHEMAS: Record<string, Schema> = {
  Error: obj({ error: str('what went wrong') }),
  RateLimitError: obj({
    ok: bool('always false', { enum: [false] }),
    result: str('"Ratelimit exceed"'),
    code: int('429', { enum: [429] }),
  }),
  BlockId: blockId,
  Block: block,
  MasterchainInfo: obj({ first: ref('Block'), last: ref('Block') }),
  BlocksResponse: obj({ blocks: list(ref('Block')) }),
  MsgSize: msgSize,
  StoragePhase: storagePhase,
  CreditPhase: creditPhase,
  ComputePhase: computePhase,
  ActionPhase: actionPhase,
  BouncePhase: bouncePhase,
  SplitInfo: splitInfo,
  TransactionDescr: transactionDescr,
  MessageContent: messageContent,
  Message: message,
  AccountState: accountState,
  Transaction: transaction,
  AddressBookEntry: addressBookEntry,
  AddressBook: {
    type: 'object',
    additionalProperties: ref('AddressBookEntry'),
    description: 'entries keyed by raw address',
  },
  TokenInfo: tokenInfo,
  AddressMetadata: addressMetadata,
  Metadata: {
    type: 'object',
    additionalProperties: ref('AddressMetadata'),
    description: 'token metadata keyed by raw address; only jetton and NFT objects appear',
  },
  TransactionsResponse: obj({ transactions: list(ref('Transaction')), address_book: ref('AddressBook') }),
  MessagesResponse: obj({
    messages: list(ref('Message')),
    address_book: ref('AddressBook'),
    metadata: ref('Metadata'),
  }),
  AccountStateFull: accountStateFull,
  AccountStatesResponse: obj({
    accounts: list(ref('AccountStateFull')),
    address_book: ref('AddressBook'),
    metadata: ref('Metadata'),
  }),
  WalletState: walletState,
  WalletStatesResponse: obj({
    wallets: list(ref('WalletState')),
    address_book: ref('AddressBook'),
    metadata: ref('Metadata'),
  }),
  AccountBalance: obj({ account: str(ADDRESS), balance: str(COINS) }),
  ...TOKEN_SCHEMAS,
  ...CONTRACT_SCHEMAS,
  ...LEGACY_SCHEMAS,
  ...TRACE_SCHEMAS,
};
