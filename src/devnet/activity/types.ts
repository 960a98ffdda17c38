// The activity's public surface: options, the handle, its counters, and the ledger of what it did.
import type { Address } from '@ton/core';
import type { Log } from '../../common/logger.ts';
import type { GlobalConfig, LiteMethods } from '../../lite/index.ts';
import type { ActivityChain } from './chain.ts';
import type { LedgerCollection, LedgerJetton } from './ledger-core.ts';
import type { LedgerDns } from './ledger-dns.ts';
import type { LedgerGovernedJetton } from './ledger-governed.ts';
import type { LedgerMultisig } from './ledger-multisig.ts';
import type { LedgerStandard } from './ledger-standard.ts';
import type { ActivityWalletEntry } from './wallets.ts';

export type ActivityStepKind =
  | 'transfer'
  | 'bounce'
  | 'failed-compute'
  | 'jetton-deploy'
  | 'jetton-mint'
  | 'jetton-transfer'
  | 'jetton-burn'
  | 'nft-deploy'
  | 'nft-mint'
  | 'nft-transfer'
  | 'vesting-deploy'
  | 'vesting-whitelist'
  | 'vesting-send'
  | 'std-nft-deploy'
  | 'std-nft-transfer'
  | 'nft-sale-list'
  | 'nft-sale-buy'
  | 'std-jetton-deploy'
  | 'std-jetton-transfer'
  | 'std-jetton-burn'
  | 'highload-deploy'
  | 'highload-send'
  | 'multisig-deploy'
  | 'multisig-order'
  | 'multisig-approve'
  | 'dns-register'
  | 'dns-set-wallet'
  | 'dns-delete'
  | 'dns-transfer'
  | 'governed-deploy'
  | 'governed-mint'
  | 'governed-force-transfer';

/**
 * The core traffic (wallets, our Tolk jetton and NFT): deploys come before they are used, so the first ten steps
 * already show every kind of it.
 */
export const CORE_CYCLE: readonly ActivityStepKind[] = [
  'transfer',
  'jetton-deploy',
  'jetton-transfer',
  'nft-deploy',
  'nft-transfer',
  'bounce',
  'failed-compute',
  'jetton-burn',
  'jetton-mint',
  'nft-mint',
];

/**
 * The contract families of issue 9 (multisig v2, DNS, governed jetton, vesting, standard codes), each deploy first,
 * and a GetGems sale of a standard NFT item (issue 19), listed after the standard collection exists, bought next.
 */
export const CONTRACTS_CYCLE: readonly ActivityStepKind[] = [
  'vesting-deploy',
  'vesting-whitelist',
  'vesting-send',
  'std-nft-deploy',
  'std-nft-transfer',
  'nft-sale-list',
  'nft-sale-buy',
  'std-jetton-deploy',
  'std-jetton-transfer',
  'std-jetton-burn',
  'highload-deploy',
  'highload-send',
  'multisig-deploy',
  'multisig-order',
  'multisig-approve',
  'dns-register',
  'dns-set-wallet',
  'dns-delete',
  'dns-transfer',
  'governed-deploy',
  'governed-mint',
  'governed-force-transfer',
];

/** Step i runs cycle[i % length]; by default this one, which covers every kind. */
export const ACTIVITY_CYCLE: readonly ActivityStepKind[] = [...CORE_CYCLE, ...CONTRACTS_CYCLE];

export interface ActivityOptions {
  /** An open liteserver pool (or pinned client); the activity does not close it. */
  pool?: LiteMethods;
  /** A TON global config (path, http(s) URL or parsed); the activity opens a pool on it and closes it at the end. */
  liteConfig?: string | GlobalConfig;
  /** Any other chain client (tests); takes precedence over `pool` and `liteConfig`. */
  chain?: ActivityChain;
  /** The node's wallets.json: its path, or its parsed entries. */
  wallets: string | readonly ActivityWalletEntry[];
  /** Every choice (wallets, amounts, fresh addresses, contract contents) derives from it. Default 'tongate'. */
  seed?: string;
  log?: Log;
  /** Stops the loop (after aborting the step in progress). */
  signal?: AbortSignal;
  /** Pause between steps; default 1000 ms. */
  intervalMs?: number;
  /** The kinds to cycle through; default ACTIVITY_CYCLE (tests that need only the core traffic pass CORE_CYCLE). */
  cycle?: readonly ActivityStepKind[];
  /** Stop after this many steps; default: run until stopped. */
  steps?: number;
  /** Longest wait for one step's effects; default 60 s. */
  stepTimeoutMs?: number;
  /** Polling period while waiting for effects; default 250 ms. */
  pollMs?: number;
  /** Network global id (v5r1 wallet ids); default -217, the devnet's. */
  globalId?: number;
}

export interface ActivityKindCounters {
  ok: number;
  failed: number;
  skipped: number;
}

export interface ActivityCounters {
  steps: number;
  ok: number;
  failed: number;
  /** Steps that had nothing to act on (e.g. no jetton deployed yet because its deploy failed). */
  skipped: number;
  byKind: Record<ActivityStepKind, ActivityKindCounters>;
  lastFailure: { step: number; kind: ActivityStepKind; reason: string } | null;
}

/** What the activity did and what the chain should therefore show (for demos and end-to-end checks). */
export interface ActivityLedger {
  transfers: Array<{ step: number; from: Address; to: Address; value: bigint; comment: string }>;
  bounces: Array<{ step: number; from: Address; to: Address }>;
  failedComputes: Array<{ step: number; from: Address; to: Address; exitCode: number }>;
  jettons: LedgerJetton[];
  collections: LedgerCollection[];
  /** Vesting wallets, tonweb's NFT collection and highload wallets v3 (ledger-standard.ts). */
  standard: LedgerStandard;
  /** Multisig v2 wallets and their orders (ledger-multisig.ts). */
  multisigs: LedgerMultisig[];
  /** The devnet's .ton-style DNS zone and the names registered in it (ledger-dns.ts). */
  dns: LedgerDns;
  /** Governed (stablecoin-style) jettons (ledger-governed.ts). */
  governedJettons: LedgerGovernedJetton[];
}

export interface ActivityHandle {
  /** A snapshot of the counters. */
  readonly counters: ActivityCounters;
  ledger(): ActivityLedger;
  /** Resolves when the loop ends (steps done, stopped or aborted), with the final counters. */
  readonly done: Promise<ActivityCounters>;
  /** Aborts the step in progress, ends the loop, closes the pool it opened; resolves with the final counters. */
  stop(): Promise<ActivityCounters>;
}
