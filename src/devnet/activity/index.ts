// Devnet activity: realistic traffic (transfers, a bounce, a refused message, a jetton and an NFT collection with
// their life cycles) generated as a liteserver client with the node's funded wallets. The node wires
// `--activity` to startActivity; `tongate devnet activity` runs it against any devnet.
export { startActivity } from './activity.ts';
export type { AccountSnapshot, AccountStatus, ActivityChain, GetterResult } from './chain.ts';
export type { LedgerCollection, LedgerJetton, LedgerNftItem } from './ledger-core.ts';
export { devnetDnsRoots, type LedgerDns, type LedgerDnsDomain, type LedgerDnsRecords } from './ledger-dns.ts';
export type { LedgerGovernedJetton } from './ledger-governed.ts';
export type {
  LedgerHighload,
  LedgerNftSale,
  LedgerNftSaleBuy,
  LedgerStandard,
  LedgerVesting,
} from './ledger-standard.ts';
export {
  ACTIVITY_CYCLE,
  type ActivityCounters,
  type ActivityHandle,
  type ActivityKindCounters,
  type ActivityLedger,
  type ActivityOptions,
  type ActivityStepKind,
  CONTRACTS_CYCLE,
  CORE_CYCLE,
} from './types.ts';
export { type ActivityWalletEntry, type ActivityWalletVersion, parseWalletsFile } from './wallets.ts';
