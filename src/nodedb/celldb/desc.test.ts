// The desc list of stored states: keys and values as node-db.md §3.1 states them (built by hand here), three states
// appended and listed oldest → newest, gc of the oldest, the masterchain gc marker, and lookups by block.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlockIdExt } from '../../ton/index.ts';
import { createMemoryKv } from '../kv/memory.ts';
import { NodeDbFormatError } from '../tl.ts';
import {
  appendStateOps,
  DESC_ZERO_KEY,
  decodeCellDbValue,
  descKey,
  encodeCellDbValue,
  LAST_DELETED_MC_SEQNO_KEY,
  listStoredStates,
  removeOldestStateOps,
  stateRootOf,
} from './desc.ts';

const h = (s: string) => createHash('sha256').update(s).digest();
const id = (workchain: number, seqno: number): BlockIdExt => ({
  workchain,
  shard: 0x8000000000000000n,
  seqno,
  rootHash: h(`root ${workchain} ${seqno}`),
  fileHash: h(`file ${workchain} ${seqno}`),
});

/** Boxed tonNode.blockIdExt laid out by hand: constructor 0x6752eb78, int32, long, int32, int256, int256 (LE). */
function boxedId(b: BlockIdExt): Buffer {
  const out = Buffer.alloc(4 + 80);
  out.writeUInt32LE(0x6752eb78, 0);
  out.writeInt32LE(b.workchain, 4);
  out.writeBigUInt64LE(b.shard, 8);
  out.writeInt32LE(b.seqno, 16);
  b.rootHash.copy(out, 20);
  b.fileHash.copy(out, 52);
  return out;
}

describe('desc keys and values', () => {
  it('key = "desc" + base64(sha256(boxed id)), 48 bytes', () => {
    const b = id(-1, 77);
    const k = descKey(b);
    expect(k.length).toBe(48);
    expect(k.toString('ascii')).toBe(`desc${createHash('sha256').update(boxedId(b)).digest('base64')}`);
    expect(DESC_ZERO_KEY.toString('ascii')).toBe('desczero');
  });

  it('value = db.celldb.value (0xe6101440) block_id prev next root_hash: 180 bytes, round trip', () => {
    const v = { blockId: id(0, 5), prev: h('p'), next: h('n'), rootHash: h('r') };
    const bytes = encodeCellDbValue(v);
    expect(bytes.length).toBe(180);
    expect(bytes.readUInt32LE(0)).toBe(0xe6101440);
    expect(bytes.subarray(4, 84).equals(boxedId(v.blockId).subarray(4))).toBe(true);
    expect(bytes.subarray(84, 116).equals(v.prev)).toBe(true);
    expect(bytes.subarray(148, 180).equals(v.rootHash)).toBe(true);
    expect(decodeCellDbValue(bytes)).toEqual(v);
    expect(() => decodeCellDbValue(bytes.subarray(0, 179))).toThrow(NodeDbFormatError);
    expect(() => decodeCellDbValue(Buffer.concat([bytes, Buffer.alloc(1)]))).toThrow(NodeDbFormatError);
  });
});

describe('the list of stored states', () => {
  it('appends three, lists them oldest → newest, gc removes the oldest, stateRootOf finds the rest', async () => {
    const kv = createMemoryKv();
    expect(await listStoredStates(kv)).toEqual([]);
    expect(await removeOldestStateOps(kv)).toEqual([]);
    const blocks = [id(-1, 10), id(0, 20), id(-1, 11)];
    for (const b of blocks) await kv.write(await appendStateOps(kv, b, h(`state ${b.seqno}`)));

    const listed = await listStoredStates(kv);
    expect(listed.map((s) => s.id.seqno)).toEqual([10, 20, 11]);
    expect(listed.map((s) => s.rootHash)).toEqual(blocks.map((b) => h(`state ${b.seqno}`)));
    // desczero: prev = the newest, next = the oldest, its own id the node's empty key (workchainInvalid)
    const head = decodeCellDbValue((await kv.get(DESC_ZERO_KEY))!);
    expect(head.blockId.workchain).toBe(-0x80000000);
    expect(descKey(blocks[0]!).toString('ascii')).toBe(`desc${head.next.toString('base64')}`);
    expect(descKey(blocks[2]!).toString('ascii')).toBe(`desc${head.prev.toString('base64')}`);
    await expect(appendStateOps(kv, blocks[1]!, h('again'))).rejects.toThrow(NodeDbFormatError);

    await kv.write(await removeOldestStateOps(kv));
    expect((await listStoredStates(kv)).map((s) => s.id.seqno)).toEqual([20, 11]);
    expect((await kv.get(LAST_DELETED_MC_SEQNO_KEY))?.toString('ascii')).toBe('10');
    expect(await stateRootOf(kv, blocks[0]!)).toBeNull();
    expect((await stateRootOf(kv, blocks[1]!))?.equals(h('state 20'))).toBe(true);
    // the new oldest points back at desczero
    expect(decodeCellDbValue((await kv.get(descKey(blocks[1]!)))!).prev.equals(Buffer.alloc(32))).toBe(true);

    await kv.write(await removeOldestStateOps(kv)); // a basechain state: the marker stays
    expect((await kv.get(LAST_DELETED_MC_SEQNO_KEY))?.toString('ascii')).toBe('10');
    await kv.write(await removeOldestStateOps(kv));
    expect(await listStoredStates(kv)).toEqual([]);
    const empty = decodeCellDbValue((await kv.get(DESC_ZERO_KEY))!);
    expect(empty.prev.equals(Buffer.alloc(32)) && empty.next.equals(Buffer.alloc(32))).toBe(true);
    // and the list starts again from empty
    await kv.write(await appendStateOps(kv, blocks[1]!, h('x')));
    expect((await listStoredStates(kv)).map((s) => s.id.seqno)).toEqual([20]);
  });

  it('a broken link is reported, not looped on', async () => {
    const kv = createMemoryKv();
    for (const b of [id(0, 1), id(0, 2)]) await kv.write(await appendStateOps(kv, b, h('r')));
    await kv.write([{ type: 'del', key: descKey(id(0, 2)) }]);
    await expect(listStoredStates(kv)).rejects.toThrow(/absent/);
  });
});
