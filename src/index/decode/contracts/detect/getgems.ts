// GetGems marketplace contracts (ton-index-worker GetGemsNftFixPriceSale / GetGemsNftAuction, contracts.md §1.1):
// - fix-price sale: get_sale_data → int magic 0x46495850 ("FIXP"), int is_complete, int created_at, slice
//   marketplace, slice nft, slice nft_owner (addr_none until the item arrived), int full_price, slice
//   marketplace_fee_address, int marketplace_fee, slice royalty_address, int royalty_amount;
// - auction v1-v3: get_sale_data → int magic 0x415543 ("AUC"), int end, int end_time, slice marketplace, slice
//   nft, slice nft_owner, int last_bid, slice last_member (addr_none without bids), int min_step, slice
//   mp_fee_addr, int mp_fee_factor, int mp_fee_base, slice royalty_fee_addr, int royalty_fee_factor, int
//   royalty_fee_base, int max_bid, int min_bid, int created_at, int last_bid_at, int is_canceled;
// - auction v4: get_auction_data_v4 → int activated, then the same nineteen entries from `end` on (no magic), then
//   step_time, last_query_id, jetton wallet and master, is_broken_state, public_key (not kept: toncenter's v3
//   tables have no columns for them). toncenter tries v4 first and falls back to get_sale_data.
// Every address but the owner and the last bidder must be an addr_std, and the integer columns toncenter keeps as
// bigint must fit in 64 bits; otherwise the contract is not detected (as ton-index-worker's conversions fail).
import type { Address, TupleItem } from '@ton/core';
import type { Detected, DetectedBase } from '../types.ts';
import type { Family } from './family.ts';
import { addressAt, type EntryKind, hasShape, intAt } from './stack.ts';

const FIXP = 0x46495850n;
const AUC = 0x415543n;

const I: EntryKind = 'int';
const S: EntryKind = 'slice';
const FIX_PRICE_SHAPE: readonly EntryKind[] = [I, I, I, S, S, S, I, S, I, S, I];
/** The auction's entries from `end` on, shared by get_sale_data (after the magic) and v4 (after `activated`). */
const AUCTION_BODY: readonly EntryKind[] = [I, I, S, S, S, I, S, I, S, I, I, S, I, I, I, I, I, I, I];
const AUCTION_SHAPE: readonly EntryKind[] = [I, ...AUCTION_BODY];
const AUCTION_V4_SHAPE: readonly EntryKind[] = [I, ...AUCTION_BODY, I, I, S, S, I, I];

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const int64 = (v: bigint): bigint | null => (v >= INT64_MIN && v <= INT64_MAX ? v : null);

/** A required address: an Address, or null when the entry is addr_none or not an address (detection fails). */
const required = (s: readonly TupleItem[], i: number): Address | null => addressAt(s, i) ?? null;

/** An optional address: null for addr_none, undefined when it is not an address (detection fails). */
const optional = (s: readonly TupleItem[], i: number): Address | null | undefined => addressAt(s, i);

function fixPriceSale(s: readonly TupleItem[], base: DetectedBase): Detected | null {
  const marketplace = required(s, 3);
  const nft = required(s, 4);
  const nftOwner = optional(s, 5);
  const marketplaceFeeAddress = required(s, 7);
  const royaltyAddress = required(s, 9);
  const createdAt = int64(intAt(s, 2));
  if (!marketplace || !nft || nftOwner === undefined || !marketplaceFeeAddress || !royaltyAddress) return null;
  if (createdAt === null) return null;
  return {
    ...base,
    kind: 'getgems_sale',
    isComplete: intAt(s, 1) !== 0n,
    createdAt,
    marketplace,
    nft,
    nftOwner,
    fullPrice: intAt(s, 6),
    marketplaceFeeAddress,
    marketplaceFee: intAt(s, 8),
    royaltyAddress,
    royaltyAmount: intAt(s, 10),
  };
}

/** An auction from its entries starting at `end` (index `at` of the stack). */
function auction(s: readonly TupleItem[], at: number, base: DetectedBase): Detected | null {
  const e = (i: number) => intAt(s, at + i);
  const marketplace = required(s, at + 2);
  const nft = required(s, at + 3);
  const nftOwner = optional(s, at + 4);
  const lastMember = optional(s, at + 6);
  const mpFeeAddress = required(s, at + 8);
  const royaltyFeeAddress = required(s, at + 11);
  if (!marketplace || !nft || nftOwner === undefined || lastMember === undefined) return null;
  if (!mpFeeAddress || !royaltyFeeAddress) return null;
  const longs = [1, 7, 9, 10, 12, 13, 16, 17].map((i) => int64(e(i)));
  if (longs.some((v) => v === null)) return null;
  const [endTime, minStep, mpFeeFactor, mpFeeBase, royaltyFeeFactor, royaltyFeeBase, createdAt, lastBidAt] =
    longs as bigint[];
  return {
    ...base,
    kind: 'getgems_auction',
    endFlag: e(0) !== 0n,
    endTime: endTime!,
    marketplace,
    nft,
    nftOwner,
    lastBid: e(5),
    lastMember,
    minStep: minStep!,
    mpFeeAddress,
    mpFeeFactor: mpFeeFactor!,
    mpFeeBase: mpFeeBase!,
    royaltyFeeAddress,
    royaltyFeeFactor: royaltyFeeFactor!,
    royaltyFeeBase: royaltyFeeBase!,
    maxBid: e(14),
    minBid: e(15),
    createdAt: createdAt!,
    lastBidAt: lastBidAt!,
    isCanceled: e(18) !== 0n,
  };
}

/** Fix-price sales and v1-v3 auctions, told apart by get_sale_data's magic. */
export const getgemsSale: Family = {
  getter: 'get_sale_data',
  async detect(account, base, { getters, has }) {
    // A v4 auction that also answers get_sale_data is read through get_auction_data_v4 (getgemsAuctionV4).
    if (has('get_auction_data_v4')) return null;
    // One run; the magic says which shape the rest of the stack must have.
    const s = await getters.run(account, 'get_sale_data', [], [I]);
    if (!s) return null;
    const magic = intAt(s, 0);
    if (magic === FIXP) return hasShape(s, FIX_PRICE_SHAPE) ? fixPriceSale(s, base) : null;
    if (magic === AUC) return hasShape(s, AUCTION_SHAPE) ? auction(s, 1, base) : null;
    return null;
  },
};

/** v4 auctions (get_auction_data_v4, no magic). */
export const getgemsAuctionV4: Family = {
  getter: 'get_auction_data_v4',
  async detect(account, base, { getters }) {
    const s = await getters.run(account, 'get_auction_data_v4', [], AUCTION_V4_SHAPE);
    return s ? auction(s, 1, base) : null;
  },
};
