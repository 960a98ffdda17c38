// getgems_nft_sales and getgems_nft_auctions rows as v3 NFTSale JSON (v3-api.md §3.5 /nft/sales, ton-index-go
// models/nft.go NFTSale and its details structs, parse/scan_nft.go ParseNFTSale): keys in toncenter's order, every
// key but type, address and details left out when its column is NULL (omitempty on Go pointers, so false and 0
// stay), last_transaction_lt and the nanoton amounts as strings, times, steps and fee fractions as numbers. The sale's
// item comes with its collection when the item is indexed; toncenter builds that item without the sale join, so its
// on_sale is false.
import type { Row } from '../sql-query.ts';
import { nftItemJson } from './nft.ts';
import { num, str } from './values.ts';

export type NftSaleType = 'getgems_sale' | 'getgems_auction';

type Encode = (v: unknown) => unknown;
const asIs: Encode = (v) => v;

/** `keys` in order, each encoded, the NULL ones left out (Go omitempty on a pointer). */
function present(r: Row, keys: Array<[json: string, column: string, encode: Encode]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [json, column, encode] of keys) {
    const v = r[column];
    if (v !== null && v !== undefined) out[json] = encode(v);
  }
  return out;
}

function saleDetails(r: Row): Record<string, unknown> {
  return present(r, [
    ['is_complete', 'is_complete', asIs],
    ['full_price', 'full_price', str],
    ['marketplace_fee_address', 'marketplace_fee_address', asIs],
    ['marketplace_fee', 'marketplace_fee', str],
    ['royalty_address', 'royalty_address', asIs],
    ['royalty_amount', 'royalty_amount', str],
  ]);
}

function auctionDetails(r: Row): Record<string, unknown> {
  return present(r, [
    ['end_flag', 'end_flag', asIs],
    ['end_time', 'end_time', num],
    ['last_bid', 'last_bid', str],
    ['last_member', 'last_member', asIs],
    ['min_step', 'min_step', num],
    ['mp_fee_address', 'mp_fee_addr', asIs],
    ['mp_fee_factor', 'mp_fee_factor', num],
    ['mp_fee_base', 'mp_fee_base', num],
    ['royalty_fee_address', 'royalty_fee_addr', asIs],
    ['royalty_fee_factor', 'royalty_fee_factor', num],
    ['royalty_fee_base', 'royalty_fee_base', num],
    ['max_bid', 'max_bid', str],
    ['min_bid', 'min_bid', str],
    ['last_bid_at', 'last_bid_at', num],
    ['is_canceled', 'is_canceled', asIs],
  ]);
}

/**
 * The sale's item as an NFTItem, with Go's zero values where toncenter's scan leaves a NULL column unset (init
 * false, index ""); not on sale (ParseNFTSale sets none of the sale keys).
 */
function saleItemJson(r: Row): Record<string, unknown> {
  const item: Row = {};
  for (const [k, v] of Object.entries(r)) {
    if (k.startsWith('i_')) item[k.slice(2)] = v;
    else if (k.startsWith('c_')) item[k] = v;
  }
  const out = nftItemJson(item);
  out.init ??= false;
  out.index ??= '';
  return out;
}

export function nftSaleJson(r: Row, type: NftSaleType): Record<string, unknown> {
  const out: Record<string, unknown> = {
    type,
    address: r.address,
    ...present(r, [
      ['nft_address', 'nft_address', asIs],
      ['nft_owner_address', 'nft_owner_address', asIs],
      ['marketplace_address', 'marketplace_address', asIs],
      ['created_at', 'created_at', num],
      ['last_transaction_lt', 'last_transaction_lt', str],
      ['code_hash', 'code_hash', asIs],
      ['data_hash', 'data_hash', asIs],
    ]),
    details: type === 'getgems_sale' ? saleDetails(r) : auctionDetails(r),
  };
  if (r.i_address) out.nft_item = saleItemJson(r);
  return out;
}

/**
 * The addresses toncenter puts in the address_book and metadata of /nft/sales (crud_sales.go QueryNFTSales): the
 * contract, its item, seller and marketplace, the addresses of its details, and the item's collection and owner.
 */
export function nftSaleAddresses(r: Row, type: NftSaleType): unknown[] {
  const details =
    type === 'getgems_sale'
      ? [r.marketplace_fee_address, r.royalty_address]
      : [r.last_member, r.mp_fee_addr, r.royalty_fee_addr];
  return [
    r.address,
    r.nft_address,
    r.nft_owner_address,
    r.marketplace_address,
    ...details,
    r.i_address,
    r.i_collection_address,
    r.i_owner_address,
  ];
}
