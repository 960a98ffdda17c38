// The getgems_nft_sales and getgems_nft_auctions columns /nft/sales selects, with the item and its collection
// (render/nft-sale.ts turns the rows into JSON).

/** The item (LEFT JOIN nft_items N on the sale's nft address) as i_*, its collection (C) as c_*. */
const ITEM_COLUMNS = `N.address AS i_address, N.init AS i_init, N.index AS i_index,
  N.collection_address AS i_collection_address, N.owner_address AS i_owner_address, N.content AS i_content,
  N.last_transaction_lt AS i_last_transaction_lt, N.code_hash AS i_code_hash, N.data_hash AS i_data_hash,
  C.address AS c_address, C.next_item_index AS c_next_item_index, C.owner_address AS c_owner_address,
  C.collection_content AS c_collection_content, C.data_hash AS c_data_hash, C.code_hash AS c_code_hash,
  C.last_transaction_lt AS c_last_transaction_lt`;

/** A fix-price sale S with the common keys under their NFTSale names. */
export const NFT_SALE_COLUMNS = `S.id, S.address, S.nft_address, S.nft_owner_address, S.marketplace_address,
  S.created_at, S.last_transaction_lt, S.code_hash, S.data_hash, S.is_complete, S.full_price,
  S.marketplace_fee_address, S.marketplace_fee, S.royalty_address, S.royalty_amount, ${ITEM_COLUMNS}`;

/** An auction A with the common keys under their NFTSale names (nft_addr -> nft_address, ...). */
export const NFT_AUCTION_COLUMNS = `A.id, A.address, A.nft_addr AS nft_address, A.nft_owner AS nft_owner_address,
  A.mp_addr AS marketplace_address, A.created_at, A.last_transaction_lt, A.code_hash, A.data_hash, A.end_flag,
  A.end_time, A.last_bid, A.last_member, A.min_step, A.mp_fee_addr, A.mp_fee_factor, A.mp_fee_base,
  A.royalty_fee_addr, A.royalty_fee_factor, A.royalty_fee_base, A.max_bid, A.min_bid, A.last_bid_at, A.is_canceled,
  ${ITEM_COLUMNS}`;
