// The BlockSource interface (issue 5): what the indexing processor reads from a chain. Four implementations
// live beside this file (liteserver pool, devnet store files, a TON node's on-disk database, BoC files).
// Sources return bytes and cells, never rows.
import type { AccountStateAfter, BlockIdExt, FetchedBlock } from '../../ton/index.ts';

/**
 * A unit that is not a masterchain block: a set of shard blocks indexed together under a declared
 * masterchain seqno (the file source, for real blocks whose masterchain block is not at hand).
 */
export interface DeclaredUnit {
  mcSeqno: number;
  blocks: BlockIdExt[];
}

export interface BlockSource {
  /** Short name for logs and metrics ('lite', 'devnet-store', 'files'). */
  readonly name: string;
  /** Highest masterchain seqno the source can serve now. */
  head(): Promise<number>;
  /** The masterchain block with this seqno; null when the source has no such block (yet, or at all). */
  mcBlock(seqno: number): Promise<FetchedBlock | null>;
  /** Any block by its full id. Throws IndexError TG_INDEX_NOT_READY when the source does not have it. */
  block(id: BlockIdExt): Promise<FetchedBlock>;
  /**
   * The states after block `id` of the given accounts (256-bit addresses of the block's workchain), in the
   * order asked. An empty array when the source cannot provide states for this block.
   */
  accountStates(id: BlockIdExt, addresses: readonly Buffer[]): Promise<AccountStateAfter[]>;
  /**
   * True when accountStates(id, …) reads the states from block `id`'s own state update (the new side of its
   * Merkle update) and nothing else: a decode thread that parsed the block can then read them itself.
   */
  readonly statesFromBlocks?: true;
  /** Sources without masterchain blocks declare their units here (file source); others return null. */
  declaredUnit?(mcSeqno: number): Promise<DeclaredUnit | null>;
  close(): Promise<void>;
}
