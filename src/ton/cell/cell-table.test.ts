// The cell table against @ton/core on every BoC of the real-chain vectors: every cell's hashes and depths at every
// level, its type, level, bits and references, walked in parallel from the roots. Exotic cells (pruned branches,
// Merkle proofs and updates) must be among them, or the comparison would prove less than it says.
import { createHash } from 'node:crypto';
import { beginCell, Cell, CellType } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { allBocs } from '../../../test/helpers/vector-bocs.ts';
import { hasVectors } from '../../../test/helpers/vectors.ts';
import { CodecError } from '../../common/errors.ts';
import { parseBoc } from '../boc/index.ts';
import { readCellTable } from './boc-reader.ts';
import { cellToBoc } from './cell-boc.ts';
import { nativeSha256Installed } from './native-sha256.ts';
import { cellOf, rootsOf, tableOf } from './table-cell.ts';

/** Walks both trees from their roots; returns the number of distinct cells compared, by type. */
function compareTrees(ours: Cell, theirs: Cell, seen: Set<string>, types: Map<CellType, number>): void {
  const stack: Array<[Cell, Cell]> = [[ours, theirs]];
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    const key = b.hash().toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    types.set(b.type, (types.get(b.type) ?? 0) + 1);
    expect(a.type).toBe(b.type);
    expect(a.level()).toBe(b.level());
    expect(a.mask.value).toBe(b.mask.value);
    expect(a.bits.equals(b.bits)).toBe(true);
    expect(a.refs.length).toBe(b.refs.length);
    for (let l = 0; l <= 3; l++) {
      if (!a.hash(l).equals(b.hash(l)) || a.depth(l) !== b.depth(l)) {
        throw new Error(
          `cell ${key} level ${l}: ${a.hash(l).toString('hex')}/${a.depth(l)} vs ${b.hash(l).toString('hex')}/${b.depth(l)}`,
        );
      }
    }
    for (const [i, r] of a.refs.entries()) stack.push([r, b.refs[i]!]);
  }
}

describe.skipIf(!hasVectors)('cell table vs @ton/core on every vector BoC', () => {
  it('gives every cell the same hashes, depths, type, bits and references at every level', () => {
    const bocs = allBocs();
    const types = new Map<CellType, number>();
    let compared = 0;
    let roots = 0;
    for (const { where, bytes } of bocs) {
      let theirs: Cell[];
      try {
        theirs = Cell.fromBoc(bytes);
      } catch {
        continue; // not a BoC @ton/core reads (e.g. a bare message); nothing to compare against
      }
      const table = readCellTable(bytes);
      const ours = rootsOf(table);
      expect(ours.length, where).toBe(theirs.length);
      const seen = new Set<string>();
      for (const [i, c] of ours.entries()) compareTrees(c, theirs[i]!, seen, types);
      compared += seen.size;
      roots += ours.length;
      // A root's representation hashes to its hash (what the benchmark's SHA-256 floor hashes).
      for (const r of table.roots)
        expect(createHash('sha256').update(table.representation(r)).digest()).toEqual(table.hash(r));
      // A full pass gives the same root hashes as the lazy subtree walk did.
      const again = readCellTable(bytes);
      again.hashAll();
      for (const [i, c] of ours.entries()) expect(again.hash(again.roots[i]!)).toEqual(c.hash());
    }
    expect(roots).toBeGreaterThan(1000);
    expect(compared).toBeGreaterThan(100_000);
    expect(types.get(CellType.PrunedBranch) ?? 0).toBeGreaterThan(100);
    expect(types.get(CellType.MerkleUpdate) ?? 0).toBeGreaterThan(10);
    expect(types.get(CellType.MerkleProof) ?? 0).toBeGreaterThan(3);
  });

  it('agrees with the strict parser on every BoC the strict parser accepts', () => {
    for (const { where, bytes } of allBocs().slice(0, 400)) {
      let strict: Cell[];
      try {
        strict = parseBoc(bytes, { allowLevelMaskMismatch: true });
      } catch (e) {
        expect(e, where).toBeInstanceOf(CodecError);
        continue;
      }
      expect(rootsOf(readCellTable(bytes)).map((c) => c.hash().toString('hex'))).toEqual(
        strict.map((c) => c.hash().toString('hex')),
      );
    }
  });
});

describe.skipIf(!hasVectors)('toBoc of table cells', () => {
  it("writes @ton/core's bytes for every transaction, message and state-update cell of the vector blocks", () => {
    let compared = 0;
    for (const { bytes } of allBocs().filter((b) => b.where.startsWith('blocks/'))) {
      const table = readCellTable(bytes);
      table.hashAll();
      // Every 29th cell (the whole set takes minutes through @ton/core's serializer), and every option.
      for (let i = 0; i < table.count; i += 29) {
        const c = cellOf(table, i);
        for (const opts of [
          undefined,
          { idx: false, crc32: true },
          { idx: true, crc32: false },
          { idx: true, crc32: true },
        ]) {
          const ours = c.toBoc(opts);
          const theirs = Cell.prototype.toBoc.call(c, opts);
          if (!ours.equals(theirs)) throw new Error(`cell #${i}: toBoc ${JSON.stringify(opts)} differs`);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(8_000);
  });
});

describe('table cells as @ton/core cells', () => {
  const built = beginCell()
    .storeUint(0xdeadbeef, 32)
    .storeRef(beginCell().storeUint(5, 7).endCell())
    .storeRef(beginCell().storeStringTail('x'.repeat(300)).endCell())
    .endCell();
  const table = readCellTable(built.toBoc());
  const root = rootsOf(table)[0]!;

  it('are instances of Cell that Builder, slices and toBoc take', () => {
    expect(root).toBeInstanceOf(Cell);
    expect(root.equals(built)).toBe(true);
    expect(root.beginParse().loadUint(32)).toBe(0xdeadbeef);
    expect(root.refs[1]!.beginParse().loadStringTail()).toBe('x'.repeat(300));
    const wrapped = beginCell().storeRef(root).storeSlice(root.asSlice()).endCell();
    const expected = beginCell().storeRef(built).storeSlice(built.asSlice()).endCell();
    expect(wrapped.hash()).toEqual(expected.hash());
    expect(root.toBoc()).toEqual(built.toBoc());
    expect(root.toString()).toBe(built.toString());
  });

  it("write @ton/core's BoC bytes for any cell, also @ton/core's own with equal and shared subtrees", () => {
    const leaf = beginCell().storeUint(7, 8).endCell();
    const twin = beginCell().storeUint(7, 8).endCell();
    const mid = beginCell().storeRef(leaf).storeRef(twin).storeUint(1, 3).endCell();
    const tree = beginCell().storeRef(mid).storeRef(leaf).storeRef(beginCell().storeRef(mid).endCell()).endCell();
    for (const opts of [undefined, { idx: true, crc32: true }, { idx: false, crc32: false }]) {
      expect(cellToBoc(tree, opts)).toEqual(tree.toBoc(opts));
    }
  });

  it('are made once per cell, and only for the cells that are read', () => {
    const t = readCellTable(built.toBoc());
    const r = cellOf(t, 0);
    expect(cellOf(t, 0)).toBe(r);
    expect(t.views.filter(Boolean).length).toBe(1);
    expect(r.refs[0]).toBe(cellOf(t, t.refIdx[0]!));
    expect(tableOf(r)).toEqual({ table: t, index: 0 });
    expect(tableOf(built)).toBeNull();
  });

  it('refuse to parse an exotic cell unless asked', () => {
    const pruned = readCellTable(
      beginCell()
        .storeUint(1, 8)
        .storeUint(1, 8)
        .storeBuffer(Buffer.alloc(32, 7))
        .storeUint(3, 16)
        .endCell({ exotic: true })
        .toBoc(),
    );
    const c = rootsOf(pruned)[0]!;
    expect(c.isExotic).toBe(true);
    expect(() => c.beginParse()).toThrow(/Exotic/);
    expect(c.beginParse(true).loadUint(8)).toBe(1);
    expect(c.hash(0)).toEqual(Buffer.alloc(32, 7));
    expect(c.depth(0)).toBe(3);
  });

  it('report a Merkle proof whose stated hash is not its child', () => {
    const child = beginCell().storeUint(1, 1).endCell();
    const proof = beginCell()
      .storeUint(3, 8)
      .storeBuffer(Buffer.alloc(32, 1))
      .storeUint(0, 16)
      .storeRef(child)
      .endCell({ exotic: false });
    const bytes = Buffer.from(proof.toBoc({ idx: false, crc32: false }));
    // Written as an ordinary cell (one ref: d1 0x01, 280 bits: d2 0x46); set d1's exotic bit to make it a proof.
    const at = bytes.indexOf(Buffer.from([0x01, 0x46]), 0);
    expect(at).toBeGreaterThan(0);
    bytes[at] = 0x09;
    const t = readCellTable(bytes);
    expect(() => t.hashAll()).toThrow(/Merkle Proof cell ref hash must be exactly/);
  });

  it('are hashed with node:crypto, also when @ton/core builds them', () => {
    expect(nativeSha256Installed()).toBe(true);
  });
});
