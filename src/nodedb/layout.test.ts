import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cellDbDir,
  globalIndexDir,
  indexDir,
  listPackages,
  PACKAGE_SPAN,
  packageFolder,
  packFileName,
  packPath,
  parsePackFileName,
  SLICE_SIZE,
  shardPrefix,
  sliceStart,
  stateDbDir,
} from './layout.ts';

const ROOT = '/var/ton-work/db';
const pk = (folder: string, name: string) => join(ROOT, 'archive', 'packages', folder, name);

describe('package and slice maths', () => {
  it('uses the node constants', () => {
    expect(PACKAGE_SPAN).toBe(20000);
    expect(SLICE_SIZE).toBe(100);
  });

  it('names the archNNNN folder from seqno / 100,000', () => {
    expect(packageFolder(0)).toBe('arch0000');
    expect(packageFolder(99999)).toBe('arch0000');
    expect(packageFolder(100000)).toBe('arch0001');
    expect(packageFolder(26584469)).toBe('arch0265');
    expect(packageFolder(123456789)).toBe('arch1234');
    expect(() => packageFolder(-1)).toThrow(RangeError);
    expect(() => packageFolder(1.5)).toThrow(RangeError);
  });

  it('puts a package index under the folder of the package id, with %05d names', () => {
    expect(indexDir(ROOT, 0)).toBe(pk('arch0000', 'archive.00000.index'));
    expect(indexDir(ROOT, 20000)).toBe(pk('arch0000', 'archive.20000.index'));
    // ton-indexer #107: a package opened by a key block
    expect(indexDir(ROOT, 26584469)).toBe(pk('arch0265', 'archive.26584469.index'));
  });

  it('counts slices from the package id', () => {
    expect(sliceStart(0, 0)).toBe(0);
    expect(sliceStart(0, 99)).toBe(0);
    expect(sliceStart(0, 100)).toBe(100);
    expect(sliceStart(0, 264)).toBe(200);
    expect(sliceStart(26584469, 26584469)).toBe(26584469);
    expect(sliceStart(26584469, 26584568)).toBe(26584469);
    expect(sliceStart(26584469, 26584569)).toBe(26584569);
    expect(sliceStart(20000, 20123, 50)).toBe(20100);
    expect(() => sliceStart(26584469, 26584468)).toThrow(/before package/);
    expect(() => sliceStart(0, 5, 0)).toThrow(RangeError);
  });

  it('cuts a shard to its first depth bits plus the tag bit (ton::shard_prefix)', () => {
    // depth 0: the whole workchain, whatever the shard
    expect(shardPrefix(0x4000000000000000n, 0)).toBe(0x8000000000000000n);
    expect(shardPrefix(0x8000000000000000n, 0)).toBe(0x8000000000000000n);
    expect(shardPrefix(0xe000000000000000n, 0)).toBe(0x8000000000000000n);
    // deeper shards are cut: 0x6 = 011|0 (prefix 01) → depth 1 keeps "0": 0x4
    expect(shardPrefix(0x6000000000000000n, 1)).toBe(0x4000000000000000n);
    expect(shardPrefix(0xe000000000000000n, 1)).toBe(0xc000000000000000n);
    expect(shardPrefix(0x3000000000000000n, 2)).toBe(0x2000000000000000n);
    // at their own depth, unchanged
    expect(shardPrefix(0xc000000000000000n, 1)).toBe(0xc000000000000000n);
    expect(shardPrefix(0x6000000000000000n, 2)).toBe(0x6000000000000000n);
    // shorter than the depth: its tag bit stays as a prefix bit (archive-slice.cpp's choose_package)
    expect(shardPrefix(0x8000000000000000n, 2)).toBe(0xa000000000000000n);
    expect(shardPrefix(0x4000000000000000n, 2)).toBe(0x6000000000000000n);
    expect(shardPrefix(0x8000000000000000n, 63)).toBe(0x8000000000000001n);
    expect(() => shardPrefix(0x8000000000000000n, 64)).toThrow(RangeError);
  });
});

describe('pack paths, every generation', () => {
  it('unsliced: one pack named after the package', () => {
    expect(packPath(ROOT, { generation: 'unsliced', packageId: 20000 })).toBe(pk('arch0000', 'archive.20000.pack'));
    expect(packPath(ROOT, { generation: 'unsliced', packageId: 120000, sliceStart: 120100, workchain: 0 })).toBe(
      pk('arch0001', 'archive.120000.pack'),
    );
  });

  it('sliced: masterchain and shard blocks share the slice pack (the ton4j vectors)', () => {
    for (const workchain of [-1, 0]) {
      expect(
        packPath(ROOT, { generation: 'sliced', packageId: 0, sliceStart: 200, workchain, shard: 0x4000000000000000n }),
      ).toBe(pk('arch0000', 'archive.00200.pack'));
    }
  });

  it('shard-split: masterchain in the slice pack, workchain blocks per shard prefix with `_`', () => {
    const base = { generation: 'shard-split' as const, packageId: 26584469, sliceStart: 26584469 };
    expect(packPath(ROOT, { ...base, workchain: -1, shard: 0x8000000000000000n, splitDepth: 2 })).toBe(
      pk('arch0265', 'archive.26584469.pack'),
    );
    expect(packPath(ROOT, { ...base, workchain: 0, shard: 0x4000000000000000n, splitDepth: 0 })).toBe(
      pk('arch0265', 'archive.26584469.0_8000000000000000.pack'),
    );
    expect(packPath(ROOT, { ...base, workchain: 0, shard: 0x6000000000000000n, splitDepth: 1 })).toBe(
      pk('arch0265', 'archive.26584469.0_4000000000000000.pack'),
    );
    expect(
      packFileName({ ...base, sliceStart: 26584569, workchain: 0, shard: 0xe800000000000000n, splitDepth: 2 }),
    ).toBe('archive.26584569.0_e000000000000000.pack');
  });

  it('shard-split-colon: the same names with `:` (Jun 2024 – Nov 2025)', () => {
    const loc = {
      generation: 'shard-split-colon' as const,
      packageId: 0,
      sliceStart: 100,
      workchain: 0,
      shard: 0x8000000000000000n,
      splitDepth: 0,
    };
    expect(packPath(ROOT, loc)).toBe(pk('arch0000', 'archive.00100.0:8000000000000000.pack'));
    expect(packPath(ROOT, { ...loc, workchain: -1 })).toBe(pk('arch0000', 'archive.00100.pack'));
  });

  it('a package crossing a 100,000 boundary: index under its own folder, later packs under the next', () => {
    // a key block at 99950 opens a package; its slices start at 99950 and 100050
    expect(indexDir(ROOT, 99950)).toBe(pk('arch0000', 'archive.99950.index'));
    expect(packPath(ROOT, { generation: 'sliced', packageId: 99950, sliceStart: sliceStart(99950, 99999) })).toBe(
      pk('arch0000', 'archive.99950.pack'),
    );
    const next = sliceStart(99950, 100060);
    expect(next).toBe(100050);
    expect(packPath(ROOT, { generation: 'sliced', packageId: 99950, sliceStart: next })).toBe(
      pk('arch0001', 'archive.100050.pack'),
    );
    expect(
      packPath(ROOT, {
        generation: 'shard-split',
        packageId: 99950,
        sliceStart: next,
        workchain: 0,
        shard: 0xc000000000000000n,
        splitDepth: 1,
      }),
    ).toBe(pk('arch0001', 'archive.100050.0_c000000000000000.pack'));
  });

  it('says which field a generation is missing', () => {
    expect(() => packPath(ROOT, { generation: 'sliced', packageId: 0 })).toThrow(/sliced needs sliceStart/);
    expect(() => packPath(ROOT, { generation: 'shard-split', packageId: 0, sliceStart: 0 })).toThrow(/needs workchain/);
    expect(() => packPath(ROOT, { generation: 'shard-split', packageId: 0, sliceStart: 0, workchain: 0 })).toThrow(
      /needs shard/,
    );
    expect(() =>
      packPath(ROOT, { generation: 'shard-split', packageId: 0, sliceStart: 0, workchain: 0, shard: 1n << 63n }),
    ).toThrow(/needs splitDepth/);
    expect(() => packPath(ROOT, { generation: 'sliced', packageId: 200, sliceStart: 100 })).toThrow(/before package/);
  });
});

describe('parsePackFileName', () => {
  it('parses every form', () => {
    expect(parsePackFileName('archive.00000.pack')).toEqual({ seqno: 0 });
    expect(parsePackFileName('archive.00200.pack')).toEqual({ seqno: 200 });
    expect(parsePackFileName('archive.26584469.pack')).toEqual({ seqno: 26584469 });
    expect(parsePackFileName('archive.00100.0_8000000000000000.pack')).toEqual({
      seqno: 100,
      workchain: 0,
      prefix: 0x8000000000000000n,
      separator: '_',
    });
    expect(parsePackFileName('archive.26584469.0:a000000000000000.pack')).toEqual({
      seqno: 26584469,
      workchain: 0,
      prefix: 0xa000000000000000n,
      separator: ':',
    });
    expect(parsePackFileName('archive.100050.-7_4000000000000000.pack')).toEqual({
      seqno: 100050,
      workchain: -7,
      prefix: 0x4000000000000000n,
      separator: '_',
    });
  });

  it('round-trips with packFileName', () => {
    for (const name of [
      'archive.00300.pack',
      'archive.00300.0_c000000000000000.pack',
      'archive.00300.0:c000000000000000.pack',
    ]) {
      const p = parsePackFileName(name)!;
      const generation = p.separator === ':' ? 'shard-split-colon' : 'shard-split';
      expect(
        packFileName({
          generation,
          packageId: 0,
          sliceStart: p.seqno,
          workchain: p.workchain ?? -1,
          shard: p.prefix,
          splitDepth: p.prefix === undefined ? undefined : 1,
        }),
      ).toBe(name);
    }
  });

  it('returns null for everything else', () => {
    for (const name of [
      'archive.100.pack', // not %05d
      'archive.000100.pack', // not canonical either
      'archive.00100.pack.new',
      'archive.00100.index',
      'archive.00100.0_C000000000000000.pack', // shard_to_str is lower-case
      'archive.00100.0_c00000000000000.pack',
      'archive.00100.0-c000000000000000.pack',
      'archive.00100.00_c000000000000000.pack',
      'key.archive.000000.pack',
      'temp.archive.1705341600.pack',
      'archive.pack',
    ]) {
      expect(parsePackFileName(name), name).toBeNull();
    }
  });
});

describe('listPackages', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tongate-layout-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const touch = async (rel: string) => {
    await mkdir(join(root, rel, '..'), { recursive: true });
    await writeFile(join(root, rel), '');
  };

  it('is empty without an archive folder', async () => {
    expect(await listPackages(join(root, 'nothing'))).toEqual([]);
  });

  it('lists index folders and packs without index, ignoring key and temp packages', async () => {
    const p = 'archive/packages';
    // package 0 with its index and slices (one split by shard)
    await mkdir(join(root, p, 'arch0000/archive.00000.index'), { recursive: true });
    await touch(`${p}/arch0000/archive.00000.pack`);
    await touch(`${p}/arch0000/archive.00100.pack`);
    await touch(`${p}/arch0000/archive.00100.0_8000000000000000.pack`);
    // a key-block package crossing into arch0001
    await mkdir(join(root, p, 'arch0000/archive.99950.index'), { recursive: true });
    await touch(`${p}/arch0000/archive.99950.pack`);
    await touch(`${p}/arch0001/archive.100050.0:8000000000000000.pack`);
    // packs with no index: a package at a multiple of 20,000 and one opened by a key block inside it
    await touch(`${p}/arch0001/archive.120000.pack`);
    await touch(`${p}/arch0001/archive.120100.pack`);
    await touch(`${p}/arch0001/archive.120137.pack`);
    // not archive packages
    await mkdir(join(root, p, 'key000/key.archive.000000.index'), { recursive: true });
    await touch(`${p}/key000/key.archive.000000.pack`);
    await touch('files/packages/temp.archive.1705341600.pack');
    await touch(`${p}/arch0001/archive.120000.pack.new`);
    expect(await listPackages(root)).toEqual([0, 99950, 120000, 120137]);
  });

  it('reads packs alone as one package when they are slices of it (the ton4j files)', async () => {
    const r = join(root, 'packs-only');
    for (const s of ['00000', '00100', '00200']) {
      await mkdir(join(r, 'archive/packages/arch0000'), { recursive: true });
      await writeFile(join(r, 'archive/packages/arch0000', `archive.${s}.pack`), '');
    }
    expect(await listPackages(r)).toEqual([0]);
  });
});

describe('other databases', () => {
  it('are files/globalindex, state and celldb', () => {
    expect(globalIndexDir(ROOT)).toBe(join(ROOT, 'files', 'globalindex'));
    expect(stateDbDir(ROOT)).toBe(join(ROOT, 'state'));
    expect(cellDbDir(ROOT)).toBe(join(ROOT, 'celldb'));
  });
});
