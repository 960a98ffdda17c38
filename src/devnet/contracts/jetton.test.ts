// The jetton contracts on @ton/sandbox: getter layouts (contracts.md §2.4), the TEP-74 message chains with their
// exact bodies (decoded by the spec-derived parsers, not our writers), balance conservation, bounces, burns and
// refused senders. Addresses are checked against the accounts the emulator actually created.
import { Address, beginCell, type Cell, contractAddress, toNano } from '@ton/core';
import { Blockchain, createShardAccount, internal, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { JETTON_OP } from '../../ton/index.ts';
import { JETTON_WALLET_CODE } from './codes.ts';
import {
  getWalletAddressArgs,
  JETTON_ERROR,
  jettonMinterStateInit,
  jettonTransfer,
  jettonWalletStateInit,
  readJettonData,
  readJettonWalletAddress,
  readJettonWalletData,
  storeJettonBurn,
  storeJettonChangeAdmin,
  storeJettonChangeContent,
  storeJettonInternalTransfer,
  storeJettonMint,
  storeJettonTransfer,
  storeProvideWalletAddress,
} from './jetton.ts';
import { NO_PAYLOAD, offchainContent, onchainContent, textComment, toCell } from './payload.ts';
import { exitCode, findTx, internalIn, isAborted, outMessages, runGetter, stackTypes } from './sandbox.test-util.ts';
import {
  parseExcesses,
  parseJettonBurnNotification,
  parseJettonInternalTransfer,
  parseJettonTransferNotification,
  parseTakeWalletAddress,
  parseTep64,
  parseTextComment,
} from './tep-parsers.test-util.ts';

// THROW 50: an account running this code refuses every message (used to force bounces).
const REFUSING_CODE = beginCell().storeUint(0xf232, 16).endCell();

interface Setup {
  chain: Blockchain;
  admin: SandboxContract<TreasuryContract>;
  alice: SandboxContract<TreasuryContract>;
  bob: SandboxContract<TreasuryContract>;
  minter: Address;
  content: Cell;
}

function mintBody(to: Address, amount: bigint, responseAddress: Address | null, queryId = 1n) {
  return toCell(
    storeJettonMint({
      queryId,
      toAddress: to,
      tonAmount: toNano('0.05'),
      masterMsg: toCell(
        storeJettonInternalTransfer({
          queryId,
          amount,
          from: null,
          responseAddress,
          forwardTonAmount: 0n,
          forwardPayload: NO_PAYLOAD,
        }),
      ),
    }),
  );
}

async function balanceOf(chain: Blockchain, wallet: Address): Promise<bigint> {
  return readJettonWalletData(await runGetter(chain, wallet, 'get_wallet_data')).balance;
}

async function walletOf(chain: Blockchain, minter: Address, owner: Address): Promise<Address> {
  return readJettonWalletAddress(await runGetter(chain, minter, 'get_wallet_address', getWalletAddressArgs(owner)));
}

async function setup(): Promise<Setup> {
  const chain = await Blockchain.create();
  const admin = await chain.treasury('admin');
  const alice = await chain.treasury('alice');
  const bob = await chain.treasury('bob');
  const content = onchainContent({ name: 'Devnet Token', symbol: 'DVT', decimals: '9' });
  const init = jettonMinterStateInit({ adminAddress: admin.address, content });
  const minter = contractAddress(0, init);
  // Deploy and mint 1000 DVT to alice in one message, as the activity driver does.
  const r = await admin.send({
    to: minter,
    value: toNano('0.2'),
    init,
    body: mintBody(alice.address, 1000n * 10n ** 9n, admin.address),
  });
  expect(exitCode(findTx(r.transactions, { from: admin.address, to: minter }))).toBe(0);
  return { chain, admin, alice, bob, minter, content };
}

describe('jetton minter and wallet (sandbox)', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup();
  });

  it('mints through an internal_transfer from the minter that deploys the wallet; getters have the §2.4 layout', async () => {
    const { chain, admin, alice, minter, content } = s;
    const jettonData = await runGetter(chain, minter, 'get_jetton_data');
    expect(stackTypes(jettonData)).toEqual(['int', 'int', 'slice', 'cell', 'cell']);
    const jd = readJettonData(jettonData);
    expect(jd.totalSupply).toBe(1000n * 10n ** 9n);
    expect(jettonData[1]).toEqual({ type: 'int', value: -1n });
    expect(jd.adminAddress?.equals(admin.address)).toBe(true);
    expect(jd.jettonContent.hash()).toEqual(content.hash());
    expect(jd.jettonWalletCode.hash()).toEqual(JETTON_WALLET_CODE.hash());
    const parsed = parseTep64(jd.jettonContent);
    expect(parsed.layout).toBe('onchain');

    // The wallet the emulator created is where the minter's internal_transfer went.
    const txs = await chain.getTransactions(minter);
    const mintOut = outMessages(txs[txs.length - 1]!).find((m) => m.info.type === 'internal');
    expect(mintOut?.info.type === 'internal' && mintOut.info.bounce).toBe(true);
    expect(mintOut?.init?.code?.hash()).toEqual(JETTON_WALLET_CODE.hash());
    const createdWallet = mintOut!.info.dest as Address;
    expect((await walletOf(chain, minter, alice.address)).equals(createdWallet)).toBe(true);
    expect(
      stackTypes(await runGetter(chain, minter, 'get_wallet_address', getWalletAddressArgs(alice.address))),
    ).toEqual(['slice']);
    const it = parseJettonInternalTransfer(mintOut!.body);
    expect(it.amount).toBe(1000n * 10n ** 9n);

    const walletData = await runGetter(chain, createdWallet, 'get_wallet_data');
    expect(stackTypes(walletData)).toEqual(['int', 'slice', 'slice', 'cell']);
    const wd = readJettonWalletData(walletData);
    expect(wd.balance).toBe(1000n * 10n ** 9n);
    expect(wd.ownerAddress.equals(alice.address)).toBe(true);
    expect(wd.jettonMasterAddress.equals(minter)).toBe(true);
    const account = await chain.getContract(createdWallet);
    const code = account.account.account?.storage.state;
    expect(code?.type === 'active' && code.state.code?.hash()).toEqual(wd.jettonWalletCode.hash());
  });

  it('transfer -> internal_transfer -> transfer_notification + excesses, exact bodies, balances conserved', async () => {
    const { chain, alice, bob, minter } = s;
    const aliceWallet = await walletOf(chain, minter, alice.address);
    const bobWallet = await walletOf(chain, minter, bob.address);
    const amount = 250n * 10n ** 9n;
    const forwardTonAmount = toNano('0.02');
    const comment = textComment('for the coffee');
    const r = await alice.send({
      to: aliceWallet,
      value: toNano('0.2'),
      body: toCell(
        storeJettonTransfer(
          jettonTransfer({
            queryId: 77n,
            amount,
            destination: bob.address,
            responseDestination: alice.address,
            forwardTonAmount,
            forwardPayload: { kind: 'right', value: comment },
          }),
        ),
      ),
    });

    const atA = findTx(r.transactions, { from: alice.address, to: aliceWallet, op: JETTON_OP.transfer });
    expect(exitCode(atA)).toBe(0);
    const atB = findTx(r.transactions, { from: aliceWallet, to: bobWallet, op: JETTON_OP.internalTransfer });
    expect(exitCode(atB)).toBe(0);
    const inB = internalIn(atB);
    expect(inB.info.bounce).toBe(true);
    expect(inB.init?.code?.hash()).toEqual(JETTON_WALLET_CODE.hash());
    const internal = parseJettonInternalTransfer(inB.body);
    expect(internal.queryId).toBe(77n);
    expect(internal.amount).toBe(amount);
    expect(internal.from?.equals(alice.address)).toBe(true);
    expect(internal.responseAddress?.equals(alice.address)).toBe(true);
    expect(internal.forwardTonAmount).toBe(forwardTonAmount);
    expect(internal.forwardPayload.inRef).toBe(true);
    expect(parseTextComment(internal.forwardPayload.cell)).toBe('for the coffee');

    const notify = findTx(r.transactions, { from: bobWallet, to: bob.address, op: JETTON_OP.transferNotification });
    const notifyIn = internalIn(notify);
    expect(notifyIn.info.bounce).toBe(false);
    expect(notifyIn.info.value.coins).toBe(forwardTonAmount);
    const n = parseJettonTransferNotification(notifyIn.body);
    expect(n.queryId).toBe(77n);
    expect(n.amount).toBe(amount);
    expect(n.sender?.equals(alice.address)).toBe(true);
    expect(n.forwardPayload.inRef).toBe(true);
    expect(n.forwardPayload.cell.hash()).toEqual(comment.hash());

    const excess = findTx(r.transactions, { from: bobWallet, to: alice.address, op: JETTON_OP.excesses });
    expect(internalIn(excess).info.bounce).toBe(false);
    expect(internalIn(excess).info.value.coins).toBeGreaterThan(0n);
    expect(parseExcesses(internalIn(excess).body).queryId).toBe(77n);

    expect(await balanceOf(chain, aliceWallet)).toBe(750n * 10n ** 9n);
    expect(await balanceOf(chain, bobWallet)).toBe(250n * 10n ** 9n);
    expect(readJettonData(await runGetter(chain, minter, 'get_jetton_data')).totalSupply).toBe(1000n * 10n ** 9n);
  });

  it('a transfer without forward TON sends no notification; an inline forward payload travels inline', async () => {
    const { chain, alice, bob, minter } = s;
    const aliceWallet = await walletOf(chain, minter, alice.address);
    const bobWallet = await walletOf(chain, minter, bob.address);
    const inline = beginCell().storeUint(0xabcd, 16).endCell();
    const r = await alice.send({
      to: aliceWallet,
      value: toNano('0.1'),
      body: toCell(
        storeJettonTransfer(
          jettonTransfer({
            queryId: 5n,
            amount: 1n,
            destination: bob.address,
            responseDestination: null,
            forwardPayload: { kind: 'left', value: inline },
          }),
        ),
      ),
    });
    const atB = findTx(r.transactions, { from: aliceWallet, to: bobWallet, op: JETTON_OP.internalTransfer });
    const internal = parseJettonInternalTransfer(internalIn(atB).body);
    expect(internal.forwardPayload.inRef).toBe(false);
    expect(internal.forwardPayload.cell.beginParse().loadUint(16)).toBe(0xabcd);
    expect(internal.responseAddress).toBeNull();
    // no notification (forward_ton_amount = 0) and no excesses (response_destination = addr_none)
    expect(outMessages(atB)).toHaveLength(0);
  });

  it('a refused internal_transfer bounces and the sender wallet re-credits the amount', async () => {
    const { chain, alice, bob, minter } = s;
    const aliceWallet = await walletOf(chain, minter, alice.address);
    const bobWallet = await walletOf(chain, minter, bob.address);
    // An account that refuses everything sits where bob's wallet would be deployed.
    await chain.setShardAccount(
      bobWallet,
      createShardAccount({
        address: bobWallet,
        code: REFUSING_CODE,
        data: beginCell().endCell(),
        balance: toNano('1'),
      }),
    );
    const r = await alice.send({
      to: aliceWallet,
      value: toNano('0.2'),
      body: toCell(
        storeJettonTransfer(
          jettonTransfer({ queryId: 9n, amount: 100n, destination: bob.address, responseDestination: alice.address }),
        ),
      ),
    });
    const refused = findTx(r.transactions, { from: aliceWallet, to: bobWallet, op: JETTON_OP.internalTransfer });
    expect(exitCode(refused)).toBe(50);
    const bounce = findTx(r.transactions, { from: bobWallet, to: aliceWallet, bounced: true });
    expect(exitCode(bounce)).toBe(0);
    expect(await balanceOf(chain, aliceWallet)).toBe(1000n * 10n ** 9n);
  });

  it('burn -> burn_notification lowers the supply and returns excesses; a refused notification re-credits', async () => {
    const { chain, alice, minter } = s;
    const aliceWallet = await walletOf(chain, minter, alice.address);
    const r = await alice.send({
      to: aliceWallet,
      value: toNano('0.1'),
      body: toCell(
        storeJettonBurn({ queryId: 3n, amount: 400n, responseDestination: alice.address, customPayload: null }),
      ),
    });
    const notified = findTx(r.transactions, { from: aliceWallet, to: minter, op: JETTON_OP.burnNotification });
    expect(exitCode(notified)).toBe(0);
    expect(internalIn(notified).info.bounce).toBe(true);
    const bn = parseJettonBurnNotification(internalIn(notified).body);
    expect(bn).toMatchObject({ queryId: 3n, amount: 400n });
    expect(bn.sender?.equals(alice.address)).toBe(true);
    expect(bn.responseDestination?.equals(alice.address)).toBe(true);
    const excess = findTx(r.transactions, { from: minter, to: alice.address, op: JETTON_OP.excesses });
    expect(internalIn(excess).info.bounce).toBe(false);
    expect(await balanceOf(chain, aliceWallet)).toBe(1000n * 10n ** 9n - 400n);
    expect(readJettonData(await runGetter(chain, minter, 'get_jetton_data')).totalSupply).toBe(
      1000n * 10n ** 9n - 400n,
    );

    // A wallet whose minter refuses the notification gets its jettons back.
    const fakeMinter = (await chain.treasury('fake-minter')).address;
    const aliceFakeWallet = await deployWalletVia(chain, fakeMinter, alice.address, 500n);
    await chain.setShardAccount(
      fakeMinter,
      createShardAccount({
        address: fakeMinter,
        code: REFUSING_CODE,
        data: beginCell().endCell(),
        balance: toNano('1'),
      }),
    );
    const r2 = await alice.send({
      to: aliceFakeWallet,
      value: toNano('0.1'),
      body: toCell(storeJettonBurn({ queryId: 4n, amount: 200n, responseDestination: null, customPayload: null })),
    });
    expect(exitCode(findTx(r2.transactions, { from: aliceFakeWallet, to: fakeMinter }))).toBe(50);
    expect(exitCode(findTx(r2.transactions, { from: fakeMinter, to: aliceFakeWallet, bounced: true }))).toBe(0);
    expect(await balanceOf(chain, aliceFakeWallet)).toBe(500n);
  });

  it('refuses wrong senders: transfer (705), mint (73), internal_transfer (707), burn_notification (74)', async () => {
    const { chain, alice, bob, minter } = s;
    const aliceWallet = await walletOf(chain, minter, alice.address);
    const transfer = toCell(
      storeJettonTransfer(
        jettonTransfer({ queryId: 1n, amount: 1n, destination: bob.address, responseDestination: bob.address }),
      ),
    );
    const r1 = await bob.send({ to: aliceWallet, value: toNano('0.1'), body: transfer });
    const t1 = findTx(r1.transactions, { from: bob.address, to: aliceWallet });
    expect(exitCode(t1)).toBe(JETTON_ERROR.notOwner);
    expect(isAborted(t1)).toBe(true);
    findTx(r1.transactions, { from: aliceWallet, to: bob.address, bounced: true });

    const r2 = await bob.send({ to: minter, value: toNano('0.1'), body: mintBody(bob.address, 5n, null) });
    expect(exitCode(findTx(r2.transactions, { from: bob.address, to: minter }))).toBe(JETTON_ERROR.notFromAdmin);

    const forged = toCell(
      storeJettonInternalTransfer({
        queryId: 1n,
        amount: 10n ** 12n,
        from: bob.address,
        responseAddress: null,
        forwardTonAmount: 0n,
        forwardPayload: NO_PAYLOAD,
      }),
    );
    const r3 = await bob.send({ to: aliceWallet, value: toNano('0.1'), body: forged });
    expect(exitCode(findTx(r3.transactions, { from: bob.address, to: aliceWallet }))).toBe(
      JETTON_ERROR.notFromMinterOrWallet,
    );

    const fakeBurn = beginCell()
      .storeUint(JETTON_OP.burnNotification, 32)
      .storeUint(1n, 64)
      .storeCoins(10n)
      .storeAddress(alice.address)
      .storeAddress(null)
      .endCell();
    const r4 = await bob.send({ to: minter, value: toNano('0.1'), body: fakeBurn });
    expect(exitCode(findTx(r4.transactions, { from: bob.address, to: minter }))).toBe(JETTON_ERROR.notFromWallet);

    expect(await balanceOf(chain, aliceWallet)).toBe(1000n * 10n ** 9n);
    expect(readJettonData(await runGetter(chain, minter, 'get_jetton_data')).totalSupply).toBe(1000n * 10n ** 9n);
  });

  it('refuses a transfer above the balance (706) or without enough TON (709)', async () => {
    const { chain, alice, bob, minter } = s;
    const aliceWallet = await walletOf(chain, minter, alice.address);
    const tooMuch = jettonTransfer({
      queryId: 1n,
      amount: 1001n * 10n ** 9n,
      destination: bob.address,
      responseDestination: null,
    });
    const r1 = await alice.send({ to: aliceWallet, value: toNano('0.2'), body: toCell(storeJettonTransfer(tooMuch)) });
    expect(exitCode(findTx(r1.transactions, { from: alice.address, to: aliceWallet }))).toBe(JETTON_ERROR.balanceError);
    const cheap = jettonTransfer({
      queryId: 1n,
      amount: 1n,
      destination: bob.address,
      responseDestination: null,
      forwardTonAmount: toNano('1'),
    });
    const r2 = await alice.send({ to: aliceWallet, value: toNano('0.2'), body: toCell(storeJettonTransfer(cheap)) });
    expect(exitCode(findTx(r2.transactions, { from: alice.address, to: aliceWallet }))).toBe(JETTON_ERROR.notEnoughTon);
    expect(await balanceOf(chain, aliceWallet)).toBe(1000n * 10n ** 9n);
  });

  it('answers provide_wallet_address with take_wallet_address (TEP-89)', async () => {
    const { chain, bob, minter, alice } = s;
    const r = await bob.send({
      to: minter,
      value: toNano('0.1'),
      body: toCell(storeProvideWalletAddress({ queryId: 11n, ownerAddress: alice.address, includeAddress: true })),
    });
    const answer = findTx(r.transactions, { from: minter, to: bob.address, op: JETTON_OP.takeWalletAddress });
    expect(internalIn(answer).info.bounce).toBe(false);
    const t = parseTakeWalletAddress(internalIn(answer).body);
    expect(t.queryId).toBe(11n);
    expect(t.walletAddress?.equals(await walletOf(chain, minter, alice.address))).toBe(true);
    expect(t.ownerAddress?.equals(alice.address)).toBe(true);

    // A masterchain owner has no wallet here: addr_none, and no owner ref unless asked.
    const mcOwner = Address.parseRaw(`-1:${'11'.repeat(32)}`);
    const r2 = await bob.send({
      to: minter,
      value: toNano('0.1'),
      body: toCell(storeProvideWalletAddress({ queryId: 12n, ownerAddress: mcOwner, includeAddress: false })),
    });
    const t2 = parseTakeWalletAddress(
      internalIn(findTx(r2.transactions, { from: minter, to: bob.address, op: JETTON_OP.takeWalletAddress })).body,
    );
    expect(t2.walletAddress).toBeNull();
    expect(t2.ownerAddress).toBeUndefined();
  });

  it('lets the admin change content and hand over the admin role (then refuses the old admin)', async () => {
    const { chain, admin, bob, minter } = s;
    const newContent = offchainContent('https://example.org/dvt.json');
    await admin.send({
      to: minter,
      value: toNano('0.05'),
      body: toCell(storeJettonChangeContent({ queryId: 1n, content: newContent })),
    });
    await admin.send({
      to: minter,
      value: toNano('0.05'),
      body: toCell(storeJettonChangeAdmin({ queryId: 2n, newAdmin: bob.address })),
    });
    const jd = readJettonData(await runGetter(chain, minter, 'get_jetton_data'));
    expect(parseTep64(jd.jettonContent)).toEqual({ layout: 'offchain', uri: 'https://example.org/dvt.json' });
    expect(jd.adminAddress?.equals(bob.address)).toBe(true);
    const r = await admin.send({ to: minter, value: toNano('0.1'), body: mintBody(admin.address, 1n, null) });
    expect(exitCode(findTx(r.transactions, { from: admin.address, to: minter }))).toBe(JETTON_ERROR.notFromAdmin);

    // Dropping the admin (addr_none) leaves a 2-bit addr_none slice in get_jetton_data, not null.
    await bob.send({
      to: minter,
      value: toNano('0.05'),
      body: toCell(storeJettonChangeAdmin({ queryId: 3n, newAdmin: null })),
    });
    const stack = await runGetter(chain, minter, 'get_jetton_data');
    expect(stack[2]?.type).toBe('slice');
    const adminSlice = stack[2]?.type === 'slice' ? stack[2].cell.beginParse() : null;
    expect(adminSlice?.remainingBits).toBe(2);
    expect(adminSlice?.loadUint(2)).toBe(0);
  });
});

/** Deploys alice's wallet of a (fake) minter by delivering an internal_transfer from the minter's address. */
async function deployWalletVia(chain: Blockchain, minter: Address, owner: Address, amount: bigint): Promise<Address> {
  const init = jettonWalletStateInit(minter, owner);
  const wallet = contractAddress(0, init);
  const r = await chain.sendMessage(
    internal({
      from: minter,
      to: wallet,
      value: toNano('0.1'),
      stateInit: init,
      body: toCell(
        storeJettonInternalTransfer({
          queryId: 0n,
          amount,
          from: null,
          responseAddress: null,
          forwardTonAmount: 0n,
          forwardPayload: NO_PAYLOAD,
        }),
      ),
    }),
  );
  expect(exitCode(findTx(r.transactions, { from: minter, to: wallet }))).toBe(0);
  return wallet;
}
