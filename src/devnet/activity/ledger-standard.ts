// The ledger of the standard-code families (vesting wallets, tonweb's NFT collection and item, highload wallets v3,
// tonweb's jetton, GetGems fixed-price sales): what the activity deployed and did with them, so indexer tests can
// compare rows with it.
import type { Address } from '@ton/core';
import type { VestingParams } from '../contracts/vesting.ts';
import type { LedgerCollection, LedgerJetton } from './ledger-core.ts';

export interface LedgerVestingSend {
  step: number;
  /** `internal`: send#a7733acd from the owner's wallet; `external`: signed with the owner's key. */
  path: 'internal' | 'external';
  to: Address;
  value: bigint;
}

export interface LedgerVesting {
  step: number;
  address: Address;
  subwalletId: number;
  /** The owner wallet's key (the external path signs with it). */
  publicKey: Buffer;
  params: VestingParams;
  /** In the order added (the deploy message adds the first one). */
  whitelist: Address[];
  sends: LedgerVestingSend[];
}

export interface LedgerHighloadSend {
  step: number;
  /** The flat query id (shift · 1024 + bit_number), as `processed?` takes it. */
  queryId: bigint;
  to: Address;
  value: bigint;
}

export interface LedgerHighload {
  step: number;
  address: Address;
  publicKey: Buffer;
  subwalletId: number;
  timeout: number;
  /** Index of the next query id in highloadQueryIdAt's sequence. */
  nextQuery: bigint;
  sends: LedgerHighloadSend[];
}

/** How a sale ended: bought (the buy step's transactions, for /api/v3/nft/sales and `nft_purchase` checks). */
export interface LedgerNftSaleBuy {
  step: number;
  buyer: Address;
  /** What the buyer sent to the sale: price + the contract's 1 TON minimum for gas (most of it comes back). */
  value: bigint;
  /** The sale's transaction that ran the buy (in-message from the buyer: a plain transfer, empty body). */
  txHash: Buffer;
  txLt: bigint;
  /** The buyer wallet's transaction that sent the buy (its external in-message): the root of the purchase's trace. */
  rootTxHash: Buffer;
  rootTxLt: bigint;
  /** What the sale paid the seller: price − fee − royalty + the sale's balance before the buy. */
  sellerPayout: bigint;
}

/** A GetGems nft-fixprice-sale-v3r2 of one of tonweb's standard items (getgems-sale.ts). */
export interface LedgerNftSale {
  /** The listing step: the marketplace deployed the sale, the seller handed the item over. */
  step: number;
  address: Address;
  collection: Address;
  item: Address;
  itemIndex: bigint;
  seller: Address;
  marketplace: Address;
  createdAt: number;
  price: bigint;
  marketplaceFeeTo: Address;
  marketplaceFee: bigint;
  /** The collection's royalty destination (get_royalty_params), null for none. */
  royaltyTo: Address | null;
  royalty: bigint;
  /** null while listed. */
  buy: LedgerNftSaleBuy | null;
}

export interface LedgerStandard {
  vestings: LedgerVesting[];
  /** tonweb's editable collection with simple items (the items' code hash is nft_item_simple). */
  nftCollections: LedgerCollection[];
  highloadWallets: LedgerHighload[];
  /** tonweb's JettonMinter / JettonWallet (an early token-contract build). */
  jettons: LedgerJetton[];
  /** GetGems fixed-price sales of items of `nftCollections`, listed and (by the next step) bought. */
  nftSales: LedgerNftSale[];
}

export function emptyStandardLedger(): LedgerStandard {
  return { vestings: [], nftCollections: [], highloadWallets: [], jettons: [], nftSales: [] };
}
