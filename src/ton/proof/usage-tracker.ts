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

/** The cells of one tracked view, and what was read through it. */
class Tracker {
  readonly visited = new Set<Cell>();
  private readonly views = new Map<Cell, Cell>();

  view(orig: Cell): Cell {
    let v = this.views.get(orig);
    if (v === undefined) {
      v = new TrackedCell(orig, this) as unknown as Cell;
      this.views.set(orig, v);
    }
    return v;
  }
}

/**
 * A Cell without running its constructor (which would rehash): the prototype chain runs through Cell.prototype
 * (instanceof, isExotic, toString, asSlice, asBuilder, toBoc); the fields and accessors below mirror what the
 * constructor sets. One small object per cell reached, its methods on the prototype (a view with its own closures
 * per cell was a tenth of a liteserver's getAccountState).
 */
class TrackedCell {
  readonly type: Cell['type'];
  readonly mask: Cell['mask'];
  private trackedRefs: Cell[] | undefined;

  constructor(
    readonly original: Cell,
    private readonly tracker: Tracker,
  ) {
    this.type = original.type;
    this.mask = original.mask;
  }

  get bits(): Cell['bits'] {
    this.tracker.visited.add(this.original);
    return this.original.bits;
  }

  get refs(): Cell[] {
    this.tracker.visited.add(this.original);
    this.trackedRefs ??= Object.freeze(this.original.refs.map((r) => this.tracker.view(r))) as Cell[];
    return this.trackedRefs;
  }

  beginParse(allowExotic = false): Slice {
    if (this.original.isExotic && !allowExotic) throw new Error('Exotic cells cannot be parsed');
    const refs = this.refs;
    return new Slice(new BitReader(this.original.bits), refs);
  }

  hash(level = 3): Buffer {
    return this.original.hash(level);
  }

  depth(level = 3): number {
    return this.original.depth(level);
  }

  level(): number {
    return this.original.level();
  }

  equals(other: Cell): boolean {
    return this.original.hash().equals(other.hash());
  }
}
Object.setPrototypeOf(TrackedCell.prototype, Cell.prototype);

export function trackCellUsage(root: Cell): CellUsage {
  const tracker = new Tracker();
  return {
    root: tracker.view(root),
    visited: tracker.visited,
    originalOf: (v) => (v instanceof TrackedCell ? v.original : undefined),
  };
}
