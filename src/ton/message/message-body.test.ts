import { Address, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../test/helpers/vectors.ts';
import { bodyOpcode, formatOpcode, msgDataV2, textComment, textCommentBytes } from './comment.ts';
import {
  loadMessageRelaxedExact,
  type MessageRelaxed,
  messageRelaxedFromCell,
  storeMessageRelaxedExact,
} from './message.ts';
import { msgAddressToAddress } from './msg-address.ts';
import { cellFromBase64 } from './test-helpers.ts';

interface BodyVector {
  description: string;
  expected: Record<string, unknown>;
  boc_base64: string;
  verification: { cell_hash: string; decoded: { opcode?: string } };
}

const vectors = loadVectors<BodyVector>('messages');
const byName = (name: string) => {
  const v = vectors.find((x) => x.file === `${name}.json`);
  if (!v) throw new Error(`missing vector ${name}`);
  return { v: v.data, body: cellFromBase64(v.data.boc_base64) };
};

function relaxedRoundTrip(cell: Cell): MessageRelaxed {
  const m = messageRelaxedFromCell(cell);
  expect(beginCell().store(storeMessageRelaxedExact(m)).endCell().equals(cell)).toBe(true);
  return m;
}

describe.skipIf(!hasVectors)('messages/*.json: message bodies', () => {
  it('has the vectors', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(20);
  });

  it.each(vectors.map((v) => [v.file, v.data] as const))(
    '%s: opcode as its source and description give it',
    (_f, v) => {
      const body = cellFromBase64(v.boc_base64);
      expect(body.hash().toString('hex')).toBe(v.verification.cell_hash);
      const op = bodyOpcode(body);
      const want = v.verification.decoded.opcode;
      if (want === undefined) return; // wallet bodies start with a signature, not an opcode
      expect(op).not.toBeNull();
      expect(formatOpcode(op!)).toBe(want);
      // The opcode stored the toncenter way: a signed 32-bit integer.
      expect(op).toBe(Number.parseInt(want, 16) | 0);
      const inText = v.description.match(/0x[0-9a-f]{8}/)?.[0];
      if (inText) expect(formatOpcode(op!)).toBe(inText);
    },
  );

  it('decodes the text comment tongo asserts', () => {
    const { v, body } = byName('text_comment');
    expect(bodyOpcode(body)).toBe(0);
    expect(textComment(body)).toBe(v.expected.text);
    const data = msgDataV2(body, null);
    expect(data).toEqual({ type: 'msg.dataText', text: Buffer.from(v.expected.text as string, 'utf8') });
  });

  it('decodes the text comments in forward payloads (in a ref) that tongo asserts', () => {
    for (const name of [
      'jetton_transfer_text_forward',
      'jetton_transfer_custom_payload',
      'jetton_transfer_notification',
      'jetton_internal_transfer',
    ]) {
      const { v, body } = byName(name);
      const fp = v.expected.forward_payload as { in_ref: boolean; text_comment: string };
      expect(fp.in_ref, name).toBe(true);
      // forward_payload:(Either Cell ^Cell) is the last field, so its ref is the body's last ref.
      const payload = body.refs[body.refs.length - 1]!;
      expect(textComment(payload), name).toBe(fp.text_comment);
    }
  });

  it('returns null for bodies that are not comments', () => {
    const { body } = byName('excesses');
    expect(textComment(body)).toBeNull();
    expect(textCommentBytes(body)).toBeNull();
    expect(msgDataV2(body, null)).toEqual({ type: 'msg.dataRaw', body, initState: null });
  });

  it('wallet v4 body: the out message tongo asserts (MessageRelaxed in a ref)', () => {
    const { v, body } = byName('wallet_v4_signed_body');
    const want = (v.expected.messages as Array<Record<string, unknown>>)[0]!;
    // signature:bits512 subwallet_id:uint32 valid_until:uint32 seqno:uint32 op:uint8, then mode:uint8 ^msg
    const s = body.beginParse();
    s.skip(512 + 32 + 32 + 32);
    expect(s.loadUint(8)).toBe(v.expected.op);
    expect(s.loadUint(8)).toBe(want.mode);
    const m = relaxedRoundTrip(s.loadRef());
    if (m.info.kind !== 'int_msg_info') throw new Error('expected an internal message');
    expect(msgAddressToAddress(m.info.dest)!.equals(Address.parse(want.dest as string))).toBe(true);
    expect(m.info.src).toEqual({ kind: 'addr_none' });
    expect(m.info.bounce).toBe(want.bounce);
    expect(m.info.ihrDisabled).toBe(want.ihr_disabled);
    expect(m.info.value.coins).toBe(BigInt(want.value as string));
    expect(m.init).toBeNull();
    expect(m.bodyInRef).toBe(false);
    expect(textComment(m.body)).toBe(want.body_text_comment);
  });

  it('wallet v3 body: an external-out MessageRelaxed with mode 160', () => {
    const { v, body } = byName('wallet_v3_signed_body');
    const want = (v.expected.messages as Array<Record<string, unknown>>)[0]!;
    const s = body.beginParse();
    s.skip(512);
    expect(s.loadUint(32)).toBe(v.expected.subwallet_id);
    expect(s.loadUint(32)).toBe(v.expected.valid_until);
    expect(s.loadUint(32)).toBe(v.expected.seqno);
    expect(s.loadUint(8)).toBe(want.mode);
    const m = relaxedRoundTrip(s.loadRef());
    expect(m.info.kind).toBe('ext_out_msg_info');
  });

  it('wallet v5r1 body: both send_msg actions carry MessageRelaxed cells', () => {
    const { v, body } = byName('wallet_v5r1_signed_body');
    const actions = v.expected.actions as Array<{ magic: string; mode: number }>;
    // out_list_node$_ prev:^Cell action:OutAction; action_send_msg#0ec3c86d mode:(## 8) out_msg:^(MessageRelaxed Any)
    const found: Array<{ mode: number; msg: MessageRelaxed }> = [];
    let node: Cell | undefined = body.refs[0];
    while (node && node.bits.length > 0) {
      const s = node.beginParse();
      expect(formatOpcode(s.loadUint(32))).toBe(actions[0]!.magic);
      const mode = s.loadUint(8);
      const prev = s.loadRef();
      found.push({ mode, msg: relaxedRoundTrip(s.loadRef()) });
      node = prev;
    }
    expect(found.map((f) => f.mode)).toEqual(actions.map((a) => a.mode));
    for (const f of found) expect(f.msg.info.kind).toBe('int_msg_info');
  });

  it('loadMessageRelaxedExact reads from a slice and keeps the cell', () => {
    const { body } = byName('wallet_v4_signed_body');
    const ref = body.refs[0]!;
    const m = loadMessageRelaxedExact(ref.beginParse());
    expect(m.raw?.equals(ref)).toBe(true);
  });
});
