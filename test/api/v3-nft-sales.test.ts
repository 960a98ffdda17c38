// GET /api/v3/nft/sales and the on-sale fields of /nft/items (issue 19, v3-api.md §3.5), as toncenter 1.2.8 serves
// them (ton-index-go crud_sales.go, parse/scan_nft.go, models/nft.go), on a migrated database on both back ends
// seeded by SQL with GetGems sale and auction rows, the items they hold and their collection. The real server answers
// over HTTP; every 200 is validated against the public v3 OpenAPI document and against our own /api/v3/openapi.json.
// Expected JSON is computed here from the seeded rows with toncenter's encodings: common keys and details left out
// when NULL (Go omitempty on pointers: false and 0 stay), nanoton amounts and lts as strings, times and fee
// fractions as numbers, sales before auctions.
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, buildApiServer } from '../../src/api/build.ts';
import { nftAuctionsQuery, nftSalesQuery } from '../../src/api/v3/routes/nft-sales.ts';
import { nftItemsQuery } from '../../src/api/v3/routes/nfts.ts';
import { type Database, migrate } from '../../src/db/index.ts';
import { insertRows, KINDS, setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { validateAgainstDocument, validateV3 } from '../helpers/openapi-validator.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are walked field by field
type Json = any;
type Seed = Record<string, unknown>;

/** A synthetic raw address from a small number. */
const addr = (n: number) => `0:${n.toString(16).toUpperCase().padStart(64, '0')}`;
const hash = (n: number) => Buffer.alloc(32, n).toString('base64');
const friendly = (a: string, bounceable: boolean) =>
  Address.parseRaw(a).toString({ bounceable, urlSafe: true, testOnly: false });

const A = {
  coll: addr(0x10),
  collOwner: addr(0x11),
  sale: addr(0x20), // fix-price sale holding itemS
  saleBare: addr(0x21), // a sale whose item is not indexed, most columns NULL
  auction: addr(0x30), // auction holding itemA
  auctionDone: addr(0x31), // a finished auction: its item went back to the seller
  itemS: addr(0x40),
  itemA: addr(0x41),
  itemPlain: addr(0x42),
  itemDecoy: addr(0x43), // owned by the sale contract, which holds another item
  itemGone: addr(0x44), // never indexed
  seller: addr(0x50),
  seller2: addr(0x51),
  market: addr(0x60),
  marketFee: addr(0x61),
  royalty: addr(0x62),
  bidder: addr(0x63),
};

const COLLECTION: Seed = {
  address: A.coll,
  next_item_index: '100',
  owner_address: A.collOwner,
  collection_content: { uri: 'https://example.org/coll.json' },
  last_transaction_lt: 47000000000001n,
  code_hash: hash(1),
  data_hash: hash(2),
};

const item = (address: string, index: string, owner: string, realOwner: string | null, n: number): Seed => ({
  address,
  init: true,
  index,
  collection_address: A.coll,
  owner_address: owner,
  content: { uri: `https://example.org/${index}.json` },
  last_transaction_lt: 47000000000100n + BigInt(n),
  code_hash: hash(10 + n),
  data_hash: hash(20 + n),
  real_owner: realOwner,
});

const ITEMS: Seed[] = [
  item(A.itemS, '7', A.sale, A.seller, 1),
  item(A.itemA, '8', A.auction, A.seller2, 2),
  item(A.itemPlain, '9', A.seller, null, 3),
  { ...item(A.itemDecoy, '0', A.sale, null, 4), collection_address: null },
];

/** A price beyond 64 bits: numeric columns come back as exact decimal strings. */
const BIG_PRICE = '123456789012345678901234567890';

const SALES: Seed[] = [
  {
    address: A.sale,
    is_complete: false,
    created_at: 1700000100n,
    marketplace_address: A.market,
    nft_address: A.itemS,
    nft_owner_address: A.seller,
    full_price: BIG_PRICE,
    marketplace_fee_address: A.marketFee,
    marketplace_fee: '750000000',
    royalty_address: A.royalty,
    royalty_amount: '1500000000',
    last_transaction_lt: 48000000000001n,
    code_hash: hash(31),
    data_hash: hash(32),
  },
  {
    address: A.saleBare,
    is_complete: true,
    nft_address: A.itemGone,
    last_transaction_lt: 48000000000002n,
    code_hash: hash(33),
    data_hash: hash(34),
  },
];

const AUCTIONS: Seed[] = [
  {
    address: A.auction,
    end_flag: false,
    end_time: 1700086400n,
    mp_addr: A.market,
    nft_addr: A.itemA,
    nft_owner: A.seller2,
    last_bid: '2000000000',
    last_member: A.bidder,
    min_step: 5n,
    mp_fee_addr: A.marketFee,
    mp_fee_factor: 5n,
    mp_fee_base: 100n,
    royalty_fee_addr: A.royalty,
    royalty_fee_factor: 10n,
    royalty_fee_base: 100n,
    max_bid: '0',
    min_bid: '1000000000',
    created_at: 1700000200n,
    last_bid_at: 1700000300n,
    is_canceled: false,
    last_transaction_lt: 48000000000003n,
    code_hash: hash(35),
    data_hash: hash(36),
  },
  {
    // Settled without bids: zeros and false stay (omitempty drops only NULL), last_member is absent.
    address: A.auctionDone,
    end_flag: true,
    end_time: 1700000000n,
    mp_addr: A.market,
    nft_addr: A.itemPlain,
    nft_owner: A.seller,
    last_bid: '0',
    last_member: null,
    min_step: 0n,
    max_bid: '0',
    min_bid: '0',
    last_bid_at: 0n,
    is_canceled: true,
    last_transaction_lt: 48000000000004n,
    code_hash: hash(37),
    data_hash: hash(38),
  },
];

async function seed(db: Database): Promise<void> {
  await insertRows(db, 'nft_collections', [COLLECTION]);
  await insertRows(db, 'nft_items', ITEMS);
  await insertRows(db, 'getgems_nft_sales', SALES);
  await insertRows(db, 'getgems_nft_auctions', AUCTIONS);
}

// ---- expected JSON, from toncenter's models ---------------------------------------------------------------------

const s = (v: unknown) => String(v);
const n = (v: unknown) => Number(v);
const id = (v: unknown) => v;

/** `pairs` [json key, column, encode] in order, NULL columns left out (omitempty). */
function omitEmpty(row: Seed, pairs: Array<[string, string, (v: unknown) => unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, col, enc] of pairs) if (row[col] !== null && row[col] !== undefined) out[key] = enc(row[col]);
  return out;
}

const collectionJson = () => ({
  address: COLLECTION.address,
  owner_address: COLLECTION.owner_address,
  last_transaction_lt: s(COLLECTION.last_transaction_lt),
  next_item_index: COLLECTION.next_item_index,
  collection_content: COLLECTION.collection_content,
  data_hash: COLLECTION.data_hash,
  code_hash: COLLECTION.code_hash,
});

/** An NFTItem; `sale` adds toncenter's joined keys (/nft/items), none for the item inside an NFTSale. */
function itemJson(it: Seed, sale?: { sale?: string; auction?: string; owner: string }): Record<string, unknown> {
  return {
    address: it.address,
    init: it.init,
    index: it.index,
    collection_address: it.collection_address,
    owner_address: it.owner_address,
    content: it.content,
    last_transaction_lt: s(it.last_transaction_lt),
    code_hash: it.code_hash,
    data_hash: it.data_hash,
    collection: it.collection_address === A.coll ? collectionJson() : null,
    on_sale: sale !== undefined,
    ...(sale?.sale ? { sale_contract_address: sale.sale } : {}),
    ...(sale?.auction ? { auction_contract_address: sale.auction } : {}),
    ...(sale ? { real_owner: sale.owner } : {}),
  };
}

function common(row: Seed, cols: [nft: string, owner: string, market: string]): Record<string, unknown> {
  return omitEmpty(row, [
    ['nft_address', cols[0], id],
    ['nft_owner_address', cols[1], id],
    ['marketplace_address', cols[2], id],
    ['created_at', 'created_at', n],
    ['last_transaction_lt', 'last_transaction_lt', s],
    ['code_hash', 'code_hash', id],
    ['data_hash', 'data_hash', id],
  ]);
}

function withItem(out: Record<string, unknown>, nft: unknown): Record<string, unknown> {
  const it = ITEMS.find((i) => i.address === nft);
  return it ? { ...out, nft_item: itemJson(it) } : out;
}

function saleJson(row: Seed): Record<string, unknown> {
  const out = {
    type: 'getgems_sale',
    address: row.address,
    ...common(row, ['nft_address', 'nft_owner_address', 'marketplace_address']),
    details: omitEmpty(row, [
      ['is_complete', 'is_complete', id],
      ['full_price', 'full_price', s],
      ['marketplace_fee_address', 'marketplace_fee_address', id],
      ['marketplace_fee', 'marketplace_fee', s],
      ['royalty_address', 'royalty_address', id],
      ['royalty_amount', 'royalty_amount', s],
    ]),
  };
  return withItem(out, row.nft_address);
}

function auctionJson(row: Seed): Record<string, unknown> {
  const out = {
    type: 'getgems_auction',
    address: row.address,
    ...common(row, ['nft_addr', 'nft_owner', 'mp_addr']),
    details: omitEmpty(row, [
      ['end_flag', 'end_flag', id],
      ['end_time', 'end_time', n],
      ['last_bid', 'last_bid', s],
      ['last_member', 'last_member', id],
      ['min_step', 'min_step', n],
      ['mp_fee_address', 'mp_fee_addr', id],
      ['mp_fee_factor', 'mp_fee_factor', n],
      ['mp_fee_base', 'mp_fee_base', n],
      ['royalty_fee_address', 'royalty_fee_addr', id],
      ['royalty_fee_factor', 'royalty_fee_factor', n],
      ['royalty_fee_base', 'royalty_fee_base', n],
      ['max_bid', 'max_bid', s],
      ['min_bid', 'min_bid', s],
      ['last_bid_at', 'last_bid_at', n],
      ['is_canceled', 'is_canceled', id],
    ]),
  };
  return withItem(out, row.nft_addr);
}

/** The addresses toncenter books for a sale: contract, item, seller, marketplace, details', item's collection/owner. */
function bookedFor(row: Seed, auction: boolean): unknown[] {
  const nft = auction ? row.nft_addr : row.nft_address;
  const it = ITEMS.find((i) => i.address === nft);
  return [
    row.address,
    nft,
    auction ? row.nft_owner : row.nft_owner_address,
    auction ? row.mp_addr : row.marketplace_address,
    ...(auction
      ? [row.last_member, row.mp_fee_addr, row.royalty_fee_addr]
      : [row.marketplace_fee_address, row.royalty_address]),
    ...(it ? [it.address, it.collection_address, it.owner_address] : []),
  ];
}

const bookKeys = (list: unknown[]) => [...new Set(list.filter((a): a is string => typeof a === 'string'))].sort();

// ---- the tests --------------------------------------------------------------------------------------------------

describe.each(KINDS)('v3 /nft/sales and on-sale items (%s)', (kind) => {
  let t: TestDatabase;
  let server: ApiServer;
  let url: string;
  let ownDoc: Json;

  async function get(path: string): Promise<{ status: number; body: Json }> {
    const res = await fetch(url + path);
    const body = (await res.json()) as Json;
    if (res.status === 200) {
      const route = `/api/v3${path.split('?')[0]}`;
      expect(validateV3('get', route, 200, body), `public spec: ${path}`).toEqual([]);
      expect(validateAgainstDocument(ownDoc, 'get', route, 200, body), `our openapi.json: ${path}`).toEqual([]);
    }
    return { status: res.status, body };
  }
  async function ok(path: string): Promise<Json> {
    const r = await get(path);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  }
  async function refused(path: string, message: RegExp | string): Promise<void> {
    const r = await get(path);
    expect(r.status, path).toBe(422);
    expect(Object.keys(r.body)).toEqual(['error']);
    if (typeof message === 'string') expect(r.body.error, path).toBe(message);
    else expect(r.body.error, path).toMatch(message);
  }

  beforeAll(async () => {
    t = await setupDatabase(kind);
    await migrate(t.db);
    await seed(t.db);
    server = await buildApiServer({ db: t.db });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const a = server.app.server.address();
    url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/api/v3`;
    ownDoc = await (await fetch(`${url}/openapi.json`)).json();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await t?.cleanup();
  });

  describe('GET /nft/sales', () => {
    it('answers a sale and an auction, addresses in any form, each as toncenter shapes it', async () => {
      // Auction first and in raw lower case, the sale user-friendly: the answer still lists sales first.
      const sent = [A.auction.toLowerCase(), friendly(A.sale, true)];
      const body = await ok(`/nft/sales?${sent.map((x) => `address=${encodeURIComponent(x)}`).join('&')}`);
      expect(Object.keys(body)).toEqual(['nft_sales', 'address_book', 'metadata']);
      const sale = SALES[0]!;
      const auction = AUCTIONS[0]!;
      expect(body.nft_sales).toEqual([saleJson(sale), auctionJson(auction)]);
      // Key order too, as the Go structs declare them.
      expect(Object.keys(body.nft_sales[0])).toEqual(Object.keys(saleJson(sale)));
      expect(Object.keys(body.nft_sales[0].details)).toEqual(Object.keys(saleJson(sale).details as object));
      expect(Object.keys(body.nft_sales[1].details)).toEqual(Object.keys(auctionJson(auction).details as object));
      expect(Object.keys(body.nft_sales[1].nft_item)).toEqual(Object.keys(itemJson(ITEMS[1]!)));
      // Spelled out once, independently of the helpers above.
      expect(body.nft_sales[0]).toMatchObject({
        type: 'getgems_sale',
        address: A.sale,
        created_at: 1700000100,
        last_transaction_lt: '48000000000001',
        details: { is_complete: false, full_price: BIG_PRICE, marketplace_fee: '750000000' },
        nft_item: { address: A.itemS, owner_address: A.sale, on_sale: false, collection: { address: A.coll } },
      });
      expect(body.nft_sales[1].details).toMatchObject({
        end_time: 1700086400,
        mp_fee_factor: 5,
        last_bid: '2000000000',
      });
      // The address book: every address toncenter lists, none of this test's has a state (non-bounceable).
      const keys = bookKeys([...bookedFor(sale, false), ...bookedFor(auction, true)]);
      expect(Object.keys(body.address_book).sort()).toEqual(keys);
      for (const k of keys) {
        expect(body.address_book[k]).toEqual({ user_friendly: friendly(k, false), domain: null, interfaces: [] });
      }
      // Metadata of the same addresses: the indexed item and collection, as /metadata gives them.
      expect(Object.keys(body.metadata).sort()).toEqual([A.coll, A.itemA, A.itemS].sort());
      expect(body.metadata).toEqual(await ok(`/metadata?address=${A.coll}&address=${A.itemA}&address=${A.itemS}`));
    });

    it('leaves NULL columns out, keeps false and 0, and gives no nft_item for an item not indexed', async () => {
      const body = await ok(`/nft/sales?address=${A.saleBare},${A.auctionDone}`);
      expect(body.nft_sales).toEqual([saleJson(SALES[1]!), auctionJson(AUCTIONS[1]!)]);
      expect(body.nft_sales[0]).toEqual({
        type: 'getgems_sale',
        address: A.saleBare,
        nft_address: A.itemGone,
        last_transaction_lt: '48000000000002',
        code_hash: hash(33),
        data_hash: hash(34),
        details: { is_complete: true },
      });
      expect(body.nft_sales[1].details).toEqual({
        end_flag: true,
        end_time: 1700000000,
        last_bid: '0',
        min_step: 0,
        max_bid: '0',
        min_bid: '0',
        last_bid_at: 0,
        is_canceled: true,
      });
      const keys = bookKeys([...bookedFor(SALES[1]!, false), ...bookedFor(AUCTIONS[1]!, true)]);
      expect(Object.keys(body.address_book).sort()).toEqual(keys);
    });

    it('lists every sale, then every auction, once each; unknown addresses are not listed', async () => {
      const all = [A.auctionDone, A.auction, A.saleBare, A.sale, A.sale, A.itemS, A.seller];
      const body = await ok(`/nft/sales?address=${all.join(',')}`);
      expect(body.nft_sales.map((x: Json) => x.address)).toEqual([A.sale, A.saleBare, A.auction, A.auctionDone]);
      expect(await ok(`/nft/sales?address=${A.seller}`)).toEqual({ nft_sales: [], address_book: {}, metadata: {} });
    });

    it('honours X-No-Address-Book and X-No-Metadata', async () => {
      const r = await fetch(`${url}/nft/sales?address=${A.sale}`, {
        headers: { 'x-no-address-book': 'true', 'x-no-metadata': '1' },
      });
      const body = (await r.json()) as Json;
      expect(body.nft_sales).toEqual([saleJson(SALES[0]!)]);
      expect(body.address_book).toEqual({});
      expect(body.metadata).toEqual({});
    });

    it('refuses a missing address, more than 1000 and a bad one with 422 and toncenter messages', async () => {
      await refused('/nft/sales', 'at least 1 address required');
      await refused('/nft/sales?address=', 'at least 1 address required');
      await refused('/nft/sales?address=junk', "invalid address in address: 'junk'");
      await refused(`/nft/sales?address=${A.sale},0:XYZ`, /invalid address in address/);
      // 1001 addresses do not fit Node's 16 KiB request line: through inject (a proxy in front may allow more).
      const many = (k: number) => Array.from({ length: k }, (_, i) => addr(0x1000 + i));
      const over = await server.app.inject({ method: 'GET', url: `/api/v3/nft/sales?address=${many(1001).join(',')}` });
      expect(over.statusCode).toBe(422);
      expect(over.json()).toEqual({ error: 'maximum 1000 addresses allowed' });
      const limit = [...many(998), A.sale, A.auction];
      const atLimit = await server.app.inject({ method: 'GET', url: `/api/v3/nft/sales?address=${limit.join(',')}` });
      expect(atLimit.statusCode).toBe(200);
      expect(atLimit.json().nft_sales.map((x: Json) => x.address)).toEqual([A.sale, A.auction]);
    });
  });

  describe('GET /nft/items: on-sale fields from the sale tables', () => {
    it('an item held by a sale or an auction names the contract and the seller; others are not on sale', async () => {
      const body = await ok(`/nft/items?collection_address=${A.coll}`);
      expect(body.nft_items).toEqual([
        itemJson(ITEMS[0]!, { sale: A.sale, owner: A.seller }),
        itemJson(ITEMS[1]!, { auction: A.auction, owner: A.seller2 }),
        itemJson(ITEMS[2]!),
      ]);
      expect(Object.keys(body.nft_items[0])).toEqual([
        ...Object.keys(itemJson(ITEMS[2]!)),
        'sale_contract_address',
        'real_owner',
      ]);
      expect(Object.keys(body.nft_items[1]).slice(-2)).toEqual(['auction_contract_address', 'real_owner']);
      // Owned by the sale contract, which holds another item: not on sale (toncenter joins on both addresses).
      const decoy = await ok(`/nft/items?address=${friendly(A.itemDecoy, true)}`);
      expect(decoy.nft_items).toEqual([itemJson(ITEMS[3]!)]);
    });

    it("include_on_sale finds the seller's items held by a sale or auction", async () => {
      const of = async (q: string) => ((await ok(`/nft/items?${q}`)).nft_items as Json[]).map((x) => x.address).sort();
      expect(await of(`owner_address=${A.seller}`)).toEqual([A.itemPlain]);
      expect(await of(`owner_address=${A.seller}&include_on_sale=true`)).toEqual([A.itemS, A.itemPlain].sort());
      expect(await of(`owner_address=${A.seller2}&include_on_sale=true`)).toEqual([A.itemA]);
      expect(await of(`owner_address=${A.sale}`)).toEqual([A.itemS, A.itemDecoy].sort());
    });
  });

  it.runIf(kind === 'postgres')('reads the sale tables by primary key only', async () => {
    const queries = [
      nftSalesQuery([A.sale, A.saleBare]),
      nftAuctionsQuery([A.auction]),
      nftItemsQuery({ owners: [A.seller], includeOnSale: true, page: { limit: 10, offset: 0 } }),
    ];
    for (const q of queries) {
      const plan = await t.db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        return (await tx.query(`EXPLAIN ${q.sql}`, q.params)).rows.map((r) => Object.values(r)[0]).join('\n');
      });
      expect(plan, q.sql).not.toMatch(/Seq Scan/);
      expect(plan, q.sql).toMatch(/getgems_nft_(sales|auctions)_pkey/);
    }
  });
});
