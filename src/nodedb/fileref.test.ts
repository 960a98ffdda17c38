import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlockIdExt } from '../ton/index.ts';
import { fileIndexKey, fileKey, fileKeyHash, fileName, formatBlockIdName, parseFileName } from './fileref.ts';
import { NodeDbFormatError } from './tl.ts';

// Block (0,4000000000000000,76) of the ton4j packs (vectors/node-db): its id and its entry name as stored there.
const BLOCK_76: BlockIdExt = {
  workchain: 0,
  shard: 0x4000000000000000n,
  seqno: 76,
  rootHash: Buffer.from('c85856c6d9dd02c1c3d9881fbd88a1d3dc14f9e8e6e99f79ec33f84cae475cf8', 'hex'),
  fileHash: Buffer.from('149bd099c820a51529e3fcb8d4f5bc908d3cee250ac31640fa8ab579ae5c8844', 'hex'),
};
const BLOCK_76_NAME =
  'block_(0,4000000000000000,76):C85856C6D9DD02C1C3D9881FBD88A1D3DC14F9E8E6E99F79EC33F84CAE475CF8:149BD099C820A51529E3FCB8D4F5BC908D3CEE250AC31640FA8AB579AE5C8844';
const MC_PROOF_NAME =
  'proof_(-1,8000000000000000,1):F9F68675399FC76973A6B73F82F245FE5CC4EC677FCC2EDCE326DD4AC9A0422D:58C4D58FDD0BB5C9E8958A078890CA603FF93EBE3DAEBDCDC53234FCA37A26B5';

describe('file names', () => {
  it('formats a block id as the node does (lower-case shard, upper-case hashes)', () => {
    expect(fileName('block', BLOCK_76)).toBe(BLOCK_76_NAME);
    expect(formatBlockIdName({ ...BLOCK_76, shard: 0xc000000000000000n })).toMatch(/^\(0,c000000000000000,76\):C858/);
    expect(formatBlockIdName({ ...BLOCK_76, shard: 0x0800000000000000n })).toMatch(/^\(0,0800000000000000,76\)/);
  });

  it('parses the names of all three kinds and formats them back', () => {
    expect(parseFileName(BLOCK_76_NAME)).toEqual({ kind: 'block', id: BLOCK_76 });
    const proof = parseFileName(MC_PROOF_NAME)!;
    expect(proof.kind).toBe('proof');
    expect(proof.id.workchain).toBe(-1);
    expect(proof.id.shard).toBe(0x8000000000000000n);
    expect(proof.id.seqno).toBe(1);
    expect(fileName(proof.kind, proof.id)).toBe(MC_PROOF_NAME);
    const link = parseFileName(BLOCK_76_NAME.replace('block_', 'prooflink_'))!;
    expect(link).toEqual({ kind: 'prooflink', id: BLOCK_76 });
  });

  it('accepts lower-case hashes', () => {
    expect(
      parseFileName(`block_(0,4000000000000000,76):${BLOCK_76_NAME.split(':').slice(1).join(':').toLowerCase()}`),
    ).toEqual({
      kind: 'block',
      id: BLOCK_76,
    });
  });

  it('returns null for kinds an indexer does not read', () => {
    const id = BLOCK_76_NAME.slice('block_'.length);
    for (const name of [
      `signatures_${id}`,
      `candidate_${id}_${'AB'.repeat(32)}_c291cmNl`,
      `candidateref_${id}`,
      `info_${id}`,
      `zerostate_${id}`,
      'noprefix',
      '',
    ]) {
      expect(parseFileName(name)).toBeNull();
    }
  });

  it('throws on a known kind with a malformed id', () => {
    for (const name of [
      'block_',
      'block_(0,4000000000000000,76)',
      BLOCK_76_NAME.slice(0, -1),
      `${BLOCK_76_NAME}0`,
      BLOCK_76_NAME.replace('4000000000000000', '400000000000000'),
      BLOCK_76_NAME.replace(',76)', ',4294967296)'),
      BLOCK_76_NAME.replace('(0,', '(2147483648,'),
    ]) {
      expect(() => parseFileName(name), name).toThrow(NodeDbFormatError);
    }
  });
});

describe('file index keys', () => {
  it('matches the worked example of node-db.md §2.4', () => {
    expect(fileIndexKey('block', BLOCK_76).toString('latin1')).toBe(
      'FBC6E3B135162783C51560D861B9353CE1BCDE8D8DCFDFD3D00F35105B77FC41',
    );
  });

  it('hashes the boxed TL key: constructor id then the bare 80-byte id', () => {
    const k = fileKey('proof', BLOCK_76);
    expect(k.length).toBe(84);
    expect(k.readUInt32LE(0)).toBe(0xda954dec);
    expect(k.readInt32LE(4)).toBe(0);
    expect(k.readBigUInt64LE(8)).toBe(0x4000000000000000n);
    expect(k.readInt32LE(16)).toBe(76);
    expect(k.subarray(20, 52)).toEqual(BLOCK_76.rootHash);
    expect(k.subarray(52, 84)).toEqual(BLOCK_76.fileHash);
    expect(fileKey('prooflink', BLOCK_76).readUInt32LE(0)).toBe(0x98fbc5ce);
    expect(fileKeyHash('proof', BLOCK_76)).toEqual(createHash('sha256').update(k).digest());
    const key = fileIndexKey('proof', BLOCK_76).toString('latin1');
    expect(key).toMatch(/^[0-9A-F]{64}$/);
    expect(key).toBe(fileKeyHash('proof', BLOCK_76).toString('hex').toUpperCase());
    expect(
      new Set(['block', 'proof', 'prooflink'].map((k) => fileIndexKey(k as 'block', BLOCK_76).toString())),
    ).toHaveProperty('size', 3);
  });
});
