// swap.coffee's DEX over hand-built traces (the mainnet swaps, pools and deposits run in
// test/index/actions-mainnet.test.ts): a swap paid in TON (the amount ordered, not the coins the payout carried), a
// swap a pool refused (no jetton_swap, as in toncenter), and a liquidity withdrawal, which no mainnet case shows.
// Bodies are written per the TL-B in coffee-dex.ts's header.
import { createHash } from 'node:crypto';
import { Address, type Builder, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { ContractInfo, TraceNode } from '../types.ts';
import { COFFEE_DEX_OP as OP } from './coffee-dex.ts';
import { internalTransferBody, jettonTransferBody } from './jetton-bodies.test-util.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const U = addr('user');
const TON_VAULT = addr('ton vault');
const JETTON_VAULT = addr('jetton vault');
const POOL = addr('pool');
const MASTER = addr('jetton');
const VAULT_WALLET = addr('vault wallet');
const USER_WALLET = addr('user wallet');
const LP_WALLET = addr('user lp wallet');
const at = (a: string) => Address.parse(a);

const wallets: Record<string, ContractInfo> = {
  [VAULT_WALLET]: { jettonWallet: { jetton: MASTER, owner: JETTON_VAULT } },
  [USER_WALLET]: { jettonWallet: { jetton: MASTER, owner: U } },
  [LP_WALLET]: { jettonWallet: { jetton: POOL, owner: U } },
};

/** Asset: native$00 | jetton$01 workchain:int8 address:uint256. */
const asset = (jetton: string | null): Builder =>
  jetton ? beginCell().storeUint(1, 2).storeInt(0, 8).storeBuffer(at(jetton).hash) : beginCell().storeUint(0, 2);
const op = (code: number) => beginCell().storeUint(code, 32).storeUint(1, 64);

/** swap#c0ffee00 query_id amount:Coins (the step and params that follow are not read). */
const swapNative = (amount: bigint) => op(OP.swapNative).storeCoins(amount).endCell();
/** payout_internal#c0ffee21 query_id recipient amount (the notification and proof that follow are not read). */
const payoutInternal = (amount: bigint) => op(OP.payoutInternal).storeAddress(at(U)).storeCoins(amount).endCell();

/** `node` emits the log `body` (an external-out message). */
function log(node: TraceNode, body: Cell) {
  node.tx.outMsgs.push({
    hash: createHash('sha256').update(`log:${node.tx.hash}`).digest('base64'),
    source: node.tx.account,
    destination: null,
    value: null,
    extraCurrencies: {},
    opcode: body.beginParse().loadUint(32),
    bounce: false,
    bounced: false,
    createdLt: node.tx.lt + 1n,
    body,
  });
}

/** TON into the TON vault, on to the pool; returns the pool's transaction. */
function tonSwapIn(b: TraceBuilder, root: TraceNode, amount: bigint): TraceNode {
  const vault = b.send(root, TON_VAULT, swapNative(amount));
  return b.send(vault, POOL, op(OP.swapInternal).endCell());
}

describe('swap.coffee DEX', () => {
  it('a swap paid in TON: the amount the pool ordered, from the pool to the recipient named', () => {
    const b = new TraceBuilder();
    const root = b.external(U);
    const pool = tonSwapIn(b, root, 1000n);
    // swap_successful: input TON 1000, output 3000 (the TON vault pays it: a TON -> TON pool for the test's sake).
    log(pool, op(OP.swapSucceeded).storeBuilder(asset(null)).storeCoins(1000).storeCoins(3000).endCell());
    const vault = b.send(pool, TON_VAULT, payoutInternal(3000n));
    b.send(vault, U, op(OP.payout).endCell(), { value: 3100n });
    const [swap] = byType(b.classify(root, {}), 'jetton_swap');
    expect(swap).toMatchObject({
      success: true,
      source: U,
      destination: U,
      details: {
        dex: 'coffee',
        sender: U,
        dex_incoming_transfer: { asset: null, amount: '1000', source: U, destination: TON_VAULT },
        dex_outgoing_transfer: { asset: null, amount: '3000', source: POOL, destination: U },
        peer_swaps: [],
      },
    });
  });

  it('a swap the pool refused (swap_failed#c0ffee31, the input paid back): no jetton_swap', () => {
    const b = new TraceBuilder();
    const root = b.external(U);
    const pool = tonSwapIn(b, root, 1000n);
    log(pool, op(0xc0ffee31).storeBuilder(asset(null)).storeCoins(1000).storeMaybeRef(null).endCell());
    const vault = b.send(pool, TON_VAULT, payoutInternal(1000n));
    b.send(vault, U, op(OP.payout).endCell());
    expect(byType(b.classify(root, {}), 'jetton_swap')).toEqual([]);
  });

  it('a liquidity withdrawal: the LP burnt, the log amounts, each payout naming its asset', () => {
    const b = new TraceBuilder();
    const root = b.external(U);
    const burn = b.send(
      root,
      LP_WALLET,
      op(0x595f07bc).storeCoins(50).storeAddress(at(U)).storeMaybeRef(null).endCell(),
    );
    const pool = b.send(burn, POOL, op(0x7bdd97de).storeCoins(50).storeAddress(at(U)).storeAddress(at(U)).endCell());
    log(pool, op(OP.withdrawalSucceeded).storeCoins(11).storeCoins(22).storeCoins(50).endCell());
    const tonPayout = b.send(pool, TON_VAULT, payoutInternal(11n));
    b.send(tonPayout, U, op(OP.payout).endCell());
    const jettonPayout = b.send(pool, JETTON_VAULT, payoutInternal(22n));
    const t = b.send(jettonPayout, VAULT_WALLET, jettonTransferBody(22n, U, U, null));
    b.send(t, USER_WALLET, internalTransferBody(22n, JETTON_VAULT, U, null));
    const [w] = byType(b.classify(root, wallets), 'dex_withdraw_liquidity');
    // The payouts come in toncenter's order (by message hash); the amounts in the log's.
    const tonFirst = (tonPayout.tx.inMsg?.hash ?? '') < (jettonPayout.tx.inMsg?.hash ?? '');
    const sides = [
      { asset: null, wallet: U },
      { asset: MASTER, wallet: USER_WALLET },
    ];
    const [s1, s2] = tonFirst ? sides : [sides[1]!, sides[0]!];
    expect(w).toMatchObject({
      success: true,
      source: U,
      sourceSecondary: LP_WALLET,
      destination: POOL,
      asset: POOL,
      details: {
        dex: 'coffee',
        pool: POOL,
        destination_liquidity: POOL,
        lp_tokens_burnt: '50',
        amount_1: '11',
        amount_2: '22',
        asset_1: s1!.asset,
        user_jetton_wallet_1: s1!.wallet,
        asset_2: s2!.asset,
        user_jetton_wallet_2: s2!.wallet,
        is_refund: false,
      },
    });
    expect(w!.txHashes).toHaveLength(b.nodes.length);
  });
});
