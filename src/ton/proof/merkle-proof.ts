// block.tlb:306
//   !merkle_proof#03 {X:Type} virtual_hash:bits256 depth:uint16 virtual_root:^X = MERKLE_PROOF X;
// An exotic cell (type 3) whose one child is the proven tree with every subtree a reader did not need
// replaced by a pruned branch; virtual_hash/depth are the level-0 hash/depth of that child, i.e. of the
// original tree. The builder follows the node's MerkleProof::generate: keep the kept cells, prune every
// other child that has references, and keep reference-less children as they are (the node's
// create_pruned_branch returns such a cell itself rather than a pruned branch).
import { type Builder, beginCell, Cell, CellType, type Slice } from '@ton/core';
import { CodecError, ProofError } from '../../common/errors.ts';
import { childMerkleDepth, createPrunedBranch } from './pruned-branch.ts';
import { trackCellUsage } from './usage-tracker.ts';

export type MerkleProof = {
  virtualHash: Buffer;
  depth: number;
  virtualRoot: Cell;
};

/** Reads a Merkle proof from `proofCell.beginParse(true)`. */
export function loadMerkleProof(slice: Slice): MerkleProof {
  const tag = slice.loadUint(8);
  if (tag !== CellType.MerkleProof) throw new CodecError(`MERKLE_PROOF: expected tag 0x03, got 0x${hex2(tag)}`);
  const virtualHash = slice.loadBuffer(32);
  const depth = slice.loadUint(16);
  const virtualRoot = slice.loadRef();
  if (slice.remainingBits !== 0 || slice.remainingRefs !== 0) {
    throw new CodecError(
      `MERKLE_PROOF: expected end of cell, got ${slice.remainingBits} bits and ${slice.remainingRefs} refs`,
    );
  }
  return { virtualHash, depth, virtualRoot };
}

/** Writes the proof fields; the builder must be finished with `endCell({ exotic: true })`. */
export function storeMerkleProof(value: MerkleProof): (b: Builder) => void {
  return (b) => {
    b.storeUint(CellType.MerkleProof, 8)
      .storeBuffer(value.virtualHash)
      .storeUint(value.depth, 16)
      .storeRef(value.virtualRoot);
  };
}

/** Wraps a (pruned) tree into a Merkle proof cell; the tree must hide no pruned branch above level 1. */
export function createMerkleProof(virtualRoot: Cell): Cell {
  const proof = beginCell()
    .store(storeMerkleProof({ virtualHash: virtualRoot.hash(0), depth: virtualRoot.depth(0), virtualRoot }))
    .endCell({ exotic: true });
  if (proof.level() !== 0) {
    throw new ProofError(
      `MerkleProof: expected level 0, got ${proof.level()} (the tree holds pruned branches it cannot prove)`,
    );
  }
  return proof;
}

/** Which cells to keep: a set of visited cells (matched by hash) or a predicate. */
export type KeepCells = ReadonlySet<Cell> | ((cell: Cell) => boolean);

/**
 * Copies `root` keeping the cells `keep` selects (the root always) and pruning every other subtree that has
 * references. This is the virtual tree a proof carries; `buildMerkleProof` wraps it.
 */
export function pruneTree(root: Cell, keep: KeepCells): Cell {
  const isKept = keepPredicate(keep);
  const memo = new Map<string, Cell>();
  const copy = (cell: Cell, depth: number): Cell => {
    const key = `${depth}:${cell.hash().toString('latin1')}`;
    const done = memo.get(key);
    if (done) return done;
    const childDepth = childMerkleDepth(cell, depth);
    let changed = false;
    const refs = cell.refs.map((child) => {
      const next = isKept(child) ? copy(child, childDepth) : prune(child, childDepth);
      if (next !== child) changed = true;
      return next;
    });
    // Untouched subtrees are reused as they are: no rehashing of what did not change.
    const out = changed ? new_(cell, refs) : cell;
    memo.set(key, out);
    return out;
  };
  const prune = (cell: Cell, depth: number): Cell => {
    if (cell.refs.length === 0) return cell;
    const key = `p${depth}:${cell.hash().toString('latin1')}`;
    let out = memo.get(key);
    if (!out) {
      out = createPrunedBranch(cell, depth);
      memo.set(key, out);
    }
    return out;
  };
  return copy(root, 0);
}

/** A Merkle proof of `root` that reveals the kept cells (see pruneTree). */
export function buildMerkleProof(root: Cell, keep: KeepCells): Cell {
  return createMerkleProof(pruneTree(root, keep));
}

/**
 * A Merkle proof that reveals the cells on the given paths (each a list of ref indices from the root; every
 * cell along a path is kept), or the cells a predicate keeps. The predicate sees each cell reachable through
 * kept cells once and decides whether to keep (open) it.
 */
export function proveCells(root: Cell, select: readonly (readonly number[])[] | ((cell: Cell) => boolean)): Cell {
  if (typeof select === 'function') return buildMerkleProof(root, select);
  const kept = new Set<Cell>([root]);
  for (const path of select) {
    let cell = root;
    path.forEach((i, step) => {
      const next = cell.refs[i];
      if (!next) {
        throw new ProofError(
          `proveCells: path [${path.join(',')}] leaves the tree at step ${step}: ref ${i} of a cell with ${cell.refs.length} refs`,
        );
      }
      cell = next;
      kept.add(cell);
    });
  }
  return buildMerkleProof(root, kept);
}

/** Runs `read` on a tracked view of `root` and proves exactly what it read. */
export function proveReads<T>(root: Cell, read: (root: Cell) => T): { proof: Cell; value: T } {
  const usage = trackCellUsage(root);
  const value = read(usage.root);
  return { proof: buildMerkleProof(root, usage.visited), value };
}

function keepPredicate(keep: KeepCells): (cell: Cell) => boolean {
  if (typeof keep === 'function') return keep;
  // By hash, as the node does: identical subtrees reached through different parents are one cell.
  const hashes = new Set<string>();
  for (const c of keep) hashes.add(c.hash().toString('latin1'));
  return (cell) => hashes.has(cell.hash().toString('latin1'));
}

function new_(cell: Cell, refs: Cell[]): Cell {
  return new Cell({ exotic: cell.isExotic, bits: cell.bits, refs });
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, '0');
}
