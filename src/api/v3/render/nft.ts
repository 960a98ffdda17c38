// nft_collections, nft_items and nft_transfers rows as v3 JSON (v3-api.md §3.5, ton-index-go models/nft.go): keys in
// toncenter's order, addresses raw, index / next_item_index / lts / amounts as strings, nullable columns JSON null;
// an item embeds its collection's row (null when the collection is not indexed).
import type { Row } from '../../../db/index.ts';
import { decodedPayload } from './payload.ts';
import { num, str } from './values.ts';

export const NFT_COLLECTION_COLUMNS = `N.id, N.address, N.next_item_index, N.owner_address, N.collection_content,
  N.data_hash, N.code_hash, N.last_transaction_lt`;

/** An NFTCollection from columns named `<prefix><column>` (the item query selects its collection as c_*). */
export function nftCollectionJson(r: Row, prefix = ''): Record<string, unknown> {
  const col = (name: string) => r[prefix + name];
  return {
    address: col('address'),
    owner_address: col('owner_address') ?? null,
    last_transaction_lt: str(col('last_transaction_lt')),
    next_item_index: str(col('next_item_index')),
    collection_content: col('collection_content') ?? null,
    data_hash: col('data_hash'),
    code_hash: col('code_hash'),
  };
}

/** The item columns with its collection (LEFT JOIN nft_collections C) as c_*. */
export const NFT_ITEM_COLUMNS = `N.id, N.address, N.init, N.index, N.collection_address, N.owner_address, N.content,
  N.last_transaction_lt, N.code_hash, N.data_hash, N.real_owner, C.address AS c_address,
  C.next_item_index AS c_next_item_index, C.owner_address AS c_owner_address,
  C.collection_content AS c_collection_content, C.data_hash AS c_data_hash, C.code_hash AS c_code_hash,
  C.last_transaction_lt AS c_last_transaction_lt`;

/**
 * An NFTItem. toncenter reports an item on sale when its owner is a GetGems sale or auction contract holding it,
 * with the seller as real_owner; sale contracts are not decoded here, so the sign is the one nft_items keeps:
 * a real_owner other than the owner. The sale/auction contract address is then unknown and left out.
 */
export function nftItemJson(r: Row): Record<string, unknown> {
  const onSale = r.real_owner !== null && r.real_owner !== undefined && r.real_owner !== r.owner_address;
  const out: Record<string, unknown> = {
    address: r.address,
    init: r.init,
    index: str(r.index),
    collection_address: r.collection_address ?? null,
    owner_address: r.owner_address ?? null,
    content: r.content ?? null,
    last_transaction_lt: str(r.last_transaction_lt),
    code_hash: r.code_hash,
    data_hash: r.data_hash,
    collection: r.c_address ? nftCollectionJson(r, 'c_') : null,
    on_sale: onSale,
  };
  if (onSale) out.real_owner = r.real_owner;
  return out;
}

export const NFT_TRANSFER_COLUMNS = `T.tx_hash, T.tx_lt, T.tx_now, T.tx_aborted, T.query_id, T.nft_item_address,
  T.nft_item_index, T.nft_collection_address, T.old_owner, T.new_owner, T.response_destination, T.custom_payload,
  T.forward_amount, T.forward_payload, T.trace_id`;

export function nftTransferJson(r: Row): Record<string, unknown> {
  return {
    query_id: str(r.query_id),
    nft_address: r.nft_item_address,
    nft_collection: r.nft_collection_address ?? null,
    transaction_hash: r.tx_hash,
    transaction_lt: str(r.tx_lt),
    transaction_now: num(r.tx_now),
    transaction_aborted: r.tx_aborted,
    old_owner: r.old_owner ?? null,
    new_owner: r.new_owner ?? null,
    response_destination: r.response_destination ?? null,
    custom_payload: r.custom_payload ?? null,
    decoded_custom_payload: decodedPayload(r.custom_payload),
    forward_amount: str(r.forward_amount),
    forward_payload: r.forward_payload ?? null,
    decoded_forward_payload: decodedPayload(r.forward_payload),
    trace_id: r.trace_id ?? null,
  };
}

/** The addresses toncenter puts in the address_book and metadata of each list (ton-index-go crud_nft.go). */
export const nftAddresses = {
  collection: (r: Row) => [r.address, r.owner_address],
  item: (r: Row) => [r.address, r.collection_address, r.owner_address],
  transfer: (r: Row) => [
    r.nft_item_address,
    r.nft_collection_address,
    r.old_owner,
    r.new_owner,
    r.response_destination,
  ],
} satisfies Record<string, (r: Row) => unknown[]>;
