// NFT matchers over hand-built traces whose bodies are written here per TEP-62 and Telemint's messages (the vectors
// hold two plain transfers and Telemint/DNS mints). Expected details are what those bodies say, in toncenter's keys.
import { Address, type Builder, beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { ContractInfo } from '../types.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const O1 = addr('owner-1');
const O2 = addr('owner-2');
const SALE = addr('sale');
const ITEM = addr('item');
const COLL = addr('collection');
const ROYALTY = addr('royalty');
const A = (a: string) => Address.parse(a);
const items: Record<string, ContractInfo> = { [ITEM]: { nftItem: { collection: COLL, index: '42', owner: null } } };
const b64 = (c: Cell | null) => (c ? c.toBoc({ idx: false, crc32: true }).toString('base64') : null);

/** The keys of toncenter's nft_transfer details (Go ActionDetailsNftTransfer), old_owner and price when present. */
const NFT_TRANSFER_KEYS = [
  'nft_collection',
  'nft_item',
  'nft_item_index',
  'old_owner',
  'new_owner',
  'is_purchase',
  'price',
  'query_id',
  'response_destination',
  'custom_payload',
  'forward_payload',
  'forward_amount',
  'comment',
  'is_encrypted_comment',
  'marketplace',
  'real_old_owner',
  'marketplace_address',
  'payout_amount',
  'payout_address',
  'payout_comment',
  'payout_comment_encrypted',
  'payout_comment_encoded',
  'royalty_amount',
  'royalty_address',
];
const keysOf = (present: { oldOwner: boolean; price: boolean }) =>
  NFT_TRANSFER_KEYS.filter((k) => (k === 'old_owner' ? present.oldOwner : k === 'price' ? present.price : true));

/** forward_payload:(Either Cell ^Cell): `undefined` ends the body before the Either bit. */
type Payload = { inline: Cell } | { ref: Cell } | undefined;
const storePayload = (b: Builder, p: Payload) => {
  if (!p) return b;
  if ('ref' in p) return b.storeBit(1).storeRef(p.ref);
  return b.storeBit(0).storeSlice(p.inline.beginParse());
};

const transferBody = (newOwner: string, payload: Payload, custom: Cell | null = null) =>
  storePayload(
    beginCell()
      .storeUint(0x5fcc3d14, 32)
      .storeUint(9, 64)
      .storeAddress(A(newOwner))
      .storeAddress(A(O1))
      .storeMaybeRef(custom)
      .storeCoins(1n),
    payload,
  ).endCell();
const assignedBody = (prev: string | null, payload: Payload) =>
  storePayload(
    beginCell()
      .storeUint(0x05138d91, 32)
      .storeUint(9, 64)
      .storeAddress(prev ? A(prev) : null),
    payload,
  ).endCell();
const excessBody = () => beginCell().storeUint(0xd53276db, 32).storeUint(9, 64).endCell();
const textCell = (op: number, text: string) => beginCell().storeUint(op, 32).storeStringTail(text).endCell();
const bidInfo = (bid: bigint) =>
  beginCell().storeUint(0x38127de1, 32).storeCoins(bid).storeUint(1_700_000_000, 32).endCell();
const fillUp = () => beginCell().storeUint(0x370fec51, 32).storeUint(0, 64).endCell();

/** `sender` (O1's wallet, or a sale contract) transfers the item to O2; the item answers ownership_assigned and excess. */
function transfer(
  o: { sender?: string; payload?: Payload; custom?: Cell; assigned?: boolean; aborted?: boolean } = {},
) {
  const b = new TraceBuilder();
  const root = b.external(o.sender ?? O1);
  const t = b.send(root, ITEM, transferBody(O2, o.payload, o.custom ?? null), { aborted: o.aborted });
  const replies = o.aborted
    ? [b.bounce(t, beginCell().storeUint(0xffffffff, 32).endCell())]
    : [...(o.assigned === false ? [] : [b.send(t, O2, assignedBody(O1, o.payload))]), b.send(t, O1, excessBody())];
  return { b, root, t, replies };
}

describe('nft_transfer', () => {
  it('the owner transfers: the details the messages give; ownership_assigned and excess belong to it', () => {
    const comment = { inline: textCell(0, 'gm') };
    const custom = beginCell().storeUint(5, 8).endCell();
    const { b, root, t, replies } = transfer({ payload: comment, custom });
    const actions = b.classify(root, items);
    expect(actions.map((a) => a.type)).toEqual(['nft_transfer']);
    const a = actions[0]!;
    expect(Object.keys(a.details)).toEqual(keysOf({ oldOwner: true, price: false }));
    expect(a.details).toEqual({
      nft_collection: COLL,
      nft_item: ITEM,
      nft_item_index: '42',
      old_owner: O1,
      new_owner: O2,
      is_purchase: false,
      query_id: '9',
      response_destination: O1,
      custom_payload: b64(custom),
      forward_payload: b64(comment.inline),
      forward_amount: '1',
      comment: 'gm',
      is_encrypted_comment: false,
      marketplace: null,
      real_old_owner: null,
      marketplace_address: null,
      payout_amount: null,
      payout_address: null,
      payout_comment: null,
      payout_comment_encrypted: null,
      payout_comment_encoded: null,
      royalty_amount: null,
      royalty_address: null,
    });
    expect(a.success).toBe(true);
    expect(a.txHashes).toEqual([root, t, ...replies].map((n) => n.tx.hash));
    expect(a.accounts).toEqual([ITEM, O1, O2].sort());
    expect([a.source, a.destination, a.asset, a.assetSecondary]).toEqual([O1, O2, COLL, ITEM]);
  });

  it('old owner: the prev_owner ownership_assigned names, else the sender', () => {
    const viaSale = transfer({ sender: SALE });
    expect(byType(viaSale.b.classify(viaSale.root, items), 'nft_transfer')[0]?.details.old_owner).toBe(O1);
    const silent = transfer({ sender: SALE, assigned: false });
    expect(byType(silent.b.classify(silent.root, items), 'nft_transfer')[0]?.details.old_owner).toBe(SALE);
  });

  it('forward payloads as toncenter keeps them: none, an empty inline one, an encrypted comment in a ref', () => {
    const enc = textCell(0x2167da4b, 'xyz');
    const cases: Array<[string, Payload, [string | null, string | null, boolean | null]]> = [
      ['body ends before the Either bit', undefined, [null, null, null]],
      ['empty inline payload', { inline: beginCell().endCell() }, [b64(beginCell().endCell()), null, false]],
      ['encrypted comment in a ref', { ref: enc }, [b64(enc), Buffer.from('xyz').toString('base64'), true]],
      [
        'another payload',
        { inline: beginCell().storeUint(7, 32).endCell() },
        [b64(beginCell().storeUint(7, 32).endCell()), null, false],
      ],
    ];
    for (const [name, payload, want] of cases) {
      const { b, root } = transfer({ payload, assigned: false });
      const a = byType(b.classify(root, items), 'nft_transfer')[0];
      expect([a?.details.forward_payload, a?.details.comment, a?.details.is_encrypted_comment], name).toEqual(want);
    }
  });

  it('the item refuses: a failed transfer with its bounce; an unknown item is a contract call', () => {
    const { b, root, replies } = transfer({ aborted: true });
    const actions = b.classify(root, items);
    expect(actions.map((a) => [a.type, a.success])).toEqual([['nft_transfer', false]]);
    expect(actions[0]!.txHashes).toContain(replies[0]!.tx.hash);
    const other = transfer();
    expect(other.b.classify(other.root, {}).map((a) => a.type)).toEqual([
      'call_contract',
      'call_contract',
      'call_contract',
    ]);
  });
});

describe('nft_mint', () => {
  it('a collection deploys an item: nft_mint (owner = the deploying source) and its contract_deploy', () => {
    const b = new TraceBuilder();
    const root = b.external(O1);
    const c = b.send(root, COLL, beginCell().storeUint(1, 32).storeUint(0, 64).endCell());
    const item = b.send(c, ITEM, beginCell().storeAddress(A(O1)).endCell(), {
      origStatus: 'nonexist',
      endStatus: 'active',
    });
    const actions = b.classify(root, items);
    expect(actions.map((a) => a.type)).toEqual(['call_contract', 'nft_mint', 'contract_deploy']);
    const a = actions[1]!;
    expect(a.details).toEqual({ owner: COLL, nft_item: ITEM, nft_collection: COLL, nft_item_index: '42' });
    expect(a.success).toBe(true);
    expect(a.txHashes).toEqual([c, item].map((n) => n.tx.hash));
    expect([a.source, a.destination, a.asset, a.assetSecondary, a.opcode]).toEqual([
      COLL,
      ITEM,
      COLL,
      ITEM,
      item.tx.inMsg?.opcode,
    ]);
  });

  it('an item deployed by an external message has no owner key; an unknown deployed contract is no mint', () => {
    const b = new TraceBuilder();
    const root = b.external(ITEM, { origStatus: 'uninit', endStatus: 'active' });
    expect(byType(b.classify(root, items), 'nft_mint').map((a) => a.details)).toEqual([
      { nft_item: ITEM, nft_collection: COLL, nft_item_index: '42' },
    ]);
    expect(byType(b.classify(root, {}), 'nft_mint')).toEqual([]);
  });
});

describe('nft_transfer from ownership_assigned alone (Telegram items)', () => {
  it('a won auction: bid in the payload is the price; the bid and the fill-ups (royalty, payout) belong to it', () => {
    const b = new TraceBuilder();
    const root = b.external(O2);
    const x = b.send(root, ITEM, null, { value: 10_000_000_000n });
    const royalty = b.send(x, ROYALTY, fillUp(), { value: 1_000_000_000n });
    const assigned = b.send(x, O2, assignedBody(O1, { inline: bidInfo(10_000_000_000n) }), { value: 1n });
    const payout = b.send(x, O1, fillUp(), { value: 9_000_000_000n });
    const actions = b.classify(root, items);
    expect(actions.map((a) => a.type)).toEqual(['nft_transfer']);
    const a = actions[0]!;
    expect(Object.keys(a.details)).toEqual(keysOf({ oldOwner: true, price: true }));
    expect(a.details).toEqual({
      nft_collection: COLL,
      nft_item: ITEM,
      nft_item_index: '42',
      old_owner: O1,
      new_owner: O2,
      is_purchase: true,
      price: '10000000000',
      query_id: '9',
      response_destination: null,
      custom_payload: null,
      forward_payload: b64(bidInfo(10_000_000_000n)),
      forward_amount: null,
      comment: null,
      is_encrypted_comment: false,
      marketplace: 'fragment',
      real_old_owner: null,
      marketplace_address: null,
      payout_amount: '9000000000',
      payout_address: O1,
      payout_comment: null,
      payout_comment_encrypted: null,
      payout_comment_encoded: null,
      royalty_amount: '1000000000',
      royalty_address: ROYALTY,
    });
    expect(a.success).toBe(true);
    expect(a.txHashes).toEqual([root, x, royalty, assigned, payout].map((n) => n.tx.hash));
  });

  it('a Telemint mint: the item is minted, and its first owner is no purchase (no price)', () => {
    const b = new TraceBuilder();
    const root = b.external(O1);
    const c = b.send(root, COLL, beginCell().storeUint(0x4637289b, 32).endCell());
    const x = b.send(c, ITEM, beginCell().storeUint(0x299a3e15, 32).endCell(), {
      origStatus: 'nonexist',
      endStatus: 'active',
    });
    const assigned = b.send(x, O1, assignedBody(null, { inline: bidInfo(5n) }), { value: 0n, aborted: true });
    b.send(x, COLL, fillUp());
    const actions = b.classify(root, items);
    // The driver appends contract_deploy after the matchers' actions.
    expect(actions.map((a) => a.type)).toEqual([
      'call_contract',
      'nft_mint',
      'nft_transfer',
      'call_contract',
      'contract_deploy',
    ]);
    const t = actions[2]!;
    expect(Object.keys(t.details)).toEqual(keysOf({ oldOwner: false, price: false }));
    expect(t.details).toMatchObject({ new_owner: O1, is_purchase: false, marketplace: null, payout_amount: null });
    expect(t.txHashes).toEqual([x, assigned].map((n) => n.tx.hash));
    expect(t.success).toBe(true);
  });

  it('no bid info: the TON transfer stays one, the assignment alone is the nft_transfer; unknown items are calls', () => {
    const b = new TraceBuilder();
    const root = b.external(O2);
    const x = b.send(root, ITEM, null);
    b.send(x, O2, assignedBody(O1, { inline: beginCell().endCell() }));
    expect(b.classify(root, items).map((a) => a.type)).toEqual(['ton_transfer', 'nft_transfer']);
    expect(b.classify(root, {}).map((a) => a.type)).toEqual(['ton_transfer', 'call_contract']);
  });
});

describe('GetGems purchases (a sale or auction sends the transfer)', () => {
  const BUYER = addr('buyer');
  const SELLER = addr('seller');
  const MARKET = addr('marketplace');
  const AUCTION = addr('auction');
  const listing = { nft: ITEM, seller: SELLER, price: '5000000000', marketplace: MARKET };
  const known: Record<string, ContractInfo> = {
    ...items,
    [SALE]: { getgemsSale: listing },
    [AUCTION]: { getgemsAuction: { ...listing, price: '7000000000' } },
  };
  const buyBody = (newOwner: string) =>
    beginCell()
      .storeUint(0x5fcc3d14, 32)
      .storeUint(9, 64)
      .storeAddress(A(newOwner))
      .storeAddress(A(newOwner))
      .storeBit(0)
      .storeCoins(1n)
      .storeBit(0)
      .endCell();

  /** `waker` sends `body` to the listing, which transfers the item to BUYER and pays the seller and the marketplace. */
  function sold(o: { listing: string; waker: string; body: Cell | null; external?: boolean }) {
    const b = new TraceBuilder();
    const root = b.external(o.waker);
    const l = o.external ? b.external(o.listing) : b.send(root, o.listing, o.body, { value: 5_200_000_000n });
    if (o.external) l.tx.inMsg!.body = o.body;
    const t = b.send(l, ITEM, buyBody(BUYER));
    const payout = b.send(l, SELLER, null, { value: 4_750_000_000n });
    const fee = b.send(l, MARKET, null, { value: 250_000_000n });
    const assigned = b.send(t, BUYER, assignedBody(o.listing, undefined));
    const excess = b.send(t, BUYER, excessBody());
    return { b, root: o.external ? l : root, l, t, payout, fee, assigned, excess };
  }

  it('a buyer pays a fix-price sale: nft_purchase of the sale, item and payout, with the transfer and payout as parts', () => {
    const s = sold({ listing: SALE, waker: BUYER, body: null });
    const actions = s.b.classify(s.root, known);
    const [purchase] = byType(actions, 'nft_purchase');
    expect(purchase?.details).toMatchObject({
      nft_item: ITEM,
      old_owner: SALE,
      new_owner: BUYER,
      is_purchase: true,
      price: '5000000000',
      marketplace: 'getgems',
      marketplace_address: MARKET,
      real_old_owner: SELLER,
      payout_amount: '4750000000',
      payout_address: SELLER,
      payout_comment: null,
      payout_comment_encrypted: false,
      payout_comment_encoded: false,
      royalty_amount: null,
      royalty_address: null,
    });
    expect(purchase?.txHashes).toEqual([s.root, s.l, s.t, s.payout, s.assigned, s.excess].map((n) => n.tx.hash));
    // Its parts: the transfer (with the purchase fields) and the payout, stored as its children.
    const children = actions.filter((a) => a.parentActionId === purchase?.actionId);
    expect(children.map((a) => [a.type, a.ancestorType])).toEqual([
      ['nft_transfer', ['nft_purchase']],
      ['ton_transfer', ['nft_purchase']],
    ]);
    expect(children[0]?.details).toMatchObject({ is_purchase: true, real_old_owner: SELLER, payout_amount: null });
    // The marketplace fee is a transfer of its own.
    const own = byType(actions, 'ton_transfer').filter((a) => a.parentActionId === null);
    expect(own.map((a) => a.destination)).toEqual([MARKET]);
  });

  it('an auction ended by an external "finish": the auction joins, price = last bid, and the payout is found', () => {
    const finish = textCell(0, 'finish');
    const s = sold({ listing: AUCTION, waker: AUCTION, body: finish, external: true });
    const [purchase] = byType(s.b.classify(s.root, known), 'nft_purchase');
    expect(purchase?.details).toMatchObject({
      price: '7000000000',
      real_old_owner: SELLER,
      payout_amount: '4750000000',
    });
    expect(purchase?.txHashes).toContain(s.l.tx.hash);
  });

  it('the seller\'s "finish" comment to an auction stays its own transfer; the payout is still found', () => {
    const s = sold({ listing: AUCTION, waker: SELLER, body: textCell(0, 'finish') });
    const actions = s.b.classify(s.root, known);
    const [purchase] = byType(actions, 'nft_purchase');
    expect(purchase?.txHashes).toContain(s.payout.tx.hash);
    const finish = byType(actions, 'ton_transfer').filter(
      (a) => a.parentActionId === null && a.details.comment === 'finish',
    );
    expect(finish.map((a) => a.txHashes.includes(s.l.tx.hash))).toEqual([true]);
  });

  it('no purchase when the listing names another item, the buyer is the seller, or a sale was not paid by the buyer', () => {
    const other = { ...known, [SALE]: { getgemsSale: { ...listing, nft: addr('other-item') } } };
    const a = sold({ listing: SALE, waker: BUYER, body: null });
    expect(byType(a.b.classify(a.root, other), 'nft_transfer')[0]?.details.is_purchase).toBe(false);
    const self = { ...known, [SALE]: { getgemsSale: { ...listing, seller: BUYER } } };
    const c = sold({ listing: SALE, waker: BUYER, body: null });
    expect(byType(c.b.classify(c.root, self), 'nft_purchase')).toEqual([]);
    const d = sold({ listing: SALE, waker: addr('someone'), body: null });
    expect(byType(d.b.classify(d.root, known), 'nft_purchase')).toEqual([]);
  });
});
