// The ledger of the standard-code families (vesting wallets, tonweb's NFT collection and item, highload wallets v3,
// tonweb's jetton): what the activity deployed and did with them, so indexer tests can compare rows with it.
import type { Address } from '@ton/core';
import type { VestingParams } from '../contracts/vesting.ts';
import type { LedgerCollection, LedgerJetton } from './types.ts';

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

export interface LedgerStandard {
  vestings: LedgerVesting[];
  /** tonweb's editable collection with simple items (the items' code hash is nft_item_simple). */
  nftCollections: LedgerCollection[];
  highloadWallets: LedgerHighload[];
  /** tonweb's JettonMinter / JettonWallet (an early token-contract build). */
  jettons: LedgerJetton[];
}

export function emptyStandardLedger(): LedgerStandard {
  return { vestings: [], nftCollections: [], highloadWallets: [], jettons: [] };
}
