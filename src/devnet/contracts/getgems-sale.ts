// GetGems' fixed-price NFT sale, nft-fixprice-sale-v3r2 (code hash deb53b6c…, contracts.md §9; code_hashes.json
// "getgems nft-fixprice-sale-v3r2"), the contract behind mainnet's GetGems listings. Its compiled code is taken at run
// time from @ton-community/assets-sdk (a dependency; the one npm package that ships this code, as `NftSale.code` in
// dist/nft/NftSale.js) and checked against the known hash, as standard-codes.ts does for tonweb's codes; only that
// file is loaded (not the package's index, which pulls in its S3/IPFS/CLI dependencies), and only on first use.
// The storage, message bodies and getter reader are written here with @ton/core (the package's classes are bound to
// its contract provider).
//
// The contract (getgems-io/nft-contracts, nft-fixprice-sale-v3r2.fc), as the sandbox test observes it:
// - storage: is_complete:1 created_at:32 marketplace nft nft_owner full_price:Coins
//   ^[marketplace_fee_to marketplace_fee:Coins royalty_to royalty:Coins] can_deploy_by_external:1;
// - deployed by the marketplace: an internal message with the StateInit from `marketplace` (any body) is accepted
//   while nft_owner is addr_none; from anyone else it must be the NFT's ownership_assigned (else exit 500 / 501);
// - listing: the seller transfers the NFT to the sale with a forward amount; the NFT's ownership_assigned
//   (prev_owner = the seller) sets nft_owner;
// - buy: op 2 (or an empty body) with value ≥ full_price + 1 TON (else exit 450). The sale sends, each
//   non-bounceable with mode 1, full_price − fees − royalty + (its balance before the buy) to the seller, the
//   royalty (when > 0 and royalty_to is set), the marketplace fee; then, with mode 128 (all that is left), a
//   bounceable transfer of the NFT to the buyer (response destination the buyer, forward amount 0.03 TON), and
//   marks itself complete. The item then sends ownership_assigned and the excess to the buyer;
// - cancel: op 3 (or the text comment "cancel") from the seller or the marketplace with ≥ 1 TON: the NFT goes back
//   to the seller (mode 128), the sale is complete;
// - op 1 accepts coins; op 555 lets the marketplace send any message once the sale is complete or not yet listed;
//   anything after completion fails with 404;
// - get_sale_data: 0x46495850 ("FIXP"), is_complete, created_at, marketplace, nft, nft_owner, full_price,
//   marketplace_fee_to, marketplace_fee, royalty_to, royalty.
import { createRequire } from 'node:module';
import {
  type Address,
  type Builder,
  beginCell,
  Cell,
  contractAddress,
  type StateInit,
  type TupleItem,
  TupleReader,
} from '@ton/core';
import { ConfigError } from '../../common/index.ts';
import type { RoyaltyParams } from './nft.ts';

/** Representation hash of nft-fixprice-sale-v3r2, as indexers key it. */
export const GETGEMS_SALE_CODE_HASH = 'deb53b6c5765c1e6cd238bf47bc5e83ba596bdcc04b0b84cd50ab1e474a08f31';

export const GETGEMS_SALE_OP = {
  acceptCoins: 1,
  buy: 2,
  cancel: 3,
  /** Marketplace-only: send the message in the body's ref (a fix for stuck sales). */
  adminMessage: 555,
} as const;

export const GETGEMS_SALE_ERROR = {
  /** Any message after the sale completed (bought or cancelled). */
  complete: 404,
  /** buy with less than full_price + 1 TON. */
  notEnoughValue: 450,
  /** cancel with less than 1 TON. */
  cancelNotEnoughValue: 457,
  /** cancel by somebody other than the seller or the marketplace. */
  cancelNotAllowed: 458,
  /** Before listing: a message neither from the marketplace nor from the NFT. */
  notFromNft: 500,
  /** Before listing: a message from the NFT that is not ownership_assigned. */
  notOwnershipAssigned: 501,
} as const;

/** "FIXP", the first entry of get_sale_data. */
export const GETGEMS_SALE_MAGIC = 0x46495850;

/** What a buy must carry on top of full_price (the contract's min_gas_amount). */
export const GETGEMS_SALE_MIN_GAS = 1_000_000_000n;

/** The forward amount the sale gives the NFT transfer to the buyer (the buyer's ownership_assigned). */
export const GETGEMS_SALE_BUYER_FORWARD = 30_000_000n;

let loaded: Cell | undefined;

/** The sale code, hash-checked (loads assets-sdk's NftSale.js on the first call; throws ConfigError on a mismatch). */
export function getgemsSaleCode(): Cell {
  if (loaded) return loaded;
  const mod = createRequire(import.meta.url)('@ton-community/assets-sdk/dist/nft/NftSale.js') as {
    NftSale?: { code?: { toBoc(): Buffer } };
  };
  const shipped = mod.NftSale?.code;
  if (!shipped) throw new ConfigError('@ton-community/assets-sdk: expected dist/nft/NftSale.js to export NftSale.code');
  // Through a BoC: the package's Cell may come from another copy of @ton/core.
  const cell = Cell.fromBoc(shipped.toBoc())[0]!;
  const got = cell.hash().toString('hex');
  if (got !== GETGEMS_SALE_CODE_HASH) {
    throw new ConfigError(
      `@ton-community/assets-sdk: expected NftSale.code to hash to ${GETGEMS_SALE_CODE_HASH}, got ${got} (another version?)`,
      { details: { name: 'getgemsSale', expected: GETGEMS_SALE_CODE_HASH, got } },
    );
  }
  loaded = cell;
  return cell;
}

/** The sale's storage (a fresh sale: not complete, nft_owner unset until the NFT's ownership_assigned). */
export interface GetgemsSaleData {
  isComplete?: boolean;
  /** Unix time; part of the address, so two listings of the same NFT at the same price differ by it. */
  createdAt: number;
  marketplace: Address;
  nft: Address;
  /** addr_none until listed (a fresh sale must have none). */
  nftOwner?: Address | null;
  fullPrice: bigint;
  marketplaceFeeTo: Address;
  marketplaceFee: bigint;
  /** null: no royalty message. */
  royaltyTo: Address | null;
  royalty: bigint;
  canDeployByExternal?: boolean;
}

export function storeGetgemsSaleData(v: GetgemsSaleData) {
  return (b: Builder) => {
    b.storeBit(v.isComplete ?? false)
      .storeUint(v.createdAt, 32)
      .storeAddress(v.marketplace)
      .storeAddress(v.nft)
      .storeAddress(v.nftOwner ?? null)
      .storeCoins(v.fullPrice)
      .storeRef(
        beginCell()
          .storeAddress(v.marketplaceFeeTo)
          .storeCoins(v.marketplaceFee)
          .storeAddress(v.royaltyTo)
          .storeCoins(v.royalty),
      )
      .storeBit(v.canDeployByExternal ?? false);
  };
}

export function getgemsSaleStateInit(v: GetgemsSaleData): StateInit {
  return { code: getgemsSaleCode(), data: beginCell().store(storeGetgemsSaleData(v)).endCell() };
}

export function getgemsSaleAddress(init: StateInit, workchain = 0): Address {
  return contractAddress(workchain, init);
}

/** buy#00000002 query_id:uint64 (an empty body buys too, with query id 0). */
export function getgemsSaleBuyBody(queryId = 0n): Cell {
  return beginCell().storeUint(GETGEMS_SALE_OP.buy, 32).storeUint(queryId, 64).endCell();
}

/** cancel#00000003 query_id:uint64 (the text comment "cancel" does the same). */
export function getgemsSaleCancelBody(queryId = 0n): Cell {
  return beginCell().storeUint(GETGEMS_SALE_OP.cancel, 32).storeUint(queryId, 64).endCell();
}

/**
 * The fee and royalty a marketplace puts in a sale of `fullPrice`: `feeBps` basis points of the price to itself,
 * and the collection's TEP-66 share (get_royalty_params) to its royalty destination, both rounded down.
 */
export function getgemsSaleFees(
  fullPrice: bigint,
  feeBps: bigint,
  royalty: RoyaltyParams | null,
): { marketplaceFee: bigint; royalty: bigint } {
  const share =
    royalty && royalty.denominator > 0 ? (fullPrice * BigInt(royalty.numerator)) / BigInt(royalty.denominator) : 0n;
  return { marketplaceFee: (fullPrice * feeBps) / 10_000n, royalty: share };
}

/** get_sale_data() of a fixed-price sale. */
export interface GetgemsSaleDataResult {
  /** 0x46495850 ("FIXP"). */
  magic: number;
  isComplete: boolean;
  createdAt: number;
  marketplace: Address;
  nft: Address;
  nftOwner: Address | null;
  fullPrice: bigint;
  marketplaceFeeTo: Address;
  marketplaceFee: bigint;
  royaltyTo: Address | null;
  royalty: bigint;
}

export function readGetgemsSaleData(stack: TupleItem[]): GetgemsSaleDataResult {
  const r = new TupleReader(stack);
  return {
    magic: r.readNumber(),
    isComplete: r.readBoolean(),
    createdAt: r.readNumber(),
    marketplace: r.readAddress(),
    nft: r.readAddress(),
    nftOwner: r.readAddressOpt(),
    fullPrice: r.readBigNumber(),
    marketplaceFeeTo: r.readAddress(),
    marketplaceFee: r.readBigNumber(),
    royaltyTo: r.readAddressOpt(),
    royalty: r.readBigNumber(),
  };
}
