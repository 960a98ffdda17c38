// The nft_collections, nft_items and nft_transfers columns v3's NFT reads select, and the joins of an item
// (render/nft.ts turns the rows into JSON).

export const NFT_COLLECTION_COLUMNS = `N.id, N.address, N.next_item_index, N.owner_address, N.collection_content,
  N.data_hash, N.code_hash, N.last_transaction_lt`;

/**
 * The item columns with its collection (LEFT JOIN nft_collections C) as c_*, and the GetGems sale (S) or auction (A)
 * holding it as s_* / a_*: NFT_ITEM_FROM joins them as toncenter does (ton-index-go buildNFTItemsQuery).
 */
export const NFT_ITEM_COLUMNS = `N.id, N.address, N.init, N.index, N.collection_address, N.owner_address, N.content,
  N.last_transaction_lt, N.code_hash, N.data_hash, C.address AS c_address,
  C.next_item_index AS c_next_item_index, C.owner_address AS c_owner_address,
  C.collection_content AS c_collection_content, C.data_hash AS c_data_hash, C.code_hash AS c_code_hash,
  C.last_transaction_lt AS c_last_transaction_lt, S.address AS s_address, S.nft_owner_address AS s_owner,
  A.address AS a_address, A.nft_owner AS a_owner`;

/**
 * nft_items N with its collection and the sale or auction contract that owns it and holds this very item (the
 * contract's nft address is the item): every join is a primary-key lookup.
 */
export const NFT_ITEM_FROM = `nft_items N LEFT JOIN nft_collections C ON C.address = N.collection_address
  LEFT JOIN getgems_nft_sales S ON S.address = N.owner_address AND S.nft_address = N.address
  LEFT JOIN getgems_nft_auctions A ON A.address = N.owner_address AND A.nft_addr = N.address`;

export const NFT_TRANSFER_COLUMNS = `T.tx_hash, T.tx_lt, T.tx_now, T.tx_aborted, T.query_id, T.nft_item_address,
  T.nft_item_index, T.nft_collection_address, T.old_owner, T.new_owner, T.response_destination, T.custom_payload,
  T.forward_amount, T.forward_payload, T.trace_id`;
