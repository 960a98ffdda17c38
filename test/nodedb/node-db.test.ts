// NodeDb (src/nodedb/node-db.ts) over node-format trees made of real blocks:
// - the three real archive slices of vectors/node-db placed as a node keeps them, read by pack scan (no native code);
// - the same blocks re-written through openNodeDbWriter in every archive generation, with RocksDB indexes, read
//   through the indexes (skipped, loudly, without the native addon);
// - gc and faults (a deleted package, a torn pack tail, a missing pack), and an index that lags its packs.
// - the pack catalog (pack-scan.ts) over a pack cut back and rewritten to the same or a larger size (synthetic).
// Expected values come from test/helpers/node-db.ts, which works the blocks out of the packs without the reader.
import { createHash } from 'node:crypto';
import { appendFile, copyFile, mkdir, mkdtemp, readdir, rename, rm, utimes as setTimes, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileIndexKey, fileName } from '../../src/nodedb/fileref.ts';
import { encodeBlockHandle, HANDLE_FLAGS } from '../../src/nodedb/handle.ts';
import {
  type NodeDb,
  NodeDbCorruptError,
  NodeDbNotYetVisibleError,
  NodeDbPrunedError,
  NodeDbUnsupportedError,
  openNodeDb,
} from '../../src/nodedb/index.ts';
import { loadRocksAddon, openRocks } from '../../src/nodedb/kv/rocks.ts';
import { indexDir, packPath } from '../../src/nodedb/layout.ts';
import { createPackWriter, openPackReader } from '../../src/nodedb/pack.ts';
import { PackCatalog } from '../../src/nodedb/pack-scan.ts';
import { lookupBySeqno } from '../../src/nodedb/slice-index.ts';
import { type BlockIdExt, loadBlockCell } from '../../src/ton/index.ts';
import {
  fullKeyOf,
  GENERATIONS,
  keyOf,
  loadRealBlocks,
  placeRealPacks,
  REAL_LAST_MC,
  type RealBlocks,
  writeTree,
} from '../helpers/node-db.ts';
import { hasVectors } from '../helpers/vectors.ts';

const addon = loadRocksAddon();
if (!addon.ok) console.warn(`node-db reader: index-mode tests SKIPPED: ${addon.reason}`);
const withIndexes = hasVectors && addon.ok;

let scratch = '';
let real: RealBlocks;
const opened: NodeDb[] = [];
const open = async (root: string, o: Partial<Parameters<typeof openNodeDb>[0]> = {}) => {
  const db = await openNodeDb({ root, secondaryDir: `${root}-secondary`, ...o });
  opened.push(db);
  return db;
};

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tongate-nodedb-reader-'));
  if (hasVectors) real = await loadRealBlocks();
}, 120_000);

afterAll(async () => {
  for (const db of opened) await db.close().catch(() => {});
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Every file under `dir` with its size, to show a reader wrote nothing there. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(`${p.slice(dir.length)} ${(await stat(p)).size}`);
    }
  };
  await walk(dir);
  return out.sort();
}

/** What a reader must read from a tree holding the real blocks: every masterchain block and what it commits. */
async function expectRealChain(db: NodeDb): Promise<void> {
  const seen = new Map<string, number>();
  for (let n = 1; n <= REAL_LAST_MC; n++) {
    const id = await db.mcBlockId(n);
    expect(id && fullKeyOf(id), `masterchain ${n}`).toBe(
      fullKeyOf(real.blocks.get(keyOf({ workchain: -1, shard: 1n << 63n, seqno: n }))!.id),
    );
    const mc = await db.block(id!);
    expect(mc.bytes.equals(real.blocks.get(keyOf(id!))!.bytes)).toBe(true);
    seen.set(fullKeyOf(id!), (seen.get(fullKeyOf(id!)) ?? 0) + 1);
    const want = real.committed.get(n);
    if (!want) {
      // the copy ends before the last shard blocks masterchain 264 commits were written
      expect(n).toBe(REAL_LAST_MC);
      await expect(db.shardBlocksCommittedBy(n)).rejects.toThrow(NodeDbNotYetVisibleError);
      continue;
    }
    const got = await db.shardBlocksCommittedBy(n);
    expect(got.map(fullKeyOf), `shard blocks of masterchain ${n}`).toEqual(want.map(fullKeyOf));
    for (const sid of got) {
      const b = await db.block(sid);
      expect(b.bytes.equals(real.blocks.get(keyOf(sid))!.bytes)).toBe(true);
      expect(b.root.hash().equals(sid.rootHash)).toBe(true);
      seen.set(fullKeyOf(sid), (seen.get(fullKeyOf(sid)) ?? 0) + 1);
    }
  }
  // every block entry accounted for exactly once: 264 masterchain blocks, 402 shard blocks committed by complete
  // walks, and the 8 that masterchain 264 commits together with two blocks the copy lacks
  expect([...seen.values()].every((c) => c === 1)).toBe(true);
  const orphans = real.orphans.map((b) => fullKeyOf(b.id));
  expect(orphans.filter((k) => seen.has(k))).toEqual([]);
  expect(seen.size + orphans.length).toBe(real.blocks.size);
  for (const o of real.orphans) expect((await db.block(o.id)).bytes.equals(o.bytes)).toBe(true);
}

describe.skipIf(!hasVectors)('the real packs (what the fixture works out, independently of the reader)', () => {
  it('hold 674 distinct blocks in 678 entries; 263 masterchain blocks commit all their shard blocks', () => {
    expect(real.entries).toBe(191 + 293 + 194);
    expect(real.blocks.size).toBe(674);
    expect(real.committed.size).toBe(263);
    expect([...real.committed.values()].reduce((a, l) => a + l.length, 0)).toBe(402);
    expect(real.orphans.length).toBe(8);
    expect(real.missing).toEqual(['0:4000000000000000:244', '0:c000000000000000:243']);
    // the node wrote each masterchain block, then the shard blocks it commits: pack order agrees with the walk
    for (const [n, list] of real.committed) {
      expect(new Set(list.map(keyOf)), `masterchain ${n}`).toEqual(new Set(real.packOrder.get(n)!.map(keyOf)));
    }
  });
});

describe.skipIf(!hasVectors)('pack-scan mode over the real packs (sliced, no indexes)', () => {
  let root = '';
  let db: NodeDb;
  beforeAll(async () => {
    root = join(scratch, 'real');
    await placeRealPacks(root);
    db = await open(root, { blocks: 'packscan', states: 'none' });
  });

  it('opens in pack-scan mode and says what it covers', async () => {
    expect(db.mode).toEqual({ blocks: 'packscan', states: 'none' });
    // 264's shard blocks are not all there: the head is the newest masterchain block whose are
    expect(await db.tip()).toEqual({ shardClient: null, archived: 263 });
    expect(await db.coverage()).toEqual({
      blocks: { from: 1, to: 263 },
      states: null,
      gcBlock: null,
      deletedPackages: [],
      packages: 1,
    });
  });

  it('reads every masterchain block and the shard blocks each commits, each block exactly once', async () => {
    await expectRealChain(db);
  }, 120_000);

  it('has no handles, finds nothing beyond the archive, and writes nothing into the root', async () => {
    const before = await snapshot(root);
    const fresh = await open(root, { blocks: 'packscan' });
    expect(await fresh.handle((await fresh.mcBlockId(5))!)).toBeNull();
    expect(await fresh.mcBlockId(REAL_LAST_MC + 1)).toBeNull();
    expect(await fresh.mcBlockId(0)).toBeNull();
    const ghost = { ...(await fresh.mcBlockId(5))!, seqno: 9999 };
    await expect(fresh.block(ghost)).rejects.toThrow(NodeDbNotYetVisibleError);
    await fresh.close();
    expect(await snapshot(root)).toEqual(before);
  });

  it('looks blocks up by seqno, lt and unixtime as a linear scan of the headers does', async () => {
    await expectLookups(db, real);
  }, 120_000);
});

/**
 * lookupBlock against a linear scan: among the blocks of the shards containing the point, the one with that seqno,
 * or the lowest seqno whose end lt / gen_utime is at or after the value.
 */
async function expectLookups(db: NodeDb, r: RealBlocks): Promise<void> {
  const headers = [...r.blocks.values()].map((b) => {
    const info = loadBlockCell(b.root).info;
    return { id: b.id, endLt: info.endLt, utime: info.genUtime };
  });
  const contains = (s: bigint, point: bigint) => {
    const low = s & -s;
    const mask = ((1n << 64n) - 1n) ^ ((low << 1n) - 1n);
    return (s & mask) === (point & mask);
  };
  const linear = (wc: number, point: bigint, value: (h: (typeof headers)[0]) => bigint, v: bigint) =>
    headers
      .filter((h) => h.id.workchain === wc && contains(h.id.shard, point) && value(h) >= v)
      .sort((a, b) => a.id.seqno - b.id.seqno)[0]?.id ?? null;
  const points: Array<[number, bigint]> = [
    [-1, 1n << 63n],
    [0, 1n << 63n],
    [0, 0x4000000000000000n],
    [0, 0xc000000000000000n],
    [0, 0x1234567890abcdefn],
  ];
  const ltOf = (id: BlockIdExt) => headers.find((h) => fullKeyOf(h.id) === fullKeyOf(id))!.endLt;
  let checked = 0;
  for (const [wc, point] of points) {
    const line = headers.filter((h) => h.id.workchain === wc && contains(h.id.shard, point));
    const seqnos = [...new Set(line.map((h) => h.id.seqno))].sort((a, b) => a - b);
    const lts = line.map((h) => h.endLt).sort((a, b) => (a < b ? -1 : 1));
    const utimes = [...new Set(line.map((h) => h.utime))].sort((a, b) => a - b);
    const pick = <T>(xs: T[]) => [
      xs[0]!,
      xs[1]!,
      xs[Math.floor(xs.length / 3)]!,
      xs[Math.floor(xs.length / 2)]!,
      xs.at(-1)!,
    ];
    for (const seqno of [...pick(seqnos), seqnos.at(-1)! + 1]) {
      const want = line.find((h) => h.id.seqno === seqno)?.id ?? null;
      const got = await db.lookupBlock(wc, point, { seqno });
      expect(got && fullKeyOf(got), `${wc}:${point.toString(16)} seqno ${seqno}`).toBe(want && fullKeyOf(want));
      checked++;
    }
    for (const lt of [...pick(lts), ...pick(lts).map((x) => x - 1n), ...pick(lts).map((x) => x + 1n), 0n]) {
      const want = linear(wc, point, (h) => h.endLt, lt);
      const got = await db.lookupBlock(wc, point, { lt });
      expect(got && fullKeyOf(got), `${wc}:${point.toString(16)} lt ${lt}`).toBe(want && fullKeyOf(want));
      if (got) expect(ltOf(got) >= lt).toBe(true);
      checked++;
    }
    for (const utime of [...pick(utimes), utimes[0]! - 1, utimes.at(-1)! + 1]) {
      const want = linear(wc, point, (h) => BigInt(h.utime), BigInt(utime));
      const got = await db.lookupBlock(wc, point, { utime });
      expect(got && fullKeyOf(got), `${wc}:${point.toString(16)} utime ${utime}`).toBe(want && fullKeyOf(want));
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(100);
}

describe.skipIf(!withIndexes)('index mode: the real blocks re-written by openNodeDbWriter', () => {
  for (const g of GENERATIONS) {
    describe(g.name, () => {
      let root = '';
      let db: NodeDb;
      let handles: Awaited<ReturnType<typeof writeTree>>['handles'];
      beforeAll(async () => {
        root = join(scratch, `gen-${g.name.replace(/[^a-z0-9]+/g, '-')}`);
        ({ handles } = await writeTree(root, real.steps, {
          generation: g.generation,
          ...(g.splitDepth === undefined ? {} : { splitDepth: g.splitDepth }),
        }));
        db = await open(root);
      }, 120_000);

      it('opens the indexes and says what it covers', async () => {
        // the writer makes a celldb even with no states in it, as a node does at start
        expect(db.mode).toEqual({ blocks: 'index', states: 'celldb' });
        expect(db.preflight.rocksdb).toBe(addon.ok ? addon.version : undefined);
        expect(await db.tip()).toEqual({ shardClient: REAL_LAST_MC, archived: REAL_LAST_MC });
        expect(await db.coverage()).toEqual({
          blocks: { from: 1, to: REAL_LAST_MC },
          states: null,
          gcBlock: null,
          deletedPackages: [],
          packages: 1,
        });
      });

      it('reads every block back as pack scan does, and writes nothing into the root', async () => {
        const before = await snapshot(root);
        await expectRealChain(db);
        expect(await snapshot(root)).toEqual(before);
      }, 120_000);

      it('reads back every handle the writer wrote', async () => {
        expect(handles.size).toBe(real.blocks.size);
        for (const [key, h] of handles) {
          const got = await db.handle(h.id);
          expect(got && encodeBlockHandle(got).toString('hex'), key).toBe(encodeBlockHandle(h).toString('hex'));
        }
        // one handle per block, with links the blocks agree with
        const after = [...handles.values()].find((h) => h.id.workchain === 0 && h.id.seqno === 75)!;
        expect(after.flags & HANDLE_FLAGS.splitAfter).toBeTruthy();
        expect([after.nextLeft?.shard, after.nextRight?.shard]).toEqual([0x4000000000000000n, 0xc000000000000000n]);
      }, 60_000);

      it('looks blocks up by seqno, lt and unixtime as a linear scan of the headers does', async () => {
        await expectLookups(db, real);
      }, 60_000);

      it('reads the same in pack-scan mode', async () => {
        const scan = await open(root, { blocks: 'packscan' });
        expect(scan.mode.blocks).toBe('packscan');
        expect((await scan.tip()).archived).toBe(263);
        for (const n of [1, 75, 76, 99, 100, 101, 200, 263]) {
          expect((await scan.shardBlocksCommittedBy(n)).map(fullKeyOf)).toEqual(
            (await db.shardBlocksCommittedBy(n)).map(fullKeyOf),
          );
        }
      }, 60_000);
    });
  }
});

/** The first shard block committed by masterchain `n` or the next one that commits any. */
const firstShardBlockFrom = (n: number): BlockIdExt => {
  for (let k = n; ; k++) {
    const first = real.committed.get(k)?.[0];
    if (first) return first;
  }
};

describe.skipIf(!withIndexes)('gc and faults', () => {
  for (const removeFiles of [false, true]) {
    it(`a package garbage-collected${removeFiles ? ' with its files' : ''}: coverage shows it, its blocks read as pruned`, async () => {
      const root = join(scratch, `gc-${removeFiles}`);
      const { writer } = await writeTree(root, real.steps.slice(0, 200), {
        generation: 'sliced',
        newPackageAt: [150],
        keepOpen: true,
      });
      await writer.deletePackage(0, { removeFiles });
      await writer.close();
      const db = await open(root);
      expect(await db.coverage()).toEqual({
        blocks: { from: 150, to: 200 },
        states: null,
        gcBlock: null,
        deletedPackages: [0],
        packages: 2,
      });
      await expect(db.mcBlockId(10)).rejects.toThrow(NodeDbPrunedError);
      await expect(db.mcBlockId(149)).rejects.toThrow(NodeDbPrunedError);
      await expect(db.block(real.steps[9]!.mc.id)).rejects.toThrow(NodeDbPrunedError);
      await expect(db.block(firstShardBlockFrom(10))).rejects.toThrow(NodeDbPrunedError);
      // the first live masterchain block: its predecessor is gone, so the handles tell where the walk stops
      expect((await db.shardBlocksCommittedBy(150)).map(fullKeyOf)).toEqual(real.committed.get(150)!.map(fullKeyOf));
      for (const n of [151, 200]) {
        expect((await db.shardBlocksCommittedBy(n)).map(fullKeyOf)).toEqual(real.committed.get(n)!.map(fullKeyOf));
      }
      expect(await db.mcBlockId(201)).toBeNull();
    });
  }

  it('a torn pack tail still reads, in both modes', async () => {
    const root = join(scratch, 'torn');
    await writeTree(root, real.steps.slice(0, 120), { generation: 'shard-split' });
    const mcPack = packPath(root, { generation: 'shard-split', packageId: 0, sliceStart: 100, workchain: -1 });
    await appendFile(mcPack, Buffer.concat([Buffer.from([0x8b, 0x1e, 0xff, 0x00]), Buffer.alloc(100, 0xab)]));
    for (const blocks of ['index', 'packscan'] as const) {
      const db = await open(root, { blocks });
      const id = (await db.mcBlockId(120))!;
      expect(fullKeyOf(id)).toBe(fullKeyOf(real.steps[119]!.mc.id));
      expect((await db.block(id)).bytes.equals(real.steps[119]!.mc.bytes)).toBe(true);
      expect((await db.shardBlocksCommittedBy(120)).map(fullKeyOf)).toEqual(real.committed.get(120)!.map(fullKeyOf));
      expect((await db.tip()).archived).toBe(120);
      await db.close();
    }
  });

  it('a missing pack: a clear error naming the file', async () => {
    const root = join(scratch, 'missing');
    await writeTree(root, real.steps.slice(0, 120), { generation: 'shard-split' });
    const wcPack = packPath(root, {
      generation: 'shard-split',
      packageId: 0,
      sliceStart: 100,
      workchain: 0,
      shard: 1n << 63n,
      splitDepth: 0,
    });
    await rm(wcPack);
    const db = await open(root);
    const shard = firstShardBlockFrom(110);
    const err = await db.block(shard).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeDbPrunedError);
    expect((err as Error).message).toContain(wcPack);
    // the masterchain pack of that slice is still there
    expect((await db.block((await db.mcBlockId(110))!)).bytes.equals(real.steps[109]!.mc.bytes)).toBe(true);
  });

  it('an index pointing at the wrong entry is corrupt, not missing', async () => {
    const root = join(scratch, 'corrupt');
    await writeTree(root, real.steps.slice(0, 20), { generation: 'sliced' });
    // point masterchain 10's file offset at masterchain 9's entry
    const kv = await openRocks(indexDir(root, 0), { mode: 'primary' });
    const off9 = await kv.get(fileIndexKey('block', real.steps[8]!.mc.id));
    await kv.write([{ type: 'put', key: fileIndexKey('block', real.steps[9]!.mc.id), value: off9! }], { sync: true });
    await kv.close();
    const db = await open(root);
    await expect(db.block(real.steps[9]!.mc.id)).rejects.toThrow(NodeDbCorruptError);
  });
});

describe.skipIf(!withIndexes)('an index that lags its packs', () => {
  it('finds the newest masterchain blocks by scanning packs until the node flushes its index WAL', async () => {
    const root = join(scratch, 'lag');
    const steps = real.steps.slice(0, 263);
    const { writer } = await writeTree(root, steps, { generation: 'shard-split', indexCommit: 'node', keepOpen: true });
    try {
      // what a reader of the index alone sees: not the newest blocks (the state db commits with sync: it does)
      const probe = await openRocks(indexDir(root, 0), { mode: 'secondary' });
      expect(await lookupBySeqno(probe, -1, 1n << 63n, 263)).toBeNull();
      await probe.close();

      const db = await open(root);
      expect(db.mode.blocks).toBe('index');
      expect((await db.tip()).shardClient).toBe(263);
      for (const n of [1, 150, 262, 263]) {
        const id = (await db.mcBlockId(n))!;
        expect(fullKeyOf(id)).toBe(fullKeyOf(steps[n - 1]!.mc.id));
        expect((await db.block(id)).bytes.equals(steps[n - 1]!.mc.bytes)).toBe(true);
        expect((await db.shardBlocksCommittedBy(n)).map(fullKeyOf)).toEqual(real.committed.get(n)!.map(fullKeyOf));
        // handles live in the index only
        expect(await db.handle(id)).toBeNull();
      }
      const shard = firstShardBlockFrom(250);
      expect((await db.block(shard)).bytes.equals(real.blocks.get(keyOf(shard))!.bytes)).toBe(true);

      await writer.flushIndexes();
      await db.catchUp();
      const h = await db.handle((await db.mcBlockId(263))!);
      expect(h && fullKeyOf(h.id)).toBe(fullKeyOf(steps[262]!.mc.id));
      expect((await db.tip()).archived).toBe(263);
    } finally {
      await writer.close();
    }
  }, 120_000);

  it('a package index the node is still creating (an empty folder): blocks come from the packs', async () => {
    const root = join(scratch, 'creating');
    await writeTree(root, real.steps.slice(0, 60), { generation: 'shard-split' });
    await rm(indexDir(root, 0), { recursive: true });
    await mkdir(indexDir(root, 0));
    const db = await open(root);
    expect(db.mode.blocks).toBe('index');
    const id = (await db.mcBlockId(60))!;
    expect(fullKeyOf(id)).toBe(fullKeyOf(real.steps[59]!.mc.id));
    expect(await db.handle(id)).toBeNull();
    expect((await db.shardBlocksCommittedBy(60)).map(fullKeyOf)).toEqual(real.committed.get(60)!.map(fullKeyOf));
    expect(await db.tip()).toEqual({ shardClient: 60, archived: null });
  });

  it('tail delivers every masterchain block once, in order, with what it commits', async () => {
    const root = join(scratch, 'tail');
    await writeTree(root, real.steps.slice(0, 40), { generation: 'sliced' });
    for (const blocks of ['index', 'packscan'] as const) {
      const db = await open(root, { blocks });
      const ac = new AbortController();
      const got: string[] = [];
      for await (const item of db.tail(3, { signal: ac.signal, pollMs: 20 })) {
        expect(item.shardBlocks.map(fullKeyOf)).toEqual(real.committed.get(item.mc.seqno)!.map(fullKeyOf));
        got.push(fullKeyOf(item.mc));
        if (item.mc.seqno === 40) ac.abort();
      }
      expect(got).toEqual(real.steps.slice(2, 40).map((s) => fullKeyOf(s.mc.id)));
      await db.close();
    }
  });
});

describe('opening', () => {
  it('refuses a folder that is not a node database, naming it', async () => {
    const root = join(scratch, 'not-a-node');
    await expect(openNodeDb({ root })).rejects.toThrow(`not a TON node database: ${root}`);
    await mkdir(join(root, 'state'), { recursive: true });
    const err = await openNodeDb({ root }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeDbUnsupportedError);
    expect((err as Error).message).toContain(`${root} has no archive/ folder`);
  });

  it('refuses a secondary folder inside the root', async () => {
    const root = join(scratch, 'inside');
    await mkdir(join(root, 'archive'), { recursive: true });
    await expect(openNodeDb({ root, secondaryDir: join(root, 'secondary') })).rejects.toThrow(NodeDbUnsupportedError);
  });

  it.skipIf(!addon.ok)('blocks: index on a tree without indexes refuses; auto falls back to pack scan', async () => {
    const root = join(scratch, 'no-index');
    await mkdir(join(root, 'archive'), { recursive: true });
    await expect(openNodeDb({ root, blocks: 'index' })).rejects.toThrow(NodeDbUnsupportedError);
    const db = await open(root);
    expect(db.mode).toEqual({ blocks: 'packscan', states: 'none' });
    expect(await db.tip()).toEqual({ shardClient: null, archived: null });
    expect(await db.coverage()).toMatchObject({ blocks: null, packages: 0 });
  });
});

// The pack catalog (pack-scan.ts) when a pack changes under it other than by appends: a restarted node cuts a pack
// back to its committed size and appends again, possibly other entries, and the file can end up as long as before
// or longer. Synthetic blocks (the catalog reads entry headers only); expected contents are what the test wrote.
describe('the pack catalog over a pack cut back and rewritten', () => {
  const MC = 1n << 63n;
  const entry = (seqno: number, size: number, tag: string) => {
    const data = Buffer.alloc(size, `${tag}:${seqno}:`);
    const id: BlockIdExt = {
      workchain: -1,
      shard: MC,
      seqno,
      rootHash: createHash('sha256').update(`root ${tag} ${seqno}`).digest(),
      fileHash: createHash('sha256').update(data).digest(),
    };
    return { id, name: fileName('block', id), data };
  };
  type Entry = ReturnType<typeof entry>;
  /** Each block followed by a proof entry, as a node writes them (the catalog must step over the proofs). */
  const withProofs = (es: Entry[]) =>
    es.flatMap((e) => [e, { name: fileName('proof', e.id), data: e.data.subarray(0, 40) }]);
  const oldEntries = [1, 2, 3, 4, 5, 6].map((n) => entry(n, 300 + 200 * n, 'old'));

  /** What the catalog reports for the pack's group: names and the bytes at the reported offsets. */
  async function reported(catalog: PackCatalog, path: string): Promise<Array<[string, string]>> {
    const g = await catalog.scanGroup(0, true);
    const out: Array<[string, string]> = [];
    const reader = await openPackReader(path);
    try {
      for (const list of g.blocks.values()) {
        for (const b of list) {
          const name = fileName('block', b.id);
          const at = await reader.readAt(b.offset).catch((e: unknown) => ({ name: `unreadable: ${e}`, data: null }));
          expect(at.name, `entry at ${b.offset} reported as ${name}`).toBe(name);
          out.push([
            name,
            createHash('sha256')
              .update(at.data ?? Buffer.alloc(0))
              .digest('hex'),
          ]);
        }
      }
    } finally {
      await reader.close();
    }
    return out.sort(([a], [b]) => a.localeCompare(b));
  }
  const expected = (es: Entry[]) =>
    es
      .map((e): [string, string] => [e.name, createHash('sha256').update(e.data).digest('hex')])
      .sort(([a], [b]) => a.localeCompare(b));

  const cases: Array<{
    what: string;
    fresh: Entry[];
    size: 'equal' | 'larger';
    how: 'truncate' | 'replace' | 'truncate, seen';
  }> = [
    {
      // the same total length in other entries: 3..6 again with other hashes, lengths permuted
      what: 'to the same size',
      fresh: [3, 4, 5, 6].map((n) => entry(n, 300 + 200 * (9 - n), 'new')),
      size: 'equal',
      how: 'truncate',
    },
    {
      what: 'to a larger size',
      fresh: [1600, 400, 2100, 700, 1200].map((size, i) => entry(3 + i, size, 'new')),
      size: 'larger',
      how: 'truncate',
    },
    {
      // the last entries are the same ones at the same offsets (3..5 rewritten with other hashes, 6 as before): only
      // the mtime tells, and the pack is read again, not resumed at its (unchanged) last entry
      what: 'to the same size, ending in the same entries',
      fresh: [...[3, 4, 5].map((n) => entry(n, 300 + 200 * n, 'new')), oldEntries[5]!],
      size: 'equal',
      how: 'truncate',
    },
    {
      // a new file renamed over the pack, with the old size and mtime: only the inode tells
      what: 'as a new file of the same size and mtime',
      fresh: [3, 4, 5, 6].map((n) => entry(n, 300 + 200 * (9 - n), 'new')),
      size: 'equal',
      how: 'replace',
    },
    {
      what: 'to a larger size, with a scan between the cut and the appends',
      fresh: [1600, 400, 2100, 700, 1200].map((size, i) => entry(3 + i, size, 'new')),
      size: 'larger',
      how: 'truncate, seen',
    },
  ];

  for (const c of cases) {
    it(`reports the new entries, never the cut ones, after a pack is cut and rewritten ${c.what}`, async () => {
      const root = join(scratch, `catalog-${c.what.replace(/[^a-z]+/g, '-')}`);
      const path = packPath(root, { generation: 'sliced', packageId: 0, sliceStart: 0 });
      const w = await createPackWriter(path);
      const offsets = await w.appendMany(withProofs(oldEntries));
      await w.close();
      // a whole second, so that the replacing file below can be given exactly the same mtime (utimes cannot set ns)
      const mtime = Math.floor(Date.now() / 1000) - 60;
      await setTimes(path, mtime, mtime);
      const rereads: unknown[] = [];
      const catalog = new PackCatalog(root, (_level, msg, fields) => {
        if (msg.startsWith('pack changed other than by appends')) rereads.push(fields);
      });
      expect(await reported(catalog, path)).toEqual(expected(oldEntries));
      const before = await stat(path);

      // cut back to the committed size before masterchain 3 (its block entry) and append other entries
      const cut = offsets[4]!;
      if (c.how === 'replace') {
        const tmp = `${path}.tmp`;
        await copyFile(path, tmp);
        const w2 = await createPackWriter(tmp, { truncateTo: cut });
        await w2.appendMany(withProofs(c.fresh));
        await w2.close();
        await rename(tmp, path);
        await setTimes(path, mtime, mtime);
      } else {
        const w2 = await createPackWriter(path, { truncateTo: cut });
        if (c.how === 'truncate, seen') {
          expect(await reported(catalog, path)).toEqual(expected(oldEntries.slice(0, 2)));
        }
        await w2.appendMany(withProofs(c.fresh));
        await w2.close();
        // a restart takes seconds: the rewritten pack's mtime is later whatever the file system's clock granularity
        await setTimes(path, mtime + 2, mtime + 2);
      }
      const after = await stat(path);
      if (c.size === 'equal') expect(after.size).toBe(before.size);
      else expect(after.size).toBeGreaterThan(before.size);
      if (c.how === 'replace') {
        expect(after.ino).not.toBe(before.ino);
        expect(after.mtimeMs).toBe(before.mtimeMs);
      }

      const now = [...oldEntries.slice(0, 2), ...c.fresh];
      const want = expected(now);
      expect(await reported(catalog, path)).toEqual(want);
      for (const e of c.fresh) {
        const mc = await catalog.findMc(e.id.seqno, 0);
        expect(mc && fileName('block', mc.id), `masterchain ${e.id.seqno}`).toBe(e.name);
      }
      const gone = oldEntries.filter((e) => !now.includes(e));
      expect(gone.length).toBeGreaterThanOrEqual(3);
      for (const e of gone) expect(await catalog.findBlock(e.id, e.id.seqno, 0)).toBeNull();
      // read again once, dropping the blocks from the cut on (a block rewritten at its old offset stays)
      expect(rereads).toEqual([{ path, dropped: gone.length, from: cut }]);
      // and nothing changes on a scan of the unchanged pack
      expect(await reported(catalog, path)).toEqual(want);
      // appends after the rewrite are found where they are
      const extra = entry(8, 999, 'new');
      const w3 = await createPackWriter(path);
      await w3.appendMany(withProofs([extra]));
      await w3.close();
      expect(await reported(catalog, path)).toEqual(expected([...now, extra]));
      // appends only: resumed at the last entry seen, not read again
      expect(rereads).toHaveLength(1);
    });
  }
});
