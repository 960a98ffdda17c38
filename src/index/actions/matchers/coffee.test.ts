// swap.coffee operations on hand-built traces (the mainnet ones run in test/index/actions-mainnet.test.ts): vault
// creation, TON held by MEV protection, a rewards claim paid by a jetton transfer, and a claim whose payout is not a
// known jetton wallet's transfer staying what it is.
import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { COFFEE_OP } from './coffee.ts';
import { internalTransferBody, jettonTransferBody } from './jetton-bodies.test-util.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const USER = addr('user');
const FACTORY = addr('factory');
const VAULT = addr('vault');
const MASTER = addr('master');
const POOL = addr('pool');
const POOL_WALLET = addr('pool wallet');
const USER_WALLET = addr('user wallet');

const raw = (a: string) => Address.parse(a);

describe('coffee matcher', () => {
  it('create_vault: the deployed vault and the asset the request names', () => {
    const b = new TraceBuilder();
    const root = b.external(USER);
    const asset = beginCell().storeUint(1, 2).storeInt(0, 8).storeBuffer(raw(MASTER).hash);
    const req = b.send(
      root,
      FACTORY,
      beginCell().storeUint(COFFEE_OP.createVault, 32).storeUint(1n, 64).storeBuilder(asset).endCell(),
      { value: 50_000_000n },
    );
    b.send(req, VAULT, beginCell().storeUint(COFFEE_OP.vaultInit, 32).storeUint(1n, 64).endCell(), {
      origStatus: 'nonexist',
    });
    const a = byType(b.classify(root, {}), 'coffee_create_vault')[0];
    expect(a).toMatchObject({
      success: true,
      source: USER,
      destination: VAULT,
      asset: MASTER,
      details: { source: USER, vault: VAULT, asset: MASTER, value: '50000000' },
    });
  });

  it('mev protection holding TON: the coins the message carried', () => {
    const b = new TraceBuilder();
    const root = b.external(USER);
    b.send(root, POOL, beginCell().storeUint(COFFEE_OP.mevHoldTon, 32).storeUint(3n, 64).endCell(), { value: 15n });
    expect(byType(b.classify(root, {}), 'coffee_mev_protect_hold_funds')[0]).toMatchObject({
      source: USER,
      destination: POOL,
      asset: null,
      amount: 15n,
      details: { mev_contract: POOL, amount: '15' },
    });
  });

  it('staking rewards claim: the pool pays with a jetton transfer of a known wallet', () => {
    const b = new TraceBuilder();
    const root = b.external(addr('staking item'));
    const claim = b.send(root, POOL, beginCell().storeUint(COFFEE_OP.stakingClaim, 32).storeUint(4n, 64).endCell());
    const t = b.send(claim, POOL_WALLET, jettonTransferBody(77n, USER, POOL, null));
    b.send(t, USER_WALLET, internalTransferBody(77n, POOL, POOL, null));
    const interfaces = {
      [POOL_WALLET]: { jettonWallet: { jetton: MASTER, owner: POOL } },
      [USER_WALLET]: { jettonWallet: { jetton: MASTER, owner: USER } },
    };
    const a = byType(b.classify(root, interfaces), 'coffee_staking_claim_rewards')[0];
    expect(a).toMatchObject({
      source: POOL,
      sourceSecondary: POOL_WALLET,
      destination: USER,
      destinationSecondary: USER_WALLET,
      asset: MASTER,
      amount: 77n,
    });
    // Without the wallets known there is no jetton transfer, so no claim either.
    expect(byType(b.classify(root, {}), 'coffee_staking_claim_rewards')).toEqual([]);
  });
});
