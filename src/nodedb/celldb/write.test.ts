// The node-format writer: refcounts against a count made independently from the trees (a new cell's refcount is
// the number of references to it from new cells, +1 per root; a present cell gains the same), plain and merge
// modes ending in the same database, −1+BoC records at the node's compress depth, and a deep tree.
import { beginCell, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { distinctCells, expectedRefcounts } from '../../../test/helpers/cells.ts';
import { hasVectors, loadVectors } from '../../../test/helpers/vectors.ts';
import { createMemoryKv } from '../kv/memory.ts';
import { cellRefcountMerge, parseCellRecord, recordRefcount } from './record.ts';
import { createCellStore } from './store.ts';
import { type CellDbWriteOptions, cellDbWriteOps } from './write.ts';

async function writeAll(roots: Cell[], opts: Omit<CellDbWriteOptions, 'has' | 'get'>) {
  const kv = createMemoryKv({ merge: cellRefcountMerge });
  for (const root of roots) {
    const ops = await cellDbWriteOps(root, {
      ...opts,
      has: async (h) => (await kv.get(h)) !== null,
      get: (h) => kv.get(h),
    });
    await kv.write(ops);
  }
  return kv;
}

async function refcounts(kv: ReturnType<typeof createMemoryKv>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [k, v] of await kv.range({})) out.set(k.toString('hex'), recordRefcount(v));
  return out;
}

describe.skipIf(!hasVectors)('cellDbWriteOps over real blocks', () => {
  const blocks = hasVectors
    ? loadVectors<{ boc_base64: string }>('blocks').map((v) => Cell.fromBase64(v.data.boc_base64))
    : [];

  it('stores each new cell once with the refcount the node would give it; present cells gain the same', async () => {
    // a subtree first, then the whole block (which contains it), then another block: overlaps on purpose
    const roots = [blocks[1]!.refs[3]!, blocks[1]!, blocks[2]!];
    const want = expectedRefcounts(roots);
    const merge = await writeAll(roots, { mode: 'merge' });
    const plain = await writeAll(roots, { mode: 'plain' });
    expect(await refcounts(merge)).toEqual(want);
    // the two modes leave the same bytes
    const [a, b] = [await merge.range({}), await plain.range({})];
    expect(a.length).toBe(b.length);
    a.forEach(([k, v], i) => {
      expect(k.equals(b[i]![0])).toBe(true);
      expect(v.equals(b[i]![1])).toBe(true);
    });
    // a subtree already present: only merges for it (no Put), and only for cells that gain references
    const again = await cellDbWriteOps(blocks[1]!.refs[3]!, { has: async (h) => (await merge.get(h)) !== null });
    expect(again).toEqual([{ type: 'merge', key: blocks[1]!.refs[3]!.hash(), value: Buffer.from([1, 0, 0, 0]) }]);
  });

  it("compress depth: cells of that subtree height become −1+BoC records; 'omit' leaves out what only they reach", async () => {
    const block = blocks[0]!;
    const all = distinctCells(block);
    const compressed = [...all.values()].filter((c) => c.depth() === 3);
    expect(compressed.length).toBeGreaterThan(10);
    // what a walk reaches without entering a compressed cell
    const reach = new Set<string>();
    const stack = [block];
    while (stack.length > 0) {
      const c = stack.pop()!;
      const k = c.hash().toString('hex');
      if (reach.has(k)) continue;
      reach.add(k);
      if (c.depth() !== 3) stack.push(...c.refs);
    }
    expect(reach.size).toBeLessThan(all.size);

    const omit = await writeAll([block], { compressDepth: 3 });
    const keys = new Set((await omit.range({})).map(([k]) => k.toString('hex')));
    expect(keys).toEqual(reach);
    for (const c of compressed) {
      const rec = parseCellRecord((await omit.get(c.hash()))!, c.hash());
      expect(rec.kind).toBe('boc');
    }
    const store = await writeAll([block], { compressDepth: 3, compressedChildren: 'store' });
    expect((await store.range({})).length).toBe(all.size);
    for (const kv of [omit, store]) {
      expect((await createCellStore(kv).loadCell(block.hash())).hash().equals(block.hash())).toBe(true);
    }
  });
});

describe('cellDbWriteOps', () => {
  it('walks and loads a tree thousands of cells deep without recursion', async () => {
    let c = beginCell().storeUint(0, 8).endCell();
    for (let i = 1; i < 5000; i++)
      c = beginCell()
        .storeUint(i & 0xff, 8)
        .storeRef(c)
        .endCell();
    const kv = await writeAll([c], { mode: 'merge' });
    expect((await kv.range({})).length).toBe(5000);
    expect((await createCellStore(kv).loadCell(c.hash())).hash().equals(c.hash())).toBe(true);
  });

  it('plain mode needs get() for present cells', async () => {
    const cell = beginCell().storeUint(1, 8).endCell();
    await expect(cellDbWriteOps(cell, { has: () => true, mode: 'plain' })).rejects.toThrow(/get\(\)/);
  });
});
