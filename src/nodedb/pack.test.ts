import { createHash } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beginCell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockIdExt } from '../ton/index.ts';
import { fileName } from './fileref.ts';
import {
  checkBlockEntry,
  createPackWriter,
  openPackReader,
  PACK_ENTRY_MAGIC,
  PACK_HEADER_MAGIC,
  type PackEntry,
  type PackReader,
} from './pack.ts';
import { NodeDbFormatError } from './tl.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tongate-pack-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entrySize = (name: string, data: Buffer) => 8 + name.length + data.length;

/** Opens, runs, closes. */
async function withReader<T>(path: string, fn: (r: PackReader) => Promise<T>): Promise<T> {
  const r = await openPackReader(path);
  try {
    return await fn(r);
  } finally {
    await r.close();
  }
}

const ENTRIES = [
  { name: 'a', data: Buffer.from('first') },
  { name: 'bb', data: Buffer.alloc(0) },
  { name: 'ccc', data: Buffer.alloc(1_500_000, 0x33) }, // larger than the scan's read chunk
  { name: 'dddd', data: Buffer.from('after the big one') },
];

describe('pack writer and reader', () => {
  it('writes the container byte for byte as §2.1 describes', async () => {
    const path = join(dir, 'bytes', 'archive.00000.pack'); // the folder is created too
    const w = await createPackWriter(path);
    expect(w.size).toBe(0);
    expect(await w.append('xy', Buffer.from([9, 8, 7]))).toBe(0);
    await w.close();
    expect((await readFile(path)).toString('hex')).toBe(`01dd8fae8b1e0200030000007879090807`);
    expect(PACK_HEADER_MAGIC).toBe(0xae8fdd01);
    expect(PACK_ENTRY_MAGIC).toBe(0x1e8b);
  });

  it('appends, reads back at the returned offsets, and scans', async () => {
    const path = join(dir, 'basic.pack');
    const w = await createPackWriter(path);
    const first = await w.append(ENTRIES[0]!.name, ENTRIES[0]!.data);
    const rest = await w.appendMany(ENTRIES.slice(1));
    const offsets = [first, ...rest];
    let at = 0;
    for (const [i, e] of ENTRIES.entries()) {
      expect(offsets[i]).toBe(at);
      at += entrySize(e.name, e.data);
    }
    expect(w.size).toBe(at);
    await w.sync();
    await w.close();
    expect((await stat(path)).size).toBe(4 + at);

    await withReader(path, async (r) => {
      expect(r.size).toBe(at);
      // Buffer.equals: vitest's deep equality is slow on megabyte buffers
      const same = (got: PackEntry, i: number) =>
        got.name === ENTRIES[i]!.name && got.offset === offsets[i] && got.data.equals(ENTRIES[i]!.data);
      for (const [i, e] of ENTRIES.entries()) expect(same(await r.readAt(offsets[i]!, e.name), i)).toBe(true);
      const s = await r.scan();
      expect(s.entries.length).toBe(ENTRIES.length);
      expect(s.entries.every(same)).toBe(true);
      expect(Object.keys(s.entries[0]!).sort()).toEqual(['data', 'name', 'offset']);
      expect({ ...s, entries: [] }).toEqual({ entries: [], end: at, torn: false, duplicates: [] });
      const h = await r.scanHeaders();
      expect(h.entries).toEqual(ENTRIES.map((e, i) => ({ name: e.name, offset: offsets[i], dataSize: e.data.length })));
      expect(h.end).toBe(at);
      // a later scan resumes where an earlier one stopped; committedSize stops a scan early
      const part = await r.scan({ committedSize: offsets[2] });
      expect(part.entries.map((e) => e.name)).toEqual(['a', 'bb']);
      expect(part).toMatchObject({ end: offsets[2], torn: false });
      const more = await r.scan({ from: part.end });
      expect(more.entries.map((e) => e.name)).toEqual(['ccc', 'dddd']);
      expect(more.end).toBe(at);
    });
  });

  it('gives concurrent appends distinct offsets', async () => {
    const path = join(dir, 'concurrent.pack');
    const w = await createPackWriter(path);
    const names = Array.from({ length: 20 }, (_, i) => `entry_${i}`);
    const offsets = await Promise.all(names.map((n, i) => w.append(n, Buffer.alloc(i * 100, i))));
    await w.close();
    await withReader(path, async (r) => {
      const s = await r.scan();
      expect(s.torn).toBe(false);
      expect(s.entries.map((e) => e.name)).toEqual(names);
      expect(s.entries.map((e) => e.offset)).toEqual(offsets);
      expect(s.entries[7]!.data).toEqual(Buffer.alloc(700, 7));
    });
  });

  it('keeps the first copy of a repeated name and reports the rest', async () => {
    const path = join(dir, 'dups.pack');
    const w = await createPackWriter(path);
    await w.appendMany([
      { name: 'x', data: Buffer.from('one') },
      { name: 'y', data: Buffer.from('y') },
      { name: 'x', data: Buffer.from('two') },
      { name: 'x', data: Buffer.from('three') },
    ]);
    await w.close();
    await withReader(path, async (r) => {
      const s = await r.scan();
      expect(s.entries.map((e) => [e.name, e.data.toString()])).toEqual([
        ['x', 'one'],
        ['y', 'y'],
      ]);
      expect(s.duplicates).toEqual(['x', 'x']);
      expect(s.torn).toBe(false);
      expect(s.end).toBe(w.size);
    });
  });

  describe('a torn tail', () => {
    const intact = [
      { name: 'one', data: Buffer.from('1111') },
      { name: 'two', data: Buffer.from('2222') },
    ];
    const good = intact.reduce((n, e) => n + entrySize(e.name, e.data), 0);
    const next = Buffer.concat([
      Buffer.from([0x8b, 0x1e, 5, 0, 10, 0, 0, 0]),
      Buffer.from('three'),
      Buffer.from('3333333333'),
    ]);
    const tails: Array<[string, Buffer]> = [
      ['half an entry', next.subarray(0, 15)],
      ['a partial header', next.subarray(0, 5)],
      ['garbage', Buffer.from('garbage garbage garbage')],
      ['a header whose length runs past the end', Buffer.from([0x8b, 0x1e, 1, 0, 0xff, 0xff, 0xff, 0x7f, 0x41])],
    ];

    for (const [what, tail] of tails) {
      it(`stops the scan at ${what}, with the entries before it intact`, async () => {
        const path = join(dir, `torn-${what.replaceAll(' ', '-')}.pack`);
        const w = await createPackWriter(path);
        await w.appendMany(intact);
        await w.close();
        await appendFile(path, tail);
        await withReader(path, async (r) => {
          expect(r.size).toBe(good + tail.length);
          const s = await r.scan();
          expect(s.entries.map((e) => [e.name, e.data.toString()])).toEqual([
            ['one', '1111'],
            ['two', '2222'],
          ]);
          expect(s).toMatchObject({ end: good, torn: true, duplicates: [] });
          expect(await r.scanHeaders()).toMatchObject({ end: good, torn: true });
          // the index's committed size says where the pack ends: no tear within it
          expect(await r.scan({ committedSize: good })).toMatchObject({ end: good, torn: false });
          await expect(r.readAt(good)).rejects.toThrow(NodeDbFormatError);
        });
      });
    }

    it('is cut by reopening the writer with truncateTo, and appends continue from there', async () => {
      const path = join(dir, 'truncate.pack');
      const w = await createPackWriter(path);
      await w.appendMany(intact);
      await w.close();
      await appendFile(path, next.subarray(0, 15));
      await expect(createPackWriter(path, { truncateTo: good + 16 })).rejects.toThrow(/past the end of the file/);
      const w2 = await createPackWriter(path, { truncateTo: good });
      expect(w2.size).toBe(good);
      expect((await stat(path)).size).toBe(4 + good);
      expect(await w2.append('three', Buffer.from('3333333333'))).toBe(good);
      await w2.close();
      await withReader(path, async (r) => {
        const s = await r.scan();
        expect(s.torn).toBe(false);
        expect(s.entries.map((e) => e.name)).toEqual(['one', 'two', 'three']);
      });
    });

    it('without truncateTo, appends go after the tail (as version-0 packs) and only readAt finds them', async () => {
      const path = join(dir, 'append-after-tail.pack');
      const w = await createPackWriter(path);
      await w.appendMany(intact);
      await w.close();
      await appendFile(path, Buffer.from('junk'));
      const w2 = await createPackWriter(path);
      expect(w2.size).toBe(good + 4);
      const off = await w2.append('late', Buffer.from('L'));
      await w2.close();
      await withReader(path, async (r) => {
        expect((await r.readAt(off, 'late')).data.toString()).toBe('L');
        expect(await r.scan()).toMatchObject({ end: good, torn: true });
        expect((await r.scan({ from: off })).entries.map((e) => e.name)).toEqual(['late']);
      });
    });
  });

  it('readAt names what is wrong', async () => {
    const path = join(dir, 'readat.pack');
    const w = await createPackWriter(path);
    await w.append('block_x', Buffer.from('data'));
    const second = await w.append('proof_x', Buffer.from('more'));
    await w.close();
    await withReader(path, async (r) => {
      await expect(r.readAt(0, 'proof_x')).rejects.toThrow(/offset 0: expected proof_x, found block_x/);
      await expect(r.readAt(1)).rejects.toThrow(/expected entry magic 0x1e8b/);
      await expect(r.readAt(second + 100)).rejects.toThrow(/past the end/);
      await expect(r.readAt(-1)).rejects.toThrow(RangeError);
      expect((await r.readAt(second)).name).toBe('proof_x');
    });
  });

  it('refuses files that are not packs', async () => {
    const notPack = join(dir, 'not.pack');
    await writeFile(notPack, Buffer.from('hello world'));
    await expect(openPackReader(notPack)).rejects.toThrow(/expected header magic 0xae8fdd01, got 0x6c6c6568/);
    await expect(createPackWriter(notPack)).rejects.toThrow(NodeDbFormatError);
    const tiny = join(dir, 'tiny.pack');
    await writeFile(tiny, Buffer.from([1, 0xdd]));
    await expect(openPackReader(tiny)).rejects.toThrow(/a 2-byte file/);
    // a writer treats a file shorter than the header as new, as the node does
    const w = await createPackWriter(tiny);
    await w.close();
    await withReader(tiny, async (r) => expect(await r.scan()).toMatchObject({ entries: [], end: 0, torn: false }));
  });

  it('refuses entry names it cannot store', async () => {
    const w = await createPackWriter(join(dir, 'names.pack'));
    await expect(w.append('é', Buffer.alloc(0))).resolves.toBe(0); // one byte in latin1
    await expect(w.append('名', Buffer.alloc(0))).rejects.toThrow(RangeError);
    await expect(w.append('n'.repeat(65536), Buffer.alloc(0))).rejects.toThrow(RangeError);
    await w.close();
  });
});

describe('checkBlockEntry', () => {
  const boc = beginCell().storeUint(0x11ef55aa, 32).storeRef(beginCell().storeUint(7, 8)).endCell().toBoc();
  const root = beginCell().storeUint(0x11ef55aa, 32).storeRef(beginCell().storeUint(7, 8)).endCell();
  const id: BlockIdExt = {
    workchain: 0,
    shard: 0x8000000000000000n,
    seqno: 3,
    rootHash: root.hash(),
    fileHash: createHash('sha256').update(boc).digest(),
  };

  it('returns the id when the name matches the data', () => {
    expect(checkBlockEntry({ name: fileName('block', id), offset: 0, data: boc })).toEqual(id);
  });

  it('throws on a wrong file hash, a wrong root hash, a non-block entry or non-BoC data', () => {
    const wrongFile = { ...id, fileHash: Buffer.alloc(32) };
    expect(() => checkBlockEntry({ name: fileName('block', wrongFile), offset: 5, data: boc })).toThrow(
      /offset 5: sha256 of the data is/,
    );
    const wrongRoot = { ...id, rootHash: Buffer.alloc(32) };
    expect(() => checkBlockEntry({ name: fileName('block', wrongRoot), offset: 0, data: boc })).toThrow(
      /BoC root hash is/,
    );
    expect(() => checkBlockEntry({ name: fileName('proof', id), offset: 0, data: boc })).toThrow(
      /expected a block_ entry/,
    );
    expect(() => checkBlockEntry({ name: 'signatures_x', offset: 0, data: boc })).toThrow(NodeDbFormatError);
    const junk = Buffer.from('not a bag of cells');
    const junkId = { ...id, fileHash: createHash('sha256').update(junk).digest() };
    expect(() => checkBlockEntry({ name: fileName('block', junkId), offset: 0, data: junk })).toThrow(/not a BoC/);
  });
});
