// STON.fi swaps over hand-built traces whose bodies are written here from docs.ston.fi's layouts (v1 and v2 router,
// pool and pTON messages). Expected details are what those bodies say, in toncenter's keys (ActionDetailsJettonSwap).
import { Address, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { Action, ContractInfo, TraceNode } from '../types.ts';
import { excessBody, internalTransferBody, jettonTransferBody, notifyBody } from './jetton-bodies.test-util.ts';
import { stonfiMatcher } from './stonfi.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const U = addr('user');
const REF = addr('referrer');
const R = addr('router');
const P = addr('pool');
const P2 = addr('pool-2');
const A = addr('jetton-a');
const B = addr('jetton-b');
const C = addr('jetton-c');
const UA = addr('user-wallet-a');
const UB = addr('user-wallet-b');
const RA = addr('router-wallet-a');
const RB = addr('router-wallet-b');
const RC = addr('router-wallet-c');
const REFB = addr('referrer-wallet-b');
/** The router's pTON v2 wallet (pTON v2 master, as in toncenter's list). */
const RP = addr('router-pton-wallet');
const PTON_V2 = '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3';
const SWAP_OK = 0xc64370e5;
const REF_OK = 0x45078540;
const NO_LIQUIDITY = 0x5ffe1295;
const at = (a: string) => Address.parse(a);

const wallets: Record<string, ContractInfo> = {
  [UA]: { jettonWallet: { jetton: A, owner: U } },
  [UB]: { jettonWallet: { jetton: B, owner: U } },
  [RA]: { jettonWallet: { jetton: A, owner: R } },
  [RB]: { jettonWallet: { jetton: B, owner: R } },
  [RC]: { jettonWallet: { jetton: C, owner: R } },
  [REFB]: { jettonWallet: { jetton: B, owner: REF } },
  [RP]: { jettonWallet: { jetton: PTON_V2, owner: R } },
};

const transfer = (amount: bigint, to: string, payload: Cell | null) => jettonTransferBody(amount, to, U, payload);
const internal = (amount: bigint, from: string, payload: Cell | null) => internalTransferBody(amount, from, U, payload);
const notify = notifyBody;
const excess = excessBody;

// ---- v2 bodies ----
/** The request a transfer carries: swap#6664de2a other_token_wallet refund excesses deadline ^additional_data. */
const requestV2 = (other: string, custom: Cell | null = null) =>
  beginCell()
    .storeUint(0x6664de2a, 32)
    .storeAddress(at(other))
    .storeAddress(at(U))
    .storeAddress(at(U))
    .storeUint(1_900_000_000, 64)
    .storeRef(
      beginCell()
        .storeCoins(1)
        .storeAddress(at(U))
        .storeCoins(0)
        .storeMaybeRef(custom)
        .storeCoins(0)
        .storeMaybeRef(null)
        .storeUint(10, 16)
        .storeAddress(null)
        .endCell(),
    )
    .endCell();
/** Router -> pool: swap#6664de2a query_id from_user left_amount right_amount ^[transferred_op token_wallet1 …]. */
const swapV2 = (amount: bigint, otherWallet: string, custom: Cell | null = null) =>
  beginCell()
    .storeUint(0x6664de2a, 32)
    .storeUint(1, 64)
    .storeAddress(at(U))
    .storeCoins(amount)
    .storeCoins(0)
    .storeRef(
      beginCell()
        .storeUint(0x0f8a7ea5, 32)
        .storeAddress(at(otherWallet))
        .storeAddress(at(U))
        .storeAddress(at(U))
        .storeUint(1_900_000_000, 64)
        .storeRef(
          beginCell()
            .storeCoins(1)
            .storeAddress(at(U))
            .storeCoins(0)
            .storeMaybeRef(custom)
            .storeCoins(0)
            .storeMaybeRef(null)
            .storeUint(10, 16)
            .storeAddress(null)
            .endCell(),
        )
        .endCell(),
    )
    .endCell();
/** Pool -> router: pay_to#657b54f5 … exit_code custom_payload ^[fwd_ton_amount amount0 token0 amount1 token1]. */
const payToV2 = (exit: number, amount0: bigint, token0: string, amount1: bigint, token1: string) =>
  beginCell()
    .storeUint(0x657b54f5, 32)
    .storeUint(1, 64)
    .storeAddress(at(U))
    .storeAddress(at(U))
    .storeAddress(at(U))
    .storeUint(exit, 32)
    .storeMaybeRef(null)
    .storeRef(
      beginCell()
        .storeCoins(0)
        .storeCoins(amount0)
        .storeAddress(at(token0))
        .storeCoins(amount1)
        .storeAddress(at(token1))
        .endCell(),
    )
    .endCell();
/** pTON v2: ton_transfer#01f3835d query_id ton_amount refund_address forward_payload:(Either Cell ^Cell). */
const tonTransfer = (amount: bigint, payload: Cell | null) =>
  beginCell()
    .storeUint(0x01f3835d, 32)
    .storeUint(1, 64)
    .storeCoins(amount)
    .storeAddress(at(U))
    .storeMaybeRef(payload)
    .endCell();

// ---- v1 bodies ----
/** The v1 request: swap#25938561 token_wallet min_out to_address has_ref. */
const requestV1 = (askedWallet: string, to: string) =>
  beginCell()
    .storeUint(0x25938561, 32)
    .storeAddress(at(askedWallet))
    .storeCoins(1)
    .storeAddress(at(to))
    .storeBit(0)
    .endCell();
/** Router -> pool: swap#25938561 query_id from_user token_wallet amount min_out has_ref ^[from_real_user]. */
const swapV1 = (fromUser: string, tokenWallet: string, amount: bigint, realUser: string) =>
  beginCell()
    .storeUint(0x25938561, 32)
    .storeUint(1, 64)
    .storeAddress(at(fromUser))
    .storeAddress(at(tokenWallet))
    .storeCoins(amount)
    .storeCoins(1)
    .storeBit(0)
    .storeRef(beginCell().storeAddress(at(realUser)).endCell())
    .endCell();
/** Pool -> router: pay_to#f93bb43f query_id owner exit_code ^[amount0 token0 amount1 token1]. */
const payToV1 = (exit: number, amount: bigint, wallet: string, other: string) =>
  beginCell()
    .storeUint(0xf93bb43f, 32)
    .storeUint(1, 64)
    .storeAddress(at(U))
    .storeUint(exit, 32)
    .storeRef(beginCell().storeCoins(amount).storeAddress(at(wallet)).storeCoins(0).storeAddress(at(other)).endCell())
    .endCell();

/** `from` (a DEX contract) sends `amount` of the jetton in its wallet `dexWallet` to `owner`'s wallet `userWallet`. */
function payOut(
  b: TraceBuilder,
  from: TraceNode,
  dexWallet: string,
  userWallet: string,
  owner: string,
  amount: bigint,
) {
  const t = b.send(from, dexWallet, transfer(amount, owner, null));
  const i = b.send(t, userWallet, internal(amount, from.tx.account, null));
  const n = b.send(i, owner, notify(amount, from.tx.account, null));
  return [t, i, n];
}

/** U sends `amount` of A to the router with `request`; the router's wallet notifies it. */
function payIn(b: TraceBuilder, request: Cell, amount = 1000n) {
  const root = b.external(U);
  const t = b.send(root, UA, transfer(amount, R, request));
  const i = b.send(t, RA, internal(amount, U, request));
  const n = b.send(i, R, notify(amount, U, request));
  const e = b.send(i, U, excess());
  return { root, legIn: [t, i, n, e], notified: n };
}

const only = (actions: Action[], type: string) => {
  const list = byType(actions, type);
  expect(list).toHaveLength(1);
  return list[0]!;
};

const transferOf = (
  asset: string | null,
  source: string,
  destination: string,
  sjw: string | null,
  djw: string | null,
  amount: bigint,
) => ({
  asset,
  source,
  destination,
  source_jetton_wallet: sjw,
  destination_jetton_wallet: djw,
  amount: amount.toString(),
});

describe('STON.fi v2 jetton_swap', () => {
  it('jetton -> jetton: one action with both transfers, the pool and the router', () => {
    const b = new TraceBuilder();
    const { root, legIn, notified } = payIn(b, requestV2(RB));
    const pool = b.send(notified, P, swapV2(1000n, RB));
    const pay = b.send(pool, R, payToV2(SWAP_OK, 900n, RB, 0n, RA));
    const out = payOut(b, pay, RB, UB, U, 900n);
    const actions = b.classify(root, wallets);
    expect(actions.map((a) => a.type)).toEqual(['jetton_swap']);
    const a = actions[0]!;
    expect(a.success).toBe(true);
    expect(a.details).toEqual({
      dex: 'stonfi_v2',
      sender: U,
      asset_in: A,
      asset_out: B,
      dex_incoming_transfer: transferOf(A, U, R, UA, RA, 1000n),
      dex_outgoing_transfer: transferOf(B, R, U, RB, UB, 900n),
      peer_swaps: [],
    });
    expect(a.txHashes).toEqual([root, ...legIn, pool, pay, ...out].map((n) => n.tx.hash));
    expect([a.source, a.sourceSecondary, a.destination, a.destinationSecondary, a.asset, a.asset2]).toEqual([
      U,
      UA,
      U,
      UB,
      A,
      B,
    ]);
    expect(a.accounts).toEqual([U, R, P, UA, RA, RB, UB].sort());
    // Classifying again gives the same id.
    expect(b.classify(root, wallets)[0]!.actionId).toBe(a.actionId);
  });

  it('jetton -> TON: the router pays through its pTON wallet, which sends TON with ton_transfer', () => {
    const b = new TraceBuilder();
    const { root, notified } = payIn(b, requestV2(RP));
    const pool = b.send(notified, P, swapV2(1000n, RP));
    const pay = b.send(pool, R, payToV2(SWAP_OK, 0n, RA, 5_000_000_000n, RP));
    const t = b.send(pay, RP, transfer(5_000_000_000n, U, null));
    const ton = b.send(t, U, tonTransfer(5_000_000_000n, null));
    const a = only(b.classify(root, wallets), 'jetton_swap');
    expect(a.details).toMatchObject({
      asset_in: A,
      asset_out: null,
      dex_outgoing_transfer: transferOf(null, R, U, null, null, 5_000_000_000n),
    });
    expect(a.txHashes).toContain(ton.tx.hash);
    expect(a.success).toBe(true);
  });

  it('TON -> jetton: ton_transfer into the router pTON wallet, which notifies the router', () => {
    const b = new TraceBuilder();
    const root = b.external(U);
    const request = requestV2(RB);
    const ton = b.send(root, RP, tonTransfer(2_000_000_000n, request), { value: 2_300_000_000n });
    const n = b.send(ton, R, notify(2_000_000_000n, U, request));
    const pool = b.send(n, P, swapV2(2_000_000_000n, RB));
    const pay = b.send(pool, R, payToV2(SWAP_OK, 0n, RP, 777n, RB));
    payOut(b, pay, RB, UB, U, 777n);
    const a = only(b.classify(root, wallets), 'jetton_swap');
    expect(a.details).toEqual({
      dex: 'stonfi_v2',
      sender: U,
      asset_in: null,
      asset_out: B,
      dex_incoming_transfer: transferOf(null, U, R, null, RP, 2_000_000_000n),
      dex_outgoing_transfer: transferOf(B, R, U, RB, UB, 777n),
      peer_swaps: [],
    });
  });

  it('refund: a failed swap pays the input back; asset_out is the asked asset when its router wallet is known', () => {
    const build = () => {
      const b = new TraceBuilder();
      const { root, notified } = payIn(b, requestV2(RB));
      const pool = b.send(notified, P, swapV2(1000n, RB));
      const pay = b.send(pool, R, payToV2(NO_LIQUIDITY, 1000n, RA, 0n, RB));
      payOut(b, pay, RA, UA, U, 1000n);
      return { b, root };
    };
    const { b, root } = build();
    const a = only(b.classify(root, wallets), 'jetton_swap');
    expect(a.success).toBe(false);
    expect(a.details).toMatchObject({
      asset_in: A,
      asset_out: B,
      dex_outgoing_transfer: transferOf(A, R, U, RA, UA, 1000n),
    });
    // Without the router's B wallet known, the asked asset cannot be named: the asset paid back stands in.
    const { [RB]: _unknown, ...withoutRB } = wallets;
    const again = build();
    const u = only(again.b.classify(again.root, withoutRB), 'jetton_swap');
    expect(u.details.asset_out).toBe(A);
    expect(u.success).toBe(false);
  });

  it('two hops on one router: peer_swaps name each hop', () => {
    const b = new TraceBuilder();
    const { root, notified } = payIn(b, requestV2(RC, requestV2(RB)));
    const pool = b.send(notified, P, swapV2(1000n, RC, requestV2(RB)));
    const pay = b.send(pool, R, payToV2(SWAP_OK, 500n, RC, 0n, RA));
    const pool2 = b.send(pay, P2, swapV2(500n, RB));
    const pay2 = b.send(pool2, R, payToV2(SWAP_OK, 0n, RC, 300n, RB));
    payOut(b, pay2, RB, UB, U, 300n);
    const a = only(b.classify(root, wallets), 'jetton_swap');
    expect(a.success).toBe(true);
    expect(a.details.peer_swaps).toEqual([
      { asset_in: A, amount_in: '1000', asset_out: C, amount_out: '500' },
      { asset_in: C, amount_in: '500', asset_out: B, amount_out: '300' },
    ]);
    expect(a.details.asset_out).toBe(B);
    expect(a.txHashes).toEqual(expect.arrayContaining([pool2.tx.hash, pay2.tx.hash]));
  });

  it('an unknown router wallet: no swap, the transfer stays a call (as the jetton matcher decides)', () => {
    const b = new TraceBuilder();
    const { root, notified } = payIn(b, requestV2(RB));
    const pool = b.send(notified, P, swapV2(1000n, RB));
    const pay = b.send(pool, R, payToV2(SWAP_OK, 900n, RB, 0n, RA));
    payOut(b, pay, RB, UB, U, 900n);
    const { [RA]: _a, ...noRA } = wallets;
    const actions = b.classify(root, noRA);
    expect(byType(actions, 'jetton_swap')).toHaveLength(0);
  });
});

describe('STON.fi v1 jetton_swap', () => {
  it('jetton -> jetton with a referral payout: the swap, and the referral transfer as its own action', () => {
    const b = new TraceBuilder();
    const { root, legIn, notified } = payIn(b, requestV1(RB, U));
    const pool = b.send(notified, P, swapV1(U, RA, 1000n, U));
    const pay = b.send(pool, R, payToV1(SWAP_OK, 900n, RB, RA));
    const out = payOut(b, pay, RB, UB, U, 900n);
    const ref = b.send(pool, R, payToV1(REF_OK, 9n, RB, RA));
    const refOut = payOut(b, ref, RB, REFB, REF, 9n);
    const actions = b.classify(root, wallets);
    const a = only(actions, 'jetton_swap');
    expect(a.success).toBe(true);
    expect(a.details).toEqual({
      dex: 'stonfi',
      sender: U,
      asset_in: A,
      asset_out: B,
      dex_incoming_transfer: transferOf(A, U, R, UA, RA, 1000n),
      dex_outgoing_transfer: transferOf(B, R, U, RB, UB, 900n),
      peer_swaps: [],
    });
    expect(a.txHashes).toEqual([root, ...legIn, pool, pay, ...out].map((n) => n.tx.hash));
    // v1 names the router's wallet of the asset asked for as destination_secondary.
    expect([a.source, a.sourceSecondary, a.destination, a.destinationSecondary, a.asset, a.asset2]).toEqual([
      U,
      UA,
      U,
      RB,
      A,
      B,
    ]);
    const referral = only(actions, 'jetton_transfer');
    expect(referral.details).toMatchObject({ sender: R, receiver: REF, amount: '9', asset: B });
    expect(referral.txHashes).toEqual([ref, ...refOut].map((n) => n.tx.hash));
  });

  it('refund (no liquidity): failed, the input paid back, asset_out the asset asked for', () => {
    const b = new TraceBuilder();
    const { root, notified } = payIn(b, requestV1(RB, U));
    const pool = b.send(notified, P, swapV1(U, RA, 1000n, U));
    const pay = b.send(pool, R, payToV1(NO_LIQUIDITY, 1000n, RA, RB));
    payOut(b, pay, RA, UA, U, 1000n);
    const a = only(b.classify(root, wallets), 'jetton_swap');
    expect(a.success).toBe(false);
    expect(a.details).toMatchObject({
      asset_in: A,
      asset_out: B,
      dex_outgoing_transfer: transferOf(A, R, U, RA, UA, 1000n),
    });
  });
});

describe('STON.fi router wallets named in bodies (addressesFor: loaded with the trace, though it may not touch them)', () => {
  it('the v1 request of a transfer, the v2 request of a notification, and the cross-swaps of a router swap', () => {
    const b = new TraceBuilder();
    const root = b.external(U);
    const v1 = b.send(root, UA, transfer(1000n, R, requestV1(RB, U)));
    const v2 = b.send(root, R, notify(1000n, U, requestV2(RB)));
    const swap = b.send(root, P, swapV2(1000n, RB, requestV2(RC)));
    expect(stonfiMatcher.addressesFor?.(v1)).toEqual([RB]);
    expect(stonfiMatcher.addressesFor?.(v2)).toEqual([RB]);
    expect(stonfiMatcher.addressesFor?.(swap)).toEqual([RB, RC]);
    expect(stonfiMatcher.addressesFor?.(root)).toEqual([]);
  });
});
