import { Address, beginCell, Cell, loadMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector, loadVectors } from '../../../test/helpers/vectors.ts';
import { CodecError } from '../../common/errors.ts';
import { readmeFiles } from '../vectors-readme.test-util.ts';
import { loadBlockCell } from './block.ts';
import type { InMsg } from './in-msg.ts';
import { loadMsgEnvelope, type MsgEnvelope, storeMsgEnvelope } from './msg-envelope.ts';
import type { OutMsg } from './out-msg.ts';

const blockOf = (file: string) =>
  loadBlockCell(Cell.fromBase64(loadVector<{ boc_base64: string }>('blocks', file).boc_base64));

function inEnvelope(m: InMsg): MsgEnvelope | null {
  return 'inMsg' in m ? m.inMsg : null;
}

// tonkeeper/tongo tlb/block_test.go Test_GetInMsgsMetadata (commit 62e2b89f): for every imported message
// carried in a msg_envelope_v2 with metadata, (message src, created_lt) -> (initiator_addr, initiator_lt).
const TONGO_METADATA: Record<string, Array<[string, number, string, number]>> = {
  'mainnet_tongo_block-6.json': [
    [
      '0:5691bb16d415f3c11a0b2864415c605eb0f12a17456ca9bbedfce51008aaf2b9',
      58969747000002,
      '0:5691bb16d415f3c11a0b2864415c605eb0f12a17456ca9bbedfce51008aaf2b9',
      58969747000001,
    ],
    [
      '0:01cc5bf05b36701c6758a02bc501ac328dc253ae06ff9efce770b2e7b012656b',
      58969748000002,
      '0:01cc5bf05b36701c6758a02bc501ac328dc253ae06ff9efce770b2e7b012656b',
      58969748000001,
    ],
    [
      '0:7321efca606adece6492dee6bd6ee3343fcbf31273050ebb2fd69ac59f03f8de',
      58969747000012,
      '0:8c6c53da461a65ee09e6dccb012e2ad4e4870913eb74bdac124bd9f9062ae69c',
      58969744000001,
    ],
    [
      '0:140beaba8ef50e82edbb5f74ee421638461ff634fd88acec628eafdc31c91614',
      58969748000002,
      '0:ebb3f08c9e7e66035e54b1b3abf4d177f889a055d6b40b2c70d728040d8a62f6',
      58969744000001,
    ],
    [
      '0:52eea2f3c4eb0f2335518fa86303934cbc0d75a23eaa4b7a1636a08a274e2d19',
      58969747000003,
      '0:cdce58745d265d6f9fd0ae5c79423c991d500eef8bf9a0c79556bb45ff956dd6',
      58969743000001,
    ],
    [
      '0:01cc5bf05b36701c6758a02bc501ac328dc253ae06ff9efce770b2e7b012656b',
      58969748000003,
      '0:01cc5bf05b36701c6758a02bc501ac328dc253ae06ff9efce770b2e7b012656b',
      58969748000001,
    ],
    [
      '0:61b2678a5d4c2db1e24382d875429662560d29d1988ea31147ccdda0fb2c253b',
      58969747000003,
      '0:8c6c53da461a65ee09e6dccb012e2ad4e4870913eb74bdac124bd9f9062ae69c',
      58969744000001,
    ],
    [
      '0:d9fff84e4578537a82b56114eaccbfb9d8714ccae54e81c5182e8402066f6193',
      58969747000002,
      '0:d9fff84e4578537a82b56114eaccbfb9d8714ccae54e81c5182e8402066f6193',
      58969747000001,
    ],
  ],
  'mainnet_tongo_block-7.json': [
    [
      '0:5f33baaf2bb55f85d5c3ee6a4375a4857f09aa0154121b9a39ae854bf615f709',
      58969742000002,
      '0:5f33baaf2bb55f85d5c3ee6a4375a4857f09aa0154121b9a39ae854bf615f709',
      58969742000001,
    ],
    [
      '0:6181aebf31392c2c373d513b2b265de5cc6b4269f9853a5e80caf3f40c4cb56b',
      58969742000003,
      '0:86a00101e0a1b9ec5b9a135be16d66b71ef32f17ea028895240ebecfe8f3aa23',
      58969737000001,
    ],
    [
      '0:53602c7b4c681581a22bdedb89debffdd44e855010562ed4fbde54d8626ac873',
      58969742000008,
      '0:8f0e6d2cc08fb952d58e5e1d438107bec7868943d87a84ba03212ac119b102b1',
      58969737000001,
    ],
    [
      '0:39b1a920cd03f7ef701c80527de2ade5a0aa077392f41e62079d4a54b59606a2',
      58969743000011,
      '0:6850c5ff38020184f7bfd667864c99d4e18ded1a19d692b33262f2a8afdc0fc5',
      58969721000001,
    ],
    [
      '0:010433a2f450726099588bb155c56b9d058d3cfc64868e05bca84a95b91814a9',
      58969743000006,
      '0:6850c5ff38020184f7bfd667864c99d4e18ded1a19d692b33262f2a8afdc0fc5',
      58969721000001,
    ],
    [
      '0:06653502ddafd029af877a6ce0aa35cc4f5ff2c0b8914751c4ce8651ca430359',
      58969743000004,
      '0:76db58f0da229ddcfc4ca3239a492f48617b1b7b5c49e831d5d94c41c4dfaa26',
      58969739000001,
    ],
  ],
};

describe.skipIf(!hasVectors)('MsgEnvelope on real blocks', () => {
  it.each(Object.keys(TONGO_METADATA))('%s: msg_envelope_v2 metadata is what tongo asserts', (file) => {
    const block = blockOf(file);
    const got: Array<[string, number, string, number]> = [];
    for (const { value } of block.extra.inMsgDescr.entries) {
      const env = inEnvelope(value);
      if (env?.kind !== 'msg_envelope_v2' || env.metadata === null) continue;
      const msg = loadMessage(env.msg.beginParse());
      if (msg.info.type === 'external-in') continue;
      got.push([
        msg.info.src.toRawString(),
        Number(msg.info.createdLt),
        env.metadata.initiatorAddr.toRawString(),
        Number(env.metadata.initiatorLt),
      ]);
    }
    const key = (r: [string, number, string, number]) => `${r[0]}/${r[1]}`;
    const sort = (rows: Array<[string, number, string, number]>) =>
      [...rows].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    expect(sort(got)).toEqual(sort(TONGO_METADATA[file]!));
  });

  const blockFiles = loadVectors<{ boc_base64: string }>('blocks').map((v) => v.file);

  it('checks the descr keys of every block the README lists', () => {
    const listed = readmeFiles('blocks');
    expect(listed.length).toBe(12);
    expect(blockFiles.map((f) => `blocks/${f}`)).toEqual(listed);
  });

  it.each(blockFiles)('%s: descr keys are the hashes of the messages they carry', (file) => {
    const block = blockOf(file);
    for (const { key, value } of block.extra.inMsgDescr.entries) {
      const msg = 'msg' in value ? value.msg : value.inMsg.msg;
      expect(msg.hash().toString('hex')).toBe(key.toString(16).padStart(64, '0'));
    }
    for (const { key, value } of block.extra.outMsgDescr.entries) {
      const v: OutMsg = value;
      if (v.kind === 'msg_export_deq_short') continue; // carries only the envelope hash
      const msg = v.kind === 'msg_export_ext' ? v.msg : v.outMsg.msg;
      expect(msg.hash().toString('hex')).toBe(key.toString(16).padStart(64, '0'));
    }
  });
});

describe('MsgEnvelope layouts', () => {
  const msg = beginCell().storeUint(7, 8).endCell();
  it('msg_envelope_v2 with emitted_lt and metadata, written by hand from block.tlb:187-192', () => {
    const initiator = Address.parseRaw(`-1:${'33'.repeat(32)}`);
    const v: MsgEnvelope = {
      kind: 'msg_envelope_v2',
      curAddr: { kind: 'interm_addr_regular', useDestBits: 0 },
      nextAddr: { kind: 'interm_addr_regular', useDestBits: 0 },
      fwdFeeRemaining: 100n,
      msg,
      emittedLt: 5n,
      metadata: { depth: 3, initiatorAddr: initiator, initiatorLt: 9n },
    };
    const hand = beginCell()
      .storeUint(0x5, 4)
      .storeUint(0, 8)
      .storeUint(0, 8)
      .storeCoins(100n)
      .storeRef(msg)
      .storeBit(true)
      .storeUint(5n, 64)
      .storeBit(true)
      .storeUint(0, 4)
      .storeUint(3, 32)
      .storeAddress(initiator)
      .storeUint(9n, 64)
      .endCell();
    expect(beginCell().store(storeMsgEnvelope(v)).endCell().equals(hand)).toBe(true);
    const back = loadMsgEnvelope(hand.beginParse());
    expect(back.kind).toBe('msg_envelope_v2');
    if (back.kind !== 'msg_envelope_v2') return;
    expect(back.metadata?.initiatorAddr.equals(initiator)).toBe(true);
    expect(back.metadata?.depth).toBe(3);
    expect(back.emittedLt).toBe(5n);
  });

  it('rejects use_dest_bits above 96 and a wrong metadata tag', () => {
    const bad = beginCell().storeUint(0x4, 4).storeUint(97, 8).storeUint(0, 8).storeCoins(0).storeRef(msg).endCell();
    expect(() => loadMsgEnvelope(bad.beginParse())).toThrow(
      'IntermediateAddress: expected use_dest_bits <= 96, got 97',
    );
    const badMeta = beginCell()
      .storeUint(0x5, 4)
      .storeUint(0, 16)
      .storeCoins(0)
      .storeRef(msg)
      .storeBit(false)
      .storeBit(true)
      .storeUint(1, 4)
      .endCell();
    expect(() => loadMsgEnvelope(badMeta.beginParse())).toThrow(CodecError);
    expect(() => loadMsgEnvelope(badMeta.beginParse())).toThrow('MsgMetadata: expected tag 0x0, got 0x1');
  });
});
