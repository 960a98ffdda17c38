// The ledger of the governed (stablecoin-style) jettons: LedgerJetton's supply and balances, plus what the admin's
// governance left behind (wallet statuses), i.e. what get_jetton_data, get_wallet_data and get_status should show.
import type { LedgerJetton } from './ledger-core.ts';

export interface LedgerGovernedJetton extends LedgerJetton {
  governed: true;
  /** The metadata URI the minter serves as `uri` (with decimals "6") in get_jetton_data's content. */
  metadataUri: string;
  /** get_status per holder (raw address) that the admin changed; every other wallet is 0. */
  statuses: Map<string, number>;
}
