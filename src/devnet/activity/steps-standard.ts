// Activity steps for standard codes that tonweb ships (besides vesting): token-contract's editable NFT collection with
// simple items, highload wallet v3, and tonweb's jetton minter and wallet. Deployed by genesis wallets, exercised as
// their clients would.

import { type Address, beginCell, external, internal, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { NFT_OP } from '../../ton/index.ts';
import {
  HIGHLOAD_V3_DEFAULT_SUBWALLET_ID,
  highloadQueryIdAt,
  highloadQueryIdValue,
  highloadV3Address,
  highloadV3ExternalBody,
  highloadV3StateInit,
  offchainContent,
  processedArgs,
  readHighloadPublicKey,
  readProcessed,
  STANDARD_ROYALTY_BASE,
  snakeText,
  standardJettonMintBody,
  standardJettonMinterAddress,
  standardJettonMinterStateInit,
  standardJettonWalletAddress,
  standardNftCollectionAddress,
  standardNftCollectionStateInit,
  standardNftItemAddress,
  standardNftMintBody,
  storeNftTransfer,
  textComment,
  toCell,
} from '../contracts/index.ts';
import type { LedgerCollection } from './ledger-core.ts';
import type { LedgerHighload } from './ledger-standard.ts';
import { createRng } from './rng.ts';
import {
  failed,
  genesisWallet,
  inboundFrom,
  type JettonLine,
  jettonBalance,
  jettonSupply,
  nftOwner,
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

/** Query ids stay remembered for this long (the contract's recommended range is 1-24 h). */
const HIGHLOAD_TIMEOUT_S = 3600;
/** created_at a little in the past: it must not be ahead of the block time that runs the external. */
const CREATED_AT_SLACK_S = 10;
/** How many used query ids to skip at most (a restarted run with the same seed finds its old ones used). */
const MAX_QUERY_PROBES = 64;

// --- standard NFT ---------------------------------------------------------------------------------------------

async function waitForOwner(ctx: StepContext, c: LedgerCollection, index: bigint, owner: Address) {
  const item = standardNftItemAddress(c.address, index);
  return wait(ctx, `item ${index} of ${raw(c.address)} owned by ${raw(owner)}`, async () =>
    (await nftOwner(ctx, item))?.equals(owner) ? true : undefined,
  );
}

/** A genesis wallet deploys tonweb's collection and mints item 0 in the same message. */
export async function stdNftDeployStep(ctx: StepContext): Promise<StepOutcome> {
  const owner = ctx.rng.pick(ctx.wallets);
  const tag = ctx.rng.bytes(4).toString('hex');
  const base = `https://devnet.tongate.invalid/std-nft/${tag}/`;
  const init = standardNftCollectionStateInit({
    ownerAddress: owner.address,
    collectionContent: offchainContent(`${base}collection.json`),
    commonContent: snakeText(base),
    royaltyParams: {
      numerator: 10 * (1 + ctx.rng.int(10)),
      denominator: STANDARD_ROYALTY_BASE,
      destination: owner.address,
    },
  });
  const address = standardNftCollectionAddress(init);
  const firstOwner = ctx.rng.pick(ctx.wallets).address;
  const body = standardNftMintBody({
    queryId: BigInt(ctx.step),
    itemIndex: 0n,
    amount: toNano('0.06'),
    owner: firstOwner,
    uriTail: '0.json',
  });
  const err = await sendFrom(ctx, owner, [internal({ to: address, value: toNano('0.3'), bounce: false, init, body })]);
  if (err) return failed(err);
  const c: LedgerCollection = { step: ctx.step, address, owner: owner.address, nextItemIndex: 1n, items: [] };
  const minted = await waitForOwner(ctx, c, 0n, firstOwner);
  if (!minted.ok) return failed(minted.reason, { collection: raw(address) });
  c.items.push({ index: 0n, address: standardNftItemAddress(address, 0n), owner: firstOwner });
  ctx.ledger.standard.nftCollections.push(c);
  return ok({ collection: raw(address), owner: raw(owner.address), item0Owner: raw(firstOwner) });
}

/** A genesis wallet that owns a standard item transfers it, with a comment forwarded to the new owner. */
export async function stdNftTransferStep(ctx: StepContext): Promise<StepOutcome> {
  const candidates = ctx.ledger.standard.nftCollections.flatMap((c) =>
    c.items.filter((it) => genesisWallet(ctx, it.owner)).map((it) => ({ c, it })),
  );
  if (candidates.length === 0) return skipped('no standard NFT item is owned by one of our wallets');
  const { c, it } = ctx.rng.pick(candidates);
  const from = genesisWallet(ctx, it.owner)!;
  const to = recipient(ctx, from, 3);
  const body = toCell(
    storeNftTransfer({
      queryId: BigInt(ctx.step),
      newOwner: to,
      responseDestination: from.address,
      customPayload: null,
      forwardAmount: toNano('0.01'),
      forwardPayload: { kind: 'right', value: textComment(phrase(ctx)) },
    }),
  );
  const err = await sendFrom(ctx, from, [internal({ to: it.address, value: toNano('0.1'), bounce: true, body })]);
  if (err) return failed(err);
  const moved = await waitForOwner(ctx, c, it.index, to);
  if (!moved.ok) return failed(moved.reason);
  const assigned = await waitForTx(ctx, `ownership_assigned to ${raw(to)}`, to, (tx) => {
    const m = inboundFrom(tx, it.address);
    return m !== undefined && opOf(m.body) === NFT_OP.ownershipAssigned;
  });
  if (!assigned.ok) return failed(assigned.reason);
  it.owner = to;
  return ok({ item: raw(it.address), index: it.index.toString(), from: raw(from.address), to: raw(to) });
}

// --- highload wallet v3 ---------------------------------------------------------------------------------------

/** The key of the highload wallet deployed at `step`: derived from the seed, so later steps can sign again. */
function highloadKeys(seed: string, step: number) {
  return keyPairFromSeed(createRng(seed, `highload wallet ${step}`).bytes(32));
}

async function processed(ctx: StepContext, hw: LedgerHighload, n: bigint): Promise<boolean | undefined> {
  const r = await ctx.chain.runGetMethod(hw.address, 'processed?', processedArgs(highloadQueryIdAt(n)));
  return r.exitCode === 0 ? readProcessed(r.stack) : undefined;
}

/** A genesis wallet funds a new highload wallet v3 with its StateInit (an internal deploy; no body). */
export async function highloadDeployStep(ctx: StepContext): Promise<StepOutcome> {
  const funder = ctx.rng.pick(ctx.wallets);
  const { publicKey } = highloadKeys(ctx.seed, ctx.step);
  const config = { publicKey, subwalletId: HIGHLOAD_V3_DEFAULT_SUBWALLET_ID, timeout: HIGHLOAD_TIMEOUT_S };
  const init = highloadV3StateInit(config);
  const address = highloadV3Address(init);
  const value = ctx.rng.bigint(2n, 5n) * toNano('1');
  const err = await sendFrom(ctx, funder, [internal({ to: address, value, bounce: false, init })]);
  if (err) return failed(err);
  const deployed = await wait(ctx, `the highload wallet ${raw(address)}`, async () => {
    const r = await ctx.chain.runGetMethod(address, 'get_public_key');
    return r.exitCode === 0 && readHighloadPublicKey(r.stack).equals(publicKey) ? true : undefined;
  });
  if (!deployed.ok) return failed(deployed.reason);
  ctx.ledger.standard.highloadWallets.push({ step: ctx.step, address, ...config, nextQuery: 0n, sends: [] });
  return ok({ wallet: raw(address), funder: raw(funder.address), value: value.toString() });
}

/** A highload wallet sends one message (a comment with some TON) under a fresh query id. */
export async function highloadSendStep(ctx: StepContext): Promise<StepOutcome> {
  if (ctx.ledger.standard.highloadWallets.length === 0) return skipped('no highload wallet deployed yet');
  const hw = ctx.rng.pick(ctx.ledger.standard.highloadWallets);
  let n = hw.nextQuery;
  for (let probes = 0; ; probes++, n++) {
    const used = await processed(ctx, hw, n);
    if (used === undefined) return failed(`processed? of ${raw(hw.address)} failed`);
    if (!used) break;
    if (probes >= MAX_QUERY_PROBES) return failed(`${MAX_QUERY_PROBES} query ids in a row are already used`);
  }
  const to = ctx.rng.pick(ctx.wallets).address;
  const value = ctx.rng.bigint(5n, 50n) * toNano('0.01');
  const comment = textComment(phrase(ctx));
  const queryId = highloadQueryIdAt(n);
  const body = highloadV3ExternalBody({
    subwalletId: hw.subwalletId,
    message: internal({ to, value, bounce: true, body: comment }),
    sendMode: 1,
    queryId,
    createdAt: (await ctx.chain.now()) - CREATED_AT_SLACK_S,
    timeout: hw.timeout,
    secretKey: highloadKeys(ctx.seed, hw.step).secretKey,
  });
  await ctx.chain.sendExternal(
    beginCell()
      .store(storeMessage(external({ to: hw.address, body })))
      .endCell(),
  );
  const done = await wait(ctx, `query ${highloadQueryIdValue(queryId)} of ${raw(hw.address)}`, async () =>
    (await processed(ctx, hw, n)) ? true : undefined,
  );
  if (!done.ok) return failed(done.reason);
  const arrived = await waitForTx(ctx, `the highload payment to ${raw(to)}`, to, (tx) => {
    const m = inboundFrom(tx, hw.address);
    return m?.body.hash().equals(comment.hash()) === true;
  });
  if (!arrived.ok) return failed(arrived.reason);
  hw.nextQuery = n + 1n;
  hw.sends.push({ step: ctx.step, queryId: highloadQueryIdValue(queryId), to, value });
  return ok({ wallet: raw(hw.address), queryId: highloadQueryIdValue(queryId).toString(), to: raw(to) });
}

// --- tonweb's jetton ------------------------------------------------------------------------------------------

/** tonweb's jettons: the ledger's `standard.jettons`, wallets at tonweb's wallet code. */
export const TONWEB_JETTONS: JettonLine = {
  label: 'tonweb ',
  jettons: (ctx) => ctx.ledger.standard.jettons,
  walletOf: standardJettonWalletAddress,
};

/** A genesis wallet deploys tonweb's minter (off-chain TEP-64 content, as tonweb writes it) and mints in the same message. */
export async function stdJettonDeployStep(ctx: StepContext): Promise<StepOutcome> {
  const admin = ctx.rng.pick(ctx.wallets);
  const tag = ctx.rng.bytes(4).toString('hex');
  const init = standardJettonMinterStateInit({
    adminAddress: admin.address,
    content: offchainContent(`https://devnet.tongate.invalid/std-jetton/${tag}.json`),
  });
  const master = standardJettonMinterAddress(init);
  const to = ctx.rng.pick(ctx.wallets).address;
  const amount = ctx.rng.bigint(1_000n, 1_000_000n) * 10n ** 9n;
  const body = standardJettonMintBody({
    queryId: BigInt(ctx.step),
    destination: to,
    tonAmount: toNano('0.1'),
    jettonAmount: amount,
    responseAddress: admin.address,
  });
  const err = await sendFrom(ctx, admin, [internal({ to: master, value: toNano('0.3'), bounce: false, init, body })]);
  if (err) return failed(err);
  const minted = await wait(ctx, `the first mint of ${raw(master)}`, async () =>
    (await jettonBalance(ctx, master, to, TONWEB_JETTONS)) === amount ? true : undefined,
  );
  if (!minted.ok) return failed(minted.reason, { master: raw(master) });
  const supply = await jettonSupply(ctx, master);
  if (supply !== amount) return failed(`expected total supply ${amount}, get_jetton_data says ${supply}`);
  ctx.ledger.standard.jettons.push({
    step: ctx.step,
    master,
    admin: admin.address,
    totalSupply: amount,
    balances: new Map([[raw(to), amount]]),
  });
  return ok({ master: raw(master), admin: raw(admin.address), to: raw(to), amount: amount.toString() });
}

/** A holder sends part of its tonweb jettons with a comment and forward TON (a transfer_notification follows). */
