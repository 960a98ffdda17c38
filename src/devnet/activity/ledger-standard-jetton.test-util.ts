// Test-only check that what the activity's ledger claims about tonweb's jettons is what a sandbox chain shows, read
// through the contracts' own getters and the accounts' code (not through the driver's readers or derivation).
import { Address, beginCell, type TupleItem, TupleReader } from '@ton/core';
import type { Blockchain } from '@ton/sandbox';
import { expect } from 'vitest';
import type { ActivityLedger } from './types.ts';

// contracts.md §9: the codes tonweb ships.
const MINTER_CODE_HASH = 'f95ba0330b38cdf3459b1e811e5fc6fa6cfee566d7b764455c0468140365a737';
const WALLET_CODE_HASH = '4adf48135cb575adbaed476799c87ff2904269b1f949ada4d0479e9104b6f217';

async function getter(bc: Blockchain, address: Address, method: string, args: TupleItem[] = []) {
  const r = await bc.runGetMethod(address, method, args);
  expect(r.exitCode, `${method} on ${address.toRawString()}`).toBe(0);
  return new TupleReader(r.stack);
}

async function codeHash(bc: Blockchain, address: Address): Promise<string | undefined> {
  const state = (await bc.getContract(address)).account.account?.storage.state;
  return state?.type === 'active' ? state.state.code?.hash().toString('hex') : undefined;
}

/** Every tonweb jetton: supply, admin and each owner's balance as the ledger says; the balances add up to the supply. */
export async function checkStdJettonLedger(bc: Blockchain, ledger: ActivityLedger): Promise<void> {
  const jettons = ledger.standard.jettons;
  expect(jettons.length).toBeGreaterThan(0);
  // a transfer moved jettons to a second owner somewhere
  expect(jettons.some((j) => j.balances.size > 1)).toBe(true);
  for (const j of jettons) {
    expect(await codeHash(bc, j.master)).toBe(MINTER_CODE_HASH);
    const data = await getter(bc, j.master, 'get_jetton_data');
    const supply = data.readBigNumber();
    expect(supply).toBe(j.totalSupply);
    data.readBigNumber();
    expect(data.readAddress().equals(j.admin)).toBe(true);
    let sum = 0n;
    for (const [ownerRaw, balance] of j.balances) {
      const owner = beginCell().storeAddress(Address.parseRaw(ownerRaw)).endCell();
      const wallet = (await getter(bc, j.master, 'get_wallet_address', [{ type: 'slice', cell: owner }])).readAddress();
      expect(await codeHash(bc, wallet)).toBe(WALLET_CODE_HASH);
      const wd = await getter(bc, wallet, 'get_wallet_data');
      expect(wd.readBigNumber()).toBe(balance);
      expect(wd.readAddress().toRawString()).toBe(ownerRaw);
      expect(wd.readAddress().equals(j.master)).toBe(true);
      sum += balance;
    }
    expect(sum).toBe(supply);
  }
}
