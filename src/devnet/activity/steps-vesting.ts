// Activity steps for the standard vesting wallet (tonweb's code): a genesis wallet deploys a vesting for another one
// with one whitelisted address, adds addresses later, and the owner sends from it, by either of the two paths the
// contract offers (an internal send from the owner's wallet, or an external signed with the owner's key).
import { type Address, beginCell, type Cell, external, internal, storeMessage, toNano } from '@ton/core';
import { VESTING_OP } from '../../ton/index.ts';
import {
  isWhitelistedArgs,
  readIsWhitelisted,
  readVestingData,
  storeVestingAddWhitelist,
  storeVestingSend,
  textComment,
  toCell,
  VESTING_DEFAULT_SUBWALLET_ID,
  VESTING_LOCKED_SEND_MODE,
  type VestingParams,
  vestingAddress,
  vestingExternalBody,
  vestingStateInit,
} from '../contracts/index.ts';
import type { ActivityChain } from './chain.ts';
import type { LedgerVesting } from './ledger-standard.ts';
import {
  failed,
  freshAddress,
  genesisWallet,
  inboundFrom,
  ok,
  raw,
  type StepContext,
  type StepOutcome,
  sendFrom,
  skipped,
  wait,
  waitForTx,
} from './step-kit.ts';

/** Short enough that some of it unlocks during a run: 10 minutes, unlocking every 30 s after a 30 s cliff. */
const TOTAL_DURATION_S = 600;
const UNLOCK_PERIOD_S = 30;
const CLIFF_S = 30;
/** Deposited on top of the vested amount: pays for the sends and leaves unlocked coins from the start. */
const DEPOSIT_EXTRA = toNano('1');
const VALID_FOR_S = 120;

async function isWhitelisted(chain: ActivityChain, v: LedgerVesting, address: Address) {
  const r = await chain.runGetMethod(v.address, 'is_whitelisted', isWhitelistedArgs(address));
  return r.exitCode === 0 ? readIsWhitelisted(r.stack) : undefined;
}

async function vestingSeqno(ctx: StepContext, v: LedgerVesting): Promise<number | undefined> {
  const r = await ctx.chain.runGetMethod(v.address, 'seqno');
  const top = r.stack[0];
  return r.exitCode === 0 && top?.type === 'int' ? Number(top.value) : undefined;
}

/** A vesting reply: op:uint32 query_id:uint64. */
function isReply(body: Cell, op: number, queryId: bigint): boolean {
  const s = body.beginParse();
  return s.remainingBits >= 96 && s.loadUint(32) === op && s.loadUintBig(64) === queryId;
}

function sameParams(a: VestingParams, d: ReturnType<typeof readVestingData>): boolean {
  return (
    d.startTime === BigInt(a.startTime) &&
    d.totalDuration === BigInt(a.totalDuration) &&
    d.unlockPeriod === BigInt(a.unlockPeriod) &&
    d.cliffDuration === BigInt(a.cliffDuration) &&
    d.totalAmount === a.totalAmount &&
    d.senderAddress.equals(a.senderAddress) &&
    d.ownerAddress.equals(a.ownerAddress)
  );
}

/** A genesis wallet deploys a vesting for another one and whitelists a third address right after. */
export async function vestingDeployStep(ctx: StepContext): Promise<StepOutcome> {
  const sender = ctx.rng.pick(ctx.wallets);
  const others = ctx.wallets.filter((w) => !w.address.equals(sender.address));
  if (others.length === 0) return skipped('a vesting needs a sender and another wallet as its owner');
  const owner = ctx.rng.pick(others);
  const thirds = others.filter((w) => !w.address.equals(owner.address));
  const listed = thirds.length > 0 ? ctx.rng.pick(thirds).address : freshAddress(ctx.rng);
  const params: VestingParams = {
    startTime: await ctx.chain.now(), // the chain's clock, not a seed choice: unlocking must happen during the run
    totalDuration: TOTAL_DURATION_S,
    unlockPeriod: UNLOCK_PERIOD_S,
    cliffDuration: CLIFF_S,
    totalAmount: ctx.rng.bigint(20n, 50n) * toNano('0.1'),
    senderAddress: sender.address,
    ownerAddress: owner.address,
  };
  const init = vestingStateInit({ publicKey: owner.publicKey, params });
  const address = vestingAddress(init);
  const body = toCell(storeVestingAddWhitelist({ queryId: BigInt(ctx.step), addresses: [listed] }));
  const value = params.totalAmount + DEPOSIT_EXTRA;
  // Two messages in order: the deposit with the StateInit, then add_whitelist (its reply carries back, with mode 64,
  // whatever value the request brought, so the deposit must not ride on it).
  const err = await sendFrom(ctx, sender, [
    internal({ to: address, value, bounce: false, init }),
    internal({ to: address, value: toNano('0.05'), bounce: true, body }),
  ]);
  if (err) return failed(err);
  const v: LedgerVesting = {
    step: ctx.step,
    address,
    subwalletId: VESTING_DEFAULT_SUBWALLET_ID,
    publicKey: owner.publicKey,
    params,
    whitelist: [listed],
    sends: [],
  };
  const ready = await wait(ctx, `the vesting ${raw(address)} funded, with ${raw(listed)} whitelisted`, async () =>
    (await isWhitelisted(ctx.chain, v, listed)) && (await ctx.chain.getAccount(address)).balance >= params.totalAmount
      ? true
      : undefined,
  );
  if (!ready.ok) return failed(ready.reason, { vesting: raw(address) });
  const data = await ctx.chain.runGetMethod(address, 'get_vesting_data');
  if (data.exitCode !== 0 || !sameParams(params, readVestingData(data.stack))) {
    return failed(`get_vesting_data of ${raw(address)} does not show the deployed parameters`);
  }
  ctx.ledger.standard.vestings.push(v);
  return ok({
    vesting: raw(address),
    sender: raw(sender.address),
    owner: raw(owner.address),
    amount: params.totalAmount.toString(),
    whitelisted: raw(listed),
  });
}

/** The vesting's sender whitelists one more address: another genesis wallet not yet listed, else a fresh one. */
export async function vestingWhitelistStep(ctx: StepContext): Promise<StepOutcome> {
  const candidates = ctx.ledger.standard.vestings.filter((v) => genesisWallet(ctx, v.params.senderAddress));
  if (candidates.length === 0) return skipped('no vesting deployed by one of our wallets yet');
  const v = ctx.rng.pick(candidates);
  const sender = genesisWallet(ctx, v.params.senderAddress)!;
  // The owner and the sender gain nothing from being listed (the sender receives anything anyway).
  const unlisted = ctx.wallets.filter(
    (w) =>
      !w.address.equals(v.params.ownerAddress) &&
      !w.address.equals(sender.address) &&
      !v.whitelist.some((a) => a.equals(w.address)),
  );
  const added = unlisted.length > 0 ? ctx.rng.pick(unlisted).address : freshAddress(ctx.rng);
  const body = toCell(storeVestingAddWhitelist({ queryId: BigInt(ctx.step), addresses: [added] }));
  const err = await sendFrom(ctx, sender, [internal({ to: v.address, value: toNano('0.05'), bounce: true, body })]);
  if (err) return failed(err);
  const listed = await wait(ctx, `${raw(added)} on the whitelist of ${raw(v.address)}`, async () =>
    (await isWhitelisted(ctx.chain, v, added)) ? true : undefined,
  );
  if (!listed.ok) return failed(listed.reason);
  const replied = await waitForTx(ctx, `add_whitelist_response to ${raw(sender.address)}`, sender.address, (tx) => {
    const m = inboundFrom(tx, v.address);
    return m !== undefined && isReply(m.body, VESTING_OP.addWhitelistResponse, BigInt(ctx.step));
  });
  if (!replied.ok) return failed(replied.reason);
  v.whitelist.push(added);
  return ok({ vesting: raw(v.address), added: raw(added) });
}

/**
 * The owner sends some TON from the vesting to a whitelisted genesis wallet (or back to the vesting's sender), with
 * a comment starting with "w" as the locking rules require; half the time through the signed external instead.
 */
export async function vestingSendStep(ctx: StepContext): Promise<StepOutcome> {
  const candidates = ctx.ledger.standard.vestings.filter((v) => genesisWallet(ctx, v.params.ownerAddress));
  if (candidates.length === 0) return skipped('no vesting owned by one of our wallets yet');
  const v = ctx.rng.pick(candidates);
  const owner = genesisWallet(ctx, v.params.ownerAddress)!;
  const listed = v.whitelist.filter((a) => genesisWallet(ctx, a));
  const to = listed.length > 0 ? ctx.rng.pick(listed) : v.params.senderAddress;
  const value = ctx.rng.bigint(5n, 30n) * toNano('0.01');
  const comment = textComment(`withdrawal #${ctx.step} from vesting`);
  const message = internal({ to, value, bounce: true, body: comment });
  const out = { sendMode: VESTING_LOCKED_SEND_MODE, message };
  const path = ctx.rng.chance(1, 2) ? 'external' : 'internal';

  if (path === 'internal') {
    const body = toCell(storeVestingSend({ queryId: BigInt(ctx.step), ...out }));
    const err = await sendFrom(ctx, owner, [internal({ to: v.address, value: toNano('0.1'), bounce: true, body })]);
    if (err) return failed(err);
  } else {
    const seqno = await vestingSeqno(ctx, v);
    if (seqno === undefined) return failed(`could not read the seqno of vesting ${raw(v.address)}`);
    const validUntil = (await ctx.chain.now()) + VALID_FOR_S;
    const body = vestingExternalBody({
      subwalletId: v.subwalletId,
      validUntil,
      seqno,
      out,
      secretKey: owner.secretKey,
    });
    await ctx.chain.sendExternal(
      beginCell()
        .store(storeMessage(external({ to: v.address, body })))
        .endCell(),
    );
    const moved = await wait(ctx, `the seqno of vesting ${raw(v.address)} to pass ${seqno}`, async () => {
      const now = await vestingSeqno(ctx, v);
      return now !== undefined && now > seqno ? now : undefined;
    });
    if (!moved.ok) return failed(moved.reason);
  }
  const arrived = await waitForTx(ctx, `the vesting's payment to ${raw(to)}`, to, (tx) => {
    const m = inboundFrom(tx, v.address);
    return m?.body.hash().equals(comment.hash()) === true;
  });
  if (!arrived.ok) return failed(arrived.reason, { path });
  if (path === 'internal') {
    const replied = await waitForTx(ctx, `send_response to ${raw(owner.address)}`, owner.address, (tx) => {
      const m = inboundFrom(tx, v.address);
      return m !== undefined && isReply(m.body, VESTING_OP.sendResponse, BigInt(ctx.step));
    });
    if (!replied.ok) return failed(replied.reason, { path });
  }
  v.sends.push({ step: ctx.step, path, to, value });
  return ok({ vesting: raw(v.address), path, to: raw(to), value: value.toString() });
}
