// DeDust liquidity deposits over hand-built traces (the mainnet ones run in test/index/actions-mainnet.test.ts): both
// assets deposited in one trace make one action, and no deposit is merged once a deposit contract got more than two.
// Bodies are written per the TL-B in dedust-liquidity.ts's header.
import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { ContractInfo, TraceNode } from '../types.ts';
import { DEDUST_LIQUIDITY_OP as OP } from './dedust-liquidity.ts';
import { internalTransferBody, jettonTransferBody, notifyBody } from './jetton-bodies.test-util.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const U = addr('user');
const NATIVE_VAULT = addr('native vault');
const VAULT_A = addr('vault a');
const FACTORY = addr('factory');
const DEPOSIT = addr('deposit contract');
const POOL = addr('pool');
const A = addr('jetton a');
const UA = addr('user wallet a');
const VA = addr('vault wallet a');
const LP = addr('user lp wallet');
const at = (a: string) => Address.parse(a);

const wallets: Record<string, ContractInfo> = {
  [UA]: { jettonWallet: { jetton: A, owner: U } },
  [VA]: { jettonWallet: { jetton: A, owner: VAULT_A } },
  [LP]: { jettonWallet: { jetton: POOL, owner: U } },
};

/** Asset: native$0000 | jetton$0001 workchain_id:int8 address:uint256; pool_params: volatile$0, TON and A. */
const poolParams = () =>
  beginCell().storeUint(0, 1).storeUint(0, 4).storeUint(1, 4).storeInt(0, 8).storeBuffer(at(A).hash);
const op = (code: number) => beginCell().storeUint(code, 32).storeUint(1, 64).endCell();

/** TON to the native vault: deposit_liquidity#d55e4686 aiming at 10 TON-units and 20 A-units. */
const depositTon = (amount: bigint) =>
  beginCell()
    .storeUint(OP.depositNative, 32)
    .storeUint(1, 64)
    .storeCoins(amount)
    .storeBuilder(poolParams())
    .storeRef(beginCell().storeCoins(0).storeCoins(10).storeCoins(20).endCell())
    .storeMaybeRef(null)
    .storeMaybeRef(null)
    .endCell();

/** The jetton transfer's payload: deposit_liquidity#40e108d6 with the same targets. */
const depositJetton = () =>
  beginCell()
    .storeUint(OP.depositJetton, 32)
    .storeBuilder(poolParams())
    .storeCoins(0)
    .storeCoins(10)
    .storeCoins(20)
    .storeMaybeRef(null)
    .storeMaybeRef(null)
    .endCell();

/** The deposit contract to the pool: deposit_liquidity#b56b9598 with its balances. */
const depositToPool = () =>
  beginCell()
    .storeUint(OP.depositToPool, 32)
    .storeUint(1, 64)
    .storeRef(beginCell().endCell())
    .storeAddress(at(U))
    .storeCoins(0)
    .storeRef(
      beginCell()
        .storeUint(0, 4)
        .storeCoins(10)
        .storeUint(1, 4)
        .storeInt(0, 8)
        .storeBuffer(at(A).hash)
        .storeCoins(20)
        .endCell(),
    )
    .storeMaybeRef(null)
    .storeMaybeRef(null)
    .endCell();

/** The vault asks the factory, which deploys and tops up the deposit contract; returns the top-up. */
function factory(b: TraceBuilder, vault: TraceNode): TraceNode {
  const f = b.send(vault, FACTORY, op(OP.askFactory));
  b.send(f, DEPOSIT, op(OP.deploy));
  return b.send(f, DEPOSIT, op(OP.topUp));
}

function tonDeposit(b: TraceBuilder, root: TraceNode, amount: bigint): TraceNode {
  return factory(b, b.send(root, NATIVE_VAULT, depositTon(amount)));
}

function jettonDeposit(b: TraceBuilder, root: TraceNode, amount: bigint): TraceNode {
  const payload = depositJetton();
  const t = b.send(root, UA, jettonTransferBody(amount, VAULT_A, U, payload));
  const i = b.send(t, VA, internalTransferBody(amount, U, U, payload));
  return factory(b, b.send(i, VAULT_A, notifyBody(amount, U, payload)));
}

/** The deposit into the pool: LP minted, the contract destroyed, TON back through the native vault (7 coins). */
function intoPool(b: TraceBuilder, topUp: TraceNode) {
  const pool = b.send(topUp, POOL, depositToPool());
  b.send(pool, LP, internalTransferBody(30n, POOL, U, null));
  const destroy = b.send(pool, DEPOSIT, op(OP.destroy));
  b.send(destroy, U, null);
  const vault = b.send(destroy, NATIVE_VAULT, op(OP.returnExcess));
  b.send(vault, U, op(OP.payout), { value: 7n });
}

describe('DeDust liquidity deposits', () => {
  it('both assets in one trace: one action, the first deposit as asset 1, the LP minted, the vault excess', () => {
    const b = new TraceBuilder();
    const root = b.external(U);
    tonDeposit(b, root, 10n);
    intoPool(b, jettonDeposit(b, root, 20n));
    const actions = byType(b.classify(root, wallets), 'dex_deposit_liquidity');
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      success: true,
      source: U,
      destination: POOL,
      destinationSecondary: DEPOSIT,
      details: {
        dex: 'dedust',
        pool: POOL,
        destination_liquidity: DEPOSIT,
        asset_1: null,
        amount_1: '10',
        user_jetton_wallet_1: null,
        asset_2: A,
        amount_2: '20',
        user_jetton_wallet_2: UA,
        lp_tokens_minted: '30',
        target_asset_1: null,
        target_amount_1: '10',
        target_asset_2: A,
        target_amount_2: '20',
        vault_excesses: [{ asset: null, amount: '7' }],
      },
    });
    // The whole trace is the deposit.
    expect(actions[0]!.txHashes).toHaveLength(b.nodes.length);
  });

  it('a deposit contract with three deposits: no merging, each deposit its own action', () => {
    const b = new TraceBuilder();
    const root = b.external(U);
    tonDeposit(b, root, 10n);
    tonDeposit(b, root, 5n);
    intoPool(b, jettonDeposit(b, root, 20n));
    const actions = byType(b.classify(root, wallets), 'dex_deposit_liquidity');
    expect(actions.map((a) => [a.destination, a.details.asset_1, a.details.amount_1, a.details.asset_2])).toEqual([
      [null, null, '10', null],
      [null, null, '5', null],
      [POOL, A, '20', null],
    ]);
  });

  it('a first deposit alone: no pool and no LP, the request targets', () => {
    const b = new TraceBuilder();
    const root = b.external(U);
    jettonDeposit(b, root, 20n);
    const [a] = byType(b.classify(root, wallets), 'dex_deposit_liquidity');
    expect(a).toMatchObject({
      destination: null,
      destinationSecondary: DEPOSIT,
      details: { asset_1: A, amount_1: '20', user_jetton_wallet_1: UA, lp_tokens_minted: null, vault_excesses: [] },
    });
  });
});
