// What a node knows, as the liteserver dispatcher asks for it. The dispatcher turns these cells into the
// answers and proofs of lite_api.tl (validator/impl/liteserver.cpp); the view only stores and finds them.
//
// Two kinds of implementer are expected: the devnet node (full blocks and full states for every block it
// produced) and nodes with partial knowledge (proofs only, garbage-collected states, a few blocks). Every
// cell a view returns may therefore be the virtual root of a Merkle proof: subtrees it does not know are
// pruned branches. The dispatcher reads through them and answers 651 ("not in db") when a query needs a
// pruned part, exactly as a node answers for data it does not hold.
import type { Cell } from '@ton/core';
import type { BlockIdExt } from '../../ton/index.ts';

/** The zero state of the masterchain (tonNode.zeroStateIdExt). */
export interface ZeroStateIdExt {
  workchain: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface MasterchainInfo {
  /** The newest masterchain block the node serves queries from. */
  last: BlockIdExt;
  /** Hash of the masterchain state after `last` (the new hash of its state_update). */
  stateRootHash: Buffer;
  /** The network's masterchain zero state (what clients pin in their global config). */
  init: ZeroStateIdExt;
  /** gen_utime of `last`. */
  lastUtime: number;
}

export interface BlockRecord {
  /** The block's id as the node knows it (echoed in answers). */
  id: BlockIdExt;
  /** The Block root cell; a partially known block is a virtual tree with pruned branches. */
  root: Cell;
  /** The block file (BoC) when the node holds it; getBlock needs it. */
  data: Buffer | null;
}

/**
 * lookupBlock's three modes, on the shard chain that contains the account prefix `prefix` (for the
 * masterchain 0x8000000000000000n). Semantics are the node's archive index (validator/db/archive-slice.cpp):
 * by seqno exactly; by lt the first block with end_lt >= lt; by utime the first block with gen_utime >= utime.
 */
export type BlockLookup =
  | { workchain: number; prefix: bigint; seqno: number }
  | { workchain: number; prefix: bigint; lt: bigint }
  | { workchain: number; prefix: bigint; utime: number };

/** A validator's signature of a block (over TL `ton.blockId root_cell_hash file_hash`). */
export interface BlockSignature {
  /** sha256 of the validator's TL pub.ed25519 key. */
  nodeIdShort: Buffer;
  signature: Buffer;
}

/** The signatures that accompany a masterchain block (BlockSignatures of its proof). */
export interface BlockSignatureSet {
  validatorSetHash: number;
  catchainSeqno: number;
  signatures: BlockSignature[];
}

export interface RunGetMethodArgs {
  workchain: number;
  /** The account's 256-bit address. */
  address: Buffer;
  /** The Account cell (account$1 …, active: code and data are in its StateInit). */
  account: Cell;
  /** The 64-bit method id (crc16(name) | 0x10000 for named methods). */
  methodId: bigint;
  /** The parameters as a VmStack cell (the client's `params` BoC), or null for an empty stack. */
  stack: Cell | null;
  /** The shard block whose state holds the account, and the masterchain block the query refers to. */
  block: BlockIdExt;
  mcBlock: BlockIdExt;
  /** gen_utime / gen_lt of the account's shard state: the c7 unixtime and block/trans lt the node uses. */
  genUtime: number;
  genLt: bigint;
  /** The client asked for the initial c7 (runSmcMethod mode bit 3). */
  wantC7: boolean;
}

export interface RunGetMethodResult {
  /** TVM exit code (0 or 1 on success). */
  exitCode: number;
  /** The resulting stack as a VmStack cell. */
  stack: Cell;
  /** The c7 the VM ran with, serialized as a VmStack entry, when `wantC7` was set. */
  c7?: Cell;
}

/** Shard blocks that are signed or proposed but not yet committed to the masterchain. */
export interface PendingShardBlocks {
  signedBlocks: BlockIdExt[];
  candidates: BlockIdExt[];
}

export interface LiteVersion {
  version: number;
  capabilities: bigint;
}

export interface ChainView {
  /** The newest masterchain block, its state hash, the zero state. Throws LiteServerError when there is none. */
  masterchainInfo(): Promise<MasterchainInfo>;
  /**
   * Resolves once a masterchain block with this seqno (or newer) is known; rejects when `signal` aborts
   * (the dispatcher aborts it at its deadline). Must not keep the process alive after the abort.
   */
  waitMasterchainSeqno(seqno: number, signal: AbortSignal): Promise<void>;
  /** Unix time in seconds (getTime, getVersion). */
  now(): number;
  /** Advertised in getVersion / getMasterchainInfoExt; defaults to version 0x101, capabilities 7. */
  version?(): LiteVersion;

  /** The block with exactly this id (root hash and file hash), or null when the node does not hold it. */
  block(id: BlockIdExt): Promise<BlockRecord | null>;
  /** Finds a block by seqno, lt or utime (see BlockLookup); null when not found. */
  lookupBlock(q: BlockLookup): Promise<BlockIdExt | null>;
  /**
   * The shard state after block `id` (its root hash equals the new hash of the block's state_update), possibly a
   * virtual tree with pruned branches; null when the node has no part of it.
   */
  shardState(id: BlockIdExt): Promise<Cell | null>;
  /** The zero state file (BoC) for getState of a seqno-0 block; optional. */
  zeroState?(id: BlockIdExt): Promise<Buffer | null>;
  /**
   * The seqno of the first masterchain block that committed this shard block (a masterchain block: its own
   * seqno); needed by getShardBlockProof and lookupBlockWithProof. Optional: without it those answer 651.
   */
  masterchainRefSeqno?(id: BlockIdExt): Promise<number | null>;
  /** The validator signatures of a masterchain block (forward links of getBlockProof); optional. */
  blockSignatures?(id: BlockIdExt): Promise<BlockSignatureSet | null>;

  /** Runs a get-method on an active account. The TVM is the implementer's business. Optional. */
  runGetMethod?(args: RunGetMethodArgs): Promise<RunGetMethodResult>;
  /** Accepts an external message, or throws LiteServerError with the node's reason. Optional. */
  sendMessage?(boc: Buffer): Promise<void>;
  /** Size of the outbound message queue after a block; optional (else read from the state's out_queue_size). */
  outMsgQueueSize?(id: BlockIdExt): Promise<number | null>;
  /** Shard blocks not yet in the masterchain (nonfinal.getPendingShardBlocks); optional (default: none). */
  pendingShardBlocks?(): Promise<PendingShardBlocks>;
}

export const MASTERCHAIN = -1;
export const SHARD_ALL = 0x8000000000000000n;
