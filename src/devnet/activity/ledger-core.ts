// The ledger of the core traffic: our Tolk jetton and NFT collections, what their getters should show after the
// activity's own successful steps. The families' ledgers (ledger-<family>.ts) build on these.
import type { Address } from '@ton/core';

export interface LedgerJetton {
  step: number;
  master: Address;
  admin: Address;
  /** Minted minus burned, by the activity's own successful steps. */
  totalSupply: bigint;
  /** Expected balance per owner (raw address), by the activity's own successful steps. */
  balances: Map<string, bigint>;
}

export interface LedgerNftItem {
  index: bigint;
  address: Address;
  owner: Address;
}

export interface LedgerCollection {
  step: number;
  address: Address;
  owner: Address;
  nextItemIndex: bigint;
  items: LedgerNftItem[];
}
