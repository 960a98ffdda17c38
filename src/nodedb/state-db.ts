// The node's small service database (`state/`, node-db.md §4.3; validator/db/statedb.cpp). Keys are the sha256 of
// the boxed TL key object (`db.state.key.*`, no fields), except dbVersion's, which is the boxed key itself.
// Values are boxed TL objects. shardClient is the safe indexing tip: every shard block it commits is applied.
import { createHash } from 'node:crypto';
import type { BlockIdExt } from '../ton/index.ts';
import type { KvOp, KvReader } from './kv/types.ts';

type KvPut = Extract<KvOp, { type: 'put' }>;

import { NodeDbFormatError, TL, TlReader, TlWriter } from './tl.ts';

const boxed = (id: number) => new TlWriter().u32(id).done();
const hashed = (id: number) => createHash('sha256').update(boxed(id)).digest();

export const STATE_KEYS = {
  shardClient: hashed(TL.stateKeyShardClient),
  gcBlockId: hashed(TL.stateKeyGcBlockId),
  initBlockId: hashed(TL.stateKeyInitBlockId),
  dbVersion: boxed(TL.stateKeyDbVersion),
} as const;

async function readBlockRecord(kv: KvReader, key: Buffer, valueId: number, name: string): Promise<BlockIdExt | null> {
  const v = await kv.get(key);
  if (v === null) return null;
  const r = new TlReader(v, `${kv.path}: ${name}`).expect(valueId);
  const id = r.blockId();
  r.end();
  return id;
}

const blockRecordOp = (key: Buffer, valueId: number, id: BlockIdExt): KvPut => ({
  type: 'put',
  key,
  value: new TlWriter().u32(valueId).blockId(id).done(),
});

/** `db.state.shardClient`: the masterchain block whose shard blocks have all been applied. */
export function readShardClient(kv: KvReader): Promise<BlockIdExt | null> {
  return readBlockRecord(kv, STATE_KEYS.shardClient, TL.stateShardClient, 'db.state.shardClient');
}

export function shardClientOp(id: BlockIdExt): KvPut {
  return blockRecordOp(STATE_KEYS.shardClient, TL.stateShardClient, id);
}

/** `db.state.gcBlockId`: how far the node's masterchain block GC has gone. */
export function readGcBlock(kv: KvReader): Promise<BlockIdExt | null> {
  return readBlockRecord(kv, STATE_KEYS.gcBlockId, TL.stateGcBlockId, 'db.state.gcBlockId');
}

export function gcBlockOp(id: BlockIdExt): KvPut {
  return blockRecordOp(STATE_KEYS.gcBlockId, TL.stateGcBlockId, id);
}

/** `db.state.initBlockId`: the block the node started from (its initial sync). */
export function readInitBlock(kv: KvReader): Promise<BlockIdExt | null> {
  return readBlockRecord(kv, STATE_KEYS.initBlockId, TL.stateInitBlockId, 'db.state.initBlockId');
}

export function initBlockOp(id: BlockIdExt): KvPut {
  return blockRecordOp(STATE_KEYS.initBlockId, TL.stateInitBlockId, id);
}

/** `db.state.dbVersion` (the node writes 2 and refuses any other value). */
export async function readDbVersion(kv: KvReader): Promise<number | null> {
  const v = await kv.get(STATE_KEYS.dbVersion);
  if (v === null) return null;
  const r = new TlReader(v, `${kv.path}: db.state.dbVersion`).expect(TL.stateDbVersion);
  const version = r.i32();
  r.end();
  if (version < 0) throw new NodeDbFormatError(`${kv.path}: db.state.dbVersion is ${version}`);
  return version;
}

export function dbVersionOp(version: number): KvPut {
  return { type: 'put', key: STATE_KEYS.dbVersion, value: new TlWriter().u32(TL.stateDbVersion).i32(version).done() };
}
