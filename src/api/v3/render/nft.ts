// nft_collections, nft_items and nft_transfers rows as v3 JSON (v3-api.md §3.5, ton-index-go models/nft.go): keys in
// toncenter's order, addresses raw, index / next_item_index / lts / amounts as strings, nullable columns JSON null;
// an item embeds its collection's row (null when the collection is not indexed).
import type { Row } from '../sql-query.ts';
import { decodedPayload } from './payload.ts';
import { num, str } from './values.ts';

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

/**
 * An NFTItem. As toncenter: on sale when its owner is a GetGems sale contract holding it (sale_contract_address),
 * else an auction contract holding it (auction_contract_address), with the seller the contract reports as
 * real_owner (left out while the contract has none); the three keys are absent otherwise. A row without the s_* /
 * a_* columns (the item inside an /nft/sales answer) is not on sale, as toncenter builds that one.
 */
export function nftItemJson(r: Row): Record<string, unknown> {
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
    on_sale: false,
  };
  if (r.s_address) {
    out.on_sale = true;
    out.sale_contract_address = r.s_address;
    if (r.s_owner) out.real_owner = r.s_owner;
  } else if (r.a_address) {
    out.on_sale = true;
    out.auction_contract_address = r.a_address;
    if (r.a_owner) out.real_owner = r.a_owner;
  }
  return out;
}

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
