// block.tlb:302-303
//   !merkle_update#04 {X:Type} old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16
//     old:^X new:^X = MERKLE_UPDATE X;
// An exotic cell (type 4) holding two pruned trees, old and new, with their level-0 hashes and depths. As
// in the node's MerkleUpdate::generate (a block's state_update): the new side prunes every subtree (with
// references) that already exists in the old tree, and the old side keeps just the paths down to those
// reused subtrees, so whoever holds the old tree can rebuild the new one. Reference-less cells are never
// pruned on the new side.
import { type Builder, beginCell, type Cell, CellType, type Slice } from '@ton/core';
import { CodecError, ProofError } from '../../common/errors.ts';
import { pruneTree } from './merkle-proof.ts';
import { childMerkleDepth, createPrunedBranch, isPrunedBranch } from './pruned-branch.ts';

export type MerkleUpdate = {
  oldHash: Buffer;
  newHash: Buffer;
  oldDepth: number;
  newDepth: number;
  old: Cell;
  new: Cell;
};

/** Reads a Merkle update from `updateCell.beginParse(true)`. */
export function loadMerkleUpdate(slice: Slice): MerkleUpdate {
  const tag = slice.loadUint(8);
  if (tag !== CellType.MerkleUpdate) {
    throw new CodecError(`MERKLE_UPDATE: expected tag 0x04, got 0x${tag.toString(16).padStart(2, '0')}`);
  }
  const oldHash = slice.loadBuffer(32);
  const newHash = slice.loadBuffer(32);
  const oldDepth = slice.loadUint(16);
  const newDepth = slice.loadUint(16);
  const old = slice.loadRef();
  const new_ = slice.loadRef();
  if (slice.remainingBits !== 0 || slice.remainingRefs !== 0) {
    throw new CodecError(
      `MERKLE_UPDATE: expected end of cell, got ${slice.remainingBits} bits and ${slice.remainingRefs} refs`,
    );
  }
  return { oldHash, newHash, oldDepth, newDepth, old, new: new_ };
}

/** Writes the update fields; the builder must be finished with `endCell({ exotic: true })`. */
export function storeMerkleUpdate(value: MerkleUpdate): (b: Builder) => void {
  return (b) => {
    b.storeUint(CellType.MerkleUpdate, 8)
      .storeBuffer(value.oldHash)
      .storeBuffer(value.newHash)
      .storeUint(value.oldDepth, 16)
      .storeUint(value.newDepth, 16)
      .storeRef(value.old)
      .storeRef(value.new);
  };
}

/** Wraps two (pruned) trees into a Merkle update cell. */
export function createMerkleUpdate(oldSide: Cell, newSide: Cell): Cell {
  const update = beginCell()
    .store(
      storeMerkleUpdate({
        oldHash: oldSide.hash(0),
        newHash: newSide.hash(0),
        oldDepth: oldSide.depth(0),
        newDepth: newSide.depth(0),
        old: oldSide,
        new: newSide,
      }),
    )
    .endCell({ exotic: true });
  if (update.level() !== 0) throw new ProofError(`MerkleUpdate: expected level 0, got ${update.level()}`);
  return update;
}

/** The Merkle update from the tree `oldRoot` to the tree `newRoot` (both complete, level 0). */
export function buildMerkleUpdate(oldRoot: Cell, newRoot: Cell): Cell {
  if (oldRoot.level() !== 0 || newRoot.level() !== 0) {
    throw new ProofError(
      `MerkleUpdate: expected complete trees (level 0), got levels ${oldRoot.level()} and ${newRoot.level()}`,
    );
  }
  // Every distinct old cell with the parent it was first reached from, to mark a path to it later.
  const parentOf = new Map<string, string | null>();
  const index = (cell: Cell, parent: string | null) => {
    const key = keyOf(cell);
    if (parentOf.has(key)) return;
    parentOf.set(key, parent);
    for (const r of cell.refs) index(r, key);
  };
  index(oldRoot, null);

  const reused = new Set<string>();
  const newSide = pruneSide(newRoot, (cell) => {
    if (cell.refs.length === 0 || !parentOf.has(keyOf(cell))) return true;
    reused.add(keyOf(cell));
    return false;
  });

  const onPath = new Set<string>();
  for (const key of reused) {
    for (let p = parentOf.get(key) ?? null; p !== null && !onPath.has(p); p = parentOf.get(p) ?? null) onPath.add(p);
  }
  const oldSide = pruneSide(oldRoot, (cell) => onPath.has(keyOf(cell)));
  return createMerkleUpdate(oldSide, newSide);
}

/**
 * Checks a Merkle update against the hashes of the old and new trees and returns its two sides (virtual
 * trees to read from). Also checks, as the node's MerkleUpdate::validate does, that every subtree the new
 * side prunes is present in the old side, so the update can be applied to the old tree.
 */
export function verifyMerkleUpdate(update: Cell, oldHash: Buffer, newHash: Buffer): { old: Cell; new: Cell } {
  if (update.type !== CellType.MerkleUpdate) {
    throw new ProofError(`MerkleUpdate: expected an exotic Merkle update cell (type 4), got ${cellKind(update)}`);
  }
  let u: MerkleUpdate;
  try {
    u = loadMerkleUpdate(update.beginParse(true));
  } catch (e) {
    throw new ProofError(`MerkleUpdate: malformed cell: ${(e as Error).message}`, { cause: e });
  }
  if (update.level() !== 0) throw new ProofError(`MerkleUpdate: expected level 0, got ${update.level()}`);
  const sides = [
    ['old', u.oldHash, u.oldDepth, u.old, oldHash],
    ['new', u.newHash, u.newDepth, u.new, newHash],
  ] as const;
  for (const [name, stored, depth, side, expected] of sides) {
    if (!stored.equals(side.hash(0)) || depth !== side.depth(0)) {
      throw new ProofError(
        `MerkleUpdate: stored ${name} hash/depth ${hex(stored)}/${depth} differ from the ${name} tree's ${hex(side.hash(0))}/${side.depth(0)}`,
      );
    }
    if (!expected.equals(stored)) {
      throw new ProofError(`MerkleUpdate: expected ${name} hash ${hex(expected)}, the update proves ${hex(stored)}`);
    }
  }

  const known = new Set<string>();
  const seenOld = new Set<string>();
  const collect = (cell: Cell, depth: number) => {
    const visitKey = `${depth}:${keyOf(cell)}`;
    if (seenOld.has(visitKey)) return;
    seenOld.add(visitKey);
    known.add(cell.hash(depth).toString('latin1'));
    if (isPrunedBranch(cell)) return;
    const d = childMerkleDepth(cell, depth);
    for (const r of cell.refs) collect(r, d);
  };
  collect(u.old, 0);
  const seenNew = new Set<string>();
  const check = (cell: Cell, depth: number) => {
    const visitKey = `${depth}:${keyOf(cell)}`;
    if (seenNew.has(visitKey)) return;
    seenNew.add(visitKey);
    if (isPrunedBranch(cell)) {
      if (cell.level() === depth + 1 && !known.has(cell.hash(depth).toString('latin1'))) {
        throw new ProofError(
          `MerkleUpdate: the new tree refers to subtree ${hex(cell.hash(depth))}, which the old tree does not contain`,
        );
      }
      return;
    }
    const d = childMerkleDepth(cell, depth);
    for (const r of cell.refs) check(r, d);
  };
  check(u.new, 0);
  return { old: u.old, new: u.new };
}

/** pruneTree, except that the root itself may be pruned too (a side can be a bare pruned branch). */
function pruneSide(root: Cell, isKept: (cell: Cell) => boolean): Cell {
  if (root.refs.length > 0 && !isKept(root)) return createPrunedBranch(root, 0);
  return pruneTree(root, isKept);
}

function keyOf(cell: Cell): string {
  return cell.hash().toString('latin1');
}

function hex(b: Buffer): string {
  return b.toString('hex');
}

function cellKind(cell: Cell): string {
  return cell.isExotic ? `exotic type ${cell.type}` : 'an ordinary cell';
}
