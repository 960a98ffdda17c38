// The governed (stablecoin-style) jetton steps of the activity: a genesis wallet deploys a minter and mints its
// treasury to itself, the admin mints to somebody (op 0x642b7d07), and the admin seizes tokens: through call_to it
// locks a holder's wallet for sending (set_status) and forces a transfer from it to another holder, so the holder
// wallet receives a transfer whose source is the master. Effects are read back through get_jetton_data,
// get_wallet_data and get_status.
import { Address, type Cell, contractAddress, internal, toNano } from '@ton/core';
import {
  GOVERNED_STATUS,
  governedMinterStateInit,
  governedWalletAddress,
  jettonTransfer,
  NO_PAYLOAD,
  readGovernedStatus,
  readJettonData,
  readJettonWalletData,
  storeGovernedCallTo,
  storeGovernedMint,
  storeGovernedSetStatus,
  storeJettonInternalTransfer,
  storeJettonTransfer,
  toCell,
} from '../contracts/index.ts';
import type { LedgerGovernedJetton } from './ledger-governed.ts';
import {
  failed,
  genesisWallet,
  ok,
  raw,
  recipient,
  type StepContext,
  type StepOutcome,
  sendFrom,
  skipped,
  wait,
} from './step-kit.ts';

/** 6 decimals, as the stablecoin's content says. */
const UNIT = 10n ** 6n;
/** What the master attaches to each message it sends to a wallet (mint, call_to). */
const TON_TO_WALLET = toNano('0.1');
const TICKERS = ['usdx', 'eurx', 'gbpx', 'chfx', 'jpyx'];

async function balanceOf(ctx: StepContext, j: LedgerGovernedJetton, owner: Address): Promise<bigint> {
  const r = await ctx.chain.runGetMethod(governedWalletAddress(j.master, owner), 'get_wallet_data');
  return r.exitCode === 0 ? readJettonWalletData(r.stack).balance : 0n;
}

async function statusOf(ctx: StepContext, j: LedgerGovernedJetton, owner: Address): Promise<number | undefined> {
  const r = await ctx.chain.runGetMethod(governedWalletAddress(j.master, owner), 'get_status');
  return r.exitCode === 0 ? readGovernedStatus(r.stack) : undefined;
}

async function supplyOf(ctx: StepContext, master: Address): Promise<bigint | undefined> {
  const r = await ctx.chain.runGetMethod(master, 'get_jetton_data');
  return r.exitCode === 0 ? readJettonData(r.stack).totalSupply : undefined;
}

function credit(j: LedgerGovernedJetton, owner: Address, amount: bigint) {
  j.balances.set(raw(owner), (j.balances.get(raw(owner)) ?? 0n) + amount);
}

function mintBody(queryId: bigint, to: Address, amount: bigint, admin: Address): Cell {
  const masterMsg = toCell(
    storeJettonInternalTransfer({
      queryId,
      amount,
      from: null,
      responseAddress: admin,
      forwardTonAmount: 0n,
      forwardPayload: NO_PAYLOAD,
    }),
  );
  return toCell(storeGovernedMint({ queryId, toAddress: to, tonAmount: TON_TO_WALLET, masterMsg }));
}

/** Waits until `owner`'s wallet holds `balance` and the minter's supply is `supply`. */
function waitForBalance(ctx: StepContext, j: LedgerGovernedJetton, owner: Address, balance: bigint, supply: bigint) {
  return wait(ctx, `${raw(owner)} to hold ${balance} of ${raw(j.master)}`, async () =>
    (await balanceOf(ctx, j, owner)) === balance && (await supplyOf(ctx, j.master)) === supply ? true : undefined,
  );
}

export async function governedDeployStep(ctx: StepContext): Promise<StepOutcome> {
  const admin = ctx.rng.pick(ctx.wallets);
  const metadataUri = `https://devnet.tongate.invalid/jetton/${ctx.rng.pick(TICKERS)}-${ctx.rng.bytes(4).toString('hex')}.json`;
  const init = governedMinterStateInit({ adminAddress: admin.address, metadataUri });
  const master = contractAddress(0, init);
  const amount = ctx.rng.bigint(10_000n, 1_000_000n) * UNIT;
  // Deploy and mint the issuer's treasury to the admin in one message.
  const body = mintBody(BigInt(ctx.step), admin.address, amount, admin.address);
  const err = await sendFrom(ctx, admin, [internal({ to: master, value: toNano('0.3'), bounce: false, init, body })]);
  if (err) return failed(err);
  const j: LedgerGovernedJetton = {
    step: ctx.step,
    master,
    admin: admin.address,
    totalSupply: amount,
    balances: new Map([[raw(admin.address), amount]]),
    governed: true,
    metadataUri,
    statuses: new Map(),
  };
  const minted = await waitForBalance(ctx, j, admin.address, amount, amount);
  if (!minted.ok) return failed(minted.reason, { master: raw(master) });
  ctx.ledger.governedJettons.push(j);
  return ok({ master: raw(master), admin: raw(admin.address), minted: amount.toString(), metadataUri });
}

export async function governedMintStep(ctx: StepContext): Promise<StepOutcome> {
  const candidates = ctx.ledger.governedJettons.filter((j) => genesisWallet(ctx, j.admin));
  if (candidates.length === 0) return skipped('no governed jetton with one of our wallets as admin');
  const j = ctx.rng.pick(candidates);
  const admin = genesisWallet(ctx, j.admin)!;
  const to = recipient(ctx, admin, 4);
  const amount = ctx.rng.bigint(100n, 10_000n) * UNIT;
  const before = await balanceOf(ctx, j, to);
  const body = mintBody(BigInt(ctx.step), to, amount, admin.address);
  const err = await sendFrom(ctx, admin, [internal({ to: j.master, value: toNano('0.2'), bounce: true, body })]);
  if (err) return failed(err);
  const minted = await waitForBalance(ctx, j, to, before + amount, j.totalSupply + amount);
  if (!minted.ok) return failed(minted.reason);
  credit(j, to, amount);
  j.totalSupply += amount;
  return ok({ master: raw(j.master), to: raw(to), amount: amount.toString() });
}

/**
 * The admin freezes a holder (cannot send) and moves part of its tokens to another holder, both through call_to:
 * the master sends set_status, then transfer, to the holder's wallet, which honours them from the master only.
 */
export async function governedForceTransferStep(ctx: StepContext): Promise<StepOutcome> {
  const candidates = ctx.ledger.governedJettons.flatMap((j) =>
    genesisWallet(ctx, j.admin)
      ? [...j.balances].filter(([, balance]) => balance > 0n).map(([owner, balance]) => ({ j, owner, balance }))
      : [],
  );
  if (candidates.length === 0) return skipped('no governed jetton holder to act on');
  const { j, owner: holderRaw, balance } = ctx.rng.pick(candidates);
  const admin = genesisWallet(ctx, j.admin)!;
  const from = Address.parseRaw(holderRaw);
  const others = ctx.wallets.filter((w) => !w.address.equals(from));
  if (others.length === 0) return skipped('nobody to move the tokens to');
  const to = ctx.rng.pick(others).address;
  const amount = ctx.rng.bigint(1n, balance > 2n ? balance / 2n : balance);
  const q = BigInt(ctx.step);
  const lock = toCell(storeGovernedSetStatus({ queryId: q, status: GOVERNED_STATUS.cannotSend }));
  const transfer = toCell(
    storeJettonTransfer(jettonTransfer({ queryId: q, amount, destination: to, responseDestination: admin.address })),
  );
  const callTo = (masterMsg: Cell) =>
    internal({
      to: j.master,
      value: TON_TO_WALLET + toNano('0.1'),
      bounce: true,
      body: toCell(storeGovernedCallTo({ queryId: q, toAddress: from, tonAmount: TON_TO_WALLET, masterMsg })),
    });
  const toBefore = await balanceOf(ctx, j, to);
  const err = await sendFrom(ctx, admin, [callTo(lock), callTo(transfer)]);
  if (err) return failed(err);
  const moved = await wait(ctx, `the forced transfer from ${raw(from)} to ${raw(to)}`, async () => {
    const [fromBalance, toBalance, status] = await Promise.all([
      balanceOf(ctx, j, from),
      balanceOf(ctx, j, to),
      statusOf(ctx, j, from),
    ]);
    return fromBalance === balance - amount && toBalance === toBefore + amount && status === GOVERNED_STATUS.cannotSend
      ? true
      : undefined;
  });
  if (!moved.ok) return failed(moved.reason);
  credit(j, from, -amount);
  credit(j, to, amount);
  j.statuses.set(raw(from), GOVERNED_STATUS.cannotSend);
  return ok({ master: raw(j.master), from: raw(from), to: raw(to), amount: amount.toString(), locked: raw(from) });
}
