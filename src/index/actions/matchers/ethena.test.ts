// Ethena staking on hand-built traces (the mainnet ones run in test/index/actions-mainnet.test.ts): a USDe deposit
// minting tsUSDe, the same flow with another jetton staying plain transfers, and an unstaking request.
import { Address, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { ContractInfo } from '../types.ts';
import { ETHENA_OP } from './ethena.ts';
import { internalTransferBody, jettonTransferBody, notifyBody } from './jetton-bodies.test-util.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const USDE = '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC';
const TSUSDE = '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D';
const USER = addr('user');
const STAKING = addr('staking');
const USER_USDE = addr('user usde wallet');
const STAKING_USDE = addr('staking usde wallet');
const USER_TSUSDE = addr('user tsusde wallet');

/** mint#642b7d07 to `to`, its master_msg an internal_transfer of `amount`. */
const mintBody = (to: string, amount: bigint): Cell =>
  beginCell()
    .storeUint(0x642b7d07, 32)
    .storeUint(1, 64)
    .storeAddress(Address.parse(to))
    .storeCoins(50_000_000n)
    .storeRef(internalTransferBody(amount, STAKING, to, null))
    .endCell();

function depositTrace(jetton: string) {
  const b = new TraceBuilder();
  const root = b.external(USER);
  const t = b.send(root, USER_USDE, jettonTransferBody(1000n, STAKING, USER, null));
  const it = b.send(t, STAKING_USDE, internalTransferBody(1000n, USER, USER, null));
  const notified = b.send(it, STAKING, notifyBody(1000n, USER, null));
  const mint = b.send(notified, TSUSDE, mintBody(USER, 800n));
  b.send(mint, USER_TSUSDE, internalTransferBody(800n, STAKING, USER, null));
  const interfaces: Record<string, ContractInfo> = {
    [USER_USDE]: { jettonWallet: { jetton, owner: USER } },
    [STAKING_USDE]: { jettonWallet: { jetton, owner: STAKING } },
    [USER_TSUSDE]: { jettonWallet: { jetton: TSUSDE, owner: USER } },
  };
  return b.classify(root, interfaces);
}

describe('ethena matcher', () => {
  it('a deposit: USDe to the staking contract, tsUSDe minted to the holder', () => {
    const a = byType(depositTrace(USDE), 'stake_deposit')[0];
    expect(a).toMatchObject({
      success: true,
      source: USER,
      sourceSecondary: USER_USDE,
      destination: STAKING,
      asset: TSUSDE,
      asset2: USDE,
      amount: 1000n,
      details: { provider: 'ethena', stake_holder: USER, pool: STAKING, tokens_minted: '800', source_asset: USDE },
    });
  });

  it('the same flow with another jetton is no stake', () => {
    const actions = depositTrace(addr('other jetton'));
    expect(byType(actions, 'stake_deposit')).toEqual([]);
    expect(byType(actions, 'jetton_transfer')).toHaveLength(1);
  });

  it('an unstaking request: tsUSDe to the master, the staking contract locks the amount for the holder', () => {
    const b = new TraceBuilder();
    const root = b.external(USER);
    const t = b.send(root, USER_TSUSDE, jettonTransferBody(500n, STAKING, USER, null));
    const it = b.send(t, TSUSDE, internalTransferBody(500n, USER, USER, null));
    const notified = b.send(it, STAKING, notifyBody(500n, USER, null));
    const mint = b.send(notified, TSUSDE, mintBody(USER, 600n));
    const locked = beginCell().storeUint(ETHENA_OP.timelockedTransfer, 32).storeUint(1, 64).storeCoins(600n);
    b.send(mint, USER_TSUSDE, locked.endCell());
    const interfaces = { [USER_TSUSDE]: { jettonWallet: { jetton: TSUSDE, owner: USER } } };
    const a = byType(b.classify(root, interfaces), 'stake_withdrawal_request')[0];
    expect(a).toMatchObject({
      source: USER,
      sourceSecondary: USER_TSUSDE,
      destination: STAKING,
      asset: TSUSDE,
      amount: 500n,
      details: { provider: 'ethena', stake_holder: USER, pool: STAKING, tokens_minted: '600' },
    });
  });
});
