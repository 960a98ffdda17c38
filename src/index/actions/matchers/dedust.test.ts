// DeDust swaps over hand-built traces whose bodies are written here from docs.dedust.io's TL-B schemes (vault, pool
// messages and the pool's swap log). Expected details are what those bodies say, in toncenter's keys.
import { createHash } from 'node:crypto';
import { Address, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { Action, ContractInfo, TraceNode } from '../types.ts';
import { internalTransferBody, jettonTransferBody, notifyBody } from './jetton-bodies.test-util.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const U = addr('user');
const NV = addr('native-vault');
const JVA = addr('jetton-vault-a');
const JVB = addr('jetton-vault-b');
const P = addr('pool');
const P2 = addr('pool-2');
const A = addr('jetton-a');
const B = addr('jetton-b');
const UA = addr('user-wallet-a');
const UB = addr('user-wallet-b');
const VA = addr('vault-wallet-a');
const VB = addr('vault-wallet-b');
const at = (a: string) => Address.parse(a);

const wallets: Record<string, ContractInfo> = {
  [UA]: { jettonWallet: { jetton: A, owner: U } },
  [UB]: { jettonWallet: { jetton: B, owner: U } },
  [VA]: { jettonWallet: { jetton: A, owner: JVA } },
  [VB]: { jettonWallet: { jetton: B, owner: JVB } },
};

const transfer = (amount: bigint, to: string, payload: Cell | null) => jettonTransferBody(amount, to, U, payload);
const internal = (amount: bigint, from: string, payload: Cell | null) => internalTransferBody(amount, from, U, payload);
const notify = notifyBody;

/** SwapStep: pool_addr kind:given_in$0 limit:Coins next:(Maybe ^SwapStep). */
const step = (pool: string, next: Cell | null = null) =>
  beginCell().storeAddress(at(pool)).storeUint(0, 1).storeCoins(1).storeMaybeRef(next);
/** SwapParams: deadline recipient_addr referral_addr fulfill_payload reject_payload. */
const params = () =>
  beginCell().storeUint(0, 32).storeAddress(null).storeAddress(null).storeMaybeRef(null).storeMaybeRef(null).endCell();
/** swap#ea06185d query_id amount _:SwapStep swap_params:^SwapParams (TON to the native vault). */
const swapNative = (amount: bigint, pool: string) =>
  beginCell()
    .storeUint(0xea06185d, 32)
    .storeUint(1, 64)
    .storeCoins(amount)
    .storeBuilder(step(pool))
    .storeRef(params())
    .endCell();
/** swap#e3a0d482 _:SwapStep swap_params:^SwapParams (a jetton transfer's forward payload). */
const swapJetton = (pool: string, next: Cell | null = null) =>
  beginCell().storeUint(0xe3a0d482, 32).storeBuilder(step(pool, next)).storeRef(params()).endCell();
const opOnly = (op: number) => beginCell().storeUint(op, 32).storeUint(1, 64).endCell();
/** payout_from_pool#ad4eb6f5 query_id proof:^Cell amount:Coins recipient_addr … */
const payoutFromPool = (amount: bigint, to: string) =>
  beginCell()
    .storeUint(0xad4eb6f5, 32)
    .storeUint(1, 64)
    .storeRef(beginCell().endCell())
    .storeCoins(amount)
    .storeAddress(at(to))
    .storeMaybeRef(null)
    .endCell();
const payout = () => beginCell().storeUint(0x474f86cf, 32).storeUint(1, 64).storeMaybeRef(null).endCell();
/** Asset: native$0000 | jetton$0001 workchain_id:int8 address:uint256. */
const asset = (jetton: string | null) => {
  if (!jetton) return beginCell().storeUint(0, 4);
  const a = at(jetton);
  return beginCell().storeUint(1, 4).storeInt(a.workChain, 8).storeBuffer(a.hash);
};
/** The pool's log: swap#9c610de3 asset_in asset_out amount_in amount_out ^[sender referral reserve0 reserve1]. */
const swapLog = (assetIn: string | null, assetOut: string | null, amountIn: bigint, amountOut: bigint) =>
  beginCell()
    .storeUint(0x9c610de3, 32)
    .storeBuilder(asset(assetIn))
    .storeBuilder(asset(assetOut))
    .storeCoins(amountIn)
    .storeCoins(amountOut)
    .storeRef(beginCell().storeAddress(at(U)).storeAddress(null).storeCoins(1).storeCoins(1).endCell())
    .endCell();

/** `pool` emits its swap log (an external-out message). */
function log(pool: TraceNode, body: Cell) {
  pool.tx.outMsgs.push({
    hash: createHash('sha256').update(`log:${pool.tx.hash}`).digest('base64'),
    source: pool.tx.account,
    destination: null,
    value: null,
    extraCurrencies: {},
    opcode: 0x9c610de3,
    bounce: false,
    bounced: false,
    createdLt: pool.tx.lt + 1n,
    body,
  });
}

/** The jetton vault `vault` pays `amount` out of its wallet to U's wallet. */
function vaultPays(b: TraceBuilder, vault: TraceNode, vaultWallet: string, userWallet: string, amount: bigint) {
  const t = b.send(vault, vaultWallet, transfer(amount, U, null));
  const i = b.send(t, userWallet, internal(amount, vault.tx.account, null));
  const n = b.send(i, U, notify(amount, vault.tx.account, null));
  return [t, i, n];
}

/** U sends `amount` of A to the A vault with the DeDust swap payload; the vault's wallet notifies it. */
function jettonIn(b: TraceBuilder, payload: Cell, amount = 1000n) {
  const root = b.external(U);
  const t = b.send(root, UA, transfer(amount, JVA, payload));
  const i = b.send(t, VA, internal(amount, U, payload));
  const n = b.send(i, JVA, notify(amount, U, payload));
  return { root, legIn: [t, i, n], vault: n };
}

const only = (actions: Action[]) => {
  const list = byType(actions, 'jetton_swap');
  expect(list).toHaveLength(1);
  return list[0]!;
};

const transferOf = (
  assetIn: string | null,
  source: string,
  destination: string,
  sjw: string | null,
  djw: string | null,
  amount: bigint,
) => ({
  asset: assetIn,
  source,
  destination,
  source_jetton_wallet: sjw,
  destination_jetton_wallet: djw,
  amount: amount.toString(),
});

describe('DeDust jetton_swap', () => {
  it('TON -> jetton: the native vault, the pool that logged the swap, the B vault paying out', () => {
    const b = new TraceBuilder();
    const root = b.external(U);
    const vault = b.send(root, NV, swapNative(5_000_000_000n, P), { value: 5_200_000_000n });
    const pool = b.send(vault, P, opOnly(0x61ee542d));
    log(pool, swapLog(null, B, 5_000_000_000n, 700n));
    const pay = b.send(pool, JVB, payoutFromPool(700n, U));
    const out = vaultPays(b, pay, VB, UB, 700n);
    const actions = b.classify(root, wallets);
    expect(actions.map((a) => a.type)).toEqual(['jetton_swap']);
    const a = actions[0]!;
    expect(a.success).toBe(true);
    expect(a.details).toEqual({
      dex: 'dedust',
      sender: U,
      asset_in: null,
      asset_out: B,
      dex_incoming_transfer: transferOf(null, U, NV, null, null, 5_000_000_000n),
      dex_outgoing_transfer: transferOf(B, JVB, U, VB, UB, 700n),
      peer_swaps: [],
    });
    expect(a.txHashes).toEqual([root, vault, pool, pay, ...out].map((n) => n.tx.hash));
    expect([a.source, a.sourceSecondary, a.destination, a.destinationSecondary, a.asset, a.asset2]).toEqual([
      U,
      null,
      U,
      UB,
      null,
      B,
    ]);
  });

  it('jetton -> TON: the A vault, the pool, the native vault paying out with payout#474f86cf', () => {
    const b = new TraceBuilder();
    const { root, legIn, vault } = jettonIn(b, swapJetton(P));
    const pool = b.send(vault, P, opOnly(0x61ee542d));
    log(pool, swapLog(A, null, 1000n, 3_000_000_000n));
    const pay = b.send(pool, NV, payoutFromPool(3_000_000_000n, U));
    const ton = b.send(pay, U, payout(), { value: 3_000_000_000n });
    const a = only(b.classify(root, wallets));
    expect(a.success).toBe(true);
    expect(a.details).toEqual({
      dex: 'dedust',
      sender: U,
      asset_in: A,
      asset_out: null,
      dex_incoming_transfer: transferOf(A, U, JVA, UA, VA, 1000n),
      dex_outgoing_transfer: transferOf(null, NV, U, null, null, 3_000_000_000n),
      peer_swaps: [],
    });
    expect(a.txHashes).toEqual([root, ...legIn, pool, pay, ton].map((n) => n.tx.hash));
  });

  it('jetton -> jetton through two pools (swap_peer): peer_swaps are the logged swaps', () => {
    const b = new TraceBuilder();
    const { root, vault } = jettonIn(b, swapJetton(P, step(P2).endCell()));
    const pool = b.send(vault, P, opOnly(0x61ee542d));
    log(pool, swapLog(A, null, 1000n, 2_000_000_000n));
    const pool2 = b.send(pool, P2, opOnly(0x72aca8aa));
    log(pool2, swapLog(null, B, 2_000_000_000n, 650n));
    const pay = b.send(pool2, JVB, payoutFromPool(650n, U));
    vaultPays(b, pay, VB, UB, 650n);
    const a = only(b.classify(root, wallets));
    expect(a.success).toBe(true);
    expect(a.details.peer_swaps).toEqual([
      { asset_in: A, amount_in: '1000', asset_out: null, amount_out: '2000000000' },
      { asset_in: null, amount_in: '2000000000', asset_out: B, amount_out: '650' },
    ]);
    expect(a.details).toMatchObject({
      asset_in: A,
      asset_out: B,
      dex_incoming_transfer: transferOf(A, U, JVA, UA, VA, 1000n),
      dex_outgoing_transfer: transferOf(B, JVB, U, VB, UB, 650n),
    });
  });

  it('rejected by the pool (no swap logged): failed, the refund is the outgoing transfer', () => {
    const b = new TraceBuilder();
    const { root, vault } = jettonIn(b, swapJetton(P));
    const pool = b.send(vault, P, opOnly(0x61ee542d));
    const pay = b.send(pool, JVA, payoutFromPool(1000n, U));
    vaultPays(b, pay, VA, UA, 1000n);
    const a = only(b.classify(root, wallets));
    expect(a.success).toBe(false);
    expect(a.details).toMatchObject({
      asset_in: A,
      asset_out: A,
      dex_incoming_transfer: transferOf(A, U, JVA, UA, VA, 1000n),
      dex_outgoing_transfer: transferOf(A, JVA, U, VA, UA, 1000n),
      peer_swaps: [],
    });
  });

  it('a transfer to a vault without the swap payload is not a swap', () => {
    const b = new TraceBuilder();
    const { root, vault } = jettonIn(b, beginCell().storeUint(0x12345678, 32).endCell());
    const pool = b.send(vault, P, opOnly(0x61ee542d));
    const pay = b.send(pool, JVA, payoutFromPool(1000n, U));
    vaultPays(b, pay, VA, UA, 1000n);
    const actions = b.classify(root, wallets);
    expect(byType(actions, 'jetton_swap')).toHaveLength(0);
    expect(byType(actions, 'jetton_transfer')).toHaveLength(2);
  });
});
