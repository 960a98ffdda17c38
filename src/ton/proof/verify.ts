// Checking Merkle proofs the way a lite client does (the node's lite-client check-proof.cpp,
// tonutils-go CheckProof): the proof cell must be a MerkleProof of level 0 whose stored hash and depth are
// those of its child (the virtual root), and that hash must be the one we already trust (a block root
// hash, or the state hash the block's state_update names). Readers then walk the returned virtual root;
// what the proof left out shows up as pruned-branch cells.
//
// Liteserver shapes (lite_api.tl): getAccountState's `proof` and `shard_proof`, getShardInfo's
// `shard_proof`: one BoC with two roots [block proof, state proof]; getConfigAll/getConfigParams: two BoCs,
// `state_proof` (block proof) and `config_proof` (state proof); getBlockHeader: one block proof.
import { type Cell, CellType } from '@ton/core';
import { ProofError } from '../../common/errors.ts';
import { parseBoc } from '../boc/index.ts';
import { loadMerkleProof, type MerkleProof } from './merkle-proof.ts';
import { loadMerkleUpdate } from './merkle-update.ts';

const BLOCK_TAG = 0x11ef55aa;

/**
 * Verifies a Merkle proof against the hash it must prove and returns its virtual root.
 * `merkleDepth` is the number of verified proofs this one sits inside (0 for a proof that arrived on its
 * own); a proof nested in another may keep pruned branches the outer proof accounts for.
 */
export function verifyMerkleProof(proof: Cell, expectedRootHash: Buffer, merkleDepth = 0): Cell {
  checkHash(expectedRootHash, 'expected root hash');
  if (proof.type !== CellType.MerkleProof) {
    throw new ProofError(`MerkleProof: expected an exotic Merkle proof cell (type 3), got ${cellKind(proof)}`);
  }
  let p: MerkleProof;
  try {
    p = loadMerkleProof(proof.beginParse(true));
  } catch (e) {
    throw new ProofError(`MerkleProof: malformed cell: ${(e as Error).message}`, { cause: e });
  }
  if (proof.level() > merkleDepth) {
    throw new ProofError(
      `MerkleProof: expected level ${merkleDepth === 0 ? '0' : `<= ${merkleDepth}`}, got ${proof.level()} (pruned branches without a proof that covers them)`,
    );
  }
  const root = p.virtualRoot;
  if (!p.virtualHash.equals(root.hash(0)) || p.depth !== root.depth(0)) {
    throw new ProofError(
      `MerkleProof: stored hash/depth ${hex(p.virtualHash)}/${p.depth} differ from the virtual root's ${hex(root.hash(0))}/${root.depth(0)}`,
    );
  }
  if (!p.virtualHash.equals(expectedRootHash)) {
    throw new ProofError(
      `MerkleProof: expected root hash ${hex(expectedRootHash)}, the proof proves ${hex(p.virtualHash)}`,
    );
  }
  return root;
}

/** Parses a one-root proof BoC and verifies it; any malformation is a ProofError. */
export function verifyMerkleProofBoc(boc: Uint8Array, expectedRootHash: Buffer): Cell {
  const roots = parseProofBoc(boc);
  if (roots.length !== 1) throw new ProofError(`MerkleProof BoC: expected 1 root, got ${roots.length}`);
  return verifyMerkleProof(roots[0] as Cell, expectedRootHash);
}

/** Verifies a proof of a Block against the block's root hash; returns the virtual Block root. */
export function verifyBlockProof(proof: Cell, blockRootHash: Buffer): Cell {
  const block = verifyMerkleProof(proof, blockRootHash);
  if (block.isExotic) throw new ProofError('Block proof: the Block root itself is pruned');
  const tag = block.bits.length >= 32 ? block.beginParse().preloadUint(32) : undefined;
  if (tag !== BLOCK_TAG) {
    throw new ProofError(
      `Block proof: expected Block tag 0x11ef55aa, got ${tag === undefined ? 'a short cell' : `0x${tag.toString(16)}`}`,
    );
  }
  return block;
}

/** The hash of the state after the block: the new hash of its state_update (block.tlb:474-477). */
export function blockStateHash(block: Cell): Buffer {
  const update = block.refs[2];
  if (!update || update.type !== CellType.MerkleUpdate) {
    throw new ProofError(
      `Block proof: expected state_update (ref 2) as a Merkle update, got ${update ? cellKind(update) : 'no ref'}; the proof must include it`,
    );
  }
  return loadMerkleUpdate(update.beginParse(true)).newHash;
}

/** Verifies a block proof, then a state proof against the state hash that block names. */
export function verifyStateProof(
  blockProof: Cell,
  stateProof: Cell,
  blockRootHash: Buffer,
): { block: Cell; state: Cell } {
  const block = verifyBlockProof(blockProof, blockRootHash);
  const state = verifyMerkleProof(stateProof, blockStateHash(block));
  return { block, state };
}

/** A liteserver proof BoC: [block proof] or [block proof, state proof], checked against the block root hash. */
export function verifyProofBoc(boc: Uint8Array, blockRootHash: Buffer): { block: Cell; state: Cell | undefined } {
  const roots = parseProofBoc(boc);
  const [blockProof, stateProof] = roots;
  if (roots.length === 1 && blockProof) return { block: verifyBlockProof(blockProof, blockRootHash), state: undefined };
  if (roots.length === 2 && blockProof && stateProof) return verifyStateProof(blockProof, stateProof, blockRootHash);
  throw new ProofError(`proof BoC: expected 1 or 2 roots (block proof, state proof), got ${roots.length}`);
}

function parseProofBoc(boc: Uint8Array): Cell[] {
  try {
    return parseBoc(boc);
  } catch (e) {
    throw new ProofError(`proof BoC: ${(e as Error).message}`, { cause: e });
  }
}

function checkHash(h: Buffer, what: string): void {
  if (h.length !== 32) throw new ProofError(`MerkleProof: ${what} must be 32 bytes, got ${h.length}`);
}

function cellKind(cell: Cell): string {
  return cell.isExotic ? `exotic cell type ${cell.type}` : 'an ordinary cell';
}

function hex(b: Buffer): string {
  return b.toString('hex');
}
