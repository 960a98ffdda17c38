// The multisig v2 steps of the activity: deploy a 2-of-3 multisig whose signers are genesis wallets, have a signer
// propose an order paying TON to somebody (its proposal counts as its approval), and have another signer approve it,
// which reaches the threshold: the order sends execute and the multisig pays. Effects are read back through
// get_multisig_data and get_order_data, and the payment through the receiver's transactions.
import { type Address, type Cell, contractAddress, internal, toNano } from '@ton/core';
import {
  getOrderEstimateArgs,
  type MultisigOrderDataResult,
  multisigOrderAddress,
  multisigStateInit,
  orderCell,
  readMultisigData,
  readMultisigOrderData,
  readOrderEstimate,
  storeMultisigApprove,
  storeMultisigNewOrder,
  textComment,
  toCell,
} from '../contracts/index.ts';
import type { LedgerMultisig, LedgerMultisigOrder } from './ledger-multisig.ts';
import {
  failed,
  freshAddress,
  genesisWallet,
  inboundFrom,
  ok,
  phrase,
  raw,
  recipient,
  type StepContext,
  type StepOutcome,
  sendFrom,
  skipped,
  wait,
  waitForTx,
} from './step-kit.ts';
import type { ActivityWallet } from './wallets.ts';

const SIGNERS = 3;
const THRESHOLD = 2;
/** What a new multisig gets to pay from; every order pays at most MAX_PAYMENT. */
const MULTISIG_FUNDS = toNano('10');
const MAX_PAYMENT = toNano('0.5');
/** Orders expire a day after they are proposed (their storage is paid until then). */
const ORDER_LIFETIME_S = 24 * 3600;
/** send_message mode: pay the forward fee separately, ignore errors (a failed payment must not block the rest). */
const PAYMENT_MODE = 3;

const sameAddresses = (a: readonly Address[], b: readonly Address[]) =>
  a.length === b.length && a.every((x, i) => x.equals(b[i]!));

/** `n` distinct wallets in a seed-determined order. */
function drawWallets(ctx: StepContext, n: number): ActivityWallet[] {
  const pool = [...ctx.wallets];
  const out: ActivityWallet[] = [];
  while (out.length < n && pool.length > 0) out.push(pool.splice(ctx.rng.int(pool.length), 1)[0]!);
  return out;
}

async function orderData(ctx: StepContext, order: Address): Promise<MultisigOrderDataResult | undefined> {
  const r = await ctx.chain.runGetMethod(order, 'get_order_data');
  return r.exitCode === 0 ? readMultisigOrderData(r.stack) : undefined;
}

const approvalsIn = (mask: bigint) => mask.toString(2).replaceAll('0', '').length;

/** Waits until the order shows `mask` approved, then (at the threshold) for the payment to reach its receiver. */
async function waitForApprovals(
  ctx: StepContext,
  m: LedgerMultisig,
  o: LedgerMultisigOrder,
  mask: bigint,
): Promise<string | null> {
  const executes = approvalsIn(mask) >= m.threshold;
  const approved = await wait(ctx, `approvals ${mask.toString(2)} on order ${raw(o.address)}`, async () => {
    const d = await orderData(ctx, o.address);
    return d?.init && d.approvalsMask === mask && d.sentForExecution === executes ? true : undefined;
  });
  if (!approved.ok) return approved.reason;
  if (!executes) return null;
  const body = textComment(o.payment.comment);
  const paid = await waitForTx(ctx, `the payment of order ${raw(o.address)}`, o.payment.receiver, (tx) =>
    Boolean(inboundFrom(tx, m.address)?.body.hash().equals(body.hash())),
  );
  return paid.ok ? null : paid.reason;
}

export async function multisigDeployStep(ctx: StepContext): Promise<StepOutcome> {
  const signers = drawWallets(ctx, SIGNERS);
  if (signers.length < 2) return skipped('a multisig needs at least two genesis wallets');
  const threshold = Math.min(THRESHOLD, signers.length);
  // A proposer outside the genesis wallets shows a proposer list and makes every deploy a new address (the
  // storage has no nonce, so equal signer sets would otherwise collide).
  const proposers = [freshAddress(ctx.rng)];
  const signerAddresses = signers.map((w) => w.address);
  const init = multisigStateInit({ threshold, signers: signerAddresses, proposers });
  const address = contractAddress(0, init);
  const deployer = signers[0]!;
  const err = await sendFrom(ctx, deployer, [internal({ to: address, value: MULTISIG_FUNDS, bounce: false, init })]);
  if (err) return failed(err);
  const deployed = await wait(ctx, `the multisig ${raw(address)}`, async () => {
    const r = await ctx.chain.runGetMethod(address, 'get_multisig_data');
    if (r.exitCode !== 0) return undefined;
    const d = readMultisigData(r.stack);
    return d.threshold === threshold && sameAddresses(d.signers, signerAddresses) ? d : undefined;
  });
  if (!deployed.ok) return failed(deployed.reason, { multisig: raw(address) });
  ctx.ledger.multisigs.push({
    step: ctx.step,
    address,
    signers: signerAddresses,
    proposers,
    threshold,
    nextOrderSeqno: deployed.value.nextOrderSeqno,
    orders: [],
  });
  return ok({ multisig: raw(address), threshold, signers: signerAddresses.map(raw) });
}

export async function multisigOrderStep(ctx: StepContext): Promise<StepOutcome> {
  if (ctx.ledger.multisigs.length === 0) return skipped('no multisig deployed yet');
  const m = ctx.rng.pick(ctx.ledger.multisigs);
  const members = m.signers.flatMap((a, index) => {
    const wallet = genesisWallet(ctx, a);
    return wallet ? [{ wallet, index }] : [];
  });
  if (members.length === 0) return skipped('no signer of the multisig is one of our wallets');
  const { wallet: proposer, index } = ctx.rng.pick(members);
  const receiver = recipient(ctx, proposer, 3);
  const value = ctx.rng.bigint(toNano('0.05'), MAX_PAYMENT);
  const comment = phrase(ctx);
  const order: Cell = orderCell([
    {
      type: 'send_message',
      mode: PAYMENT_MODE,
      // Fresh addresses get a non-bounceable payment (it creates an uninit account), wallets a bounceable one.
      message: internal({
        to: receiver,
        value,
        bounce: genesisWallet(ctx, receiver) !== undefined,
        body: textComment(comment),
      }),
    },
  ]);

  const balance = (await ctx.chain.getAccount(m.address)).balance;
  if (balance < value + toNano('1')) return skipped(`multisig ${raw(m.address)} has too little to pay (${balance})`);
  const data = await ctx.chain.runGetMethod(m.address, 'get_multisig_data');
  if (data.exitCode !== 0) return failed(`get_multisig_data of ${raw(m.address)} exited with ${data.exitCode}`);
  const seqno = readMultisigData(data.stack).nextOrderSeqno;
  const expirationDate = (await ctx.chain.now()) + ORDER_LIFETIME_S;
  const est = await ctx.chain.runGetMethod(
    m.address,
    'get_order_estimate',
    getOrderEstimateArgs(order, expirationDate),
  );
  if (est.exitCode !== 0) return failed(`get_order_estimate of ${raw(m.address)} exited with ${est.exitCode}`);
  // A little over the estimate: the multisig computes it again a few seconds later.
  const attached = readOrderEstimate(est.stack) + toNano('0.02');

  const body = toCell(
    storeMultisigNewOrder({
      queryId: BigInt(ctx.step),
      orderSeqno: seqno,
      isSigner: true,
      index,
      expirationDate,
      order,
    }),
  );
  const err = await sendFrom(ctx, proposer, [internal({ to: m.address, value: attached, bounce: true, body })]);
  if (err) return failed(err);
  const o: LedgerMultisigOrder = {
    step: ctx.step,
    // (our multisigs never allow arbitrary seqnos, so next_order_seqno is the new order's)
    seqno,
    address: multisigOrderAddress(m.address, seqno),
    proposer: proposer.address,
    expirationDate,
    approvals: [index],
    approvalsMask: 1n << BigInt(index),
    executed: false,
    payment: { receiver, value, comment },
  };
  const shown = await waitForApprovals(ctx, m, o, o.approvalsMask);
  if (shown) return failed(shown, { order: raw(o.address) });
  o.executed = approvalsIn(o.approvalsMask) >= m.threshold;
  m.nextOrderSeqno = seqno + 1n;
  m.orders.push(o);
  return ok({
    multisig: raw(m.address),
    order: raw(o.address),
    seqno: seqno.toString(),
    proposer: raw(proposer.address),
  });
}

export async function multisigApproveStep(ctx: StepContext): Promise<StepOutcome> {
  const candidates = ctx.ledger.multisigs.flatMap((m) =>
    m.orders
      .filter((o) => !o.executed)
      .flatMap((o) =>
        m.signers.flatMap((a, index) => {
          const wallet = genesisWallet(ctx, a);
          return wallet && !o.approvals.includes(index) ? [{ m, o, wallet, index }] : [];
        }),
      ),
  );
  if (candidates.length === 0) return skipped('no pending multisig order awaits one of our signers');
  const { m, o, wallet, index } = ctx.rng.pick(candidates);
  const body = toCell(storeMultisigApprove({ queryId: BigInt(ctx.step), signerIndex: index }));
  const err = await sendFrom(ctx, wallet, [internal({ to: o.address, value: toNano('0.1'), bounce: true, body })]);
  if (err) return failed(err);
  const mask = o.approvalsMask | (1n << BigInt(index));
  const shown = await waitForApprovals(ctx, m, o, mask);
  if (shown) return failed(shown, { order: raw(o.address) });
  o.approvals.push(index);
  o.approvalsMask = mask;
  o.executed = approvalsIn(mask) >= m.threshold;
  return ok({
    order: raw(o.address),
    signer: raw(wallet.address),
    approvals: o.approvals.length,
    executed: o.executed,
    ...(o.executed ? { paid: raw(o.payment.receiver), value: o.payment.value.toString() } : {}),
  });
}
