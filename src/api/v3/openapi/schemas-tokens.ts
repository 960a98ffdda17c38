// Response objects of the jetton and NFT endpoints (v3-api.md §3.4-3.5, NFT sales included), as OpenAPI 3.0 schemas
// merged into components.schemas by schemas.ts. Kept apart so that file does not grow with every token family; the
// Schema type comes from primitives.ts.
import type { Schema } from './primitives.ts';

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str = (description: string): Schema => ({ type: 'string', description });
const nullable = (s: Schema): Schema => ({ ...s, nullable: true });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});

const HASH = 'standard base64 (44 characters)';
const ADDRESS = 'raw address <workchain>:<64 upper-case hex digits>';
const U64 = 'decimal string';
const content = (description: string): Schema => nullable({ type: 'object', additionalProperties: true, description });
const tx = {
  transaction_hash: str(`hash of the transaction that received the message, ${HASH}`),
  transaction_lt: str(`its logical time, ${U64}`),
  transaction_now: { type: 'integer', format: 'int64', description: 'its time, unix seconds' },
  transaction_aborted: { type: 'boolean', description: 'the transaction was aborted' },
};
const payload = (what: string): Schema => nullable(str(`${what} as a base64 BoC; null when absent`));
const decoded = (what: string): Schema =>
  nullable({
    type: 'object',
    additionalProperties: true,
    description: `${what} decoded, with an "@type" key (text comments: {"@type":"text_comment","comment":…}); null when not decoded`,
  });
const traceId = nullable(str(`trace the transaction belongs to, ${HASH}; null until traces are assembled`));
const list = (key: string, item: string): Schema =>
  obj({ [key]: { type: 'array', items: ref(item) }, address_book: ref('AddressBook'), metadata: ref('Metadata') });

const jettonMaster = obj({
  address: str(ADDRESS),
  total_supply: str(`total supply in the jetton's smallest units, ${U64}`),
  mintable: { type: 'boolean', description: 'more can be minted' },
  admin_address: nullable(str(`${ADDRESS} of the admin; null without one`)),
  jetton_content: content('TEP-64 content read on chain: {"uri": …} off-chain, or the on-chain keys'),
  jetton_wallet_code_hash: str(`hash of the wallet code the master deploys, ${HASH}`),
  code_hash: str(`hash of the master's code, ${HASH}`),
  data_hash: str(`hash of the master's data, ${HASH}`),
  last_transaction_lt: str(`lt of the transaction that left this state, ${U64}`),
});

const mintlessInfo = obj({
  amount: str(`unclaimed airdrop amount, ${U64}`),
  start_from: nullable({ type: 'integer', format: 'int64', description: 'claim window start, unix seconds' }),
  expire_at: nullable({ type: 'integer', format: 'int64', description: 'claim window end, unix seconds' }),
  custom_payload_api_uri: nullable({
    type: 'array',
    items: { type: 'string' },
    description: 'where claim proofs are served; null when the mintless master is not known',
  }),
});

const jettonWallet = obj(
  {
    address: str(ADDRESS),
    balance: str(`balance in the jetton's smallest units, ${U64}`),
    owner: str(`${ADDRESS} of the owner`),
    jetton: str(`${ADDRESS} of the jetton master`),
    last_transaction_lt: str(`lt of the transaction that left this state, ${U64}`),
    code_hash: nullable(str(`hash of the wallet's code, ${HASH}`)),
    data_hash: nullable(str(`hash of the wallet's data, ${HASH}`)),
    mintless_info: ref('JettonWalletMintlessInfo'),
  },
  ['address', 'balance', 'owner', 'jetton', 'last_transaction_lt', 'code_hash', 'data_hash'],
);

const jettonTransfer = obj({
  query_id: str(`query id of the transfer, ${U64}`),
  source: nullable(str(`${ADDRESS} of the sender (the source wallet's owner)`)),
  destination: nullable(str(`${ADDRESS} of the receiver (an owner, not a jetton wallet)`)),
  amount: str(`amount in the jetton's smallest units, ${U64}`),
  source_wallet: str(`${ADDRESS} of the jetton wallet that received the transfer`),
  jetton_master: nullable(str(`${ADDRESS} of the jetton master`)),
  ...tx,
  response_destination: nullable(str(`${ADDRESS} where excesses go; null for none`)),
  custom_payload: payload('custom payload'),
  decoded_custom_payload: decoded('custom payload'),
  forward_ton_amount: nullable(str(`nanotons forwarded to the receiver with the notification, ${U64}`)),
  forward_payload: payload('forward payload'),
  decoded_forward_payload: decoded('forward payload'),
  trace_id: traceId,
});

const jettonBurn = obj({
  query_id: str(`query id of the burn, ${U64}`),
  owner: nullable(str(`${ADDRESS} of the wallet owner who burned`)),
  jetton_wallet: str(`${ADDRESS} of the jetton wallet that burned`),
  jetton_master: nullable(str(`${ADDRESS} of the jetton master`)),
  ...tx,
  amount: str(`amount burned, ${U64}`),
  response_destination: nullable(str(`${ADDRESS} where excesses go; null for none`)),
  custom_payload: payload('custom payload'),
  decoded_custom_payload: decoded('custom payload'),
  trace_id: traceId,
});

const nftCollection = obj({
  address: str(ADDRESS),
  owner_address: nullable(str(`${ADDRESS} of the owner; null without one`)),
  last_transaction_lt: str(`lt of the transaction that left this state, ${U64}`),
  next_item_index: str(`index the next minted item gets, ${U64}`),
  collection_content: content('TEP-64 content read on chain: {"uri": …} off-chain, or the on-chain keys'),
  data_hash: str(`hash of the collection's data, ${HASH}`),
  code_hash: str(`hash of the collection's code, ${HASH}`),
});

const nftItem = obj(
  {
    address: str(ADDRESS),
    init: { type: 'boolean', description: 'the item is initialised' },
    index: str(`index in its collection, ${U64}`),
    collection_address: nullable(str(`${ADDRESS} of the collection; null for a standalone item`)),
    owner_address: nullable(str(`${ADDRESS} of the owner`)),
    content: content('full TEP-64 content (the collection applied); .ton items carry "domain"'),
    last_transaction_lt: str(`lt of the transaction that left this state, ${U64}`),
    code_hash: str(`hash of the item's code, ${HASH}`),
    data_hash: str(`hash of the item's data, ${HASH}`),
    // allOf + nullable: OpenAPI 3.0 ignores keywords beside a bare $ref.
    collection: { allOf: [ref('NFTCollection')], nullable: true, description: 'the collection; null when not indexed' },
    on_sale: { type: 'boolean', description: 'the owner is a GetGems sale or auction contract holding the item' },
    sale_contract_address: str(`${ADDRESS} of the sale contract; only when on sale at one`),
    auction_contract_address: str(`${ADDRESS} of the auction contract; only when on auction`),
    real_owner: str(`${ADDRESS} of the seller; only when on sale and the contract names one`),
  },
  [
    'address',
    'init',
    'index',
    'collection_address',
    'owner_address',
    'content',
    'last_transaction_lt',
    'code_hash',
    'data_hash',
    'collection',
    'on_sale',
  ],
);

const nftTransfer = obj({
  query_id: str(`query id of the transfer, ${U64}`),
  nft_address: str(`${ADDRESS} of the item`),
  nft_collection: nullable(str(`${ADDRESS} of its collection`)),
  ...tx,
  old_owner: nullable(str(`${ADDRESS} of the owner before (the transfer's sender)`)),
  new_owner: nullable(str(`${ADDRESS} of the new owner`)),
  response_destination: nullable(str(`${ADDRESS} where excesses go; null for none`)),
  custom_payload: payload('custom payload'),
  decoded_custom_payload: decoded('custom payload'),
  forward_amount: nullable(str(`nanotons forwarded to the new owner, ${U64}`)),
  forward_payload: payload('forward payload'),
  decoded_forward_payload: decoded('forward payload'),
  trace_id: traceId,
});

const int64 = (description: string): Schema => ({ type: 'integer', format: 'int64', description });
const bool = (description: string): Schema => ({ type: 'boolean', description });
/** A details object: every key optional (absent while the contract has not reported it, as toncenter's omitempty). */
const details = (description: string, properties: Record<string, Schema>): Schema => ({
  ...obj(properties, []),
  additionalProperties: false,
  description,
});

const saleDetails = details('details of a getgems_sale (get_sale_data of a fix-price sale)', {
  is_complete: bool('the item was bought or the sale cancelled'),
  full_price: str(`the price, nanotons, ${U64}`),
  marketplace_fee_address: str(`${ADDRESS} receiving the marketplace fee`),
  marketplace_fee: str(`the marketplace fee, nanotons, ${U64}`),
  royalty_address: str(`${ADDRESS} receiving the royalty`),
  royalty_amount: str(`the royalty, nanotons, ${U64}`),
});

const auctionDetails = details('details of a getgems_auction (get_auction_data_v4 or get_sale_data of an auction)', {
  end_flag: bool('the auction has ended'),
  end_time: int64('when bidding ends, unix seconds'),
  last_bid: str(`the highest bid, nanotons, ${U64}; "0" without bids`),
  last_member: str(`${ADDRESS} of the highest bidder`),
  min_step: int64('minimal raise of a bid, as the contract states it'),
  mp_fee_address: str(`${ADDRESS} receiving the marketplace fee`),
  mp_fee_factor: int64('marketplace fee numerator'),
  mp_fee_base: int64('marketplace fee denominator'),
  royalty_fee_address: str(`${ADDRESS} receiving the royalty`),
  royalty_fee_factor: int64('royalty numerator'),
  royalty_fee_base: int64('royalty denominator'),
  max_bid: str(`the buy-now price, nanotons, ${U64}; "0" for none`),
  min_bid: str(`the lowest first bid, nanotons, ${U64}`),
  last_bid_at: int64('when the highest bid was placed, unix seconds; 0 without bids'),
  is_canceled: bool('the seller cancelled the auction'),
});

const nftSale = obj(
  {
    type: { type: 'string', enum: ['getgems_sale', 'getgems_auction'], description: 'the kind of contract' },
    address: str(`${ADDRESS} of the sale or auction contract`),
    nft_address: str(`${ADDRESS} of the item on sale`),
    nft_owner_address: str(`${ADDRESS} of the seller; absent until the item reached the contract`),
    marketplace_address: str(`${ADDRESS} of the marketplace`),
    created_at: int64('when the contract was created, unix seconds'),
    last_transaction_lt: str(`lt of the transaction that left this state, ${U64}`),
    code_hash: str(`hash of the contract's code, ${HASH}`),
    data_hash: str(`hash of the contract's data, ${HASH}`),
    details: { anyOf: [ref('NFTSaleGetgemsSaleDetails'), ref('NFTSaleGetgemsAuctionDetails')] },
    nft_item: {
      allOf: [ref('NFTItem')],
      description: 'the item with its collection, when indexed (on_sale is false here, as toncenter builds it)',
    },
  },
  ['type', 'address', 'details'],
);

export const TOKEN_SCHEMAS: Record<string, Schema> = {
  JettonMaster: jettonMaster,
  JettonMastersResponse: list('jetton_masters', 'JettonMaster'),
  JettonWalletMintlessInfo: mintlessInfo,
  JettonWallet: jettonWallet,
  JettonWalletsResponse: list('jetton_wallets', 'JettonWallet'),
  JettonTransfer: jettonTransfer,
  JettonTransfersResponse: list('jetton_transfers', 'JettonTransfer'),
  JettonBurn: jettonBurn,
  JettonBurnsResponse: list('jetton_burns', 'JettonBurn'),
  NFTCollection: nftCollection,
  NFTCollectionsResponse: list('nft_collections', 'NFTCollection'),
  NFTItem: nftItem,
  NFTItemsResponse: list('nft_items', 'NFTItem'),
  NFTTransfer: nftTransfer,
  NFTTransfersResponse: list('nft_transfers', 'NFTTransfer'),
  NFTSaleGetgemsSaleDetails: saleDetails,
  NFTSaleGetgemsAuctionDetails: auctionDetails,
  NFTSale: nftSale,
  NFTSalesResponse: list('nft_sales', 'NFTSale'),
};
