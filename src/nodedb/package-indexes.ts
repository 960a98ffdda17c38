import { join } from 'node:path';
import { NodeDbNotYetVisibleError, NodeDbUnsupportedError } from './errors.ts';
import { pathExists } from './fs-util.ts';
import type { RocksProblem } from './kv/options.ts';
import { type OpenRocksOptions, openRocks, type RocksKv, rocksPreflight } from './kv/rocks.ts';
import { indexDir } from './layout.ts';
import { readSliceLayout, type SliceLayout } from './slice-index.ts';
import { NodeDbFormatError } from './tl.ts';

export interface OpenIndex {
  readonly packageId: number;
  readonly kv: RocksKv;
  /** The slice layout, read once per catch-up (a secondary's view changes only then). */
  layout(reload?: boolean): Promise<SliceLayout | null>;
}

interface Slot {
  packageId: number;
  kv: RocksKv;
  mode: 'readonly' | 'secondary';
  /** Catch-up generation at which it was opened (read-only) or last caught up (secondary). */
  generation: number;
  users: number;
  evicted: boolean;
  layout: SliceLayout | null | undefined;
}

export interface PackageIndexesOptions {
  root: string;
  /** The folder a secondary open of `dir` keeps its files in. */
  secondaryDirFor: (dir: string) => Promise<string>;
  capacity?: number;
  log: (level: 'info' | 'warn', msg: string, fields?: Record<string, unknown>) => void;
  /** Problems found by the OPTIONS preflight of a newly opened index (collected for NodeDb.preflight). */
  onProblems?: (problems: RocksProblem[]) => void;
}

const DEFAULT_CAPACITY = 64;

export class PackageIndexes {
  private readonly slots = new Map<number, Promise<Slot>>();
  /** The opened slots of `slots`, for synchronous checks. */
  private readonly ready = new Map<number, Slot>();
  private generation = 0;
  /** Folders whose OPTIONS preflight passed, and those it refused (with why). */
  private readonly checked = new Set<string>();
  private readonly refused = new Map<string, string>();
  private closed = false;

  constructor(private readonly opts: PackageIndexesOptions) {}

  /**
   * Runs `fn` on package `packageId`'s index, opening it if needed: as a secondary when `newest`, else read-only.
   * `fresh`: reopen a read-only index opened before the latest catch-up first.
   */
  async use<T>(packageId: number, newest: boolean, fn: (idx: OpenIndex) => Promise<T>, fresh = false): Promise<T> {
    let slot = await this.acquire(packageId, newest);
    if (fresh && slot.mode === 'readonly' && slot.generation < this.generation) {
      await this.release(slot);
      await this.drop(slot);
      slot = await this.acquire(packageId, newest);
    }
    try {
      return await fn({
        packageId,
        kv: slot.kv,
        layout: async (reload = false) => {
          if (reload || slot.layout === undefined) slot.layout = await readSliceLayout(slot.kv);
          return slot.layout;
        },
      });
    } finally {
      await this.release(slot);
    }
  }

  /** Whether the package's index is open read-only from before the latest catch-up (a miss there may be stale). */
  isStale(packageId: number): boolean {
    const s = this.ready.get(packageId);
    return s !== undefined && s.mode === 'readonly' && s.generation < this.generation;
  }

  /** Catches up every open secondary; marks read-only opens as older than now. */
  async catchUp(): Promise<void> {
    this.generation++;
    for (const slot of [...this.ready.values()]) {
      if (slot.mode !== 'secondary' || slot.evicted) continue;
      await slot.kv.catchUp();
      slot.generation = this.generation;
      slot.layout = undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.slots.values()];
    this.slots.clear();
    this.ready.clear();
    for (const s of all) {
      const slot = await s.catch(() => null);
      if (slot) {
        slot.evicted = true;
        await slot.kv.close();
      }
    }
  }

  private async acquire(packageId: number, newest: boolean): Promise<Slot> {
    if (this.closed) throw new Error('node db: package indexes are closed');
    let s = this.slots.get(packageId);
    if (!s) {
      s = this.open(packageId, newest);
      this.slots.set(packageId, s);
      s.catch(() => this.slots.delete(packageId));
    } else {
      // recency: re-insert
      this.slots.delete(packageId);
      this.slots.set(packageId, s);
    }
    const slot = await s;
    if (!slot.evicted) this.ready.set(packageId, slot);
    slot.users++;
    await this.evict();
    return slot;
  }

  private async release(slot: Slot): Promise<void> {
    slot.users--;
    if (slot.evicted && slot.users === 0) await slot.kv.close();
  }

  private async drop(slot: Slot): Promise<void> {
    if (this.slots.get(slot.packageId) !== undefined) {
      const current = await this.slots.get(slot.packageId);
      if (current === slot) {
        this.slots.delete(slot.packageId);
        this.ready.delete(slot.packageId);
      }
    }
    slot.evicted = true;
    if (slot.users === 0) await slot.kv.close();
  }

  private async evict(): Promise<void> {
    const capacity = this.opts.capacity ?? DEFAULT_CAPACITY;
    for (const [id, s] of this.slots) {
      if (this.slots.size <= capacity) break;
      this.slots.delete(id);
      this.ready.delete(id);
      const slot = await s.catch(() => null);
      if (!slot) continue;
      slot.evicted = true;
      if (slot.users === 0) await slot.kv.close();
    }
  }

  private async open(packageId: number, newest: boolean): Promise<Slot> {
    const dir = indexDir(this.opts.root, packageId);
    // the node creates an index folder, then its files: until CURRENT and OPTIONS are there it is not readable.
    // A deleted package is told by the global index, not by a missing folder (the caller checks that first).
    const notYet = () =>
      new NodeDbNotYetVisibleError(`node db: the index of archive package ${packageId} (${dir}) is being created`, {
        details: { packageId, path: dir },
      });
    if (!(await pathExists(join(dir, 'CURRENT')))) throw notYet();
    const refused = this.refused.get(dir);
    if (refused) throw new NodeDbUnsupportedError(refused, { details: { path: dir } });
    if (!this.checked.has(dir)) {
      let problems: RocksProblem[];
      try {
        ({ problems } = await rocksPreflight(dir));
      } catch (e) {
        if (e instanceof NodeDbFormatError) throw notYet();
        throw e;
      }
      this.checked.add(dir);
      if (problems.length > 0) {
        this.opts.onProblems?.(problems);
        for (const p of problems) this.opts.log('warn', p.message, { path: dir, fatal: p.fatal });
      }
      const fatal = problems.filter((p) => p.fatal).map((p) => p.message);
      if (fatal.length > 0) {
        const why = `node db: cannot read ${dir}: ${fatal.join('; ')}`;
        this.refused.set(dir, why);
        throw new NodeDbUnsupportedError(why, { details: { path: dir } });
      }
    }
    const mode = newest ? 'secondary' : 'readonly';
    const o: OpenRocksOptions = { mode };
    if (newest) o.secondaryDir = await this.opts.secondaryDirFor(dir);
    const kv = await openRocks(dir, o);
    return { packageId, kv, mode, generation: this.generation, users: 0, evicted: false, layout: undefined };
  }
}
