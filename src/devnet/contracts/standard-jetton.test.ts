// tonweb's jetton codes (minter f95ba033…, wallet 4adf4813…) on @ton/sandbox, against contracts.md §2: the codes'
// hashes, getter stack types and values (§2.4), the wallet address derivation against the account the minter really
// created (§2.5), the mint → internal_transfer → transfer_notification / excesses chain, transfer and burn with their
// bodies read by the spec-derived parsers, refused senders; and our StateInit and bodies equal tonweb's own wrappers.
import { createRequire } from 'node:module';
import { Address, type Cell, toNano } from '@ton/core';
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { JETTON_OP } from '../../ton/index.ts';
import {
  getWalletAddressArgs,
  JETTON_ERROR,
  jettonTransfer,
  readJettonData,
  readJettonWalletAddress,
  readJettonWalletData,
  storeJettonBurn,
  storeJettonTransfer,
} from './jetton.ts';
import { offchainContent, textComment, toCell } from './payload.ts';
import { exitCode, findTx, internalIn, outMessages, runGetter, stackTypes } from './sandbox.test-util.ts';
import { standardCodes } from './standard-codes.ts';
import {
  standardJettonMintBody,
  standardJettonMinterAddress,
  standardJettonMinterStateInit,
  standardJettonWalletAddress,
} from './standard-jetton.ts';
import {
  parseExcesses,
  parseJettonBurnNotification,
  parseJettonInternalTransfer,
  parseJettonTransferNotification,
  parseTep64,
  parseTextComment,
} from './tep-parsers.test-util.ts';

const URI = 'https://example.org/std-jetton.json';
const MINTED = 1000n * 10n ** 9n;
/**
 * This early wallet build sends transfer_notification bounceable, where the later references (and contracts.md §2.3)
 * send it non-bounceable; excesses stay non-bounceable. Observed here, so the assertion pins the code's behaviour.
 */
const EARLY_BUILD_NOTIFICATION_BOUNCE = true;
const hashOf = (c: Cell) => c.hash().toString('hex');

// biome-ignore lint/suspicious/noExplicitAny: tonweb's CommonJS surface has no types for these classes
const TonWeb = createRequire(import.meta.url)('tonweb') as any;
const twAddress = (a: Address) => new TonWeb.utils.Address(a.toRawString());
const twHash = async (cell: { hash(): Promise<Uint8Array> }) => Buffer.from(await cell.hash()).toString('hex');

interface Setup {
  chain: Blockchain;
  admin: SandboxContract<TreasuryContract>;
  alice: SandboxContract<TreasuryContract>;
  bob: SandboxContract<TreasuryContract>;
  minter: Address;
  /** alice's wallet: the account the deploy's mint created. */
  created: Address;
}

async function setup(): Promise<Setup> {
  const chain = await Blockchain.create();
  const [admin, alice, bob] = await Promise.all(['std-admin', 'alice', 'bob'].map((s) => chain.treasury(s)));
  const init = standardJettonMinterStateInit({ adminAddress: admin!.address, content: offchainContent(URI) });
  const minter = standardJettonMinterAddress(init);
  // Deploy and first mint in one message, as the activity does.
  const r = await admin!.send({
    to: minter,
    value: toNano('0.3'),
    init,
    bounce: false,
    body: standardJettonMintBody({
      queryId: 1n,
      destination: alice!.address,
      tonAmount: toNano('0.1'),
      jettonAmount: MINTED,
      responseAddress: admin!.address,
      forwardTonAmount: toNano('0.01'),
      forwardPayload: { kind: 'right', value: textComment('welcome') },
    }),
  });
  const tx = findTx(r.transactions, { from: admin!.address, to: minter });
  expect(exitCode(tx)).toBe(0);
  const out = outMessages(tx);
  expect(out).toHaveLength(1);
  return { chain, admin: admin!, alice: alice!, bob: bob!, minter, created: out[0]!.info.dest as Address };
}

const balanceOf = async (chain: Blockchain, wallet: Address) =>
  readJettonWalletData(await runGetter(chain, wallet, 'get_wallet_data')).balance;
const supplyOf = async (chain: Blockchain, minter: Address) =>
  readJettonData(await runGetter(chain, minter, 'get_jetton_data')).totalSupply;

describe('standard jetton codes from tonweb', () => {
  it('hash to contracts.md §9 values; StateInit address and mint / transfer bodies equal tonweb JettonMinter / JettonWallet', async () => {
    const codes = standardCodes();
    expect(hashOf(codes.jettonMinter)).toBe('f95ba0330b38cdf3459b1e811e5fc6fa6cfee566d7b764455c0468140365a737');
    expect(hashOf(codes.jettonWallet)).toBe('4adf48135cb575adbaed476799c87ff2904269b1f949ada4d0479e9104b6f217');

    const admin = new Address(0, Buffer.alloc(32, 0xad));
    const alice = new Address(0, Buffer.alloc(32, 0xa1));
    const init = standardJettonMinterStateInit({ adminAddress: admin, content: offchainContent(URI) });
    const tw = new TonWeb.token.jetton.JettonMinter(undefined, {
      adminAddress: twAddress(admin),
      jettonContentUri: URI,
      jettonWalletCodeHex: TonWeb.token.jetton.JettonWallet.codeHex,
    });
    const minter = standardJettonMinterAddress(init);
    expect(minter.toRawString()).toBe((await tw.getAddress()).toString(false));

    const mint = standardJettonMintBody({
      queryId: 7n,
      destination: alice,
      tonAmount: toNano('0.05'),
      jettonAmount: 12345n,
    });
    const twMint = tw.createMintBody({
      jettonAmount: new TonWeb.utils.BN('12345'),
      destination: twAddress(alice),
      amount: new TonWeb.utils.BN(toNano('0.05').toString()),
      queryId: 7,
    });
    expect(hashOf(mint)).toBe(await twHash(twMint));

    const comment = textComment('hi');
    const transfer = toCell(
      storeJettonTransfer(
        jettonTransfer({
          queryId: 9n,
          amount: 5n,
          destination: alice,
          responseDestination: admin,
          forwardTonAmount: toNano('0.01'),
          forwardPayload: { kind: 'right', value: comment },
        }),
      ),
    );
    const twComment = new TonWeb.boc.Cell();
    twComment.bits.writeUint(0, 32);
    twComment.bits.writeString('hi');
    const twWallet = new TonWeb.token.jetton.JettonWallet(undefined, {});
    const twTransfer = await twWallet.createTransferBody({
      queryId: 9,
      jettonAmount: new TonWeb.utils.BN('5'),
      toAddress: twAddress(alice),
      responseAddress: twAddress(admin),
      forwardAmount: new TonWeb.utils.BN(toNano('0.01').toString()),
      forwardPayload: twComment,
    });
    expect(hashOf(transfer)).toBe(await twHash(twTransfer));
  });
});

describe('standard jetton minter and wallet (sandbox)', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup();
  });

  it('getters have the §2.4 types; the derived wallet address is the account the minter created', async () => {
    const jd = await runGetter(s.chain, s.minter, 'get_jetton_data');
    expect(stackTypes(jd)).toEqual(['int', 'int', 'slice', 'cell', 'cell']);
    expect(jd[1]).toEqual({ type: 'int', value: -1n });
    const d = readJettonData(jd);
    expect(d.totalSupply).toBe(MINTED);
    expect(d.adminAddress?.equals(s.admin.address)).toBe(true);
    expect(parseTep64(d.jettonContent)).toEqual({ layout: 'offchain', uri: URI });
    expect(hashOf(d.jettonWalletCode)).toBe(hashOf(standardCodes().jettonWallet));

    const wa = await runGetter(s.chain, s.minter, 'get_wallet_address', getWalletAddressArgs(s.alice.address));
    expect(stackTypes(wa)).toEqual(['slice']);
    expect(readJettonWalletAddress(wa).equals(s.created)).toBe(true);
    expect(standardJettonWalletAddress(s.minter, s.alice.address).equals(s.created)).toBe(true);

    const wd = await runGetter(s.chain, s.created, 'get_wallet_data');
    expect(stackTypes(wd)).toEqual(['int', 'slice', 'slice', 'cell']);
    const w = readJettonWalletData(wd);
    expect(w.balance).toBe(MINTED);
    expect(w.ownerAddress.equals(s.alice.address)).toBe(true);
    expect(w.jettonMasterAddress.equals(s.minter)).toBe(true);
    expect(hashOf(w.jettonWalletCode)).toBe(hashOf(standardCodes().jettonWallet));
    const state = (await s.chain.getContract(s.created)).account.account?.storage.state;
    expect(state?.type === 'active' && hashOf(state.state.code!)).toBe(hashOf(standardCodes().jettonWallet));
  });

  it('mint -> internal_transfer (bounceable, with StateInit) -> transfer_notification + excesses', async () => {
    const r = await s.admin.send({
      to: s.minter,
      value: toNano('0.3'),
      body: standardJettonMintBody({
        queryId: 21n,
        destination: s.bob.address,
        tonAmount: toNano('0.1'),
        jettonAmount: 500n,
        responseAddress: s.admin.address,
        forwardTonAmount: toNano('0.02'),
        forwardPayload: { kind: 'right', value: textComment('minted for bob') },
      }),
    });
    const bobWallet = standardJettonWalletAddress(s.minter, s.bob.address);
    const atWallet = findTx(r.transactions, { from: s.minter, to: bobWallet, op: JETTON_OP.internalTransfer });
    expect(exitCode(atWallet)).toBe(0);
    const inW = internalIn(atWallet);
    expect(inW.info.bounce).toBe(true);
    expect(inW.info.value.coins).toBe(toNano('0.1'));
    expect(inW.init?.code?.hash()).toEqual(standardCodes().jettonWallet.hash());
    const it = parseJettonInternalTransfer(inW.body);
    expect(it).toMatchObject({ queryId: 21n, amount: 500n, from: null, forwardTonAmount: toNano('0.02') });

    const notify = internalIn(
      findTx(r.transactions, { from: bobWallet, to: s.bob.address, op: JETTON_OP.transferNotification }),
    );
    expect(notify.info.bounce).toBe(EARLY_BUILD_NOTIFICATION_BOUNCE);
    expect(notify.info.value.coins).toBe(toNano('0.02'));
    const n = parseJettonTransferNotification(notify.body);
    expect(n).toMatchObject({ queryId: 21n, amount: 500n, sender: null });
    expect(parseTextComment(n.forwardPayload.cell)).toBe('minted for bob');

    const excess = internalIn(findTx(r.transactions, { from: bobWallet, to: s.admin.address, op: JETTON_OP.excesses }));
    expect(excess.info.bounce).toBe(false);
    expect(parseExcesses(excess.body).queryId).toBe(21n);

    expect(await balanceOf(s.chain, bobWallet)).toBe(500n);
    expect(await supplyOf(s.chain, s.minter)).toBe(MINTED + 500n);

    // only the admin mints (the v1 error 73)
    const refused = await s.bob.send({
      to: s.minter,
      value: toNano('0.3'),
      body: standardJettonMintBody({
        queryId: 22n,
        destination: s.bob.address,
        tonAmount: toNano('0.1'),
        jettonAmount: 1n,
      }),
    });
    expect(exitCode(findTx(refused.transactions, { from: s.bob.address, to: s.minter }))).toBe(
      JETTON_ERROR.notFromAdmin,
    );
    expect(await supplyOf(s.chain, s.minter)).toBe(MINTED + 500n);
  });

  it('transfer -> internal_transfer -> transfer_notification + excesses; balances conserved; non-owners refused', async () => {
    const bobWallet = standardJettonWalletAddress(s.minter, s.bob.address);
    const amount = 250n * 10n ** 9n;
    const r = await s.alice.send({
      to: s.created,
      value: toNano('0.2'),
      body: toCell(
        storeJettonTransfer(
          jettonTransfer({
            queryId: 77n,
            amount,
            destination: s.bob.address,
            responseDestination: s.alice.address,
            forwardTonAmount: toNano('0.02'),
            forwardPayload: { kind: 'right', value: textComment('for bob') },
          }),
        ),
      ),
    });
    expect(exitCode(findTx(r.transactions, { from: s.alice.address, to: s.created, op: JETTON_OP.transfer }))).toBe(0);
    const atB = findTx(r.transactions, { from: s.created, to: bobWallet, op: JETTON_OP.internalTransfer });
    expect(exitCode(atB)).toBe(0);
    const inB = internalIn(atB);
    expect(inB.info.bounce).toBe(true);
    expect(inB.init?.code?.hash()).toEqual(standardCodes().jettonWallet.hash());
    const it = parseJettonInternalTransfer(inB.body);
    expect(it.amount).toBe(amount);
    expect(it.from?.equals(s.alice.address)).toBe(true);
    expect(it.responseAddress?.equals(s.alice.address)).toBe(true);

    const notify = internalIn(
      findTx(r.transactions, { from: bobWallet, to: s.bob.address, op: JETTON_OP.transferNotification }),
    );
    expect(notify.info.bounce).toBe(EARLY_BUILD_NOTIFICATION_BOUNCE);
    expect(notify.info.value.coins).toBe(toNano('0.02'));
    const n = parseJettonTransferNotification(notify.body);
    expect(n.amount).toBe(amount);
    expect(n.sender?.equals(s.alice.address)).toBe(true);
    expect(parseTextComment(n.forwardPayload.cell)).toBe('for bob');
    const excess = internalIn(findTx(r.transactions, { from: bobWallet, to: s.alice.address, op: JETTON_OP.excesses }));
    expect(excess.info.bounce).toBe(false);
    expect(parseExcesses(excess.body).queryId).toBe(77n);

    expect(await balanceOf(s.chain, s.created)).toBe(MINTED - amount);
    expect(await balanceOf(s.chain, bobWallet)).toBe(amount);
    expect(await supplyOf(s.chain, s.minter)).toBe(MINTED);

    const stolen = await s.bob.send({
      to: s.created,
      value: toNano('0.2'),
      body: toCell(
        storeJettonTransfer(
          jettonTransfer({ queryId: 78n, amount: 1n, destination: s.bob.address, responseDestination: null }),
        ),
      ),
    });
    expect(exitCode(findTx(stolen.transactions, { from: s.bob.address, to: s.created }))).toBe(JETTON_ERROR.notOwner);
    const tooMuch = await s.alice.send({
      to: s.created,
      value: toNano('0.2'),
      body: toCell(
        storeJettonTransfer(
          jettonTransfer({ queryId: 79n, amount: MINTED, destination: s.bob.address, responseDestination: null }),
        ),
      ),
    });
    expect(exitCode(findTx(tooMuch.transactions, { from: s.alice.address, to: s.created }))).toBe(
      JETTON_ERROR.balanceError,
    );
    expect(await balanceOf(s.chain, s.created)).toBe(MINTED - amount);
  });

  it('burn (TEP-74 layout) -> burn_notification lowers the supply and returns excesses', async () => {
    const r = await s.alice.send({
      to: s.created,
      value: toNano('0.1'),
      body: toCell(
        storeJettonBurn({ queryId: 3n, amount: 400n, responseDestination: s.alice.address, customPayload: null }),
      ),
    });
    expect(exitCode(findTx(r.transactions, { from: s.alice.address, to: s.created, op: JETTON_OP.burn }))).toBe(0);
    const notified = findTx(r.transactions, { from: s.created, to: s.minter, op: JETTON_OP.burnNotification });
    expect(exitCode(notified)).toBe(0);
    expect(internalIn(notified).info.bounce).toBe(true);
    const bn = parseJettonBurnNotification(internalIn(notified).body);
    expect(bn).toMatchObject({ queryId: 3n, amount: 400n });
    expect(bn.sender?.equals(s.alice.address)).toBe(true);
    expect(bn.responseDestination?.equals(s.alice.address)).toBe(true);
    const excess = internalIn(findTx(r.transactions, { from: s.minter, to: s.alice.address, op: JETTON_OP.excesses }));
    expect(excess.info.bounce).toBe(false);
    expect(parseExcesses(excess.body).queryId).toBe(3n);
    expect(await balanceOf(s.chain, s.created)).toBe(MINTED - 400n);
    expect(await supplyOf(s.chain, s.minter)).toBe(MINTED - 400n);
  });
});
