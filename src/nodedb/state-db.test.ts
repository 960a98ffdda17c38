import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlockIdExt } from '../ton/index.ts';
import { createMemoryKv } from './kv/memory.ts';
import {
  dbVersionOp,
  gcBlockOp,
  initBlockOp,
  readDbVersion,
  readGcBlock,
  readInitBlock,
  readShardClient,
  STATE_KEYS,
  shardClientOp,
} from './state-db.ts';
import { NodeDbFormatError } from './tl.ts';

const sha = (s: string) => createHash('sha256').update(s).digest();
const mc = (seqno: number): BlockIdExt => ({
  workchain: -1,
  shard: 0x8000000000000000n,
  seqno,
  rootHash: sha(`root ${seqno}`),
  fileHash: sha(`file ${seqno}`),
});

describe('state db', () => {
  it('keys are the ones node-db.md §4.3 states (sha256 of the boxed key; dbVersion raw)', () => {
    const hex = (b: Buffer) => b.toString('hex');
    expect(hex(STATE_KEYS.shardClient).startsWith('268b010d')).toBe(true);
    expect(hex(STATE_KEYS.shardClient).endsWith('7fae')).toBe(true);
    expect(hex(STATE_KEYS.gcBlockId).startsWith('c385ca46')).toBe(true);
    expect(hex(STATE_KEYS.gcBlockId).endsWith('ae83')).toBe(true);
    expect(hex(STATE_KEYS.initBlockId).startsWith('f2881431')).toBe(true);
    expect(hex(STATE_KEYS.initBlockId).endsWith('21d9')).toBe(true);
    expect(hex(STATE_KEYS.dbVersion)).toBe('54214f72');
  });

  it('block records round trip as boxed TL values (id + 80-byte block id)', async () => {
    const kv = createMemoryKv();
    expect(await readShardClient(kv)).toBeNull();
    expect(await readGcBlock(kv)).toBeNull();
    expect(await readInitBlock(kv)).toBeNull();
    await kv.write([shardClientOp(mc(264)), gcBlockOp(mc(10)), initBlockOp(mc(1))]);
    expect(await readShardClient(kv)).toEqual(mc(264));
    expect(await readGcBlock(kv)).toEqual(mc(10));
    expect(await readInitBlock(kv)).toEqual(mc(1));
    // db.state.shardClient = 0x0b16a69d, LE, then wc -1, shard, seqno 264 (0x108)
    const raw = await kv.get(STATE_KEYS.shardClient);
    expect(raw?.length).toBe(84);
    expect(raw?.subarray(0, 20).toString('hex')).toBe('9da6160b' + 'ffffffff' + '0000000000000080' + '08010000');
  });

  it('db version: db.state.dbVersion version:int under the raw key', async () => {
    const kv = createMemoryKv();
    expect(await readDbVersion(kv)).toBeNull();
    await kv.write([dbVersionOp(2)]);
    expect((await kv.get(Buffer.from('54214f72', 'hex')))?.toString('hex')).toBe('f72037d9' + '02000000');
    expect(await readDbVersion(kv)).toBe(2);
  });

  it('a value of another type is refused', async () => {
    const kv = createMemoryKv();
    await kv.write([{ type: 'put', key: STATE_KEYS.gcBlockId, value: shardClientOp(mc(5)).value }]);
    await expect(readGcBlock(kv)).rejects.toThrow(NodeDbFormatError);
    await expect(readGcBlock(kv)).rejects.toThrow(/expected constructor 0xdf30bd4f, got 0xb16a69d/);
  });
});
