// The governed jetton on @ton/sandbox: getter stacks against contracts.md §2.4 (exact entry types), the mint and
// transfer chains with their exact bodies (spec-derived parsers), the admin's forced transfer and burn through
// call_to (the master is the inbound source at the holder's wallet), status locks, the mint bounce that lowers the
// supply, the two-step admin hand-over and the refusals, with the stablecoin's exit codes.
import { Address, type Cell, contractAddress, Dictionary, toNano } from '@ton/core';
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { JETTON_OP } from '../../ton/index.ts';
import {
  getWalletAddressArgs,
  jettonTransfer,
  readJettonData,
  readJettonWalletAddress,
  readJettonWalletData,
  storeJettonBurn,
  storeJettonInternalTransfer,
  storeJettonTransfer,
  storeProvideWalletAddress,
} from './jetton.ts';
import {
  GOVERNED_JETTON_ERROR,
  GOVERNED_JETTON_OP,
  GOVERNED_STATUS,
  governedMinterStateInit,
  governedWalletAddress,
  JETTON_GOVERNED_MINTER_CODE,
  JETTON_GOVERNED_WALLET_CODE,
  readGovernedStatus,
  readNextAdminAddress,
  storeGovernedCallTo,
  storeGovernedChangeAdmin,
  storeGovernedChangeMetadataUri,
  storeGovernedClaimAdmin,
  storeGovernedMint,
  storeGovernedSetStatus,
  storeGovernedTopUp,
} from './jetton-governed.ts';
import { NO_PAYLOAD, textComment, toCell } from './payload.ts';
import { exitCode, findTx, internalIn, outMessages, runGetter, stackTypes } from './sandbox.test-util.ts';
import {
  parseExcesses,
  parseJettonBurnNotification,
  parseJettonInternalTransfer,
  parseJettonTransfer,
  parseJettonTransferNotification,
  parseTakeWalletAddress,
  parseTep64,
} from './tep-parsers.test-util.ts';

// contracts.md §0 (method ids) and §3 (TEP-64 key hashes).
const SPEC_METHOD_IDS = {
  get_jetton_data: 106029,
  get_wallet_address: 103289,
  get_next_admin_address: 78683,
  get_wallet_data: 97026,
  get_status: 100881,
};
const KEY_URI = BigInt('0x70e5d7b6a29b392f85076fe15ca2f2053c56c2338728c4e33c9e8ddb1ee827cc');
const KEY_DECIMALS = BigInt('0xee80fd2f1e03480e2282363596ee752d7bb27f50776b95086a0279189675923e');
const URI = 'https://devnet.tongate.invalid/jetton/usdx.json';
const UNIT = 10n ** 6n;

function getterIds(code: Cell): number[] {
  const s = code.beginParse();
  expect(s.loadUint(16)).toBe(0xff00);
  expect(s.loadUint(13)).toBe(0b1111010010100);
  s.loadBit();
  const dict = Dictionary.loadDirect(
    Dictionary.Keys.Int(s.loadUint(10)),
    { serialize: () => {}, parse: () => null },
    s.loadRef(),
  );
  return dict
    .keys()
    .filter((id) => id >= 0x10000)
    .sort((a, b) => a - b);
}

interface Setup {
  chain: Blockchain;
  admin: SandboxContract<TreasuryContract>;
  alice: SandboxContract<TreasuryContract>;
  bob: SandboxContract<TreasuryContract>;
  minter: Address;
}

function mintBody(to: Address, amount: bigint, queryId = 1n): Cell {
  return toCell(
    storeGovernedMint({
      queryId,
      toAddress: to,
      tonAmount: toNano('0.1'),
      masterMsg: toCell(
        storeJettonInternalTransfer({
          queryId,
          amount,
          from: null,
          responseAddress: null,
          forwardTonAmount: 0n,
          forwardPayload: NO_PAYLOAD,
        }),
      ),
    }),
  );
}

function callTo(to: Address, masterMsg: Cell, queryId = 1n): Cell {
  return toCell(storeGovernedCallTo({ queryId, toAddress: to, tonAmount: toNano('0.1'), masterMsg }));
}

function transferMsg(to: Address, amount: bigint, response: Address | null, queryId = 1n): Cell {
  return toCell(
    storeJettonTransfer(jettonTransfer({ queryId, amount, destination: to, responseDestination: response })),
  );
}

async function balanceOf(chain: Blockchain, minter: Address, owner: Address): Promise<bigint> {
  return readJettonWalletData(await runGetter(chain, governedWalletAddress(minter, owner), 'get_wallet_data')).balance;
}

async function statusOf(chain: Blockchain, minter: Address, owner: Address): Promise<number> {
  return readGovernedStatus(await runGetter(chain, governedWalletAddress(minter, owner), 'get_status'));
}

async function supplyOf(chain: Blockchain, minter: Address): Promise<bigint> {
  return readJettonData(await runGetter(chain, minter, 'get_jetton_data')).totalSupply;
}

async function setup(): Promise<Setup> {
  const chain = await Blockchain.create();
  const admin = await chain.treasury('admin');
  const alice = await chain.treasury('alice');
  const bob = await chain.treasury('bob');
  const init = governedMinterStateInit({ adminAddress: admin.address, metadataUri: URI });
  const minter = contractAddress(0, init);
  const r = await admin.send({ to: minter, value: toNano('0.5'), init, body: mintBody(alice.address, 1000n * UNIT) });
  expect(exitCode(findTx(r.transactions, { from: admin.address, to: minter }))).toBe(0);
  return { chain, admin, alice, bob, minter };
}

describe('governed jetton: code layout', () => {
  it('keeps the standard method dictionary with the getters under their spec method ids', () => {
    const ids = (names: Array<keyof typeof SPEC_METHOD_IDS>) =>
      names.map((n) => SPEC_METHOD_IDS[n]).sort((a, b) => a - b);
    expect(getterIds(JETTON_GOVERNED_MINTER_CODE)).toEqual(
      ids(['get_jetton_data', 'get_wallet_address', 'get_next_admin_address']),
    );
    expect(getterIds(JETTON_GOVERNED_WALLET_CODE)).toEqual(ids(['get_wallet_data', 'get_status']));
  });
});

describe('governed jetton minter and wallet (sandbox)', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup();
  });

  it('mints with op 0x642b7d07 through an internal_transfer that deploys the wallet; getters have the §2.4 layout', async () => {
    const { chain, admin, alice, minter } = s;
    const data = await runGetter(chain, minter, 'get_jetton_data');
    expect(stackTypes(data)).toEqual(['int', 'int', 'slice', 'cell', 'cell']);
    expect(data[1]).toEqual({ type: 'int', value: -1n });
    const jd = readJettonData(data);
    expect(jd.totalSupply).toBe(1000n * UNIT);
    expect(jd.adminAddress?.equals(admin.address)).toBe(true);
    expect(jd.jettonWalletCode.hash()).toEqual(JETTON_GOVERNED_WALLET_CODE.hash());
    // The content is built on the fly: on-chain uri + decimals "6", as the stablecoin's.
    const content = parseTep64(jd.jettonContent);
    expect(content.layout === 'onchain' && Object.fromEntries(content.attributes)).toEqual({
      [KEY_URI.toString()]: URI,
      [KEY_DECIMALS.toString()]: '6',
    });

    const next = await runGetter(chain, minter, 'get_next_admin_address');
    expect(stackTypes(next)).toEqual(['slice']);
    expect(next[0]?.type === 'slice' && next[0].cell.beginParse().remainingBits).toBe(2);

    const txs = await chain.getTransactions(minter);
    const mintOut = outMessages(txs[txs.length - 1]!).find((m) => m.info.type === 'internal')!;
    expect(mintOut.info.type === 'internal' && mintOut.info.bounce).toBe(true);
    expect(mintOut.init?.code?.hash()).toEqual(JETTON_GOVERNED_WALLET_CODE.hash());
    const created = mintOut.info.dest as Address;
    const byGetter = await runGetter(chain, minter, 'get_wallet_address', getWalletAddressArgs(alice.address));
    expect(stackTypes(byGetter)).toEqual(['slice']);
    expect(readJettonWalletAddress(byGetter).equals(created)).toBe(true);
    expect(governedWalletAddress(minter, alice.address).equals(created)).toBe(true);
    expect(parseJettonInternalTransfer(mintOut.body).amount).toBe(1000n * UNIT);

    const wallet = await runGetter(chain, created, 'get_wallet_data');
    expect(stackTypes(wallet)).toEqual(['int', 'slice', 'slice', 'cell']);
    const wd = readJettonWalletData(wallet);
    expect(wd.balance).toBe(1000n * UNIT);
    expect(wd.ownerAddress.equals(alice.address)).toBe(true);
    expect(wd.jettonMasterAddress.equals(minter)).toBe(true);
    expect(wd.jettonWalletCode.hash()).toEqual(JETTON_GOVERNED_WALLET_CODE.hash());
    const status = await runGetter(chain, created, 'get_status');
    expect(status).toEqual([{ type: 'int', value: 0n }]);
  });

  it("the owner's transfer runs the TEP-74 chain with exact bodies and the reply flags", async () => {
    const { chain, alice, bob, minter } = s;
    const aliceWallet = governedWalletAddress(minter, alice.address);
    const bobWallet = governedWalletAddress(minter, bob.address);
    const r = await alice.send({
      to: aliceWallet,
      value: toNano('0.2'),
      body: toCell(
        storeJettonTransfer(
          jettonTransfer({
            queryId: 7n,
            amount: 250n * UNIT,
            destination: bob.address,
            responseDestination: alice.address,
            forwardTonAmount: toNano('0.01'),
            forwardPayload: { kind: 'right', value: textComment('rent') },
          }),
        ),
      ),
    });
    const atB = internalIn(
      findTx(r.transactions, { from: aliceWallet, to: bobWallet, op: JETTON_OP.internalTransfer }),
    );
    expect(atB.info.bounce).toBe(true);
    expect(atB.init?.code?.hash()).toEqual(JETTON_GOVERNED_WALLET_CODE.hash());
    const it = parseJettonInternalTransfer(atB.body);
    expect([it.queryId, it.amount, it.from?.equals(alice.address)]).toEqual([7n, 250n * UNIT, true]);
    const notify = internalIn(
      findTx(r.transactions, { from: bobWallet, to: bob.address, op: JETTON_OP.transferNotification }),
    );
    expect(notify.info.bounce).toBe(false);
    expect(parseJettonTransferNotification(notify.body).sender?.equals(alice.address)).toBe(true);
    const excess = internalIn(findTx(r.transactions, { from: bobWallet, to: alice.address, op: JETTON_OP.excesses }));
    expect(excess.info.bounce).toBe(false);
    expect(excess.info.value.coins).toBeGreaterThan(0n);
    expect(parseExcesses(excess.body).queryId).toBe(7n);
    expect(await balanceOf(chain, minter, alice.address)).toBe(750n * UNIT);
    expect(await balanceOf(chain, minter, bob.address)).toBe(250n * UNIT);
  });

  it('forces a transfer through call_to: the master is the source at the holder wallet, `from` stays the holder', async () => {
    const { chain, admin, alice, bob, minter } = s;
    const aliceWallet = governedWalletAddress(minter, alice.address);
    const bobWallet = governedWalletAddress(minter, bob.address);
    const r = await admin.send({
      to: minter,
      value: toNano('0.3'),
      body: callTo(alice.address, transferMsg(bob.address, 400n * UNIT, admin.address, 21n), 21n),
    });
    expect(exitCode(findTx(r.transactions, { from: admin.address, to: minter, op: GOVERNED_JETTON_OP.callTo }))).toBe(
      0,
    );
    const forced = findTx(r.transactions, { from: minter, to: aliceWallet, op: JETTON_OP.transfer });
    expect(exitCode(forced)).toBe(0);
    const forcedIn = internalIn(forced);
    expect(forcedIn.info.bounce).toBe(true);
    expect(forcedIn.init).toBeFalsy(); // the wallet exists: no StateInit
    const t = parseJettonTransfer(forcedIn.body);
    expect([t.queryId, t.amount, t.destination?.equals(bob.address)]).toEqual([21n, 400n * UNIT, true]);
    const it = parseJettonInternalTransfer(
      internalIn(findTx(r.transactions, { from: aliceWallet, to: bobWallet, op: JETTON_OP.internalTransfer })).body,
    );
    expect(it.from?.equals(alice.address)).toBe(true);
    findTx(r.transactions, { from: bobWallet, to: admin.address, op: JETTON_OP.excesses });
    expect(await balanceOf(chain, minter, alice.address)).toBe(600n * UNIT);
    expect(await balanceOf(chain, minter, bob.address)).toBe(400n * UNIT);
    expect(await supplyOf(chain, minter)).toBe(1000n * UNIT);
  });

  it('locks a wallet with set_status: the owner cannot send (45), the master still can; a receive lock bounces a mint and the supply drops back', async () => {
    const { chain, admin, alice, bob, minter } = s;
    const aliceWallet = governedWalletAddress(minter, alice.address);
    const setStatus = (owner: Address, status: number) =>
      admin.send({
        to: minter,
        value: toNano('0.2'),
        body: callTo(owner, toCell(storeGovernedSetStatus({ queryId: 3n, status }))),
      });

    const r = await setStatus(alice.address, GOVERNED_STATUS.cannotSend);
    const atWallet = internalIn(
      findTx(r.transactions, { from: minter, to: aliceWallet, op: GOVERNED_JETTON_OP.setStatus }),
    );
    const body = atWallet.body.beginParse();
    expect([body.loadUint(32), body.loadUintBig(64), body.loadUint(4), body.remainingBits]).toEqual([
      GOVERNED_JETTON_OP.setStatus,
      3n,
      1,
      0,
    ]);
    expect(await statusOf(chain, minter, alice.address)).toBe(GOVERNED_STATUS.cannotSend);

    const own = await alice.send({
      to: aliceWallet,
      value: toNano('0.2'),
      body: transferMsg(bob.address, 1n, alice.address),
    });
    expect(exitCode(findTx(own.transactions, { from: alice.address, to: aliceWallet }))).toBe(
      GOVERNED_JETTON_ERROR.contractLocked,
    );
    await admin.send({
      to: minter,
      value: toNano('0.3'),
      body: callTo(alice.address, transferMsg(bob.address, 5n, null)),
    });
    expect(await balanceOf(chain, minter, bob.address)).toBe(5n);

    // Bob cannot receive: the master's internal_transfer bounces and the mint is taken out of the supply.
    await setStatus(bob.address, GOVERNED_STATUS.cannotReceive);
    const bobWallet = governedWalletAddress(minter, bob.address);
    const m = await admin.send({ to: minter, value: toNano('0.3'), body: mintBody(bob.address, 50n * UNIT, 4n) });
    expect(exitCode(findTx(m.transactions, { from: minter, to: bobWallet }))).toBe(
      GOVERNED_JETTON_ERROR.contractLocked,
    );
    expect(exitCode(findTx(m.transactions, { from: bobWallet, to: minter, bounced: true }))).toBe(0);
    expect(await supplyOf(chain, minter)).toBe(1000n * UNIT);
    expect(await balanceOf(chain, minter, bob.address)).toBe(5n);
  });

  it('burns only through the master: the owner is refused (73), call_to burn lowers the supply', async () => {
    const { chain, admin, alice, minter } = s;
    const aliceWallet = governedWalletAddress(minter, alice.address);
    const burn = toCell(
      storeJettonBurn({ queryId: 8n, amount: 100n * UNIT, responseDestination: admin.address, customPayload: null }),
    );
    const own = await alice.send({ to: aliceWallet, value: toNano('0.2'), body: burn });
    expect(exitCode(findTx(own.transactions, { from: alice.address, to: aliceWallet }))).toBe(
      GOVERNED_JETTON_ERROR.notOwner,
    );

    const r = await admin.send({ to: minter, value: toNano('0.3'), body: callTo(alice.address, burn, 8n) });
    const note = internalIn(findTx(r.transactions, { from: aliceWallet, to: minter, op: JETTON_OP.burnNotification }));
    expect(note.info.bounce).toBe(true);
    const bn = parseJettonBurnNotification(note.body);
    expect([bn.amount, bn.sender?.equals(alice.address), bn.responseDestination?.equals(admin.address)]).toEqual([
      100n * UNIT,
      true,
      true,
    ]);
    expect(
      internalIn(findTx(r.transactions, { from: minter, to: admin.address, op: JETTON_OP.excesses })).info.bounce,
    ).toBe(false);
    expect(await supplyOf(chain, minter)).toBe(900n * UNIT);
    expect(await balanceOf(chain, minter, alice.address)).toBe(900n * UNIT);
  });

  it('refuses strangers and malformed admin messages with the stablecoin codes', async () => {
    const { chain, admin, alice, bob, minter } = s;
    const aliceWallet = governedWalletAddress(minter, alice.address);
    const code = async (r: Awaited<ReturnType<typeof bob.send>>, from: Address, to: Address) =>
      exitCode(findTx(r.transactions, { from, to }));
    expect(
      await code(
        await bob.send({ to: minter, value: toNano('0.3'), body: mintBody(bob.address, 1n) }),
        bob.address,
        minter,
      ),
    ).toBe(GOVERNED_JETTON_ERROR.notOwner);
    const stolen = callTo(alice.address, transferMsg(bob.address, 1n, null));
    expect(await code(await bob.send({ to: minter, value: toNano('0.3'), body: stolen }), bob.address, minter)).toBe(
      GOVERNED_JETTON_ERROR.notOwner,
    );
    const direct = toCell(storeGovernedSetStatus({ queryId: 1n, status: 0 }));
    expect(
      await code(await bob.send({ to: aliceWallet, value: toNano('0.1'), body: direct }), bob.address, aliceWallet),
    ).toBe(GOVERNED_JETTON_ERROR.notValidWallet);
    const oddOp = callTo(alice.address, toCell(storeGovernedTopUp({ queryId: 1n })));
    expect(await code(await admin.send({ to: minter, value: toNano('0.3'), body: oddOp }), admin.address, minter)).toBe(
      GOVERNED_JETTON_ERROR.invalidOp,
    );
    const cheap = toCell(
      storeGovernedCallTo({
        queryId: 1n,
        toAddress: alice.address,
        tonAmount: 1n,
        masterMsg: transferMsg(bob.address, 1n, null),
      }),
    );
    expect(await code(await admin.send({ to: minter, value: toNano('0.3'), body: cheap }), admin.address, minter)).toBe(
      GOVERNED_JETTON_ERROR.notEnoughGas,
    );
    expect(await code(await bob.send({ to: aliceWallet, value: toNano('0.1') }), bob.address, aliceWallet)).toBe(
      GOVERNED_JETTON_ERROR.wrongOp,
    );
    const topUp = await bob.send({
      to: aliceWallet,
      value: toNano('0.1'),
      body: toCell(storeGovernedTopUp({ queryId: 2n })),
    });
    expect(await code(topUp, bob.address, aliceWallet)).toBe(0);
    expect(await balanceOf(chain, minter, alice.address)).toBe(1000n * UNIT);
  });

  it('hands the admin role over in two steps and changes the metadata URI', async () => {
    const { chain, admin, alice, bob, minter } = s;
    await admin.send({
      to: minter,
      value: toNano('0.05'),
      body: toCell(storeGovernedChangeAdmin({ queryId: 1n, newAdmin: bob.address })),
    });
    expect(readNextAdminAddress(await runGetter(chain, minter, 'get_next_admin_address'))?.equals(bob.address)).toBe(
      true,
    );
    expect(readJettonData(await runGetter(chain, minter, 'get_jetton_data')).adminAddress?.equals(admin.address)).toBe(
      true,
    );
    const claim = toCell(storeGovernedClaimAdmin({ queryId: 2n }));
    const wrong = await alice.send({ to: minter, value: toNano('0.05'), body: claim });
    expect(exitCode(findTx(wrong.transactions, { from: alice.address, to: minter }))).toBe(
      GOVERNED_JETTON_ERROR.notOwner,
    );
    await bob.send({ to: minter, value: toNano('0.05'), body: claim });
    expect(readJettonData(await runGetter(chain, minter, 'get_jetton_data')).adminAddress?.equals(bob.address)).toBe(
      true,
    );
    expect(readNextAdminAddress(await runGetter(chain, minter, 'get_next_admin_address'))).toBeNull();

    const uri = 'https://devnet.tongate.invalid/jetton/usdx-v2.json';
    await bob.send({
      to: minter,
      value: toNano('0.05'),
      body: toCell(storeGovernedChangeMetadataUri({ queryId: 3n, uri })),
    });
    const content = parseTep64(readJettonData(await runGetter(chain, minter, 'get_jetton_data')).jettonContent);
    expect(content.layout === 'onchain' && content.attributes.get(KEY_URI)).toBe(uri);
  });

  it('answers provide_wallet_address with take_wallet_address (TEP-89)', async () => {
    const { chain, bob, alice, minter } = s;
    const r = await bob.send({
      to: minter,
      value: toNano('0.1'),
      body: toCell(storeProvideWalletAddress({ queryId: 11n, ownerAddress: alice.address, includeAddress: true })),
    });
    const answer = internalIn(
      findTx(r.transactions, { from: minter, to: bob.address, op: JETTON_OP.takeWalletAddress }),
    );
    expect(answer.info.bounce).toBe(false);
    const t = parseTakeWalletAddress(answer.body);
    expect(t.walletAddress?.equals(governedWalletAddress(minter, alice.address))).toBe(true);
    expect(t.ownerAddress?.equals(alice.address)).toBe(true);
    const mc = Address.parseRaw(`-1:${'11'.repeat(32)}`);
    const r2 = await bob.send({
      to: minter,
      value: toNano('0.1'),
      body: toCell(storeProvideWalletAddress({ queryId: 12n, ownerAddress: mc, includeAddress: false })),
    });
    const t2 = parseTakeWalletAddress(internalIn(findTx(r2.transactions, { from: minter, to: bob.address })).body);
    expect(t2.walletAddress).toBeNull();
    expect(await supplyOf(chain, minter)).toBe(1000n * UNIT);
  });
});
