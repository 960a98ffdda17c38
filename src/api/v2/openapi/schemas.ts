// Response objects of our /api/v2 as OpenAPI 3.1 (JSON Schema 2020-12) schemas, named after the tonlib `@type` they
// carry (toncenter's `ext.*` names for the objects the API computes). They describe what this server sends, field
// by field (render/*.ts): int64 values are decimal strings, int32 numbers, hashes and BoCs standard base64. Every
// object is closed (additionalProperties: false), so a field added to an answer without documentation fails the
// test that validates real answers against the document. Transactions and TVM stacks are in their own files.
import { bool, bytes, hashB64, int32, int53, int64Str, list, ref, type Schema, str, tl, uint64Str } from './kit.ts';
import { TRANSACTION_SCHEMAS } from './schemas-transactions.ts';
import { TVM_SCHEMAS } from './schemas-tvm.ts';

const HASH = 'standard base64 (44 characters)';
const SHARD = 'shard id, signed 64-bit decimal (the masterchain and an unsplit workchain: "-9223372036854775808")';
const STATUS = { type: 'string', enum: ['uninitialized', 'active', 'frozen'] };
const FRIENDLY = 'user-friendly address, url-safe base64';

const blockIdExt = tl('ton.blockIdExt', 'A block: its position and both hashes.', {
  workchain: int32('workchain id (-1 masterchain, 0 basechain)'),
  shard: { ...int64Str(SHARD), examples: ['-9223372036854775808'] },
  seqno: int32('block sequence number (0 for a zero state)'),
  root_hash: hashB64(`representation hash of the block, ${HASH}`),
  file_hash: hashB64(`hash of the block file, ${HASH}`),
});

const COMMON: Record<string, Schema> = {
  'ton.blockIdExt': blockIdExt,
  'internal.transactionId': tl(
    'internal.transactionId',
    'A transaction by lt and hash; lt "0" and an all-zero hash for an account without transactions.',
    {
      lt: uint64Str('logical time of the transaction, decimal string'),
      hash: hashB64(`hash of the transaction, ${HASH}`),
    },
  ),
  accountAddress: tl('accountAddress', 'An address as tonlib writes it.', {
    account_address: str(`${FRIENDLY}, bounceable; "" for none, an external or a var address`),
  }),
  extraCurrency: tl('extraCurrency', 'An amount of an extra currency.', {
    id: int32('currency id'),
    amount: uint64Str('amount, decimal string'),
  }),
  'tvm.cell': tl('tvm.cell', 'A cell as a base64 BoC.', { bytes: bytes('the BoC, standard base64 ("" for none)') }),
};

const accountFields = {
  balance: uint64Str('nanotons, decimal string (never negative: "0" for a never-used address)'),
  extra_currencies: list(ref('extraCurrency'), 'extra currencies held, by id'),
  last_transaction_id: ref('internal.transactionId'),
  block_id: { ...ref('ton.blockIdExt'), description: 'the masterchain block the state was read at' },
};
const walletIdState = (type: string, description: string, withSeqno: boolean) =>
  tl(type, description, {
    wallet_id: int53('wallet id (subwallet)'),
    ...(withSeqno ? { seqno: int53('the seqno stored in the wallet') } : {}),
  });

const ACCOUNTS: Record<string, Schema> = {
  'raw.fullAccountState': tl(
    'raw.fullAccountState',
    'An account as the liteserver holds it (getAddressInformation), with the state toncenter computes.',
    {
      balance: accountFields.balance,
      extra_currencies: accountFields.extra_currencies,
      code: bytes('the code, a base64 BoC; "" without code'),
      data: bytes('the data, a base64 BoC; "" without data'),
      last_transaction_id: accountFields.last_transaction_id,
      block_id: accountFields.block_id,
      frozen_hash: str(`state hash of a frozen account, ${HASH}; "" otherwise`),
      sync_utime: int32('gen_utime of the shard block the state comes from'),
      state: { ...STATUS, description: 'no code and no frozen hash: uninitialized; a frozen hash: frozen' },
      suspended: bool("the address is on the chain's suspended list (config param 44) and the list is in force"),
    },
  ),
  'raw.accountState': tl('raw.accountState', 'A contract tonlib does not recognise.', {
    code: bytes('the code, a base64 BoC'),
    data: bytes('the data, a base64 BoC ("" without data)'),
    frozen_hash: str('always "" for an active account'),
  }),
  'uninited.accountState': tl('uninited.accountState', 'An account without code.', {
    frozen_hash: str(`state hash of a frozen account, ${HASH}; "" otherwise`),
  }),
  'wallet.v3.accountState': walletIdState('wallet.v3.accountState', 'A wallet v3 (r1 or r2).', true),
  'wallet.v4.accountState': walletIdState('wallet.v4.accountState', 'A wallet v4 r2.', true),
  'wallet.highload.v1.accountState': walletIdState('wallet.highload.v1.accountState', 'A highload wallet v1.', true),
  'wallet.highload.v2.accountState': walletIdState('wallet.highload.v2.accountState', 'A highload wallet v2.', false),
  fullAccountState: tl(
    'fullAccountState',
    "An account with tonlib's own contract detection (getExtendedAddressInformation): the legacy wallets only; " +
      'wallet v5 and every other contract is raw.accountState.',
    {
      address: { ...ref('accountAddress'), description: 'the address as given, re-serialised url-safe with its flags' },
      balance: accountFields.balance,
      extra_currencies: accountFields.extra_currencies,
      last_transaction_id: accountFields.last_transaction_id,
      block_id: accountFields.block_id,
      sync_utime: int32('gen_utime of the shard block the state comes from'),
      account_state: {
        oneOf: [
          'raw.accountState',
          'uninited.accountState',
          'wallet.v3.accountState',
          'wallet.v4.accountState',
          'wallet.highload.v1.accountState',
          'wallet.highload.v2.accountState',
        ].map(ref),
      },
      revision: int32('revision of the recognised contract (0 when not recognised)'),
    },
  ),
  'ext.accounts.walletInformation': tl(
    'ext.accounts.walletInformation',
    'Wallet fields read from the data of a known wallet code (v1 r1 to v5 r1). wallet_type, seqno and wallet_id are ' +
      'absent when the account is not such a wallet; is_signature_allowed only for v5.',
    {
      wallet: bool('the code is one of the known wallet codes'),
      balance: accountFields.balance,
      account_state: STATUS,
      last_transaction_id: accountFields.last_transaction_id,
      wallet_type: {
        type: 'string',
        enum: [
          'wallet v1 r1',
          'wallet v1 r2',
          'wallet v1 r3',
          'wallet v2 r1',
          'wallet v2 r2',
          'wallet v3 r1',
          'wallet v3 r2',
          'wallet v4 r1',
          'wallet v4 r2',
          'wallet v5 beta',
          'wallet v5 r1',
        ],
      },
      seqno: int32('the wallet seqno'),
      wallet_id: int32('the wallet id (signed 32-bit)'),
      is_signature_allowed: bool('v5: signed external messages are allowed'),
    },
    ['wallet_type', 'seqno', 'wallet_id', 'is_signature_allowed'],
  ),
  TokenContent: {
    description:
      'TEP-64 content: on-chain attributes (uri, name, description, image, image_data in base64, symbol, decimals, ' +
      'amount_style, render_type) or the off-chain URI.',
    oneOf: [
      {
        type: 'object',
        properties: {
          type: { const: 'onchain' },
          data: { type: 'object', additionalProperties: { type: 'string' } },
        },
        required: ['type', 'data'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { type: { const: 'offchain' }, data: str('the URI') },
        required: ['type', 'data'],
        additionalProperties: false,
      },
    ],
  },
  'ext.tokens.jettonMasterData': tl(
    'ext.tokens.jettonMasterData',
    'A jetton master (get_jetton_data).',
    {
      address: str('the address as given (raw input: upper-case raw; user-friendly: url-safe with its flags)'),
      contract_type: { const: 'jetton_master' },
      total_supply: int64Str('total supply, decimal string'),
      mintable: bool('more can be minted'),
      admin_address: str(`${FRIENDLY}, bounceable; absent without an admin`),
      jetton_content: ref('TokenContent'),
      jetton_wallet_code: bytes('code of the wallets, a base64 BoC'),
    },
    ['admin_address'],
  ),
  'ext.tokens.jettonWalletData': tl(
    'ext.tokens.jettonWalletData',
    'A jetton wallet (get_wallet_data), verified against its master.',
    {
      address: str('the address as given'),
      contract_type: { const: 'jetton_wallet' },
      balance: int64Str('jetton balance, decimal string'),
      owner: str(`${FRIENDLY}, bounceable`),
      jetton: str(`the master, ${FRIENDLY}, bounceable`),
      mintless_is_claimed: bool('mintless jettons: is_claimed, when the wallet has it'),
      jetton_wallet_code: bytes('the code, a base64 BoC'),
    },
    ['mintless_is_claimed'],
  ),
  'ext.tokens.nftCollectionData': tl(
    'ext.tokens.nftCollectionData',
    'An NFT collection (get_collection_data).',
    {
      address: str('the address as given'),
      contract_type: { const: 'nft_collection' },
      next_item_index: int64Str('next item index, decimal string'),
      owner_address: str(`${FRIENDLY}, bounceable; absent without an owner`),
      collection_content: ref('TokenContent'),
    },
    ['owner_address'],
  ),
  'ext.tokens.nftItemData': tl(
    'ext.tokens.nftItemData',
    'An NFT item (get_nft_data), verified against its collection; the content is the full one from the collection.',
    {
      address: str('the address as given'),
      contract_type: { const: 'nft_item' },
      init: bool('the item is initialised'),
      index: int64Str('index in the collection, decimal string'),
      collection_address: str(`${FRIENDLY}, bounceable; absent for an item without collection`),
      owner_address: str(`${FRIENDLY}, bounceable; absent without an owner`),
      content: ref('TokenContent'),
    },
    ['collection_address', 'owner_address'],
  ),
};

const BLOCKS: Record<string, Schema> = {
  'blocks.masterchainInfo': tl('blocks.masterchainInfo', 'The newest masterchain block a liteserver has.', {
    last: ref('ton.blockIdExt'),
    state_root_hash: hashB64(`root hash of the state after the last block, ${HASH}`),
    init: { ...ref('ton.blockIdExt'), description: 'the zero state (shard "0", seqno 0)' },
  }),
  'blocks.signature': tl('blocks.signature', 'One validator signature.', {
    node_id_short: hashB64(`short node id of the validator, ${HASH}`),
    signature: bytes('the signature, base64'),
  }),
  'blocks.blockSignatures': tl('blocks.blockSignatures', 'The signatures of a masterchain block.', {
    id: ref('ton.blockIdExt'),
    signatures: list(ref('blocks.signature'), 'signatures of the validators'),
  }),
  'blocks.blockSignatures.simplex': tl(
    'blocks.blockSignatures.simplex',
    'The signatures of a masterchain block signed under the new (simplex) consensus.',
    {
      id: ref('ton.blockIdExt'),
      signatures: list(ref('blocks.signature'), 'signatures of the validators'),
      session_id: bytes('consensus session id, base64'),
      slot: int32('consensus slot'),
      candidate: bytes('the signed candidate, base64'),
    },
  ),
  'blocks.shardBlockLink': tl('blocks.shardBlockLink', 'A link of a shard block proof.', {
    id: ref('ton.blockIdExt'),
    proof: bytes('the proof, a base64 BoC'),
  }),
  'blocks.blockLinkBack': tl('blocks.blockLinkBack', 'A backward link between masterchain blocks.', {
    to_key_block: bool('the target is a key block'),
    from: ref('ton.blockIdExt'),
    to: ref('ton.blockIdExt'),
    dest_proof: bytes('proof of the target block, a base64 BoC'),
    proof: bytes('proof of the link, a base64 BoC'),
    state_proof: bytes('state proof, a base64 BoC'),
  }),
  'blocks.shardBlockProof': tl(
    'blocks.shardBlockProof',
    'The proof of a shard block from a masterchain block: links up to the masterchain block that commits it, then ' +
      'back from `from` to that block.',
    {
      from: ref('ton.blockIdExt'),
      mc_id: { ...ref('ton.blockIdExt'), description: 'the masterchain block that commits the shard block' },
      links: list(ref('blocks.shardBlockLink'), 'from the shard block up to mc_id'),
      mc_proof: list(ref('blocks.blockLinkBack'), 'from `from` back to mc_id (empty when they are the same)'),
    },
  ),
  'ext.blocks.consensusBlock': tl(
    'ext.blocks.consensusBlock',
    'The best masterchain seqno a healthy liteserver of the pool reported.',
    {
      consensus_block: int32('masterchain seqno'),
      timestamp: int53('the current time, unix seconds'),
    },
  ),
  'blocks.shards': tl('blocks.shards', 'The shard blocks a masterchain block commits.', {
    shards: list(ref('ton.blockIdExt'), 'one block per shard'),
  }),
  'blocks.header': tl('blocks.header', 'A block header, read from its proof.', {
    id: ref('ton.blockIdExt'),
    global_id: int32('network id (-239 mainnet, -3 testnet)'),
    version: int32('block format version'),
    after_merge: bool('the block follows a merge'),
    after_split: bool('the block follows a split'),
    before_split: bool('the shard splits after this block'),
    want_merge: bool('the shard asks to merge'),
    want_split: bool('the shard asks to split'),
    validator_list_hash_short: int32('short hash of the validator set (signed)'),
    catchain_seqno: int32('catchain session seqno'),
    min_ref_mc_seqno: int32('lowest masterchain seqno referenced'),
    is_key_block: bool('a key block'),
    prev_key_block_seqno: int32('seqno of the previous key block (0 for shard blocks)'),
    start_lt: uint64Str('first logical time of the block'),
    end_lt: uint64Str('last logical time of the block'),
    gen_utime: int32('creation time, unix seconds'),
    prev_blocks: list(ref('ton.blockIdExt'), 'the previous block(s): two after a merge'),
  }),
  'blocks.outMsgQueueSize': tl('blocks.outMsgQueueSize', 'The outbound queue of one shard.', {
    id: ref('ton.blockIdExt'),
    size: int32('messages in the queue'),
  }),
  'blocks.outMsgQueueSizes': tl('blocks.outMsgQueueSizes', 'Outbound message queue sizes at the head.', {
    shards: list(ref('blocks.outMsgQueueSize'), 'per shard'),
    ext_msg_queue_size_limit: int32('limit of the external message queue'),
  }),
  'blocks.shortTxId': tl('blocks.shortTxId', 'A transaction in a block.', {
    mode: int32('which fields the liteserver filled (bit mask)'),
    account: str('the account, <workchain>:<64 lower-case hex digits>'),
    lt: uint64Str('logical time'),
    hash: hashB64(`hash of the transaction, ${HASH}`),
  }),
  'blocks.transactions': tl('blocks.transactions', "A page of a block's transactions (ids only).", {
    id: ref('ton.blockIdExt'),
    req_count: int32('the count asked for'),
    incomplete: bool('more transactions follow: ask again with after_lt and after_hash of the last one'),
    transactions: list(ref('blocks.shortTxId'), 'ordered by account, then lt'),
  }),
  'blocks.transactionsExt': tl('blocks.transactionsExt', "A page of a block's transactions in full.", {
    id: ref('ton.blockIdExt'),
    req_count: int32('the count asked for'),
    incomplete: bool('more transactions follow'),
    transactions: list(ref('raw.transactionExt'), 'ordered by account, then lt'),
  }),
};

const UTILITIES: Record<string, Schema> = {
  'ext.utils.detectedAddressVariant': tl('ext.utils.detectedAddressVariant', 'One user-friendly form.', {
    b64: str('standard base64'),
    b64url: str('url-safe base64'),
  }),
  'ext.utils.detectedAddress': tl('ext.utils.detectedAddress', 'Every form of an address.', {
    raw_form: str('<workchain>:<64 lower-case hex digits>'),
    bounceable: ref('ext.utils.detectedAddressVariant'),
    non_bounceable: ref('ext.utils.detectedAddressVariant'),
    given_type: { type: 'string', enum: ['raw_form', 'friendly_bounceable', 'friendly_non_bounceable'] },
    test_only: bool('the input carried the test-only flag (kept in both variants)'),
  }),
  'ext.utils.detectedHash': tl('ext.utils.detectedHash', 'A hash in three spellings.', {
    b64: hashB64('standard base64'),
    b64url: str('url-safe base64 without padding', {
      pattern: '^[A-Za-z0-9_-]{43}$',
      examples: ['szJ4YBNdDxbKh5hFzGo9fOu5uVW0bYnY2HVH0C97LjM'],
    }),
    hex: str('lower-case hex', {
      pattern: '^[0-9a-f]{64}$',
      examples: ['b3327860135d0f16ca879845cc6a3d7cebb9b955b46d89d8d87547d02f7b2e33'],
    }),
  }),
};

const CONFIG_SEND: Record<string, Schema> = {
  configInfo: tl('configInfo', 'A config parameter (or the whole ConfigParams dictionary).', {
    config: { ...ref('tvm.cell'), description: 'the value cell; bytes "" when the config lacks the parameter' },
  }),
  'smc.libraryEntry': tl('smc.libraryEntry', 'A library cell.', {
    hash: hashB64(`hash of the library cell, ${HASH}`),
    data: bytes('the library cell, a base64 BoC'),
  }),
  'smc.libraryResult': tl('smc.libraryResult', 'The libraries found (unknown hashes are left out).', {
    result: list(ref('smc.libraryEntry'), 'sorted by hash'),
  }),
  ok: tl('ok', 'Done.', {}),
  'raw.extMessageInfo': tl('raw.extMessageInfo', 'The hashes of a sent external message.', {
    hash: hashB64(`hash of the message cell, ${HASH}`),
    hash_norm: hashB64(`TEP-467 normalised hash of the message, ${HASH}`),
  }),
  fees: tl('fees', 'Fees of one account, nanotons.', {
    in_fwd_fee: int53('import fee of the inbound message'),
    storage_fee: int53('storage fee due'),
    gas_fee: int53('gas fee (0 when the contract would not accept the message)'),
    fwd_fee: int53('forwarding fees of the messages sent'),
  }),
  'query.fees': tl('query.fees', 'A fee estimate of an external message.', {
    source_fees: ref('fees'),
    destination_fees: list(ref('fees'), 'fees of the accounts the message reaches next'),
  }),
};

/** The envelope, errors and JSON-RPC objects every operation refers to. */
const ENVELOPE: Record<string, Schema> = {
  Extra: str(
    '"<unix seconds>:<liteservers used, always _>:<elapsed ms>", plus ":c" when the answer came from the cache',
    { pattern: '^[0-9]+:[^:]*:[^:]+(:c)?$', examples: ['1767225600:_:12.5'] },
  ),
  Error: {
    type: 'object',
    description: 'An error; the HTTP status equals `code`.',
    properties: {
      ok: { const: false },
      error: str('what went wrong (at most 300 characters)'),
      code: int32('the HTTP status'),
      '@extra': ref('Extra'),
    },
    required: ['ok', 'error', 'code', '@extra'],
    additionalProperties: false,
  },
};

export const SCHEMAS: Record<string, Schema> = {
  ...ENVELOPE,
  ...COMMON,
  ...ACCOUNTS,
  ...BLOCKS,
  ...TRANSACTION_SCHEMAS,
  ...TVM_SCHEMAS,
  ...UTILITIES,
  ...CONFIG_SEND,
};
