// The RocksDB OPTIONS preflight as NodeDb (src/nodedb/node-db.ts) applies it: a tree written by openNodeDbWriter
// from a few real blocks, whose global index (files/globalindex) then claims another RocksDB in its newest OPTIONS
// file. A fatal problem (a table format this build cannot read) refuses index mode and, in 'auto', falls back to
// scanning the packs; a non-fatal one (a newer major writer, same format) only shows in `preflight.problems`.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeDb, type NodeDbLog, NodeDbUnsupportedError, openNodeDb } from '../../src/nodedb/index.ts';
import { loadRocksAddon } from '../../src/nodedb/kv/rocks.ts';
import { globalIndexDir } from '../../src/nodedb/layout.ts';
import { fullKeyOf, loadRealBlocks, type RealBlocks, writeTree } from '../helpers/node-db.ts';
import { hasVectors } from '../helpers/vectors.ts';

const addon = loadRocksAddon();
if (!addon.ok) console.warn(`node-db OPTIONS preflight tests SKIPPED: ${addon.reason}`);
const ready = hasVectors && addon.ok;

/** Masterchain blocks written: few enough to be quick; 6, 8, 13, 15 and 16 of them commit shard blocks. */
const STEPS = 16;
/** What the edited OPTIONS claim wrote the folder (RocksDB 10.10.1 writes table format 7 by default). */
const NODE_ROCKSDB = '10.10.1';

const ourVersion = addon.ok ? addon.version.split('.').map(Number) : [];
const atLeast = (...v: number[]) => {
  for (let i = 0; i < v.length; i++) {
    const d = (ourVersion[i] ?? 0) - v[i]!;
    if (d !== 0) return d > 0;
  }
  return true;
};
// table format 7 needs RocksDB >= 10.4.0 (RocksDB's include/rocksdb/table.h); a build that reads it has nothing fatal to find
const formatSevenReadable = addon.ok && atLeast(10, 4, 0);
// RocksDB promises nothing across major releases, so a 10.x writer only deserves a warning for an older major build
const olderMajor = addon.ok && !atLeast(10);
if (ready && formatSevenReadable) {
  console.warn(`node-db OPTIONS preflight: the fatal case SKIPPED, RocksDB ${addon.version} reads table format 7`);
}
if (ready && !olderMajor) {
  console.warn(`node-db OPTIONS preflight: the warning case SKIPPED, RocksDB ${addon.version} is not older than 10`);
}

let scratch = '';
let base = '';
let real: RealBlocks;
const opened: NodeDb[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tongate-nodedb-preflight-'));
  if (!ready) return;
  real = await loadRealBlocks();
  base = join(scratch, 'base');
  await writeTree(base, real.steps.slice(0, STEPS));
}, 120_000);

afterAll(async () => {
  for (const db of opened) await db.close().catch(() => {});
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A copy of the written tree, so each case edits its own. */
async function copyTree(name: string): Promise<string> {
  const root = join(scratch, name);
  await cp(base, root, { recursive: true });
  return root;
}

/**
 * Rewrites the newest OPTIONS-* file of `dir` (picked here by its number, not by the code under test): sets
 * rocksdb_version, and format_version when given. Returns the format_version the file had.
 */
async function editOptions(dir: string, rocksdbVersion: string, formatVersion?: number): Promise<number> {
  const numbered = (await readdir(dir)).filter((n) => /^OPTIONS-\d+$/.test(n));
  expect(numbered.length).toBeGreaterThan(0);
  const newest = numbered.sort((a, b) => Number(b.slice(8)) - Number(a.slice(8)))[0]!;
  const file = join(dir, newest);
  const text = await readFile(file, 'utf8');
  const version = /^(\s*rocksdb_version=).*$/gm;
  const format = /^(\s*format_version=)(\d+)$/gm;
  // one of each, or the edit would not say what the test means
  expect(text.match(version)).toHaveLength(1);
  expect(text.match(format)).toHaveLength(1);
  const was = Number(/^\s*format_version=(\d+)$/m.exec(text)![1]);
  let edited = text.replace(version, `$1${rocksdbVersion}`);
  if (formatVersion !== undefined) edited = edited.replace(format, `$1${formatVersion}`);
  expect(edited).not.toBe(text);
  await writeFile(file, edited);
  return was;
}

const mcId = (n: number) => real.steps[n - 1]!.mc.id;

/** Reads masterchain 1..STEPS and the shard blocks each commits, and compares them with what was written. */
async function expectBlocks(db: NodeDb): Promise<void> {
  for (let n = 1; n <= STEPS; n++) {
    const id = await db.mcBlockId(n);
    expect(id && fullKeyOf(id), `masterchain ${n}`).toBe(fullKeyOf(mcId(n)));
    expect((await db.block(id!)).bytes.equals(real.steps[n - 1]!.mc.bytes)).toBe(true);
  }
  let shardBlocks = 0;
  for (let n = 1; n <= STEPS; n++) {
    const want = real.steps[n - 1]!.shardBlocks;
    const got = await db.shardBlocksCommittedBy(n);
    expect(got.map(fullKeyOf), `shard blocks of masterchain ${n}`).toEqual(want.map((b) => fullKeyOf(b.id)));
    for (const [i, sid] of got.entries()) expect((await db.block(sid)).bytes.equals(want[i]!.bytes)).toBe(true);
    shardBlocks += got.length;
  }
  expect(shardBlocks).toBe(10);
}

type Logged = { level: 'info' | 'warn'; msg: string; fields?: Record<string, unknown> };
const recorder = () => {
  const lines: Logged[] = [];
  const log: NodeDbLog = (level, msg, fields) => lines.push({ level, msg, fields });
  return { lines, log };
};

describe.skipIf(!ready || formatSevenReadable)('a global index whose OPTIONS say format_version 7 (fatal)', () => {
  let root = '';
  let globalDir = '';
  beforeAll(async () => {
    root = await copyTree('fatal');
    globalDir = globalIndexDir(root);
    await editOptions(globalDir, NODE_ROCKSDB, 7);
  });

  it("blocks 'index': refuses with NodeDbUnsupportedError naming the folder, both RocksDB versions and the format", async () => {
    const { lines, log } = recorder();
    const err = await openNodeDb({ root, blocks: 'index', secondaryDir: `${root}-secondary-index`, log }).then(
      (db) => {
        opened.push(db);
        return null;
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(NodeDbUnsupportedError);
    const message = (err as NodeDbUnsupportedError).message;
    expect(message).toContain(globalDir);
    expect(message).toContain(`RocksDB ${NODE_ROCKSDB}`);
    expect(message).toContain(addon.ok ? addon.version : '?');
    expect(message).toMatch(/format_version 7\b/);
    // only the fatal problems make the refusal; the newer-major warning is logged, not part of it
    expect(message).not.toMatch(/newer major release/);
    expect((err as NodeDbUnsupportedError).details).toMatchObject({ nodeDb: 'unsupported', root });
    const warned = lines.filter((l) => l.level === 'warn' && l.fields?.path === globalDir);
    expect(warned.some((l) => l.fields?.fatal === true && /format_version 7/.test(l.msg))).toBe(true);
    if (olderMajor) expect(warned.some((l) => l.fields?.fatal === false && /newer major/.test(l.msg))).toBe(true);
  });

  it("blocks 'auto': logs the problem, reads blocks by scanning the packs, and still opens celldb", async () => {
    const { lines, log } = recorder();
    const db = await openNodeDb({ root, secondaryDir: `${root}-secondary-auto`, log });
    opened.push(db);
    // celldb's OPTIONS were not touched, so states still come from it
    expect(db.mode).toEqual({ blocks: 'packscan', states: 'celldb' });
    const fatal = db.preflight.problems.filter((p) => p.includes(globalDir) && /format_version 7\b/.test(p));
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toContain(`RocksDB ${NODE_ROCKSDB}`);
    expect(lines).toContainEqual({ level: 'warn', msg: fatal[0], fields: { path: globalDir, fatal: true } });
    const fallback = lines.filter((l) => l.level === 'info' && l.msg.includes('scanning packs'));
    expect(fallback).toHaveLength(1);
    expect(fallback[0]!.msg).toContain(fatal[0]);
    // the state db is opened only with the indexes: without it the tip is the archive's
    expect((await db.tip()).shardClient).toBeNull();
    await expectBlocks(db);
  }, 60_000);
});

describe.skipIf(!ready || !olderMajor)(
  'a global index whose OPTIONS name RocksDB 10.10.1, same format (warning)',
  () => {
    it('opens in index mode, lists the problem in preflight.problems and logs it as a warning', async () => {
      const root = await copyTree('warning');
      const globalDir = globalIndexDir(root);
      const format = await editOptions(globalDir, NODE_ROCKSDB);
      const { lines, log } = recorder();
      const db = await openNodeDb({ root, blocks: 'index', secondaryDir: `${root}-secondary`, log });
      opened.push(db);
      expect(db.mode).toEqual({ blocks: 'index', states: 'celldb' });
      // the first folder checked is the global index, so its version is the one reported
      expect(db.preflight.rocksdb).toBe(NODE_ROCKSDB);
      await expectBlocks(db);
      // every other folder (state db, celldb, the package index opened by the reads) was written by our build
      expect(db.preflight.problems).toHaveLength(1);
      const [problem] = db.preflight.problems;
      expect(problem).toContain(globalDir);
      expect(problem).toContain(`RocksDB ${NODE_ROCKSDB}`);
      expect(problem).toContain(addon.ok ? addon.version : '?');
      expect(problem).toMatch(/newer major release/);
      expect(problem).not.toMatch(new RegExp(`format_version ${format}\\b`));
      expect(lines).toContainEqual({ level: 'warn', msg: problem, fields: { path: globalDir, fatal: false } });
      expect(lines.some((l) => l.msg.includes('scanning packs'))).toBe(false);
    }, 60_000);
  },
);
