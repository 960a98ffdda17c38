// Body parsers against the real message vectors (expected values are the ones each vector's source asserts),
// against bodies built here with @ton/core's Builder straight from contracts.md's TL-B (multisig, vesting and
// the edge cases no vector covers), and against hostile input (truncations, random cells, exotic cells).
import { Address, type Builder, beginCell, Cell, Dictionary, internal, storeMessageRelaxed } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../../../test/helpers/vectors.ts';
import {
  airdropClaimOf,
  airdropItemOf,
  JETTON_OP,
  type JettonMint,
  type JettonTransfer,
  type KnownBody,
  knownOpcodeName,
  loadJettonBurn,
  loadJettonInternalTransfer,
  loadJettonTransfer,
  loadMultisigOrder,
  MULTISIG_OP,
  parseKnownBody,
  payloadCell,
  readBody,
  VESTING_OP,
} from '../../../../ton/index.ts';
import { eventsOf } from './events-of.ts';

interface BodyVector {
  expected: Record<string, unknown>;
  boc_base64: string;
  verification: { decoded: Record<string, unknown> };
}

const vectors = loadVectors<BodyVector>('messages');
const vector = (name: string) => {
  const v = vectors.find((x) => x.file === `${name}.json`);
  if (!v) throw new Error(`missing vector messages/${name}.json`);
  // biome-ignore lint/suspicious/noExplicitAny: vector JSON, its shape differs per file; read field by field below
  const e = v.data.expected as Record<string, any>;
  return { e, v: v.data, body: Cell.fromBase64(v.data.boc_base64) };
};

/** The parse of `body`, asserting its type: the fields of that variant. */
function parsed<T extends KnownBody['type']>(body: Cell, type: T, direction?: 'internal' | 'external') {
  const p = parseKnownBody(body, direction ? { direction } : {});
  expect(p?.type).toBe(type);
  return p as Extract<KnownBody, { type: T }>;
}

const addr = (text: string) => Address.parse(text);
const comment = (c: Cell | null) => {
  const p = c ? parseKnownBody(c) : null;
  return p?.type === 'text_comment' ? p.text : undefined;
};

describe.skipIf(!hasVectors)(
  'messages/*.json: jetton, NFT, DNS and wallet bodies decode to what their sources assert',
  () => {
    it('has the vectors', () => expect(vectors.length).toBeGreaterThanOrEqual(20));

    it('jetton transfer with a text forward payload in a ref (tongo)', () => {
      const { e, body } = vector('jetton_transfer_text_forward');
      const t = parsed(body, 'jetton_transfer');
      expect(t.queryId.toString()).toBe(e.query_id);
      expect(t.amount.toString()).toBe(e.amount);
      expect(t.destination?.equals(addr(e.destination))).toBe(true);
      expect(t.responseDestination?.equals(addr(e.response_destination))).toBe(true);
      expect(t.customPayload).toBeNull();
      expect(t.forwardTonAmount.toString()).toBe(e.forward_ton_amount);
      expect(t.forwardPayload.inRef).toBe(e.forward_payload.in_ref);
      expect(comment(payloadCell(t.forwardPayload))).toBe(e.forward_payload.text_comment);
    });

    it('jetton transfer with a custom payload (tongo)', () => {
      const { e, body } = vector('jetton_transfer_custom_payload');
      const t = parsed(body, 'jetton_transfer');
      expect(t.queryId.toString()).toBe(e.query_id);
      expect(t.amount.toString()).toBe(e.amount);
      expect(t.destination?.equals(addr(e.destination))).toBe(true);
      expect(t.responseDestination?.equals(addr(e.response_destination))).toBe(true);
      expect(t.customPayload?.hash().toString('hex')).toBe(e.custom_payload_cell_hash);
      expect(t.forwardTonAmount.toString()).toBe(e.forward_ton_amount);
      expect(t.forwardPayload.inRef).toBe(true);
      expect(comment(t.forwardPayload.cell)).toBe(e.forward_payload.text_comment);
    });

    it('jetton internal_transfer (tongo): an empty text comment in a ref', () => {
      const { e, body } = vector('jetton_internal_transfer');
      const t = parsed(body, 'jetton_internal_transfer');
      expect(t.queryId.toString()).toBe(e.query_id);
      expect(t.amount.toString()).toBe(e.amount);
      expect(t.from?.equals(addr(e.from))).toBe(true);
      expect(t.responseAddress?.equals(addr(e.response_address))).toBe(true);
      expect(t.forwardTonAmount.toString()).toBe(e.forward_ton_amount);
      expect(t.forwardPayload.inRef).toBe(true);
      expect(comment(t.forwardPayload.cell)).toBe(e.forward_payload.text_comment);
    });

    it('jetton transfer_notification (tongo)', () => {
      const { e, body } = vector('jetton_transfer_notification');
      const t = parsed(body, 'jetton_notify');
      expect(t.queryId.toString()).toBe(e.query_id);
      expect(t.amount.toString()).toBe(e.amount);
      expect(t.sender?.equals(addr(e.sender))).toBe(true);
      expect(t.forwardPayload.inRef).toBe(true);
      expect(comment(t.forwardPayload.cell)).toBe(e.forward_payload.text_comment);
    });

    it('jetton burn that ends before the custom_payload bit (anton issue #13)', () => {
      const { e, body } = vector('jetton_burn_anton');
      const b = parsed(body, 'jetton_burn');
      expect(b.queryId.toString()).toBe(e.query_id);
      expect(b.amount.toString()).toBe(e.amount);
      expect(b.responseDestination?.equals(addr(e.response_destination))).toBe(true);
      expect(b.customPayload).toBeNull();
    });

    it('jetton burn with a custom payload (tongo)', () => {
      const { e, v, body } = vector('jetton_burn_custom_payload');
      const b = parsed(body, 'jetton_burn');
      expect(b.queryId.toString()).toBe(e.query_id);
      expect(b.amount.toString()).toBe(e.amount);
      expect(b.responseDestination?.equals(addr(e.response_destination))).toBe(true);
      // present, as the source asserts; its hash as the vector's own reader recorded it
      expect(b.customPayload?.hash().toString('hex')).toBe(v.verification.decoded.custom_payload);
    });

    it('jetton burn_notification with addr_none response destination (tongo)', () => {
      const { e, body } = vector('jetton_burn_notification');
      const b = parsed(body, 'jetton_burn_notification');
      expect(b.queryId.toString()).toBe(e.query_id);
      expect(b.amount.toString()).toBe(e.amount);
      expect(b.sender?.equals(addr(e.sender))).toBe(true);
      expect(e.response_destination).toBe('addr_none');
      expect(b.responseDestination).toBeNull();
    });

    it('v1 minter mint (op 21) carrying an internal_transfer (anton)', () => {
      const { e, body } = vector('jetton_mint_op21');
      const m = parsed(body, 'minter_jetton_mint') as JettonMint & { type: string };
      expect(m.queryId.toString()).toBe(e.query_id);
      expect(m.toAddress?.equals(addr(e.to_address))).toBe(true);
      expect(m.tonAmount.toString()).toBe(e.amount);
      expect(m.masterMsg.beginParse().loadUint(32)).toBe(e.master_msg.op_code);
      expect(m.masterMsgParsed?.queryId.toString()).toBe(e.master_msg.query_id);
      expect(m.masterMsgParsed?.amount.toString()).toBe(e.master_msg.jetton_amount);
    });

    it('excesses (tongo: "decodes as Excess")', () => {
      parsed(vector('excesses').body, 'excess');
    });

    it('NFT transfer and ownership_assigned (tongo: decode as NftTransfer / NftOwnershipAssigned)', () => {
      parsed(vector('nft_transfer').body, 'nft_transfer');
      parsed(vector('nft_ownership_assigned').body, 'nft_ownership_assigned');
    });

    it('NFT collection deploy_item (anton)', () => {
      const { e, body } = vector('nft_collection_mint_item');
      const d = parsed(body, 'nft_deploy_item');
      expect(d.queryId.toString()).toBe(e.query_id);
      expect(d.itemIndex).toBe(BigInt(e.index));
      expect(d.amount.toString()).toBe(e.ton_amount);
      expect(d.content.owner?.equals(addr(e.content.owner))).toBe(true);
      expect(d.content.individualContent.equals(Cell.fromBase64(e.content.content_boc))).toBe(true);
      expect(d.content.individualContent.beginParse().loadBuffer(12).toString()).toBe(e.content.content_text);
    });

    it('NFT collection batch deploy (anton) and change_owner (anton)', () => {
      const batch = vector('nft_collection_batch_mint');
      const b = parsed(batch.body, 'nft_batch_deploy');
      expect(b.queryId.toString()).toBe(batch.e.query_id);
      expect(b.deployList.length).toBeGreaterThan(0);
      const ch = vector('nft_collection_change_owner');
      const c = parsed(ch.body, 'change_owner');
      expect(c.queryId.toString()).toBe(ch.e.query_id);
      expect(c.newOwner?.equals(addr(ch.e.new_owner))).toBe(true);
    });

    it('DNS change_dns_record setting "wallet", and a delete (tongo)', () => {
      const set = vector('dns_change_record_wallet');
      const s = parsed(set.body, 'change_dns_record');
      expect(s.queryId.toString()).toBe(set.e.query_id);
      expect(s.key.toString(16).padStart(64, '0')).toBe(set.e.key);
      expect(set.e.value.type).toBe('DNSSmcAddress');
      expect(s.record?.kind).toBe('dns_smc_address');
      if (s.record?.kind !== 'dns_smc_address') throw new Error('unreachable');
      expect(s.record.smcAddr.equals(addr(set.e.value.address))).toBe(true);
      expect(set.e.value.smc_capabilities).toBe('empty');
      expect(s.record.capabilities).toEqual([]);
      const del = vector('dns_delete_record');
      const d = parsed(del.body, 'delete_dns_record');
      expect(d.queryId.toString()).toBe(del.e.query_id);
      expect(d.key.toString(16).padStart(64, '0')).toBe(del.e.key);
      expect(del.e.value).toBeNull();
      expect(d.value).toBeNull();
    });

    it('text comment (tongo)', () => {
      const { e, body } = vector('text_comment');
      expect(parsed(body, 'text_comment').text).toBe(e.text);
    });

    it('wallet v3 signed external with an ext-out message (tongo)', () => {
      const { e, body } = vector('wallet_v3_signed_body');
      for (const direction of ['external', undefined] as const) {
        const w = parsed(body, 'wallet_v3_signed_request', direction);
        expect(w.signature.toString('hex')).toBe(e.signature);
        expect(w.subwalletId).toBe(e.subwallet_id);
        expect(w.validUntil).toBe(e.valid_until);
        expect(w.seqno).toBe(e.seqno);
        expect(w.messages.map((m) => ({ mode: m.mode, type: m.message.info.type }))).toEqual(
          e.messages.map((m: { mode: number; type: string }) => ({
            mode: m.mode,
            type: m.type === 'ext_out' ? 'external-out' : m.type,
          })),
        );
      }
    });

    it('wallet v4 signed external: simple send of one commented message (tongo)', () => {
      const { e, body } = vector('wallet_v4_signed_body');
      const w = parsed(body, 'wallet_v4_signed_request', 'external');
      expect(w.signature.toString('hex')).toBe(e.signature);
      expect(w.subwalletId).toBe(e.subwallet_id);
      expect(w.validUntil).toBe(e.valid_until);
      expect(w.seqno).toBe(e.seqno);
      expect(w.action.op).toBe(e.op);
      if (w.action.op !== 0) throw new Error('unreachable');
      expect(w.action.messages).toHaveLength(e.messages.length);
      const [want] = e.messages;
      const [got] = w.action.messages;
      expect(got?.mode).toBe(want.mode);
      const info = got?.message.info;
      if (info?.type !== 'internal') throw new Error(`expected an internal message, got ${info?.type}`);
      expect(info.dest.equals(addr(want.dest))).toBe(true);
      expect(info.bounce).toBe(want.bounce);
      expect(info.ihrDisabled).toBe(want.ihr_disabled);
      expect(info.value.coins.toString()).toBe(want.value);
      expect(comment(got?.message.body ?? null)).toBe(want.body_text_comment);
    });

    it('wallet v5r1 signed external with two send actions (tongo)', () => {
      const { e, body } = vector('wallet_v5r1_signed_body');
      for (const direction of ['external', 'internal', undefined] as const) {
        const w = parsed(body, 'w5_external_signed_request', direction);
        expect(w.walletId).toBe(e.wallet_id);
        expect(w.validUntil).toBe(e.valid_until);
        expect(w.seqno).toBe(e.seqno);
        expect(w.signature.toString('hex')).toBe(e.signature);
        expect(w.extended).toBe(e.extended);
        expect(w.actions?.map((a) => ({ magic: '0x0ec3c86d', mode: a.type === 'sendMsg' ? a.mode : -1 }))).toEqual(
          e.actions,
        );
      }
    });
  },
);

// Builders for bodies no vector has, written from contracts.md's TL-B (not from the parsers).
const A = Address.parseRaw(`0:${'11'.repeat(32)}`);
const B = Address.parseRaw(`0:${'22'.repeat(32)}`);
const M = Address.parseRaw(`-1:${'33'.repeat(32)}`);
const relaxed = (to: Address, value: bigint, body: Cell) =>
  beginCell()
    .store(storeMessageRelaxed(internal({ to, value, bounce: true, body })))
    .endCell();
const addressDict = (list: Address[]) => {
  const d = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
  for (const [i, a] of list.entries()) d.set(i, a);
  return d;
};

describe('opcode names', () => {
  it("are ton-marker's names (v3-api.md Appendix A) where it has one", () => {
    const appendix: Array<[number, string]> = [
      [0x0f8a7ea5, 'jetton_transfer'],
      [0x178d4519, 'jetton_internal_transfer'],
      [0x7362d09c, 'jetton_notify'],
      [0x595f07bc, 'jetton_burn'],
      [0x7bdd97de, 'jetton_burn_notification'],
      [0x00000015, 'minter_jetton_mint'],
      [0x642b7d07, 'jetton_mint'],
      [0xd53276db, 'excess'],
      [0x5fcc3d14, 'nft_transfer'],
      [0x05138d91, 'nft_ownership_assigned'],
      [0x4eb1f0f9, 'change_dns_record'],
      [0xf718510f, 'mulisig_new_order'],
      [0xa762230f, 'multisig_approve'],
      [0x9c73fba2, 'multisig_order_init'],
      [0xa7733acd, 'vesting_send_message'],
      [0x7258a69b, 'vesting_add_white_list'],
      [0x2167da4b, 'encrypted_text_comment'],
      [0x7369676e, 'w5_external_signed_request'],
      [0xae42e5a4, 'highload_v3_internal_request'],
    ];
    expect(appendix.map(([op]) => [op, knownOpcodeName(op)])).toEqual(appendix);
    expect(knownOpcodeName(0x12345678)).toBeNull();
  });
});

describe('bodies built from contracts.md layouts', () => {
  it('transfer: addr_none destinations, inline forward payload, and one that ends before the Either bit', () => {
    const base = () =>
      beginCell()
        .storeUint(JETTON_OP.transfer, 32)
        .storeUint(7, 64)
        .storeCoins(1000n)
        .storeAddress(null)
        .storeAddress(null)
        .storeMaybeRef(null)
        .storeCoins(5n);
    const inline = base().storeBit(false).storeUint(0, 32).storeStringTail('hi').endCell();
    const t = readBody(inline, JETTON_OP.transfer, loadJettonTransfer) as JettonTransfer;
    expect(t).toMatchObject({ queryId: 7n, amount: 1000n, destination: null, responseDestination: null });
    expect(t.forwardPayload.inRef).toBe(false);
    expect(comment(payloadCell(t.forwardPayload))).toBe('hi');
    const cut = readBody(base().endCell(), JETTON_OP.transfer, loadJettonTransfer);
    expect(cut?.forwardTonAmount).toBe(5n);
    expect(cut && payloadCell(cut.forwardPayload)).toBeNull();
    const emptyInline = readBody(base().storeBit(false).endCell(), JETTON_OP.transfer, loadJettonTransfer);
    expect(emptyInline && payloadCell(emptyInline.forwardPayload)).toBeNull();
    // a body cut before forward_ton_amount is not a transfer
    const short = beginCell().storeUint(JETTON_OP.transfer, 32).storeUint(7, 64).storeCoins(1n).storeAddress(A);
    expect(readBody(short.endCell(), JETTON_OP.transfer, loadJettonTransfer)).toBeNull();
  });

  it('anycast destination is folded into the hash; addr_extern is refused', () => {
    const anycast = beginCell()
      .storeUint(JETTON_OP.burn, 32)
      .storeUint(1, 64)
      .storeCoins(2n)
      .storeUint(0b10, 2)
      .storeBit(true)
      .storeUint(4, 5)
      .storeUint(0b1010, 4)
      .storeInt(0, 8)
      .storeBuffer(Buffer.alloc(32, 0xff))
      .endCell();
    const b = readBody(anycast, JETTON_OP.burn, loadJettonBurn);
    expect(b?.responseDestination?.hash.toString('hex')).toBe(`af${'ff'.repeat(31)}`);
    const extern = beginCell()
      .storeUint(JETTON_OP.burn, 32)
      .storeUint(1, 64)
      .storeCoins(2n)
      .storeUint(0b01, 2)
      .storeUint(8, 9)
      .storeUint(0xab, 8)
      .endCell();
    expect(readBody(extern, JETTON_OP.burn, loadJettonBurn)).toBeNull();
  });

  it('multisig new_order, init, approve, execute and the order dictionary (both action kinds)', () => {
    const msg = relaxed(B, 5n, beginCell().storeUint(0, 32).storeStringTail('x').endCell());
    const order = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
    order.set(0, beginCell().storeUint(MULTISIG_OP.sendMessage, 32).storeUint(3, 8).storeRef(msg).endCell());
    order.set(
      1,
      beginCell()
        .storeUint(MULTISIG_OP.updateMultisigParam, 32)
        .storeUint(2, 8)
        .storeRef(
          beginCell()
            .storeDictDirect(addressDict([A, B]))
            .endCell(),
        )
        .storeDict(addressDict([M]))
        .endCell(),
    );
    const orderCell = beginCell().storeDictDirect(order).endCell();
    const newOrder = beginCell()
      .storeUint(MULTISIG_OP.newOrder, 32)
      .storeUint(9, 64)
      .storeUint(2n ** 256n - 1n, 256)
      .storeBit(true)
      .storeUint(1, 8)
      .storeUint(1_900_000_000, 48)
      .storeRef(orderCell)
      .endCell();
    const n = parsed(newOrder, 'mulisig_new_order');
    expect(n).toMatchObject({
      queryId: 9n,
      orderSeqno: 2n ** 256n - 1n,
      signer: true,
      index: 1,
      expirationDate: 1_900_000_000,
    });
    expect(n.order.equals(orderCell)).toBe(true);
    const actions = loadMultisigOrder(orderCell);
    expect(actions?.map((a) => a.index)).toEqual([0, 1]);
    const [send, update] = actions ?? [];
    if (send?.action.kind !== 'send_message' || update?.action.kind !== 'update_multisig_param')
      throw new Error('kinds');
    expect(send.action.mode).toBe(3);
    expect(send.action.message.info.type === 'internal' && send.action.message.info.dest.equals(B)).toBe(true);
    expect(update.action.threshold).toBe(2);
    expect(update.action.signers.map(String)).toEqual([A, B].map(String));
    expect(update.action.proposers.map(String)).toEqual([M].map(String));

    const init = beginCell()
      .storeUint(MULTISIG_OP.init, 32)
      .storeUint(9, 64)
      .storeUint(2, 8)
      .storeRef(
        beginCell()
          .storeDictDirect(addressDict([A, B]))
          .endCell(),
      )
      .storeUint(1_900_000_000, 48)
      .storeRef(orderCell)
      .storeBit(true)
      .storeUint(1, 8)
      .endCell();
    const i = parsed(init, 'multisig_order_init');
    expect(i).toMatchObject({ threshold: 2, expirationDate: 1_900_000_000, approveOnInit: true, signerIndex: 1 });
    expect(i.signers.map(String)).toEqual([A, B].map(String));
    expect(i.actions).toHaveLength(2);

    const approve = beginCell().storeUint(MULTISIG_OP.approve, 32).storeUint(4, 64).storeUint(1, 8).endCell();
    expect(parsed(approve, 'multisig_approve')).toMatchObject({ queryId: 4n, signerIndex: 1 });
    const rejected = beginCell().storeUint(MULTISIG_OP.approveRejected, 32).storeUint(4, 64).storeUint(107, 32);
    expect(parsed(rejected.endCell(), 'multisig_approve_rejected')).toMatchObject({ queryId: 4n, exitCode: 107 });
    const execute = beginCell()
      .storeUint(MULTISIG_OP.execute, 32)
      .storeUint(4, 64)
      .storeUint(12, 256)
      .storeUint(1_900_000_000, 48)
      .storeUint(2, 8)
      .storeBuffer(Buffer.alloc(32, 7))
      .storeRef(orderCell)
      .endCell();
    const x = parsed(execute, 'multisig_execute');
    expect(x).toMatchObject({ orderSeqno: 12n, approvalsNum: 2, signersHash: Buffer.alloc(32, 7) });
    expect(x.actions).toHaveLength(2);
  });

  it('vesting send and add_whitelist with a chain of addresses', () => {
    const msg = relaxed(B, 7n, beginCell().endCell());
    const send = beginCell().storeUint(VESTING_OP.send, 32).storeUint(3, 64).storeUint(3, 8).storeRef(msg).endCell();
    const s = parsed(send, 'vesting_send_message');
    expect(s).toMatchObject({ queryId: 3n, sendMode: 3 });
    expect(s.msg.info.type === 'internal' && s.msg.info.value.coins).toBe(7n);
    const chain = beginCell()
      .storeUint(VESTING_OP.addWhitelist, 32)
      .storeUint(3, 64)
      .storeAddress(A)
      .storeRef(beginCell().storeAddress(B).storeRef(beginCell().storeAddress(M)))
      .endCell();
    expect(parsed(chain, 'vesting_add_white_list').addresses.map(String)).toEqual([A, B, M].map(String));
  });

  it('mintless claim: the airdrop item of the owner the Merkle proof covers, none for others', () => {
    const item = {
      serialize: (v: { amount: bigint; startFrom: number; expiredAt: number }, b: Builder) => {
        b.storeCoins(v.amount).storeUint(v.startFrom, 48).storeUint(v.expiredAt, 48);
      },
      parse: () => {
        throw new Error('unused');
      },
    };
    const airdrop = Dictionary.empty(Dictionary.Keys.Address(), item);
    const owners = Array.from({ length: 40 }, (_, i) =>
      Address.parseRaw(`0:${(i * 7919 + 1).toString(16).padStart(64, '0')}`),
    );
    owners.forEach((o, i) => {
      airdrop.set(o, { amount: 1000n + BigInt(i), startFrom: 1_700_000_000, expiredAt: 1_800_000_000 + i });
    });
    const who = owners[17]!;
    const proof = airdrop.generateMerkleProof([who]);
    const payload = beginCell().storeUint(JETTON_OP.merkleAirdropClaim, 32).storeRef(proof).endCell();
    const claim = airdropClaimOf(payload);
    expect(claim?.proof.equals(proof)).toBe(true);
    expect(airdropItemOf(claim!, who)).toEqual({ amount: 1017n, startFrom: 1_700_000_000, expiredAt: 1_800_000_017 });
    // another owner sits in a pruned branch, or is absent altogether
    expect(airdropItemOf(claim!, owners[3]!)).toBeNull();
    expect(airdropItemOf(claim!, A)).toBeNull();
    // a claim whose "proof" is an ordinary cell is not a claim
    expect(
      airdropClaimOf(beginCell().storeUint(JETTON_OP.merkleAirdropClaim, 32).storeRef(Cell.EMPTY).endCell()),
    ).toBeNull();
  });

  it('shared opcodes: change_content#4 with 2 refs is the NFT one, with 1 ref the jetton one', () => {
    const royalty = beginCell().storeUint(5, 16).storeUint(100, 16).storeAddress(A).endCell();
    const content = beginCell().storeUint(1, 8).endCell();
    const nft = beginCell().storeUint(4, 32).storeUint(0, 64).storeRef(content).storeRef(royalty).endCell();
    expect(parsed(nft, 'nft_change_content').royalty).toMatchObject({ numerator: 5, denominator: 100 });
    const jetton = beginCell().storeUint(4, 32).storeUint(0, 64).storeRef(content).endCell();
    expect(parsed(jetton, 'jetton_change_content').content.equals(content)).toBe(true);
  });
});

describe.skipIf(!hasVectors)('hostile input: parsers and eventsOf never throw', () => {
  const bodies = vectors.map((v) => Cell.fromBase64(v.data.boc_base64));

  /** The first `bits` bits of `c` with its first `refs` refs. */
  const cut = (c: Cell, bits: number, refs: number) => {
    const s = c.beginParse();
    const b = beginCell().storeBits(s.loadBits(Math.min(bits, s.remainingBits)));
    for (let i = 0; i < Math.min(refs, c.refs.length); i++) b.storeRef(c.refs[i]!);
    return b.endCell();
  };

  const tx = (body: Cell, opcode: number | null) => ({
    account: A,
    hash: Buffer.alloc(32),
    lt: 1n,
    now: 1,
    mcSeqno: 1,
    aborted: false,
    computeSuccess: true,
    inMsg: {
      hash: Buffer.alloc(32),
      source: B,
      destination: A,
      value: 1n,
      bounced: false,
      opcode,
      body,
      createdLt: 1n,
    },
    outMsgs: [],
  });

  it('every truncation of every vector body (bits and refs), and every event opcode put in front of it', () => {
    let n = 0;
    for (const body of bodies) {
      for (let bits = 0; bits <= body.bits.length; bits += 7) {
        for (let refs = 0; refs <= body.refs.length; refs++) {
          const c = cut(body, bits, refs);
          for (const direction of ['internal', 'external', undefined] as const) {
            expect(() => parseKnownBody(c, { direction })).not.toThrow();
          }
          for (const op of [JETTON_OP.transfer, JETTON_OP.burn, JETTON_OP.internalTransfer, 0x5fcc3d14]) {
            const withOp = beginCell()
              .storeUint(op, 32)
              .storeBits(c.bits.substring(0, Math.min(c.bits.length, 990)));
            for (const r of c.refs) withOp.storeRef(r);
            expect(() => eventsOf(tx(withOp.endCell(), op | 0))).not.toThrow();
          }
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(500);
  });

  it('random cells and exotic cells give null', () => {
    let seed = 42;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let i = 0; i < 2000; i++) {
      const b = beginCell();
      const bits = rnd() % 1000;
      for (let j = 0; j < bits; j++) b.storeBit(rnd() & 1);
      const refs = rnd() % 3;
      for (let j = 0; j < refs; j++) b.storeRef(beginCell().storeUint(rnd(), 31).endCell());
      const c = b.endCell();
      expect(() => parseKnownBody(c)).not.toThrow();
      expect(() => eventsOf(tx(c, c.bits.length >= 32 ? c.beginParse().loadInt(32) : null))).not.toThrow();
    }
    // a pruned branch (exotic type 1) standing in for a body
    const pruned = new Cell({
      exotic: true,
      bits: beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(Buffer.alloc(32, 9)).storeUint(0, 16).endCell()
        .bits,
    });
    expect(() => parseKnownBody(pruned)).not.toThrow();
    expect(parseKnownBody(pruned)).toBeNull();
    expect(eventsOf(tx(pruned, JETTON_OP.transfer))).toEqual([]);
    expect(readBody(pruned, JETTON_OP.internalTransfer, loadJettonInternalTransfer)).toBeNull();
  });
});
