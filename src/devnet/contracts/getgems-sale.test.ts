// GetGems' nft-fixprice-sale-v3r2 (from @ton-community/assets-sdk, code hash deb53b6c…) on @ton/sandbox with
// tonweb's standard NFT (the items the devnet activity lists): the marketplace deploys the sale, the seller hands
// the item over with a forward amount, a buyer buys it. Checked from the emulator's own output: get_sale_data,
// the item's owner, and who was paid what (seller, marketplace fee, royalty), plus the contract's refusals.
import { type Address, Cell, type Transaction, toNano } from '@ton/core';
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { NFT_OP } from '../../ton/index.ts';
import {
  GETGEMS_SALE_BUYER_FORWARD,
  GETGEMS_SALE_CODE_HASH,
  GETGEMS_SALE_ERROR,
  GETGEMS_SALE_MAGIC,
  GETGEMS_SALE_MIN_GAS,
  getgemsSaleAddress,
  getgemsSaleBuyBody,
  getgemsSaleCancelBody,
  getgemsSaleCode,
  getgemsSaleFees,
  getgemsSaleStateInit,
  readGetgemsSaleData,
} from './getgems-sale.ts';
import { readNftData, readRoyaltyParams, storeNftTransfer } from './nft.ts';
import { NO_PAYLOAD, offchainContent, snakeText, toCell } from './payload.ts';
import { exitCode, findTx, internalIn, isAborted, outMessages, runGetter } from './sandbox.test-util.ts';
import {
  STANDARD_ROYALTY_BASE,
  standardNftCollectionAddress,
  standardNftCollectionStateInit,
  standardNftItemAddress,
  standardNftMintBody,
} from './standard-nft.ts';
import { parseNftOwnershipAssigned } from './tep-parsers.test-util.ts';

const PRICE = toNano('2.5');
const FEE_BPS = 500n; // GetGems' 5 %
const ROYALTY_NUMERATOR = 50; // 5 % (of STANDARD_ROYALTY_BASE)

interface Setup {
  chain: Blockchain;
  creator: SandboxContract<TreasuryContract>;
  marketplace: SandboxContract<TreasuryContract>;
  seller: SandboxContract<TreasuryContract>;
  buyer: SandboxContract<TreasuryContract>;
  item: Address;
  sale: Address;
  fees: { marketplaceFee: bigint; royalty: bigint };
}

const received = (txs: Transaction[], to: Address, from: Address) =>
  txs
    .filter((t) => {
      const m = t.inMessage;
      return m?.info.type === 'internal' && m.info.dest.equals(to) && m.info.src.equals(from);
    })
    .map((t) => internalIn(t).info.value.coins);

async function saleData(s: Setup) {
  return readGetgemsSaleData(await runGetter(s.chain, s.sale, 'get_sale_data'));
}

async function ownerOf(s: Setup) {
  return readNftData(await runGetter(s.chain, s.item, 'get_nft_data')).ownerAddress;
}

/** A collection (royalty to its creator) with item 0 owned by the seller, and a sale of it deployed, not listed. */
async function setup(): Promise<Setup> {
  const chain = await Blockchain.create();
  const [creator, marketplace, seller, buyer] = await Promise.all(
    ['creator', 'marketplace', 'seller', 'buyer'].map((n) => chain.treasury(n)),
  );
  const base = 'https://example.org/sale/';
  const collectionInit = standardNftCollectionStateInit({
    ownerAddress: creator!.address,
    collectionContent: offchainContent(`${base}collection.json`),
    commonContent: snakeText(base),
    royaltyParams: { numerator: ROYALTY_NUMERATOR, denominator: STANDARD_ROYALTY_BASE, destination: creator!.address },
  });
  const collection = standardNftCollectionAddress(collectionInit);
  const body = standardNftMintBody({
    queryId: 0n,
    itemIndex: 0n,
    amount: toNano('0.06'),
    owner: seller!.address,
    uriTail: '0.json',
  });
  await creator!.send({ to: collection, value: toNano('0.2'), init: collectionInit, bounce: false, body });
  const item = standardNftItemAddress(collection, 0n);

  // The marketplace reads the collection's royalty as a marketplace would (get_royalty_params).
  const royaltyParams = readRoyaltyParams(await runGetter(chain, collection, 'royalty_params'));
  const fees = getgemsSaleFees(PRICE, FEE_BPS, royaltyParams);
  const init = getgemsSaleStateInit({
    createdAt: chain.now ?? Math.floor(Date.now() / 1000),
    marketplace: marketplace!.address,
    nft: item,
    fullPrice: PRICE,
    marketplaceFeeTo: marketplace!.address,
    marketplaceFee: fees.marketplaceFee,
    royaltyTo: royaltyParams.destination,
    royalty: fees.royalty,
  });
  const sale = getgemsSaleAddress(init);
  const r = await marketplace!.send({ to: sale, value: toNano('0.05'), init, bounce: false });
  const deploy = findTx(r.transactions, { from: marketplace!.address, to: sale });
  expect(exitCode(deploy)).toBe(0);
  return {
    chain,
    creator: creator!,
    marketplace: marketplace!,
    seller: seller!,
    buyer: buyer!,
    item,
    sale,
    fees,
  };
}

/** The seller transfers the item to the sale with a forward amount (the sale's ownership_assigned). */
async function list(s: Setup) {
  const body = toCell(
    storeNftTransfer({
      queryId: 7n,
      newOwner: s.sale,
      responseDestination: s.seller.address,
      customPayload: null,
      forwardAmount: toNano('0.02'),
      forwardPayload: NO_PAYLOAD,
    }),
  );
  return s.seller.send({ to: s.item, value: toNano('0.1'), bounce: true, body });
}

describe("GetGems' fixed-price sale v3r2 (sandbox)", () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup();
  });

  it('loads the code from assets-sdk once, at the hash indexers key on', () => {
    const code = getgemsSaleCode();
    expect(code.hash().toString('hex')).toBe(GETGEMS_SALE_CODE_HASH);
    expect(code.hash().toString('hex')).toBe('deb53b6c5765c1e6cd238bf47bc5e83ba596bdcc04b0b84cd50ab1e474a08f31');
    expect(getgemsSaleCode()).toBe(code);
  });

  it('a deployed sale is not listed: FIXP, not complete, no owner; fields as stored', async () => {
    const d = await saleData(s);
    expect(d.magic).toBe(GETGEMS_SALE_MAGIC);
    expect(d.isComplete).toBe(false);
    expect(d.nftOwner).toBeNull();
    expect(d.nft.equals(s.item)).toBe(true);
    expect(d.marketplace.equals(s.marketplace.address)).toBe(true);
    expect(d.fullPrice).toBe(PRICE);
    expect(d.marketplaceFeeTo.equals(s.marketplace.address)).toBe(true);
    expect(d.marketplaceFee).toBe((PRICE * FEE_BPS) / 10_000n);
    expect(d.royaltyTo?.equals(s.creator.address)).toBe(true);
    expect(d.royalty).toBe((PRICE * BigInt(ROYALTY_NUMERATOR)) / BigInt(STANDARD_ROYALTY_BASE));
  });

  it('lists on the ownership_assigned, sells to the buyer, pays seller, royalty and fee', async () => {
    const listed = await list(s);
    const assigned = findTx(listed.transactions, { from: s.item, to: s.sale, op: NFT_OP.ownershipAssigned });
    expect(exitCode(assigned)).toBe(0);
    expect(parseNftOwnershipAssigned(internalIn(assigned).body).prevOwner?.equals(s.seller.address)).toBe(true);
    let d = await saleData(s);
    expect(d.isComplete).toBe(false);
    expect(d.nftOwner?.equals(s.seller.address)).toBe(true);
    expect((await ownerOf(s))?.equals(s.sale)).toBe(true);

    const saleBalance = (await s.chain.getContract(s.sale)).balance;
    const value = PRICE + GETGEMS_SALE_MIN_GAS;
    const bought = await s.buyer.send({ to: s.sale, value, bounce: true, body: getgemsSaleBuyBody(9n) });
    const buy = findTx(bought.transactions, { from: s.buyer.address, to: s.sale });
    expect(exitCode(buy)).toBe(0);
    expect(isAborted(buy)).toBe(false);

    // Four messages: seller, royalty, fee (non-bounceable), then the NFT transfer with all that is left.
    const out = outMessages(buy).map((m) => {
      if (m.info.type !== 'internal') throw new Error('expected internal out-messages');
      return { to: m.info.dest, value: m.info.value.coins, bounce: m.info.bounce, body: m.body };
    });
    expect(out.map((m) => m.to.toRawString())).toEqual(
      [s.seller.address, s.creator.address, s.marketplace.address, s.item].map((a) => a.toRawString()),
    );
    expect(out.map((m) => m.bounce)).toEqual([false, false, false, true]);
    const net = PRICE - s.fees.marketplaceFee - s.fees.royalty;
    expect(out[0]!.value).toBeGreaterThanOrEqual(net);
    expect(out[0]!.value).toBeLessThanOrEqual(net + saleBalance); // plus what the sale held before the buy
    expect(out[1]!.value).toBe(s.fees.royalty);
    expect(out[2]!.value).toBe(s.fees.marketplaceFee);
    const t = out[3]!.body.beginParse();
    expect(t.loadUint(32)).toBe(NFT_OP.transfer);
    expect(t.loadUintBig(64)).toBe(9n);
    expect(t.loadAddress().equals(s.buyer.address)).toBe(true); // new owner
    expect(t.loadAddress().equals(s.buyer.address)).toBe(true); // response destination
    expect(t.loadBit()).toBe(false); // no custom payload
    expect(t.loadCoins()).toBe(GETGEMS_SALE_BUYER_FORWARD);

    // Each recipient got its message (the emulator's transactions at each account).
    expect(received(bought.transactions, s.seller.address, s.sale)).toEqual([out[0]!.value]);
    expect(received(bought.transactions, s.creator.address, s.sale)).toEqual([s.fees.royalty]);
    expect(received(bought.transactions, s.marketplace.address, s.sale)).toEqual([s.fees.marketplaceFee]);
    const toBuyer = findTx(bought.transactions, { from: s.item, to: s.buyer.address, op: NFT_OP.ownershipAssigned });
    expect(internalIn(toBuyer).info.value.coins).toBe(GETGEMS_SALE_BUYER_FORWARD);
    expect(parseNftOwnershipAssigned(internalIn(toBuyer).body).prevOwner?.equals(s.sale)).toBe(true);
    const excess = findTx(bought.transactions, { from: s.item, to: s.buyer.address, op: NFT_OP.excesses });
    expect(internalIn(excess).info.value.coins).toBeGreaterThan(toNano('0.5')); // most of the 1 TON comes back

    d = await saleData(s);
    expect(d.isComplete).toBe(true);
    expect(d.nftOwner?.equals(s.seller.address)).toBe(true); // the seller stays recorded
    expect((await ownerOf(s))?.equals(s.buyer.address)).toBe(true);

    // A completed sale refuses everything else (a second buy bounces back with 404).
    const again = await s.creator.send({ to: s.sale, value, bounce: true, body: getgemsSaleBuyBody() });
    expect(exitCode(findTx(again.transactions, { from: s.creator.address, to: s.sale }))).toBe(
      GETGEMS_SALE_ERROR.complete,
    );
  });

  it('an empty body buys too', async () => {
    await list(s);
    const r = await s.buyer.send({ to: s.sale, value: PRICE + GETGEMS_SALE_MIN_GAS, bounce: true, body: Cell.EMPTY });
    expect(exitCode(findTx(r.transactions, { from: s.buyer.address, to: s.sale }))).toBe(0);
    expect((await ownerOf(s))?.equals(s.buyer.address)).toBe(true);
  });

  it('refuses a buy short of full_price + 1 TON (450), and the seller can cancel', async () => {
    await list(s);
    const short = await s.buyer.send({
      to: s.sale,
      value: PRICE + GETGEMS_SALE_MIN_GAS - 1n,
      bounce: true,
      body: getgemsSaleBuyBody(),
    });
    expect(exitCode(findTx(short.transactions, { from: s.buyer.address, to: s.sale }))).toBe(
      GETGEMS_SALE_ERROR.notEnoughValue,
    );
    expect(findTx(short.transactions, { from: s.sale, to: s.buyer.address, bounced: true })).toBeDefined();
    expect((await ownerOf(s))?.equals(s.sale)).toBe(true);

    const cancel = await s.seller.send({ to: s.sale, value: toNano('1'), bounce: true, body: getgemsSaleCancelBody() });
    expect(exitCode(findTx(cancel.transactions, { from: s.seller.address, to: s.sale }))).toBe(0);
    expect((await ownerOf(s))?.equals(s.seller.address)).toBe(true);
    expect((await saleData(s)).isComplete).toBe(true);
  });

  it('before listing, accepts only the marketplace (deploy) or the NFT (ownership_assigned)', async () => {
    const r = await s.buyer.send({ to: s.sale, value: toNano('0.1'), bounce: true });
    expect(exitCode(findTx(r.transactions, { from: s.buyer.address, to: s.sale }))).toBe(GETGEMS_SALE_ERROR.notFromNft);
    expect((await saleData(s)).nftOwner).toBeNull();
  });
});
