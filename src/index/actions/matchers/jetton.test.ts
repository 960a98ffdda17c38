// Jetton matchers over hand-built traces whose bodies are written here per TEP-74 (the vectors hold only successful
// USDT transfers and one burn). Expected details are what those bodies say, in toncenter's keys and encodings.
import { Address, type Builder, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { ContractInfo } from '../types.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const O1 = addr('owner-1');
const O2 = addr('owner-2');
const O3 = addr('owner-3');
const M = addr('master');
const W1 = addr('wallet-1');
const W2 = addr('wallet-2');
const A = (a: string) => Address.parse(a);
const PTON = '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3';

const wallets: Record<string, ContractInfo> = {
  [W1]: { jettonWallet: { jetton: M, owner: O1 } },
  [W2]: { jettonWallet: { jetton: M, owner: O2 } },
};

/** forward_payload:(Either Cell ^Cell): `undefined` ends the body before the Either bit. */
type Payload = { inline: Cell } | { ref: Cell } | undefined;
const storePayload = (b: Builder, p: Payload) => {
  if (!p) return b;
  if ('ref' in p) return b.storeBit(1).storeRef(p.ref);
  return b.storeBit(0).storeSlice(p.inline.beginParse());
};

const transferBody = (o: { amount: bigint; to: string; payload?: Payload; custom?: Cell; fwd?: bigint }) =>
  storePayload(
    beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(7, 64)
      .storeCoins(o.amount)
      .storeAddress(A(o.to))
      .storeAddress(A(O1))
      .storeMaybeRef(o.custom ?? null)
      .storeCoins(o.fwd ?? 5n),
    o.payload,
  ).endCell();

const internalBody = (o: { amount: bigint; from: string; payload?: Payload; fwd?: bigint }) =>
  storePayload(
    beginCell()
      .storeUint(0x178d4519, 32)
      .storeUint(7, 64)
      .storeCoins(o.amount)
      .storeAddress(A(o.from))
      .storeAddress(A(O1))
      .storeCoins(o.fwd ?? 5n),
    o.payload ?? { inline: beginCell().endCell() },
  ).endCell();

const notifyBody = (amount: bigint, from: string) =>
  beginCell().storeUint(0x7362d09c, 32).storeUint(7, 64).storeCoins(amount).storeAddress(A(from)).storeBit(0).endCell();
const excessBody = () => beginCell().storeUint(0xd53276db, 32).storeUint(7, 64).endCell();
const textCell = (op: number, bytes: Buffer) => beginCell().storeUint(op, 32).storeBuffer(bytes).endCell();
const b64 = (c: Cell | null) => (c ? c.toBoc({ idx: false, crc32: true }).toString('base64') : null);

/** O1's wallet sends `transfer` to W1, which passes it on to W2; W2 notifies O2 and returns the excess to O1. */
function walletToWallet(
  o: { payload?: Payload; receiver?: { aborted?: boolean; deploy?: boolean }; fwd?: bigint } = {},
) {
  const b = new TraceBuilder();
  const root = b.external(O1);
  const t = b.send(root, W1, transferBody({ amount: 1000n, to: O2, payload: o.payload, fwd: o.fwd }));
  const i = b.send(t, W2, internalBody({ amount: 1000n, from: O1, payload: o.payload, fwd: o.fwd }), {
    aborted: o.receiver?.aborted,
    ...(o.receiver?.deploy ? { origStatus: 'nonexist', endStatus: 'active' } : {}),
  });
  const tail = o.receiver?.aborted
    ? [b.bounce(i, beginCell().storeUint(0xffffffff, 32).endCell())]
    : [b.send(i, O2, notifyBody(1000n, O1)), b.send(i, O1, excessBody())];
  return { b, root, t, i, tail };
}

describe('jetton_transfer', () => {
  it('wallet to wallet: the details the messages give, the notification and excess belong to it', () => {
    const comment = { inline: textCell(0, Buffer.from('hello')) };
    const { b, root, t, i, tail } = walletToWallet({ payload: comment });
    const actions = b.classify(root, wallets);
    expect(actions.map((a) => a.type)).toEqual(['jetton_transfer']);
    const a = actions[0]!;
    expect(a.details).toEqual({
      asset: M,
      sender: O1,
      receiver: O2,
      sender_jetton_wallet: W1,
      receiver_jetton_wallet: W2,
      amount: '1000',
      comment: 'hello',
      is_encrypted_comment: false,
      query_id: '7',
      response_destination: O1,
      custom_payload: null,
      forward_payload: b64(comment.inline),
      forward_amount: '5',
    });
    expect(a.success).toBe(true);
    expect(a.txHashes).toEqual([root, t, i, ...tail].map((n) => n.tx.hash));
    expect(a.accounts).toEqual([O1, O2, W1, W2].sort());
    expect([a.source, a.sourceSecondary, a.destination, a.destinationSecondary, a.asset, a.amount]).toEqual([
      O1,
      W1,
      O2,
      W2,
      M,
      1000n,
    ]);
  });

  it('forward payloads: comment in a ref, encrypted, broken UTF-8 and NUL, another payload, none', () => {
    const secret = Buffer.from([1, 2, 3, 250]);
    const other = beginCell().storeUint(0x12345678, 32).storeUint(9, 8).endCell();
    const cases: Array<[string, Payload, { comment: string | null; enc: boolean; payload: Cell | null }]> = [
      [
        'text in a ref',
        { ref: textCell(0, Buffer.from('привет', 'utf8')) },
        { comment: 'привет', enc: false, payload: textCell(0, Buffer.from('привет', 'utf8')) },
      ],
      [
        'encrypted',
        { inline: textCell(0x2167da4b, secret) },
        { comment: secret.toString('base64'), enc: true, payload: textCell(0x2167da4b, secret) },
      ],
      [
        'broken UTF-8 and NUL',
        { inline: textCell(0, Buffer.from([0x41, 0xff, 0x00, 0x42])) },
        { comment: 'A\\xffB', enc: false, payload: textCell(0, Buffer.from([0x41, 0xff, 0x00, 0x42])) },
      ],
      ['another payload', { inline: other }, { comment: null, enc: false, payload: other }],
      ['empty inline payload', { inline: beginCell().endCell() }, { comment: null, enc: false, payload: null }],
      ['no Either bit at all', undefined, { comment: null, enc: false, payload: null }],
    ];
    for (const [name, payload, want] of cases) {
      const { b, root } = walletToWallet({ payload });
      const [a] = byType(b.classify(root, wallets), 'jetton_transfer');
      expect([a?.details.comment, a?.details.is_encrypted_comment, a?.details.forward_payload], name).toEqual([
        want.comment,
        want.enc,
        b64(want.payload),
      ]);
    }
  });

  it('the receiving wallet fails: not successful, and the bounce back to the sending wallet belongs to it', () => {
    const { b, root, tail } = walletToWallet({ receiver: { aborted: true } });
    const actions = b.classify(root, wallets);
    expect(actions.map((a) => [a.type, a.success])).toEqual([['jetton_transfer', false]]);
    expect(actions[0]!.txHashes).toContain(tail[0]!.tx.hash);
  });

  it('a receiving wallet the transfer creates: a contract_deploy of its own besides the transfer', () => {
    const { b, root, i } = walletToWallet({ receiver: { deploy: true } });
    const actions = b.classify(root, wallets);
    expect(actions.map((a) => a.type)).toEqual(['jetton_transfer', 'contract_deploy']);
    expect(actions[1]!.details).toMatchObject({ source: W1, destination: W2, opcode: '0x178d4519' });
    expect(actions[1]!.txHashes).toEqual([actions[0]!.txHashes[1], i.tx.hash]);
    expect(actions[0]!.actionId).not.toBe(actions[1]!.actionId);
  });

  it('a receiving wallet the index does not know: no jetton_transfer, the messages stay contract calls', () => {
    const { b, root } = walletToWallet();
    const actions = b.classify(root, { [W1]: wallets[W1]! });
    expect(byType(actions, 'jetton_transfer')).toEqual([]);
    expect(byType(actions, 'call_contract').map((a) => a.details.destination)).toEqual([W1, W2, O2, O1]);
    // The sending wallet alone is not needed: toncenter takes the asset from the receiving wallet.
    const only = walletToWallet().b;
    const known = only.classify(only.nodes[0]!, { [W2]: wallets[W2]! });
    expect(byType(known, 'jetton_transfer').map((a) => a.details.asset)).toEqual([M]);
  });

  it('the sending wallet refuses (no internal_transfer): a failed contract call with its bounce', () => {
    const b = new TraceBuilder();
    const root = b.external(O1);
    const t = b.send(root, W1, transferBody({ amount: 1000n, to: O2 }), { aborted: true });
    const back = b.bounce(t, beginCell().storeUint(0xffffffff, 32).endCell());
    const actions = b.classify(root, wallets);
    expect(actions.map((a) => [a.type, a.success])).toEqual([['call_contract', false]]);
    expect(actions[0]!.txHashes).toEqual([root, t, back].map((n) => n.tx.hash));
  });

  it('a receiving wallet owned by someone else than the body named: the receiver is its owner', () => {
    const { b, root } = walletToWallet();
    const [a] = byType(
      b.classify(root, { ...wallets, [W2]: { jettonWallet: { jetton: M, owner: O3 } } }),
      'jetton_transfer',
    );
    expect([a?.details.receiver, a?.destination]).toEqual([O3, O3]);
  });

  it('a pTON wallet notifies the receiver itself: a jetton_transfer without jetton wallets', () => {
    const b = new TraceBuilder();
    const router = addr('router');
    const root = b.external(O1);
    const t = b.send(root, W1, transferBody({ amount: 500n, to: router }));
    const n = b.send(t, router, notifyBody(500n, O1));
    const actions = b.classify(root, { [W1]: { jettonWallet: { jetton: PTON, owner: O1 } } });
    expect(actions.map((a) => a.type)).toEqual(['jetton_transfer']);
    expect(actions[0]!.details).toMatchObject({
      asset: PTON,
      sender: O1,
      receiver: router,
      sender_jetton_wallet: null,
      receiver_jetton_wallet: null,
      amount: '500',
      forward_amount: '5',
    });
    expect(actions[0]!.txHashes).toEqual([root, t, n].map((x) => x.tx.hash));
  });
});

const burnBody = (amount: bigint) =>
  beginCell().storeUint(0x595f07bc, 32).storeUint(3, 64).storeCoins(amount).storeAddress(A(O1)).storeBit(0).endCell();
const burnNotificationBody = (amount: bigint) =>
  beginCell()
    .storeUint(0x7bdd97de, 32)
    .storeUint(3, 64)
    .storeCoins(amount)
    .storeAddress(A(O1))
    .storeAddress(A(O1))
    .endCell();

describe('jetton_burn', () => {
  it('the owner burns: owner and asset from the wallet, the notification and the excess belong to it', () => {
    const b = new TraceBuilder();
    const root = b.external(O1);
    const w = b.send(root, W1, burnBody(50n));
    const n = b.send(w, M, burnNotificationBody(50n));
    const e = b.send(n, O1, excessBody());
    const actions = b.classify(root, wallets);
    expect(actions.map((a) => a.type)).toEqual(['jetton_burn']);
    const a = actions[0]!;
    expect(a.details).toEqual({ owner: O1, owner_jetton_wallet: W1, asset: M, amount: '50' });
    expect(a.success).toBe(true);
    expect(a.txHashes).toEqual([root, w, n, e].map((x) => x.tx.hash));
    expect(a.accounts).toEqual([M, O1, W1].sort());
    expect([a.source, a.sourceSecondary, a.asset, a.amount]).toEqual([O1, W1, M, 50n]);
  });

  it('a burn the wallet refuses fails; a burn at an unknown wallet is a contract call', () => {
    const b = new TraceBuilder();
    const root = b.external(O1);
    b.send(root, W1, burnBody(10n ** 30n), { aborted: true });
    expect(b.classify(root, wallets).map((a) => [a.type, a.success])).toEqual([['jetton_burn', false]]);
    expect(b.classify(root, {}).map((a) => a.type)).toEqual(['call_contract']);
  });
});

const mintBody = (op: number, o: { to: string; amount: bigint; tonAmount: bigint }) =>
  beginCell()
    .storeUint(op, 32)
    .storeUint(11, 64)
    .storeAddress(A(o.to))
    .storeCoins(o.tonAmount)
    .storeRef(internalBody({ amount: o.amount, from: M }))
    .endCell();

describe('jetton_mint', () => {
  it('mint#642b7d07 into a new wallet: amount from the internal_transfer, receiver its owner; the deploy too', () => {
    const b = new TraceBuilder();
    const admin = addr('admin');
    const root = b.external(admin);
    const m = b.send(root, M, mintBody(0x642b7d07, { to: O2, amount: 700n, tonAmount: 50_000_000n }));
    const i = b.send(m, W2, internalBody({ amount: 700n, from: M }), { origStatus: 'nonexist', endStatus: 'active' });
    const n = b.send(i, O2, notifyBody(700n, M));
    const e = b.send(i, O1, excessBody());
    const actions = b.classify(root, wallets);
    expect(actions.map((a) => a.type)).toEqual(['jetton_mint', 'contract_deploy']);
    const a = actions[0]!;
    expect(a.details).toEqual({
      asset: M,
      receiver: O2,
      receiver_jetton_wallet: W2,
      amount: '700',
      ton_amount: '50000000',
    });
    expect(a.success).toBe(true);
    expect(a.txHashes).toEqual([root, m, i, n, e].map((x) => x.tx.hash));
    expect([a.destination, a.destinationSecondary, a.asset, a.amount, a.value]).toEqual([O2, W2, M, 700n, 50_000_000n]);
  });

  it('a mint that minted nothing is a failed one with what the body asked for (v1 minter: its amount too)', () => {
    for (const [op, amount] of [
      [0x642b7d07, null],
      [0x00000015, '700'],
    ] as const) {
      const b = new TraceBuilder();
      const admin = addr('admin');
      const root = b.external(admin);
      b.send(root, M, mintBody(op, { to: O2, amount: 700n, tonAmount: 1n }), { aborted: true });
      const actions = b.classify(root, wallets);
      expect(actions.map((a) => [a.type, a.success])).toEqual([['jetton_mint', false]]);
      expect(actions[0]!.details).toEqual({
        asset: M,
        receiver: O2,
        receiver_jetton_wallet: null,
        amount,
        ton_amount: '1',
      });
    }
  });
});
