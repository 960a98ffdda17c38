import { describe, expect, it } from 'vitest';
import { tlId } from '../adnl/tl.ts';
import type { BlockIdExt } from '../ton/index.ts';
import { NodeDbFormatError, TL, TlReader, TlWriter } from './tl.ts';

// The schema lines of ton_api.tl (tl/generate/scheme/ton_api.tl) for every id in TL, as written there.
const SCHEMA: Record<keyof typeof TL, string> = {
  blockIdExt:
    'tonNode.blockIdExt workchain:int shard:long seqno:int root_hash:int256 file_hash:int256 = tonNode.BlockIdExt',
  boolTrue: 'boolTrue = Bool',
  boolFalse: 'boolFalse = Bool',
  fileBlock: 'db.filedb.key.blockFile block_id:tonNode.blockIdExt = db.filedb.Key',
  fileProof: 'db.filedb.key.proof block_id:tonNode.blockIdExt = db.filedb.Key',
  fileProofLink: 'db.filedb.key.proofLink block_id:tonNode.blockIdExt = db.filedb.Key',
  blockdbKey: 'db.blockdb.key.value id:tonNode.blockIdExt = db.blockdb.Key',
  blockInfo: `db.block.info#4ac6e727 id:tonNode.blockIdExt flags:# prev_left:flags.1?tonNode.blockIdExt
                                            prev_right:flags.2?tonNode.blockIdExt
                                            next_left:flags.3?tonNode.blockIdExt
                                            next_right:flags.4?tonNode.blockIdExt
                                            lt:flags.13?long
                                            ts:flags.14?int
                                            state:flags.17?int256
                                            masterchain_ref_seqno:flags.23?int = db.block.Info`,
  ltDescKey: 'db.lt.desc.key workchain:int shard:long = db.lt.Key',
  ltDescValue: 'db.lt.desc.value first_idx:int last_idx:int last_seqno:int last_lt:long last_ts:int = db.lt.desc.Value',
  ltElKey: 'db.lt.el.key workchain:int shard:long idx:int = db.lt.Key',
  ltElValue: 'db.lt.el.value id:tonNode.blockIdExt lt:long ts:int = db.lt.el.Value',
  ltShardKey: 'db.lt.shard.key idx:int = db.lt.Key',
  ltShardValue: 'db.lt.shard.value workchain:int shard:long = db.lt.shard.Value',
  ltStatusKey: 'db.lt.status.key = db.lt.Key',
  ltStatusValue: 'db.lt.status.value total_shards:int = db.lt.status.Value',
  filesIndexKey: 'db.files.index.key = db.files.Key',
  filesIndexValue:
    'db.files.index.value packages:(vector int) key_packages:(vector int) temp_packages:(vector int) = db.files.index.Value',
  filesPackageKey: 'db.files.package.key package_id:int key:Bool temp:Bool = db.files.Key',
  filesPackageValue: `db.files.package.value package_id:int key:Bool temp:Bool firstblocks:(vector db.files.package.firstBlock) deleted:Bool
                   = db.files.package.Value`,
  celldbValue: 'db.celldb.value block_id:tonNode.blockIdExt prev:int256 next:int256 root_hash:int256 = db.celldb.Value',
  stateShardClient: 'db.state.shardClient block:tonNode.blockIdExt = db.state.ShardClient',
  stateGcBlockId: 'db.state.gcBlockId block:tonNode.blockIdExt = db.state.GcBlockId',
  stateInitBlockId: 'db.state.initBlockId block:tonNode.blockIdExt = db.state.InitBlockId',
  stateDbVersion: 'db.state.dbVersion version:int = db.state.DbVersion',
  stateKeyShardClient: 'db.state.key.shardClient = db.state.Key',
  stateKeyGcBlockId: 'db.state.key.gcBlockId = db.state.Key',
  stateKeyInitBlockId: 'db.state.key.initBlockId = db.state.Key',
  stateKeyDbVersion: 'db.state.key.dbVersion = db.state.Key',
};

/**
 * TL's id of a schema line: an explicit `#xxxxxxxx` wins; otherwise crc32 of the line with whitespace collapsed
 * and parentheses dropped (`(vector int)` → `vector int`), the form TL's own id generator hashes.
 */
function schemaId(line: string): number {
  const explicit = /^[\w.]+#([0-9a-f]{8})\s/.exec(line);
  if (explicit) return Number.parseInt(explicit[1]!, 16);
  return tlId(line.replace(/\s+/g, ' ').replace(/[()]/g, '').trim());
}

describe('TL constructor ids', () => {
  it('every id in TL is the id of its ton_api.tl line', () => {
    expect(Object.keys(SCHEMA).sort()).toEqual(Object.keys(TL).sort());
    for (const [name, line] of Object.entries(SCHEMA)) {
      expect({ name, id: schemaId(line).toString(16) }).toEqual({ name, id: TL[name as keyof typeof TL].toString(16) });
    }
  });

  it('the crc rule reproduces the ids known independently of it', () => {
    // tonNode.blockIdExt and the Bools appear on the wire of every liteserver answer.
    expect(schemaId(SCHEMA.blockIdExt)).toBe(0x6752eb78);
    expect(schemaId(SCHEMA.boolTrue)).toBe(0x997275b5);
    expect(schemaId(SCHEMA.boolFalse)).toBe(0xbc799737);
    // Without the parenthesis rule the vector lines would hash differently.
    expect(tlId(SCHEMA.filesIndexValue)).not.toBe(TL.filesIndexValue);
    // db.block.info's explicit id is not its crc (the crc of its line is something else).
    expect(tlId(SCHEMA.blockInfo.replace('#4ac6e727', '').replace(/\s+/g, ' '))).not.toBe(TL.blockInfo);
  });
});

describe('TlWriter / TlReader', () => {
  const wholeMaster: BlockIdExt = {
    workchain: -1,
    shard: 0x8000000000000000n,
    seqno: 264,
    rootHash: Buffer.alloc(32, 0xab),
    fileHash: Buffer.alloc(32, 0xcd),
  };

  it('round-trips every field type, a whole-chain shard included', () => {
    const buf = new TlWriter()
      .u32(0xfffffffe)
      .i32(-5)
      .i64(-2n)
      .shard(0xc000000000000000n)
      .int256(Buffer.alloc(32, 7))
      .bool(true)
      .bool(false)
      .blockId(wholeMaster)
      .raw(Buffer.from([1, 2, 3]))
      .done();
    expect(buf.length).toBe(4 + 4 + 8 + 8 + 32 + 4 + 4 + 80 + 3);
    const r = new TlReader(buf, 'test');
    expect(r.u32()).toBe(0xfffffffe);
    expect(r.i32()).toBe(-5);
    expect(r.i64()).toBe(-2n);
    expect(r.shard()).toBe(0xc000000000000000n);
    expect(r.int256()).toEqual(Buffer.alloc(32, 7));
    expect(r.bool()).toBe(true);
    expect(r.bool()).toBe(false);
    expect(r.blockId()).toEqual(wholeMaster);
    expect(() => r.end()).toThrow(NodeDbFormatError);
    r.offset += 3;
    r.end();
  });

  it('writes a blockId as the bare 80-byte tonNode.blockIdExt, little-endian', () => {
    const b = new TlWriter().blockId(wholeMaster).done();
    expect(b.length).toBe(80);
    // wc -1, shard 0x8000000000000000 as a LE long, seqno 264: as in the real handle of masterchain block 264
    // (vectors/node-db/node_db_vectors.json, bytes 4..16 of its value).
    expect(b.subarray(0, 16).toString('hex')).toBe('ffffffff000000000000008008010000');
    expect(b.subarray(16, 48)).toEqual(wholeMaster.rootHash);
  });

  it('reads are bounds-checked and constructor checks name what they expected', () => {
    const r = new TlReader(Buffer.from([1, 2, 3]), 'short value');
    expect(() => r.u32()).toThrow(/short value: expected 4 more bytes at offset 0/);
    const c = new TlReader(new TlWriter().u32(TL.boolTrue).done(), 'ctor');
    expect(() => c.expect(TL.blockInfo)).toThrow(/expected constructor 0x4ac6e727, got 0x997275b5/);
    const notBool = new TlReader(new TlWriter().u32(1).done(), 'flag');
    expect(() => notBool.bool()).toThrow(NodeDbFormatError);
  });

  it('int256 refuses a value of the wrong size', () => {
    expect(() => new TlWriter().int256(Buffer.alloc(31))).toThrow(NodeDbFormatError);
  });
});
