// Activity steps for a GetGems-style NFT sale (nft-fixprice-sale-v3r2, the code @ton-community/assets-sdk ships):
// a genesis wallet acting as marketplace lists one of tonweb's standard items for its owner, and another genesis
// wallet buys it in the next step, as GetGems' contracts do on mainnet. One sale per cycle.
//
// list: (mint an item to a genesis wallet if none owns one) → the marketplace deploys the sale (StateInit, empty
//       body) → the seller transfers the item to the sale with a forward amount, whose ownership_assigned makes
//       the sale record the seller;
// buy:  the buyer sends full_price + 1 TON as a plain transfer (empty body; the contract takes it as op 2, buy) → the
//       sale pays the seller, the collection's royalty destination and the marketplace, and transfers the item to the
//       buyer with the rest (the excess comes back to him). A plain transfer, as wallets buy on GetGems: toncenter's
//       classifier recognises a fix-price purchase only from the buyer's TON transfer to the sale (nft_purchase).
import { type Address, type Cell, internal, toNano } from '@ton/core';
import {
  GETGEMS_SALE_MIN_GAS,
  getgemsSaleAddress,
  getgemsSaleFees,
  getgemsSaleStateInit,
  NO_PAYLOAD,
  readGetgemsSaleData,
  readRoyaltyParams,
  standardNftItemAddress,
  standardNftMintBody,
  storeNftTransfer,
  toCell,
} from '../contracts/index.ts';
import type { LedgerCollection, LedgerNftItem } from './ledger-core.ts';
import type { LedgerNftSale } from './ledger-standard.ts';
import {
  failed,
  genesisWallet,
  inboundFrom,
  nftOwner,
  ok,
  otherWallet,
  raw,
  type StepContext,
  type StepOutcome,
  sendFrom,
  skipped,
  wait,
  waitForTx,
} from './step-kit.ts';
import type { ActivityWallet } from './wallets.ts';

/** GetGems' marketplace fee: 5 % of the price. */
const MARKETPLACE_FEE_BPS = 500n;
/** What the marketplace sends with the deploy (stays in the sale; the seller gets it with the payout). */
const DEPLOY_VALUE = toNano('0.05');
/** The seller's transfer to the sale, and the part of it forwarded with ownership_assigned. */
const LIST_VALUE = toNano('0.1');
const LIST_FORWARD = toNano('0.02');
/** How many created_at values to try for a sale address nobody deployed yet. */
const MAX_ADDRESS_PROBES = 16;

const isEmpty = (c: Cell) => c.bits.length === 0 && c.refs.length === 0;

async function saleData(ctx: StepContext, sale: Address) {
  const r = await ctx.chain.runGetMethod(sale, 'get_sale_data');
  return r.exitCode === 0 ? readGetgemsSaleData(r.stack) : undefined;
}

async function waitForItemOwner(ctx: StepContext, item: Address, owner: Address) {
  return wait(ctx, `item ${raw(item)} owned by ${raw(owner)}`, async () =>
    (await nftOwner(ctx, item))?.equals(owner) ? true : undefined,
  );
}

/** An item of tonweb's collections that a genesis wallet owns, or one minted now by a collection's owner. */
async function itemToSell(
  ctx: StepContext,
): Promise<{ c: LedgerCollection; it: LedgerNftItem; seller: ActivityWallet } | StepOutcome> {
  const owned = ctx.ledger.standard.nftCollections.flatMap((c) =>
    c.items.flatMap((it) => {
      const seller = genesisWallet(ctx, it.owner);
      return seller ? [{ c, it, seller }] : [];
    }),
  );
  if (owned.length > 0) return ctx.rng.pick(owned);
  const mintable = ctx.ledger.standard.nftCollections.filter((c) => genesisWallet(ctx, c.owner));
  if (mintable.length === 0) return skipped('no standard NFT collection of ours to take an item from');
  const c = ctx.rng.pick(mintable);
  const seller = ctx.rng.pick(ctx.wallets);
  const index = c.nextItemIndex;
  const body = standardNftMintBody({
    queryId: BigInt(ctx.step),
    itemIndex: index,
    amount: toNano('0.06'),
    owner: seller.address,
    uriTail: `${index}.json`,
  });
  const err = await sendFrom(ctx, genesisWallet(ctx, c.owner)!, [
    internal({ to: c.address, value: toNano('0.1'), bounce: true, body }),
  ]);
  if (err) return failed(err);
  const it = { index, address: standardNftItemAddress(c.address, index), owner: seller.address };
  const minted = await waitForItemOwner(ctx, it.address, seller.address);
  if (!minted.ok) return failed(minted.reason);
  c.items.push(it);
  c.nextItemIndex = index + 1n;
  return { c, it, seller };
}

/** A genesis wallet as marketplace deploys a sale of a genesis wallet's item; the seller hands the item over. */
export async function saleListStep(ctx: StepContext): Promise<StepOutcome> {
  const picked = await itemToSell(ctx);
  if ('status' in picked) return picked;
  const { c, it, seller } = picked;
  const marketplace = otherWallet(ctx, seller) ?? seller;
  const royaltyGetter = await ctx.chain.runGetMethod(c.address, 'royalty_params');
  if (royaltyGetter.exitCode !== 0) return failed(`royalty_params of ${raw(c.address)} failed`);
  const royaltyParams = readRoyaltyParams(royaltyGetter.stack);
  const price = ctx.rng.bigint(5n, 30n) * toNano('0.1');
  const fees = getgemsSaleFees(price, MARKETPLACE_FEE_BPS, royaltyParams);
  const config = {
    createdAt: await ctx.chain.now(),
    marketplace: marketplace.address,
    nft: it.address,
    fullPrice: price,
    marketplaceFeeTo: marketplace.address,
    marketplaceFee: fees.marketplaceFee,
    royaltyTo: royaltyParams.destination,
    royalty: fees.royalty,
  };
  // created_at is part of the address: step it past any earlier sale of this item at this price (a deployed one).
  let init = getgemsSaleStateInit(config);
  for (let probes = 0; ; probes++, config.createdAt++) {
    init = getgemsSaleStateInit(config);
    const { status } = await ctx.chain.getAccount(getgemsSaleAddress(init));
    if (status !== 'active' && status !== 'frozen') break;
    if (probes >= MAX_ADDRESS_PROBES) return failed(`${MAX_ADDRESS_PROBES} sale addresses in a row are taken`);
  }
  const address = getgemsSaleAddress(init);
  const deployErr = await sendFrom(ctx, marketplace, [
    internal({ to: address, value: DEPLOY_VALUE, bounce: false, init }),
  ]);
  if (deployErr) return failed(deployErr);
  const deployed = await wait(ctx, `the sale ${raw(address)}`, async () =>
    (await saleData(ctx, address)) ? true : undefined,
  );
  if (!deployed.ok) return failed(deployed.reason, { sale: raw(address) });

  const body = toCell(
    storeNftTransfer({
      queryId: BigInt(ctx.step),
      newOwner: address,
      responseDestination: seller.address,
      customPayload: null,
      forwardAmount: LIST_FORWARD,
      forwardPayload: NO_PAYLOAD,
    }),
  );
  const listErr = await sendFrom(ctx, seller, [internal({ to: it.address, value: LIST_VALUE, bounce: true, body })]);
  if (listErr) return failed(listErr);
  const listed = await wait(ctx, `the sale ${raw(address)} to record its seller`, async () =>
    (await saleData(ctx, address))?.nftOwner?.equals(seller.address) ? true : undefined,
  );
  if (!listed.ok) return failed(listed.reason, { sale: raw(address) });
  it.owner = address;
  const sale: LedgerNftSale = {
    step: ctx.step,
    address,
    collection: c.address,
    item: it.address,
    itemIndex: it.index,
    seller: seller.address,
    marketplace: marketplace.address,
    createdAt: config.createdAt,
    price,
    marketplaceFeeTo: marketplace.address,
    marketplaceFee: fees.marketplaceFee,
    royaltyTo: royaltyParams.destination,
    royalty: fees.royalty,
    buy: null,
  };
  ctx.ledger.standard.nftSales.push(sale);
  return ok({
    sale: raw(address),
    item: raw(it.address),
    seller: raw(seller.address),
    marketplace: raw(marketplace.address),
    price: price.toString(),
  });
}

/** Another genesis wallet buys a listed item: full_price + 1 TON to the sale, the item comes to it. */
export async function saleBuyStep(ctx: StepContext): Promise<StepOutcome> {
  const open = ctx.ledger.standard.nftSales.filter((s) => s.buy === null);
  if (open.length === 0) return skipped('no NFT sale is listed');
  const sale = ctx.rng.pick(open);
  const seller = genesisWallet(ctx, sale.seller);
  const buyer = (seller && otherWallet(ctx, seller)) ?? ctx.rng.pick(ctx.wallets);
  const value = sale.price + GETGEMS_SALE_MIN_GAS;
  const err = await sendFrom(ctx, buyer, [internal({ to: sale.address, value, bounce: true })]);
  if (err) return failed(err);
  const moved = await waitForItemOwner(ctx, sale.item, buyer.address);
  if (!moved.ok) return failed(moved.reason, { sale: raw(sale.address) });
  const complete = await saleData(ctx, sale.address);
  if (!complete?.isComplete) return failed(`expected ${raw(sale.address)} to be complete after the buy`);

  // The transactions tests look up: the sale's buy, its payout to the seller, and the buyer's wallet transaction.
  const bought = await waitForTx(ctx, `the buy at ${raw(sale.address)}`, sale.address, (tx) => {
    const m = tx.inMessage;
    return (
      inboundFrom(tx, buyer.address) !== undefined &&
      m?.info.type === 'internal' &&
      m.info.value.coins === value &&
      isEmpty(m.body)
    );
  });
  if (!bought.ok) return failed(bought.reason);
  const payout = [...bought.value.outMessages.values()].find(
    (m) => m.info.type === 'internal' && m.info.dest.equals(sale.seller),
  );
  if (payout?.info.type !== 'internal') return failed(`the buy at ${raw(sale.address)} paid no seller`);
  const root = await waitForTx(ctx, `the buyer's transaction sending the buy`, buyer.address, (tx) =>
    [...tx.outMessages.values()].some(
      (m) => m.info.type === 'internal' && m.info.dest.equals(sale.address) && m.info.value.coins === value,
    ),
  );
  if (!root.ok) return failed(root.reason);

  sale.buy = {
    step: ctx.step,
    buyer: buyer.address,
    value,
    txHash: bought.value.hash(),
    txLt: bought.value.lt,
    rootTxHash: root.value.hash(),
    rootTxLt: root.value.lt,
    sellerPayout: payout.info.value.coins,
  };
  const item = ctx.ledger.standard.nftCollections
    .find((c) => c.address.equals(sale.collection))
    ?.items.find((it) => it.address.equals(sale.item));
  if (item) item.owner = buyer.address;
  return ok({
    sale: raw(sale.address),
    item: raw(sale.item),
    buyer: raw(buyer.address),
    price: sale.price.toString(),
    tx: bought.value.hash().toString('hex'),
  });
}
