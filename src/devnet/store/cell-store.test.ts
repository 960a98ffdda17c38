// The cell record format against @ton/core: a leaf's record is exactly its standard representation (d1 d2
// data) as @ton/core writes it into a BoC, and every record of real trees (blocks, pruned state trees,
// Merkle proofs) decodes to a cell with the same hash, level and type. Then a load through LevelDB.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beginCell, Cell, CellType } from '@ton/core';
import { ClassicLevel } from 'classic-level';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctCells } from '../../../test/helpers/cells.ts';
import { loadVector } from '../../../test/helpers/vectors.ts';
import { CellStore, cellKey, decodeCellRecord, encodeCell, hashKey } from './cell-store.ts';

function realTrees(): Cell[] {
  const block = Cell.fromBase64(
    loadVector<{ boc_base64: string }>('blocks', 'mainnet_0_8000000000000000_34703989.json').boc_base64,
  );
  const proof = loadVector<{ boc_base64: string }>('liteserver', 'account_state_test_pruned_proof.json');
  return [block, block.refs[2]!.refs[1]!, ...Cell.fromBoc(Buffer.from(proof.boc_base64, 'base64'))];
}

/** A leaf's standard representation as @ton/core serialises it: a one-cell BoC ends with d1 d2 data (no CRC). */
function leafReprFromBoc(c: Cell): Buffer {
  const boc = c.toBoc({ idx: false, crc32: false });
  return boc.subarray(boc.length - (2 + Math.ceil(c.bits.length / 8)));
}

describe('cell records', () => {
  it('a leaf record is its standard representation, for every bit length', () => {
    for (let len = 0; len <= 1023; len += len < 20 ? 1 : 37) {
      const b = beginCell();
      for (let i = 0; i < len; i++) b.storeBit((i * 7 + len) % 3 === 0);
      const c = b.endCell();
      expect(encodeCell(c), `bits ${len}`).toEqual(leafReprFromBoc(c));
      const rec = decodeCellRecord(encodeCell(c), hashKey(c.hash()));
      expect(new Cell({ exotic: rec.exotic, bits: rec.bits, refs: [] }).hash()).toEqual(c.hash());
    }
  });

  it('every cell of real blocks, pruned trees and proofs round-trips', () => {
    const kinds = new Set<CellType>();
    for (const tree of realTrees()) {
      for (const c of distinctCells(tree).values()) {
        kinds.add(c.type);
        const rec = decodeCellRecord(encodeCell(c), hashKey(c.hash()));
        expect(rec.refs).toEqual(c.refs.map((r) => hashKey(r.hash())));
        const back = new Cell({ exotic: rec.exotic, bits: rec.bits, refs: c.refs });
        expect(back.hash()).toEqual(c.hash());
        expect(back.type).toBe(c.type);
        expect(back.level()).toBe(c.level());
      }
    }
    // Ordinary, pruned-branch, Merkle-update and Merkle-proof cells were all covered.
    expect([...kinds]).toEqual(
      expect.arrayContaining([CellType.Ordinary, CellType.PrunedBranch, CellType.MerkleUpdate, CellType.MerkleProof]),
    );
  });
});

describe('cell store on LevelDB', () => {
  let dir: string;
  let db: ClassicLevel<Buffer, Buffer>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tongate-cells-'));
    db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: 'buffer', valueEncoding: 'buffer' });
    await db.open();
  });

  afterAll(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes only missing cells, loads trees back and detects damage', async () => {
    const [block, state] = realTrees() as [Cell, Cell];
    const writer = new CellStore(db, { cacheSize: 0, knownSize: 0 });
    const pending = new Map<string, Cell>();
    await writer.collectMissing([state], pending);
    expect(pending.size).toBe(distinctCells(state).size);
    await db.batch([...pending].map(([h, c]) => ({ type: 'put' as const, key: cellKey(h), value: encodeCell(c) })));
    // The block contains the state tree (its state_update): only the other cells are missing now.
    const more = new Map<string, Cell>();
    await writer.collectMissing([block], more);
    const stateCells = new Set(distinctCells(state).keys());
    expect(more.size).toBe(
      [...distinctCells(block).values()].filter((c) => !stateCells.has(c.hash().toString('hex'))).length,
    );
    await db.batch([...more].map(([h, c]) => ({ type: 'put' as const, key: cellKey(h), value: encodeCell(c) })));

    const reader = new CellStore(db, { cacheSize: 1000, knownSize: 0 });
    expect((await reader.load(block.hash()))!.hash()).toEqual(block.hash());
    expect((await reader.load(state.hash()))!.hash(0)).toEqual(state.hash(0));
    expect(await reader.load(Buffer.alloc(32))).toBeNull();

    // A missing descendant or a record that hashes elsewhere is corruption, said as such.
    const leaf = [...distinctCells(state).values()].find((c) => c.refs.length === 0 && c !== state)!;
    await db.del(cellKey(leaf.hash()));
    await expect(new CellStore(db, { cacheSize: 0, knownSize: 0 }).load(state.hash())).rejects.toMatchObject({
      code: 'TG_DEVNET_STORE_CORRUPT',
    });
    await db.put(cellKey(leaf.hash()), encodeCell(beginCell().storeUint(1, 8).endCell()));
    await expect(new CellStore(db, { cacheSize: 0, knownSize: 0 }).load(state.hash())).rejects.toMatchObject({
      code: 'TG_DEVNET_STORE_CORRUPT',
    });
  });
});
