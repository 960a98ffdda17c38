// The devnet node's public surface: its options, what it reports, and the events it publishes per step.

import type { Log } from '../../common/logger.ts';
import type { ChainView } from '../../lite/index.ts';
import type { BlockIdExt } from '../../ton/index.ts';

export interface DevnetNodeOptions {
  /** The data folder; the node keeps everything under `<dataDir>/devnet/`. */
  dataDir: string;
  /**
   * Basechain shards of a new devnet (1..16, the fixed split). Default 2. An existing devnet keeps the layout it
   * was created with; asking for a different one is an error.
   */
  shards?: number;
  /** Milliseconds between steps; 0 = a step as soon as external messages wait (or the chain has work), else idle. */
  blockIntervalMs?: number;
  /**
   * How long a step's shard blocks are visible (lookupBlock by seqno, getBlock, getBlockHeader, their states)
   * before the masterchain block that commits them, as a network's shard blocks are signed and seen before the
   * masterchain takes them: what `confirmed` finality in streaming is built from. Default: a quarter of
   * blockIntervalMs (0 with blockIntervalMs 0: on-demand steps commit at once).
   */
  shardLeadMs?: number;
  /** Liteserver TCP port; 0 picks a free one. Default 4924. */
  litePort?: number;
  /** HTTP port for /global.config.json and /healthz; 0 picks a free one. Default litePort + 1 (0 when litePort is 0). */
  httpPort?: number;
  /** Listen address (an IPv4 literal; 0.0.0.0 is published as 127.0.0.1 in the global config). Default 127.0.0.1. */
  host?: string;
  /** Genesis seed: keys, wallets and the reserve derive from it. Default 'tongate'. An existing devnet must match. */
  seed?: string;
  log?: Log;
  /** Genesis wallets per version (v3r2, v4r2, v5r1). Default 1. Only used when the devnet is created. */
  walletsPerVersion?: number;
  /**
   * User wallets per version (v4r2, v5r1; wallets.json role "user", never used by the activity). Default 0 (embedders
   * and tests keep the three genesis wallets); `tongate devnet` and `tongate up` ask for
   * DEVNET_USER_WALLETS_PER_VERSION (2). Only used when the devnet is created.
   */
  userWalletsPerVersion?: number;
  /** Genesis time of a new devnet (unix seconds). Default: now. */
  genesisUtime?: number;
  /** Wall clock in milliseconds (tests). Default Date.now. */
  clock?: () => number;
  /** TVM worker threads (0 = in this thread, tests only). Default 1. */
  tvmThreads?: number;
  /** fsync the store's writes. Default true; tests may turn it off. */
  sync?: boolean;
  /** Most external messages one step takes. Default 1024. */
  maxExternalsPerStep?: number;
  /** A summary log line every this many masterchain blocks. Default 100. */
  logEvery?: number;
}

/** What one published step added. */
export interface DevnetBlockEvent {
  mcSeqno: number;
  mcBlock: BlockIdExt;
  shardBlocks: BlockIdExt[];
  /** Transactions in this step's blocks (shard blocks and the masterchain block). */
  transactions: number;
  /** External messages the step's blocks refused (their emulation failed at collation time). */
  rejectedExternals: number;
  genUtime: number;
  /** Main-thread-inclusive wall time of collation and of the store commit (ms). */
  collateMs: number;
  commitMs: number;
}

export interface DevnetStepStats {
  steps: number;
  transactions: number;
  /** Averages over the steps of this process. */
  avgCollateMs: number;
  avgCommitMs: number;
  maxCollateMs: number;
  maxCommitMs: number;
  /** Event-loop busy time per step (collation and commit work on the main thread, plus whatever ran meanwhile). */
  avgMainThreadMs: number;
  failures: number;
}

export interface DevnetInfo {
  dataDir: string;
  /** `<dataDir>/devnet`: the store, wallets.json, global.config.json. */
  devnetDir: string;
  host: string;
  litePort: number;
  httpPort: number;
  /** The liteserver's ed25519 public key (global config `id.key`). */
  liteServerPublicKey: Buffer;
  seed: string;
  /** The network's global id (-217): Block.global_id, ConfigParam 19, v5r1 wallet ids. */
  globalId: number;
  /** The devnet's `.ton`-style DNS collection, raw: the DNS root to index it with. */
  dnsRoot: string;
  /** How many wallets of wallets.json are user wallets (role "user"). */
  userWallets: number;
  shardLayout: bigint[];
  zeroState: BlockIdExt;
  /** The newest published masterchain block (the zero state before the first step). */
  head: BlockIdExt;
  headUtime: number;
  shardTops: BlockIdExt[];
  externalsWaiting: number;
  walletsFile: string;
  globalConfigFile: string;
  stats: DevnetStepStats;
}

export interface DevnetNode {
  /** Opens (or creates) the devnet, starts the liteserver, the HTTP endpoint and block production. */
  start(): Promise<DevnetInfo>;
  /** Finishes the step in progress, then closes the liteserver, HTTP endpoint, TVM threads and the store. */
  stop(): Promise<void>;
  /** What the liteserver answers from (also usable in-process). Valid between start() and stop(). */
  readonly chainView: ChainView;
  info(): DevnetInfo;
  /** Called after each step is committed and published; returns an unsubscribe function. */
  onBlock(listener: (e: DevnetBlockEvent) => void): () => void;
  /** Resolves once masterchain block `seqno` is published (rejects on stop or abort). */
  waitMasterchainSeqno(seqno: number, signal?: AbortSignal): Promise<void>;
}
