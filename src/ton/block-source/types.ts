// What a block source hands over (src/index/source's BlockSource and the node database reader, src/nodedb): a
// block's id with its file bytes and root cell, and accounts' states after a block.
import type { Cell } from '@ton/core';
import type { BlockIdExt } from '../block/index.ts';

/** A block as a source hands it over: its id, the file bytes and the parsed root cell. */
export interface FetchedBlock {
  id: BlockIdExt;
  /** The block file (a BoC); sha256(bytes) = id.fileHash. */
  bytes: Buffer;
  /** The Block root cell; its hash = id.rootHash. */
  root: Cell;
}

/**
 * One account's state after a block (the shard state of that block), as the rows need it.
 * `account` is the Account cell (account_none is a cell holding the single bit 0); `hash` is that cell's
 * hash (the transactions' account_state_hash_after of the account's last transaction in the block).
 * `complete` is false when code and data may sit in pruned branches (states read from a block's Merkle
 * update): hashes and balance are exact, code and data BoCs are then not written.
 */
export interface AccountStateAfter {
  address: Buffer;
  workchain: number;
  account: Cell;
  hash: Buffer;
  complete: boolean;
}
