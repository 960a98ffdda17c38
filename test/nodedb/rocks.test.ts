// The native RocksDB addon (native/tonrocks) through src/nodedb/kv/rocks.ts, and the OPTIONS preflight.
// Cross-checks: range results against the in-memory KV (same contract), folders written by RocksDB's own `ldb`
// tool, the celldb merge rule of node-db.md §3.2, and a writer in another process for secondary/readonly opens.
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryKv } from '../../src/nodedb/kv/memory.ts';
import { checkRocksCompat, parseRocksOptions, readRocksOptions } from '../../src/nodedb/kv/options.ts';
import {
  loadRocksAddon,
  NodeDbUnavailableError,
  openRocks,
  ROCKS_ADDON_PATH,
  RocksDbError,
  rocksPreflight,
} from '../../src/nodedb/kv/rocks.ts';
import type { KvOp } from '../../src/nodedb/kv/types.ts';

const status = loadRocksAddon();
const missing = status.ok ? null : status.reason;
if (missing && !process.env.CI) console.warn(`native RocksDB addon tests skipped: ${missing}`);
const hasLdb = spawnSync('ldb', ['--help'], { stdio: 'ignore' }).error === undefined;

const WRITER = join(dirname(fileURLToPath(import.meta.url)), 'rocks-writer.mjs');
const b = (s: string) => Buffer.from(s, 'latin1');
const i32 = (...ns: number[]) => {
  const out = Buffer.alloc(4 * ns.length);
  for (const [i, n] of ns.entries()) out.writeInt32LE(n, 4 * i);
  return out;
};

let scratch = '';
const dirs: string[] = [];
const fresh = (name: string) => {
  const d = join(scratch, `${name}-${dirs.length}`);
  dirs.push(d);
  return d;
};

/** The primary in another process (test/nodedb/rocks-writer.mjs). */
class Writer {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly replies: Array<(line: string) => void> = [];
  private stderr = '';
  constructor() {
    this.proc = spawn(process.execPath, [WRITER, ROCKS_ADDON_PATH], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr.setEncoding('utf8').on('data', (d: string) => {
      this.stderr += d;
    });
    createInterface({ input: this.proc.stdout }).on('line', (line) => this.replies.shift()?.(line));
  }
  async send(msg: Record<string, unknown>): Promise<void> {
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`writer: no reply to ${msg.cmd}; stderr: ${this.stderr}`)),
        30_000,
      );
      this.replies.push((l) => {
        clearTimeout(timer);
        resolve(l);
      });
      this.proc.stdin.write(`${JSON.stringify(msg)}\n`);
    });
    const reply = JSON.parse(line) as { ok: boolean; error?: string };
    if (!reply.ok) throw new Error(`writer ${msg.cmd}: ${reply.error}`);
  }
  write(ops: Array<[number, Buffer, Buffer | null]>, sync: boolean) {
    return this.send({
      cmd: 'write',
      ops: ops.map(([k, key, v]) => [k, key.toString('hex'), v?.toString('hex') ?? null]),
      sync,
    });
  }
  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.proc.once('exit', resolve));
    this.proc.stdin.end();
    await exited;
  }
}

describe('native RocksDB addon', () => {
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'tongate-rocks-test-'));
  });
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it.runIf(Boolean(missing && process.env.CI))('is built (CI)', () => {
    throw new Error(`native RocksDB addon missing under CI: ${missing}`);
  });

  it.skipIf(!missing)('openRocks throws NodeDbUnavailableError without the addon', async () => {
    await expect(openRocks(join(tmpdir(), 'none'), { mode: 'readonly' })).rejects.toBeInstanceOf(
      NodeDbUnavailableError,
    );
  });

  describe.skipIf(Boolean(missing))('with the addon', () => {
    it('reports the RocksDB it loaded and the codecs it has', () => {
      if (!status.ok) throw new Error('unreachable');
      expect(status.version).toMatch(/^\d+\.\d+\.\d+$/);
      // every build has "none"; xpress is Windows-only, so a Linux build lacking it shows the probe can say no
      expect(status.compressions).toContain('none');
      if (process.platform === 'linux') expect(status.compressions).not.toContain('xpress');
    });

    it('writes a put/merge/delete batch that a read-only open reads back', async () => {
      const dir = fresh('batch');
      const db = await openRocks(dir, { mode: 'primary', createIfMissing: true, cellRefcountMerge: true });
      await db.write(
        [
          { type: 'put', key: b('a'), value: b('1') },
          { type: 'put', key: b('gone'), value: b('x') },
          { type: 'put', key: b('cell'), value: Buffer.concat([i32(7), b('data')]) },
          { type: 'merge', key: b('cell'), value: i32(1) },
          { type: 'del', key: b('gone') },
          { type: 'put', key: b('empty'), value: Buffer.alloc(0) },
        ],
        { sync: true },
      );
      expect(await db.get(b('cell'))).toEqual(Buffer.concat([i32(8), b('data')]));
      await db.close();
      await db.close(); // idempotent

      const ro = await openRocks(dir, { mode: 'readonly', cellRefcountMerge: true });
      expect(ro.mode).toBe('readonly');
      expect(await ro.get(b('a'))).toEqual(b('1'));
      expect(await ro.get(b('gone'))).toBeNull();
      expect(await ro.get(b('missing'))).toBeNull();
      expect(await ro.get(b('empty'))).toEqual(Buffer.alloc(0)); // present but empty is not absent
      expect(await ro.get(b('cell'))).toEqual(Buffer.concat([i32(8), b('data')]));
      expect(await ro.multiGet([b('cell'), b('gone'), b('a'), b('a')])).toEqual([
        Buffer.concat([i32(8), b('data')]),
        null,
        b('1'),
        b('1'),
      ]);
      expect(await ro.multiGet([])).toEqual([]);
      await expect(ro.write([{ type: 'put', key: b('z'), value: b('z') }])).rejects.toThrow(/only a primary writes/);
      await expect(ro.flushWal()).rejects.toThrow(/only a primary writes/);
      await ro.catchUp(); // a no-op for a read-only open
      await ro.close();
      await expect(ro.get(b('a'))).rejects.toThrow(/closed/);
    });

    it('ranges in bytewise order with bounds and limits, as the in-memory KV does', async () => {
      const keys = ['', 'a', 'a\0', 'a\xff', 'ab', 'b', '\0', '\xff', '\xff\xff', 'B', 'aa'].map(b);
      const ops: KvOp[] = keys.map((key, i) => ({ type: 'put', key, value: Buffer.from([i]) }));
      const db = await openRocks(fresh('range'), { mode: 'primary', createIfMissing: true });
      const mem = createMemoryKv();
      // half before a flush, half after, so the range merges a table file and the memtable
      await db.write(ops.slice(0, 6));
      await db.flushMemtable();
      await db.write(ops.slice(6));
      await mem.write(ops);

      const all = await db.range({});
      expect(all.map(([k]) => k)).toEqual([...keys].sort(Buffer.compare));
      const cases = [
        {},
        { limit: 3 },
        { limit: 0 },
        { gte: b('a') },
        { gte: b('a'), lt: b('b') },
        { gte: b('a\0'), lt: b('ab'), limit: 2 },
        { lt: b('a') },
        { gte: b('\xff\xff\xff') },
        { gte: b('b'), lt: b('a') },
      ];
      for (const r of cases) expect(await db.range(r), JSON.stringify(r)).toEqual(await mem.range(r));
      await expect(db.range({ limit: 1.5 })).rejects.toThrow(RangeError);
      await db.close();
    });

    describe('the celldb refcount merge operator (node-db.md §3.2)', () => {
      it('adds int32 deltas to the refcount and keeps the payload, in memtable, table file and after reopen', async () => {
        const dir = fresh('merge');
        const payload = Buffer.from('c0ffee0102030405', 'hex');
        const db = await openRocks(dir, { mode: 'primary', createIfMissing: true, cellRefcountMerge: true });
        await db.write([{ type: 'put', key: b('k'), value: Buffer.concat([i32(3), payload]) }]);
        await db.write([{ type: 'merge', key: b('k'), value: i32(2) }]);
        await db.write([{ type: 'merge', key: b('k'), value: i32(-1) }]);
        expect(await db.get(b('k'))).toEqual(Buffer.concat([i32(4), payload]));

        // the base in a table file, newer deltas in the memtable (as on a node between flushes)
        await db.flushMemtable();
        await db.write([
          { type: 'merge', key: b('k'), value: i32(5) },
          { type: 'merge', key: b('k'), value: Buffer.alloc(0) }, // empty operands are no-ops (the node drops them)
          { type: 'merge', key: b('k'), value: i32(-2) },
        ]);
        expect(await db.get(b('k'))).toEqual(Buffer.concat([i32(7), payload]));
        expect(await db.range({})).toEqual([[b('k'), Buffer.concat([i32(7), payload])]]);
        await db.close();

        // a read-only open replays the WAL's merge records through the same operator
        const ro = await openRocks(dir, { mode: 'readonly', cellRefcountMerge: true });
        expect(await ro.get(b('k'))).toEqual(Buffer.concat([i32(7), payload]));
        await ro.close();
      });

      it('adds to the second int32 when the first is the -1 marker (a record holding a BoC)', async () => {
        const db = await openRocks(fresh('merge-marker'), {
          mode: 'primary',
          createIfMissing: true,
          cellRefcountMerge: true,
        });
        const boc = Buffer.from('b5ee9c72010101010002000000', 'hex');
        await db.write([{ type: 'put', key: b('k'), value: Buffer.concat([i32(-1, 3), boc]) }]);
        await db.flushMemtable();
        await db.write([
          { type: 'merge', key: b('k'), value: i32(2) },
          { type: 'merge', key: b('k'), value: i32(-1) },
        ]);
        expect(await db.get(b('k'))).toEqual(Buffer.concat([i32(-1, 4), boc]));
        await db.close();
      });

      it('merges into an absent key as the bare delta sum (the node never does this)', async () => {
        const db = await openRocks(fresh('merge-absent'), {
          mode: 'primary',
          createIfMissing: true,
          cellRefcountMerge: true,
        });
        await db.write([
          { type: 'merge', key: b('n'), value: i32(2) },
          { type: 'merge', key: b('n'), value: i32(3) },
          { type: 'merge', key: b('e'), value: Buffer.alloc(0) },
        ]);
        expect(await db.get(b('n'))).toEqual(i32(5));
        expect(await db.get(b('e'))).toEqual(Buffer.alloc(0));
        await db.close();
      });

      it('fails the read, not silently, on an operand that is not an int32 or a record too short', async () => {
        const db = await openRocks(fresh('merge-bad'), {
          mode: 'primary',
          createIfMissing: true,
          cellRefcountMerge: true,
        });
        await db.write([
          { type: 'put', key: b('op'), value: Buffer.concat([i32(1), b('p')]) },
          { type: 'merge', key: b('op'), value: b('abc') },
          { type: 'put', key: b('short'), value: b('ab') },
          { type: 'merge', key: b('short'), value: i32(1) },
          { type: 'put', key: b('marker'), value: Buffer.concat([i32(-1), b('ab')]) },
          { type: 'merge', key: b('marker'), value: i32(1) },
        ]);
        for (const key of ['op', 'short', 'marker']) {
          await expect(db.get(b(key)), key).rejects.toThrow(RocksDbError);
        }
        await db.close();
      });

      it('refuses a merge write on a folder opened without the operator', async () => {
        const db = await openRocks(fresh('no-merge'), { mode: 'primary', createIfMissing: true });
        await expect(db.write([{ type: 'merge', key: b('k'), value: i32(1) }])).rejects.toThrow(
          /without the merge operator/,
        );
        await db.close();
      });
    });

    it('reports open errors with the folder and RocksDB’s reason', async () => {
      const dir = join(scratch, 'does-not-exist');
      await expect(openRocks(dir, { mode: 'readonly' })).rejects.toThrow(
        new RegExp(`cannot open ${dir} as readonly: .*No such file`),
      );
      await expect(openRocks(dir, { mode: 'readonly' })).rejects.toBeInstanceOf(RocksDbError);
    });

    describe('a primary in another process', () => {
      let writer: Writer;
      let dir = '';
      beforeAll(async () => {
        dir = fresh('live');
        writer = new Writer();
        // like TON's archive indexes: manual WAL flush (and celldb's merge operator, to read merges below)
        await writer.send({ cmd: 'open', path: dir, manualWalFlush: true, mergeOperator: true });
        await writer.write([[0, b('k0'), b('v0')]], true);
      });
      afterAll(async () => {
        await writer?.send({ cmd: 'close' });
        await writer?.stop();
      });

      it('holds the LOCK: a second primary cannot open the folder', async () => {
        await expect(openRocks(dir, { mode: 'primary' })).rejects.toThrow(/lock/i);
      });

      it('secondary: an unsynced write is invisible after catchUp until the primary flushes its WAL (§6.2 item 4)', async () => {
        const secondaryDir = join(scratch, 'live-secondary');
        const sec = await openRocks(dir, { mode: 'secondary', secondaryDir, cellRefcountMerge: true });
        expect(readdirSync(secondaryDir).length).toBeGreaterThan(0); // its own LOG lives there, not in the node's folder
        expect(await sec.get(b('k0'))).toEqual(b('v0'));

        await writer.write([[0, b('k1'), b('v1')]], false);
        await sec.catchUp();
        expect(await sec.get(b('k1'))).toBeNull();
        await writer.send({ cmd: 'flushWal', sync: false });
        expect(await sec.get(b('k1'))).toBeNull(); // nothing changes between catch-ups
        await sec.catchUp();
        expect(await sec.get(b('k1'))).toEqual(b('v1'));

        // a synced write (celldb, state db) is visible at the next catch-up without a WAL flush
        await writer.write([[0, b('k2'), b('v2')]], true);
        await sec.catchUp();
        expect(await sec.get(b('k2'))).toEqual(b('v2'));

        // a merged cell record, its base flushed to a table file and the delta in the WAL
        await writer.write([[0, b('cell'), Buffer.concat([i32(3), b('payload')])]], true);
        await writer.send({ cmd: 'flushMemtable' });
        await writer.write([[1, b('cell'), i32(2)]], true);
        await sec.catchUp();
        expect(await sec.get(b('cell'))).toEqual(Buffer.concat([i32(5), b('payload')]));
        expect((await sec.range({ gte: b('k') })).map(([k]) => k.toString())).toEqual(['k0', 'k1', 'k2']);
        await expect(sec.write([{ type: 'put', key: b('x'), value: b('x') }])).rejects.toThrow(/only a primary writes/);
        await sec.close();
      });

      it('secondary without a secondaryDir uses a temporary one and removes it at close', async () => {
        const before = readdirSync(tmpdir()).filter((n) => n.startsWith('tongate-rocks-secondary-'));
        const sec = await openRocks(dir, { mode: 'secondary', cellRefcountMerge: true });
        const during = readdirSync(tmpdir()).filter((n) => n.startsWith('tongate-rocks-secondary-'));
        expect(during.length).toBe(before.length + 1);
        expect(await sec.get(b('k0'))).toEqual(b('v0'));
        await sec.close();
        const after = readdirSync(tmpdir()).filter((n) => n.startsWith('tongate-rocks-secondary-'));
        expect(after.sort()).toEqual(before.sort());
      });

      it('read-only open while the primary holds the LOCK reads and leaves the folder untouched (§6.2 item 5)', async () => {
        await writer.write([[0, b('r1'), b('x1')]], false);
        await writer.send({ cmd: 'flushWal', sync: true });
        const listing = () => readdirSync(dir).sort();
        const before = listing();
        const ro = await openRocks(dir, { mode: 'readonly', cellRefcountMerge: true });
        expect(await ro.get(b('r1'))).toEqual(b('x1'));
        expect(await ro.get(b('k0'))).toEqual(b('v0'));
        expect(await ro.get(b('cell'))).toEqual(Buffer.concat([i32(5), b('payload')]));
        expect((await ro.range({})).length).toBeGreaterThanOrEqual(5);
        await ro.close();
        expect(listing()).toEqual(before);
      });
    });

    it.skipIf(!hasLdb)('reads a folder written by RocksDB’s ldb, and ldb reads ours', async () => {
      const theirs = fresh('ldb');
      const put = spawnSync(
        'ldb',
        [`--db=${theirs}`, '--create_if_missing', 'batchput', '--hex', '0x00ff', '0x01', '0x6b', '0x0203'],
        {
          encoding: 'utf8',
        },
      );
      expect(put.status, put.stderr).toBe(0);
      const ro = await openRocks(theirs, { mode: 'readonly' });
      expect(await ro.range({})).toEqual([
        [Buffer.from([0x00, 0xff]), Buffer.from([0x01])],
        [b('k'), Buffer.from([0x02, 0x03])],
      ]);
      await ro.close();

      const ours = fresh('ours');
      const db = await openRocks(ours, { mode: 'primary', createIfMissing: true });
      await db.write([
        { type: 'put', key: Buffer.from([0xca, 0xfe]), value: Buffer.from([0xbe, 0xef]) },
        { type: 'put', key: b('z'), value: b('last') },
      ]);
      await db.flushMemtable();
      await db.close();
      const scan = spawnSync('ldb', [`--db=${ours}`, 'scan', '--hex'], { encoding: 'utf8' });
      expect(scan.status, scan.stderr).toBe(0);
      expect(scan.stdout.trim().split('\n')).toEqual(['0x7A : 0x6C617374', '0xCAFE : 0xBEEF']);
    });

    describe('OPTIONS preflight', () => {
      it('reads the OPTIONS file the addon wrote and finds nothing wrong with it', async () => {
        if (!status.ok) throw new Error('unreachable');
        const dir = fresh('opts');
        const db = await openRocks(dir, { mode: 'primary', createIfMissing: true, cellRefcountMerge: true });
        await db.close();
        // each open writes a new OPTIONS file; the newest must win
        await (await openRocks(dir, { mode: 'primary', cellRefcountMerge: true })).close();
        const numbers = readdirSync(dir)
          .filter((n) => /^OPTIONS-\d+$/.test(n))
          .map((n) => Number(n.slice(8)));
        expect(numbers.length).toBeGreaterThanOrEqual(2);

        const opts = await readRocksOptions(dir);
        expect(opts.file).toBe(join(dir, `OPTIONS-${String(Math.max(...numbers)).padStart(6, '0')}`));
        expect(opts.rocksdbVersion).toBe(status.version);
        // RocksDB 7.x writes table format 5 by default (node-db.md §6.1); newer releases 6
        expect(opts.formatVersion).toBe(Number(status.version.split('.')[0]) >= 9 ? 6 : 5);
        expect(opts.compression).toBe('kNoCompression');
        expect(opts.mergeOperator).toBe('MergeOperatorAddCellRefcnt');
        expect(opts.comparator).toBe('leveldb.BytewiseComparator');
        expect(checkRocksCompat(opts, status.version, { compressions: status.compressions })).toEqual([]);
        expect(await rocksPreflight(dir)).toEqual({ options: opts, problems: [] });

        // a folder opened without the operator says nullptr
        const plain = fresh('opts-plain');
        await (await openRocks(plain, { mode: 'primary', createIfMissing: true })).close();
        expect((await readRocksOptions(plain)).mergeOperator).toBeUndefined();
      });

      it.skipIf(status.ok && !status.compressions.includes('snappy'))(
        'sees a Snappy-compressed folder and flags it for a build without Snappy',
        async () => {
          if (!status.ok) throw new Error('unreachable');
          const dir = fresh('opts-snappy');
          const db = await openRocks(dir, { mode: 'primary', createIfMissing: true, compression: 'snappy' });
          await db.write([{ type: 'put', key: b('k'), value: Buffer.alloc(4096, 1) }]);
          await db.flushMemtable();
          await db.close();
          const opts = await readRocksOptions(dir);
          expect(opts.compression).toBe('kSnappyCompression');
          expect(checkRocksCompat(opts, status.version, { compressions: status.compressions })).toEqual([]);
          const problems = checkRocksCompat(opts, status.version, { compressions: ['none', 'zstd'] });
          expect(problems).toEqual([
            { fatal: true, message: expect.stringMatching(/kSnappyCompression, which this RocksDB build lacks/) },
          ]);
        },
      );
    });
  });
});

describe('RocksDB OPTIONS checks on hand-written files', () => {
  const options = (version: string, format: number, extra: { cf?: string; table?: string } = {}) => `
# This is a RocksDB option file.
[Version]
  rocksdb_version=${version}
  options_file_version=1.1

[DBOptions]
  max_open_files=-1

[CFOptions "default"]
  compression=kNoCompression
  bottommost_compression=kDisableCompressionOption
  merge_operator=MergeOperatorAddCellRefcnt
  comparator=leveldb.BytewiseComparator
${extra.cf ?? ''}

[TableOptions/BlockBasedTable "default"]
  format_version=${format}
${extra.table ?? ''}
`;
  const file = '/var/ton-work/db/celldb/OPTIONS-000123';

  it('parses the fields that matter', () => {
    expect(parseRocksOptions(options('10.10.1', 6), file)).toEqual({
      file,
      rocksdbVersion: '10.10.1',
      formatVersion: 6,
      compression: 'kNoCompression',
      bottommostCompression: 'kDisableCompressionOption',
      mergeOperator: 'MergeOperatorAddCellRefcnt',
      comparator: 'leveldb.BytewiseComparator',
    });
    expect(() => parseRocksOptions('[DBOptions]\n  a=b\n', file)).toThrow(/not a RocksDB OPTIONS file/);
  });

  it('flags format_version 6 for RocksDB 7.8.3 (fatal) but not for 8.6.0 or newer', () => {
    const node = parseRocksOptions(options('10.10.1', 6), file);
    const old = checkRocksCompat(node, '7.8.3');
    expect(old).toEqual([
      {
        fatal: true,
        message:
          '/var/ton-work/db/celldb: node RocksDB 10.10.1 writes table format_version 6, which needs RocksDB >= 8.6.0; this build has 7.8.3',
      },
      // a newer major writer alone only warns: the format is what decides
      { fatal: false, message: expect.stringContaining('newer major release than this build') },
    ]);
    expect(checkRocksCompat(node, '8.6.0')).toEqual([
      { fatal: false, message: expect.stringContaining('node RocksDB 10.10.1 is a newer major release') },
    ]);
    expect(checkRocksCompat(node, '10.10.1')).toEqual([]);
    expect(checkRocksCompat(node, '10.11.0')).toEqual([]);
    // format 5 from a writer of the same major release: nothing to say
    expect(checkRocksCompat(parseRocksOptions(options('7.10.2', 5), file), '7.8.3')).toEqual([]);
  });

  it('knows format_version 7 needs 10.4.0 and is wary of formats it does not know', () => {
    expect(checkRocksCompat(parseRocksOptions(options('10.10.1', 7), file), '10.3.0')).toEqual([
      {
        fatal: true,
        message: expect.stringContaining('format_version 7, which needs RocksDB >= 10.4.0; this build has 10.3.0'),
      },
    ]);
    expect(checkRocksCompat(parseRocksOptions(options('12.0.0', 8), file), '12.0.0')).toEqual([]);
    // an unknown format from a newer writer may or may not read: a warning, not a refusal
    expect(checkRocksCompat(parseRocksOptions(options('12.1.0', 8), file), '12.0.0')).toEqual([
      { fatal: false, message: expect.stringContaining('format_version 8, newer than this check knows') },
    ]);
  });

  it('refuses format_version 0 and 1 from RocksDB 11 on, and warns when our version is unreadable', () => {
    expect(checkRocksCompat(parseRocksOptions(options('6.0.0', 1), file), '11.0.0')).toEqual([
      { fatal: true, message: expect.stringContaining('format_version 1 is no longer readable by RocksDB >= 11') },
    ]);
    expect(checkRocksCompat(parseRocksOptions(options('6.0.0', 1), file), '10.10.1')).toEqual([]);
    expect(checkRocksCompat(parseRocksOptions(options('7.8.3', 5), file), 'unknown')).toEqual([
      { fatal: false, message: expect.stringContaining('cannot tell this build') },
    ]);
  });

  it('flags codecs the build lacks, including per-level and bottommost ones', () => {
    const snappy = parseRocksOptions(
      options('7.8.3', 5, {
        cf: '  bottommost_compression=kZSTD\n  compression_per_level=kNoCompression:kLZ4Compression',
      }),
      file,
    );
    expect(snappy.compressionPerLevel).toEqual(['kNoCompression', 'kLZ4Compression']);
    const problems = checkRocksCompat(snappy, '7.8.3', { compressions: ['none', 'snappy'] });
    expect(problems).toHaveLength(2);
    expect(problems.every((p) => p.fatal)).toBe(true);
    const text = problems.map((p) => p.message).join('\n');
    expect(text).toMatch(/kZSTD, which this RocksDB build lacks/);
    expect(text).toMatch(/kLZ4Compression, which this RocksDB build lacks/);
    expect(checkRocksCompat(snappy, '7.8.3', { compressions: ['none', 'zstd', 'lz4'] })).toEqual([]);
    expect(checkRocksCompat(snappy, '7.8.3')).toEqual([]); // codecs unknown: not checked
    const odd = parseRocksOptions(options('7.8.3', 5).replace('=kNoCompression', '=kFancyCompression'), file);
    expect(checkRocksCompat(odd, '7.8.3', { compressions: ['none'] })).toEqual([
      { fatal: true, message: expect.stringContaining('kFancyCompression, a codec this check does not know') },
    ]);
  });

  it('flags a merge operator or comparator tongate does not provide', () => {
    const text = options('7.8.3', 5)
      .replace('merge_operator=MergeOperatorAddCellRefcnt', 'merge_operator={id=StringAppendOperator;delimiter=,;}')
      .replace('leveldb.BytewiseComparator', 'rocksdb.ReverseBytewiseComparator');
    const opts = parseRocksOptions(text, file);
    expect(opts.mergeOperator).toBe('StringAppendOperator');
    const problems = checkRocksCompat(opts, '7.8.3');
    expect(problems).toEqual([
      {
        fatal: true,
        message: expect.stringMatching(/merge operator StringAppendOperator, which tongate does not provide/),
      },
      { fatal: true, message: expect.stringMatching(/ordered by rocksdb.ReverseBytewiseComparator/) },
    ]);
  });

  it('reads the newest of several OPTIONS files in a folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tongate-rocks-options-'));
    try {
      writeFileSync(join(dir, 'OPTIONS-000009'), options('7.8.3', 5));
      writeFileSync(join(dir, 'OPTIONS-000012'), options('10.10.1', 6));
      writeFileSync(join(dir, 'OPTIONS-000013.dbtmp'), options('1.0.0', 1));
      const opts = await readRocksOptions(dir);
      expect(opts.file).toBe(join(dir, 'OPTIONS-000012'));
      expect(opts.rocksdbVersion).toBe('10.10.1');
      rmSync(join(dir, 'OPTIONS-000009'));
      rmSync(join(dir, 'OPTIONS-000012'));
      await expect(readRocksOptions(dir)).rejects.toThrow(/no OPTIONS-\* file, so not a RocksDB folder/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
