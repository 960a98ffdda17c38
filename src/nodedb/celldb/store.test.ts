// The cell store over an in-memory celldb: whole subtrees rebuilt (hash-checked) in one multiGet per level, the
// record cache, −1+BoC records serving their children, and the typed errors for absent and mislabelled records.
import { beginCell, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../test/helpers/vectors.ts';
import { createMemoryKv } from '../kv/memory.ts';
import type { KvReader } from '../kv/types.ts';
import { NodeDbFormatError } from '../tl.ts';
import { cellRefcountMerge, encodeCellRecord, encodeCellRecordBoc } from './record.ts';
import { createCellStore, NodeDbMissingCellError } from './store.ts';
import { cellDbWriteOps } from './write.ts';

/** A KvReader that counts the keys it is asked for. */
function counting(kv: KvReader): KvReader & { keysRead: number; calls: number } {
  const c = {
    path: kv.path,
    keysRead: 0,
    calls: 0,
    get: (k: Buffer) => {
      c.keysRead++;
      c.calls++;
      return kv.get(k);
    },
    multiGet: (ks: readonly Buffer[]) => {
      c.keysRead += ks.length;
      c.calls++;
      return kv.multiGet(ks);
    },
    range: kv.range.bind(kv),
    catchUp: kv.catchUp.bind(kv),
    close: kv.close.bind(kv),
  };
  return c;
}

const leaf = (n: number) => beginCell().storeUint(n, 16).endCell();
const tree = beginCell()
  .storeUint(1, 8)
  .storeRef(beginCell().storeUint(2, 8).storeRef(leaf(1)).storeRef(leaf(2)).endCell())
  .storeRef(leaf(1)) // shared with the subtree
  .endCell();

async function written(root: Cell, compressDepth = 0) {
  const kv = createMemoryKv({ merge: cellRefcountMerge });
  await kv.write(await cellDbWriteOps(root, { has: async (h) => (await kv.get(h)) !== null, compressDepth }));
  return kv;
}

describe('createCellStore', () => {
  it('rebuilds a subtree level by level, each distinct cell read once, then serves records from its cache', async () => {
    const kv = counting(await written(tree));
    const store = createCellStore(kv);
    const got = await store.loadCell(tree.hash());
    expect(got.hash().equals(tree.hash())).toBe(true);
    expect(kv.calls).toBe(3); // tree depth 2: three levels
    expect(kv.keysRead).toBe(4); // four distinct cells
    const again = await store.records([tree.hash(), leaf(1).hash(), leaf(2).hash(), leaf(1).hash()]);
    expect(again.map((r) => r?.refcount)).toEqual([1, 2, 1, 2]);
    expect(kv.keysRead).toBe(4);
  });

  it('with cacheBytes 0 reads every time', async () => {
    const kv = counting(await written(tree));
    const store = createCellStore(kv, { cacheBytes: 0 });
    await store.record(tree.hash());
    await store.record(tree.hash());
    expect(kv.keysRead).toBe(2);
  });

  it('absent and empty values are null; loadCell names the missing cell', async () => {
    const kv = await written(tree);
    await kv.write([{ type: 'put', key: leaf(2).hash(), value: Buffer.alloc(0) }]);
    const store = createCellStore(kv);
    expect(await store.record(leaf(2).hash())).toBeNull();
    expect(await store.record(Buffer.alloc(32, 7))).toBeNull();
    const err = await store.loadCell(tree.hash()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeDbMissingCellError);
    expect((err as NodeDbMissingCellError).hash.equals(leaf(2).hash())).toBe(true);
    expect((err as Error).message).toContain(leaf(2).hash().toString('hex'));
  });

  it('a record under the wrong key is a format error', async () => {
    const kv = createMemoryKv();
    await kv.write([{ type: 'put', key: leaf(9).hash(), value: encodeCellRecord(leaf(8), 1) }]);
    await expect(createCellStore(kv).record(leaf(9).hash())).rejects.toThrow(NodeDbFormatError);
  });

  it('serves the children of a −1+BoC record from the BoC', async () => {
    const kv = createMemoryKv();
    await kv.write([{ type: 'put', key: tree.hash(), value: encodeCellRecordBoc(tree, 1) }]);
    const store = createCellStore(kv);
    expect(await store.record(leaf(2).hash())).toBeNull();
    expect((await store.loadCell(tree.hash())).hash().equals(tree.hash())).toBe(true);
  });
});

describe.skipIf(!hasVectors)('createCellStore over a real block', () => {
  it('loads every block back, plain and with BoC records at depth 3', async () => {
    for (const { data } of loadVectors<{ boc_base64: string }>('blocks').slice(0, 4)) {
      const block = Cell.fromBase64(data.boc_base64);
      for (const depth of [0, 3]) {
        const kv = await written(block, depth);
        const got = await createCellStore(kv).loadCell(block.hash());
        expect(got.hash().equals(block.hash())).toBe(true);
        expect(got.toBoc().equals(block.toBoc())).toBe(true);
      }
    }
  });
});
