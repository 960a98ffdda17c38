// Finding blocks by scanning `.pack` files instead of reading the indexes (node-db.md §2.6 last paragraph, §7.3
// "Tail"): the fallback when the RocksDB addon is missing and when a slice index lags the packs it describes (the
// node writes and syncs a pack entry before the index transaction that points at it).
//
// Packs are grouped by their slice's first masterchain seqno (the number in `archive.<seqno>[.<wc>_<prefix>].pack`,
// one `archNNNN` folder per 100,000): a masterchain block N and every shard block N commits sit in the packs of N's
// slice, so finding N or its shard blocks scans one group. Scans read entry headers only and resume where the
// last one stopped (a pack that did not change is not read again). A pack that grew resumes at the last entry seen,
// which must still be there; a pack changed otherwise (cut back, rewritten, replaced) has its headers read again
// and keeps only the entries still where they were. Scanned groups are kept in a small LRU: a long tail in
// pack-scan mode holds the newest groups, not the whole archive.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log } from '../common/logger.ts';
import { type BlockIdExt, blockKey, MASTER_SHARD, sameBlockId } from '../ton/index.ts';
import { parseFileName } from './fileref.ts';
import { readdirOrEmpty } from './fs-util.ts';
import { listPackages, packageFolder, parsePackFileName, sliceStart } from './layout.ts';
import { openPackReader, type PackEntryHeader, type PackReader, type PackScan } from './pack.ts';
import { NodeDbFormatError } from './tl.ts';

/** A `block_` entry found by a scan. */
export interface PackBlock {
  id: BlockIdExt;
  path: string;
  offset: number;
}

interface PackFileState {
  /**
   * The last entry a scan returned (null: none yet). The next scan resumes at it and first checks that it is still
   * there: a pack cut back and appended to again between two scans can be as long or longer and hold other bytes.
   */
  last: PackEntryHeader | null;
  /** The file as last seen (size -1: never scanned). A pack the node only appends to keeps its inode and grows. */
  size: number;
  dev: bigint;
  ino: bigint;
  mtimeNs: bigint;
  /** The last scan ended at a whole entry (no torn tail still being written): an unchanged file has nothing new. */
  settled: boolean;
}

const unscanned = (): PackFileState => ({ last: null, size: -1, dev: 0n, ino: 0n, mtimeNs: 0n, settled: false });

/** Bytes before the first entry: the pack header (pack.ts). */
const PACK_HEADER_BYTES = 4;

/** stat with the mtime in nanoseconds and dev/ino exact. */
const statBig = (path: string) => stat(path, { bigint: true });

interface Group {
  seqno: number;
  files: Map<string, PackFileState>;
  /** Blocks by `wc:shard:seqno`; more than one only when two entries with different hashes share a seqno. */
  blocks: Map<string, PackBlock[]>;
  mc: Map<number, PackBlock>;
  /** The catalog generation of the last folder listing. */
  listedAt: number;
}

/** Groups kept in memory (each one is a slice: ~100 masterchain blocks and the shard blocks they commit). */
const DEFAULT_GROUPS = 64;

const sameHashes = (a: BlockIdExt, b: BlockIdExt) => a.rootHash.equals(b.rootHash) && a.fileHash.equals(b.fileHash);

const sameEntry = (a: PackEntryHeader | undefined, b: PackEntryHeader) =>
  a !== undefined && a.offset === b.offset && a.name === b.name && a.dataSize === b.dataSize;

/** Whether the entry name `name` is the block_ entry of `id` (parsed: the node's hex case is not ours to assume). */
function namesBlock(name: string | undefined, id: BlockIdExt): boolean {
  if (name === undefined) return false;
  let parsed: ReturnType<typeof parseFileName>;
  try {
    parsed = parseFileName(name);
  } catch {
    return false;
  }
  return parsed?.kind === 'block' && sameBlockId(parsed.id, id);
}

export class PackCatalog {
  /** Scanned groups in recency order (a Map re-inserted on use), at most `capacity`. */
  private readonly groups = new Map<number, Group>();
  private generation = 0;
  private packagesCache: { at: number; ids: number[] } | null = null;
  private readonly badNames = new Set<string>();

  constructor(
    readonly root: string,
    private readonly log: Log<'info' | 'warn'> = () => {},
    private readonly capacity = DEFAULT_GROUPS,
  ) {}

  /** Forget folder listings: the next lookups list folders again (call after the node may have written). */
  refresh(): void {
    this.generation++;
  }

  /** Archive package ids from the folder names (layout.ts listPackages), listed once per generation. */
  async packages(): Promise<number[]> {
    if (this.packagesCache?.at !== this.generation) {
      this.packagesCache = { at: this.generation, ids: await listPackages(this.root) };
    }
    return this.packagesCache.ids;
  }

  /** The package that holds masterchain seqno `n` as far as the folders tell (largest id <= n). */
  async packageOf(n: number): Promise<number | null> {
    let best: number | null = null;
    for (const id of await this.packages()) if (id <= n) best = id;
    return best;
  }

  /**
   * Masterchain block `n` from the packs of its slice (or of its package, for an unsliced package whose single
   * pack is named after the package). `packageId` overrides the folder-derived package (the global index knows
   * key-block packages the folder names may not tell).
   */
  async findMc(n: number, packageId?: number | null): Promise<PackBlock | null> {
    const pkg = packageId ?? (await this.packageOf(n));
    if (pkg === null) return null;
    const start = sliceStart(pkg, n);
    for (const relist of [false, true]) {
      const g = await this.scanGroup(start, relist);
      const hit = g.mc.get(n);
      if (hit) return hit;
      if (start !== pkg && g.files.size === 0) {
        const whole = await this.scanGroup(pkg, relist);
        const hit2 = whole.mc.get(n);
        if (hit2) return hit2;
      }
    }
    return null;
  }

  /**
   * A block by its full id: from the groups already scanned, else from the group of `mcSeqno` (the masterchain
   * block that committed it, when known), else from the newest groups.
   */
  async findBlock(id: BlockIdExt, mcSeqno?: number, packageId?: number | null): Promise<PackBlock | null> {
    const cached = this.lookup(id);
    if (cached) return cached;
    if (mcSeqno !== undefined) {
      const pkg = packageId ?? (await this.packageOf(mcSeqno));
      if (pkg !== null) {
        const start = sliceStart(pkg, mcSeqno);
        const g = await this.scanGroup(start, true);
        const hit = this.lookup(id);
        if (hit) return hit;
        // an unsliced package: one pack named after the package holds every slice
        if (start !== pkg && g.files.size === 0) {
          await this.scanGroup(pkg, true);
          return this.lookup(id);
        }
      }
      return null;
    }
    for (const seqno of await this.newestGroupSeqnos(2)) {
      await this.scanGroup(seqno, true);
      const hit = this.lookup(id);
      if (hit) return hit;
    }
    return null;
  }

  /** The newest masterchain seqno in the packs of the newest slices, or null when there is none. */
  async newestMc(): Promise<number | null> {
    for (const seqno of await this.newestGroupSeqnos(3)) {
      const g = await this.scanGroup(seqno, true);
      if (g.mc.size > 0) return Math.max(...g.mc.keys());
    }
    return null;
  }

  /** The lowest masterchain seqno in the packs of the oldest package, or null. */
  async oldestMc(): Promise<number | null> {
    const pkgs = await this.packages();
    for (const pkg of pkgs.slice(0, 2)) {
      const g = await this.scanGroup(pkg, false);
      if (g.mc.size > 0) return Math.min(...g.mc.keys());
    }
    return null;
  }

  private lookup(id: BlockIdExt): PackBlock | null {
    const key = blockKey(id);
    const newestFirst = [...this.groups.values()].sort((a, b) => b.seqno - a.seqno);
    for (const g of newestFirst) {
      const hit = g.blocks.get(key)?.find((b) => sameHashes(b.id, id));
      if (hit) return hit;
    }
    return null;
  }

  /** Scans (resuming) every pack of the group whose packs are named `archive.<seqno>…`; lists the folder if asked. */
  async scanGroup(seqno: number, relist: boolean): Promise<Group> {
    let g = this.groups.get(seqno);
    if (g) this.groups.delete(seqno);
    else g = { seqno, files: new Map(), blocks: new Map(), mc: new Map(), listedAt: -1 };
    this.groups.set(seqno, g);
    for (const oldest of this.groups.keys()) {
      if (this.groups.size <= this.capacity) break;
      this.groups.delete(oldest);
    }
    if (g.listedAt < 0 || (relist && g.listedAt !== this.generation)) {
      const dir = join(this.root, 'archive', 'packages', packageFolder(seqno));
      for (const name of await readdirOrEmpty(dir)) {
        if (parsePackFileName(name)?.seqno !== seqno) continue;
        const path = join(dir, name);
        if (!g.files.has(path)) g.files.set(path, unscanned());
      }
      g.listedAt = this.generation;
    }
    for (const [path, state] of g.files) await this.scanFile(g, path, state);
    return g;
  }

  private async scanFile(g: Group, path: string, state: PackFileState): Promise<void> {
    let st: Awaited<ReturnType<typeof statBig>>;
    try {
      st = await statBig(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      g.files.delete(path); // removed (gc) since the listing
      this.removeBlocks(g, (b) => b.path === path);
      return;
    }
    const size = Number(st.size);
    const sameFile = st.dev === state.dev && st.ino === state.ino;
    const untouched = sameFile && size === state.size && st.mtimeNs === state.mtimeNs;
    if (untouched && state.settled) return;
    const seen = { size, dev: st.dev, ino: st.ino, mtimeNs: st.mtimeNs };
    if (size < PACK_HEADER_BYTES) {
      // shorter than its header: being created (or cut to nothing); look again later
      this.removeBlocks(g, (b) => b.path === path);
      Object.assign(state, unscanned(), seen);
      return;
    }
    // Anything but growth of the same file (a cut, a rewrite in place at the same size, another file renamed over
    // it) may have moved entries anywhere: appends alone never shrink a pack nor touch it without growing it.
    const rewritten = state.size >= 0 && (!sameFile || size < state.size || (size === state.size && !untouched));
    let reader: PackReader;
    try {
      reader = await openPackReader(path);
    } catch (e) {
      // cut below its header since the stat: look again later
      if (e instanceof NodeDbFormatError && Number((await statBig(path)).size) < PACK_HEADER_BYTES) return;
      throw e;
    }
    try {
      let scan: PackScan<PackEntryHeader> | null = null;
      let fresh: PackEntryHeader[] = [];
      const from = state.last;
      if (!rewritten) {
        scan = await reader.scanHeaders({ from: from?.offset ?? 0 });
        // the entry we resume at is still there: what follows it is new (else the pack was cut and rewritten)
        if (!from) fresh = scan.entries;
        else if (sameEntry(scan.entries[0], from)) fresh = scan.entries.slice(1);
        else scan = null;
      }
      if (!scan) {
        scan = await this.reread(g, path, reader);
        fresh = scan.entries;
      }
      this.record(g, path, fresh);
      Object.assign(state, seen, { last: scan.entries.at(-1) ?? null, settled: !scan.torn });
    } finally {
      await reader.close();
    }
  }

  /**
   * Reads every entry header of a pack that changed other than by appends and drops the blocks no longer where they
   * were seen (a cut and rewritten tail; entries before the cut still verify and stay). Returns the scan: its
   * entries are the pack's, to be recorded again (those kept are known already).
   */
  private async reread(g: Group, path: string, reader: PackReader): Promise<PackScan<PackEntryHeader>> {
    const scan = await reader.scanHeaders();
    const names = new Map(scan.entries.map((e) => [e.offset, e.name]));
    const stale = new Set(this.blocksOf(g, path).filter((b) => !namesBlock(names.get(b.offset), b.id)));
    this.removeBlocks(g, (b) => stale.has(b));
    let from = Number.POSITIVE_INFINITY;
    for (const b of stale) from = Math.min(from, b.offset);
    this.log('info', 'pack changed other than by appends: its entry headers were read again', {
      path,
      dropped: stale.size,
      ...(stale.size > 0 ? { from } : {}),
    });
    return scan;
  }

  /** Adds the block_ entries of `path` a scan found (a block already known in the group keeps its first copy). */
  private record(g: Group, path: string, entries: PackEntryHeader[]): void {
    for (const entry of entries) {
      let parsed: ReturnType<typeof parseFileName>;
      try {
        parsed = parseFileName(entry.name);
      } catch (e) {
        if (!this.badNames.has(entry.name)) {
          this.badNames.add(entry.name);
          this.log('warn', 'pack entry with a malformed block id skipped', {
            path,
            offset: entry.offset,
            error: String(e),
          });
        }
        continue;
      }
      if (parsed?.kind !== 'block') continue;
      const key = blockKey(parsed.id);
      const list = g.blocks.get(key) ?? [];
      if (list.some((b) => sameHashes(b.id, parsed.id))) continue; // a later copy: the first one wins
      const found: PackBlock = { id: parsed.id, path, offset: entry.offset };
      list.push(found);
      g.blocks.set(key, list);
      if (parsed.id.workchain === -1 && parsed.id.shard === MASTER_SHARD && !g.mc.has(parsed.id.seqno)) {
        g.mc.set(parsed.id.seqno, found);
      }
    }
  }

  /** Forgets what was scanned of `path` (its entries proved stale): the next scan reads it from the start. */
  forgetFile(path: string): void {
    for (const g of this.groups.values()) {
      const state = g.files.get(path);
      if (!state) continue;
      this.removeBlocks(g, (b) => b.path === path);
      Object.assign(state, unscanned());
    }
  }

  private blocksOf(g: Group, path: string): PackBlock[] {
    return [...g.blocks.values()].flat().filter((b) => b.path === path);
  }

  /** Drops the blocks `drop` picks; a masterchain seqno whose block goes falls back to another copy, if any. */
  private removeBlocks(g: Group, drop: (b: PackBlock) => boolean): void {
    for (const [key, list] of g.blocks) {
      const kept = list.filter((b) => !drop(b));
      if (kept.length === 0) g.blocks.delete(key);
      else if (kept.length !== list.length) g.blocks.set(key, kept);
    }
    for (const [seqno, b] of g.mc) {
      if (!drop(b)) continue;
      const other = g.blocks.get(blockKey({ workchain: -1, shard: MASTER_SHARD, seqno }))?.[0];
      if (other) g.mc.set(seqno, other);
      else g.mc.delete(seqno);
    }
  }

  /** Seqnos of the newest pack groups, newest first (from the last two `archNNNN` folders). */
  private async newestGroupSeqnos(n: number): Promise<number[]> {
    const base = join(this.root, 'archive', 'packages');
    const folders = (await readdirOrEmpty(base)).filter((f) => /^arch\d{4}$/.test(f)).sort();
    const seqnos = new Set<number>();
    for (const folder of folders.slice(-2)) {
      for (const name of await readdirOrEmpty(join(base, folder))) {
        const p = parsePackFileName(name);
        if (p) seqnos.add(p.seqno);
      }
    }
    return [...seqnos].sort((a, b) => b - a).slice(0, n);
  }

  /**
   * Every block entry of every pack under archive/packages whose (workchain, shard) passes `keep`, scanned once
   * without caching (lookups by lt or unixtime in pack-scan mode: slow on a large archive, by design a fallback).
   */
  async scanAll(keep: (id: BlockIdExt) => boolean): Promise<PackBlock[]> {
    const base = join(this.root, 'archive', 'packages');
    const out = new Map<string, PackBlock>();
    for (const folder of (await readdirOrEmpty(base)).filter((f) => /^arch\d{4}$/.test(f)).sort()) {
      const dir = join(base, folder);
      for (const name of (await readdirOrEmpty(dir)).sort()) {
        if (!parsePackFileName(name)) continue;
        const path = join(dir, name);
        const reader = await openPackReader(path);
        try {
          for (const entry of (await reader.scanHeaders()).entries) {
            let parsed: ReturnType<typeof parseFileName>;
            try {
              parsed = parseFileName(entry.name);
            } catch {
              continue;
            }
            if (parsed?.kind !== 'block' || !keep(parsed.id)) continue;
            const k = `${blockKey(parsed.id)}:${parsed.id.rootHash.toString('hex')}`;
            if (!out.has(k)) out.set(k, { id: parsed.id, path, offset: entry.offset });
          }
        } finally {
          await reader.close();
        }
      }
    }
    return [...out.values()];
  }
}
