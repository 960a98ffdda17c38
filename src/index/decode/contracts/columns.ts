// Column lists of the contract tables (schema/0006_create_contract_tables.sql), in the order the row arrays of
// rows.ts hold their values: the tables' own column order without the `id` columns their sequences fill.
export const CONTRACT_METHODS_COLUMNS = ['code_hash', 'methods'] as const;

export const JETTON_MASTER_COLUMNS = [
  'address',
  'total_supply',
  'mintable',
  'admin_address',
  'jetton_content',
  'jetton_wallet_code_hash',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
] as const;

export const MINTLESS_JETTON_MASTER_COLUMNS = ['address', 'is_indexed', 'custom_payload_api_uri'] as const;

export const JETTON_WALLET_COLUMNS = [
  'address',
  'balance',
  'owner',
  'jetton',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
  'mintless_is_claimed',
  'mintless_amount',
  'mintless_start_from',
  'mintless_expire_at',
] as const;

export const JETTON_TRANSFER_COLUMNS = [
  'tx_hash',
  'tx_lt',
  'tx_now',
  'tx_aborted',
  'mc_seqno',
  'query_id',
  'amount',
  'source',
  'destination',
  'jetton_wallet_address',
  'jetton_master_address',
  'response_destination',
  'custom_payload',
  'forward_ton_amount',
  'forward_payload',
  'trace_id',
] as const;

export const JETTON_BURN_COLUMNS = [
  'tx_hash',
  'tx_lt',
  'tx_now',
  'tx_aborted',
  'mc_seqno',
  'query_id',
  'owner',
  'jetton_wallet_address',
  'jetton_master_address',
  'amount',
  'response_destination',
  'custom_payload',
  'trace_id',
] as const;

export const JETTON_MINT_COLUMNS = [
  'tx_hash',
  'tx_lt',
  'tx_now',
  'tx_aborted',
  'mc_seqno',
  'query_id',
  'amount',
  'minter',
  'from_address',
  'destination',
  'jetton_wallet_address',
  'jetton_master_address',
  'response_destination',
  'forward_ton_amount',
  'trace_id',
] as const;

export const NFT_COLLECTION_COLUMNS = [
  'address',
  'next_item_index',
  'owner_address',
  'collection_content',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
] as const;

export const NFT_ITEM_COLUMNS = [
  'address',
  'init',
  'index',
  'collection_address',
  'owner_address',
  'content',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
  'real_owner',
] as const;

export const NFT_TRANSFER_COLUMNS = [
  'tx_hash',
  'tx_lt',
  'tx_now',
  'tx_aborted',
  'mc_seqno',
  'query_id',
  'nft_item_address',
  'nft_item_index',
  'nft_collection_address',
  'old_owner',
  'new_owner',
  'response_destination',
  'custom_payload',
  'forward_amount',
  'forward_payload',
  'trace_id',
] as const;

export const DNS_ENTRY_COLUMNS = [
  'nft_item_address',
  'nft_item_owner',
  'domain',
  'dns_next_resolver',
  'dns_wallet',
  'dns_site_adnl',
  'dns_storage_bag_id',
  'last_transaction_lt',
] as const;

export const MULTISIG_COLUMNS = [
  'address',
  'next_order_seqno',
  'threshold',
  'signers',
  'proposers',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
] as const;

export const MULTISIG_ORDER_COLUMNS = [
  'address',
  'multisig_address',
  'order_seqno',
  'threshold',
  'sent_for_execution',
  'approvals_mask',
  'approvals_num',
  'expiration_date',
  'order_boc',
  'signers',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
] as const;

export const VESTING_CONTRACT_COLUMNS = [
  'address',
  'vesting_start_time',
  'vesting_total_duration',
  'unlock_period',
  'cliff_duration',
  'vesting_total_amount',
  'vesting_sender_address',
  'owner_address',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
] as const;

export const VESTING_WHITELIST_COLUMNS = ['vesting_contract_address', 'wallet_address'] as const;

export const ADDRESS_METADATA_COLUMNS = [
  'address',
  'type',
  'valid',
  'name',
  'description',
  'extra',
  'symbol',
  'image',
  'updated_at',
  'expires_at',
  'reindex_allowed',
] as const;

export const GETGEMS_SALE_COLUMNS = [
  'address',
  'is_complete',
  'created_at',
  'marketplace_address',
  'nft_address',
  'nft_owner_address',
  'full_price',
  'marketplace_fee_address',
  'marketplace_fee',
  'royalty_address',
  'royalty_amount',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
] as const;

export const GETGEMS_AUCTION_COLUMNS = [
  'address',
  'end_flag',
  'end_time',
  'mp_addr',
  'nft_addr',
  'nft_owner',
  'last_bid',
  'last_member',
  'min_step',
  'mp_fee_addr',
  'mp_fee_factor',
  'mp_fee_base',
  'royalty_fee_addr',
  'royalty_fee_factor',
  'royalty_fee_base',
  'max_bid',
  'min_bid',
  'created_at',
  'last_bid_at',
  'is_canceled',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
] as const;

/** Every contract table's column list by table name (what the writer stages and COPYs). */
export const CONTRACT_TABLE_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  contract_methods: CONTRACT_METHODS_COLUMNS,
  jetton_masters: JETTON_MASTER_COLUMNS,
  mintless_jetton_masters: MINTLESS_JETTON_MASTER_COLUMNS,
  jetton_wallets: JETTON_WALLET_COLUMNS,
  jetton_transfers: JETTON_TRANSFER_COLUMNS,
  jetton_burns: JETTON_BURN_COLUMNS,
  jetton_mints: JETTON_MINT_COLUMNS,
  nft_collections: NFT_COLLECTION_COLUMNS,
  nft_items: NFT_ITEM_COLUMNS,
  nft_transfers: NFT_TRANSFER_COLUMNS,
  dns_entries: DNS_ENTRY_COLUMNS,
  multisig: MULTISIG_COLUMNS,
  multisig_orders: MULTISIG_ORDER_COLUMNS,
  vesting_contracts: VESTING_CONTRACT_COLUMNS,
  vesting_whitelist: VESTING_WHITELIST_COLUMNS,
  address_metadata: ADDRESS_METADATA_COLUMNS,
  getgems_nft_sales: GETGEMS_SALE_COLUMNS,
  getgems_nft_auctions: GETGEMS_AUCTION_COLUMNS,
};
