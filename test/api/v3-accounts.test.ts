// /api/v3 account endpoints over a devnet index in the embedded database (PGlite): every parameter answers, every
// 200 validates against the public v3 OpenAPI document and against our own /api/v3/openapi.json, and the values
// agree with the chain as an independent liteserver client reads it at the indexed masterchain block (balances,
// statuses, state/code/data hashes, last transactions, wallet getters). Bad input gets a 4xx naming the parameter.
import { readFileSync } from 'node:fs';
import { Address, Cell, parseTuple } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { WalletContractV3R2, WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressBookQuery } from '../../src/api/v3/address-book.ts';
import { latestStatesQuery, topAccountsQuery } from '../../src/api/v3/routes/accounts.ts';
import { type ApiFixture, type JsonBody, startApiFixture } from '../helpers/api-fixture.ts';
import { validateAgainstDocument, validateV3 } from '../helpers/openapi-validator.ts';

let f: ApiFixture;
let ownDoc: JsonBody;
/** The masterchain block the index ends at: every chain read below is at this block. */
let atBlock: { workchain: number; shard: string; seqno: number; rootHash: Buffer; fileHash: Buffer };
/** Every account the index holds, as /topAccountsByBalance?limit=1000 lists them. */
let allAccounts: string[];
let wallets: Array<{ version: 'v3r2' | 'v4r2' | 'v5r1'; raw: string; mnemonic: string[] }>;

const V3_TYPE = { v3r2: 'wallet v3 r2', v4r2: 'wallet v4 r2', v5r1: 'wallet v5 r1' } as const;

interface ChainAccount {
  status: 'nonexist' | 'uninit' | 'active' | 'frozen';
  balance: bigint;
  stateHash: string | null;
  codeHash: string | null;
  dataHash: string | null;
  lastTx: { lt: string; hash: string } | null;
}

const b64 = (b: Buffer) => b.toString('base64');

async function chainAccount(raw: string): Promise<ChainAccount> {
  const r = await f.lite.getAccountStateRaw(Address.parseRaw(raw), atBlock);
  const a = r.state;
  const lastTx = r.lastTx
    ? { lt: r.lastTx.lt.toString(), hash: b64(Buffer.from(r.lastTx.hash.toString(16).padStart(64, '0'), 'hex')) }
    : null;
  if (!a) return { status: 'nonexist', balance: 0n, stateHash: null, codeHash: null, dataHash: null, lastTx };
  const st = a.storage.state;
  return {
    status: st.type === 'active' ? 'active' : st.type === 'frozen' ? 'frozen' : 'uninit',
    balance: a.storage.balance.coins,
    stateHash: b64(Cell.fromBoc(r.raw)[0]!.hash()),
    codeHash: st.type === 'active' && st.state.code ? b64(st.state.code.hash()) : null,
    dataHash: st.type === 'active' && st.state.data ? b64(st.state.data.hash()) : null,
    lastTx,
  };
}

async function getter(raw: string, method: string): Promise<bigint> {
  const r = await f.lite.runMethod(Address.parseRaw(raw), method, Buffer.alloc(0), atBlock);
  expect(r.exitCode, `${method} on ${raw}`).toBe(0);
  const top = parseTuple(Cell.fromBoc(Buffer.from(r.result ?? '', 'base64'))[0]!)[0];
  if (top?.type !== 'int') throw new Error(`${method}: expected an int, got ${top?.type}`);
  return top.value;
}

/** GET with the two validations every 200 must pass. */
async function get(path: string, headers?: Record<string, string>) {
  const r = await f.get(path, headers);
  const route = path.split('?')[0]!;
  if (r.status === 200) {
    expect(validateV3('get', route, 200, r.body), `public spec: ${path}`).toEqual([]);
    expect(validateAgainstDocument(ownDoc, 'get', route, 200, r.body), `our openapi.json: ${path}`).toEqual([]);
  }
  return r;
}

const qs = (name: string, values: string[]) => values.map((v) => `${name}=${encodeURIComponent(v)}`).join('&');
const friendly = (raw: string, bounceable: boolean, urlSafe = true) =>
  Address.parseRaw(raw).toString({ bounceable, urlSafe, testOnly: false });

beforeAll(async () => {
  f = await startApiFixture({ seed: 'v3-accounts', db: 'pglite' });
  ownDoc = (await f.get('/api/v3/openapi.json')).body;
  atBlock = (await f.lite.lookupBlockByID({ workchain: -1, shard: '-9223372036854775808', seqno: f.indexedThrough }))
    .id;
  wallets = JSON.parse(readFileSync(f.info.walletsFile, 'utf8'));
  const top = await f.get('/api/v3/topAccountsByBalance?limit=1000');
  allAccounts = top.body.map((a: { account: string }) => a.account);
}, 300_000);
afterAll(async () => {
  await f?.close();
});

describe('GET /api/v3/accountStates', () => {
  it('matches the chain for every indexed account: status, balance, hashes, last transaction, BoCs', async () => {
    expect(allAccounts.length).toBeGreaterThanOrEqual(8);
    for (const w of wallets) expect(allAccounts).toContain(w.raw.toUpperCase());
    const r = await get(`/api/v3/accountStates?${qs('address', allAccounts)}`);
    expect(r.status).toBe(200);
    expect(r.body.accounts.map((a: JsonBody) => a.address).sort()).toEqual([...allAccounts].sort());
    const statuses = new Set<string>();
    for (const a of r.body.accounts) {
      const c = await chainAccount(a.address);
      statuses.add(c.status);
      expect(a.status, a.address).toBe(c.status);
      expect(a.balance, a.address).toBe(c.balance.toString());
      expect(a.extra_currencies).toEqual({});
      if (c.lastTx) {
        expect(a.last_transaction_lt).toBe(c.lastTx.lt);
        expect(a.last_transaction_hash).toBe(c.lastTx.hash);
      }
      if (c.stateHash) expect(a.account_state_hash, a.address).toBe(c.stateHash);
      if (c.status === 'active') {
        expect(a.code_hash).toBe(c.codeHash);
        expect(a.data_hash).toBe(c.dataHash);
        expect(b64(Cell.fromBase64(a.code_boc).hash())).toBe(c.codeHash);
        expect(b64(Cell.fromBase64(a.data_boc).hash())).toBe(c.dataHash);
      } else {
        for (const k of ['code_hash', 'data_hash', 'code_boc', 'data_boc', 'frozen_hash'])
          expect(a).not.toHaveProperty(k);
        expect(a.contract_methods).toBeNull();
      }
    }
    // The activity leaves active contracts, a never-deployed (uninit) address and a bounced-to (nonexist) one.
    expect([...statuses].sort()).toEqual(['active', 'nonexist', 'uninit']);
  });

  it('lists get-method ids for dictionary-dispatched codes and interfaces for wallet codes', async () => {
    const r = await get(
      `/api/v3/accountStates?${qs(
        'address',
        wallets.map((w) => w.raw),
      )}&include_boc=false`,
    );
    for (const w of wallets) {
      const a = r.body.accounts.find((x: JsonBody) => x.address === w.raw.toUpperCase());
      expect(a.interfaces).toEqual([`wallet_${w.version}`]);
      // v3r2 is hand-written Fift (no method dictionary); v4r2 and v5r1 dispatch seqno = 85143 through one.
      if (w.version === 'v3r2') expect(a.contract_methods).toBeNull();
      else expect(a.contract_methods).toContain(85143);
    }
    const others = (await get(`/api/v3/accountStates?${qs('address', allAccounts)}`)).body.accounts.filter(
      (a: JsonBody) => a.status === 'active' && !wallets.some((w) => w.raw.toUpperCase() === a.address),
    );
    expect(others.length).toBeGreaterThan(0);
    // The devnet's Tolk contracts have no known code hash: their interfaces are those whose get-methods their
    // method dictionary holds (contracts.md §1.2, method ids from its §0 table).
    const needs: Record<string, number[]> = {
      jetton_master: [106029, 103289],
      jetton_wallet: [97026],
      nft_collection: [68445, 102491, 92067],
      nft_item: [102351],
      editable: [90228],
      sbt: [84760],
      dns: [123660],
    };
    for (const a of others) {
      expect(Array.isArray(a.contract_methods), a.address).toBe(true);
      const expected = Object.keys(needs).filter((n) => needs[n]!.every((id) => a.contract_methods.includes(id)));
      expect(a.interfaces, a.address).toEqual(expected.sort());
    }
    expect(others.some((a: JsonBody) => a.interfaces.includes('jetton_master'))).toBe(true);
  });

  it('include_boc=false leaves the BoCs out, any spelling of true keeps them', async () => {
    const w = wallets[1]!.raw;
    for (const v of ['false', '0', 'f']) {
      const a = (await get(`/api/v3/accountStates?address=${w}&include_boc=${v}`)).body.accounts[0];
      expect(a).not.toHaveProperty('code_boc');
      expect(a).not.toHaveProperty('data_boc');
      expect(a.code_hash).toBeTypeOf('string');
    }
    for (const v of ['true', '1', 't']) {
      const a = (await get(`/api/v3/accountStates?address=${w}&include_boc=${v}`)).body.accounts[0];
      expect(a.code_boc).toBeTypeOf('string');
    }
  });

  it('accepts every address form, repeated or comma-separated, and answers each account once', async () => {
    const raw = wallets[0]!.raw.toUpperCase();
    const forms = [
      raw,
      raw.toLowerCase(),
      friendly(raw, true),
      friendly(raw, false),
      friendly(raw, true, false),
      friendly(raw, false, false),
    ];
    const one = await get(`/api/v3/accountStates?${qs('address', forms)}`);
    expect(one.body.accounts).toHaveLength(1);
    expect(one.body.accounts[0].address).toBe(raw);
    const other = wallets[2]!.raw.toUpperCase();
    const comma = await get(`/api/v3/accountStates?address=${encodeURIComponent(`${raw},${friendly(other, true)}`)}`);
    expect(comma.body.accounts.map((a: JsonBody) => a.address).sort()).toEqual([raw, other].sort());
  });

  it('code_hash keeps only the accounts running that code, in hex or base64', async () => {
    const v4 = wallets.find((w) => w.version === 'v4r2')!.raw.toUpperCase();
    const codeHash = (await chainAccount(v4)).codeHash!;
    const hex = Buffer.from(codeHash, 'base64').toString('hex');
    for (const h of [codeHash, hex, `0x${hex}`, codeHash.replace(/\+/g, '-').replace(/\//g, '_')]) {
      const r = await get(`/api/v3/accountStates?${qs('address', allAccounts)}&code_hash=${encodeURIComponent(h)}`);
      expect(r.body.accounts.map((a: JsonBody) => a.address)).toEqual([v4]);
      expect(Object.keys(r.body.address_book)).toEqual([v4]);
    }
  });

  it('address_book: user-friendly forms as @ton/core writes them, non-bounceable for wallets and code-less accounts', async () => {
    const r = await get(`/api/v3/accountStates?${qs('address', allAccounts)}`);
    const book = r.body.address_book;
    expect(Object.keys(book).sort()).toEqual([...allAccounts].sort());
    for (const a of r.body.accounts) {
      const isWallet = wallets.some((w) => w.raw.toUpperCase() === a.address);
      const bounceable = a.status === 'active' && !isWallet;
      expect(book[a.address]).toEqual({
        user_friendly: friendly(a.address, bounceable),
        domain: null,
        interfaces: a.interfaces,
      });
    }
    expect(r.body.metadata).toEqual({});
  });

  it('X-No-Address-Book / x_no_address_book and X-No-Metadata give empty sections', async () => {
    const w = wallets[0]!.raw;
    expect(
      (await get(`/api/v3/accountStates?address=${w}`, { 'x-no-address-book': 'true' })).body.address_book,
    ).toEqual({});
    expect((await get(`/api/v3/accountStates?address=${w}&x_no_address_book=1`)).body.address_book).toEqual({});
    const full = await get(`/api/v3/accountStates?address=${w}`, { 'x-no-metadata': 'true' });
    expect(Object.keys(full.body.address_book)).toHaveLength(1);
    expect(full.body.metadata).toEqual({});
  });

  it('an address the index has never seen is simply absent', async () => {
    const fresh = `0:${'AB'.repeat(32)}`;
    const r = await get(`/api/v3/accountStates?address=${fresh}`);
    expect(r.body).toEqual({ accounts: [], address_book: {}, metadata: {} });
    expect((await chainAccount(fresh)).status).toBe('nonexist');
  });

  it('refuses bad input with 422 and a message naming the parameter', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/api/v3/accountStates', /address of account is required/],
      ['/api/v3/accountStates?address=', /address of account is required/],
      ['/api/v3/accountStates?address=nope', /address/],
      [`/api/v3/accountStates?address=0:${'0'.repeat(63)}`, /address/],
      [`/api/v3/accountStates?address=${wallets[0]!.raw}&include_boc=maybe`, /include_boc/],
      [`/api/v3/accountStates?address=${wallets[0]!.raw}&code_hash=xyz`, /code_hash/],
    ];
    for (const [path, message] of cases) {
      const r = await f.get(path);
      expect(r.status, path).toBe(422);
      expect(r.body.error, path).toMatch(message);
      expect(Object.keys(r.body)).toEqual(['error']);
    }
  });
});

describe('GET /api/v3/walletStates', () => {
  it('reads seqno, wallet id and the signature flag as the wallets own getters report them', async () => {
    const r = await get(
      `/api/v3/walletStates?${qs(
        'address',
        wallets.map((w) => w.raw),
      )}`,
    );
    expect(r.status).toBe(200);
    expect(r.body.wallets).toHaveLength(wallets.length);
    for (const w of wallets) {
      const s = r.body.wallets.find((x: JsonBody) => x.address === w.raw.toUpperCase());
      const c = await chainAccount(w.raw);
      expect(s).toMatchObject({
        is_wallet: true,
        wallet_type: V3_TYPE[w.version],
        balance: c.balance.toString(),
        status: 'active',
        code_hash: c.codeHash,
        last_transaction_lt: c.lastTx!.lt,
        last_transaction_hash: c.lastTx!.hash,
      });
      expect(BigInt(s.seqno)).toBe(await getter(w.raw, 'seqno'));
      expect(s.seqno).toBeGreaterThan(0); // the activity signed with every wallet
      const keys = await mnemonicToPrivateKey(w.mnemonic);
      if (w.version === 'v3r2') {
        // No getter for it: the wallet id is the one @ton/ton derives this address with.
        const c3 = WalletContractV3R2.create({ workchain: 0, publicKey: keys.publicKey, walletId: s.wallet_id });
        expect(c3.address.toRawString().toUpperCase()).toBe(w.raw.toUpperCase());
        expect(s).not.toHaveProperty('is_signature_allowed');
      } else {
        expect(BigInt(s.wallet_id)).toBe(BigInt.asUintN(32, await getter(w.raw, 'get_subwallet_id')));
      }
      if (w.version === 'v4r2') {
        const c4 = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey, walletId: s.wallet_id });
        expect(c4.address.toRawString().toUpperCase()).toBe(w.raw.toUpperCase());
        expect(s).not.toHaveProperty('is_signature_allowed');
      }
      if (w.version === 'v5r1') {
        expect(s.is_signature_allowed).toBe((await getter(w.raw, 'is_signature_allowed')) !== 0n);
      }
      expect(s).not.toHaveProperty('extra_currencies'); // omitted when empty, as toncenter's omitempty does
    }
  });

  it('marks other accounts is_wallet false with only the account fields', async () => {
    const others = allAccounts.filter((a) => !wallets.some((w) => w.raw.toUpperCase() === a));
    const r = await get(`/api/v3/walletStates?${qs('address', others)}`);
    expect(r.body.wallets).toHaveLength(others.length);
    for (const s of r.body.wallets) {
      const c = await chainAccount(s.address);
      expect(s.is_wallet).toBe(false);
      for (const k of ['wallet_type', 'seqno', 'wallet_id', 'is_signature_allowed']) expect(s).not.toHaveProperty(k);
      expect(s.balance).toBe(c.balance.toString());
      expect(s.status).toBe(c.status);
      if (c.codeHash) expect(s.code_hash).toBe(c.codeHash);
      else expect(s).not.toHaveProperty('code_hash');
    }
    expect(Object.keys(r.body.address_book).sort()).toEqual([...others].sort());
  });

  it('refuses a missing or bad address with 422', async () => {
    for (const [path, message] of [
      ['/api/v3/walletStates', /address of account is required/],
      ['/api/v3/walletStates?address=EQ123', /address/],
    ] as const) {
      const r = await f.get(path);
      expect(r.status).toBe(422);
      expect(r.body.error).toMatch(message);
    }
  });
});

describe('GET /api/v3/addressBook', () => {
  it('keys each entry by the string as sent; unknown accounts are non-bounceable; non-addresses are addr_none', async () => {
    const v4 = wallets.find((w) => w.version === 'v4r2')!.raw.toUpperCase();
    const active = (
      await get(`/api/v3/accountStates?${qs('address', allAccounts)}&include_boc=false`)
    ).body.accounts.find(
      (a: JsonBody) => a.status === 'active' && !wallets.some((w) => w.raw.toUpperCase() === a.address),
    );
    expect(active).toBeDefined();
    const fresh = `0:${'CD'.repeat(32)}`;
    const sent = [friendly(v4, true), v4.toLowerCase(), active.address, fresh, 'not-an-address'];
    const r = await get(`/api/v3/addressBook?${qs('address', sent)}`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([...sent].sort());
    const v4Entry = { user_friendly: friendly(v4, false), domain: null, interfaces: ['wallet_v4r2'] };
    expect(r.body[friendly(v4, true)]).toEqual(v4Entry);
    expect(r.body[v4.toLowerCase()]).toEqual(v4Entry);
    // The index has no contract_methods rows (built without the contract decoders): the book reads the code's
    // get-methods itself and names the same interfaces /accountStates does.
    expect(r.body[active.address]).toEqual({
      user_friendly: friendly(active.address, true),
      domain: null,
      interfaces: active.interfaces,
    });
    expect(r.body[fresh]).toEqual({ user_friendly: friendly(fresh, false), domain: null, interfaces: [] });
    expect(r.body['not-an-address']).toEqual({ user_friendly: 'addr_none', domain: null, interfaces: [] });
  });

  it('needs at least one address', async () => {
    const r = await f.get('/api/v3/addressBook');
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error: 'at least 1 address required' });
  });
});

describe('GET /api/v3/metadata', () => {
  it('answers {} for an index built without the contract decoders (no token rows)', async () => {
    const r = await get(`/api/v3/metadata?${qs('address', [...allAccounts, 'junk'])}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    const none = await f.get('/api/v3/metadata');
    expect(none.status).toBe(422);
    expect(none.body).toEqual({ error: 'at least 1 address required' });
  });
});

describe('GET /api/v3/topAccountsByBalance', () => {
  it('lists accounts by balance, largest first, with balances the chain confirms', async () => {
    const all = await get('/api/v3/topAccountsByBalance?limit=1000');
    expect(all.status).toBe(200);
    const balances = all.body.map((a: JsonBody) => BigInt(a.balance));
    for (let i = 1; i < balances.length; i++) expect(balances[i - 1] >= balances[i]).toBe(true);
    for (const a of all.body) expect(a.balance).toBe((await chainAccount(a.account)).balance.toString());
    // The genesis wallets (1 000 000 TON each) lead.
    expect(
      all.body
        .slice(0, 3)
        .map((a: JsonBody) => a.account)
        .sort(),
    ).toEqual(wallets.map((w) => w.raw.toUpperCase()).sort());
  });

  it('pages with limit and offset (default 10; limit below 1 refused; sort is ignored)', async () => {
    const all = (await get('/api/v3/topAccountsByBalance?limit=1000')).body;
    expect((await get('/api/v3/topAccountsByBalance')).body).toEqual(all.slice(0, 10));
    expect((await get('/api/v3/topAccountsByBalance?limit=3&offset=2')).body).toEqual(all.slice(2, 5));
    expect(await get('/api/v3/topAccountsByBalance?limit=0')).toMatchObject({
      status: 422,
      body: { error: 'limit is not allowed: 0 < 1' },
    });
    expect((await get('/api/v3/topAccountsByBalance?limit=5&sort=whatever')).body).toEqual(all.slice(0, 5));
    expect((await get(`/api/v3/topAccountsByBalance?offset=${all.length}`)).body).toEqual([]);
  });

  it('refuses limits above 1000 and malformed numbers', async () => {
    for (const [path, message] of [
      ['/api/v3/topAccountsByBalance?limit=1001', /limit is not allowed: 1001 > 1000/],
      ['/api/v3/topAccountsByBalance?limit=ten', /limit/],
      ['/api/v3/topAccountsByBalance?offset=-1', /offset/],
      ['/api/v3/topAccountsByBalance?offset=1e3', /offset/],
    ] as const) {
      const r = await f.get(path);
      expect(r.status, path).toBe(422);
      expect(r.body.error, path).toMatch(message);
    }
  });
});

describe('account endpoints under random parameters', () => {
  it('never answer 5xx', async () => {
    // A seeded generator, so a failure reproduces.
    let s = 0x9e3779b9;
    const rnd = (n: number) => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s % n;
    };
    const pieces = [
      '',
      '0',
      '-1',
      '1001',
      '99999999999999999999999',
      'true',
      'null',
      '0x',
      '%00',
      '%FF',
      'A'.repeat(300),
      `-1:${'F'.repeat(64)}`,
      `0:${'g'.repeat(64)}`,
      '1e9',
      '3.5',
      ',,,',
      wallets[0]!.raw,
      friendly(wallets[1]!.raw, true),
      "'; DROP TABLE blocks; --",
    ];
    const params = ['address', 'include_boc', 'code_hash', 'limit', 'offset', 'sort', 'x_timeout', 'x_no_address_book'];
    const paths = ['accountStates', 'walletStates', 'addressBook', 'metadata', 'topAccountsByBalance'];
    for (let i = 0; i < 150; i++) {
      const n = 1 + rnd(4);
      const query = Array.from({ length: n }, () => `${params[rnd(params.length)]}=${pieces[rnd(pieces.length)]}`);
      const path = `/api/v3/${paths[rnd(paths.length)]}?${query.join('&')}`;
      const r = await f.get(path);
      expect(r.status, path).toBeLessThan(500);
      expect(r.body, path).toBeTypeOf('object');
    }
  });
});

describe('query plans', () => {
  it('every account statement reads latest_account_states through an index, not a scan', async () => {
    // Grow the table with fresh accounts (some 20 000 rows) so that the planner picks what it would pick on a
    // real index; all of it inside a transaction that is rolled back.
    const ROLLBACK = new Error('rollback');
    const plans: Record<string, JsonBody> = {};
    const some = allAccounts.slice(0, 3);
    const codeHash = (await chainAccount(wallets[1]!.raw)).codeHash!;
    await f
      .db!.db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO latest_account_states (account, hash, balance, account_status, timestamp, last_trans_hash,
             last_trans_lt, frozen_hash, data_hash, code_hash, data_boc, code_boc)
           SELECT '0:' || upper(encode(sha256(convert_to(account || ':' || g, 'UTF8')), 'hex')), hash, balance + g,
             account_status, timestamp, last_trans_hash, last_trans_lt, frozen_hash, data_hash, code_hash, data_boc,
             code_boc
           FROM latest_account_states, generate_series(1, 2000) g`,
        );
        await tx.query('ANALYZE latest_account_states');
        const explain = async (name: string, q: { sql: string; params: unknown[] }) => {
          plans[name] = (await tx.query(`EXPLAIN (FORMAT JSON) ${q.sql}`, q.params)).rows[0]!['QUERY PLAN'];
        };
        await explain('accountStates', latestStatesQuery(some, [], true));
        await explain('accountStates code_hash', latestStatesQuery(some, [codeHash], false));
        await explain('addressBook', addressBookQuery(some));
        await explain('topAccountsByBalance', topAccountsQuery({ limit: 10, offset: 0 }));
        await explain('topAccountsByBalance page 100', topAccountsQuery({ limit: 1000, offset: 100 }));
        throw ROLLBACK;
      })
      .catch((e) => {
        if (e !== ROLLBACK) throw e;
      });
    const nodes = (plan: JsonBody): JsonBody[] => {
      const out: JsonBody[] = [];
      const walk = (n: JsonBody) => {
        out.push(n);
        for (const c of n.Plans ?? []) walk(c);
      };
      walk((Array.isArray(plan) ? plan[0] : plan).Plan);
      return out;
    };
    for (const [name, plan] of Object.entries(plans)) {
      const all = nodes(plan);
      const reads = all.filter((n) => n['Relation Name'] === 'latest_account_states');
      expect(reads.length, name).toBeGreaterThan(0);
      for (const n of reads) expect(n['Node Type'], `${name}: ${JSON.stringify(plan)}`).not.toBe('Seq Scan');
      if (name.startsWith('topAccounts')) {
        expect(
          reads.map((n) => n['Index Name']),
          name,
        ).toContain('latest_account_states_index_1');
      }
    }
    expect((await f.db!.db.query('SELECT count(*)::int AS n FROM latest_account_states')).rows[0]!.n).toBe(
      allAccounts.length,
    );
  });
});
