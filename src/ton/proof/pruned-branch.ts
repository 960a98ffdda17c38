// Pruned-branch cells (tvm.pdf §3.1.4, exotic type 1): a stand-in for a subtree that a Merkle proof or
// update leaves out. Layout: type:uint8 (= 1) level_mask:uint8, then the hash and the depth of the
// subtree at every significant level below the pruned cell's own level.
//
// Levels: a Merkle cell (proof or update) lowers the level of what it wraps by one, so a subtree pruned
// at Merkle depth d (d Merkle cells between the proof root and it, the outermost proof included) gets a
// pruned branch of level d + 1; once wrapped by those d + 1 Merkle cells, the level is back to 0. The node
// (CellBuilder::create_pruned_branch(cell, d + 1)) gives it the subtree's own mask below level d plus
// bit d, e.g. mask 2 for a complete subtree pruned at depth 1.
//
// @ton/core 0.63.1 cannot hold a pruned branch whose mask has a gap (2, 4, 5, 6): exoticPruned reads `level`
// hashes where popcount(mask) are stored, so such a cell throws in `new Cell` and in `Cell.fromBoc`. We
// therefore fill the gap: mask 2^(d+1) - 1, with the subtree's hash and depth at every level 0..d (for a
// level below the subtree's own, that is simply its top hash again). The level-0 hash, the only one a
// verifier compares, is the same; at depth 0 (every ordinary proof) the cell is exactly the node's.
import { beginCell, type Cell, CellType } from '@ton/core';
import { ProofError } from '../../common/errors.ts';
import { significantLevels } from '../boc/index.ts';

export const MAX_MERKLE_DEPTH = 2;

export function isPrunedBranch(cell: Cell): boolean {
  return cell.type === CellType.PrunedBranch;
}

export function isMerkleCell(cell: Cell): boolean {
  return cell.type === CellType.MerkleProof || cell.type === CellType.MerkleUpdate;
}

/** Merkle depth of a cell's children: one more below a Merkle proof or update. */
export function childMerkleDepth(cell: Cell, depth: number): number {
  return isMerkleCell(cell) ? depth + 1 : depth;
}

/** The pruned branch that stands for `cell` at Merkle depth `depth` (0 = directly under the proof). */
export function createPrunedBranch(cell: Cell, depth: number): Cell {
  if (depth < 0 || depth > MAX_MERKLE_DEPTH) {
    throw new ProofError(`pruned branch: Merkle depth must be 0..${MAX_MERKLE_DEPTH}, got ${depth}`);
  }
  // Levels 0..depth: what the enclosing proofs can ask for (a complete subtree at depth d has level <= d; a
  // partial one, e.g. a proof's virtual tree, is cut down to what depth d needs).
  const mask = (1 << (depth + 1)) - 1;
  const levels = significantLevels(mask >> 1);
  const b = beginCell().storeUint(CellType.PrunedBranch, 8).storeUint(mask, 8);
  for (const l of levels) b.storeBuffer(cell.hash(l));
  for (const l of levels) b.storeUint(cell.depth(l), 16);
  return b.endCell({ exotic: true });
}
