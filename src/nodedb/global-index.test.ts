import { describe, expect, it } from 'vitest';
import {
  GLOBAL_INDEX_KEY,
  type GlobalIndex,
  globalIndexOps,
  lookupPackages,
  type PackageInfo,
  packageFor,
  packageKey,
  packageOp,
  readGlobalIndex,
  readPackage,
  readPackages,
} from './global-index.ts';
import { createMemoryKv } from './kv/memory.ts';
import { NodeDbFormatError } from './tl.ts';

const WHOLE = 0x8000000000000000n;
const LEFT = 0x4000000000000000n;
const RIGHT = 0xc000000000000000n;

// Three archive packages: 0 (masterchain and the whole workchain), 20000 (garbage-collected), and 26584, opened by
// a key block, after the workchain split. One key package and one temp package complete the lists.
const packages: PackageInfo[] = [
  {
    id: 0,
    key: false,
    temp: false,
    firstBlocks: [
      { workchain: -1, shard: WHOLE, seqno: 1, unixtime: 1000, lt: 1000001n },
      { workchain: 0, shard: WHOLE, seqno: 1, unixtime: 1004, lt: 2000001n },
    ],
    deleted: false,
  },
  {
    id: 20000,
    key: false,
    temp: false,
    firstBlocks: [
      { workchain: -1, shard: WHOLE, seqno: 20000, unixtime: 90000, lt: 80000001n },
      { workchain: 0, shard: WHOLE, seqno: 19990, unixtime: 90002, lt: 80000005n },
    ],
    deleted: true,
  },
  {
    id: 26584,
    key: false,
    temp: false,
    firstBlocks: [
      { workchain: -1, shard: WHOLE, seqno: 26584, unixtime: 120000, lt: 110000001n },
      { workchain: 0, shard: LEFT, seqno: 26570, unixtime: 120001, lt: 110000003n },
      { workchain: 0, shard: RIGHT, seqno: 26571, unixtime: 120002, lt: 110000004n },
    ],
    deleted: false,
  },
  { id: 0, key: true, temp: false, firstBlocks: [], deleted: false },
  { id: 1705340000, key: false, temp: true, firstBlocks: [], deleted: false },
];
const index: GlobalIndex = { packages: [0, 20000, 26584], keyPackages: [0], tempPackages: [1705340000] };

async function stored() {
  const kv = createMemoryKv();
  await kv.write([...globalIndexOps(index), ...packages.map(packageOp)]);
  return kv;
}

describe('global index', () => {
  it('stores db.files.index.value under the 4 bytes 02 05 C4 7D and reads it back', async () => {
    const kv = await stored();
    expect(GLOBAL_INDEX_KEY.toString('hex')).toBe('0205c47d');
    const raw = await kv.get(Buffer.from('0205c47d', 'hex'));
    // id fcdab1a2, then three (count, ints…) vectors
    expect(raw?.toString('hex')).toBe(
      'fcdab1a2' +
        '03000000' +
        '00000000' +
        '204e0000' +
        'd8670000' +
        '01000000' +
        '00000000' +
        '01000000' +
        '606ca565',
    );
    expect(await readGlobalIndex(kv)).toEqual(index);
    expect(await readGlobalIndex(createMemoryKv())).toBeNull();
  });

  it('stores each package under db.files.package.key with 28-byte bare first blocks', async () => {
    const kv = await stored();
    // key: id a504033e, package_id, key:Bool, temp:Bool (boolFalse bc799737, boolTrue 997275b5, as LE bytes)
    expect(packageKey(26584, false, false).toString('hex')).toBe('3e0304a5d8670000379779bc379779bc');
    expect(packageKey(0, true, false).toString('hex')).toBe('3e0304a500000000b5757299379779bc');
    const raw = await kv.get(packageKey(26584, false, false));
    expect(raw?.length).toBe(4 + 4 + 4 + 4 + 4 + 3 * 28 + 4);
    expect(raw?.subarray(0, 4).toString('hex')).toBe('2bd54ce4');
    // the second first block: wc 0, shard 4000000000000000 (LE), seqno 26570, unixtime 120001, lt 110000003
    expect(raw?.subarray(20 + 28, 20 + 56).toString('hex')).toBe(
      '00000000' + '0000000000000040' + 'ca670000' + 'c1d40100' + '83778e0600000000',
    );
    for (const p of packages) expect(await readPackage(kv, p.id, p.key, p.temp)).toEqual(p);
    expect(await readPackage(kv, 40000, false, false)).toBeNull();
    expect(await readPackages(kv, index)).toEqual(packages);
  });

  it('rejects values that do not parse or name another package', async () => {
    const kv = await stored();
    const value = (await kv.get(packageKey(26584, false, false)))!;
    await kv.write([{ type: 'put', key: packageKey(40000, false, false), value }]);
    await expect(readPackage(kv, 40000, false, false)).rejects.toThrow(/is for package 26584/);
    await kv.write([{ type: 'put', key: packageKey(40000, false, false), value: value.subarray(0, value.length - 1) }]);
    await expect(readPackage(kv, 40000, false, false)).rejects.toThrow(NodeDbFormatError);
    await expect(readPackages(kv, { ...index, packages: [...index.packages, 60000] })).rejects.toThrow(
      /package 60000 is listed/,
    );
  });

  it('packageFor: the largest non-deleted archive package id <= the masterchain seqno', () => {
    expect(packageFor(index, packages, 1)).toBe(0);
    expect(packageFor(index, packages, 19999)).toBe(0);
    expect(packageFor(index, packages, 20000)).toBe(0); // 20000 was garbage-collected
    expect(packageFor(index, packages, 26583)).toBe(0);
    expect(packageFor(index, packages, 26584)).toBe(26584);
    expect(packageFor(index, packages, 99999)).toBe(26584);
    // key and temp packages never answer; nothing at or below the seqno: null
    expect(packageFor(index, packages.slice(3), 5)).toBeNull();
    const later = packages.filter((p) => p.id !== 0);
    expect(packageFor(index, later, 100)).toBeNull();
  });

  it('lookupPackages: by first blocks of the shards containing the prefix, then the next package', () => {
    const live = packages.filter((p) => p.id !== 20000);
    // masterchain by seqno: the package whose first masterchain block is the last at or before it
    expect(lookupPackages(live, -1, WHOLE, { seqno: 26000 })).toEqual([0]);
    expect(lookupPackages(live, -1, WHOLE, { seqno: 26584 })).toEqual([26584]);
    expect(lookupPackages(live, -1, WHOLE, { seqno: 0 })).toEqual([]);
    // by lt and utime the next package is the fallback (its first block may be the answer)
    expect(lookupPackages(live, -1, WHOLE, { lt: 5n })).toEqual([0]);
    expect(lookupPackages(live, -1, WHOLE, { lt: 2000000n })).toEqual([0, 26584]);
    expect(lookupPackages(live, -1, WHOLE, { utime: 130000 })).toEqual([26584]);
    // workchain 0 after the split: the left child's prefix sees the whole chain in 0 and its own list in 26584
    expect(lookupPackages(live, 0, LEFT, { seqno: 26570 })).toEqual([26584]);
    expect(lookupPackages(live, 0, LEFT, { seqno: 26569 })).toEqual([0]);
    expect(lookupPackages(live, 0, 0x2000000000000000n, { utime: 120000 })).toEqual([0, 26584]);
    // the deleted package is never chosen
    expect(lookupPackages(packages, 0, WHOLE, { seqno: 19995 })).toEqual([0]);
  });
});
