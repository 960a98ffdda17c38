// Cell records over real cells: every cell of real mainnet blocks (Merkle updates with pruned branches inside,
// so refs of level > 0) and of the Merkle proofs a real node wrote (vectors/node-db), encoded, parsed with the
// key check, hashed from the record alone (compared with @ton/core's own hashing at every level) and re-encoded
// byte for byte. Then malformed records, and the refcount merge operator.
import { BitString, beginCell, Cell, CellType } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { distinctCells } from '../../../test/helpers/cells.ts';
import { hasVectors, loadNodePackage, loadVectors } from '../../../test/helpers/vectors.ts';
import { createMemoryKv } from '../kv/memory.ts';
import { NodeDbFormatError } from '../tl.ts';
import {
  cellRecordHashes,
  cellRefcountMerge,
  encodeCellRecord,
  encodeCellRecordBoc,
  type PlainCellRecord,
  parseCellRecord,
  recordRefcount,
  refcountDelta,
  withRefcount,
} from './record.ts';

/** @ton/core's hashes of a cell at each significant level of its mask, level 0 first. */
function coreHashes(c: Cell): Buffer[] {
  const out: Buffer[] = [];
  const mask = c.mask.value;
  for (let l = 0; l <= c.mask.level; l++) if (l === 0 || (mask >> (l - 1)) & 1) out.push(c.hash(l));
  return out;
}

function plain(v: Buffer, key?: Buffer): PlainCellRecord {
  const r = parseCellRecord(v, key);
  if (r.kind !== 'plain') throw new Error('expected a plain record');
  return r;
}

interface Stats {
  cells: number;
  levelRefs: number;
  pruned: number;
  merkle: number;
}

function roundTrip(root: Cell, stats: Stats): void {
  for (const [i, cell] of [...distinctCells(root).values()].entries()) {
    const refcount = 1 + (i % 1000);
    const v = encodeCellRecord(cell, refcount);
    const rec = plain(v, cell.hash()); // throws unless the record hashes to the cell's key
    expect(rec.refcount).toBe(refcount);
    expect(rec.bits).toBe(cell.bits.length);
    expect(rec.exotic).toBe(cell.isExotic);
    expect(rec.levelMask).toBe(cell.mask.value);
    expect(rec.refs.map((r) => r.key.toString('hex'))).toEqual(cell.refs.map((c) => c.hash().toString('hex')));
    expect(rec.refs.map((r) => r.depths)).toEqual(cell.refs.map((c) => coreHashes(c).map((_, j) => depthAt(c, j))));
    // every level's hash from the record alone equals @ton/core's (pruned branches: the stored lower hashes)
    expect(cellRecordHashes(rec).map((h) => h.toString('hex'))).toEqual(coreHashes(cell).map((h) => h.toString('hex')));
    // the same cell rebuilt from the record's bits encodes to the same bytes
    const again = new Cell({ exotic: rec.exotic, bits: new BitString(rec.data, 0, rec.bits), refs: cell.refs });
    expect(again.hash().equals(cell.hash())).toBe(true);
    expect(encodeCellRecord(again, refcount).equals(v)).toBe(true);
    stats.cells++;
    if (rec.refs.some((r) => r.levelMask > 0)) stats.levelRefs++;
    if (cell.type === CellType.PrunedBranch) stats.pruned++;
    if (cell.type === CellType.MerkleUpdate || cell.type === CellType.MerkleProof) stats.merkle++;
  }
}

function depthAt(c: Cell, significantIndex: number): number {
  const mask = c.mask.value;
  const levels: number[] = [];
  for (let l = 0; l <= c.mask.level; l++) if (l === 0 || (mask >> (l - 1)) & 1) levels.push(l);
  return c.depth(levels[significantIndex]!);
}

describe.skipIf(!hasVectors)('cell records of real cells', () => {
  it('every cell of real mainnet blocks: encode → parse (key checked) → hashes at all levels → encode', () => {
    const stats: Stats = { cells: 0, levelRefs: 0, pruned: 0, merkle: 0 };
    const blocks = loadVectors<{ boc_base64: string }>('blocks');
    expect(blocks.length).toBeGreaterThan(5);
    for (const { data } of blocks) roundTrip(Cell.fromBase64(data.boc_base64), stats);
    expect(stats.cells).toBeGreaterThan(50_000);
    // the blocks' state updates are MERKLE_UPDATEs over pruned branches: refs of level > 0 were exercised
    expect(stats.merkle).toBeGreaterThanOrEqual(blocks.length);
    expect(stats.pruned).toBeGreaterThan(1000);
    expect(stats.levelRefs).toBeGreaterThan(1000);
  }, 120_000);

  it('the Merkle proofs a real node wrote (vectors/node-db packs)', () => {
    const stats: Stats = { cells: 0, levelRefs: 0, pruned: 0, merkle: 0 };
    const proofs = loadNodePackage('archive.00000.pack').filter((e) => e.name.startsWith('proof_'));
    expect(proofs.length).toBe(99); // vectors/node-db README: 99 proofs in this pack
    for (const p of proofs) roundTrip(Cell.fromBoc(p.data)[0]!, stats);
    expect(stats.merkle).toBeGreaterThanOrEqual(proofs.length);
    expect(stats.pruned).toBeGreaterThan(proofs.length);
  });

  it('the −1 form carries the whole subtree; its key is the root hash', () => {
    const block = Cell.fromBase64(loadVectors<{ boc_base64: string }>('blocks')[0]!.data.boc_base64);
    const sub = block.refs[3]!; // extra: a subtree with dictionaries
    const v = encodeCellRecordBoc(sub, 7);
    expect(v.readInt32LE(0)).toBe(-1);
    expect(recordRefcount(v)).toBe(7);
    const r = parseCellRecord(v, sub.hash());
    expect(r.kind).toBe('boc');
    if (r.kind === 'boc') {
      expect(r.refcount).toBe(7);
      expect([...distinctCells(r.root).values()].length).toBe(distinctCells(sub).size);
    }
    expect(() => parseCellRecord(v, block.hash())).toThrow(NodeDbFormatError);
  });
});

describe('cell record format', () => {
  const leaf = beginCell().storeUint(0xabc, 12).endCell();
  const node = beginCell().storeUint(1, 1).storeRef(leaf).storeRef(beginCell().endCell()).endCell();

  it('lays out refcount, d1, d2, padded data and each ref as the spec states', () => {
    const v = encodeCellRecord(node, 3);
    expect(v.readInt32LE(0)).toBe(3);
    expect(v[4]).toBe(2); // two refs, ordinary, level 0
    expect(v[5]).toBe(1); // 1 bit: ⌊1/8⌋ + ⌈1/8⌉
    expect(v[6]).toBe(0b1100_0000); // the bit, then the completion tag
    // ref 0: mask 0, one hash, one big-endian depth
    expect(v[7]).toBe(0);
    expect(v.subarray(8, 40).equals(leaf.hash())).toBe(true);
    expect(v.readUInt16BE(40)).toBe(0);
    expect(v.length).toBe(7 + 2 * 35);
    const r = plain(v, node.hash());
    expect(r.bits).toBe(1);
    expect(plain(encodeCellRecord(leaf, 1), leaf.hash()).bits).toBe(12);
  });

  it('encodes a cell whose bits start mid-byte like the same cell built aligned', () => {
    const raw = Buffer.from([0b101_10110, 0b0111_0101, 0xff]);
    const shifted = new Cell({ bits: new BitString(raw, 3, 13) });
    const aligned = beginCell().storeUint(0b1011001110101, 13).endCell();
    expect(shifted.hash().equals(aligned.hash())).toBe(true);
    expect(encodeCellRecord(shifted, 1).equals(encodeCellRecord(aligned, 1))).toBe(true);
  });

  it('rejects records that are not what their key says, or do not parse', () => {
    const v = encodeCellRecord(node, 1);
    const fails = (b: Buffer, key?: Buffer) => expect(() => parseCellRecord(b, key)).toThrow(NodeDbFormatError);
    fails(v, leaf.hash()); // wrong key
    const tampered = Buffer.from(v);
    tampered[10] = tampered[10]! ^ 1; // a byte of the first child's hash
    fails(tampered, node.hash());
    fails(v.subarray(0, v.length - 1)); // truncated depth
    fails(Buffer.concat([v, Buffer.from([0])])); // trailing byte
    fails(withRefcount(v, 0)); // refcount must be > 0
    fails(Buffer.from([1, 0, 0])); // too short
    const noTag = Buffer.from(v);
    noTag[6] = 0; // odd d2 without a completion tag
    fails(noTag);
    const badMask = Buffer.from(v);
    badMask[4] = badMask[4]! | 0x20; // claims level 1 with level-0 refs
    fails(badMask);
    expect(() => plain(v, node.hash())).not.toThrow();
  });
});

describe('cellRefcountMerge (MergeOperatorAddCellRefcnt)', () => {
  const cell = beginCell().storeUint(5, 8).endCell();
  const value = encodeCellRecord(cell, 2);
  const boc = encodeCellRecordBoc(cell, 2);

  it('adds deltas to a plain record and keeps the payload', () => {
    const out = cellRefcountMerge(value, [refcountDelta(3)])!;
    expect(out.readInt32LE(0)).toBe(5);
    expect(out.subarray(4).equals(value.subarray(4))).toBe(true);
    expect(value.readInt32LE(0)).toBe(2); // the input is not modified
  });

  it('adds after the −1 marker', () => {
    const out = cellRefcountMerge(boc, [refcountDelta(-1), refcountDelta(4)])!;
    expect(out.readInt32LE(0)).toBe(-1);
    expect(out.readInt32LE(4)).toBe(5);
    expect(out.subarray(8).equals(boc.subarray(8))).toBe(true);
  });

  it('sums operands (a partial merge), skips empty ones, and gives the sum alone with no base', () => {
    expect(
      cellRefcountMerge(null, [refcountDelta(2), refcountDelta(-5), Buffer.alloc(0)])!.equals(refcountDelta(-3)),
    ).toBe(true);
    expect(cellRefcountMerge(null, [])!.length).toBe(0); // nothing to say: an empty value (celldb: absent)
    expect(cellRefcountMerge(Buffer.alloc(0), [refcountDelta(1)])!.equals(refcountDelta(1))).toBe(true);
    // a partial sum merged again folds in the same way
    const partial = cellRefcountMerge(null, [refcountDelta(4)])!;
    expect(cellRefcountMerge(partial, [refcountDelta(1)])!.readInt32LE(0)).toBe(5);
  });

  it('refuses operands that are not int32, and values too short for their refcount', () => {
    expect(() => cellRefcountMerge(value, [Buffer.alloc(3)])).toThrow(NodeDbFormatError);
    expect(() => cellRefcountMerge(Buffer.from([1, 0]), [refcountDelta(1)])).toThrow(NodeDbFormatError);
    expect(() => cellRefcountMerge(refcountDelta(-1), [refcountDelta(1)])).toThrow(NodeDbFormatError);
  });

  it('works as a store merge operator, one operand per write', async () => {
    const kv = createMemoryKv({ merge: cellRefcountMerge });
    const key = cell.hash();
    await kv.write([{ type: 'put', key, value }]);
    await kv.write([
      { type: 'merge', key, value: refcountDelta(1) },
      { type: 'merge', key, value: refcountDelta(1) },
    ]);
    await kv.write([{ type: 'merge', key, value: refcountDelta(-2) }]);
    await kv.write([{ type: 'merge', key, value: refcountDelta(5) }]);
    const got = plain((await kv.get(key))!, key);
    expect(got.refcount).toBe(7);
  });
});
