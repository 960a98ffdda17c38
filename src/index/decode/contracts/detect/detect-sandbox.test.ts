// Detection of contracts the vectors lack, deployed here: a jetton deployed as masterchain libraries (the USDT
// shape), tonweb's vesting wallet (the reference vesting code), and our devnet's multisig v2 with an order created
// by a real new_order message in @ton/sandbox. Storage and message layouts are built from contracts.md, so the
// expectations are what we put in and what the contracts' own getters say, never our decoder's output.
import { createRequire } from 'node:module';
import {
  type Address,
  beginCell,
  Cell,
  contractAddress,
  Dictionary,
  internal,
  storeMessageRelaxed,
  toNano,
} from '@ton/core';
import { Blockchain, createShardAccount } from '@ton/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JETTON_MINTER_CODE_BOC } from '../../../../devnet/contracts/jetton-minter.compiled.ts';
import { JETTON_WALLET_CODE_BOC } from '../../../../devnet/contracts/jetton-wallet.compiled.ts';
import { MULTISIG_CODE_BOC } from '../../../../devnet/contracts/multisig.compiled.ts';
import { MULTISIG_ORDER_CODE_BOC } from '../../../../devnet/contracts/multisig-order.compiled.ts';
import { createTvmRunner, type TvmRunnerHandle } from '../../../../tvm/index.ts';
import type { AccountInput, Detected } from '../types.ts';
import { countingRunner, libraryCell, testContext } from './detect.test-util.ts';
import { detectAccounts } from './index.ts';

const NOW = 1_760_000_000;

function only<K extends Detected['kind']>(found: Detected[], kind: K) {
  expect(found.map((d) => d.kind)).toEqual([kind]);
  return found[0] as Extract<Detected, { kind: K }>;
}

/** An active account of the sandbox as the decoders' input. */
async function stateOf(bc: Blockchain, address: Address): Promise<AccountInput> {
  const c = await bc.getContract(address);
  const st = c.accountState;
  if (st?.type !== 'active') throw new Error(`${address.toRawString()} is ${st?.type ?? 'missing'}`);
  return {
    address,
    code: st.state.code!,
    data: st.state.data!,
    balance: c.balance,
    lastTransLt: c.lastTransactionLt,
  };
}

function raw(a: readonly Address[]): string[] {
  return a.map((x) => x.toRawString());
}

describe('detectAccounts on contracts deployed here', () => {
  let tvm: TvmRunnerHandle;
  beforeAll(async () => {
    tvm = await createTvmRunner({ threads: 1 });
  });
  afterAll(async () => {
    await tvm?.close();
  });

  it('a jetton whose master and wallet codes are library cells: libraries fetched on demand, retried once', async () => {
    const minterCode = Cell.fromBase64(JETTON_MINTER_CODE_BOC);
    const walletCode = Cell.fromBase64(JETTON_WALLET_CODE_BOC);
    const minterLib = libraryCell(minterCode);
    const walletLib = libraryCell(walletCode);
    const owner = contractAddress(0, { code: Cell.EMPTY, data: beginCell().storeUint(7, 32).endCell() });
    const admin = contractAddress(0, { code: Cell.EMPTY, data: beginCell().storeUint(8, 32).endCell() });
    const content = beginCell().storeUint(1, 8).storeStringTail('https://example.org/jetton.json').endCell();
    // v1 minter (contracts.md §2.1): total_supply:Coins admin:MsgAddress content:^Cell wallet_code:^Cell.
    const minterData = beginCell()
      .storeCoins(1000n)
      .storeAddress(admin)
      .storeRef(content)
      .storeRef(walletLib)
      .endCell();
    const minter: AccountInput = {
      address: contractAddress(0, { code: minterLib, data: minterData }),
      code: minterLib,
      data: minterData,
      balance: toNano('1'),
      lastTransLt: 10n,
    };
    // v1 wallet: balance:Coins owner master wallet_code:^Cell; its address from the StateInit with balance 0 (§2.5).
    const walletData = (balance: bigint) =>
      beginCell().storeCoins(balance).storeAddress(owner).storeAddress(minter.address).storeRef(walletLib).endCell();
    const wallet: AccountInput = {
      address: contractAddress(0, { code: walletLib, data: walletData(0n) }),
      code: walletLib,
      data: walletData(1000n),
      balance: toNano('0.05'),
      lastTransLt: 11n,
    };

    const counting = countingRunner(tvm);
    const ctx = testContext({ tvm: counting, accounts: [minter], libraries: [minterCode, walletCode] });
    const w = only(await detectAccounts([wallet], ctx), 'jetton_wallet');
    expect(w.balance).toBe(1000n);
    expect(w.owner.equals(owner)).toBe(true);
    expect(w.jetton.equals(minter.address)).toBe(true);
    expect(w.codeHash.equals(walletLib.hash())).toBe(true);
    // The wallet's library for its method ids; the master's when get_wallet_address missed it.
    expect(ctx.libraryAsks).toEqual([walletCode.hash().toString('hex'), minterCode.hash().toString('hex')]);
    // get_wallet_data, then get_wallet_address twice (missing library, retry).
    expect(counting.runs).toBe(3);

    const m = only(await detectAccounts([minter], ctx), 'jetton_master');
    expect(m.jettonWalletCodeHash.equals(walletLib.hash())).toBe(true);
    expect(m.content).toEqual({ uri: 'https://example.org/jetton.json' });
    expect(m.admin?.equals(admin)).toBe(true);

    // No library source: the codes cannot be read, nothing is detected.
    const bare = testContext({ tvm, accounts: [minter] });
    expect(await detectAccounts([wallet, minter], bare)).toEqual([]);
  });

  it("tonweb's vesting wallet: empty whitelist (returned as null) and after add_whitelist", async () => {
    const tonweb = createRequire(import.meta.url)('tonweb') as {
      LockupWallets: { VestingWalletV1: { codeHex: string } };
    };
    const code = Cell.fromHex(tonweb.LockupWallets.VestingWalletV1.codeHex);
    expect(code.hash().toString('hex')).toBe('b48b531abec3b714638291f7d77ed6dc9f6a2729efca20477137374d4ae8b590');
    const bc = await Blockchain.create();
    bc.now = NOW;
    const sender = await bc.treasury('vesting sender');
    const owner = await bc.treasury('vesting owner');
    const params = {
      start: NOW - 1000,
      total: 3600 * 24 * 360,
      unlock: 3600 * 24 * 30,
      cliff: 3600 * 24 * 60,
      amount: toNano('1000'),
    };
    // Storage (contracts.md §7.1): seqno subwallet_id public_key whitelist:(HashmapE 264 int1) params:^[…].
    const data = beginCell()
      .storeUint(0, 32)
      .storeUint(0x10c, 32)
      .storeUint(123n, 256)
      .storeBit(0)
      .storeRef(
        beginCell()
          .storeUint(params.start, 64)
          .storeUint(params.total, 32)
          .storeUint(params.unlock, 32)
          .storeUint(params.cliff, 32)
          .storeCoins(params.amount)
          .storeAddress(sender.address)
          .storeAddress(owner.address),
      )
      .endCell();
    const address = contractAddress(0, { code, data });
    await bc.setShardAccount(address, createShardAccount({ address, code, data, balance: toNano('1000') }));

    // The quirk the decoder works around: an empty whitelist comes back as null, not a cell.
    const getter = await (await bc.getContract(address)).get('get_vesting_data');
    expect(getter.stackReader.skip(7).readCellOpt()).toBeNull();

    const ctx = testContext({ tvm, now: NOW });
    const before = only(await detectAccounts([await stateOf(bc, address)], ctx), 'vesting');
    expect(before).toMatchObject({
      startTime: params.start,
      totalDuration: params.total,
      unlockPeriod: params.unlock,
      cliffDuration: params.cliff,
      totalAmount: params.amount,
      whitelist: [],
    });
    expect(before.sender.equals(sender.address)).toBe(true);
    expect(before.owner.equals(owner.address)).toBe(true);

    // add_whitelist#7258a69b query_id addr [^(addr …)] from the vesting sender (§7.2).
    const a = await bc.treasury('whitelisted a');
    const b = await bc.treasury('whitelisted b');
    const body = beginCell()
      .storeUint(0x7258a69b, 32)
      .storeUint(1, 64)
      .storeAddress(a.address)
      .storeRef(beginCell().storeAddress(b.address))
      .endCell();
    const r = await sender.send({ to: address, value: toNano('1'), body });
    expect(r.transactions.some((t) => t.inMessage?.info.dest?.toString() === address.toString())).toBe(true);
    const after = only(await detectAccounts([await stateOf(bc, address)], ctx), 'vesting');
    expect(raw(after.whitelist).sort()).toEqual(raw([a.address, b.address]).sort());
    expect(after.totalAmount).toBe(params.amount);
  });

  it('multisig v2 (devnet code) and an order created by new_order; a misplaced order is not detected', async () => {
    const multisigCode = Cell.fromBase64(MULTISIG_CODE_BOC);
    const orderCode = Cell.fromBase64(MULTISIG_ORDER_CODE_BOC);
    const bc = await Blockchain.create();
    bc.now = NOW;
    const signers = await Promise.all(['s0', 's1', 's2'].map((n) => bc.treasury(n)));
    const proposer = await bc.treasury('proposer');
    const members = (list: readonly Address[]) => {
      const d = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
      for (const [i, x] of list.entries()) d.set(i, x);
      return d;
    };
    // Storage (contracts.md §6.4): next_order_seqno:uint256 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt)
    // signers_num:uint8 proposers:(HashmapE 8 MsgAddressInt) allow_arbitrary_order_seqno:Bool.
    const data = beginCell()
      .storeUint(0, 256)
      .storeUint(2, 8)
      .storeRef(beginCell().storeDictDirect(members(signers.map((s) => s.address))))
      .storeUint(3, 8)
      .storeDict(members([proposer.address]))
      .storeBit(0)
      .endCell();
    const ms = contractAddress(0, { code: multisigCode, data });
    await bc.setShardAccount(ms, createShardAccount({ address: ms, code: multisigCode, data, balance: toNano('10') }));

    const ctx = testContext({ tvm, now: NOW });
    const m0 = only(await detectAccounts([await stateOf(bc, ms)], ctx), 'multisig');
    expect(m0.nextOrderSeqno).toBe(0n);
    expect(m0.threshold).toBe(2n);
    expect(raw(m0.signers)).toEqual(raw(signers.map((s) => s.address)));
    expect(raw(m0.proposers)).toEqual(raw([proposer.address]));

    // new_order#f718510f query_id order_seqno:uint256 signer:(## 1) index:uint8 expiration_date:uint48 order:^Order,
    // Order = Hashmap 8 ^(send_message#f1381e5b mode:uint8 message:^MessageRelaxed) (§6.2), from signer 1.
    const action = beginCell()
      .storeUint(0xf1381e5b, 32)
      .storeUint(3, 8)
      .storeRef(beginCell().store(storeMessageRelaxed(internal({ to: signers[2]!.address, value: toNano('1') }))))
      .endCell();
    const order = beginCell()
      .storeDictDirect(Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell()).set(0, action))
      .endCell();
    const expiration = NOW + 3600;
    const body = beginCell()
      .storeUint(0xf718510f, 32)
      .storeUint(5, 64)
      .storeUint(0, 256)
      .storeBit(1)
      .storeUint(1, 8)
      .storeUint(expiration, 48)
      .storeRef(order)
      .endCell();
    await signers[1]!.send({ to: ms, value: toNano('2'), body });

    // Order address (§6.4): hash(StateInit{order code, multisig_address ‖ order_seqno:uint256}).
    const orderAddress = contractAddress(0, {
      code: orderCode,
      data: beginCell().storeAddress(ms).storeUint(0, 256).endCell(),
    });
    const multisigNow = await stateOf(bc, ms);
    const orderNow = await stateOf(bc, orderAddress);
    const octx = testContext({ tvm, now: NOW, accounts: [multisigNow] });
    const found = await detectAccounts([orderNow, multisigNow], octx);
    expect(found.map((d) => d.kind)).toEqual(['multisig_order', 'multisig']);
    const o = found[0] as Extract<Detected, { kind: 'multisig_order' }>;
    expect(o.multisig.equals(ms)).toBe(true);
    expect(o.orderSeqno).toBe(0n);
    expect(o.threshold).toBe(2n);
    expect(o.sentForExecution).toBe(false);
    // The proposing signer approves on init: signer 1 → mask bit 1.
    expect(o.approvalsMask).toBe(2n);
    expect(o.approvalsNum).toBe(1n);
    expect(o.expirationDate).toBe(BigInt(expiration));
    expect(o.order.hash().equals(order.hash())).toBe(true);
    expect(raw(o.signers)).toEqual(raw(signers.map((s) => s.address)));
    expect((found[1] as Extract<Detected, { kind: 'multisig' }>).nextOrderSeqno).toBe(1n);

    // The same order state at an address the multisig does not derive: the cross-check rejects it.
    const misplaced = { ...orderNow, address: contractAddress(0, { code: orderCode, data: Cell.EMPTY }) };
    expect(await detectAccounts([misplaced], octx)).toEqual([]);
    // An order before its init (only the StateInit data): get_order_data answers nulls, not detected.
    const uninit = beginCell().storeAddress(ms).storeUint(9, 256).endCell();
    const pending = {
      address: contractAddress(0, { code: orderCode, data: uninit }),
      code: orderCode,
      data: uninit,
      balance: toNano('1'),
      lastTransLt: 1n,
    };
    expect(await detectAccounts([pending], octx)).toEqual([]);
  });
});
