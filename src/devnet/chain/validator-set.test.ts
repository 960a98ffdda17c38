import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { Cell } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import {
  loadBlockInfo,
  loadConfigParam,
  loadConfigParams,
  loadShardStateUnsplit,
  MASTER_SHARD,
  nodeIdShort,
} from '../../ton/index.ts';
import { blockSignatureMessage, computeValidatorNodes, signBlock, validatorSetHash } from './validator-set.ts';

function child(c: Cell | undefined, i: number): Cell {
  const r = c?.refs[i];
  if (!r) throw new Error(`missing ref ${i}`);
  return r;
}

/** Reads a TL `bytes` field at `at`; returns it and the next (4-aligned) offset. */
function tlBytes(buf: Buffer, at: number): [Buffer, number] {
  let len = buf[at] as number;
  let off = 1;
  if (len === 254) {
    len = buf.readUIntLE(at + 1, 3);
    off = 4;
  }
  const end = at + off + len;
  return [buf.subarray(at + off, end), (end + 3) & ~3];
}

describe.skipIf(!hasVectors)('validator set hash on mainnet data (liteServer.configInfo of mc block 26309435)', () => {
  // liteServer.configInfo mode:# id:tonNode.blockIdExt state_proof:bytes config_proof:bytes
  const v = loadVector<{ response_hex: string }>('liteserver', 'get_config_all_tongo.json');
  const buf = Buffer.from(v.response_hex, 'hex');
  const [stateProof, next] = tlBytes(buf, 4 + 4 + 80);
  const [configProof] = tlBytes(buf, next);
  const header = loadBlockInfo(child(child(Cell.fromBoc(stateProof)[0], 0), 0).beginParse());
  const state = loadShardStateUnsplit(child(Cell.fromBoc(configProof)[0], 0).beginParse());
  const extra = state.custom as {
    config: { config: Cell };
    r1: { validatorInfo: { validatorListHashShort: number; catchainSeqno: number } };
  };
  const params = loadConfigParams(extra.config.config);
  const cc = loadConfigParam(28, params.get(28) as Cell).catchainConfig;
  const vset = loadConfigParam(34, params.get(34) as Cell).curValidators;

  it('reproduces the header hash (100 of 230 validators, shuffled by catchain seqno)', () => {
    expect(vset.total).toBeGreaterThan(vset.main);
    const nodes = computeValidatorNodes(cc, -1, MASTER_SHARD, vset, header.genCatchainSeqno);
    expect(nodes.length).toBe(vset.main);
    expect(validatorSetHash(header.genCatchainSeqno, nodes)).toBe(header.genValidatorListHashShort);
  });

  it("reproduces the state's ValidatorInfo hash (the same list hashed with catchain seqno 0)", () => {
    const vi = extra.r1.validatorInfo;
    expect(vi.catchainSeqno).toBe(header.genCatchainSeqno);
    const nodes = computeValidatorNodes(cc, -1, MASTER_SHARD, vset, vi.catchainSeqno);
    expect(validatorSetHash(0, nodes)).toBe(vi.validatorListHashShort);
  });

  it('draws a shardchain group by weight with weights 1, without repeats', () => {
    const nodes = computeValidatorNodes(cc, 0, 0x4000000000000000n, vset, 7);
    expect(nodes.length).toBe(cc.shardValidatorsNum);
    expect(nodes.every((n) => n.weight === 1n)).toBe(true);
    expect(new Set(nodes.map((n) => n.publicKey.toString('hex'))).size).toBe(nodes.length);
  });
});

describe('block signatures', () => {
  it('signs TL ton.blockId with the validator key; node id is sha256 of TL pub.ed25519', () => {
    const seed = createHash('sha256').update('validator').digest();
    const { publicKey } = keyPairFromSeed(seed);
    const root = createHash('sha256').update('root').digest();
    const file = createHash('sha256').update('file').digest();
    const sig = signBlock(seed, root, file);
    const msg = Buffer.concat([Buffer.from([0x70, 0x6e, 0x0b, 0xc5]), root, file]);
    expect(blockSignatureMessage(root, file).equals(msg)).toBe(true);
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]);
    expect(verify(null, msg, createPublicKey({ key: spki, format: 'der', type: 'spki' }), sig)).toBe(true);
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(verify(null, msg, other, sig)).toBe(false);
    expect(
      nodeIdShort(publicKey).equals(
        createHash('sha256').update(Buffer.from('c6b41348', 'hex')).update(publicKey).digest(),
      ),
    ).toBe(true);
  });
});
