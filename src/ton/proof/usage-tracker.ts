// A tracked view of a cell tree: any reader (our decoders, @ton/core's loaders, a hand-written dictionary
// walk) runs on it unchanged, and every cell whose contents it touches is recorded, like the node's
// UsageCell / CellUsageTree behind MerkleProofBuilder. Feed `visited` to buildMerkleProof afterwards.
//
// "Touched" means: beginParse() (or asSlice/asBuilder), `bits` or `refs`. Taking a cell's hash, depth,
// level or type does not count: a pruned branch answers those the same way.
// The view is built lazily, one small wrapper per cell actually reached; nothing is hashed or copied.
import { BitReader, Cell, Slice } from '@ton/core';

export interface CellUsage {
  /** The root of the tracked view; read from it like any Cell. */
  readonly root: Cell;
  /** The original cells whose contents were read through the view. */
  readonly visited: ReadonlySet<Cell>;
  /** The original cell behind a cell of the view (undefined for any other cell). */
  originalOf(view: Cell): Cell | undefined;
}

export function trackCellUsage(root: Cell): CellUsage {
  const visited = new Set<Cell>();
  const views = new Map<Cell, Cell>();
  const origins = new WeakMap<Cell, Cell>();

  const view = (orig: Cell): Cell => {
    const existing = views.get(orig);
    if (existing) return existing;
    let refs: readonly Cell[] | undefined;
    const touch = () => {
      visited.add(orig);
    };
    const trackedRefs = (): Cell[] => {
      touch();
      refs ??= Object.freeze(orig.refs.map(view));
      return refs as Cell[];
    };
    // A Cell without running its constructor (which would rehash): the prototype gives instanceof, isExotic,
    // toString, asSlice, asBuilder and toBoc; the own properties below mirror what the constructor sets.
    const t = Object.create(Cell.prototype) as Cell;
    Object.defineProperties(t, {
      type: { value: orig.type, enumerable: true },
      mask: { value: orig.mask, enumerable: true },
      bits: {
        enumerable: true,
        get() {
          touch();
          return orig.bits;
        },
      },
      refs: { enumerable: true, get: trackedRefs },
      beginParse: {
        value: (allowExotic = false): Slice => {
          if (orig.isExotic && !allowExotic) throw new Error('Exotic cells cannot be parsed');
          return new Slice(new BitReader(orig.bits), trackedRefs());
        },
      },
      hash: { value: (level = 3) => orig.hash(level) },
      depth: { value: (level = 3) => orig.depth(level) },
      level: { value: () => orig.level() },
      equals: { value: (other: Cell) => orig.hash().equals(other.hash()) },
    });
    Object.freeze(t);
    views.set(orig, t);
    origins.set(t, orig);
    return t;
  };

  return { root: view(root), visited, originalOf: (v) => origins.get(v) };
}
