// transactions/*.json: every vector transaction gives equal TransactionInputs from its view and from its stored
// rows (built by the pipeline's toTransactionRows), and the events its inbound message implies, judged by the
// vector's own decode (verification.decoded: type, opcode, bounced, aborted) and by the other transactions of the
// same chains (the wallet's reply messages, the receiver's notification).
import { Address, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../../../test/helpers/vectors.ts';
import type { BlockIdExt } from '../../../../ton/index.ts';
import { parseKnownBody } from '../../../../ton/index.ts';
import { eventsOf } from './events-of.ts';
import { type BothInputs, bothInputs, outWithOp, plain, plainEvents, raw, rawHead } from './vectors.test-util.ts';

interface TxVector {
  ids: { account: string; tx_hash_hex: string; lt: string; now: number };
  expected: { in_block?: { workchain: number; shard: string; seqno: number; root_hash: string } };
  boc_base64: string;
  tags: string[];
  verification: {
    contract_guess?: string;
    decoded: {
      aborted: boolean;
      inMsg: null | { type: string; src?: string; opcode: string | null; bounced?: boolean };
      outMsgs: Array<{ type: string; dest?: string; opcode: string | null; bodyHash?: string }>;
    };
  };
}

const vectors = loadVectors<TxVector>('transactions');
const MC_SEQNO = 1234;

function inputsOf(v: TxVector): BothInputs {
  const wc = Number(v.ids.account.split(':')[0]);
  const b = v.expected.in_block;
  const id: BlockIdExt = {
    workchain: b?.workchain ?? wc,
    shard: BigInt(`0x${b?.shard ?? '8000000000000000'}`),
    seqno: b?.seqno ?? 1,
    rootHash: Buffer.from(b?.root_hash ?? '00'.repeat(32), 'hex'),
    fileHash: Buffer.alloc(32),
  };
  return bothInputs(Cell.fromBase64(v.boc_base64), id, MC_SEQNO, 12);
}

const inputs = new Map(vectors.map((v) => [v.file.replace(/\.json$/, ''), inputsOf(v.data)]));
const tx = (name: string) => {
  const t = inputs.get(name);
  if (!t) throw new Error(`missing vector transactions/${name}.json`);
  return t.fromView;
};

/** The event kind an inbound message implies, from the vector's own decode. */
const KIND_BY_OPCODE: Record<string, string> = {
  '0x0f8a7ea5': 'jetton_transfer',
  '0x595f07bc': 'jetton_burn',
  '0x178d4519': 'jetton_mint',
  '0x5fcc3d14': 'nft_transfer',
};

describe.skipIf(!hasVectors)('transactions/*.json: inputs and events', () => {
  it('has the vectors', () => expect(vectors.length).toBeGreaterThanOrEqual(40));

  it.each(vectors.map((v) => [v.file, v.data] as const))('%s: view and rows give equal inputs', (file, v) => {
    const { fromView, fromRows } = inputsOf(v);
    expect(plain(fromRows)).toEqual(plain(fromView));
    expect(fromView.hash.toString('hex')).toBe(v.ids.tx_hash_hex);
    expect(fromView.account.equals(Address.parseRaw(v.ids.account))).toBe(true);
    expect(fromView.aborted).toBe(v.verification.decoded.aborted);
    expect(fromView.outMsgs.map((m) => m.opcode)).toHaveLength(v.verification.decoded.outMsgs.length);
    expect(plainEvents(eventsOf(fromRows)), file).toEqual(plainEvents(eventsOf(fromView)));
  });

  it.each(vectors.map((v) => [v.file, v.data] as const))('%s: the events its inbound message implies', (file, v) => {
    const t = inputs.get(file.replace(/\.json$/, ''))!.fromView;
    const m = v.verification.decoded.inMsg;
    const kind = m?.type === 'internal' && !m.bounced && m.opcode ? KIND_BY_OPCODE[m.opcode] : undefined;
    const events = eventsOf(t);
    expect(events.map((e) => e.kind)).toEqual(kind ? [kind] : []);
    for (const e of events) {
      expect(e.account.equals(t.account)).toBe(true);
      expect(e.tx).toEqual({
        hash: t.hash,
        lt: t.lt,
        now: v.ids.now,
        mcSeqno: MC_SEQNO,
        aborted: v.verification.decoded.aborted,
      });
    }
  });

  it('USDT transfer: the amounts, the sender and the receiver agree with the chain that followed', () => {
    const send = tx('jetton_transfer_usdt_c3cb5b8c');
    const [e] = eventsOf(send);
    if (e?.kind !== 'jetton_transfer') throw new Error(`expected a jetton_transfer, got ${e?.kind}`);
    expect(raw(e.source)).toBe(raw(send.inMsg?.source));
    // what the sender's wallet sent on: internal_transfer with the same query_id and amount, from = the sender
    const it = outWithOp(send, 0x178d4519);
    const head = rawHead(it?.body ?? null, 2);
    expect([head.queryId, head.amount, head.addrs[0]]).toEqual([e.queryId, e.amount, raw(e.source)]);
    // the receiving wallet's transaction (another vector) got that message and notified the receiver
    const recv = tx('jetton_internal_transfer_usdt_ee39de3c');
    expect(recv.inMsg?.hash.equals(it!.hash)).toBe(true);
    const note = outWithOp(recv, 0x7362d09c);
    const nh = rawHead(note?.body ?? null, 1);
    expect([nh.queryId, nh.amount, nh.addrs[0]]).toEqual([e.queryId, e.amount, raw(e.source)]);
    expect(raw(note?.destination)).toBe(raw(e.destination));
    const excess = outWithOp(recv, 0xd53276db);
    expect(raw(excess?.destination)).toBe(raw(e.responseDestination));
    expect(e.forwardTonAmount).toBe(note?.value);
  });

  it('burn: the burn_notification the wallet sent names the same owner, amount and response', () => {
    const t = tx('jetton_burn_2300d2f7');
    const [e] = eventsOf(t);
    if (e?.kind !== 'jetton_burn') throw new Error(`expected a jetton_burn, got ${e?.kind}`);
    const n = outWithOp(t, 0x7bdd97de);
    const h = rawHead(n?.body ?? null, 2);
    expect([h.queryId, h.amount, h.addrs[0], h.addrs[1]]).toEqual([
      e.queryId,
      e.amount,
      raw(e.owner),
      raw(e.responseDestination),
    ]);
    // and the master's transaction (another vector) received that notification
    expect(tx('jetton_burn_notification_a526406f').inMsg?.hash.equals(n!.hash)).toBe(true);
  });

  it('mint: the internal_transfer a minter sent is a candidate naming that minter', () => {
    const minter = tx('jetton_minter_mint_163c4c2b');
    const recv = tx('jetton_mint_internal_transfer_67efb943');
    const sent = outWithOp(minter, 0x178d4519);
    expect(recv.inMsg?.hash.equals(sent!.hash)).toBe(true);
    const [e] = eventsOf(recv);
    if (e?.kind !== 'jetton_mint') throw new Error(`expected a jetton_mint, got ${e?.kind}`);
    expect(raw(e.minter)).toBe(raw(minter.account));
    // the same minter is the master the burn chain notified: a jetton master, not a wallet
    expect(raw(minter.account)).toBe(raw(tx('jetton_burn_notification_a526406f').account));
    const h = rawHead(sent?.body ?? null, 1);
    expect([h.queryId, h.amount, h.addrs[0]]).toEqual([e.queryId, e.amount, raw(e.from)]);
  });

  it('NFT transfer: ownership_assigned names the old owner and goes to the new one; the aborted one is kept', () => {
    const t = tx('nft_transfer_c711c8f4');
    const [e] = eventsOf(t);
    if (e?.kind !== 'nft_transfer') throw new Error(`expected an nft_transfer, got ${e?.kind}`);
    expect(raw(e.oldOwner)).toBe(raw(t.inMsg?.source));
    const oa = outWithOp(t, 0x05138d91);
    const h = rawHead(oa?.body ?? null, 1);
    expect([h.queryId, h.addrs[0]]).toEqual([e.queryId, raw(e.oldOwner)]);
    expect(raw(oa?.destination)).toBe(raw(e.newOwner));
    expect(tx('nft_ownership_assigned_33066dfe').inMsg?.hash.equals(oa!.hash)).toBe(true);

    const failed = tx('nft_transfer_failed_bounce_a252965d');
    const [f] = eventsOf(failed);
    expect(f?.kind).toBe('nft_transfer');
    expect(f?.tx.aborted).toBe(true);
    expect(eventsOf(tx('bounced_receive_c344e31c'))).toEqual([]);
  });

  it('signed wallet externals decode to the messages the wallet then sent', () => {
    const cases: Array<[string, string]> = [
      ['highload_v3_jetton_send_803ef840', 'highload_v3_signed_request'],
      ['wallet_v4r2_transfer_cc96f49e', 'wallet_v4_signed_request'],
      ['wallet_v5r1_burn_request_f87f2de8', 'w5_external_signed_request'],
      ['wallet_v5r1_transfer_a4bbd904', 'w5_external_signed_request'],
      ['tx_42a5ec93_wallet_v3r2_deploy', 'wallet_v3_signed_request'],
    ];
    for (const [name, type] of cases) {
      const t = tx(name);
      const p = parseKnownBody(t.inMsg!.body!, { direction: 'external' });
      expect(p?.type, name).toBe(type);
      const sent =
        p?.type === 'highload_v3_signed_request'
          ? [p.messageToSend]
          : p?.type === 'wallet_v4_signed_request' && p.action.op === 0
            ? p.action.messages.map((m) => m.message)
            : p?.type === 'wallet_v3_signed_request'
              ? p.messages.map((m) => m.message)
              : p?.type === 'w5_external_signed_request'
                ? (p.actions ?? []).flatMap((a) => (a.type === 'sendMsg' ? [a.outMsg] : []))
                : [];
      const dests = sent.map((m) => (m.info.type === 'internal' ? m.info.dest.toRawString() : null));
      expect(dests, name).toEqual(t.outMsgs.map((m) => raw(m.destination)));
      expect(
        sent.map((m) => m.body.hash().toString('hex')),
        name,
      ).toEqual(t.outMsgs.map((m) => m.body!.hash().toString('hex')));
    }
  });
});
