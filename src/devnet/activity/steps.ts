// One function per kind of activity step. A step signs with a genesis wallet, sends an external message through the
// chain client, then waits (bounded) for its effects as any client would see them: the wallet's seqno, jetton and
// NFT getters, the transactions of the accounts involved. It returns what happened; it never throws for a failed
// or slow effect (errors of the chain client itself do propagate to the loop).
// The helpers they share are in step-kit.ts; the contract families' steps are in steps-<family>.ts.
import { Address, type Cell, contractAddress, internal, type Transaction, toNano } from '@ton/core';
import { JETTON_OP, NFT_OP } from '../../ton/index.ts';
import {
  JETTON_ERROR,
  jettonMinterStateInit,
  jettonTransfer,
  jettonWalletAddress,
  NO_PAYLOAD,
  nftCollectionStateInit,
  nftItemAddress,
  nftItemInitCell,
  offchainContent,
  onchainContent,
  snakeText,
  storeJettonBurn,
  storeJettonInternalTransfer,
  storeJettonMint,
  storeJettonTransfer,
  storeNftBatchDeploy,
  storeNftDeployItem,
  storeNftTransfer,
  textComment,
  toCell,
} from '../contracts/index.ts';
import type { LedgerCollection, LedgerJetton } from './ledger-core.ts';
import {
  failed,
  freshAddress,
  genesisWallet,
  inboundFrom,
  type JettonLine,
  jettonBalance,
  jettonSupply,
  nftOwner,
  OWN_JETTONS,
  ok,
  opOf,
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
import { dnsDeleteStep, dnsRegisterStep, dnsSetWalletStep, dnsTransferStep } from './steps-dns.ts';
import { governedDeployStep, governedForceTransferStep, governedMintStep } from './steps-governed.ts';
import { multisigApproveStep, multisigDeployStep, multisigOrderStep } from './steps-multisig.ts';
import { saleBuyStep, saleListStep } from './steps-sale.ts';
import {
  highloadDeployStep,
  highloadSendStep,
  stdJettonDeployStep,
  stdNftDeployStep,
  stdNftTransferStep,
  TONWEB_JETTONS,
} from './steps-standard.ts';
import { vestingDeployStep, vestingSendStep, vestingWhitelistStep } from './steps-vesting.ts';
import type { ActivityStepKind } from './types.ts';
import type { ActivityWallet } from './wallets.ts';

function computeExit(tx: Transaction): number | undefined {
  const d = tx.description;
  return d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase.exitCode : undefined;
}

export function credit(j: LedgerJetton, owner: Address, amount: bigint) {
  j.balances.set(raw(owner), (j.balances.get(raw(owner)) ?? 0n) + amount);
}

// --- TON transfers -------------------------------------------------------------------------------------------

async function transferStep(ctx: StepContext): Promise<StepOutcome> {
  const from = ctx.rng.pick(ctx.wallets);
  const to = recipient(ctx, from, 2);
  const isWallet = genesisWallet(ctx, to) !== undefined;
  const value = ctx.rng.bigint(toNano('0.01'), toNano('0.5'));
  const comment = phrase(ctx);
  const body = textComment(comment);
  // Fresh addresses get a non-bounceable transfer (it creates an uninit account), wallets a bounceable one.
  const err = await sendFrom(ctx, from, [internal({ to, value, bounce: isWallet, body })]);
  if (err) return failed(err);
  const arrived = await waitForTx(ctx, `the transfer to ${raw(to)}`, to, (tx) => {
    const m = inboundFrom(tx, from.address);
    return m?.body.hash().equals(body.hash()) === true;
  });
  if (!arrived.ok) return failed(arrived.reason);
  ctx.ledger.transfers.push({ step: ctx.step, from: from.address, to, value, comment });
  return ok({ from: raw(from.address), to: raw(to), value: value.toString(), comment });
}

async function bounceStep(ctx: StepContext): Promise<StepOutcome> {
  const from = ctx.rng.pick(ctx.wallets);
  const to = freshAddress(ctx.rng);
  const value = ctx.rng.bigint(toNano('0.05'), toNano('0.2'));
  const err = await sendFrom(ctx, from, [internal({ to, value, bounce: true, body: textComment(phrase(ctx)) })]);
  if (err) return failed(err);
  const back = await waitForTx(
    ctx,
    `the bounce from ${raw(to)}`,
    from.address,
    (tx) => inboundFrom(tx, to)?.bounced === true,
  );
  if (!back.ok) return failed(back.reason);
  ctx.ledger.bounces.push({ step: ctx.step, from: from.address, to });
  return ok({ from: raw(from.address), to: raw(to) });
}

/** A jetton transfer sent to somebody else's jetton wallet: the wallet refuses it (705) and bounces the TON. */
async function failedComputeStep(ctx: StepContext): Promise<StepOutcome> {
  const candidates = ctx.ledger.jettons.flatMap((j) =>
    [...j.balances.keys()].map((owner) => ({ j, owner: Address.parseRaw(owner) })),
  );
  if (candidates.length === 0) return skipped('no jetton wallet exists yet to refuse a transfer');
  const { j, owner } = ctx.rng.pick(candidates);
  const attacker = ctx.wallets.find((w) => !w.address.equals(owner)) ?? ctx.rng.pick(ctx.wallets);
  const victimWallet = jettonWalletAddress(j.master, owner);
  const body = toCell(
    storeJettonTransfer(
      jettonTransfer({
        queryId: BigInt(ctx.step),
        amount: 1n,
        destination: attacker.address,
        responseDestination: attacker.address,
      }),
    ),
  );
  const err = await sendFrom(ctx, attacker, [internal({ to: victimWallet, value: toNano('0.1'), bounce: true, body })]);
  if (err) return failed(err);
  const refused = await waitForTx(ctx, `the refusal by ${raw(victimWallet)}`, victimWallet, (tx) => {
    const m = inboundFrom(tx, attacker.address);
    return m?.body.hash().equals(body.hash()) === true;
  });
  if (!refused.ok) return failed(refused.reason);
  const exitCode = computeExit(refused.value);
  if (exitCode !== JETTON_ERROR.notOwner) {
    return failed(`expected the jetton wallet to refuse with ${JETTON_ERROR.notOwner}, it exited with ${exitCode}`);
  }
  ctx.ledger.failedComputes.push({ step: ctx.step, from: attacker.address, to: victimWallet, exitCode });
  return ok({ from: raw(attacker.address), to: raw(victimWallet), exitCode });
}

// --- jettons -------------------------------------------------------------------------------------------------

function mintMessage(ctx: StepContext, to: Address, amount: bigint, admin: Address): Cell {
  const masterMsg = toCell(
    storeJettonInternalTransfer({
      queryId: BigInt(ctx.step),
      amount,
      from: null,
      responseAddress: admin,
      forwardTonAmount: 0n,
      forwardPayload: NO_PAYLOAD,
    }),
  );
  return toCell(storeJettonMint({ queryId: BigInt(ctx.step), toAddress: to, tonAmount: toNano('0.1'), masterMsg }));
}

async function jettonDeployStep(ctx: StepContext): Promise<StepOutcome> {
  const admin = ctx.rng.pick(ctx.wallets);
  const tag = ctx.rng.bytes(3).toString('hex').toUpperCase();
  const content = onchainContent({
    name: `Devnet Token ${tag}`,
    symbol: `DV${tag.slice(0, 3)}`,
    decimals: '9',
    description: `Minted by tongate's devnet activity (seed ${JSON.stringify(ctx.seed)}, step ${ctx.step}).`,
  });
  const init = jettonMinterStateInit({ adminAddress: admin.address, content });
  const master = contractAddress(0, init);
  const amount = ctx.rng.bigint(1_000n, 1_000_000n) * 10n ** 9n;
  const body = mintMessage(ctx, admin.address, amount, admin.address);
  const err = await sendFrom(ctx, admin, [internal({ to: master, value: toNano('0.3'), bounce: false, init, body })]);
  if (err) return failed(err);
  const minted = await wait(ctx, `the mint of ${raw(master)}`, async () =>
    (await jettonBalance(ctx, master, admin.address)) === amount ? true : undefined,
  );
  if (!minted.ok) return failed(minted.reason, { master: raw(master) });
  const supply = await jettonSupply(ctx, master);
  if (supply !== amount) return failed(`expected total supply ${amount}, get_jetton_data says ${supply}`);
  ctx.ledger.jettons.push({
    step: ctx.step,
    master,
    admin: admin.address,
    totalSupply: amount,
    balances: new Map([[raw(admin.address), amount]]),
  });
  return ok({ master: raw(master), admin: raw(admin.address), amount: amount.toString() });
}

async function jettonMintStep(ctx: StepContext): Promise<StepOutcome> {
  if (ctx.ledger.jettons.length === 0) return skipped('no jetton deployed yet');
  const j = ctx.rng.pick(ctx.ledger.jettons);
  const admin = genesisWallet(ctx, j.admin);
  if (!admin) return skipped('the jetton admin is not one of our wallets');
  const to = recipient(ctx, admin, 4);
  const amount = ctx.rng.bigint(1n, 10_000n) * 10n ** 9n;
  const before = await jettonBalance(ctx, j.master, to);
  const body = mintMessage(ctx, to, amount, admin.address);
  const err = await sendFrom(ctx, admin, [internal({ to: j.master, value: toNano('0.3'), bounce: true, body })]);
  if (err) return failed(err);
  const minted = await wait(ctx, `the mint to ${raw(to)}`, async () =>
    (await jettonBalance(ctx, j.master, to)) === before + amount ? true : undefined,
  );
  if (!minted.ok) return failed(minted.reason);
  credit(j, to, amount);
  j.totalSupply += amount;
  return ok({ master: raw(j.master), to: raw(to), amount: amount.toString() });
}

/** A genesis wallet holding jettons, with its balance read from the chain. */
async function pickHolder(
  ctx: StepContext,
  line: JettonLine,
): Promise<{ j: LedgerJetton; holder: ActivityWallet; balance: bigint } | undefined> {
  const candidates = line
    .jettons(ctx)
    .flatMap((j) =>
      ctx.wallets.filter((w) => (j.balances.get(raw(w.address)) ?? 0n) > 0n).map((holder) => ({ j, holder })),
    );
  if (candidates.length === 0) return undefined;
  const { j, holder } = ctx.rng.pick(candidates);
  const balance = await jettonBalance(ctx, j.master, holder.address, line);
  return balance > 0n ? { j, holder, balance } : undefined;
}

/** A holder sends part of its jettons of `line` with forward TON and a comment; waits for the notification. */
export const jettonTransferStepOf =
  (line: JettonLine) =>
  async (ctx: StepContext): Promise<StepOutcome> => {
    const picked = await pickHolder(ctx, line);
    if (!picked) return skipped(`no genesis wallet holds ${line.label}jettons yet`);
    const { j, holder, balance } = picked;
    const to = recipient(ctx, holder, 3);
    const amount = ctx.rng.bigint(1n, balance > 3n ? balance / 3n : balance);
    const forwardTonAmount = toNano('0.01');
    const comment = textComment(phrase(ctx));
    const receiverBefore = await jettonBalance(ctx, j.master, to, line);
    const body = toCell(
      storeJettonTransfer(
        jettonTransfer({
          queryId: BigInt(ctx.step),
          amount,
          destination: to,
          responseDestination: holder.address,
          forwardTonAmount,
          forwardPayload: { kind: 'right', value: comment },
        }),
      ),
    );
    const holderWallet = line.walletOf(j.master, holder.address);
    const err = await sendFrom(ctx, holder, [
      internal({ to: holderWallet, value: toNano('0.15'), bounce: true, body }),
    ]);
    if (err) return failed(err);
    const credited = await wait(ctx, `the ${line.label}jetton transfer to ${raw(to)}`, async () =>
      (await jettonBalance(ctx, j.master, to, line)) === receiverBefore + amount ? true : undefined,
    );
    if (!credited.ok) return failed(credited.reason);
    const receiverWallet = line.walletOf(j.master, to);
    // Found where it is sent: the receiving jetton wallet's transaction that credits `to` sends it. A fresh `to` has
    // no transaction chain to search when the notification bounces off it (tonweb's wallet sends it bounceable; the
    // account stays nonexistent), which made this step time out whenever the recipient was a new address.
    const notified = await waitForTx(ctx, `the transfer_notification to ${raw(to)}`, receiverWallet, (tx) =>
      [...tx.outMessages.values()].some(
        (m) => m.info.type === 'internal' && m.info.dest.equals(to) && opOf(m.body) === JETTON_OP.transferNotification,
      ),
    );
    if (!notified.ok) return failed(notified.reason);
    credit(j, holder.address, -amount);
    credit(j, to, amount);
    return ok({ master: raw(j.master), from: raw(holder.address), to: raw(to), amount: amount.toString() });
  };

/** A holder burns part of its jettons of `line`; the master lowers the supply on the burn_notification. */
export const jettonBurnStepOf =
  (line: JettonLine) =>
  async (ctx: StepContext): Promise<StepOutcome> => {
    const picked = await pickHolder(ctx, line);
    if (!picked) return skipped(`no genesis wallet holds ${line.label}jettons yet`);
    const { j, holder, balance } = picked;
    const amount = ctx.rng.bigint(1n, balance > 10n ? balance / 10n : balance);
    const supplyBefore = await jettonSupply(ctx, j.master);
    if (supplyBefore === undefined) return failed(`get_jetton_data of ${raw(j.master)} failed`);
    const body = toCell(
      storeJettonBurn({ queryId: BigInt(ctx.step), amount, responseDestination: holder.address, customPayload: null }),
    );
    const holderWallet = line.walletOf(j.master, holder.address);
    const err = await sendFrom(ctx, holder, [internal({ to: holderWallet, value: toNano('0.1'), bounce: true, body })]);
    if (err) return failed(err);
    const burned = await wait(ctx, `the burn reaching ${raw(j.master)}`, async () =>
      (await jettonSupply(ctx, j.master)) === supplyBefore - amount ? true : undefined,
    );
    if (!burned.ok) return failed(burned.reason);
    credit(j, holder.address, -amount);
    j.totalSupply -= amount;
    return ok({ master: raw(j.master), owner: raw(holder.address), amount: amount.toString() });
  };

// --- NFTs ----------------------------------------------------------------------------------------------------

function itemInit(owner: Address, index: bigint): Cell {
  return nftItemInitCell({ owner, individualContent: snakeText(`${index}.json`) });
}

async function waitForOwners(ctx: StepContext, c: LedgerCollection, items: Array<{ index: bigint; owner: Address }>) {
  return wait(ctx, `items ${items.map((i) => i.index).join(', ')} of ${raw(c.address)}`, async () => {
    for (const it of items) {
      const owner = await nftOwner(ctx, nftItemAddress(c.address, it.index));
      if (!owner?.equals(it.owner)) return undefined;
    }
    return true;
  });
}

async function nftDeployStep(ctx: StepContext): Promise<StepOutcome> {
  const owner = ctx.rng.pick(ctx.wallets);
  const tag = ctx.rng.bytes(4).toString('hex');
  const base = `https://devnet.tongate.invalid/nft/${tag}/`;
  const init = nftCollectionStateInit({
    ownerAddress: owner.address,
    collectionContent: offchainContent(`${base}collection.json`),
    commonContent: snakeText(base),
    royaltyParams: { numerator: 1 + ctx.rng.int(10), denominator: 100, destination: owner.address },
  });
  const address = contractAddress(0, init);
  const firstOwner = ctx.rng.pick(ctx.wallets).address;
  const body = toCell(
    storeNftDeployItem({
      queryId: BigInt(ctx.step),
      itemIndex: 0n,
      amount: toNano('0.06'),
      content: itemInit(firstOwner, 0n),
    }),
  );
  const err = await sendFrom(ctx, owner, [internal({ to: address, value: toNano('0.3'), bounce: false, init, body })]);
  if (err) return failed(err);
  const c: LedgerCollection = { step: ctx.step, address, owner: owner.address, nextItemIndex: 1n, items: [] };
  const deployed = await waitForOwners(ctx, c, [{ index: 0n, owner: firstOwner }]);
  if (!deployed.ok) return failed(deployed.reason, { collection: raw(address) });
  c.items.push({ index: 0n, address: nftItemAddress(address, 0n), owner: firstOwner });
  ctx.ledger.collections.push(c);
  return ok({ collection: raw(address), owner: raw(owner.address), item0Owner: raw(firstOwner) });
}

async function nftMintStep(ctx: StepContext): Promise<StepOutcome> {
  if (ctx.ledger.collections.length === 0) return skipped('no NFT collection deployed yet');
  const c = ctx.rng.pick(ctx.ledger.collections);
  const owner = genesisWallet(ctx, c.owner);
  if (!owner) return skipped('the collection owner is not one of our wallets');
  const count = 1 + ctx.rng.int(3);
  const minted = Array.from({ length: count }, (_, i) => ({
    index: c.nextItemIndex + BigInt(i),
    owner: recipient(ctx, owner, 4),
  }));
  const body =
    count === 1
      ? toCell(
          storeNftDeployItem({
            queryId: BigInt(ctx.step),
            itemIndex: minted[0]!.index,
            amount: toNano('0.06'),
            content: itemInit(minted[0]!.owner, minted[0]!.index),
          }),
        )
      : toCell(
          storeNftBatchDeploy({
            queryId: BigInt(ctx.step),
            deployList: new Map(
              minted.map((m) => [m.index, { amount: toNano('0.06'), content: itemInit(m.owner, m.index) }]),
            ),
          }),
        );
  const value = toNano('0.1') * BigInt(count) + toNano('0.05');
  const err = await sendFrom(ctx, owner, [internal({ to: c.address, value, bounce: true, body })]);
  if (err) return failed(err);
  const done = await waitForOwners(ctx, c, minted);
  if (!done.ok) return failed(done.reason);
  for (const m of minted) c.items.push({ index: m.index, address: nftItemAddress(c.address, m.index), owner: m.owner });
  c.nextItemIndex += BigInt(count);
  return ok({ collection: raw(c.address), items: minted.map((m) => m.index.toString()) });
}

async function nftTransferStep(ctx: StepContext): Promise<StepOutcome> {
  const candidates = ctx.ledger.collections.flatMap((c) =>
    c.items.filter((it) => genesisWallet(ctx, it.owner)).map((it) => ({ c, it })),
  );
  if (candidates.length === 0) return skipped('no NFT item is owned by one of our wallets');
  const { c, it } = ctx.rng.pick(candidates);
  const from = genesisWallet(ctx, it.owner)!;
  const to = recipient(ctx, from, 3);
  const comment = textComment(phrase(ctx));
  const body = toCell(
    storeNftTransfer({
      queryId: BigInt(ctx.step),
      newOwner: to,
      responseDestination: from.address,
      customPayload: null,
      forwardAmount: toNano('0.01'),
      forwardPayload: { kind: 'right', value: comment },
    }),
  );
  const err = await sendFrom(ctx, from, [internal({ to: it.address, value: toNano('0.1'), bounce: true, body })]);
  if (err) return failed(err);
  const moved = await waitForOwners(ctx, c, [{ index: it.index, owner: to }]);
  if (!moved.ok) return failed(moved.reason);
  const assigned = await waitForTx(ctx, `ownership_assigned to ${raw(to)}`, to, (tx) => {
    const m = inboundFrom(tx, it.address);
    return m !== undefined && opOf(m.body) === NFT_OP.ownershipAssigned;
  });
  if (!assigned.ok) return failed(assigned.reason);
  it.owner = to;
  return ok({ item: raw(it.address), index: it.index.toString(), from: raw(from.address), to: raw(to) });
}

export const STEPS: Record<ActivityStepKind, (ctx: StepContext) => Promise<StepOutcome>> = {
  transfer: transferStep,
  bounce: bounceStep,
  'failed-compute': failedComputeStep,
  'jetton-deploy': jettonDeployStep,
  'jetton-mint': jettonMintStep,
  'jetton-transfer': jettonTransferStepOf(OWN_JETTONS),
  'jetton-burn': jettonBurnStepOf(OWN_JETTONS),
  'nft-deploy': nftDeployStep,
  'nft-mint': nftMintStep,
  'nft-transfer': nftTransferStep,
  'vesting-deploy': vestingDeployStep,
  'vesting-whitelist': vestingWhitelistStep,
  'vesting-send': vestingSendStep,
  'std-nft-deploy': stdNftDeployStep,
  'std-nft-transfer': stdNftTransferStep,
  'nft-sale-list': saleListStep,
  'nft-sale-buy': saleBuyStep,
  'std-jetton-deploy': stdJettonDeployStep,
  'std-jetton-transfer': jettonTransferStepOf(TONWEB_JETTONS),
  'std-jetton-burn': jettonBurnStepOf(TONWEB_JETTONS),
  'highload-deploy': highloadDeployStep,
  'highload-send': highloadSendStep,
  'multisig-deploy': multisigDeployStep,
  'multisig-order': multisigOrderStep,
  'multisig-approve': multisigApproveStep,
  'dns-register': dnsRegisterStep,
  'dns-set-wallet': dnsSetWalletStep,
  'dns-delete': dnsDeleteStep,
  'dns-transfer': dnsTransferStep,
  'governed-deploy': governedDeployStep,
  'governed-mint': governedMintStep,
  'governed-force-transfer': governedForceTransferStep,
};
