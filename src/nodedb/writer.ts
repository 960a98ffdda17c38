// NodeDbWriter: writes a TON node's on-disk tree (archive packs, slice indexes with file offsets, handles and
// ltdb, the global index, the state db and celldb) from blocks we have: the devnet's, or real blocks. It is
// how tests get node-format data without a node (no public node database exists to test against), and how
// `tongate devnet export-node-db` exports the devnet. It follows the node's write pattern (node-db.md §2, §4.2):
// a block's pack entry is written (and synced) before the index transaction that points at it, index
// transactions commit without sync under manual_wal_flush, celldb and the state db commit with sync.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Cell } from '@ton/core';
import { type BlockIdExt, type BlockInfo, MASTER_SHARD, prevBlockIds, stateUpdateNewSide } from '../ton/index.ts';
import { appendStateOps, cellDbWriteOps } from './celldb/index.ts';
import { fileName } from './fileref.ts';
import {
  type GlobalIndex,
  globalIndexOps,
  type PackageInfo,
  packageOp,
  readGlobalIndex,
  readPackage,
  readPackages,
} from './global-index.ts';
import { type BlockHandle, HANDLE_FLAGS } from './handle.ts';
import { openRocks } from './kv/rocks.ts';
import type { KvOp, KvWriter } from './kv/types.ts';
import {
  type ArchiveGeneration,
  cellDbDir,
  globalIndexDir,
  indexDir,
  PACKAGE_SPAN,
  packageFolder,
  packPath,
  parsePackFileName,
  SLICE_SIZE,
  shardPrefix,
  sliceStart,
  stateDbDir,
} from './layout.ts';
import { createPackWriter, type PackWriter } from './pack.ts';
import { blockInfoOf } from './shard-walk.ts';
import {
  fileOffsetOp,
  handleOp,
  ltdbAppendOps,
  ltdbEntries,
  ltdbShards,
  readHandle,
  readSliceLayout,
  type SliceLayout,
  sliceLayoutOps,
  slicePacks,
} from './slice-index.ts';
import { dbVersionOp, initBlockOp, readShardClient, shardClientOp } from './state-db.ts';

/** A block to write: its id and file bytes; `state` = its full shard state root, when celldb is written. */
export interface WriterBlock {
  id: BlockIdExt;
  bytes: Buffer;
  root: Cell;
  state?: Cell;
}

/** One applied masterchain block and the shard blocks it commits (oldest first per shard). */
export interface WriterStep {
  mc: WriterBlock;
  shardBlocks: WriterBlock[];
}

export type KvOpener = (
  path: string,
  opts: { cellRefcountMerge: boolean; manualWalFlush: boolean },
) => Promise<KvWriter>;

export interface NodeDbWriterOptions {
  root: string;
  /** Archive layout generation of the packs written (default: the current one, 'shard-split'). */
  generation?: ArchiveGeneration;
  /** Shard-prefix bits that separate workchain packs (shard-split generations; default 0: one pack per workchain). */
  splitDepth?: number;
  /** Write the RocksDB parts (indexes, global index, state db, celldb). Off: packs only (a node whose indexes we cannot read). */
  indexes?: boolean;
  /** How celldb records are written: plain Puts, or Puts plus Merge refcount deltas (celldb v2, the default since 2025-11). */
  cellDb?: 'none' | 'plain' | 'merge';
  /** Store subtrees at this depth as −1+BoC records (the node's --celldb-compress-depth). */
  compressDepth?: number;
  /** Index commits: 'node' = no sync and manual WAL flush (readers lag until flushIndexes); 'sync' = visible at once. */
  indexCommit?: 'node' | 'sync';
  /** Opens a RocksDB folder for writing (default: the addon's primary mode). */
  openKv?: KvOpener;
  /**
   * Masterchain seqnos that open a package as a key block would (tests: several packages without key blocks, e.g.
   * to garbage-collect one). Readers cannot tell: a package is whatever the global index lists.
   */
  newPackageAt?: readonly number[];
  /** Called after each block is fully written (for a --db-event-fifo writer). */
  onApplied?: (id: BlockIdExt) => void | Promise<void>;
  /**
   * Continue a tree this writer wrote earlier (with the same generation and split depth) instead of starting
   * one: the package list, the newest package's layout and packs, and the newest handle of each shard in that
   * package are read back from the indexes. Needs `indexes`. A shard whose newest block sits in an older package
   * gets no next link to its successor.
   */
  resume?: boolean;
}

export interface NodeDbWriter {
  append(step: WriterStep): Promise<void>;
  /**
   * Shard blocks stored without their masterchain block (isolated real blocks): each goes where the node keeps a
   * block committed by masterchain block `mcSeqno` (its package and slice, handle ref = `mcSeqno`). The state db
   * is not touched: only a masterchain block moves the shard client. `mcSeqno` must not go below the package
   * being written, as packages only grow.
   */
  appendBlocks(mcSeqno: number, blocks: readonly WriterBlock[]): Promise<void>;
  /** Makes index commits visible to readers (FlushWAL), as the node's WAL buffer does from time to time. */
  flushIndexes(): Promise<void>;
  /**
   * Marks an archive package deleted in the global index (archive-ttl gc), and removes its index folder and packs
   * when `removeFiles`, as the node's gc does. Not the package being written.
   */
  deletePackage(packageId: number, opts?: { removeFiles?: boolean }): Promise<void>;
  readonly written: { blocks: number; packages: number[] };
  close(): Promise<void>;
}

interface OpenPackage {
  info: PackageInfo;
  kv: KvWriter | null;
  layout: SliceLayout;
  /** Pack writers of this package by path, with their slice index in the layout. */
  packs: Map<string, { writer: PackWriter; slice: number }>;
  /** A resumed package's packs not reopened yet: path → slice index and committed size. */
  reopen?: Map<string, { slice: number; size: number }>;
}

const defaultOpenKv: KvOpener = (path, o) =>
  openRocks(path, {
    mode: 'primary',
    createIfMissing: true,
    cellRefcountMerge: o.cellRefcountMerge,
    manualWalFlush: o.manualWalFlush,
  });

export async function openNodeDbWriter(opts: NodeDbWriterOptions): Promise<NodeDbWriter> {
  const generation = opts.generation ?? 'shard-split';
  const splitDepth = opts.splitDepth ?? 0;
  const withIndexes = opts.indexes ?? true;
  const cellMode = withIndexes ? (opts.cellDb ?? 'merge') : 'none';
  const nodeCommit = (opts.indexCommit ?? 'node') === 'node';
  const openKv = opts.openKv ?? defaultOpenKv;
  const kvs: KvWriter[] = [];
  const open = async (path: string, o: { cellRefcountMerge: boolean; manualWalFlush: boolean }) => {
    // RocksDB creates only the last folder of the path
    await mkdir(dirname(path), { recursive: true });
    const kv = await openKv(path, o);
    kvs.push(kv);
    return kv;
  };
  const globalKv = withIndexes
    ? await open(globalIndexDir(opts.root), { cellRefcountMerge: false, manualWalFlush: nodeCommit })
    : null;
  const stateKv = withIndexes
    ? await open(stateDbDir(opts.root), { cellRefcountMerge: false, manualWalFlush: false })
    : null;
  const cellKv =
    cellMode !== 'none' ? await open(cellDbDir(opts.root), { cellRefcountMerge: true, manualWalFlush: false }) : null;
  if (stateKv) await stateKv.write([dbVersionOp(2)], { sync: true });

  const global: GlobalIndex = { packages: [], keyPackages: [], tempPackages: [] };
  let current: OpenPackage | null = null;
  let lastKeySeqno = 0;
  let initWritten = false;
  const written = { blocks: 0, packages: [] as number[] };
  // The newest handle of each shard, so its next links can be set when its successors arrive.
  const tops = new Map<string, { handle: BlockHandle; kv: KvWriter | null }>();
  const shardKey = (id: { workchain: number; shard: bigint }) => `${id.workchain}:${id.shard}`;

  /** The packages written (or resumed) here: their global-index info and index, for deletePackage. */
  const packageKvs = new Map<number, { info: PackageInfo; kv: KvWriter | null }>();

  const commitIndex = async (kv: KvWriter | null, ops: KvOp[]) => {
    if (kv && ops.length > 0) await kv.write(ops, { sync: !nodeCommit });
  };

  const openPackage = async (id: number): Promise<OpenPackage> => {
    const kv = withIndexes
      ? await open(indexDir(opts.root, id), { cellRefcountMerge: false, manualWalFlush: nodeCommit })
      : null;
    const layout: SliceLayout =
      generation === 'unsliced'
        ? { kind: 'unsliced', committedSize: 0 }
        : {
            kind: 'sliced',
            slices: 0,
            sliceSize: SLICE_SIZE,
            sizes: [],
            versions: [],
            info: [],
            ...(generation === 'sliced' ? {} : { shardSplitDepth: splitDepth }),
          };
    const info: PackageInfo = { id, key: false, temp: false, firstBlocks: [], deleted: false };
    global.packages.push(id);
    written.packages.push(id);
    if (globalKv) await globalKv.write([...globalIndexOps(global), packageOp(info)], { sync: !nodeCommit });
    packageKvs.set(id, { info, kv });
    return { info, kv, layout, packs: new Map() };
  };

  /** The pack a block goes to, opened (and registered in the layout) on first use. */
  const packFor = async (pkg: OpenPackage, mcSeqno: number, id: BlockIdExt) => {
    const start = generation === 'unsliced' ? pkg.info.id : sliceStart(pkg.info.id, mcSeqno, SLICE_SIZE);
    const path = packPath(opts.root, {
      generation,
      packageId: pkg.info.id,
      sliceStart: start,
      workchain: id.workchain,
      shard: id.shard,
      splitDepth,
    });
    let pack = pkg.packs.get(path);
    const old = pack ? undefined : pkg.reopen?.get(path);
    if (old) {
      // a pack of a resumed package: drop anything past its committed size, as the node does on reopening
      pack = { writer: await createPackWriter(path, { truncateTo: old.size }), slice: old.slice };
      pkg.packs.set(path, pack);
    }
    if (!pack) {
      const writer = await createPackWriter(path, {});
      let slice = 0;
      if (pkg.layout.kind === 'sliced') {
        slice = pkg.layout.slices++;
        pkg.layout.sizes.push(0);
        pkg.layout.versions.push(1);
        pkg.layout.info.push(
          generation === 'sliced'
            ? undefined
            : {
                seqno: start,
                workchain: id.workchain,
                shard: id.workchain === -1 ? MASTER_SHARD : shardPrefix(id.shard, splitDepth),
              },
        );
      }
      pack = { writer, slice };
      pkg.packs.set(path, pack);
    }
    return pack;
  };

  const writeBlock = async (pkg: OpenPackage, mcSeqno: number, b: WriterBlock, info: BlockInfo) => {
    const pack = await packFor(pkg, mcSeqno, b.id);
    const offset = await pack.writer.append(fileName('block', b.id), b.bytes);
    await pack.writer.sync();
    if (pkg.layout.kind === 'unsliced') pkg.layout.committedSize = pack.writer.size;
    else pkg.layout.sizes[pack.slice] = pack.writer.size;

    const master = b.id.workchain === -1;
    // the MERKLE_UPDATE's new hash is the level-0 hash of its new side (ref 1)
    const newSide = stateUpdateNewSide(b.root);
    if (!newSide) throw new Error(`node db writer ${opts.root}: block ${fileName('block', b.id)} has no state update`);
    const prevs = prevBlockIds(info);
    const flags =
      HANDLE_FLAGS.movedNew |
      HANDLE_FLAGS.applied |
      HANDLE_FLAGS.initedState |
      HANDLE_FLAGS.initedIsKeyBlock |
      HANDLE_FLAGS.initedTs |
      HANDLE_FLAGS.initedLt |
      HANDLE_FLAGS.received |
      HANDLE_FLAGS.initedMergeBefore |
      HANDLE_FLAGS.initedSplitAfter |
      HANDLE_FLAGS.initedPrevLeft |
      // the real handles of masterchain blocks carry no masterchain ref
      (master ? HANDLE_FLAGS.masterchain : HANDLE_FLAGS.initedMasterchainRef) |
      (info.keyBlock ? HANDLE_FLAGS.isKeyBlock : 0) |
      (info.beforeSplit ? HANDLE_FLAGS.splitAfter : 0) |
      // the node's set_merge(after_merge): merge_before says the block's parents were merged into it
      (info.afterMerge ? HANDLE_FLAGS.mergeBefore : 0) |
      (prevs.length === 2 ? HANDLE_FLAGS.initedPrevRight : 0) |
      (b.state && cellKv ? HANDLE_FLAGS.initedStateBoc : 0);
    const handle: BlockHandle = {
      id: b.id,
      flags,
      prevLeft: prevs[0],
      ...(prevs[1] ? { prevRight: prevs[1] } : {}),
      lt: info.endLt,
      ts: info.genUtime,
      state: newSide.hash(0),
      ...(master ? {} : { masterchainRefSeqno: mcSeqno }),
    };
    const ops: KvOp[] = [fileOffsetOp('block', b.id, offset), handleOp(handle)];
    // the parents' next links, as the node sets them when the child is applied
    for (const p of prevs) {
      const parent = tops.get(shardKey(p));
      if (!parent || parent.handle.id.seqno !== p.seqno) continue;
      const h = parent.handle;
      // after a split the right child (the bit below the parent's prefix set) is next_right; after a merge the
      // merged block is next_left of both parents
      const low = b.id.shard & -b.id.shard;
      const right = info.afterSplit && (b.id.shard & (low << 1n)) !== 0n;
      if (right) {
        h.nextRight = b.id;
        h.flags |= HANDLE_FLAGS.initedNextRight;
      } else {
        h.nextLeft = b.id;
        h.flags |= HANDLE_FLAGS.initedNextLeft;
      }
      if (parent.kv === pkg.kv) ops.push(handleOp(h));
      else await commitIndex(parent.kv, [handleOp(h)]);
    }
    tops.set(shardKey(b.id), { handle, kv: pkg.kv });
    if (pkg.kv) {
      ops.push(...(await ltdbAppendOps(pkg.kv, { id: b.id, lt: info.endLt, ts: info.genUtime })));
      ops.push(...sliceLayoutOps(pkg.layout));
    }
    await commitIndex(pkg.kv, ops);

    if (!pkg.info.firstBlocks.some((f) => f.workchain === b.id.workchain && f.shard === b.id.shard)) {
      pkg.info.firstBlocks.push({
        workchain: b.id.workchain,
        shard: b.id.shard,
        seqno: b.id.seqno,
        unixtime: info.genUtime,
        lt: info.endLt,
      });
      if (globalKv) await globalKv.write([packageOp(pkg.info)], { sync: !nodeCommit });
    }
    if (b.state && cellKv) {
      const kv = cellKv;
      const cellOps = await cellDbWriteOps(b.state, {
        has: async (hash) => (await kv.get(hash)) !== null,
        get: (hash) => kv.get(hash),
        mode: cellMode === 'merge' ? 'merge' : 'plain',
        ...(opts.compressDepth === undefined ? {} : { compressDepth: opts.compressDepth }),
      });
      cellOps.push(...(await appendStateOps(kv, b.id, b.state.hash())));
      await kv.write(cellOps, { sync: true });
    }
    written.blocks++;
    await opts.onApplied?.(b.id);
  };

  if (opts.resume) {
    if (!globalKv || !stateKv) throw new Error(`node db writer ${opts.root}: resume needs the indexes`);
    const index = await readGlobalIndex(globalKv);
    if (index && index.packages.length > 0) {
      global.packages.push(...index.packages);
      global.keyPackages.push(...index.keyPackages);
      global.tempPackages.push(...index.tempPackages);
      const id = Math.max(...index.packages);
      const info = (await readPackages(globalKv, index)).find((p) => !p.key && !p.temp && p.id === id);
      const kv = await open(indexDir(opts.root, id), { cellRefcountMerge: false, manualWalFlush: nodeCommit });
      const layout = await readSliceLayout(kv);
      if (!info || !layout) throw new Error(`node db writer ${opts.root}: package ${id} has no info or no layout`);
      const layoutGeneration =
        layout.kind === 'unsliced' ? 'unsliced' : layout.shardSplitDepth === undefined ? 'sliced' : 'shard-split';
      if (
        layoutGeneration !== generation.replace('-colon', '') ||
        (layout.kind === 'sliced' && layout.shardSplitDepth !== undefined && layout.shardSplitDepth !== splitDepth)
      ) {
        throw new Error(
          `node db writer ${opts.root}: package ${id} is laid out as ${layoutGeneration}` +
            `${layout.kind === 'sliced' && layout.shardSplitDepth !== undefined ? ` with split depth ${layout.shardSplitDepth}` : ''}` +
            `, not as ${generation} with split depth ${splitDepth}`,
        );
      }
      const reopen = new Map<string, { slice: number; size: number }>();
      for (const p of slicePacks(id, layout)) {
        const path = packPath(opts.root, {
          generation,
          packageId: id,
          sliceStart: p.seqno,
          workchain: p.workchain,
          shard: p.shard,
          splitDepth,
        });
        reopen.set(path, { slice: p.idx, size: p.committedSize });
      }
      current = { info, kv, layout, packs: new Map(), reopen };
      packageKvs.set(id, { info, kv });
      // A key block opens a package at its own seqno, so no key block after this package's first seqno exists.
      lastKeySeqno = id;
      for (const s of await ltdbShards(kv)) {
        const last = (await ltdbEntries(kv, s.workchain, s.shard)).at(-1);
        const handle = last ? await readHandle(kv, last.id) : null;
        if (handle) tops.set(shardKey(handle.id), { handle, kv });
      }
    }
    initWritten = (await readShardClient(stateKv)) !== null;
  }

  /** The package of masterchain seqno `n` (opening it; `key` = n is a key block, which opens one at n). */
  const enterPackage = async (n: number, key: boolean): Promise<OpenPackage> => {
    if (current && n < current.info.id) {
      throw new Error(
        `node db writer ${opts.root}: masterchain seqno ${n} is below package ${current.info.id}, which is being written (packages only grow)`,
      );
    }
    if (key) lastKeySeqno = n;
    const pkgId = Math.max(Math.floor(n / PACKAGE_SPAN) * PACKAGE_SPAN, lastKeySeqno);
    if (!current || current.info.id !== pkgId) {
      // the node never appends to an older package again: its packs are final
      if (current) for (const p of current.packs.values()) await p.writer.close();
      current = await openPackage(pkgId);
    }
    return current;
  };

  return {
    written,
    async append(step) {
      // headers only: a block's transactions are not needed to file it
      const mcInfo = blockInfoOf(step.mc.root, fileName('block', step.mc.id));
      const n = step.mc.id.seqno;
      const pkg = await enterPackage(n, mcInfo.keyBlock || (opts.newPackageAt?.includes(n) ?? false));
      for (const sb of step.shardBlocks) {
        await writeBlock(pkg, n, sb, blockInfoOf(sb.root, fileName('block', sb.id)));
      }
      await writeBlock(pkg, n, step.mc, mcInfo);
      if (stateKv) {
        const ops: KvOp[] = [shardClientOp(step.mc.id)];
        if (!initWritten) ops.push(initBlockOp(step.mc.id));
        initWritten = true;
        await stateKv.write(ops, { sync: true });
      }
    },
    async appendBlocks(mcSeqno, blocks) {
      if (!Number.isInteger(mcSeqno) || mcSeqno < 1 || mcSeqno >= 2 ** 32) {
        throw new RangeError(`node db writer ${opts.root}: bad masterchain seqno ${mcSeqno}`);
      }
      const master = blocks.find((b) => b.id.workchain === -1);
      if (master) {
        throw new Error(
          `node db writer ${opts.root}: appendBlocks takes shard blocks; masterchain block ${master.id.seqno} goes through append`,
        );
      }
      const pkg = await enterPackage(mcSeqno, opts.newPackageAt?.includes(mcSeqno) ?? false);
      for (const b of blocks) await writeBlock(pkg, mcSeqno, b, blockInfoOf(b.root, fileName('block', b.id)));
    },
    async flushIndexes() {
      for (const kv of kvs) await kv.flushWal(true);
    },
    async deletePackage(packageId, dopts = {}) {
      if (!globalKv) throw new Error(`node db writer ${opts.root}: deletePackage needs the indexes`);
      if (current?.info.id === packageId) {
        throw new Error(`node db writer ${opts.root}: package ${packageId} is still being written`);
      }
      const known = packageKvs.get(packageId);
      const info = known?.info ?? (await readPackage(globalKv, packageId, false, false));
      if (!info) throw new Error(`node db writer ${opts.root}: no archive package ${packageId} in the global index`);
      info.deleted = true;
      await globalKv.write([packageOp(info)], { sync: !nodeCommit });
      if (!dopts.removeFiles) return;
      const kv = known?.kv;
      if (kv) {
        await kv.close();
        kvs.splice(kvs.indexOf(kv), 1);
        for (const t of tops.values()) if (t.kv === kv) t.kv = null;
        known.kv = null;
      }
      await rm(indexDir(opts.root, packageId), { recursive: true, force: true });
      // its packs: those whose slice starts in [packageId, the next package)
      const end = Math.min(...global.packages.filter((id) => id > packageId), Number.POSITIVE_INFINITY);
      const base = join(opts.root, 'archive', 'packages');
      for (const folder of await readdir(base)) {
        if (!/^arch\d{4}$/.test(folder) || folder < packageFolder(packageId)) continue;
        for (const name of await readdir(join(base, folder))) {
          const pack = parsePackFileName(name);
          if (pack && pack.seqno >= packageId && pack.seqno < end) await rm(join(base, folder, name));
        }
      }
    },
    async close() {
      if (current) for (const p of current.packs.values()) await p.writer.close();
      for (const kv of kvs.reverse()) await kv.close();
    },
  };
}
