// Test-only check that the activity's GetGems sales are on the chain as its ledger says, read through the sale's
// and the item's own getters, the sale's code, and the recorded transactions themselves (not through the steps'
// waits). The chain is abstract so a sandbox and a devnet node (liteserver) share the check.
import type { Address, Transaction, TupleItem } from '@ton/core';
import { expect } from 'vitest';
import { GETGEMS_SALE_MAGIC, readGetgemsSaleData, readNftData } from '../contracts/index.ts';
import type { ActivityLedger } from './types.ts';

/** nft-fixprice-sale-v3r2 (contracts.md §9), written out rather than taken from the module under test. */
const SALE_CODE_HASH = 'deb53b6c5765c1e6cd238bf47bc5e83ba596bdcc04b0b84cd50ab1e474a08f31';
const NFT_TRANSFER = 0x5fcc3d14;

export interface SaleChainView {
  /** A get-method's stack (the view asserts exit code 0). */
  getter(address: Address, method: string, args?: TupleItem[]): Promise<TupleItem[]>;
  /** The account's code hash (hex), undefined if not active. */
  codeHash(address: Address): Promise<string | undefined>;
  /** The account's transaction at (lt, hash), undefined if there is none. */
  transaction(address: Address, lt: bigint, hash: Buffer): Promise<Transaction | undefined>;
}

const same = (a: Address | null, b: Address | null) => (a === null || b === null ? a === b : a.equals(b));

function internalOut(tx: Transaction) {
  return [...tx.outMessages.values()].flatMap((m) =>
    m.info.type === 'internal' ? [{ to: m.info.dest, value: m.info.value.coins, body: m.body }] : [],
  );
}

/** Every sale: its getter and the item's owner; every bought one: the buy's and the buyer's transactions. */
export async function checkSaleLedger(
  chain: SaleChainView,
  ledger: ActivityLedger,
  expected: { sold: number },
): Promise<void> {
  const sales = ledger.standard.nftSales;
  expect(sales.filter((s) => s.buy !== null)).toHaveLength(expected.sold);
  for (const s of sales) {
    const at = `sale ${s.address.toRawString()}`;
    expect(await chain.codeHash(s.address), at).toBe(SALE_CODE_HASH);
    const d = readGetgemsSaleData(await chain.getter(s.address, 'get_sale_data'));
    expect(d.magic).toBe(GETGEMS_SALE_MAGIC);
    expect(d.isComplete, at).toBe(s.buy !== null);
    expect(d.createdAt).toBe(s.createdAt);
    expect(same(d.marketplace, s.marketplace) && same(d.nft, s.item) && same(d.nftOwner, s.seller), at).toBe(true);
    expect([d.fullPrice, d.marketplaceFee, d.royalty]).toEqual([s.price, s.marketplaceFee, s.royalty]);
    expect(same(d.marketplaceFeeTo, s.marketplaceFeeTo) && same(d.royaltyTo, s.royaltyTo), at).toBe(true);
    expect(s.marketplaceFee + s.royalty).toBeLessThan(s.price);

    // The item: still the sale's while listed; once bought, where the ledger's collection says (the buyer, unless
    // a later step moved or relisted it).
    const owner = readNftData(await chain.getter(s.item, 'get_nft_data')).ownerAddress;
    const ledgerItem = ledger.standard.nftCollections
      .find((c) => c.address.equals(s.collection))
      ?.items.find((it) => it.address.equals(s.item));
    expect(ledgerItem, `${at}: its item in the ledger`).toBeDefined();
    expect(same(owner, ledgerItem!.owner), `owner of ${s.item.toRawString()}`).toBe(true);
    if (!s.buy) expect(same(owner, s.address), `owner of listed ${s.item.toRawString()}`).toBe(true);
    if (!s.buy) continue;

    const b = s.buy;
    const buy = await chain.transaction(s.address, b.txLt, b.txHash);
    expect(buy, `${at}: the buy transaction`).toBeDefined();
    const inMsg = buy!.inMessage;
    if (inMsg?.info.type !== 'internal') throw new Error(`${at}: the buy has no internal in-message`);
    expect(inMsg.info.src.equals(b.buyer) && inMsg.info.value.coins === b.value).toBe(true);
    // A plain transfer, as wallets buy on GetGems (the contract takes an empty body as its buy op).
    expect([inMsg.body.bits.length, inMsg.body.refs.length]).toEqual([0, 0]);
    expect(b.value).toBeGreaterThanOrEqual(s.price + 1_000_000_000n);
    const d2 = buy!.description;
    expect(d2.type === 'generic' && d2.computePhase.type === 'vm' && d2.computePhase.exitCode).toBe(0);
    // The payouts, in the contract's order: seller, royalty (when there is one), fee; then the item to the buyer.
    const out = internalOut(buy!);
    const expectedTo = [s.seller, ...(s.royalty > 0n && s.royaltyTo ? [s.royaltyTo] : []), s.marketplaceFeeTo, s.item];
    expect(out.map((m) => m.to.toRawString())).toEqual(expectedTo.map((a) => a.toRawString()));
    expect(out[0]!.value).toBe(b.sellerPayout);
    expect(b.sellerPayout).toBeGreaterThanOrEqual(s.price - s.marketplaceFee - s.royalty);
    if (s.royalty > 0n && s.royaltyTo) expect(out[1]!.value).toBe(s.royalty);
    expect(out.at(-2)!.value).toBe(s.marketplaceFee);
    const transfer = out.at(-1)!.body.beginParse();
    expect(transfer.loadUint(32)).toBe(NFT_TRANSFER);
    transfer.loadUintBig(64);
    expect(transfer.loadAddress().equals(b.buyer)).toBe(true);

    // The buyer's wallet transaction that sent it: an external in, the buy among its out-messages.
    const root = await chain.transaction(b.buyer, b.rootTxLt, b.rootTxHash);
    expect(root, `${at}: the buyer's transaction`).toBeDefined();
    expect(root!.inMessage?.info.type).toBe('external-in');
    expect(internalOut(root!).some((m) => m.to.equals(s.address) && m.body.hash().equals(inMsg.body.hash()))).toBe(
      true,
    );
  }
}
