// The block proofs every answer builds on (validator/impl/liteserver.cpp): the header proof of getBlockHeader
// and the "state root proof" (block header + state_update) that ties a state proof to a block's root hash.
import type { Cell } from '@ton/core';
import { Lru } from '../../common/lru.ts';
import { type BlockIdExt, buildMerkleProof, trackCellUsage } from '../../ton/index.ts';
import {
  blockParts,
  readBlockExtra,
  readBlockInfo,
  readMcBlockExtra,
  stateUpdateNewHash,
  visitAll,
} from './chain-read.ts';
import { formatBlockId } from './ids.ts';
import { badRequest } from './lite-errors.ts';

/** getBlockHeader's proof: BlockInfo (+ state_update, value_flow, extra, shard_hashes, signatures per mode). */
export function blockHeaderProof(root: Cell, id: BlockIdExt, mode: number): Cell {
  const what = `block ${formatBlockId(id)}`;
  const usage = trackCellUsage(root);
  const parts = blockParts(usage.root, what);
  readBlockInfo(parts, what);
  if (mode & 1) stateUpdateNewHash(parts, what);
  if (mode & 2) visitAll(parts.valueFlow, `${what} value_flow`);
  if (mode & 16) {
    const extra = readBlockExtra(parts, what);
    if (id.workchain === -1) {
      if (!extra.custom) throw badRequest(`cannot unpack McBlockExtra in block ${formatBlockId(id)}`);
      const mc = readMcBlockExtra(extra.custom, what);
      if (mode & 32 && mc.shardHashes) visitAll(mc.shardHashes, `${what} shard_hashes`);
      if (mode & 64) {
        const sigs = mc.r1.beginParse();
        if (sigs.loadBit()) visitAll(sigs.loadRef(), `${what} prev_blk_signatures`);
      }
    }
  }
  return buildMerkleProof(root, usage.visited);
}

/**
 * make_state_root_proof: a proof of the block's header, prev_ref and state_update, after checking that the
 * update's new hash is `stateHash` (when the state is at hand).
 */
export function stateRootProof(root: Cell, id: BlockIdExt, stateHash: Buffer | null): Cell {
  const what = `block ${formatBlockId(id)}`;
  // A block's proof is the same for every query about it (blocks are immutable, keyed by their root hash): made
  // once, it no longer costs every getAccountState and runSmcMethod (a sixth of the server's time for each).
  const key = root.hash().toString('latin1');
  let made = stateRootProofs.get(key);
  if (!made) {
    const usage = trackCellUsage(root);
    const parts = blockParts(usage.root, what);
    readBlockInfo(parts, what);
    const newHash = stateUpdateNewHash(parts, what);
    made = { proof: buildMerkleProof(root, usage.visited), newHash };
    stateRootProofs.set(key, made);
  }
  if (stateHash && !made.newHash.equals(stateHash)) {
    throw badRequest(`cannot construct Merkle proof for the state of ${what} because of hash mismatch`);
  }
  return made.proof;
}

/** The recent blocks' state root proofs, by root hash (a few hundred bytes each). */
const stateRootProofs = new Lru<string, { proof: Cell; newHash: Buffer }>(256);

/** The header proof of a block id step (root + BlockInfo), as the node's check_block_header reads. */
export function headerOnlyProof(root: Cell, id: BlockIdExt): Cell {
  const what = `block ${formatBlockId(id)}`;
  const usage = trackCellUsage(root);
  readBlockInfo(blockParts(usage.root, what), what);
  return buildMerkleProof(root, usage.visited);
}
