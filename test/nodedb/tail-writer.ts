// The writer process of tail.test.ts: plays a TON node appending to its database while the test's reader tails it.
// Run as `node --import tsx test/nodedb/tail-writer.ts '<TailWriterConfig as JSON>'`. It appends the steps of
// tail-steps.ts with openNodeDbWriter (the node's write pattern: pack entries synced before index transactions,
// which commit without sync under manual_wal_flush and stay invisible to other processes until a WAL flush), one
// step every `delayMs`, flushing the index WAL every `flushEvery` steps, and optionally:
// - posts db.event.blockApplied records to a FIFO, as `validator-engine --db-event-fifo` does (node-db.md §4.4);
// - holds each flush until the test says `go` on stdin, so the test can see blocks read while the index lags;
// - after step `tearAfter`, writes half of the next step's first pack entry and waits to be killed (-9);
// - on start, cuts every pack back to its last whole entry (packs-only trees), or resumes a tree with indexes
//   (openNodeDbWriter's resume cuts the packs back to the committed sizes the index kept), as a node does when it
//   reopens its packs after a crash;
// - leaves the first package index folder empty for a while (a package index being created).
// It reports on stdout as JSON lines: ready, fifo-reader, resumed, truncated, step, flush-wait, flush, torn, done.
import { spawnSync } from 'node:child_process';
import { appendFile, constants, mkdir, open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { encodeDbEvent } from '../../src/nodedb/events.ts';
import { fileName } from '../../src/nodedb/fileref.ts';
import { readGlobalIndex } from '../../src/nodedb/global-index.ts';
import { openRocks } from '../../src/nodedb/kv/rocks.ts';
import {
  type ArchiveGeneration,
  globalIndexDir,
  indexDir,
  PACKAGE_SPAN,
  packPath,
  sliceStart,
} from '../../src/nodedb/layout.ts';
import { createPackWriter, openPackReader, PACK_ENTRY_MAGIC } from '../../src/nodedb/pack.ts';
import { readLtdbDesc } from '../../src/nodedb/slice-index.ts';
import { openNodeDbWriter } from '../../src/nodedb/writer.ts';
import { type BlockIdExt, loadBlockCell } from '../../src/ton/index.ts';
import { loadTailSteps } from './tail-steps.ts';

export interface TailWriterConfig {
  root: string;
  /** The folder of the real packs (vectors/node-db). */
  packsDir: string;
  /** Steps (masterchain seqnos) to write, inclusive. */
  from: number;
  to: number;
  delayMs: number;
  generation: ArchiveGeneration;
  /** Write the RocksDB parts; false = packs only. */
  indexes: boolean;
  /** Flush the index WAL after every k-th step (0: only when done). */
  flushEvery: number;
  /** Before each flush, report flush-wait and wait for a `go` line on stdin. */
  gateFlushes: boolean;
  /** The --db-event-fifo path: created when missing; the writer waits for a reader before its first step. */
  fifo?: string;
  /** After this step, write half of the next step's (masterchain) pack entry, report torn, and wait to be killed. */
  tearAfter?: number;
  /** Before writing, cut every pack back to its last whole entry (packs-only trees; see `resume` otherwise). */
  truncateTorn: boolean;
  /**
   * Continue a tree a killed writer left (openNodeDbWriter's resume: packs cut back to the committed sizes in the
   * index) from the masterchain block after the newest one the index kept; `from` is then ignored.
   */
  resume?: boolean;
  /** Before the first step, leave package 0's index folder empty this long (a package index being created). */
  emptyIndexMs?: number;
}

/** One report line. */
export type TailWriterEvent =
  | { ev: 'ready' }
  | { ev: 'fifo-reader' }
  | { ev: 'truncated'; path: string; from: number; to: number }
  | { ev: 'resumed'; from: number }
  | { ev: 'step'; n: number; at: number }
  | { ev: 'flush-wait'; upTo: number }
  | { ev: 'flush'; upTo: number; at: number }
  | { ev: 'torn'; next: number; path: string; offset: number; wrote: number; of: number }
  | { ev: 'done' };

const MC_SHARD = 0x8000000000000000n;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const report = (e: TailWriterEvent) => process.stdout.write(`${JSON.stringify(e)}\n`);

/** `go` lines from the test, one per gated flush. */
function goSignals(): () => Promise<void> {
  const waiting: Array<() => void> = [];
  let banked = 0;
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() !== 'go') return;
    const w = waiting.shift();
    if (w) w();
    else banked++;
  });
  return () => {
    if (banked > 0) {
      banked--;
      return Promise.resolve();
    }
    return new Promise<void>((r) => waiting.push(r));
  };
}

async function allPacks(root: string): Promise<string[]> {
  const base = join(root, 'archive', 'packages');
  const out: string[] = [];
  for (const folder of await readdir(base).catch(() => [] as string[])) {
    for (const f of await readdir(join(base, folder)).catch(() => [] as string[])) {
      if (f.endsWith('.pack')) out.push(join(base, folder, f));
    }
  }
  return out.sort();
}

/** A node reopening its packs after a crash keeps only whole entries (it cuts back to the committed size). */
async function truncateTornPacks(root: string): Promise<void> {
  for (const path of await allPacks(root)) {
    const r = await openPackReader(path);
    const { end, torn } = await r.scan();
    const size = r.size;
    await r.close();
    if (!torn) continue;
    const w = await createPackWriter(path, { truncateTo: end });
    await w.close();
    report({ ev: 'truncated', path, from: size, to: end });
  }
}

/**
 * The newest masterchain block the index of the newest package lists: what survived of the index commits (a kill
 * loses those still in the WAL buffer, as a node crash does).
 */
async function lastIndexedMc(root: string): Promise<number> {
  const global = await openRocks(globalIndexDir(root), { mode: 'readonly' });
  let newest: number | undefined;
  try {
    newest = (await readGlobalIndex(global))?.packages.reduce((a, b) => Math.max(a, b), 0);
  } finally {
    await global.close();
  }
  if (newest === undefined) return 0;
  const index = await openRocks(indexDir(root, newest), { mode: 'readonly' });
  try {
    return (await readLtdbDesc(index, -1, MC_SHARD))?.lastSeqno ?? 0;
  } finally {
    await index.close();
  }
}

/** The node's FIFO write: open without blocking, one 84-byte record, close; dropped when nobody reads. */
async function postEvent(fifo: string, id: BlockIdExt): Promise<boolean> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENXIO') return false;
    throw e;
  }
  try {
    await fh.write(encodeDbEvent({ kind: 'blockApplied', id }));
  } finally {
    await fh.close();
  }
  return true;
}

async function ensureFifo(fifo: string): Promise<void> {
  const st = await stat(fifo).catch(() => null);
  if (st?.isFIFO()) return;
  if (st) throw new Error(`${fifo} exists and is not a FIFO`);
  const r = spawnSync('mkfifo', ['-m', '600', fifo], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mkfifo ${fifo}: ${r.error?.message ?? r.stderr}`);
}

/**
 * The test needs every masterchain event to arrive, so the writer starts once a reader holds the FIFO (a node
 * would drop the events meanwhile).
 */
async function waitForReader(fifo: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      // a non-blocking open for writing succeeds only while some process has the FIFO open for reading
      const fh = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      await fh.close();
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENXIO') throw e;
    }
    await sleep(20);
  }
  throw new Error(`no reader opened ${fifo} within 60 s`);
}

/** Half of `data`'s pack entry, appended raw: what a crash in the middle of the node's write leaves. */
async function tearEntry(path: string, name: string, data: Buffer): Promise<{ offset: number; wrote: number }> {
  const w = await createPackWriter(path); // creates the pack with its header if this step opens a new slice
  const offset = w.size;
  await w.close();
  const nameBytes = Buffer.from(name, 'latin1');
  const head = Buffer.alloc(8);
  head.writeUInt16LE(PACK_ENTRY_MAGIC, 0);
  head.writeUInt16LE(nameBytes.length, 2);
  head.writeUInt32LE(data.length, 4);
  const half = data.subarray(0, Math.floor(data.length / 2));
  const bytes = Buffer.concat([head, nameBytes, half]);
  await appendFile(path, bytes, { flush: true });
  return { offset, wrote: bytes.length };
}

async function main(cfg: TailWriterConfig): Promise<void> {
  const steps = await loadTailSteps(cfg.packsDir);
  if (cfg.from < 1 || cfg.to > steps.length || cfg.from > cfg.to || (cfg.resume && !cfg.indexes)) {
    throw new Error(`steps ${cfg.from}..${cfg.to} are outside 1..${steps.length}`);
  }
  if (cfg.truncateTorn) await truncateTornPacks(cfg.root);
  let from = cfg.from;
  if (cfg.resume) {
    from = (await lastIndexedMc(cfg.root)) + 1;
    report({ ev: 'resumed', from });
  }
  const gate = goSignals();
  const fifo = cfg.fifo;
  if (fifo) await ensureFifo(fifo);
  const writer = await openNodeDbWriter({
    root: cfg.root,
    generation: cfg.generation,
    indexes: cfg.indexes,
    indexCommit: 'node',
    resume: cfg.resume ?? false,
    ...(fifo
      ? {
          onApplied: async (id: BlockIdExt) => {
            // masterchain blocks are posted after the whole step (the shard client has finished them)
            if (id.workchain !== -1) await postEvent(fifo, id);
          },
        }
      : {}),
  });
  // a node's folder has archive/ from its first start on (the reader refuses a folder without it)
  await mkdir(join(cfg.root, 'archive', 'packages'), { recursive: true });
  // RocksDB makes the folder first and its files after: hold that state open for a while
  if (cfg.emptyIndexMs) await mkdir(indexDir(cfg.root, 0), { recursive: true });
  report({ ev: 'ready' });
  if (cfg.emptyIndexMs) await sleep(cfg.emptyIndexMs);
  if (fifo) {
    await waitForReader(fifo);
    report({ ev: 'fifo-reader' });
  }
  // the package rule of the writer (and the node): a new package at every 20,000 and at every key block
  let lastKey = 0;
  for (const s of steps.slice(0, from - 1)) if (loadBlockCell(s.mc.root).info.keyBlock) lastKey = s.mc.id.seqno;

  for (let n = from; n <= cfg.to; n++) {
    const step = steps[n - 1]!;
    if (loadBlockCell(step.mc.root).info.keyBlock) lastKey = n;
    await writer.append(step);
    if (fifo) await postEvent(fifo, step.mc.id);
    report({ ev: 'step', n, at: Date.now() });
    if (cfg.indexes && cfg.flushEvery > 0 && n % cfg.flushEvery === 0) {
      if (cfg.gateFlushes) {
        report({ ev: 'flush-wait', upTo: n });
        await gate();
      }
      await writer.flushIndexes();
      report({ ev: 'flush', upTo: n, at: Date.now() });
    }
    if (n === cfg.tearAfter && n < steps.length) {
      const next = steps[n]!;
      if (next.shardBlocks.length > 0) throw new Error(`tearAfter ${n}: step ${n + 1} must commit no shard blocks`);
      const nextKey = loadBlockCell(next.mc.root).info.keyBlock ? n + 1 : lastKey;
      const packageId = Math.max(Math.floor((n + 1) / PACKAGE_SPAN) * PACKAGE_SPAN, nextKey);
      const path = packPath(cfg.root, {
        generation: cfg.generation,
        packageId,
        sliceStart: sliceStart(packageId, n + 1),
        workchain: -1,
        shard: MC_SHARD,
        splitDepth: 0,
      });
      const { offset, wrote } = await tearEntry(path, fileName('block', next.mc.id), next.mc.bytes);
      report({
        ev: 'torn',
        next: n + 1,
        path,
        offset,
        wrote,
        of: 8 + fileName('block', next.mc.id).length + next.mc.bytes.length,
      });
      await new Promise(() => {}); // the test kills us here
    }
    if (cfg.delayMs > 0 && n < cfg.to) await sleep(cfg.delayMs);
  }
  if (cfg.indexes) {
    await writer.flushIndexes();
    report({ ev: 'flush', upTo: cfg.to, at: Date.now() });
  }
  await writer.close();
  report({ ev: 'done' });
}

const arg = process.argv[2];
if (!arg) {
  process.stderr.write('usage: node --import tsx test/nodedb/tail-writer.ts <config JSON>\n');
  process.exit(2);
}
main(JSON.parse(arg) as TailWriterConfig).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`tail-writer: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
