// The route table of our /api/v3: one entry per endpoint with its parameters and response, the source of
// /api/v3/openapi.json and of the docs page. A test checks that it matches the routes the server registers,
// both ways, so an endpoint cannot ship undocumented.
import {
  ADDRESS_PARAM,
  HASH_PARAM,
  type ParamDoc,
  pageParamDocs,
  type RouteDoc,
  type Schema,
  schemaRef,
} from './primitives.ts';
import { DECODE_ROUTES, DECODE_TAG } from './routes-decode.ts';
import { LEGACY_ROUTES, LEGACY_TAG } from './routes-legacy.ts';
import { TRACES_ROUTES, TRACES_TAG } from './routes-traces.ts';

export const TAGS = [
  { name: 'Blockchain', description: 'Blocks, transactions and messages from the index.' },
  { name: 'Accounts', description: 'Latest account states, wallets, address book and token metadata.' },
  { name: 'Jettons', description: 'Jetton masters, wallets, transfers and burns (TEP-74).' },
  { name: 'NFTs', description: 'NFT collections, items, transfers (TEP-62) and GetGems sales.' },
  { name: 'DNS', description: 'Records of .ton (and .t.me) DNS items (TEP-81).' },
  { name: 'Multisig', description: 'Multisig v2 wallets and their orders.' },
  { name: 'Vesting', description: 'Vesting wallets (ton-blockchain/vesting-contract).' },
  { name: 'Stats', description: 'Aggregates over the index.' },
  TRACES_TAG,
  LEGACY_TAG,
  DECODE_TAG,
  { name: 'Docs', description: 'This document.' },
];

const q = (name: string, description: string, schema: Schema, required = false): ParamDoc => ({
  name,
  in: 'query',
  description,
  schema,
  ...(required ? { required: true } : {}),
});
const int32 = (extra: Schema = {}): Schema => ({ type: 'integer', format: 'int32', ...extra });
const uint64 = (): Schema => ({ type: 'integer', format: 'int64', minimum: 0 });
const text = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const many = (items: Schema = { type: 'string' }): Schema => ({ type: 'array', items });
const bool = (extra: Schema = {}): Schema => ({ type: 'boolean', ...extra });
const addresses = many(ADDRESS_PARAM);
const hashes = many(HASH_PARAM);

const ANY_ADDRESS = 'in any form: raw (0:…), user-friendly (EQ…/UQ…) or url-safe';
const ANY_HASH = '64 hex digits (0x optional) or 44-character base64 / base64url';

const sort = (what: string): ParamDoc =>
  q('sort', `Order by ${what}: asc or desc (a / d accepted).`, text({ enum: ['asc', 'desc'], default: 'desc' }));
const utimeWindow = (column: string): ParamDoc[] => [
  q('start_utime', `Only rows with ${column} >= start_utime (unix seconds; fractions are cut).`, int32({ minimum: 0 })),
  q('end_utime', `Only rows with ${column} <= end_utime (unix seconds).`, int32({ minimum: 0 })),
];
const ltWindow = (column: string): ParamDoc[] => [
  q('start_lt', `Only rows with ${column} >= start_lt.`, uint64()),
  q('end_lt', `Only rows with ${column} <= end_lt.`, uint64()),
];
const blockFilters = (what: string): ParamDoc[] => [
  q('workchain', `Workchain of the ${what}.`, int32()),
  q('shard', `Shard of the ${what}: hex (0x optional) or signed decimal.`, text()),
  q('seqno', `Seqno of the ${what}.`, int32()),
];

const TIMEOUT: ParamDoc = {
  name: 'X-Timeout',
  in: 'header',
  description:
    'Statement timeout in ms, at most the server cap (3000 by default); also accepted as x_timeout. A statement ' +
    'that runs past it answers 500 "timeout: context deadline exceeded", as toncenter does.',
  schema: int32({ minimum: 1 }),
};
const NO_BOOK: ParamDoc = {
  name: 'X-No-Address-Book',
  in: 'header',
  description: 'true: answer address_book as {} (also x_no_address_book).',
  schema: bool(),
};
const NO_METADATA: ParamDoc = {
  name: 'X-No-Metadata',
  in: 'header',
  description: 'true: answer metadata as {} (also x_no_metadata).',
  schema: bool(),
};

const accountList = (what: string): ParamDoc =>
  q('address', `Accounts ${ANY_ADDRESS}; repeat the parameter or separate with commas. ${what}`, addresses, true);
const codeHashFilter = q(
  'code_hash',
  `Only accounts running one of these codes (hash ${ANY_HASH}); repeatable.`,
  hashes,
);

export const ROUTES: RouteDoc[] = [
  {
    method: 'get',
    path: '/masterchainInfo',
    tag: 'Blockchain',
    summary: 'First and last indexed masterchain blocks',
    description: 'The lowest and the highest masterchain block in the index.',
    params: [TIMEOUT],
    response: schemaRef('MasterchainInfo'),
    errors: [404],
  },
  {
    method: 'get',
    path: '/blocks',
    tag: 'Blockchain',
    summary: 'Blocks',
    description:
      'Blocks matching every given filter. Without `sort` the order is unspecified; with it, blocks are ordered by gen_utime.',
    params: [
      ...blockFilters('block'),
      q('root_hash', `Root hash of the block, ${ANY_HASH}.`, HASH_PARAM),
      q('file_hash', `File hash of the block, ${ANY_HASH}.`, HASH_PARAM),
      q('mc_seqno', 'Blocks committed by this masterchain block.', int32()),
      ...utimeWindow('gen_utime'),
      ...ltWindow('the block start_lt'),
      ...pageParamDocs(),
      sort('gen_utime'),
      TIMEOUT,
    ],
    response: schemaRef('BlocksResponse'),
  },
  {
    method: 'get',
    path: '/masterchainBlockShardState',
    tag: 'Blockchain',
    summary: 'Shard tips in a masterchain block state',
    description: 'The shard blocks the state of masterchain block `seqno` points to (as v2 /shards).',
    params: [q('seqno', 'Masterchain block seqno.', int32(), true), TIMEOUT],
    response: schemaRef('BlocksResponse'),
    errors: [404],
  },
  {
    method: 'get',
    path: '/masterchainBlockShards',
    tag: 'Blockchain',
    summary: 'Blocks committed by a masterchain block',
    description: 'Every block committed by masterchain block `seqno` (blocks whose mc_block_seqno is `seqno`).',
    params: [q('seqno', 'Masterchain block seqno.', int32(), true), ...pageParamDocs(), sort('gen_utime'), TIMEOUT],
    response: schemaRef('BlocksResponse'),
    errors: [404],
  },
  {
    method: 'get',
    path: '/transactions',
    tag: 'Blockchain',
    summary: 'Transactions',
    description:
      'Transactions matching every given filter, by lt (by time when a utime bound is given), with the address book of the accounts involved.',
    params: [
      ...blockFilters('block that holds the transaction'),
      q('mc_seqno', 'Transactions committed by this masterchain block.', int32()),
      q('account', `Accounts ${ANY_ADDRESS}; repeatable.`, addresses),
      q('exclude_account', `Accounts to leave out ${ANY_ADDRESS}; repeatable.`, addresses),
      q('hash', `Transaction hashes, ${ANY_HASH}; repeatable.`, hashes),
      q('lt', 'Transaction logical time.', uint64()),
      ...utimeWindow('now'),
      ...ltWindow('lt'),
      ...pageParamDocs(),
      sort('lt'),
      TIMEOUT,
      NO_BOOK,
    ],
    response: schemaRef('TransactionsResponse'),
    errors: [404],
  },
  {
    method: 'get',
    path: '/transactionsByMasterchainBlock',
    tag: 'Blockchain',
    summary: 'Transactions of a masterchain block',
    description: 'Transactions of masterchain block `seqno` and of the shard blocks it committed.',
    params: [q('seqno', 'Masterchain block seqno.', int32(), true), ...pageParamDocs(), sort('lt'), TIMEOUT, NO_BOOK],
    response: schemaRef('TransactionsResponse'),
    errors: [404],
  },
  {
    method: 'get',
    path: '/transactionsByMessage',
    tag: 'Blockchain',
    summary: 'Transactions that sent or received a message',
    description: 'At least one of msg_hash, body_hash and opcode is required.',
    params: [
      q('msg_hash', `Message hash or normalized external hash, ${ANY_HASH}.`, HASH_PARAM),
      q('body_hash', `Hash of the message body, ${ANY_HASH}.`, HASH_PARAM),
      q('opcode', 'Opcode: 0x-hex, bare hex or signed 32-bit decimal (inbound messages).', text()),
      q('direction', 'in: the receiving transaction, out: the sending one.', text({ enum: ['in', 'out'] })),
      ...pageParamDocs(),
      sort('lt'),
      TIMEOUT,
      NO_BOOK,
    ],
    response: schemaRef('TransactionsResponse'),
  },
  {
    method: 'get',
    path: '/adjacentTransactions',
    tag: 'Blockchain',
    summary: 'Parent and child transactions',
    description:
      'Transactions linked to transaction `hash` by a message: in gives the one that sent its inbound message, out those that received its outbound messages, none both.',
    params: [
      q('hash', `Transaction hash, ${ANY_HASH}.`, HASH_PARAM, true),
      q('direction', 'in or out; both when absent.', text({ enum: ['in', 'out'] })),
      TIMEOUT,
      NO_BOOK,
    ],
    response: schemaRef('TransactionsResponse'),
    errors: [404],
  },
  {
    method: 'get',
    path: '/messages',
    tag: 'Blockchain',
    summary: 'Messages',
    description:
      'Messages matching every given filter, one entry per message hash with the transactions that sent and received it.',
    params: [
      q('msg_hash', `Message hashes, ${ANY_HASH}; repeatable (legacy name: hash).`, hashes),
      q('body_hash', `Hash of the message body, ${ANY_HASH}.`, HASH_PARAM),
      q('source', `Sender ${ANY_ADDRESS}; null for external-in messages.`, ADDRESS_PARAM),
      q('destination', `Receiver ${ANY_ADDRESS}; null for external-out messages.`, ADDRESS_PARAM),
      q('opcode', 'Opcode: 0x-hex, bare hex or signed 32-bit decimal.', text()),
      ...utimeWindow('created_at'),
      ...ltWindow('created_lt'),
      q('direction', 'in or out.', text({ enum: ['in', 'out'] })),
      q('exclude_externals', 'true: leave out external-in messages.', bool()),
      q('only_externals', 'true: only external-in messages.', bool()),
      ...pageParamDocs(),
      sort('created_lt'),
      TIMEOUT,
      NO_BOOK,
      NO_METADATA,
    ],
    response: schemaRef('MessagesResponse'),
  },
  {
    method: 'get',
    path: '/accountStates',
    tag: 'Accounts',
    summary: 'Latest account states',
    description:
      'The newest indexed state of each account: balance, status, last transaction, code and data, get-method ids and recognised interfaces. Accounts the index has not seen are absent; at most 1000 rows.',
    params: [
      accountList('At least one.'),
      q('include_boc', 'false: leave out code_boc and data_boc.', bool({ default: true })),
      codeHashFilter,
      TIMEOUT,
      NO_BOOK,
      NO_METADATA,
    ],
    response: schemaRef('AccountStatesResponse'),
  },
  {
    method: 'get',
    path: '/walletStates',
    tag: 'Accounts',
    summary: 'Wallet states',
    description:
      'For each account, whether it runs one of the 11 user wallet codes (v1r1 … v5r1) and, if so, the seqno, wallet id and signature flag read from its data. Accounts the index has not seen are absent.',
    params: [accountList('At least one.'), codeHashFilter, TIMEOUT, NO_BOOK, NO_METADATA],
    response: schemaRef('WalletStatesResponse'),
  },
  {
    method: 'get',
    path: '/addressBook',
    tag: 'Accounts',
    summary: 'Address book',
    description:
      'User-friendly form, domain and interfaces of each address, keyed by the address exactly as sent. A string that is no address gets user_friendly "addr_none".',
    params: [q('address', `Addresses ${ANY_ADDRESS}; repeatable; at least one.`, addresses, true), TIMEOUT],
    response: schemaRef('AddressBook'),
  },
  {
    method: 'get',
    path: '/metadata',
    tag: 'Accounts',
    summary: 'Token metadata',
    description:
      'Metadata of the addresses that are jetton masters, jetton wallets, NFT collections or NFT items, keyed by raw address; other addresses are absent.',
    params: [q('address', `Addresses ${ANY_ADDRESS}; repeatable; at least one.`, addresses, true), TIMEOUT],
    response: schemaRef('Metadata'),
  },
  {
    method: 'get',
    path: '/topAccountsByBalance',
    tag: 'Stats',
    summary: 'Accounts with the largest balances',
    description: 'Accounts by balance, largest first (ties by address).',
    params: [...pageParamDocs(), TIMEOUT],
    response: { type: 'array', items: schemaRef('AccountBalance') },
  },
  {
    method: 'get',
    path: '/jetton/masters',
    tag: 'Jettons',
    summary: 'Jetton masters',
    description:
      'Jetton masters (TEP-74) with their on-chain data: supply, admin, content, wallet code. Ordered by the order the index first saw them.',
    params: [
      q('address', `Jetton masters ${ANY_ADDRESS}; repeatable; at most 1024.`, addresses),
      q('admin_address', `Admins ${ANY_ADDRESS}; repeatable; at most 1024.`, addresses),
      ...pageParamDocs(),
      TIMEOUT,
      NO_BOOK,
      NO_METADATA,
    ],
    response: schemaRef('JettonMastersResponse'),
  },
  {
    method: 'get',
    path: '/jetton/wallets',
    tag: 'Jettons',
    summary: 'Jetton wallets',
    description:
      'Jetton wallets verified against their master, with balance and owner. Several jetton_address values need exactly one owner_address. Without `sort` the order is the order the index first saw them; with it, by balance (pages may shift while balances change).',
    params: [
      q('address', `Jetton wallets ${ANY_ADDRESS}; repeatable; at most 1000.`, addresses),
      q('owner_address', `Owners ${ANY_ADDRESS}; repeatable; at most 1000.`, addresses),
      q('jetton_address', `Jetton masters ${ANY_ADDRESS}; repeatable.`, addresses),
      q('exclude_zero_balance', 'true: leave out wallets whose balance (with an unclaimed airdrop) is 0.', bool()),
      ...pageParamDocs(),
      q('sort', 'Order by balance: asc or desc (a / d accepted).', text({ enum: ['asc', 'desc'] })),
      TIMEOUT,
      NO_BOOK,
      NO_METADATA,
    ],
    response: schemaRef('JettonWalletsResponse'),
  },
  {
    method: 'get',
    path: '/jetton/transfers',
    tag: 'Jettons',
    summary: 'Jetton transfers',
    description:
      'One row per jetton transfer a sender wallet accepted (transfer#0f8a7ea5); transfers in aborted transactions are left out. By lt, or by time with a utime bound.',
    params: [
      q(
        'owner_address',
        `Owners, sender or receiver ${ANY_ADDRESS}; repeatable; at most 1000 (alias: address).`,
        addresses,
      ),
      q('jetton_wallet', `Sender jetton wallets ${ANY_ADDRESS}; repeatable; at most 1000.`, addresses),
      q('jetton_master', `Jetton master ${ANY_ADDRESS}.`, ADDRESS_PARAM),
      q(
        'direction',
        'With owner_address: in = the owner received, out = the owner sent, both (default) = either.',
        text({ enum: ['in', 'out', 'both'] }),
      ),
      ...utimeWindow('the transaction time'),
      ...ltWindow('the transaction lt'),
      ...pageParamDocs(),
      sort('lt'),
      TIMEOUT,
      NO_BOOK,
      NO_METADATA,
    ],
    response: schemaRef('JettonTransfersResponse'),
  },
  {
    method: 'get',
    path: '/jetton/burns',
    tag: 'Jettons',
    summary: 'Jetton burns',
    description:
      'One row per burn a jetton wallet received (burn#595f07bc), aborted ones included. By lt, or by time with a utime bound.',
    params: [
      q('address', `Owners who burned ${ANY_ADDRESS}; repeatable; at most 1000 (also owner_address).`, addresses),
      q('owner_address', `Owners who burned ${ANY_ADDRESS}; repeatable; at most 1000 (wins over address).`, addresses),
      q('jetton_wallet', `Jetton wallets ${ANY_ADDRESS}; repeatable; at most 1000.`, addresses),
      q('jetton_master', `Jetton master ${ANY_ADDRESS}.`, ADDRESS_PARAM),
      ...utimeWindow('the transaction time'),
      ...ltWindow('the transaction lt'),
      ...pageParamDocs(),
      sort('lt'),
      TIMEOUT,
      NO_BOOK,
      NO_METADATA,
    ],
    response: schemaRef('JettonBurnsResponse'),
  },
  {
    method: 'get',
    path: '/nft/collections',
    tag: 'NFTs',
    summary: 'NFT collections',
    description:
      'NFT collections (TEP-62) with owner, next item index and content. Ordered by the order the index first saw them.',
    params: [
      q('collection_address', `Collections ${ANY_ADDRESS}; repeatable; at most 1024.`, addresses),
      q('owner_address', `Owners ${ANY_ADDRESS}; repeatable; at most 1024.`, addresses),
      ...pageParamDocs(),
      TIMEOUT,
      NO_BOOK,
      NO_METADATA,
    ],
    response: schemaRef('NFTCollectionsResponse'),
  },
  {
    method: 'get',
    path: '/nft/items',
    tag: 'NFTs',
    summary: 'NFT items',
    description:
      'NFT items verified against their collection, with owner, full content and the collection. Ordered by owner, collection and index with owner_address; by index with one collection_address; else the order the index first saw them. Several collection_address values need exactly one owner_address; index needs collection_address.',
    params: [
      q('address', `Items ${ANY_ADDRESS}; repeatable; at most 1000.`, addresses),
      q('owner_address', `Owners ${ANY_ADDRESS}; repeatable; at most 1000.`, addresses),
      q('collection_address', `Collections ${ANY_ADDRESS}; repeatable.`, addresses),
      q('index', 'Item indexes in the collection, decimal digits; repeatable; at most 1000.', many()),
      q(
        'include_on_sale',
        'With owner_address: also items the owner has put on a sale or auction contract.',
        bool({ default: false }),
      ),
      q('sort_by_last_transaction_lt', 'true: newest activity first (pages may shift meanwhile).', bool()),
      ...pageParamDocs(),
      TIMEOUT,
      NO_BOOK,
      NO_METADATA,
    ],
    response: schemaRef('NFTItemsResponse'),
  },
  {
    method: 'get',
    path: '/nft/transfers',
    tag: 'NFTs',
    summary: 'NFT transfers',
    description:
      'One row per transfer an NFT item received (transfer#5fcc3d14), aborted ones included. By lt, or by time with a utime bound.',
    params: [
      q('owner_address', `Owners, old or new ${ANY_ADDRESS}; repeatable; at most 1000 (alias: address).`, addresses),
      q('item_address', `Items ${ANY_ADDRESS}; repeatable; at most 1000.`, addresses),
      q('collection_address', `Collection ${ANY_ADDRESS}.`, ADDRESS_PARAM),
      q(
        'direction',
        'With owner_address: in = the owner received, out = the owner gave, both (default) = either.',
        text({ enum: ['in', 'out', 'both'] }),
      ),
      ...utimeWindow('the transaction time'),
      ...ltWindow('the transaction lt'),
      ...pageParamDocs(),
      sort('lt'),
      TIMEOUT,
      NO_BOOK,
      NO_METADATA,
    ],
    response: schemaRef('NFTTransfersResponse'),
  },
  {
    method: 'get',
    path: '/nft/sales',
    tag: 'NFTs',
    summary: 'NFT sales and auctions',
    description:
      "GetGems fix-price sales (type getgems_sale) and auctions (type getgems_auction) by contract address: the sales first, then the auctions, each with its item and the item's collection when the item is indexed. An address that is no known sale or auction contract is not listed. Unlike toncenter, Telemint items (type teleitem) are not answered: this index keeps no Telemint table.",
    params: [
      q(
        'address',
        `Sale or auction contracts ${ANY_ADDRESS}; repeat the parameter or separate with commas; at least 1, at most 1000 (more is refused with 422).`,
        addresses,
        true,
      ),
      TIMEOUT,
      NO_BOOK,
      NO_METADATA,
    ],
    response: schemaRef('NFTSalesResponse'),
  },
  {
    method: 'get',
    path: '/dns/records',
    tag: 'DNS',
    summary: 'DNS records',
    description:
      'The DNS items whose wallet record points at `wallet`, or the item named exactly `domain`: exactly one of the two. Shortest names first, then by name.',
    params: [
      q('wallet', `Wallet ${ANY_ADDRESS}: records whose wallet category holds it.`, ADDRESS_PARAM),
      q('domain', 'Full domain name, exact (e.g. alice.ton).', text()),
      ...pageParamDocs(100),
      TIMEOUT,
      NO_BOOK,
    ],
    response: schemaRef('DNSRecordsResponse'),
  },
  {
    method: 'get',
    path: '/multisig/wallets',
    tag: 'Multisig',
    summary: 'Multisig wallets',
    description:
      'Multisig v2 wallets by address or by a signer or proposer wallet (at least one of the two), with their orders unless include_orders=false. Ordered by the order the index first saw them (sort).',
    params: [
      q('address', `Multisig wallets ${ANY_ADDRESS}; repeatable.`, addresses),
      q('wallet_address', `Signer or proposer wallets ${ANY_ADDRESS}; repeatable.`, addresses),
      q('include_orders', 'false: leave out the orders.', bool({ default: true })),
      ...pageParamDocs(),
      sort('the order the index first saw them'),
      TIMEOUT,
      NO_BOOK,
    ],
    response: schemaRef('MultisigResponse'),
  },
  {
    method: 'get',
    path: '/multisig/orders',
    tag: 'Multisig',
    summary: 'Multisig orders',
    description:
      'Multisig v2 orders by address or by multisig wallet (at least one of the two); parse_actions=true decodes each order into its actions. Ordered by the order the index first saw them (sort).',
    params: [
      q('address', `Order contracts ${ANY_ADDRESS}; repeatable.`, addresses),
      q('multisig_address', `Multisig wallets ${ANY_ADDRESS}; repeatable.`, addresses),
      q('parse_actions', 'true: decode order_boc into actions.', bool({ default: false })),
      ...pageParamDocs(),
      sort('the order the index first saw them'),
      TIMEOUT,
      NO_BOOK,
    ],
    response: schemaRef('MultisigOrderResponse'),
  },
  {
    method: 'get',
    path: '/vesting',
    tag: 'Vesting',
    summary: 'Vesting contracts',
    description:
      'Vesting contracts by contract address, or by a wallet that owns or funded one (with check_whitelist, also one on its whitelist): exactly one of the two filters. Ordered by the order the index first saw them.',
    params: [
      q('contract_address', `Vesting contracts ${ANY_ADDRESS}; repeatable.`, addresses),
      q('wallet_address', `Owner or sender wallets ${ANY_ADDRESS}; repeatable.`, addresses),
      q('check_whitelist', 'true: wallet_address also matches whitelisted addresses.', bool({ default: false })),
      ...pageParamDocs(),
      TIMEOUT,
      NO_BOOK,
    ],
    response: schemaRef('VestingContractsResponse'),
  },
  ...TRACES_ROUTES,
  ...LEGACY_ROUTES,
  ...DECODE_ROUTES,
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'Docs',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.0 description of the endpoints this server answers. Rendered at /api/v3/.',
    params: [],
    response: { type: 'object', additionalProperties: true },
  },
];
