export {
  buildMerkleProof,
  createMerkleProof,
  type KeepCells,
  loadMerkleProof,
  type MerkleProof,
  proveCells,
  proveReads,
  pruneTree,
  storeMerkleProof,
} from './merkle-proof.ts';
export {
  buildMerkleUpdate,
  createMerkleUpdate,
  loadMerkleUpdate,
  type MerkleUpdate,
  storeMerkleUpdate,
  verifyMerkleUpdate,
} from './merkle-update.ts';
export { childMerkleDepth, createPrunedBranch, isMerkleCell, isPrunedBranch } from './pruned-branch.ts';
export { type CellUsage, trackCellUsage } from './usage-tracker.ts';
export {
  blockStateHash,
  verifyBlockProof,
  verifyMerkleProof,
  verifyMerkleProofBoc,
  verifyProofBoc,
  verifyStateProof,
} from './verify.ts';
