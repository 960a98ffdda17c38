// /api/v3 DNS, multisig, vesting and metadata endpoints, and the address book's interfaces and domain, on a migrated
// database (PGlite and PostgreSQL) seeded through SQL with the rows the contract decoders write: real mainnet DNS
// items, wallet, jetton and NFT codes from ../shared/vectors, and multisig orders built here from the layouts of
// contracts.md §6.2. The real server answers over HTTP; every 200 is validated against the public v3 OpenAPI
// document. Expected values come from the vectors, contracts.md and v3-api.md, and from the rows as seeded.
import { Address, beginCell, Cell, Dictionary, internal, storeMessageRelaxed } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, buildApiServer } from '../../src/api/build.ts';
import { addressBookQuery } from '../../src/api/v3/address-book.ts';
import { JETTON_WALLET_INFO_SQL, TOKEN_INFO_SQL } from '../../src/api/v3/metadata.ts';
import { dnsRecordsQuery } from '../../src/api/v3/routes/dns.ts';
import { multisigQuery, ordersOfQuery, ordersQuery } from '../../src/api/v3/routes/multisig.ts';
import { vestingQuery, whitelistQuery } from '../../src/api/v3/routes/vesting.ts';
import type { SqlQuery } from '../../src/api/v3/sql-query.ts';
import { type Database, migrate } from '../../src/db/index.ts';
import { contractMethodIds } from '../../src/ton/index.ts';
import { insertRows, KINDS, setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { validateAgainstDocument, validateV3 } from '../helpers/openapi-validator.ts';
import { hasVectors, loadVector } from '../helpers/vectors.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are walked field by field
type Json = any;

interface AccountVector {
  ids: { address: string };
  code_boc_base64: string;
  data_boc_base64: string;
  expected?: Record<string, unknown>;
  verification: { code_hash: string };
  computed_get_methods?: Record<string, { stack: Array<{ as_address?: string; boc_base64?: string }> }>;
}

const raw = (a: string) => Address.parse(a).toRawString().toUpperCase();
/** A synthetic raw address from a small number (for the rows only this test refers to). */
const addr = (n: number, wc = 0) => `${wc}:${n.toString(16).toUpperCase().padStart(64, '0')}`;
const hash = (n: number) => Buffer.alloc(32, n).toString('base64');
const b64hash = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
const friendly = (a: string, bounceable: boolean) =>
  Address.parseRaw(a).toString({ bounceable, urlSafe: true, testOnly: false });

/** Get-method ids (contracts.md §0 table). */
const ID = {
  seqno: 85143,
  get_public_key: 78748,
  get_jetton_data: 106029,
  get_wallet_address: 103289,
  get_wallet_data: 97026,
  get_nft_data: 102351,
  get_collection_data: 102491,
  get_nft_address_by_index: 92067,
  get_nft_content: 68445,
};

// ---- the seeded world -------------------------------------------------------------------------------------------

const V = hasVectors
  ? {
      dnsTonapi: loadVector<AccountVector>('accounts', 'dns_item_0_de9dda22.json'),
      dnsReels: loadVector<AccountVector>('accounts', 'dns_item_auction_EQDdRaSU.json'),
      dnsDatboi: loadVector<AccountVector>('accounts', 'dns_item_datboi_EQDyXrx3.json'),
      walletV4: loadVector<AccountVector>('accounts', 'wallet_v4r2_EQBCPrKa.json'),
      jettonMaster: loadVector<AccountVector>('accounts', 'jetton_master_0_29dd8c6a.json'),
      scaleMinter: loadVector<AccountVector>('accounts', 'jetton_minter_SCALE_EQBlqsm1.json'),
      jettonWallet: loadVector<AccountVector>('accounts', 'jetton_wallet_0_4f8d1285.json'),
      nftCollection: loadVector<AccountVector>('accounts', 'nft_collection_0_4ad02e79.json'),
      nftSimple: loadVector<AccountVector>('accounts', 'nft_item_loton_100_EQAQKmY9.json'),
    }
  : undefined;

/** The label bytes get_domain returned (computed_get_methods of the vector) + ".ton" (contracts.md §5.3). */
function domainOf(v: AccountVector): string {
  const slice = v.computed_get_methods?.get_domain?.stack[0]?.boc_base64 as string;
  const s = Cell.fromBase64(slice).beginParse();
  return `${s.loadBuffer(s.remainingBits / 8).toString('utf8')}.ton`;
}
/** The owner get_nft_data returned (4th value), null for addr_none. */
function ownerOf(v: AccountVector): string | null {
  const a = v.computed_get_methods?.get_nft_data?.stack[3]?.as_address;
  return a ? a.toUpperCase() : null;
}

const W = {
  owner: '', // tonapi.ton's owner (a real v4r2 address), gets a wallet_v4r2 state
  other: addr(0xa1),
  ghost: addr(0xa2), // owns a domain but has no account state
  manyWallet: addr(0xa3),
  // multisig
  ms1: addr(0x101),
  ms2: addr(0x102),
  ms3: addr(0x103),
  o1: addr(0x111),
  o2: addr(0x112),
  o3: addr(0x113),
  s1: addr(0x121),
  s2: addr(0x122),
  s3: addr(0x123),
  s4: addr(0x124),
  p1: addr(0x131),
  dest: addr(0x141),
  resp: addr(0x142),
  newOwner: addr(0x143),
  // vesting
  v1: addr(0x201),
  v2: addr(0x202),
  v3: addr(0x203),
  ow1: addr(0x211),
  ow2: addr(0x212),
  ow3: addr(0x213),
  se1: addr(0x221),
  se3: addr(0x223),
  wl1: addr(0x231),
  wl2: addr(0x232),
  // metadata
  jm1: '', // the real jetton master (on-chain content seeded)
  jm2: addr(0x302),
  jm3: addr(0x303),
  nc1: addr(0x311),
  ni2: addr(0x322),
  jw1: addr(0x331),
  methodsOnly: addr(0x341),
  plainCode: addr(0x342),
};

const QUERY_ID_BIG = (1n << 60n) + 5n;
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

/** One order dictionary (contracts.md §6.2): `_ (Hashmap 8 ^Action) = Order`. */
function orderCell(): Cell {
  const send = (body: Cell, value: bigint, to: string, mode: number) =>
    beginCell()
      .storeUint(0xf1381e5b, 32)
      .storeUint(mode, 8)
      .storeRef(
        beginCell()
          .store(storeMessageRelaxed(internal({ to: Address.parseRaw(to), value, bounce: true, body })))
          .endCell(),
      )
      .endCell();
  const jettonTransfer = beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(QUERY_ID_BIG, 64)
    .storeCoins(1_000_000n)
    .storeAddress(Address.parseRaw(W.newOwner))
    .storeAddress(Address.parseRaw(W.resp))
    .storeBit(false)
    .storeCoins(1n)
    .storeBit(true)
    .storeRef(comment('thanks'))
    .endCell();
  const nftTransfer = beginCell()
    .storeUint(0x5fcc3d14, 32)
    .storeUint(9, 64)
    .storeAddress(Address.parseRaw(W.newOwner))
    .storeAddress(Address.parseRaw(W.resp))
    .storeBit(false)
    .storeCoins(0n)
    .storeBit(false)
    .endCell();
  const burn = beginCell()
    .storeUint(0x595f07bc, 32)
    .storeUint(3, 64)
    .storeCoins(77n)
    .storeAddress(Address.parseRaw(W.resp))
    .endCell();
  const unknown = beginCell().storeUint(0xdeadbeef, 32).storeUint(1, 8).endCell();
  const truncated = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 10).endCell();
  const signers = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
  signers.set(1, Address.parseRaw(W.s3));
  signers.set(0, Address.parseRaw(W.s1));
  const update = beginCell()
    .storeUint(0x1d0cfbd3, 32)
    .storeUint(1, 8)
    .storeRef(beginCell().storeDictDirect(signers).endCell())
    .storeBit(false)
    .endCell();
  const actions = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
  actions.set(0, send(jettonTransfer, 50_000_000n, W.dest, 3));
  actions.set(1, send(nftTransfer, 60_000_000n, W.dest, 1));
  actions.set(2, send(comment('approve'), 5n, W.dest, 0));
  actions.set(3, send(burn, 7n, W.dest, 64));
  actions.set(4, send(unknown, 8n, W.dest, 2));
  actions.set(5, send(truncated, 9n, W.dest, 2));
  actions.set(6, update);
  actions.set(7, beginCell().storeUint(0x12345678, 32).endCell());
  return beginCell().storeDictDirect(actions).endCell();
}

const ORDER = hasVectors ? orderCell() : undefined;

const insert = (db: Database, table: string, row: Record<string, unknown>) => insertRows(db, table, [row]);

async function accountState(db: Database, account: string, code: string | null, n: number): Promise<void> {
  await insert(db, 'latest_account_states', {
    account,
    hash: hash(n),
    balance: 1_000_000_000n,
    account_status: code ? 'active' : 'uninit',
    timestamp: 1_700_000_000,
    last_trans_hash: hash(n + 1),
    last_trans_lt: 1000n + BigInt(n),
    data_hash: code ? hash(n + 2) : null,
    code_hash: code ? Cell.fromBase64(code).hash().toString('base64') : null,
    data_boc: code ? beginCell().storeUint(n, 32).endCell().toBoc().toString('base64') : null,
    code_boc: code,
  });
}

const base = (n: number) => ({ last_transaction_lt: 5000n + BigInt(n), code_hash: hash(n), data_hash: hash(n + 100) });

async function seed(db: Database): Promise<void> {
  const v = V as NonNullable<typeof V>;
  // Accounts with codes (interfaces) -------------------------------------------------------------------------
  await accountState(db, W.owner, v.walletV4.code_boc_base64, 1);
  await accountState(db, W.jm1, v.jettonMaster.code_boc_base64, 10);
  await accountState(db, raw(v.scaleMinter.ids.address), v.scaleMinter.code_boc_base64, 20);
  await accountState(db, raw(v.jettonWallet.ids.address), v.jettonWallet.code_boc_base64, 30);
  await accountState(db, raw(v.nftCollection.ids.address), v.nftCollection.code_boc_base64, 40);
  await accountState(db, raw(v.nftSimple.ids.address), v.nftSimple.code_boc_base64, 50);
  await accountState(db, W.other, null, 60);
  const selfMade = beginCell().storeUint(0xabcdef, 24).endCell().toBoc().toString('base64');
  await accountState(db, W.methodsOnly, selfMade, 70);
  await accountState(db, W.plainCode, beginCell().storeUint(7, 8).endCell().toBoc().toString('base64'), 80);
  // contract_methods as the pipeline writes it (one row per code with a method dictionary); the first jetton
  // master's code has none here, so the API must read its methods from the code itself.
  for (const c of [v.walletV4, v.scaleMinter, v.jettonWallet, v.nftCollection, v.nftSimple]) {
    const ids = contractMethodIds(Cell.fromBase64(c.code_boc_base64));
    if (ids) {
      await insert(db, 'contract_methods', {
        code_hash: b64hash(c.verification.code_hash),
        methods: ids.map((x) => BigInt(x)),
      });
    }
  }
  await insert(db, 'contract_methods', {
    code_hash: Cell.fromBase64(selfMade).hash().toString('base64'),
    methods: [BigInt(ID.seqno), BigInt(ID.get_public_key)],
  });

  // DNS ------------------------------------------------------------------------------------------------------
  const dns = (item: string, domain: string, owner: string | null, wallet: string | null, extra = {}) =>
    insert(db, 'dns_entries', {
      nft_item_address: item,
      nft_item_owner: owner,
      domain,
      dns_wallet: wallet,
      last_transaction_lt: 1n,
      ...extra,
    });
  await dns(raw(v.dnsTonapi.ids.address), domainOf(v.dnsTonapi), ownerOf(v.dnsTonapi), W.owner, {
    dns_site_adnl: 'ab'.repeat(32),
    dns_next_resolver: W.other,
  });
  await dns(raw(v.dnsReels.ids.address), domainOf(v.dnsReels), ownerOf(v.dnsReels), null, {
    dns_storage_bag_id: 'cd'.repeat(32),
  });
  // datboi.ton's record points at the owner, who does not own it: a record, not a reverse name.
  await dns(raw(v.dnsDatboi.ids.address), domainOf(v.dnsDatboi), ownerOf(v.dnsDatboi), W.owner);
  await dns(addr(0x401), 'tonapi-longer.ton', W.owner, W.owner);
  // A shorter name the owner holds whose wallet record points elsewhere: not a reverse name either.
  await dns(addr(0x402), 'abcd.ton', W.owner, W.other);
  await dns(addr(0x403), 'ghost.ton', W.ghost, W.ghost);
  for (let i = 0; i < 105; i++)
    await dns(addr(0x1000 + i), `many${String(i).padStart(3, '0')}.ton`, null, W.manyWallet);

  // Multisig -------------------------------------------------------------------------------------------------
  const ms = (address: string, signers: string[], proposers: string[], n: number) =>
    insert(db, 'multisig', {
      address,
      next_order_seqno: '3',
      threshold: 2n,
      signers,
      proposers,
      ...base(n),
    });
  await ms(W.ms1, [W.s1, W.s2], [W.p1], 1);
  await ms(W.ms2, [W.s2, W.s3], [], 2);
  await ms(W.ms3, [W.s4], [W.s1], 3);
  const order = (address: string, multisig: string, seqno: string, boc: string | null, n: number) =>
    insert(db, 'multisig_orders', {
      address,
      multisig_address: multisig,
      order_seqno: seqno,
      threshold: 2n,
      sent_for_execution: false,
      approvals_mask: '1',
      approvals_num: 1n,
      expiration_date: 1_900_000_000n,
      order_boc: boc,
      signers: [W.s1, W.s2],
      ...base(n),
    });
  await order(W.o1, W.ms1, '0', (ORDER as Cell).toBoc().toString('base64'), 11);
  await order(W.o2, W.ms1, '1', null, 12);
  await order(W.o3, W.ms2, '0', null, 13);

  // Vesting --------------------------------------------------------------------------------------------------
  const vest = (address: string, owner: string, sender: string, n: number) =>
    insert(db, 'vesting_contracts', {
      address,
      vesting_start_time: 1_700_000_000n,
      vesting_total_duration: 31_536_000n,
      unlock_period: 2_592_000n,
      cliff_duration: 0n,
      vesting_total_amount: '1000000000000',
      vesting_sender_address: sender,
      owner_address: owner,
      ...base(n),
    });
  await vest(W.v1, W.ow1, W.se1, 21);
  await vest(W.v2, W.ow2, W.ow1, 22);
  await vest(W.v3, W.ow3, W.se3, 23);
  for (const [c, w] of [
    [W.v1, W.wl2],
    [W.v1, W.wl1],
    [W.v3, W.ow1],
  ]) {
    await insert(db, 'vesting_whitelist', { vesting_contract_address: c, wallet_address: w });
  }

  // Token rows for metadata ----------------------------------------------------------------------------------
  const master = (address: string, content: Record<string, string>, n: number) =>
    insert(db, 'jetton_masters', { address, total_supply: '1', mintable: true, jetton_content: content, ...base(n) });
  await master(
    W.jm1,
    { name: 'Tongate Coin', symbol: 'TGC', decimals: '9', description: 'seeded', image: 'https://x.test/i.png' },
    31,
  );
  await master(W.jm2, { uri: 'https://x.test/j.json' }, 32);
  await master(W.jm3, { uri: 'https://x.test/k.json' }, 33);
  await insert(db, 'address_metadata', {
    address: W.jm3,
    type: 'jetton_masters',
    valid: true,
    name: 'Fetched',
    symbol: 'FET',
    extra: { decimals: '6' },
  });
  await insert(db, 'nft_collections', {
    address: W.nc1,
    collection_content: { uri: 'https://x.test/c.json' },
    ...base(34),
  });
  await insert(db, 'address_metadata', { address: W.nc1, type: 'nft_collections', valid: false });
  await insert(db, 'nft_items', {
    address: raw(v.dnsTonapi.ids.address),
    init: true,
    index: '7',
    owner_address: W.owner,
    content: {},
    ...base(35),
  });
  await insert(db, 'nft_items', {
    address: W.ni2,
    init: true,
    index: '8',
    collection_address: W.nc1,
    content: { name: 'Item 8', image: 'https://x.test/8.png', attributes: 'x' },
    ...base(36),
  });
  await insert(db, 'jetton_wallets', { address: W.jw1, balance: '12345', owner: W.owner, jetton: W.jm1, ...base(37) });
}

// ---- the tests --------------------------------------------------------------------------------------------------

describe.runIf(hasVectors).each(KINDS)('v3 DNS, multisig, vesting, metadata (%s)', (kind) => {
  let t: TestDatabase;
  let server: ApiServer;
  let url: string;
  /** Our own /api/v3/openapi.json: every 200 must match what it documents too. */
  let ownDoc: Json;

  async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
    const res = await fetch(url + path, { headers });
    const body = (await res.json()) as Json;
    if (res.status === 200) {
      const route = `/api/v3${path.split('?')[0]}`;
      expect(validateV3('get', route, 200, body), `public spec: ${path}`).toEqual([]);
      expect(validateAgainstDocument(ownDoc, 'get', route, 200, body), `our openapi.json: ${path}`).toEqual([]);
    }
    return { status: res.status, body };
  }
  async function ok(path: string, headers: Record<string, string> = {}): Promise<Json> {
    const r = await get(path, headers);
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
    const v = V as NonNullable<typeof V>;
    W.owner = ownerOf(v.dnsTonapi) as string;
    W.jm1 = raw(v.jettonMaster.ids.address);
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

  describe('GET /dns/records', () => {
    it('wallet: the records whose wallet category points at it, shortest name first, then by name', async () => {
      const v = V as NonNullable<typeof V>;
      expect(domainOf(v.dnsTonapi)).toBe('tonapi.ton');
      expect(domainOf(v.dnsDatboi)).toBe(`${v.dnsDatboi.expected?.get_domain}.ton`);
      for (const form of [W.owner, friendly(W.owner, true), friendly(W.owner, false), W.owner.toLowerCase()]) {
        const body = await ok(`/dns/records?wallet=${encodeURIComponent(form)}`);
        expect(body.records.map((r: Json) => r.domain)).toEqual(['datboi.ton', 'tonapi.ton', 'tonapi-longer.ton']);
      }
      const body = await ok(`/dns/records?wallet=${W.owner}`);
      expect(body.records[1]).toEqual({
        nft_item_address: raw(v.dnsTonapi.ids.address),
        nft_item_owner: W.owner,
        domain: 'tonapi.ton',
        dns_next_resolver: W.other,
        dns_wallet: W.owner,
        dns_site_adnl: 'ab'.repeat(32),
        dns_storage_bag_id: null,
      });
      // datboi.ton is auctioned (get_nft_data's owner is addr_none): its owner is null.
      expect(body.records[0].nft_item_owner).toBeNull();
      // The address book covers items, owners and wallets (not the next resolver).
      expect(Object.keys(body.address_book).sort()).toEqual(
        [raw(v.dnsTonapi.ids.address), raw(v.dnsDatboi.ids.address), addr(0x401), W.owner].sort(),
      );
      expect(body.address_book[W.owner]).toEqual({
        user_friendly: friendly(W.owner, false),
        domain: 'tonapi.ton',
        interfaces: v.walletV4.expected?.interfaces,
      });
    });

    it('domain: the exact name only', async () => {
      const v = V as NonNullable<typeof V>;
      const body = await ok('/dns/records?domain=reels.ton');
      expect(body.records).toEqual([
        {
          nft_item_address: raw(v.dnsReels.ids.address),
          nft_item_owner: null,
          domain: 'reels.ton',
          dns_next_resolver: null,
          dns_wallet: null,
          dns_site_adnl: null,
          dns_storage_bag_id: 'cd'.repeat(32),
        },
      ]);
      expect((await ok('/dns/records?domain=reels')).records).toEqual([]);
      expect((await ok('/dns/records?domain=REELS.TON')).records).toEqual([]);
    });

    it('pages 100 records by default (the document default), limit and offset move through them', async () => {
      const all = (await ok(`/dns/records?wallet=${W.manyWallet}&limit=1000`)).records.map((r: Json) => r.domain);
      const names = Array.from({ length: 105 }, (_, i) => `many${String(i).padStart(3, '0')}.ton`);
      expect(all).toEqual(names);
      expect((await ok(`/dns/records?wallet=${W.manyWallet}`)).records).toHaveLength(100);
      const page = await ok(`/dns/records?wallet=${W.manyWallet}&limit=3&offset=102`);
      expect(page.records.map((r: Json) => r.domain)).toEqual(names.slice(102));
      expect((await ok(`/dns/records?wallet=${W.manyWallet}&limit=5&sort=whatever`)).records).toHaveLength(5);
      expect((await ok(`/dns/records?wallet=${W.manyWallet}`, { 'x-no-address-book': '1' })).address_book).toEqual({});
    });

    it('wallet xor domain; bad values are refused with 422', async () => {
      await refused('/dns/records', 'either wallet address or domain is required');
      await refused(
        `/dns/records?wallet=${W.owner}&domain=tonapi.ton`,
        'provide either wallet address or domain, not both',
      );
      await refused('/dns/records?wallet=nope', /wallet/);
      await refused(`/dns/records?domain=a.ton&limit=0`, /limit/);
      await refused(`/dns/records?domain=a.ton&limit=1001`, /limit is not allowed: 1001 > 1000/);
      await refused(`/dns/records?domain=a.ton&offset=-1`, /offset/);
    });
  });

  describe('address book: domain and interfaces', () => {
    it('domain: the shortest name the account owns whose wallet record points back at it', async () => {
      const book = await ok(`/addressBook?address=${W.owner}&address=${W.ghost}&address=${W.other}`);
      expect(book[W.owner].domain).toBe('tonapi.ton');
      // An account without a state in the index gets no domain (toncenter reads domains for known accounts only).
      expect(book[W.ghost]).toEqual({ user_friendly: friendly(W.ghost, false), domain: null, interfaces: [] });
      expect(book[W.other].domain).toBeNull();
    });

    it('interfaces: an exact code hash names one interface', async () => {
      const v = V as NonNullable<typeof V>;
      const simple = raw(v.nftSimple.ids.address);
      const book = await ok(`/addressBook?address=${W.owner}&address=${simple}`);
      expect(book[W.owner].interfaces).toEqual(['wallet_v4r2']);
      // contracts.md §1.2 / code_hashes.json: 4c912382… is nft_item_simple, though the code also has get_nft_data.
      expect(v.nftSimple.verification.code_hash).toBe(
        '4c9123828682fa6f43797ab41732bca890cae01766e0674100250516e0bf8d42',
      );
      expect(book[simple].interfaces).toEqual(['nft_item_simple']);
    });

    it('interfaces: otherwise every interface whose get-methods the code has (contracts.md §1.2)', async () => {
      const v = V as NonNullable<typeof V>;
      const cases: Array<[string, string[], number[]]> = [
        [raw(v.scaleMinter.ids.address), ['jetton_master'], [ID.get_jetton_data, ID.get_wallet_address]],
        [raw(v.jettonWallet.ids.address), ['jetton_wallet'], [ID.get_wallet_data]],
        [
          raw(v.nftCollection.ids.address),
          ['nft_collection'],
          [ID.get_collection_data, ID.get_nft_address_by_index, ID.get_nft_content],
        ],
      ];
      const q = cases.map(([a]) => `address=${a}`).join('&');
      const book = await ok(`/addressBook?${q}`);
      const states = await ok(`/accountStates?${q}&include_boc=false`);
      for (const [a, names, ids] of cases) {
        expect(book[a].interfaces, a).toEqual(names);
        // Bounceable: the code is not a user wallet.
        expect(book[a].user_friendly).toBe(friendly(a, true));
        const s = states.accounts.find((x: Json) => x.address === a);
        expect(s.interfaces, a).toEqual(names);
        for (const id of ids) expect(s.contract_methods, a).toContain(id);
      }
      // A jetton master that is also a STON.fi pool (its LP token), whose code has no contract_methods row here: its
      // methods are read from the code itself, and it is every interface whose getters it has, sorted.
      const pool = (await ok(`/addressBook?address=${W.jm1}`))[W.jm1].interfaces as string[];
      expect(pool).toEqual(expect.arrayContaining(['jetton_master', 'stonfi_pool']));
      expect(pool).toEqual([...pool].sort());
      expect((await ok(`/accountStates?address=${W.jm1}&include_boc=false`)).accounts[0].interfaces).toEqual(pool);
      // Own code with seqno and get_public_key: every wallet interface needing no more (contracts.md §1.2).
      const own = (await ok(`/addressBook?address=${W.methodsOnly}`))[W.methodsOnly].interfaces as string[];
      expect(own).toEqual(expect.arrayContaining(['wallet_v1r3', 'wallet_v2r2', 'wallet_v3r2']));
      expect(own).not.toContain('wallet_v4r2');
      expect(own).toEqual([...own].sort());
      // Code without a method dictionary and an unknown hash, and an account without code: none.
      const none = await ok(`/addressBook?address=${W.plainCode}&address=${W.other}`);
      expect(none[W.plainCode].interfaces).toEqual([]);
      expect(none[W.other].interfaces).toEqual([]);
    });
  });

  describe('GET /multisig/wallets', () => {
    it('by address: the wallet with its orders in id order', async () => {
      const body = await ok(`/multisig/wallets?address=${friendly(W.ms1, true)}`);
      expect(body.multisigs).toHaveLength(1);
      const m = body.multisigs[0];
      expect(m).toMatchObject({
        address: W.ms1,
        next_order_seqno: '3',
        threshold: 2,
        signers: [W.s1, W.s2],
        proposers: [W.p1],
        last_transaction_lt: '5001',
        code_hash: hash(1),
        data_hash: hash(101),
      });
      expect(m.orders.map((o: Json) => o.address)).toEqual([W.o1, W.o2]);
      expect(m.orders[1]).toEqual({
        address: W.o2,
        multisig_address: W.ms1,
        order_seqno: '1',
        threshold: 2,
        sent_for_execution: false,
        approvals_mask: '1',
        approvals_num: 1,
        expiration_date: 1_900_000_000,
        order_boc: null,
        signers: [W.s1, W.s2],
        last_transaction_lt: '5012',
        code_hash: hash(12),
        data_hash: hash(112),
        actions: [],
      });
      const book = Object.keys(body.address_book).sort();
      expect(book).toEqual([W.ms1, W.s1, W.s2, W.p1, W.o1, W.o2].sort());
      const without = await ok(`/multisig/wallets?address=${W.ms1}&include_orders=false`);
      expect(without.multisigs[0].orders).toEqual([]);
      expect(Object.keys(without.address_book).sort()).toEqual([W.ms1, W.s1, W.s2, W.p1].sort());
    });

    it('wallet_address matches signers or proposers; sort by the order the index saw them (default desc)', async () => {
      const ids = async (qs: string) => (await ok(`/multisig/wallets?${qs}`)).multisigs.map((m: Json) => m.address);
      expect(await ids(`wallet_address=${W.s1}`)).toEqual([W.ms3, W.ms1]);
      expect(await ids(`wallet_address=${W.s1}&sort=asc`)).toEqual([W.ms1, W.ms3]);
      expect(await ids(`wallet_address=${W.s2}`)).toEqual([W.ms2, W.ms1]);
      expect(await ids(`wallet_address=${W.p1}&wallet_address=${W.s4}`)).toEqual([W.ms3, W.ms1]);
      expect(await ids(`wallet_address=${W.s1}&address=${W.ms1}`)).toEqual([W.ms1]);
      expect(await ids(`wallet_address=${W.s1}&limit=1&offset=1`)).toEqual([W.ms1]);
      expect(await ids(`wallet_address=${W.dest}`)).toEqual([]);
      expect((await ok(`/multisig/wallets?address=${W.ms2}`)).multisigs[0].proposers).toEqual([]);
    });

    it('needs address or wallet_address; bad values are refused with 422', async () => {
      await refused('/multisig/wallets', 'At least one of address or wallet_address should be specified');
      await refused('/multisig/wallets?include_orders=true', /At least one of address or wallet_address/);
      await refused('/multisig/wallets?address=xyz', /address/);
      await refused(`/multisig/wallets?address=${W.ms1}&include_orders=maybe`, /include_orders/);
      await refused(`/multisig/wallets?address=${W.ms1}&sort=up`, 'wrong value for sort parameter');
      await refused(`/multisig/wallets?address=${W.ms1}&limit=1001`, /limit is not allowed/);
    });
  });

  describe('GET /multisig/orders', () => {
    it('by multisig or address, sorted by id (default desc), actions empty without parse_actions', async () => {
      const ids = async (qs: string) => (await ok(`/multisig/orders?${qs}`)).orders.map((o: Json) => o.address);
      expect(await ids(`multisig_address=${W.ms1}`)).toEqual([W.o2, W.o1]);
      expect(await ids(`multisig_address=${W.ms1}&sort=asc`)).toEqual([W.o1, W.o2]);
      expect(await ids(`multisig_address=${W.ms1}&multisig_address=${W.ms2}&limit=2`)).toEqual([W.o3, W.o2]);
      expect(await ids(`address=${W.o3}`)).toEqual([W.o3]);
      expect(await ids(`address=${W.o3}&multisig_address=${W.ms1}`)).toEqual([]);
      const body = await ok(`/multisig/orders?address=${W.o1}`);
      expect(body.orders[0].actions).toEqual([]);
      expect(body.orders[0].order_boc).toBe((ORDER as Cell).toBoc().toString('base64'));
      expect(Object.keys(body.address_book).sort()).toEqual([W.o1, W.ms1, W.s1, W.s2].sort());
    });

    it('parse_actions decodes the order: send_message bodies, update_multisig_param, failures', async () => {
      const body = await ok(`/multisig/orders?address=${W.o1}&parse_actions=true`);
      const a = body.orders[0].actions as Json[];
      expect(a).toHaveLength(8);
      const bodyOf = (i: number) => Cell.fromBase64(a[i].body_raw);
      expect(a[0]).toMatchObject({
        destination: W.dest,
        value: '50000000',
        parsed: true,
        error: null,
        parsed_body_type: 'jetton_transfer',
        send_mode: 3,
      });
      expect(bodyOf(0).beginParse().loadUint(32)).toBe(0x0f8a7ea5);
      expect(a[0].parsed_body).toMatchObject({
        query_id: QUERY_ID_BIG.toString(),
        amount: '1000000',
        destination: W.newOwner,
        response: W.resp,
        custom_payload: null,
        forward_amount: '1',
        comment: 'thanks',
        encrypted_comment: false,
        payload_sum_type: 'TextComment',
        stonfi_swap_body: null,
      });
      expect(Cell.fromBase64(a[0].parsed_body.forward_payload).equals(comment('thanks'))).toBe(true);
      expect(a[1]).toMatchObject({ value: '60000000', send_mode: 1, parsed_body_type: 'nft_transfer' });
      expect(a[1].parsed_body).toMatchObject({
        query_id: '9',
        new_owner: W.newOwner,
        response_destination: W.resp,
        custom_payload: null,
        forward_amount: '0',
      });
      expect(a[2]).toMatchObject({
        parsed_body_type: 'ton_transfer',
        parsed_body: { comment: 'approve', encrypted: false },
      });
      expect(a[3]).toMatchObject({
        send_mode: 64,
        parsed_body_type: 'jetton_burn',
        parsed_body: { query_id: '3', amount: '77', response_destination: W.resp },
      });
      expect(a[4]).toMatchObject({ parsed: true, parsed_body_type: 'unknown', parsed_body: { opcode: 0xdeadbeef } });
      expect(Cell.fromBase64(a[4].parsed_body.data).equals(bodyOf(4))).toBe(true);
      // A known opcode whose body does not parse: unknown with opcode 0 (toncenter's fallback).
      expect(a[5]).toMatchObject({ parsed: true, parsed_body_type: 'unknown', parsed_body: { opcode: 0 } });
      expect(a[6]).toEqual({
        destination: null,
        value: null,
        body_raw: null,
        parsed: true,
        error: null,
        parsed_body: { new_threshold: 1, new_signers: [W.s1, W.s3], new_proposers: null },
        parsed_body_type: 'multisig_update_params',
        send_mode: 0,
      });
      expect(a[7]).toMatchObject({ parsed: false, parsed_body: null, parsed_body_type: 'unknown', destination: null });
      expect(a[7].error).toMatch(/unknown order action type/);
      // The address book adds the addresses the actions name.
      for (const x of [W.dest, W.newOwner, W.resp, W.s3]) expect(body.address_book).toHaveProperty(x);
      // An order without a BoC has no actions.
      expect((await ok(`/multisig/orders?address=${W.o2}&parse_actions=1`)).orders[0].actions).toEqual([]);
    });

    it('needs address or multisig_address; bad values are refused with 422', async () => {
      await refused('/multisig/orders', 'At least one of address or multisig_address should be specified');
      await refused('/multisig/orders?multisig_address=0:12', /multisig_address/);
      await refused(`/multisig/orders?address=${W.o1}&parse_actions=2`, /parse_actions/);
      await refused(`/multisig/orders?address=${W.o1}&offset=x`, /offset/);
    });
  });

  describe('GET /vesting', () => {
    it('contract_address: the contracts with their whitelists in address order', async () => {
      const body = await ok(`/vesting?contract_address=${W.v3}&contract_address=${friendly(W.v1, true)}`);
      expect(body.vesting_contracts.map((c: Json) => c.address)).toEqual([W.v1, W.v3]);
      expect(body.vesting_contracts[0]).toEqual({
        address: W.v1,
        start_time: 1_700_000_000,
        total_duration: 31_536_000,
        unlock_period: 2_592_000,
        cliff_duration: 0,
        sender_address: W.se1,
        owner_address: W.ow1,
        total_amount: '1000000000000',
        whitelist: [W.wl1, W.wl2],
      });
      expect(Object.keys(body.address_book).sort()).toEqual(
        [W.v1, W.v3, W.se1, W.ow1, W.wl1, W.wl2, W.se3, W.ow3].sort(),
      );
    });

    it('wallet_address: owner or sender, with check_whitelist also the whitelists; in id order', async () => {
      const ids = async (qs: string) => (await ok(`/vesting?${qs}`)).vesting_contracts.map((c: Json) => c.address);
      expect(await ids(`wallet_address=${W.ow1}`)).toEqual([W.v1, W.v2]);
      expect(await ids(`wallet_address=${W.ow1}&check_whitelist=true`)).toEqual([W.v1, W.v2, W.v3]);
      expect(await ids(`wallet_address=${W.wl1}`)).toEqual([]);
      expect(await ids(`wallet_address=${W.wl1}&check_whitelist=1`)).toEqual([W.v1]);
      expect(await ids(`wallet_address=${W.ow1}&check_whitelist=true&limit=1&offset=2`)).toEqual([W.v3]);
      expect(await ids(`wallet_address=${W.ow1}&sort=asc`)).toEqual([W.v1, W.v2]);
    });

    it('exactly one of contract_address and wallet_address; bad values are refused with 422', async () => {
      await refused('/vesting', 'at least one of contract_address or wallet_address is required');
      await refused(
        `/vesting?contract_address=${W.v1}&wallet_address=${W.ow1}`,
        'only one of contract_address or wallet_address should be specified',
      );
      await refused('/vesting?wallet_address=EQbad', /wallet_address/);
      await refused(`/vesting?wallet_address=${W.ow1}&check_whitelist=perhaps`, /check_whitelist/);
    });
  });

  describe('metadata', () => {
    it('/metadata: jetton wallets bring their master; on-chain content is indexed, off-chain waits', async () => {
      const v = V as NonNullable<typeof V>;
      const dnsItem = raw(v.dnsTonapi.ids.address);
      const sent = [W.jw1, W.jm2, friendly(W.jm3, true), W.nc1, dnsItem, W.ni2, W.owner, 'junk'];
      const body = await ok(`/metadata?${sent.map((a) => `address=${encodeURIComponent(a)}`).join('&')}`);
      expect(Object.keys(body)).toEqual([W.jm2, W.jm3, W.nc1, W.ni2, W.jw1, W.jm1, dnsItem].sort());
      expect(body[W.jw1]).toEqual({
        is_indexed: true,
        token_info: [
          { valid: true, type: 'jetton_wallets', extra: { balance: '12345', jetton: W.jm1, owner: W.owner } },
        ],
      });
      expect(body[W.jm1]).toEqual({
        is_indexed: true,
        token_info: [
          {
            valid: true,
            type: 'jetton_masters',
            name: 'Tongate Coin',
            symbol: 'TGC',
            description: 'seeded',
            image: 'https://x.test/i.png',
            is_nsfw: false,
            is_scam: false,
            extra: { decimals: '9' },
          },
        ],
      });
      expect(body[W.jm2]).toEqual({ is_indexed: false, token_info: [{ type: 'jetton_masters' }] });
      expect(body[W.jm3]).toEqual({
        is_indexed: true,
        token_info: [
          {
            valid: true,
            type: 'jetton_masters',
            name: 'Fetched',
            symbol: 'FET',
            is_nsfw: false,
            is_scam: false,
            extra: { decimals: '6' },
          },
        ],
      });
      expect(body[W.nc1]).toEqual({ is_indexed: true, token_info: [{ valid: false, type: 'nft_collections' }] });
      expect(body[dnsItem]).toEqual({
        is_indexed: true,
        token_info: [
          {
            valid: true,
            type: 'nft_items',
            nft_index: '7',
            is_nsfw: false,
            is_scam: false,
            extra: { domain: 'tonapi.ton' },
          },
        ],
      });
      expect(body[W.ni2].token_info[0]).toEqual({
        valid: true,
        type: 'nft_items',
        name: 'Item 8',
        image: 'https://x.test/8.png',
        nft_index: '8',
        is_nsfw: false,
        is_scam: false,
        extra: { attributes: 'x' },
      });
      expect(await ok(`/metadata?address=${W.owner}`)).toEqual({});
      await refused('/metadata', 'at least 1 address required');
    });

    it('list endpoints carry it: /accountStates of a jetton master, none with X-No-Metadata', async () => {
      const body = await ok(`/accountStates?address=${W.jm1}&include_boc=false`);
      expect(Object.keys(body.metadata)).toEqual([W.jm1]);
      expect(body.metadata[W.jm1].token_info[0].symbol).toBe('TGC');
      expect((await ok(`/accountStates?address=${W.jm1}`, { 'x-no-metadata': 'true' })).metadata).toEqual({});
    });
  });

  it.runIf(kind === 'postgres')('every statement reads the contract tables through an index', async () => {
    const page = { limit: 10, offset: 0, sort: 'desc' as const };
    const queries: Record<string, SqlQuery> = {
      'dns wallet': dnsRecordsQuery({ wallet: W.owner }, page),
      'dns domain': dnsRecordsQuery({ domain: 'tonapi.ton' }, page),
      'address book': addressBookQuery([W.owner, W.ghost]),
      'multisig address': multisigQuery({ address: [W.ms1], walletAddress: [] }, page),
      'multisig wallet_address': multisigQuery({ address: [], walletAddress: [W.s1] }, page),
      'orders of multisigs': ordersOfQuery([W.ms1]),
      'orders multisig_address': ordersQuery({ address: [], multisigAddress: [W.ms1] }, page),
      'orders address': ordersQuery({ address: [W.o1], multisigAddress: [] }, page),
      'vesting contract': vestingQuery({ contractAddress: [W.v1] }, page),
      'vesting wallet': vestingQuery({ walletAddress: [W.ow1], checkWhitelist: true }, page),
      whitelist: whitelistQuery([W.v1]),
      'metadata wallets': { sql: JETTON_WALLET_INFO_SQL, params: [[W.jw1]] },
      'metadata tokens': { sql: TOKEN_INFO_SQL, params: [[W.jm1, W.nc1, W.ni2]] },
    };
    const tables = new Set([
      'dns_entries',
      'multisig',
      'multisig_orders',
      'vesting_contracts',
      'vesting_whitelist',
      'latest_account_states',
      'jetton_wallets',
      'jetton_masters',
      'nft_items',
      'nft_collections',
      'address_metadata',
    ]);
    const indexes = new Map<string, Set<string>>();
    for (const [name, q] of Object.entries(queries)) {
      // With sequential scans priced out the planner takes any index that can serve; a Seq Scan left means none can.
      const plan = await t.db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        return (await tx.query(`EXPLAIN (FORMAT JSON) ${q.sql}`, q.params)).rows[0]?.['QUERY PLAN'] as Json;
      });
      const used = new Set<string>();
      const walk = (n: Json) => {
        if (tables.has(n['Relation Name'])) {
          expect(n['Node Type'], `${name}: ${JSON.stringify(plan)}`).not.toBe('Seq Scan');
        }
        // Bitmap Index Scan nodes name the index but not the table.
        if (n['Index Name']) used.add(n['Index Name']);
        for (const c of n.Plans ?? []) walk(c);
      };
      walk((Array.isArray(plan) ? plan[0] : plan).Plan);
      indexes.set(name, used);
    }
    expect(indexes.get('dns wallet')).toContain('dns_entries_index_3');
    expect(indexes.get('dns domain')).toContain('dns_entries_index_domain');
    // The reverse-domain lookup: index_4 (owner, partial on owner = wallet) or index_3 (wallet), as the planner prices them.
    expect([...(indexes.get('address book') ?? [])].some((i) => /^dns_entries_index_[34]$/.test(i))).toBe(true);
    expect([...(indexes.get('multisig wallet_address') ?? [])].sort()).toEqual([
      'multisig_index_2',
      'multisig_index_3',
    ]);
    for (const i of ['vesting_index_1', 'vesting_index_2', 'vesting_index_3'])
      expect(indexes.get('vesting wallet')).toContain(i);
  });
});
