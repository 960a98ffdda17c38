import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { CodecError } from '../../common/index.ts';
import {
  decodeTl,
  decodeTlBare,
  decodeTlPrefix,
  encodeTl,
  encodeTlBare,
  type LiteServerConfigInfo,
  type LiteServerListBlockTransactions,
  type LiteServerMasterchainInfo,
  TL_SCHEMA,
  type TlObject,
  tlConstructorId,
} from './index.ts';
import { flagCombos, objectSize, rng, sampleObject, type Value } from './test-helpers.ts';

const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0);
  return b;
};
const i32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32LE(v);
  return b;
};
const i64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(v);
  return b;
};
const asObj = (v: Value) => v as unknown as TlObject;

function expectCodecError(fn: () => unknown, message?: RegExp): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(CodecError);
  expect((thrown as CodecError).code).toBe('TG_CODEC_INVALID');
  if (message) expect((thrown as Error).message).toMatch(message);
}

const blockIdExt = {
  workchain: -1,
  shard: -(1n << 63n),
  seqno: 26309435,
  rootHash: Buffer.alloc(32, 0x11),
  fileHash: Buffer.alloc(32, 0x22),
};
const blockIdExtBytes = Buffer.concat([
  i32(-1),
  i64(-(1n << 63n)),
  i32(26309435),
  blockIdExt.rootHash,
  blockIdExt.fileHash,
]);

describe('round trip of every constructor and function', () => {
  for (const c of TL_SCHEMA) {
    it(`${c.name}: every flag combination encodes to the size TL prescribes and decodes back`, () => {
      const r = rng(c.id);
      for (const flags of flagCombos(c)) {
        for (let rep = 0; rep < 3; rep++) {
          const sample = sampleObject(c, r, {}, flags);
          const bytes = encodeTl(asObj(sample));
          expect(bytes.length).toBe(4 + objectSize(c, sample));
          expect(bytes.readUInt32LE(0)).toBe(c.id);
          expect(decodeTl(bytes)).toEqual(sample);
          // bare form = boxed form without the id
          expect(encodeTlBare(sample as never, c.name as never)).toEqual(bytes.subarray(4));
          expect(decodeTlBare(c.name as never, bytes.subarray(4))).toEqual(sample);
        }
      }
    });
  }
});

describe('primitive wire forms', () => {
  const sendMessage = (body: Buffer) => encodeTl({ _: 'liteServer.sendMessage', body });
  const id = u32(tlConstructorId('liteServer.sendMessage'));

  it('bytes: 1-byte length below 254, 0xfe + 3-byte length from 254, zero padding to 4', () => {
    expect(sendMessage(Buffer.alloc(0))).toEqual(Buffer.concat([id, Buffer.from([0, 0, 0, 0])]));
    expect(sendMessage(Buffer.from([0xab]))).toEqual(Buffer.concat([id, Buffer.from([1, 0xab, 0, 0])]));
    expect(sendMessage(Buffer.from([1, 2, 3]))).toEqual(Buffer.concat([id, Buffer.from([3, 1, 2, 3])]));
    const b253 = Buffer.alloc(253, 7);
    expect(sendMessage(b253)).toEqual(Buffer.concat([id, Buffer.from([253]), b253, Buffer.alloc(2)]));
    const b254 = Buffer.alloc(254, 9);
    expect(sendMessage(b254)).toEqual(Buffer.concat([id, Buffer.from([0xfe, 254, 0, 0]), b254, Buffer.alloc(2)]));
    const big = Buffer.alloc(0x010203, 5);
    const enc = sendMessage(big);
    expect(enc.subarray(4, 8)).toEqual(Buffer.from([0xfe, 0x03, 0x02, 0x01]));
    expect(enc.length).toBe(4 + 4 + 0x010203 + 1);
    expect(decodeTl(enc)).toEqual({ _: 'liteServer.sendMessage', body: big });
  });

  it('string is UTF-8 bytes; int is signed 32-bit LE', () => {
    const enc = encodeTl({ _: 'liteServer.error', code: -400, message: 'héllo' });
    expect(enc).toEqual(
      Buffer.concat([u32(0xbba9e148), i32(-400), Buffer.from([6]), Buffer.from('héllo', 'utf8'), Buffer.alloc(1)]),
    );
  });

  it('Bool is boolTrue/boolFalse; long is 64-bit LE, signed on decode, unsigned shard form accepted', () => {
    const signed = {
      _: 'liteServer.getShardInfo' as const,
      id: blockIdExt,
      workchain: 0,
      shard: -(1n << 63n),
      exact: true,
    };
    const expected = Buffer.concat([
      u32(tlConstructorId('liteServer.getShardInfo')),
      blockIdExtBytes,
      i32(0),
      Buffer.from([0, 0, 0, 0, 0, 0, 0, 0x80]),
      u32(0x997275b5),
    ]);
    expect(encodeTl(signed)).toEqual(expected);
    expect(encodeTl({ ...signed, shard: 0x8000000000000000n })).toEqual(expected);
    expect(decodeTl(expected)).toEqual({ ...signed, id: { _: 'tonNode.blockIdExt', ...blockIdExt } });
    const no = encodeTl({ ...signed, exact: false });
    expect(no.readUInt32LE(no.length - 4)).toBe(0xbc799737);
  });

  it('vector is an int32 count then bare items', () => {
    const enc = encodeTl({ _: 'liteServer.getConfigParams', mode: 0, id: blockIdExt, paramList: [0, 34, -1] });
    expect(enc.subarray(4 + 4 + 80)).toEqual(Buffer.concat([u32(3), i32(0), i32(34), i32(-1)]));
  });

  it('a boxed vector element (liteServer.BlockLink) carries its constructor id', () => {
    const link = {
      _: 'liteServer.blockLinkBack' as const,
      toKeyBlock: false,
      from: blockIdExt,
      to: blockIdExt,
      destProof: Buffer.alloc(0),
      proof: Buffer.alloc(0),
      stateProof: Buffer.alloc(0),
    };
    const enc = encodeTl({
      _: 'liteServer.partialBlockProof',
      complete: true,
      from: blockIdExt,
      to: blockIdExt,
      steps: [link],
    });
    const at = 4 + 4 + 80 + 80;
    expect(enc.readUInt32LE(at)).toBe(1);
    expect(enc.readUInt32LE(at + 4)).toBe(tlConstructorId('liteServer.blockLinkBack'));
  });
});

describe('`?true` fields take zero bytes', () => {
  // liteServer.listBlockTransactions id:tonNode.blockIdExt mode:# count:# after:mode.7?liteServer.transactionId3
  //   reverse_order:mode.6?true want_proof:mode.5?true
  const head = (mode: number, count: number) =>
    Buffer.concat([u32(tlConstructorId('liteServer.listBlockTransactions')), blockIdExtBytes, u32(mode), u32(count)]);

  it('mode 39 (bits 0,1,2,5: account, lt, hash, want_proof) is exactly id + id + mode + count', () => {
    const req: LiteServerListBlockTransactions = {
      _: 'liteServer.listBlockTransactions',
      id: blockIdExt,
      mode: 39,
      count: 256,
      reverseOrder: false,
      wantProof: true,
    };
    const enc = encodeTl(req);
    expect(enc).toEqual(head(39, 256));
    expect(enc.length).toBe(92);
    expect(decodeTl(enc)).toEqual({ ...req, id: { _: 'tonNode.blockIdExt', ...blockIdExt } });
  });

  it('with after (bit 7) and reverse_order (bit 6) only the transactionId3 adds bytes', () => {
    const account = Buffer.alloc(32, 0xaa);
    const mode = 39 | 64 | 128;
    const req: LiteServerListBlockTransactions = {
      _: 'liteServer.listBlockTransactions',
      id: blockIdExt,
      mode,
      count: 16,
      after: { account, lt: 47000000000001n },
      reverseOrder: true,
      wantProof: true,
    };
    const enc = encodeTl(req);
    expect(enc).toEqual(Buffer.concat([head(mode, 16), account, i64(47000000000001n)]));
    const back = decodeTl(enc) as LiteServerListBlockTransactions;
    expect(back.reverseOrder).toBe(true);
    expect(back.wantProof).toBe(true);
    expect(back.after).toEqual({ _: 'liteServer.transactionId3', account, lt: 47000000000001n });
  });

  it('decodes mode 7 as both flags false', () => {
    const back = decodeTl(head(7, 100)) as LiteServerListBlockTransactions;
    expect(back).toMatchObject({ mode: 7, count: 100, reverseOrder: false, wantProof: false });
    expect('after' in back).toBe(false);
  });

  it('getDispatchQueueMessages: three ?true flags, none on the wire', () => {
    const enc = encodeTl({
      _: 'liteServer.getDispatchQueueMessages',
      mode: 7,
      id: blockIdExt,
      addr: Buffer.alloc(32, 1),
      afterLt: 5n,
      maxMessages: 10,
      wantProof: true,
      oneAccount: true,
      messagesBoc: true,
    });
    expect(enc.length).toBe(4 + 4 + 80 + 32 + 8 + 4);
  });
});

describe('strict encoding', () => {
  const base: LiteServerListBlockTransactions = {
    _: 'liteServer.listBlockTransactions',
    id: blockIdExt,
    mode: 7,
    count: 10,
    reverseOrder: false,
    wantProof: false,
  };

  it('a flagged field must be present exactly when its bit is set', () => {
    expectCodecError(() => encodeTl({ ...base, after: { account: Buffer.alloc(32), lt: 1n } }), /bit 7 is clear/);
    expectCodecError(() => encodeTl({ ...base, mode: 7 | 128 }), /bit 7 is set/);
    expectCodecError(() => encodeTl({ ...base, reverseOrder: true }), /reverseOrder: expected false/);
    expectCodecError(() => encodeTl({ ...base, mode: 39 }), /wantProof: expected true/);
    expectCodecError(() => encodeTl({ ...base, wantProof: undefined } as never), /wantProof: expected boolean/);
    const rm = { _: 'liteServer.runMethodResult' as const, mode: 4, id: blockIdExt, shardblk: blockIdExt, exitCode: 0 };
    expectCodecError(() => encodeTl(rm), /result: expected a value/);
    expectCodecError(() => encodeTl({ ...rm, mode: 0, result: Buffer.alloc(1) }), /result: expected no value/);
    expectCodecError(() => encodeTl({ ...rm, mode: 0, result: null } as never), /result: expected no value/);
  });

  it('values must fit their TL types', () => {
    const time = (now: unknown) => encodeTl({ _: 'liteServer.currentTime', now } as never);
    expectCodecError(() => time(2 ** 31), /expected int/);
    expectCodecError(() => time(1.5), /expected int/);
    expectCodecError(() => time('1'), /expected int/);
    expectCodecError(() => encodeTl({ _: 'liteServer.getMasterchainInfoExt', mode: -1 }), /expected #/);
    expectCodecError(() => encodeTl({ _: 'liteServer.getMasterchainInfoExt', mode: 2 ** 32 }), /expected #/);
    const id = (v: Record<string, unknown>) =>
      encodeTl({ _: 'liteServer.getBlock', id: { ...blockIdExt, ...v } } as never);
    expectCodecError(() => id({ shard: 1 }), /id\.shard: expected long/);
    expectCodecError(() => id({ shard: 1n << 64n }), /id\.shard: expected long/);
    expectCodecError(() => id({ shard: -(1n << 63n) - 1n }), /id\.shard: expected long/);
    expectCodecError(() => id({ rootHash: Buffer.alloc(31) }), /rootHash: expected int256/);
    expectCodecError(() => encodeTl({ _: 'liteServer.sendMessage', body: 'abc' } as never), /expected bytes/);
    expectCodecError(() => encodeTl({ _: 'liteServer.sendMessage', body: Buffer.alloc(1 << 24) }), /at most/);
    expectCodecError(
      () => encodeTl({ _: 'liteServer.getShardInfo', id: blockIdExt, workchain: 0, shard: 0n, exact: 1 } as never),
      /Bool/,
    );
  });

  it('objects must name a known constructor, have no unknown fields and miss no field', () => {
    expectCodecError(() => encodeTl({ _: 'liteServer.nope' } as never), /lite_api\.tl constructor/);
    expectCodecError(() => encodeTl({} as never), /lite_api\.tl constructor/);
    expectCodecError(() => encodeTl({ _: 'liteServer.getTime', extra: 1 } as never), /no field 'extra'/);
    expectCodecError(() => encodeTl({ _: 'liteServer.currentTime' } as never), /now: expected int/);
    expectCodecError(
      () => encodeTl({ _: 'liteServer.getBlock', id: { ...blockIdExt, _: 'tonNode.blockId' } } as never),
      /'tonNode\.blockIdExt'/,
    );
    // a boxed field takes only constructors of its type
    const fwd = {
      _: 'liteServer.blockLinkForward',
      toKeyBlock: true,
      from: blockIdExt,
      to: blockIdExt,
      destProof: Buffer.alloc(0),
      configProof: Buffer.alloc(0),
      signatures: { _: 'liteServer.signature', nodeIdShort: Buffer.alloc(32), signature: Buffer.alloc(64) },
    };
    expectCodecError(
      () => encodeTl(fwd as never),
      /liteServer\.signatureSet\.ordinary' or 'liteServer\.signatureSet\.simplex/,
    );
  });
});

describe('decoding untrusted bytes fails with CodecError only', () => {
  const sample = encodeTl({
    _: 'liteServer.runMethodResult',
    mode: 31,
    id: blockIdExt,
    shardblk: blockIdExt,
    shardProof: Buffer.from([1, 2, 3]),
    proof: Buffer.alloc(300, 4),
    stateProof: Buffer.alloc(0),
    initC7: Buffer.from([5]),
    libExtras: Buffer.from([6, 7]),
    exitCode: -256,
    result: Buffer.from([8, 9, 10, 11]),
  });

  it('unknown constructor id', () => {
    expectCodecError(() => decodeTl(Buffer.from('deadbeef', 'hex')), /unknown constructor id 0xefbeadde/);
    expectCodecError(() => decodeTl(Buffer.alloc(0)), /constructor id/);
  });

  it('every truncation of a valid encoding', () => {
    for (let n = 0; n < sample.length; n++) expectCodecError(() => decodeTl(sample.subarray(0, n)));
  });

  it('trailing bytes (decodeTlPrefix returns them instead)', () => {
    for (const extra of [1, 3, 4, 100]) {
      const buf = Buffer.concat([sample, Buffer.alloc(extra, 0xee)]);
      expectCodecError(() => decodeTl(buf), new RegExp(`${extra} trailing bytes`));
      const { value, rest } = decodeTlPrefix(buf);
      expect(value).toEqual(decodeTl(sample));
      expect(rest).toEqual(Buffer.alloc(extra, 0xee));
    }
  });

  it('bad bytes length prefix, and a long length beyond the buffer', () => {
    const id = u32(tlConstructorId('liteServer.sendMessage'));
    expectCodecError(() => decodeTl(Buffer.concat([id, Buffer.from([0xff, 0, 0, 0])])), /length prefix 0xff/);
    expectCodecError(
      () => decodeTl(Buffer.concat([id, Buffer.from([0xfe, 0xff, 0xff, 0x00]), Buffer.alloc(8)])),
      /bytes of length 65535/,
    );
    expectCodecError(() => decodeTl(Buffer.concat([id, Buffer.from([5, 1, 2, 3])])), /bytes of length 5/);
  });

  it('bad Bool value, absurd vector count, wrong constructor in a boxed position', () => {
    const getShardInfo = encodeTl({
      _: 'liteServer.getShardInfo',
      id: blockIdExt,
      workchain: 0,
      shard: 0n,
      exact: true,
    });
    getShardInfo.writeUInt32LE(0x12345678, getShardInfo.length - 4);
    expectCodecError(() => decodeTl(getShardInfo), /expected Bool/);

    const libs = Buffer.concat([u32(tlConstructorId('liteServer.getLibraries')), u32(0xffffffff)]);
    expectCodecError(() => decodeTl(libs), /vector count 4294967295 cannot fit/);

    const proof = encodeTl({
      _: 'liteServer.partialBlockProof',
      complete: false,
      from: blockIdExt,
      to: blockIdExt,
      steps: [],
    });
    const withStep = Buffer.concat([
      proof.subarray(0, proof.length - 4),
      u32(1),
      u32(tlConstructorId('liteServer.getTime')),
    ]);
    expectCodecError(
      () => decodeTl(withStep),
      /expected a constructor of liteServer\.BlockLink, got 'liteServer\.getTime'/,
    );
  });

  it('random corruptions of valid encodings never throw anything but CodecError', () => {
    const r = rng(0x5eed);
    const seeds = TL_SCHEMA.map((c) => encodeTl(asObj(sampleObject(c, r, { small: true }, flagCombos(c).at(-2)))));
    let decoded = 0;
    for (let i = 0; i < 3000; i++) {
      const buf = Buffer.from(seeds[r() % seeds.length]!);
      const flips = 1 + (r() % 3);
      for (let k = 0; k < flips; k++) buf[4 + (r() % Math.max(1, buf.length - 4))] = r() & 0xff;
      try {
        decodeTl(buf.subarray(0, buf.length - (r() % 3 === 0 ? r() % 8 : 0)));
        decoded++;
      } catch (e) {
        expect(e).toBeInstanceOf(CodecError);
      }
    }
    expect(decoded).toBeGreaterThan(0); // some corruptions only change values, which must still decode
  });
});

describe('prefixes', () => {
  it('waitMasterchainSeqno + liteServer.query: the server peels one object at a time', () => {
    const inner = encodeTl({ _: 'liteServer.getMasterchainInfo' });
    const wrapped = Buffer.concat([
      encodeTl({ _: 'liteServer.waitMasterchainSeqno', seqno: 123, timeoutMs: 5000 }),
      inner,
    ]);
    const query = encodeTl({ _: 'liteServer.query', data: wrapped });
    const outer = decodeTl(query);
    expect(outer._).toBe('liteServer.query');
    const { value, rest } = decodeTlPrefix((outer as { data: Buffer }).data);
    expect(value).toEqual({ _: 'liteServer.waitMasterchainSeqno', seqno: 123, timeoutMs: 5000 });
    expect(decodeTl(rest)).toEqual({ _: 'liteServer.getMasterchainInfo' });
    // the legacy form: liteServer.queryPrefix directly followed by the function
    const legacy = Buffer.concat([encodeTl({ _: 'liteServer.queryPrefix' }), inner]);
    expect(decodeTlPrefix(legacy)).toEqual({ value: { _: 'liteServer.queryPrefix' }, rest: inner });
  });
});

describe.skipIf(!hasVectors)('real liteserver bytes (tongo testdata, mainnet mc block 26309435)', () => {
  interface Vector {
    ids: { block: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string } };
    request_hex: string;
    response_hex: string;
    verification: { config_proof: { virtual_root_hash: string } };
  }
  const v = loadVector<Vector>('liteserver', 'get_config_all_tongo.json');
  const expectedId = {
    _: 'tonNode.blockIdExt',
    workchain: v.ids.block.workchain,
    shard: BigInt.asIntN(64, BigInt(`0x${v.ids.block.shard}`)),
    seqno: v.ids.block.seqno,
    rootHash: Buffer.from(v.ids.block.root_hash, 'hex'),
    fileHash: Buffer.from(v.ids.block.file_hash, 'hex'),
  };

  it('liteServer.configInfo: fields, proofs that @ton/core parses, byte-exact re-encoding', () => {
    const bytes = Buffer.from(v.response_hex, 'hex');
    const info = decodeTl(bytes) as LiteServerConfigInfo;
    expect(info._).toBe('liteServer.configInfo');
    expect(info.mode).toBe(0);
    expect(info.id).toEqual(expectedId);
    const [blockProof, ...more] = Cell.fromBoc(info.stateProof);
    expect(more).toHaveLength(0);
    expect(blockProof!.isExotic).toBe(true);
    expect(blockProof!.refs[0]!.hash(0)).toEqual(expectedId.rootHash); // a MerkleProof of this very block
    const [stateProof] = Cell.fromBoc(info.configProof);
    expect(stateProof!.isExotic).toBe(true);
    expect(stateProof!.refs[0]!.hash(0).toString('hex')).toBe(v.verification.config_proof.virtual_root_hash);
    expect(stateProof!.refs[0]!.beginParse(true).loadUint(32)).toBe(0x9023afe2); // ShardStateUnsplit tag
    expect(encodeTl(info)).toEqual(bytes);
  });

  it('the companion file is a liteServer.masterchainInfo of the same block (mainnet zero state)', () => {
    // README calls request_hex the getConfigAll query; its id 0x85832881 is liteServer.masterchainInfo.
    const bytes = Buffer.from(v.request_hex, 'hex');
    const info = decodeTl(bytes) as LiteServerMasterchainInfo;
    expect(info._).toBe('liteServer.masterchainInfo');
    expect(info.last).toEqual(expectedId);
    // the mc state hash it reports is the state the config proof proves
    expect(info.stateRootHash.toString('hex')).toBe(v.verification.config_proof.virtual_root_hash);
    // mainnet zero state, as toncenter reports it (../shared/specs/v2-api.md, getMasterchainInfo example)
    expect(info.init).toEqual({
      _: 'tonNode.zeroStateIdExt',
      workchain: -1,
      rootHash: Buffer.from('F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=', 'base64'),
      fileHash: Buffer.from('XplPz01CXAps5qeSWUtxcyBfdAo5zVb1N979KLSKD24=', 'base64'),
    });
    expect(encodeTl(info)).toEqual(bytes);
  });
});
