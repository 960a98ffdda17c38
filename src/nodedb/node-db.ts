// NodeDb: reads a TON validator-engine's database folder in place (node-db.md §2.6, §3.3–3.4, §4, §7.2–7.3).
// Blocks come from the archive packs, found through the package indexes (RocksDB, through the in-repo addon) or,
// without the addon or when an index lags, by scanning the packs (pack-scan.ts). Account states come from celldb
// when the addon can open it, else from each block's own state update (complete: false).
//
// Nothing is ever written under the root: RocksDB folders are opened as secondaries (their files go to
// `secondaryDir`) or read-only, packs are opened for reading, and `keyring/` is never touched. A secondary's view
// changes only in catchUp(), so reads between two catch-ups see one state of the node.
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { Lru } from '../common/index.ts';
import type { Log } from '../common/logger.ts';
import {
  type AccountStateAfter,
  type BlockIdExt,
  type BlockInfo,
  blockKey,
  checkedBlock,
  type FetchedBlock,
  MASTER_SHARD,
  statesFromNewState,
  stateUpdateNewSide,
} from '../ton/index.ts';
import {
  type CellStore,
  createCellStore,
  listStoredStates,
  NodeDbMissingCellError,
  readAccountStates,
  stateRootOf,
} from './celldb/index.ts';
import { NodeDbCorruptError, NodeDbNotYetVisibleError, NodeDbPrunedError, NodeDbUnsupportedError } from './errors.ts';
import { openEventFifo } from './events.ts';
import { fileName } from './fileref.ts';
import { pathExists } from './fs-util.ts';
import { lookupPackages, type PackageInfo, readGlobalIndex, readPackages } from './global-index.ts';
import { type BlockHandle, HANDLE_FLAGS } from './handle.ts';
import type { RocksProblem } from './kv/options.ts';
import { loadRocksAddon, openRocks, type RocksKv, rocksPreflight } from './kv/rocks.ts';
import { cellDbDir, globalIndexDir, packPath, stateDbDir } from './layout.ts';
import { openPackReader } from './pack.ts';
import { type PackBlock, PackCatalog } from './pack-scan.ts';
import { type OpenIndex, PackageIndexes } from './package-indexes.ts';
import { blockInfoOf, shardTopsOfRoot, type WalkStop, walkCommitted } from './shard-walk.ts';
import {
  choosePack,
  fileOffset,
  lookupByLt,
  lookupBySeqno,
  lookupByUtime,
  readHandle,
  readLtdbDesc,
  type SliceLayout,
  type SlicePack,
  slicePacks,
} from './slice-index.ts';
import { readGcBlock, readShardClient } from './state-db.ts';
import { NodeDbFormatError } from './tl.ts';

/** The levels a node database logs at. */
export type NodeDbLog = Log<'info' | 'warn'>;

export interface NodeDbOptions {
  root: string;
  /** Where RocksDB secondaries keep their logs (default: a temp folder removed at close). Never inside root. */
  secondaryDir?: string;
  /** 'auto' (default): indexes via the addon when it loads and the folders exist, else pack scan. */
  blocks?: 'auto' | 'index' | 'packscan';
  /** 'auto' (default): celldb via the addon when present, else none (states from each block's state update, complete:false). */
  states?: 'auto' | 'celldb' | 'none';
  log?: NodeDbLog;
}

/** Masterchain seqno ranges the database can serve, and what the node's gc has taken. */
export interface NodeDbCoverage {
  blocks: { from: number; to: number } | null;
  /** Masterchain blocks whose states celldb keeps. */
  states: { from: number; to: number } | null;
  gcBlock: number | null;
  deletedPackages: number[];
  /** Archive packages listed (deleted ones included). */
  packages: number;
}

export interface NodeDbTip {
  /** The state db's shardClient: every shard block it commits is applied (null without the state db). */
  shardClient: number | null;
  /** The newest masterchain block in the archive (pack-scan mode: the newest whose shard blocks are all there). */
  archived: number | null;
}

export type NodeDbLookup = { seqno: number } | { lt: bigint } | { utime: number };

export interface NodeDbTailOptions {
  signal?: AbortSignal;
  /** How often to look for new blocks (default 500 ms, or 5 s with an event FIFO, which can drop events). */
  pollMs?: number;
  /** The node's --db-event-fifo: a masterchain blockApplied wakes the tail at once. */
  eventFifo?: string;
}

export interface NodeDb {
  readonly root: string;
  readonly mode: { blocks: 'index' | 'packscan'; states: 'celldb' | 'none' };
  /** RocksDB facts/problems from the OPTIONS preflight, for logs. */
  readonly preflight: { rocksdb?: string; problems: string[] };
  coverage(): Promise<NodeDbCoverage>;
  tip(): Promise<NodeDbTip>;
  mcBlockId(seqno: number): Promise<BlockIdExt | null>;
  /** The block's file, checked: sha256 = fileHash, BoC root hash = rootHash. */
  block(id: BlockIdExt): Promise<FetchedBlock>;
  /** The shard blocks masterchain block `mcSeqno` commits, parents first (oldest → newest per shard). */
  shardBlocksCommittedBy(mcSeqno: number): Promise<BlockIdExt[]>;
  handle(id: BlockIdExt): Promise<BlockHandle | null>;
  lookupBlock(workchain: number, shard: bigint, by: NodeDbLookup): Promise<BlockIdExt | null>;
  stateRoot(id: BlockIdExt): Promise<Buffer | null>;
  accountStates(id: BlockIdExt, addresses: readonly Buffer[]): Promise<AccountStateAfter[]>;
  catchUp(): Promise<void>;
  /** Masterchain blocks from `fromMc` on, each once and in order, with the shard blocks it commits; wakes on the FIFO when given, else polls. */
  tail(fromMc: number, opts?: NodeDbTailOptions): AsyncIterable<{ mc: BlockIdExt; shardBlocks: BlockIdExt[] }>;
  close(): Promise<void>;
}

const U64 = (1n << 64n) - 1n;
/** How far below the newest masterchain block pack-scan mode looks for one whose shard blocks are all there. */
const HEAD_SEARCH = 300;

const fullKey = (id: BlockIdExt) => `${blockKey(id)}:${id.rootHash.toString('hex')}`;
const show = (id: { workchain: number; shard: bigint; seqno: number }) =>
  `(${id.workchain},${id.shard.toString(16).padStart(16, '0')},${id.seqno})`;
const noLog: NodeDbLog = () => {};

/** A RocksDB folder has CURRENT once the node created it. */
const isRocksDir = (dir: string) => pathExists(join(dir, 'CURRENT'));

export async function openNodeDb(opts: NodeDbOptions): Promise<NodeDb> {
  const root = resolve(opts.root);
  const log = opts.log ?? noLog;
  let rootStat: Awaited<ReturnType<typeof stat>> | null = null;
  try {
    rootStat = await stat(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (!rootStat?.isDirectory()) {
    throw new NodeDbUnsupportedError(`not a TON node database: ${root} is not a folder`, { details: { root } });
  }
  if (!(await pathExists(join(root, 'archive')))) {
    throw new NodeDbUnsupportedError(
      `not a TON node database: ${root} has no archive/ folder (expected the validator-engine --db folder, such as /var/ton-work/db)`,
      { details: { root } },
    );
  }
  let secondaryBase: string;
  let ownSecondary = false;
  if (opts.secondaryDir) {
    secondaryBase = resolve(opts.secondaryDir);
    const rel = relative(root, secondaryBase);
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
      throw new NodeDbUnsupportedError(
        `node db: secondaryDir ${secondaryBase} is inside the node database ${root}; a reader never writes there`,
        { details: { root, secondaryDir: secondaryBase } },
      );
    }
    await mkdir(secondaryBase, { recursive: true });
  } else {
    secondaryBase = await mkdtemp(join(tmpdir(), 'tongate-nodedb-'));
    ownSecondary = true;
  }

  const db = new NodeDbReader(root, log, secondaryBase, ownSecondary);
  try {
    await db.init(opts.blocks ?? 'auto', opts.states ?? 'auto');
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}

class NodeDbReader implements NodeDb {
  mode: NodeDb['mode'] = { blocks: 'packscan', states: 'none' };
  readonly preflight: NodeDb['preflight'] = { problems: [] };
  private globalKv: RocksKv | null = null;
  private stateKv: RocksKv | null = null;
  private cellKv: RocksKv | null = null;
  private store: CellStore | null = null;
  private indexes: PackageIndexes | null = null;
  private readonly catalog: PackCatalog;
  /** Archive packages of the global index (key and temp packages are not read). */
  private packageInfos: PackageInfo[] = [];
  private readonly mcIds = new Lru<number, BlockIdExt>(4096);
  private readonly tops = new Lru<number, BlockIdExt[]>(512);
  private readonly committed = new Lru<number, BlockIdExt[]>(512);
  private readonly infos = new Lru<string, BlockInfo>(8192);
  /** The masterchain block that committed a shard block, where a walk saw it (its pack is in that slice). */
  private readonly mcRefs = new Lru<string, number>(16384);
  /** Blocks read recently: a walk reads the blocks the indexer asks for next. */
  private readonly fetched = new Lru<string, FetchedBlock>(24);
  /** Wakes the sleeping tails (close() ends them). */
  private readonly tailWakers = new Set<() => void>();
  private catchingUp: Promise<void> | null = null;
  private closed = false;

  constructor(
    readonly root: string,
    private readonly log: NodeDbLog,
    private readonly secondaryBase: string,
    private readonly ownSecondary: boolean,
  ) {
    this.catalog = new PackCatalog(root, log);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Opening

  async init(blocks: 'auto' | 'index' | 'packscan', states: 'auto' | 'celldb' | 'none'): Promise<void> {
    const addon = loadRocksAddon();
    const globalDir = globalIndexDir(this.root);
    if (blocks !== 'packscan') {
      const why = !addon.ok
        ? addon.reason
        : !(await isRocksDir(globalDir))
          ? `${globalDir} is not a RocksDB folder`
          : await this.fatalPreflight(globalDir);
      if (why === null) {
        this.globalKv = await openRocks(globalDir, {
          mode: 'secondary',
          secondaryDir: await this.secondaryDirFor(globalDir),
        });
        const stateDir = stateDbDir(this.root);
        if ((await isRocksDir(stateDir)) && (await this.fatalPreflight(stateDir)) === null) {
          this.stateKv = await openRocks(stateDir, {
            mode: 'secondary',
            secondaryDir: await this.secondaryDirFor(stateDir),
          });
        } else {
          this.log('warn', `node db: no readable state db at ${stateDir}; the tip is the archive's newest block`);
        }
        this.indexes = new PackageIndexes({
          root: this.root,
          secondaryDirFor: (dir) => this.secondaryDirFor(dir),
          log: this.log,
          onProblems: (p) => this.addProblems(p),
        });
        this.mode.blocks = 'index';
      } else if (blocks === 'index') {
        throw new NodeDbUnsupportedError(`node db ${this.root}: cannot read the indexes: ${why}`, {
          details: { root: this.root },
        });
      } else {
        this.log('info', `node db: reading blocks by scanning packs (${why})`);
      }
    }
    if (states !== 'none') {
      const dir = cellDbDir(this.root);
      const why = !addon.ok
        ? addon.reason
        : !(await isRocksDir(dir))
          ? `${dir} is not a RocksDB folder`
          : await this.fatalPreflight(dir);
      if (why === null) {
        this.cellKv = await openRocks(dir, {
          mode: 'secondary',
          secondaryDir: await this.secondaryDirFor(dir),
          cellRefcountMerge: true,
        });
        this.store = createCellStore(this.cellKv);
        this.mode.states = 'celldb';
      } else if (states === 'celldb') {
        throw new NodeDbUnsupportedError(`node db ${this.root}: cannot read celldb: ${why}`, {
          details: { root: this.root },
        });
      } else {
        this.log('info', `node db: account states from block state updates, not celldb (${why})`);
      }
    }
    await this.catchUp();
  }

  /** Runs the OPTIONS preflight; returns the fatal problems as one sentence, or null when the folder is readable. */
  private async fatalPreflight(dir: string): Promise<string | null> {
    const { options, problems } = await rocksPreflight(dir);
    this.preflight.rocksdb ??= options.rocksdbVersion;
    this.addProblems(problems);
    for (const p of problems) this.log('warn', p.message, { path: dir, fatal: p.fatal });
    const fatal = problems.filter((p) => p.fatal).map((p) => p.message);
    return fatal.length > 0 ? fatal.join('; ') : null;
  }

  private addProblems(problems: readonly RocksProblem[]): void {
    for (const { message } of problems) {
      if (!this.preflight.problems.includes(message)) this.preflight.problems.push(message);
    }
  }

  private async secondaryDirFor(dir: string): Promise<string> {
    const own = join(this.secondaryBase, relative(this.root, dir).replace(/[\\/]/g, '_'));
    await mkdir(own, { recursive: true });
    return own;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Catching up and packages

  catchUp(): Promise<void> {
    // one catch-up at a time; callers arriving meanwhile share it
    this.catchingUp ??= this.doCatchUp().finally(() => {
      this.catchingUp = null;
    });
    return this.catchingUp;
  }

  private async doCatchUp(): Promise<void> {
    this.checkOpen();
    this.catalog.refresh();
    if (this.globalKv) {
      await this.globalKv.catchUp();
      const index = await readGlobalIndex(this.globalKv);
      if (index) {
        try {
          const all = await readPackages(this.globalKv, index);
          this.packageInfos = all.filter((p) => !p.key && !p.temp).sort((a, b) => a.id - b.id);
        } catch (e) {
          if (!(e instanceof NodeDbFormatError)) throw e;
          this.log('warn', `node db: global index not read, keeping the previous package list: ${e.message}`);
        }
      }
    }
    await this.stateKv?.catchUp();
    await this.cellKv?.catchUp();
    await this.indexes?.catchUp();
  }

  /** Archive packages: the global index's, plus index folders it does not list yet (it can lag the folders). */
  private async packageList(): Promise<Array<{ id: number; deleted: boolean }>> {
    const byId = new Map(this.packageInfos.map((p) => [p.id, p.deleted]));
    for (const id of await this.catalog.packages()) if (!byId.has(id)) byId.set(id, false);
    return [...byId].map(([id, deleted]) => ({ id, deleted })).sort((a, b) => a.id - b.id);
  }

  /** The package that holds masterchain seqno `n`: the largest id <= n, deleted or not. */
  private async packageOf(n: number): Promise<{ id: number; deleted: boolean } | null> {
    let best: { id: number; deleted: boolean } | null = null;
    for (const p of await this.packageList()) if (p.id <= n) best = p;
    return best;
  }

  private async newestPackage(): Promise<number | null> {
    const live = (await this.packageList()).filter((p) => !p.deleted);
    return live.at(-1)?.id ?? null;
  }

  private prunedPackage(packageId: number, what: string): NodeDbPrunedError {
    return new NodeDbPrunedError(
      `node db ${this.root}: ${what} is in archive package ${packageId}, which the node garbage-collected (deleted in the global index)`,
      { details: { packageId } },
    );
  }

  /**
   * Runs `fn` on a package index; a null result from a read-only index older than the last catch-up is retried
   * once after reopening it. Null too while the node is still creating the index.
   */
  private async inPackage<T>(packageId: number, fn: (idx: OpenIndex) => Promise<T | null>): Promise<T | null> {
    const indexes = this.indexes!;
    const newest = packageId === (await this.newestPackage());
    try {
      const r = await indexes.use(packageId, newest, fn);
      if (r !== null || !indexes.isStale(packageId)) return r;
      return await indexes.use(packageId, newest, fn, true);
    } catch (e) {
      // an index the node is still creating knows nothing yet: the caller falls back to the packs
      if (e instanceof NodeDbNotYetVisibleError) return null;
      throw e;
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // Blocks

  private async findMcBlockId(seqno: number): Promise<BlockIdExt | null> {
    checkSeqno(seqno, 'mcBlockId');
    this.checkOpen();
    if (seqno === 0) return null; // the zero state, not a block
    const cached = this.mcIds.get(seqno);
    if (cached) return cached;
    let pkg: { id: number; deleted: boolean } | null = null;
    if (this.indexes) {
      pkg = await this.packageOf(seqno);
      if (pkg?.deleted) throw this.prunedPackage(pkg.id, `masterchain block ${seqno}`);
      if (pkg) {
        const entry = await this.inPackage(pkg.id, (idx) => lookupBySeqno(idx.kv, -1, MASTER_SHARD, seqno));
        if (entry) return this.rememberMc(entry.id);
      }
    }
    // not in the index (it can lag the packs), or no index: scan the packs of the block's slice
    const found = await this.catalog.findMc(seqno, pkg?.id);
    return found ? this.rememberMc(found.id) : null;
  }

  private rememberMc(id: BlockIdExt): BlockIdExt {
    this.mcIds.set(id.seqno, id);
    return id;
  }

  private async getBlock(id: BlockIdExt): Promise<FetchedBlock> {
    this.checkOpen();
    return this.readBlock(id, undefined);
  }

  /** The block's file; `mcRef` = the masterchain block that committed it, when known (it picks the slice). */
  private async readBlock(id: BlockIdExt, mcRef: number | undefined): Promise<FetchedBlock> {
    const key = fullKey(id);
    const cached = this.fetched.get(key);
    if (cached) return cached;
    const hint = id.workchain === -1 ? id.seqno : (mcRef ?? this.mcRefs.get(key));
    let got: FetchedBlock | null = null;
    let pkg: { id: number; deleted: boolean } | null = null;
    if (hint !== undefined) {
      pkg = this.indexes ? await this.packageOf(hint) : null;
      if (pkg?.deleted) throw this.prunedPackage(pkg.id, `block ${show(id)}`);
    }
    if (this.indexes) got = await this.readViaIndex(id, hint, pkg?.id ?? null);
    for (let attempt = 0; !got && attempt < 2; attempt++) {
      const found = await this.catalog.findBlock(id, hint, pkg?.id);
      if (!found) break;
      try {
        got = await this.readPackBlock(found.path, found.offset, id);
      } catch (e) {
        // the pack changed under the scan (cut back and rewritten): scan it again once
        if (!(e instanceof NodeDbCorruptError) || attempt > 0) throw e;
        this.catalog.forgetFile(found.path);
      }
    }
    if (!got && hint === undefined) {
      // a shard block with no masterchain ref at hand: the package its seqno falls in, deleted ones included
      const all = this.packageInfos.map((p) => ({ ...p, deleted: false }));
      const [holder] = lookupPackages(all, id.workchain, id.shard, { seqno: id.seqno });
      if (holder !== undefined && this.packageInfos.find((p) => p.id === holder)?.deleted) {
        throw this.prunedPackage(holder, `block ${show(id)}`);
      }
    }
    if (!got) {
      throw new NodeDbNotYetVisibleError(
        `node db ${this.root}: block ${show(id)} is not in the archive (not written yet, or the index lags)`,
        { details: { block: blockKey(id) } },
      );
    }
    this.fetched.set(key, got);
    return got;
  }

  private async readViaIndex(
    id: BlockIdExt,
    hint: number | undefined,
    hintPackage: number | null,
  ): Promise<FetchedBlock | null> {
    if (hint !== undefined) {
      if (hintPackage === null) return null;
      return this.inPackage(hintPackage, (idx) => this.readFromIndex(idx, id, hint));
    }
    for (const pkg of await this.handleCandidates(id)) {
      const got = await this.inPackage(pkg, async (idx) => {
        const h = await readHandle(idx.kv, id);
        return h ? this.readFromIndex(idx, id, h.masterchainRefSeqno) : null;
      });
      if (got) return got;
    }
    return null;
  }

  /**
   * Packages that may hold a block's handle: the newest whose first block of the block's own shard is at or below
   * its seqno (the node's get_handle), then the global index's lookup by seqno over shard prefixes, then the
   * newest. The prefix lookup alone can miss a shard block: it stops at the first longer prefix whose package is
   * older, which happens in an archive lacking the blocks between (isolated real blocks written as test data).
   */
  private async handleCandidates(id: BlockIdExt): Promise<number[]> {
    const own = this.packageInfos.findLast((p) =>
      p.firstBlocks.some((f) => f.workchain === id.workchain && f.shard === id.shard && f.seqno <= id.seqno),
    );
    const out = own && !own.deleted ? [own.id] : [];
    for (const p of lookupPackages(this.packageInfos, id.workchain, id.shard, { seqno: id.seqno })) {
      if (!out.includes(p)) out.push(p);
    }
    const newest = await this.newestPackage();
    if (newest !== null && !out.includes(newest)) out.push(newest);
    return out;
  }

  private async readFromIndex(idx: OpenIndex, id: BlockIdExt, mcRef: number | undefined): Promise<FetchedBlock | null> {
    const offset = await fileOffset(idx.kv, 'block', id);
    if (offset === null) return null;
    let layout = (await idx.layout()) ?? (await idx.layout(true));
    if (!layout) {
      throw new NodeDbCorruptError(`${idx.kv.path}: has the offset of ${show(id)} but no layout keys`);
    }
    let packs: SlicePack[];
    if (mcRef !== undefined) {
      let p = choosePack(idx.packageId, layout, mcRef, id.workchain, id.shard);
      if (!p) {
        layout = (await idx.layout(true))!;
        p = choosePack(idx.packageId, layout, mcRef, id.workchain, id.shard);
      }
      if (!p) {
        throw new NodeDbCorruptError(
          `${idx.kv.path}: has the offset of ${show(id)} but no pack for masterchain seqno ${mcRef} in its layout`,
        );
      }
      packs = [p];
    } else {
      // no masterchain ref in the handle: every pack of the package that can hold this shard's blocks
      packs = slicePacks(idx.packageId, layout).filter((p) => packCanHold(layout!, p, id));
    }
    const missing: string[] = [];
    let lastError: unknown;
    for (const p of packs) {
      const candidates = packPaths(this.root, idx.packageId, layout, p);
      const path = await firstExisting(candidates);
      if (!path) {
        missing.push(candidates.join(' or '));
        continue;
      }
      try {
        return await this.readPackBlock(path, offset, id);
      } catch (e) {
        if (packs.length === 1 || !(e instanceof NodeDbCorruptError)) throw e;
        lastError = e;
      }
    }
    if (lastError) throw lastError;
    throw new NodeDbPrunedError(
      `node db ${this.root}: block ${show(id)} is listed in ${idx.kv.path} but its pack file is missing: ${missing.join('; ')}`,
      { details: { block: blockKey(id), files: missing } },
    );
  }

  /** Reads and checks a block entry: the name, sha256 of the data = file hash, the BoC's one root = root hash. */
  private async readPackBlock(path: string, offset: number, id: BlockIdExt): Promise<FetchedBlock> {
    let reader: Awaited<ReturnType<typeof openPackReader>>;
    try {
      reader = await openPackReader(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new NodeDbPrunedError(`node db ${this.root}: pack file ${path} is missing (block ${show(id)})`, {
          details: { block: blockKey(id), file: path },
        });
      }
      if (e instanceof NodeDbFormatError) throw new NodeDbCorruptError(e.message, { cause: e });
      throw e;
    }
    try {
      const where = `pack ${path} at offset ${offset}`;
      let data: Buffer;
      try {
        data = (await reader.readAt(offset, fileName('block', id))).data;
      } catch (e) {
        if (e instanceof NodeDbFormatError) throw new NodeDbCorruptError(e.message, { cause: e });
        throw e;
      }
      // the source's one check of fetched bytes (checkedBlock, src/ton/block-source/ids.ts), with a single-root BoC
      // required on top
      try {
        return checkedBlock(id, data);
      } catch (e) {
        throw new NodeDbCorruptError(`${where}: block ${show(id)}: ${(e as Error).message}`, { cause: e });
      }
    } finally {
      await reader.close();
    }
  }

  private async infoOf(id: BlockIdExt, mcRef: number | undefined): Promise<BlockInfo> {
    const key = fullKey(id);
    const hit = this.infos.get(key);
    if (hit) return hit;
    const fetched = await this.readBlock(id, mcRef);
    const parsed = this.corruptOnFormat(() => blockInfoOf(fetched.root, `block ${show(id)}`));
    this.infos.set(key, parsed);
    return parsed;
  }

  private corruptOnFormat<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      if (e instanceof NodeDbFormatError) throw new NodeDbCorruptError(e.message, { cause: e });
      throw e;
    }
  }

  /** The shard tops masterchain block `n` lists; null when the block is not in the archive. */
  private async topsOf(n: number): Promise<BlockIdExt[] | null> {
    const hit = this.tops.get(n);
    if (hit) return hit;
    const id = await this.findMcBlockId(n);
    if (!id) return null;
    const fetched = await this.readBlock(id, n);
    const tops = this.corruptOnFormat(() => shardTopsOfRoot(fetched.root, `masterchain block ${n}`));
    this.tops.set(n, tops);
    return tops;
  }

  private async walkShardBlocks(mcSeqno: number): Promise<BlockIdExt[]> {
    checkSeqno(mcSeqno, 'shardBlocksCommittedBy');
    this.checkOpen();
    const hit = this.committed.get(mcSeqno);
    if (hit) return hit;
    const tops = await this.topsOf(mcSeqno);
    if (!tops) {
      throw new NodeDbNotYetVisibleError(`node db ${this.root}: masterchain block ${mcSeqno} is not in the archive`, {
        details: { mcSeqno },
      });
    }
    let stop: WalkStop;
    if (mcSeqno === 1)
      stop = { prevTops: [] }; // the zero state's tops are all seqno 0
    else {
      let prevTops: BlockIdExt[] | null = null;
      try {
        prevTops = await this.topsOf(mcSeqno - 1);
      } catch (e) {
        if (!(e instanceof NodeDbPrunedError)) throw e;
      }
      if (prevTops) stop = { prevTops };
      else if (this.indexes) {
        // the previous masterchain block is gone: stop at blocks an earlier masterchain block committed
        stop = {
          before: async (id) => {
            const h = await this.findHandle(id);
            return !h || (h.masterchainRefSeqno !== undefined && h.masterchainRefSeqno < mcSeqno);
          },
        };
      } else {
        throw new NodeDbPrunedError(
          `node db ${this.root}: masterchain block ${mcSeqno - 1} is not in the archive, so the shard blocks ${mcSeqno} commits cannot be told without the indexes`,
          { details: { mcSeqno } },
        );
      }
    }
    const list = await walkCommitted(
      tops,
      stop,
      (id) => this.infoOf(id, mcSeqno),
      `shard blocks of masterchain block ${mcSeqno}`,
    );
    for (const id of list) this.mcRefs.set(fullKey(id), mcSeqno);
    this.committed.set(mcSeqno, list);
    return list;
  }

  private async findHandle(id: BlockIdExt): Promise<BlockHandle | null> {
    this.checkOpen();
    if (!this.indexes) return null;
    const hint = id.workchain === -1 ? id.seqno : this.mcRefs.get(fullKey(id));
    const tried = new Set<number>();
    if (hint !== undefined) {
      const pkg = await this.packageOf(hint);
      if (pkg && !pkg.deleted) {
        tried.add(pkg.id);
        const h = await this.inPackage(pkg.id, (idx) => readHandle(idx.kv, id));
        if (h) return h;
      }
    }
    for (const pkg of await this.handleCandidates(id)) {
      if (tried.has(pkg)) continue;
      const h = await this.inPackage(pkg, (idx) => readHandle(idx.kv, id));
      if (h) return h;
    }
    return null;
  }

  private async findBlock(workchain: number, shard: bigint, by: NodeDbLookup): Promise<BlockIdExt | null> {
    this.checkOpen();
    if ('seqno' in by) checkSeqno(by.seqno, 'lookupBlock');
    shard = BigInt.asUintN(64, shard);
    if (this.indexes) {
      for (const pkg of lookupPackages(this.packageInfos, workchain, shard, by)) {
        const entry = await this.inPackage(pkg, (idx) =>
          'seqno' in by
            ? lookupBySeqno(idx.kv, workchain, shard, by.seqno)
            : 'lt' in by
              ? lookupByLt(idx.kv, workchain, shard, by.lt)
              : lookupByUtime(idx.kv, workchain, shard, by.utime),
        );
        if (entry) return entry.id;
      }
      if (workchain === -1 && 'seqno' in by) return this.findMcBlockId(by.seqno);
      return null;
    }
    return this.lookupByScan(workchain, shard, by);
  }

  /** lookupBlock without indexes: every pack's headers, then a binary search of the shard line's headers. */
  private async lookupByScan(workchain: number, point: bigint, by: NodeDbLookup): Promise<BlockIdExt | null> {
    if (workchain === -1 && 'seqno' in by) return this.findMcBlockId(by.seqno);
    const line = (await this.catalog.scanAll((id) => id.workchain === workchain && shardContains(id.shard, point)))
      // the shards containing one point form one line of ancestors: seqnos strictly increase along it
      .sort((a, b) => a.id.seqno - b.id.seqno);
    if ('seqno' in by) return line.find((b) => b.id.seqno === by.seqno)?.id ?? null;
    const keyOf = async (b: PackBlock): Promise<bigint> => {
      const info = await this.infoOfPack(b);
      return 'lt' in by ? info.endLt : BigInt(info.genUtime);
    };
    const want = 'lt' in by ? BigInt.asUintN(64, by.lt) : BigInt(by.utime);
    let lo = 0;
    let hi = line.length; // first index whose value >= want
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((await keyOf(line[mid]!)) >= want) hi = mid;
      else lo = mid + 1;
    }
    return line[lo]?.id ?? null;
  }

  private async infoOfPack(b: PackBlock): Promise<BlockInfo> {
    const key = fullKey(b.id);
    const hit = this.infos.get(key);
    if (hit) return hit;
    const fetched = await this.readPackBlock(b.path, b.offset, b.id);
    const info = this.corruptOnFormat(() => blockInfoOf(fetched.root, `block ${show(b.id)}`));
    this.infos.set(key, info);
    return info;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Tip and coverage

  private async readTip(): Promise<NodeDbTip> {
    this.checkOpen();
    const shardClient = this.stateKv ? ((await readShardClient(this.stateKv))?.seqno ?? null) : null;
    let archived: number | null = null;
    if (this.indexes) {
      const newest = await this.newestPackage();
      if (newest !== null) {
        const desc = await this.inPackage(newest, (idx) => readLtdbDesc(idx.kv, -1, MASTER_SHARD));
        archived = desc && desc.lastIdx > desc.firstIdx ? desc.lastSeqno : null;
      }
    } else {
      archived = await this.packScanHead();
    }
    return { shardClient, archived };
  }

  /** The newest masterchain block whose shard blocks are all in the packs. */
  private async packScanHead(): Promise<number | null> {
    const newest = await this.catalog.newestMc();
    if (newest === null) return null;
    for (let n = newest; n >= Math.max(1, newest - HEAD_SEARCH); n--) {
      try {
        await this.walkShardBlocks(n); // cached once it succeeds
        return n;
      } catch (e) {
        if (!(e instanceof NodeDbNotYetVisibleError) && !(e instanceof NodeDbPrunedError)) throw e;
      }
    }
    return null;
  }

  private async readCoverage(): Promise<NodeDbCoverage> {
    this.checkOpen();
    const list = await this.packageList();
    const t = await this.readTip();
    const to = t.shardClient ?? t.archived;
    let from: number | null = null;
    if (this.indexes) {
      const first = list.find((p) => !p.deleted);
      if (first) {
        const info = this.packageInfos.find((p) => p.id === first.id);
        from = info?.firstBlocks.find((f) => f.workchain === -1)?.seqno ?? Math.max(1, first.id);
      }
    } else {
      from = await this.catalog.oldestMc();
    }
    let states: NodeDbCoverage['states'] = null;
    if (this.cellKv) {
      const mc = (await listStoredStates(this.cellKv)).filter((s) => s.id.workchain === -1).map((s) => s.id.seqno);
      if (mc.length > 0) states = { from: Math.min(...mc), to: Math.max(...mc) };
    }
    return {
      blocks: from !== null && to !== null && from <= to ? { from, to } : null,
      states,
      gcBlock: this.stateKv ? ((await readGcBlock(this.stateKv))?.seqno ?? null) : null,
      deletedPackages: list.filter((p) => p.deleted).map((p) => p.id),
      packages: list.length,
    };
  }

  // ---------------------------------------------------------------------------------------------------------
  // States

  private async findStateRoot(id: BlockIdExt): Promise<Buffer | null> {
    this.checkOpen();
    if (!this.store || !this.cellKv) return null;
    const h = await this.findHandle(id);
    if (h && h.flags & HANDLE_FLAGS.deletedBoc) {
      throw new NodeDbPrunedError(
        `node db ${this.root}: the node garbage-collected the state of block ${show(id)} (its handle says deleted_boc)`,
        { details: { block: blockKey(id) } },
      );
    }
    const listed = await stateRootOf(this.cellKv, id);
    const stored = h ? (h.flags & HANDLE_FLAGS.initedStateBoc) !== 0 : false;
    const rootHash = listed ?? (stored ? (h?.state ?? null) : null);
    if (!rootHash) return null;
    if (!(await this.store.record(rootHash))) {
      throw new NodeDbPrunedError(
        `node db ${this.root}: the state root ${rootHash.toString('hex')} of block ${show(id)} is not in celldb (garbage-collected)`,
        { details: { block: blockKey(id) } },
      );
    }
    return rootHash;
  }

  private async readAccounts(id: BlockIdExt, addresses: readonly Buffer[]): Promise<AccountStateAfter[]> {
    this.checkOpen();
    if (this.store) {
      const root = await this.findStateRoot(id);
      if (root) {
        try {
          return await readAccountStates(this.store, root, id.workchain, addresses);
        } catch (e) {
          if (!(e instanceof NodeDbMissingCellError)) throw e;
          // a catch-up during the walk may have applied a gc: the root is checked again, then give up
          const again = await this.findStateRoot(id);
          if (again) {
            try {
              return await readAccountStates(this.store, again, id.workchain, addresses);
            } catch (e2) {
              if (!(e2 instanceof NodeDbMissingCellError)) throw e2;
            }
          }
          throw new NodeDbPrunedError(`node db ${this.root}: state of block ${show(id)}: ${e.message}`, {
            cause: e,
            details: { block: blockKey(id) },
          });
        }
      }
    }
    const fetched = await this.readBlock(id, undefined);
    return statesFromNewState(stateUpdateNewSide(fetched.root), id.workchain, addresses);
  }

  // ---------------------------------------------------------------------------------------------------------
  // The public reads: format errors of the parts below surface as NodeDbCorruptError

  mcBlockId(seqno: number): Promise<BlockIdExt | null> {
    return asCorrupt(this.findMcBlockId(seqno));
  }

  block(id: BlockIdExt): Promise<FetchedBlock> {
    return asCorrupt(this.getBlock(id));
  }

  shardBlocksCommittedBy(mcSeqno: number): Promise<BlockIdExt[]> {
    return asCorrupt(this.walkShardBlocks(mcSeqno));
  }

  handle(id: BlockIdExt): Promise<BlockHandle | null> {
    return asCorrupt(this.findHandle(id));
  }

  lookupBlock(workchain: number, shard: bigint, by: NodeDbLookup): Promise<BlockIdExt | null> {
    return asCorrupt(this.findBlock(workchain, shard, by));
  }

  tip(): Promise<NodeDbTip> {
    return asCorrupt(this.readTip());
  }

  coverage(): Promise<NodeDbCoverage> {
    return asCorrupt(this.readCoverage());
  }

  stateRoot(id: BlockIdExt): Promise<Buffer | null> {
    return asCorrupt(this.findStateRoot(id));
  }

  accountStates(id: BlockIdExt, addresses: readonly Buffer[]): Promise<AccountStateAfter[]> {
    return asCorrupt(this.readAccounts(id, addresses));
  }

  // ---------------------------------------------------------------------------------------------------------
  // Tail and close

  async *tail(
    fromMc: number,
    opts: NodeDbTailOptions = {},
  ): AsyncGenerator<{ mc: BlockIdExt; shardBlocks: BlockIdExt[] }> {
    checkSeqno(fromMc, 'tail');
    const { signal } = opts;
    const pollMs = opts.pollMs ?? (opts.eventFifo ? 5000 : 500);
    let wake: (() => void) | null = null;
    let poked = false;
    const poke = () => {
      poked = true;
      wake?.();
    };
    const fifoStop = new AbortController();
    if (opts.eventFifo) {
      const fifo = openEventFifo(
        opts.eventFifo,
        (e) => {
          if (e.kind === 'blockApplied' && e.id.workchain === -1) poke();
        },
        fifoStop.signal,
        { onError: (err) => this.log('warn', `node db: event FIFO: ${err.message}`) },
      );
      fifo.closed.catch((err: Error) => this.log('warn', `node db: event FIFO stopped: ${err.message}`));
    }
    signal?.addEventListener('abort', poke);
    this.tailWakers.add(poke);
    const sleep = () =>
      new Promise<void>((res) => {
        if (poked || signal?.aborted || this.closed) {
          poked = false;
          res();
          return;
        }
        const done = () => {
          clearTimeout(timer);
          wake = null;
          poked = false;
          res();
        };
        const timer = setTimeout(done, pollMs);
        wake = done;
      });
    let n = Math.max(1, fromMc); // 0 is the zero state, not a block
    let waits = 0;
    try {
      while (!signal?.aborted && !this.closed) {
        await this.catchUp();
        const t = await this.readTip();
        const head = t.shardClient ?? t.archived;
        let progressed = false;
        while (head !== null && n <= head && !signal?.aborted && !this.closed) {
          let item: { mc: BlockIdExt; shardBlocks: BlockIdExt[] };
          try {
            const mc = await this.findMcBlockId(n);
            if (!mc) throw new NodeDbNotYetVisibleError(`node db ${this.root}: masterchain block ${n} not found yet`);
            item = { mc, shardBlocks: await this.walkShardBlocks(n) };
          } catch (e) {
            if (!(e instanceof NodeDbNotYetVisibleError)) throw e;
            if (++waits % 20 === 0) {
              this.log('warn', `node db: masterchain block ${n} is below the tip ${head} but not readable yet`, {
                attempts: waits,
                error: e.message,
              });
            }
            break;
          }
          waits = 0;
          progressed = true;
          yield item;
          n++;
        }
        if (!progressed) await sleep();
      }
    } finally {
      signal?.removeEventListener('abort', poke);
      this.tailWakers.delete(poke);
      fifoStop.abort();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const wake of this.tailWakers) wake();
    await this.catchingUp?.catch(() => {});
    await this.indexes?.close();
    for (const kv of [this.globalKv, this.stateKv, this.cellKv]) await kv?.close();
    if (this.ownSecondary) await rm(this.secondaryBase, { recursive: true, force: true });
  }

  private checkOpen(): void {
    if (this.closed) throw new Error(`node db ${this.root}: closed`);
  }
}

async function asCorrupt<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof NodeDbFormatError) throw new NodeDbCorruptError(e.message, { cause: e });
    throw e;
  }
}

/** Whether shard `s` (a shard id) contains the 64-bit point `point`. */
function shardContains(s: bigint, point: bigint): boolean {
  const low = s & -s;
  const mask = U64 ^ ((low << 1n) - 1n);
  return (s & mask) === (point & mask);
}

/** Whether a pack of a package could hold block `id` (its workchain and shard prefix, when the layout separates them). */
function packCanHold(layout: SliceLayout, p: SlicePack, id: BlockIdExt): boolean {
  if (layout.kind === 'unsliced' || layout.shardSplitDepth === undefined) return true;
  if (id.workchain === -1) return p.workchain === -1;
  return p.workchain === id.workchain && shardContains(p.shard, id.shard);
}

/** The file names a pack of the layout can have on disk (both separators of the shard-separated generations). */
function packPaths(root: string, packageId: number, layout: SliceLayout, p: SlicePack): string[] {
  if (layout.kind === 'unsliced') return [packPath(root, { generation: 'unsliced', packageId })];
  const base = { packageId, sliceStart: p.seqno };
  if (layout.shardSplitDepth === undefined) return [packPath(root, { ...base, generation: 'sliced' })];
  if (p.workchain === -1) return [packPath(root, { ...base, generation: 'shard-split', workchain: -1 })];
  const split = { ...base, workchain: p.workchain, shard: p.shard, splitDepth: layout.shardSplitDepth };
  return [
    packPath(root, { ...split, generation: 'shard-split' }),
    packPath(root, { ...split, generation: 'shard-split-colon' }),
  ];
}

async function firstExisting(paths: readonly string[]): Promise<string | null> {
  for (const p of paths) if (await pathExists(p)) return p;
  return null;
}

function checkSeqno(v: number, what: string): void {
  if (!Number.isInteger(v) || v < 0 || v >= 2 ** 32) throw new RangeError(`${what}: bad masterchain seqno ${v}`);
}
