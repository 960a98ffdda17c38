// The node-db codecs against real data written by a TON validator-engine (vectors/node-db: three archive slices
// and three block handles from ton4j's test resources). The expected counts, names and decoded handle fields come
// from node_db_vectors.json, which was produced with Python, not with this code.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { fileName, parseFileName } from '../../src/nodedb/fileref.ts';
import { blockHandleKey, decodeBlockHandle, encodeBlockHandle, HANDLE_FLAGS } from '../../src/nodedb/handle.ts';
import { packPath, parsePackFileName, SLICE_SIZE, sliceStart } from '../../src/nodedb/layout.ts';
import { checkBlockEntry, openPackReader, type PackEntry } from '../../src/nodedb/pack.ts';
import { type BlockIdExt, loadBlockCell, stateUpdateNewSide } from '../../src/ton/index.ts';
import { hasVectors, loadNodePackage, loadVector, vectorPath } from '../helpers/vectors.ts';

interface JsonId {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}
interface PackVector {
  sha256: string;
  bytes: number;
  entries: number;
  by_prefix: Record<string, number>;
  duplicate_names: number;
  block_entries_with_sha256_eq_file_hash: number;
  first_entry: { offset: number; name: string; size: number };
  last_entry: { offset: number; name: string; size: number };
}
interface HandleVector {
  value_hex: string;
  decoded: {
    id: JsonId;
    flags: string;
    prev_left?: JsonId;
    prev_right?: JsonId;
    next_left?: JsonId;
    next_right?: JsonId;
    lt: number;
    ts: number;
    state_root_hash: string;
    masterchain_ref_seqno?: number;
  };
  block_in_pack: { file: string; offset: number; name: string };
}
interface Vectors {
  packs: Record<string, PackVector>;
  block_handles: HandleVector[];
}

const jsonId = (j: JsonId): BlockIdExt => ({
  workchain: j.workchain,
  shard: BigInt(`0x${j.shard}`),
  seqno: j.seqno,
  rootHash: Buffer.from(j.root_hash, 'hex'),
  fileHash: Buffer.from(j.file_hash, 'hex'),
});

describe.skipIf(!hasVectors)('real node archive slices (vectors/node-db)', () => {
  const v = hasVectors ? loadVector<Vectors>('node-db', 'node_db_vectors.json') : { packs: {}, block_handles: [] };

  for (const [file, pv] of Object.entries(v.packs)) {
    describe(file, () => {
      const path = () => vectorPath('node-db', file);

      it('is the file the vectors describe', async () => {
        const bytes = await readFile(path());
        expect(bytes.length).toBe(pv.bytes);
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(pv.sha256);
      });

      it('reads entry by entry with readAt: counts, kinds, first and last entries, every block checked', async () => {
        const r = await openPackReader(path());
        try {
          expect(r.size).toBe(pv.bytes - 4);
          const all: PackEntry[] = [];
          let at = 0;
          while (at < r.size) {
            const e = await r.readAt(at);
            all.push(e);
            at += 8 + Buffer.byteLength(e.name, 'latin1') + e.data.length;
          }
          expect(at).toBe(r.size);
          expect(all.length).toBe(pv.entries);
          const kinds: Record<string, number> = {};
          for (const e of all) {
            const parsed = parseFileName(e.name);
            expect(parsed, e.name).not.toBeNull();
            expect(fileName(parsed!.kind, parsed!.id)).toBe(e.name);
            kinds[parsed!.kind] = (kinds[parsed!.kind] ?? 0) + 1;
          }
          expect(kinds).toEqual(pv.by_prefix);
          const first = all[0]!;
          const last = all.at(-1)!;
          expect({ offset: first.offset, name: first.name, size: first.data.length }).toEqual(pv.first_entry);
          expect({ offset: last.offset, name: last.name, size: last.data.length }).toEqual(pv.last_entry);
          const blocks = all.filter((e) => e.name.startsWith('block_'));
          for (const e of blocks) expect(checkBlockEntry(e)).toEqual(parseFileName(e.name)!.id);
          expect(blocks.length).toBe(pv.block_entries_with_sha256_eq_file_hash);
        } finally {
          await r.close();
        }
      });

      it('scans completely, dropping the repeated names', async () => {
        const r = await openPackReader(path());
        try {
          const s = await r.scan();
          expect(s.torn).toBe(false);
          expect(s.end).toBe(pv.bytes - 4);
          expect(s.entries.length + s.duplicates.length).toBe(pv.entries);
          expect(new Set(s.duplicates).size).toBe(pv.duplicate_names);
          expect(new Set(s.entries.map((e) => e.name)).size).toBe(s.entries.length);
          // the same first copies as the test-support parser (an independent reading of the format)
          const seen = new Set<string>();
          const firsts = loadNodePackage(file).filter((e) => !seen.has(e.name) && seen.add(e.name));
          expect(s.entries.map((e) => e.name)).toEqual(firsts.map((e) => e.name));
          expect(s.entries.every((e, i) => e.data.equals(firsts[i]!.data))).toBe(true);
          for (const e of s.entries) expect((await r.readAt(e.offset, e.name)).data.equals(e.data)).toBe(true);
          const h = await r.scanHeaders();
          expect(h.entries.map((e) => [e.name, e.offset, e.dataSize])).toEqual(
            s.entries.map((e) => [e.name, e.offset, e.data.length]),
          );
          expect(h.duplicates).toEqual(s.duplicates);
          // resuming mid-file reads the rest
          const mid = s.entries[Math.floor(s.entries.length / 2)]!.offset;
          const rest = await r.scan({ from: mid, committedSize: s.end });
          expect(rest).toMatchObject({ end: s.end, torn: false });
          expect(rest.entries[0]!.offset).toBe(mid);
        } finally {
          await r.close();
        }
      });

      it('is a sliced-generation pack: masterchain blocks of one slice, with the shard blocks they commit', async () => {
        const name = parsePackFileName(file)!;
        expect(name.workchain).toBeUndefined();
        const r = await openPackReader(path());
        try {
          const { entries } = await r.scanHeaders();
          const ids = entries.map((e) => parseFileName(e.name)!.id);
          const mc = ids.filter((id) => id.workchain === -1).map((id) => id.seqno);
          // (package 0's first slice starts at the zero state, which is not a block: its first block is 1)
          expect(Math.min(...mc)).toBe(Math.max(name.seqno, 1));
          for (const seqno of mc) expect(sliceStart(0, seqno)).toBe(name.seqno);
          expect(Math.max(...mc)).toBeLessThan(name.seqno + SLICE_SIZE);
          expect(ids.some((id) => id.workchain === 0)).toBe(true);
          expect(basename(packPath('/db', { generation: 'sliced', packageId: 0, sliceStart: name.seqno }))).toBe(file);
        } finally {
          await r.close();
        }
      });
    });
  }
});

describe.skipIf(!hasVectors)('real block handles (vectors/node-db)', () => {
  const v = hasVectors ? loadVector<Vectors>('node-db', 'node_db_vectors.json') : { packs: {}, block_handles: [] };
  const lengths = [296, 376, 212];

  it('has the three handles of node-db.md §4.1', () => {
    expect(v.block_handles.map((h) => h.value_hex.length / 2)).toEqual(lengths);
  });

  for (const [i, hv] of v.block_handles.entries()) {
    const d = hv.decoded;
    describe(`handle of ${d.id.workchain}:${d.id.shard}:${d.id.seqno}`, () => {
      const value = Buffer.from(hv.value_hex, 'hex');

      it('decodes to the fields the vectors list and re-encodes byte for byte', () => {
        const h = decodeBlockHandle(value);
        expect(value.length).toBe(lengths[i]);
        expect(h.flags).toBe(Number(d.flags));
        expect(h.id).toEqual(jsonId(d.id));
        expect(h.prevLeft).toEqual(d.prev_left && jsonId(d.prev_left));
        expect(h.prevRight).toEqual(d.prev_right && jsonId(d.prev_right));
        expect(h.nextLeft).toEqual(d.next_left && jsonId(d.next_left));
        expect(h.nextRight).toEqual(d.next_right && jsonId(d.next_right));
        expect(h.lt).toBe(BigInt(d.lt));
        expect(h.ts).toBe(d.ts);
        expect(h.state?.toString('hex')).toBe(d.state_root_hash);
        expect(h.masterchainRefSeqno).toBe(d.masterchain_ref_seqno);
        expect(Boolean(h.flags & HANDLE_FLAGS.masterchain)).toBe(d.id.workchain === -1);
        expect(h.flags & (HANDLE_FLAGS.processed | HANDLE_FLAGS.movedHandle)).toBe(0);
        expect(encodeBlockHandle(h)).toEqual(value);
        expect(blockHandleKey(h.id).subarray(4)).toEqual(value.subarray(4, 84));
      });

      it("has the state of its block: the MERKLE_UPDATE's new hash, in the slice of its masterchain ref", async () => {
        const h = decodeBlockHandle(value);
        const file = basename(
          packPath('/db', {
            generation: 'sliced',
            packageId: 0,
            sliceStart: sliceStart(0, h.masterchainRefSeqno ?? h.id.seqno),
          }),
        );
        expect(file).toBe(hv.block_in_pack.file);
        const r = await openPackReader(vectorPath('node-db', file));
        try {
          const entry = await r.readAt(hv.block_in_pack.offset, fileName('block', h.id));
          expect(entry.name).toBe(hv.block_in_pack.name);
          expect(checkBlockEntry(entry)).toEqual(h.id);
          const root = Cell.fromBoc(entry.data)[0]!;
          expect(loadBlockCell(root).stateUpdate.newHash).toEqual(h.state);
          // the same hash read two more ways: the exotic cell's bits, and the new side's level-0 hash
          const update = root.refs[2]!;
          expect(update.bits.substring(8 + 256, 256).subbuffer(0, 256)).toEqual(h.state);
          expect(stateUpdateNewSide(root)!.hash(0)).toEqual(h.state);
        } finally {
          await r.close();
        }
      });
    });
  }
});
