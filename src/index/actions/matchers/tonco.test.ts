// TONCO on hand-built traces (the mainnet ones run in test/index/actions-mainnet.test.ts): a jetton swap and the same
// swap refused by the pool, a withdrawal whose payouts arrive in the other order than the pool's assets, and a pool
// deployment.
import { Address, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { ContractInfo, TraceNode } from '../types.ts';
import { internalTransferBody, jettonTransferBody, notifyBody } from './jetton-bodies.test-util.ts';
import { TONCO_OP, toncoMatcher } from './tonco.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const USER = addr('user');
const ROUTER = addr('router');
const POOL = addr('pool');
const NFT = addr('position nft');
const JETTON_A = addr('jetton a');
const JETTON_B = addr('jetton b');
const USER_A = addr('user wallet a');
const USER_B = addr('user wallet b');
const ROUTER_A = addr('router wallet a');
const ROUTER_B = addr('router wallet b');

const at = (a: string) => Address.parse(a);

const WALLETS: Record<string, ContractInfo> = {
  [USER_A]: { jettonWallet: { jetton: JETTON_A, owner: USER } },
  [USER_B]: { jettonWallet: { jetton: JETTON_B, owner: USER } },
  [ROUTER_A]: { jettonWallet: { jetton: JETTON_A, owner: ROUTER } },
  [ROUTER_B]: { jettonWallet: { jetton: JETTON_B, owner: ROUTER } },
};

const poolSwapBody = (sourceWallet: string, amount: bigint) =>
  beginCell()
    .storeUint(TONCO_OP.poolSwap, 32)
    .storeUint(1, 64)
    .storeAddress(at(USER))
    .storeAddress(at(sourceWallet))
    .storeRef(beginCell().storeCoins(amount).storeUint(0, 160).storeCoins(1n))
    .storeRef(beginCell().storeAddress(at(USER)).storeCoins(0).storeMaybeRef(null).storeCoins(0).storeMaybeRef(null))
    .endCell();

const payToBody = (exitCode: number, sides: [bigint, string, bigint, string]) =>
  beginCell()
    .storeUint(TONCO_OP.routerPayTo, 32)
    .storeUint(1, 64)
    .storeAddress(at(USER))
    .storeAddress(at(USER))
    .storeUint(exitCode, 32)
    .storeUint(0, 64)
    .storeMaybeRef(
      beginCell().storeCoins(sides[0]).storeAddress(at(sides[1])).storeCoins(sides[2]).storeAddress(at(sides[3])),
    )
    .endCell();

/** The router paying `amount` of its wallet `wallet` to the user's `userWallet`. */
function payOut(b: TraceBuilder, payTo: TraceNode, wallet: string, userWallet: string, amount: bigint): void {
  const t = b.send(payTo, wallet, jettonTransferBody(amount, USER, USER, null));
  b.send(t, userWallet, internalTransferBody(amount, ROUTER, USER, null));
}

/** 100 A sent to the router for B; the pool answers with `exitCode` and the router pays `paid` of `wallet`. */
function swapTrace(exitCode: number, wallet: string, userWallet: string, paid: bigint) {
  const b = new TraceBuilder();
  const root = b.external(USER);
  const t = b.send(root, USER_A, jettonTransferBody(100n, ROUTER, USER, null));
  const it = b.send(t, ROUTER_A, internalTransferBody(100n, USER, USER, null));
  const notified = b.send(it, ROUTER, notifyBody(100n, USER, null));
  const swap = b.send(notified, POOL, poolSwapBody(ROUTER_A, 100n));
  const payTo = b.send(swap, ROUTER, payToBody(exitCode, [0n, ROUTER_A, paid, ROUTER_B]));
  payOut(b, payTo, wallet, userWallet, paid);
  return b.classify(root, WALLETS);
}

/** start_burn of position 7 (5000 liquidity, ticks -60..120) to the pool, the NFT burn, the pool's burn. */
function burnChain(b: TraceBuilder, root: TraceNode): TraceNode {
  const start = b.send(
    root,
    POOL,
    beginCell()
      .storeUint(TONCO_OP.poolStartBurn, 32)
      .storeUint(1, 64)
      .storeUint(7, 64)
      .storeUint(5000, 128)
      .storeInt(-60, 24)
      .storeInt(120, 24)
      .endCell(),
  );
  const fees = beginCell().storeUint(0, 256).storeUint(0, 256);
  const nftBurn = b.send(
    start,
    NFT,
    beginCell()
      .storeUint(TONCO_OP.positionBurn, 32)
      .storeUint(1, 64)
      .storeAddress(at(USER))
      .storeUint(5000, 128)
      .storeInt(-60, 24)
      .storeInt(120, 24)
      .storeRef(fees)
      .endCell(),
  );
  const burn: Cell = beginCell()
    .storeUint(TONCO_OP.poolBurn, 32)
    .storeUint(1, 64)
    .storeAddress(at(USER))
    .storeUint(7, 64)
    .storeUint(5000, 128)
    .storeInt(-60, 24)
    .storeInt(120, 24)
    .storeUint(5000, 128)
    .storeRef(fees)
    .storeRef(fees)
    .endCell();
  return b.send(nftBurn, POOL, burn);
}

describe('tonco matcher', () => {
  it('a jetton swap: in through the router wallet, out by the pay_to transfer; min_out_amount is the output', () => {
    const a = byType(swapTrace(200, ROUTER_B, USER_B, 250n), 'jetton_swap')[0];
    expect(a).toMatchObject({
      success: true,
      source: USER,
      sourceSecondary: USER_A,
      destination: USER,
      destinationSecondary: USER_B,
      asset: JETTON_A,
      asset2: JETTON_B,
      details: {
        dex: 'tonco',
        asset_in: JETTON_A,
        asset_out: JETTON_B,
        dex_incoming_transfer: { amount: '100', destination: ROUTER, destination_jetton_wallet: ROUTER_A },
        dex_outgoing_transfer: { amount: '250', source: ROUTER, source_jetton_wallet: ROUTER_B },
        peer_swaps: [],
        min_out_amount: '250',
      },
    });
    // The wallet's request, both transfers (wallet and receiving wallet each), notification, swap and pay_to.
    expect(a?.txHashes).toHaveLength(8);
  });

  it('a swap the pool refused: failed, the input paid back', () => {
    const a = byType(swapTrace(300, ROUTER_A, USER_A, 100n), 'jetton_swap')[0];
    expect(a).toMatchObject({
      success: false,
      asset2: JETTON_A,
      details: { dex_outgoing_transfer: { asset: JETTON_A, amount: '100' }, min_out_amount: '100' },
    });
  });

  it("a withdrawal: payouts in the pool's order of assets, the NFT burned, ticks and liquidity of the request", () => {
    const b = new TraceBuilder();
    const root = b.external(USER);
    const poolBurn = burnChain(b, root);
    const payTo = b.send(poolBurn, ROUTER, payToBody(201, [30n, ROUTER_A, 40n, ROUTER_B]));
    payOut(b, payTo, ROUTER_B, USER_B, 40n);
    payOut(b, payTo, ROUTER_A, USER_A, 30n);
    const a = byType(b.classify(root, WALLETS), 'dex_withdraw_liquidity')[0];
    expect(a).toMatchObject({
      success: true,
      source: USER,
      destination: POOL,
      details: {
        dex: 'tonco',
        amount_1: '30',
        asset_1: JETTON_A,
        user_jetton_wallet_1: USER_A,
        amount_2: '40',
        asset_2: JETTON_B,
        user_jetton_wallet_2: USER_B,
        lp_tokens_burnt: '5000',
        burnt_nft_index: '7',
        burnt_nft_address: NFT,
        tick_lower: '-60',
        tick_upper: '120',
        pool: POOL,
      },
    });
  });

  it('a withdrawal paying one side: the other from the pay_to, named paid by the pool (as toncenter names it)', () => {
    const b = new TraceBuilder();
    const root = b.external(USER);
    const payTo = b.send(burnChain(b, root), ROUTER, payToBody(201, [30n, ROUTER_A, 0n, ROUTER_B]));
    payOut(b, payTo, ROUTER_A, USER_A, 30n);
    const a = byType(b.classify(root, WALLETS), 'dex_withdraw_liquidity')[0];
    expect(a?.details).toMatchObject({
      amount_1: '30',
      asset_1: JETTON_A,
      dex_wallet_1: ROUTER,
      dex_jetton_wallet_1: ROUTER_A,
      user_jetton_wallet_1: USER_A,
      amount_2: '0',
      asset_2: JETTON_B,
      dex_wallet_2: POOL,
      dex_jetton_wallet_2: ROUTER_B,
      user_jetton_wallet_2: USER,
    });
  });

  it("router wallets named in bodies (addressesFor): a route's targets, a deposit's other wallet, a pay_to's sides", () => {
    const hop = (wallet: string, next: Cell | null) =>
      beginCell()
        .storeUint(TONCO_OP.poolSwap, 32)
        .storeAddress(at(wallet))
        .storeUint(0, 160)
        .storeCoins(5n)
        .storeAddress(at(USER))
        .storeMaybeRef(next)
        .endCell();
    const fund = beginCell().storeUint(TONCO_OP.poolFundAccount, 32).storeAddress(at(ROUTER_B)).endCell();
    const b = new TraceBuilder();
    const root = b.external(USER);
    const route = b.send(root, ROUTER, notifyBody(100n, USER, hop(ROUTER_A, hop(ROUTER_B, null))));
    const deposit = b.send(root, ROUTER, notifyBody(100n, USER, fund));
    const payTo = b.send(root, ROUTER, payToBody(200, [0n, ROUTER_A, 7n, ROUTER_B]));
    expect(toncoMatcher.addressesFor?.(route)).toEqual([ROUTER_A, ROUTER_B]);
    expect(toncoMatcher.addressesFor?.(deposit)).toEqual([ROUTER_B]);
    expect(toncoMatcher.addressesFor?.(payTo)).toEqual([ROUTER_A, ROUTER_B]);
    expect(toncoMatcher.addressesFor?.(root)).toEqual([]);
  });

  it('a pool deployment: the router wallets, minters and fees of create_pool, the pool its init went to', () => {
    const b = new TraceBuilder();
    const root = b.external(USER);
    const content = beginCell().endCell();
    const create = b.send(
      root,
      ROUTER,
      beginCell()
        .storeUint(TONCO_OP.routerCreatePool, 32)
        .storeUint(1, 64)
        .storeAddress(at(ROUTER_A))
        .storeAddress(at(ROUTER_B))
        .storeInt(60, 24)
        .storeUint(2n ** 96n, 160)
        .storeUint(100, 16)
        .storeUint(30, 16)
        .storeUint(30, 16)
        .storeRef(content)
        .storeRef(content)
        .storeRef(beginCell().storeAddress(at(JETTON_A)).storeAddress(at(JETTON_B)).storeAddress(null))
        .endCell(),
    );
    const init = beginCell()
      .storeUint(TONCO_OP.poolInit, 32)
      .storeUint(1, 64)
      .storeBit(false)
      .storeBit(false)
      .storeAddress(null)
      .storeBit(false)
      .storeAddress(null)
      .storeBit(true)
      .storeInt(60, 24)
      .storeBit(true)
      .storeUint(2n ** 96n, 160)
      .storeBit(true)
      .storeBit(true)
      .endCell();
    b.send(create, POOL, init, { origStatus: 'nonexist' });
    const a = byType(b.classify(root, {}), 'tonco_deploy_pool')[0];
    expect(a).toMatchObject({
      success: true,
      source: USER,
      destination: ROUTER,
      destinationSecondary: POOL,
      details: {
        router_jetton_wallet_1: ROUTER_A,
        router_jetton_wallet_2: ROUTER_B,
        jetton_minter_1: JETTON_A,
        jetton_minter_2: JETTON_B,
        tick_spacing: '60',
        initial_price_x96: (2n ** 96n).toString(),
        protocol_fee: '100',
        lp_fee_base: '30',
        lp_fee_current: '30',
        pool_active: true,
      },
    });
  });
});
