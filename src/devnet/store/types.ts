// The devnet store's public types: plain data in (ids, cells, BoC bytes), plain data out. The collator's own
// types stay out of here; the node adapts its output to StepInput.
import type { Address, Cell } from '@ton/core';
import type { BlockIdExt } from '../../ton/index.ts';

/** One stored block (or zero state) with the header facts lookups and the walker need. */
export interface StoredBlock {
  id: BlockIdExt;
  startLt: bigint;
  endLt: bigint;
  genUtime: number;
  /** The masterchain block that committed it (a masterchain block: its own seqno; a zero state: 0). */
  mcSeqno: number;
  keyBlock: boolean;
  /** True for a zero state (seqno 0): a state file, not a block; its lts are the state's gen_lt. */
  zeroState: boolean;
}

/** A manifest / head entry: a stored block plus its file, relative to the store's `files/` folder. */
export interface FileEntry extends StoredBlock {
  file: string;
}

/** What one masterchain seqno committed (manifest `<mcSeqno>.json`; for seqno 0, the zero states). */
export interface StepManifest {
  mcSeqno: number;
  mcBlock: FileEntry;
  /** The shard blocks this masterchain block commits, in commit order (zero states of other chains at 0). */
  shardBlocks: FileEntry[];
  /** After this step: the top block of every shard. */
  shardTops: FileEntry[];
}

export interface DevnetHead extends StepManifest {
  /** The last key block (the masterchain zero state until the first key block): `init_block` of a global config. */
  lastKeyBlock: BlockIdExt;
}

/** An account's latest version as of the head, with the block (or zero state) whose state holds it. */
export interface AccountInput {
  address: Address;
  /** `ShardAccount` as a cell: ^Account, last_trans_hash, last_trans_lt (what the emulator returns). */
  shardAccount: Cell;
}

export interface StepBlockInput {
  /** The block file exactly as getBlock serves it; file_hash = sha256(boc), root_hash = hash of its root. */
  boc: Buffer;
  /** The shard state after the block; its level-0 hash must equal the block's state_update new hash. */
  state: Cell;
  /** Accounts this block changed, at their new versions. */
  accounts?: readonly AccountInput[];
}

export interface StepInput {
  mcBlock: StepBlockInput;
  /** Shard blocks this masterchain block commits (several of one shard are fine; applied in seqno order). */
  shardBlocks: readonly StepBlockInput[];
  /** External messages (queue ids) this step consumed: removed in the same batch as the step. */
  ackExternals?: readonly bigint[];
}

export interface ZeroStateInput {
  /** The zero-state file (a ShardStateUnsplit BoC, seq_no 0); its sha256 is the zero state's file hash. */
  boc: Buffer;
  accounts?: readonly AccountInput[];
}

/** Everything the node needs to re-derive its genesis; keys are derived from the seed, never stored. */
export interface DevnetMetaInput {
  seed: string;
  globalId: number;
  /** The fixed basechain split (shard ids), as genesis `shardLayout(n)` returned it. */
  shardLayout: readonly bigint[];
  genesisUtime: number;
  /** Free-form facts the node wants back (software version, options); JSON-safe values only. */
  extra?: Record<string, string | number | boolean>;
}

export interface DevnetMeta extends DevnetMetaInput {
  /** The masterchain zero state id: `zero_state` of the published global config. */
  mcZeroState: BlockIdExt;
  /** Zero states of the other workchains. */
  wcZeroStates: BlockIdExt[];
}

export interface GenesisInput {
  meta: DevnetMetaInput;
  mcZeroState: ZeroStateInput;
  wcZeroStates: readonly ZeroStateInput[];
}

export interface StoredAccount {
  address: Address;
  shardAccount: Cell;
  /** shardAccount.refs[0]. */
  account: Cell;
  lastTransLt: bigint;
  lastTransHash: Buffer;
  /** The block (or zero state) whose state holds this version. */
  block: BlockIdExt;
}

export interface TransactionLocation {
  account: Address;
  lt: bigint;
  hash: Buffer;
  block: BlockIdExt;
}

export interface StoredTransaction extends TransactionLocation {
  cell: Cell;
}

export interface MessageTransaction extends TransactionLocation {
  /** 'in': the transaction received the message; 'out': it sent it. */
  direction: 'in' | 'out';
  /** True when matched through the normalized hash of an external-in message (TEP-467), not the cell hash. */
  normalized: boolean;
}

export interface QueuedExternal {
  id: bigint;
  boc: Buffer;
}

export interface DevnetStoreOptions {
  /** fsync files and LevelDB writes (default true). Off only where losing power is acceptable (tests). */
  sync?: boolean;
  /**
   * Decoded cells kept in the LRU read cache (default 100 000). A cached cell keeps its subtree alive, so
   * memory follows the states read or written recently rather than this count alone.
   */
  cellCacheSize?: number;
  /** Hashes of stored cells remembered to skip existence checks when writing (default 250 000). */
  knownCellsSize?: number;
  /**
   * Fault injection for crash tests: called when a commit has written its files ('files-written': the
   * database batch is next) and when the batch is durable ('batch-written': head.json is next).
   */
  onCommitPhase?: (phase: 'files-written' | 'batch-written') => void;
}

export interface DevnetStore {
  readonly dir: string;
  /** Writes the zero states and meta: the first write of a new store. */
  commitGenesis(g: GenesisInput): Promise<DevnetHead>;
  /** Commits one step atomically; returns the new head. */
  commitStep(step: StepInput): Promise<DevnetHead>;
  head(): DevnetHead | null;
  meta(): Promise<DevnetMeta | null>;
  manifest(mcSeqno: number): Promise<StepManifest | null>;
  mcShardBlocks(mcSeqno: number): Promise<BlockIdExt[] | null>;
  /** The block if stored with exactly these hashes. */
  blockById(id: BlockIdExt): Promise<StoredBlock | null>;
  /** Lookups take a shard or account prefix, as liteServer.lookupBlock does (see LAYOUT.md §Lookups). */
  blockIdBySeqno(workchain: number, shard: bigint, seqno: number): Promise<BlockIdExt | null>;
  blockBySeqno(workchain: number, shard: bigint, seqno: number): Promise<StoredBlock | null>;
  blockByLt(workchain: number, shard: bigint, lt: bigint): Promise<StoredBlock | null>;
  blockByUtime(workchain: number, shard: bigint, utime: number): Promise<StoredBlock | null>;
  /** Block file bytes (null for unknown ids and for zero states: use zeroStateFile). */
  blockFile(id: BlockIdExt): Promise<Buffer | null>;
  zeroStateFile(id: BlockIdExt): Promise<Buffer | null>;
  /** The shard state after the block (or the zero state), loaded from the cell store. */
  stateRoot(id: BlockIdExt): Promise<Cell | null>;
  loadCell(hash: Buffer): Promise<Cell | null>;
  account(address: Address): Promise<StoredAccount | null>;
  /** Newest first, lt <= fromLt (default: newest), at most `limit` (default 16). */
  accountTransactions(address: Address, fromLt?: bigint, limit?: number): Promise<StoredTransaction[]>;
  transactionLocation(address: Address, lt: bigint): Promise<TransactionLocation | null>;
  transaction(address: Address, lt: bigint): Promise<StoredTransaction | null>;
  messageTransactions(hash: Buffer): Promise<MessageTransaction[]>;
  /** Durably queues an accepted external message; returns its queue id. */
  enqueueExternal(boc: Buffer): Promise<bigint>;
  /** Queued messages not yet handed out by this process, oldest first (all of them again after a restart). */
  takeExternals(limit?: number): Promise<QueuedExternal[]>;
  /** Drops messages from the queue (rejected ones; consumed ones go through StepInput.ackExternals). */
  ackExternals(ids: readonly bigint[]): Promise<void>;
  /** Rows in the cell store (tests and diagnostics). */
  countCells(): Promise<number>;
  close(): Promise<void>;
}
