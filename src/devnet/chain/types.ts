// The collator's public types. A chain is described by its latest block and the state after it (cells, as the
// store keeps them), so a state restored from disk is as good as one just collated.
import type { Address, Cell } from '@ton/core';
import type { BlockIdExt, BlockInfo, ValueFlow } from '../../ton/index.ts';
import type { TvmRunner } from '../../tvm/index.ts';

/** The latest block of one chain (a shard, or the masterchain) and the state after it. */
export interface ChainTop {
  id: BlockIdExt;
  /** The Block root cell; null for a zero state. */
  block: Cell | null;
  /** The ShardStateUnsplit root after `block` (for a zero state: the zero state). */
  state: Cell;
}

/** A basechain shard: its latest block (or the workchain zero state) and state. */
export type ShardChainState = ChainTop;
/** The masterchain: its latest block (or the zero state) and state. */
export type McChainState = ChainTop;

/** A zero state with its file (the BoC the node writes: index, CRC, cache bits, stored hashes). */
export interface ZeroState extends ChainTop {
  block: null;
  boc: Buffer;
}

/** What the emulator needs from the TVM runner: the `TvmRunner` contract of src/tvm, narrowed. */
export type ChainTvm = Pick<TvmRunner, 'runTransaction'>;

export interface BlockTransaction {
  /** The 256-bit account id within the block's workchain. */
  account: Buffer;
  lt: bigint;
  hash: Buffer;
  cell: Cell;
}

/** An external message the block did not include, with the emulator's reason. */
export interface RejectedMessage {
  message: Cell;
  hash: Buffer;
  error: string;
  exitCode: number | null;
}

/** An internal message this block put into its OutMsgQueue (delivered by the destination's next blocks). */
export interface OutboundMessage {
  message: Cell;
  hash: Buffer;
  envelope: Cell;
  destination: Address;
  createdLt: bigint;
}

export interface ChangedAccount {
  address: Address;
  /**
   * The ShardAccount after the block, as the emulator returned it. An account_none here (a bounced message to a
   * missing address, a self-destroyed account) is not in the state: the account does not exist after the block.
   */
  shardAccount: Cell;
}

export interface CollatedBlock extends ChainTop {
  block: Cell;
  /** The block file: what getBlock serves; `id.fileHash` = sha256(boc). */
  boc: Buffer;
  /** prev_ref: the previous block (the parent shard's block right after a split) or zero state. */
  prev: BlockIdExt;
  /** master_ref of a shard block; null for masterchain blocks. */
  mcRef: BlockIdExt | null;
  info: BlockInfo;
  valueFlow: ValueFlow;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  transactions: BlockTransaction[];
  accounts: ChangedAccount[];
  rejected: RejectedMessage[];
  outbound: OutboundMessage[];
  /** External outbound messages (msg_export_ext). */
  externalOut: Cell[];
}

/** One validator signature of a masterchain block (the `liteServer.signatureSet` entry). */
export interface BlockSignature {
  /** sha256 of TL pub.ed25519 of the validator key. */
  nodeIdShort: Buffer;
  signature: Buffer;
}

export interface CollatedMcBlock extends CollatedBlock {
  keyBlock: boolean;
  signatures: BlockSignature[];
  /** The validator set hash and catchain seqno the signatures belong to. */
  validatorSetHash: number;
  catchainSeqno: number;
}

/** The validator that collates and signs: an ed25519 seed (RFC 8032) and its public key. */
export interface ValidatorKey {
  seed: Buffer;
  publicKey: Buffer;
}
