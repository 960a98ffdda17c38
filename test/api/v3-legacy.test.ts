// /api/v3's v2-style methods (v3-api.md §3.11) over a devnet indexed into PGlite, with our liteserver pool behind
// them: /addressInformation (/account) and /walletInformation (/wallet) from the index and with use_v2=true from the
// chain's head, POST /runGetMethod, /estimateFee and /message. Values are checked against the chain through the
// fixture's own liteserver client (at the indexed block for index answers, at the head for pool answers), against
// the activity's ledger and what the test itself built and signed, and against our v2 answers for the same call.
// Every 200 validates against the public v3 OpenAPI document and our own openapi.json; bad input is a 4xx.
import { readFile } from 'node:fs/promises';
import {
  Address,
  beginCell,
  Cell,
  internal,
  parseTuple,
  SendMode,
  serializeTuple,
  storeMessage,
  type TupleItem,
} from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiServer } from '../../src/api/build.ts';
import type { ExternalMessage } from '../../src/api/v2/context.ts';
import { parseWalletsFile } from '../../src/devnet/activity/index.ts';
import { DEVNET_GLOBAL_ID } from '../../src/devnet/genesis/index.ts';
import { createLiteSource, indexMcBlock } from '../../src/index/index.ts';
import { type ApiFixture, type JsonBody, startApiFixture } from '../helpers/api-fixture.ts';
import { landedTransaction, waitFor } from '../helpers/chain-reads.ts';
import { validateAgainstDocument, validateV3 } from '../helpers/openapi-validator.ts';
import { normalizedHash, v4Transfer } from '../helpers/wallet-messages.ts';

const MC_SHARD = '-9223372036854775808';
const ZERO_HASH = `${'A'.repeat(43)}=`;
/** Key order of toncenter's Go structs (models/v2.go), which JSON keeps. */
const ADDRESS_KEYS = [
  'balance',
  'code',
  'data',
  'last_transaction_lt',
  'last_transaction_hash',
  'frozen_hash',
  'status',
];
const V3_TYPE = { v3r2: 'wallet v3 r2', v4r2: 'wallet v4 r2', v5r1: 'wallet v5 r1' } as const;

interface TestWallet {
  version: 'v3r2' | 'v4r2' | 'v5r1';
  address: Address;
  raw: string;
  secretKey: Buffer;
  contract: WalletContractV3R2 | WalletContractV4 | WalletContractV5R1;
}

type HookMode = 'record' | 'throw' | 'reject';
let hookMode: HookMode = 'record';
const hooked: ExternalMessage[] = [];

/** The deployment's send hook: records every message; made to throw, or to return a rejected promise, on demand. */
function hook(m: ExternalMessage): Promise<void> | undefined {
  hooked.push(m);
  if (hookMode === 'throw') throw new Error('hook failed on purpose');
  if (hookMode === 'reject') return Promise.reject(new Error('async hook failed on purpose'));
  return undefined;
}

let f: ApiFixture;
let ownDoc: JsonBody;
let atBlock: Awaited<ReturnType<typeof mcBlock>>;
let allAccounts: string[];
let wallets: TestWallet[];

beforeAll(async () => {
  f = await startApiFixture({
    seed: 'v3-legacy',
    db: 'pglite',
    server: { onExternalMessage: hook },
  });
  ownDoc = (await f.get('/api/v3/openapi.json')).body;
  wallets = [];
  for (const e of parseWalletsFile(await readFile(f.info.walletsFile, 'utf8'))) {
    const keys = await mnemonicToPrivateKey(e.mnemonic);
    const contract =
      e.version === 'v3r2'
        ? WalletContractV3R2.create({ workchain: 0, publicKey: keys.publicKey })
        : e.version === 'v4r2'
          ? WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey })
          : WalletContractV5R1.create({
              publicKey: keys.publicKey,
              walletId: {
                networkGlobalId: DEVNET_GLOBAL_ID,
                context: { walletVersion: 'v5r1', workchain: 0, subwalletNumber: 0 },
              },
            });
    const address = contract.address;
    wallets.push({
      version: e.version,
      address,
      raw: address.toRawString().toUpperCase(),
      secretKey: keys.secretKey,
      contract,
    });
  }
  // Whatever the activity left, the index gets an uninit account (coins sent to an address without code), sent through
  // the test's own liteserver client and indexed like the fixture indexes.
  await fundUninitAccount();
  const indexedThrough = await indexToHead();
  atBlock = await mcBlock(indexedThrough);
  allAccounts = (await f.get('/api/v3/topAccountsByBalance?limit=1000')).body.map((a: JsonBody) => a.account);
}, 600_000);
afterAll(async () => {
  await f?.close();
});

// ---- helpers -------------------------------------------------------------------------------------------------

/** An address that never had code, now holding coins: non-bounceable coins from the v3r2 wallet. */
const UNINIT = new Address(0, Buffer.alloc(32, 0x73));

async function fundUninitAccount(): Promise<void> {
  const w = wallet('v3r2');
  const body = (w.contract as WalletContractV3R2).createTransfer({
    seqno: await seqnoAtHead(w),
    secretKey: w.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: UNINIT, value: 30_000_000n, bounce: false })],
  });
  const message = beginCell()
    .store(storeMessage({ info: { type: 'external-in', dest: w.address, importFee: 0n }, body }))
    .endCell();
  await f.lite.sendMessage(message.toBoc());
  await waitFor('the uninit account to be funded', async () => {
    const c = await chainAccount(UNINIT, await mcBlock());
    return c.status === 'uninit' ? true : undefined;
  });
}

/** Indexes the masterchain blocks after the fixture's up to the head; returns the new last indexed seqno. */
async function indexToHead(): Promise<number> {
  const head = (await f.lite.getMasterchainInfo()).last.seqno;
  const source = createLiteSource(f.pool);
  for (let n = f.indexedThrough + 1; n <= head; n++) await indexMcBlock(n, { source, db: f.db!.db });
  return head;
}

async function mcBlock(seqno?: number) {
  if (seqno === undefined) return (await f.lite.getMasterchainInfo()).last;
  return (await f.lite.lookupBlockByID({ seqno, shard: MC_SHARD, workchain: -1 })).id;
}

const b64 = (b: Buffer) => b.toString('base64');
const cellHashB64 = (boc: string) => b64(Cell.fromBase64(boc).hash());
const hex = (v: bigint) => (v < 0n ? `-0x${(-v).toString(16)}` : `0x${v.toString(16)}`);

function wallet(version: TestWallet['version']): TestWallet {
  const w = wallets.find((x) => x.version === version);
  if (!w) throw new Error(`no ${version} wallet in wallets.json`);
  return w;
}

/** The public document's path for an alias (it documents only the main names). */
const SPEC_PATH: Record<string, string> = {
  '/api/v3/account': '/api/v3/addressInformation',
  '/api/v3/wallet': '/api/v3/walletInformation',
};

function validate(method: 'get' | 'post', route: string, body: JsonBody) {
  expect(validateV3(method, SPEC_PATH[route] ?? route, 200, body), `public spec: ${route}`).toEqual([]);
  expect(validateAgainstDocument(ownDoc, method, route, 200, body), `our openapi.json: ${route}`).toEqual([]);
}

async function get(path: string) {
  const r = await f.get(path);
  if (r.status === 200) validate('get', path.split('?')[0]!, r.body);
  return r;
}

async function post(path: string, body: unknown) {
  const r = await f.post(path, body);
  if (r.status === 200) validate('post', path, r.body);
  return r;
}

/** A 4xx with toncenter's error body. */
function expectError(r: { status: number; body: JsonBody }, status: number, message?: string | RegExp) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(Object.keys(r.body)).toEqual(['error']);
  if (typeof message === 'string') expect(r.body.error).toBe(message);
  else if (message) expect(r.body.error).toMatch(message);
}

interface ChainAccount {
  status: 'nonexist' | 'uninit' | 'active' | 'frozen';
  balance: bigint;
  code: Cell | null;
  data: Cell | null;
  frozenHash: string | null;
  lastTx: { lt: string; hash: string } | null;
}

async function chainAccount(address: Address, block: Awaited<ReturnType<typeof mcBlock>>): Promise<ChainAccount> {
  const r = await f.lite.getAccountState(address, block);
  const lastTx = r.lastTx
    ? { lt: r.lastTx.lt.toString(), hash: b64(Buffer.from(r.lastTx.hash.toString(16).padStart(64, '0'), 'hex')) }
    : null;
  const a = r.state;
  if (!a) return { status: 'nonexist', balance: 0n, code: null, data: null, frozenHash: null, lastTx };
  const st = a.storage.state;
  return {
    status: st.type === 'active' ? 'active' : st.type === 'frozen' ? 'frozen' : 'uninit',
    balance: a.storage.balance.coins,
    code: st.type === 'active' ? (st.state.code ?? null) : null,
    data: st.type === 'active' ? (st.state.data ?? null) : null,
    frozenHash: st.type === 'frozen' ? b64(Buffer.from(st.stateHash.toString(16).padStart(64, '0'), 'hex')) : null,
    lastTx,
  };
}

async function liteRun(
  address: Address,
  method: string,
  stack: TupleItem[],
  block: Awaited<ReturnType<typeof mcBlock>>,
) {
  const r = await f.lite.runMethod(address, method, serializeTuple(stack).toBoc(), block);
  return { exitCode: r.exitCode, stack: r.result ? parseTuple(Cell.fromBase64(r.result)) : [] };
}

async function getterInt(address: Address, method: string, block: Awaited<ReturnType<typeof mcBlock>>) {
  const r = await liteRun(address, method, [], block);
  expect(r.exitCode, `${method} on ${address.toRawString()}`).toBe(0);
  const top = r.stack[0];
  if (top?.type !== 'int') throw new Error(`${method}: expected an int, got ${top?.type}`);
  return top.value;
}

/** The wallet fields as the chain holds them: seqno and subwallet id by get-method (v3r2 has no id getter: its data). */
async function chainWallet(w: TestWallet, block: Awaited<ReturnType<typeof mcBlock>>) {
  const seqno = Number(await getterInt(w.address, 'seqno', block));
  let walletId: number;
  if (w.version === 'v3r2') {
    const data = (await chainAccount(w.address, block)).data!.beginParse();
    data.skip(32); // seqno:uint32, then subwallet_id:uint32 (wallet v3 layout)
    walletId = data.loadUint(32);
  } else {
    walletId = Number(await getterInt(w.address, 'get_subwallet_id', block));
  }
  return { seqno, walletId };
}

async function seqnoAtHead(w: TestWallet): Promise<number> {
  return Number(await getterInt(w.address, 'seqno', await mcBlock()));
}

/** Accounts of the index grouped by their status on chain at the indexed block. */
async function accountsByStatus(): Promise<Map<ChainAccount['status'], string[]>> {
  const out = new Map<ChainAccount['status'], string[]>();
  for (const raw of allAccounts) {
    const c = await chainAccount(Address.parseRaw(raw), atBlock);
    out.set(c.status, [...(out.get(c.status) ?? []), raw]);
  }
  return out;
}

// ---- /addressInformation -------------------------------------------------------------------------------------

describe('GET /api/v3/addressInformation (/account)', () => {
  it('answers every indexed account as the chain holds it at the indexed block', async () => {
    expect(allAccounts.length).toBeGreaterThanOrEqual(8);
    const statuses = new Set<string>();
    for (const raw of allAccounts) {
      const c = await chainAccount(Address.parseRaw(raw), atBlock);
      statuses.add(c.status);
      const r = await get(`/api/v3/addressInformation?address=${raw}`);
      expect(r.status, raw).toBe(200);
      expect(Object.keys(r.body)).toEqual(ADDRESS_KEYS);
      expect(r.body.balance, raw).toBe(c.balance.toString());
      expect(r.body.status, raw).toBe(c.status);
      expect(r.body.frozen_hash).toBe(c.frozenHash);
      if (c.lastTx) {
        expect(r.body.last_transaction_lt).toBe(c.lastTx.lt);
        expect(r.body.last_transaction_hash).toBe(c.lastTx.hash);
      }
      if (c.code) expect(cellHashB64(r.body.code), raw).toBe(b64(c.code.hash()));
      else expect(r.body.code).toBeNull();
      if (c.data) expect(cellHashB64(r.body.data), raw).toBe(b64(c.data.hash()));
      else expect(r.body.data).toBeNull();
      // The alias answers the same.
      expect((await get(`/api/v3/account?address=${raw}`)).body).toEqual(r.body);
    }
    expect([...statuses].sort()).toEqual(['active', 'nonexist', 'uninit']);
  });

  it('accepts every address form; an account the index never saw is an empty uninit account', async () => {
    const w = wallet('v4r2');
    const forms = [
      w.raw,
      w.raw.toLowerCase(),
      w.address.toString({ bounceable: true, urlSafe: true }),
      w.address.toString({ bounceable: false, urlSafe: false }),
    ];
    const answers = await Promise.all(
      forms.map((a) => get(`/api/v3/addressInformation?address=${encodeURIComponent(a)}`)),
    );
    for (const r of answers) expect(r.body).toEqual(answers[0]!.body);
    const nobody = new Address(0, Buffer.alloc(32, 0x5a)).toString();
    const r = await get(`/api/v3/addressInformation?address=${encodeURIComponent(nobody)}`);
    expect(r.status).toBe(200);
    // v3-api.md §3.11: balance "0", status "uninit", hash AAAA…A=, lt "0".
    expect(r.body).toEqual({
      balance: '0',
      code: null,
      data: null,
      last_transaction_lt: '0',
      last_transaction_hash: ZERO_HASH,
      frozen_hash: null,
      status: 'uninit',
    });
    expect(Object.keys(r.body)).toEqual(ADDRESS_KEYS);
  });

  it('use_v2=true reads the head through the pool: the chain there, in v2 words, and what our v2 answers', async () => {
    const byStatus = await accountsByStatus();
    const sample = [
      ...wallets.map((w) => w.raw),
      ...(byStatus.get('uninit') ?? []),
      ...(byStatus.get('nonexist') ?? []),
    ];
    sample.push(new Address(0, Buffer.alloc(32, 0x5b)).toRawString());
    for (const raw of sample) {
      const r = await get(`/api/v3/addressInformation?address=${raw}&use_v2=true`);
      expect(r.status, raw).toBe(200);
      expect(Object.keys(r.body)).toEqual(ADDRESS_KEYS);
      const c = await chainAccount(Address.parseRaw(raw), await mcBlock());
      expect(r.body.balance, raw).toBe(c.balance.toString());
      // tonlib's words: an account without code (never deployed or not existing) is "uninitialized".
      expect(r.body.status, raw).toBe(
        c.status === 'active' ? 'active' : c.status === 'frozen' ? 'frozen' : 'uninitialized',
      );
      expect(r.body.last_transaction_lt).toBe(c.lastTx?.lt ?? '0');
      expect(r.body.last_transaction_hash).toBe(c.lastTx?.hash ?? ZERO_HASH);
      expect(r.body.code === null ? null : cellHashB64(r.body.code)).toBe(c.code ? b64(c.code.hash()) : null);
      expect(r.body.data === null ? null : cellHashB64(r.body.data)).toBe(c.data ? b64(c.data.hash()) : null);
      expect(r.body.frozen_hash).toBe(c.frozenHash);
      // The same account through our v2, as toncenter's proxy reads it ("" becomes null).
      const v2 = (await f.get(`/api/v2/getAddressInformation?address=${raw}`)).body.result;
      expect(r.body).toEqual({
        balance: v2.balance,
        code: v2.code || null,
        data: v2.data || null,
        last_transaction_lt: v2.last_transaction_id.lt,
        last_transaction_hash: v2.last_transaction_id.hash,
        frozen_hash: v2.frozen_hash || null,
        status: v2.state,
      });
    }
    // use_v2=false is the index (default).
    const w = wallet('v3r2');
    expect((await get(`/api/v3/addressInformation?address=${w.raw}&use_v2=false`)).body).toEqual(
      (await get(`/api/v3/addressInformation?address=${w.raw}`)).body,
    );
  });

  it('refuses bad input with a 4xx naming the problem', async () => {
    for (const path of [
      '/api/v3/addressInformation',
      '/api/v3/account',
      '/api/v3/walletInformation',
      '/api/v3/wallet',
    ]) {
      // toncenter answers a missing address with 401 (v3-api.md §2.10).
      expectError(await f.get(path), 401, 'address of account is required');
      expectError(await f.get(`${path}?address=`), 401, 'address of account is required');
      expectError(await f.get(`${path}?address=not-an-address`), 422, /address/);
      expectError(await f.get(`${path}?address=${wallets[0]!.raw}&use_v2=maybe`), 422, /use_v2/);
      // Only workchains -1 and 0 hold accounts: another one is bad input, not a liteserver failure.
      expectError(await f.get(`${path}?address=1:${'0'.repeat(64)}&use_v2=true`), 422, /workchain 1/);
    }
  });
});

// ---- /walletInformation --------------------------------------------------------------------------------------

describe('GET /api/v3/walletInformation (/wallet)', () => {
  it('answers each genesis wallet with its type, seqno and wallet id as the chain holds them', async () => {
    for (const w of wallets) {
      const c = await chainAccount(w.address, atBlock);
      const { seqno, walletId } = await chainWallet(w, atBlock);
      const r = await get(`/api/v3/walletInformation?address=${encodeURIComponent(w.address.toString())}`);
      expect(r.status, w.version).toBe(200);
      expect(r.body).toEqual({
        balance: c.balance.toString(),
        wallet_type: V3_TYPE[w.version],
        seqno,
        wallet_id: walletId,
        last_transaction_lt: c.lastTx!.lt,
        last_transaction_hash: c.lastTx!.hash,
        status: 'active',
      });
      // toncenter's key order (models.V2WalletInformation).
      expect(Object.keys(r.body)).toEqual([
        'balance',
        'wallet_type',
        'seqno',
        'wallet_id',
        'last_transaction_lt',
        'last_transaction_hash',
        'status',
      ]);
      expect((await get(`/api/v3/wallet?address=${w.raw}`)).body).toEqual(r.body);
    }
  });

  it('use_v2=true answers the head state, agreeing with the chain and with our v2 getWalletInformation', async () => {
    const head = await mcBlock();
    for (const w of wallets) {
      const { seqno, walletId } = await chainWallet(w, head);
      const c = await chainAccount(w.address, head);
      const r = await get(`/api/v3/walletInformation?address=${w.raw}&use_v2=1`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        balance: c.balance.toString(),
        wallet_type: V3_TYPE[w.version],
        seqno,
        wallet_id: walletId,
        last_transaction_lt: c.lastTx!.lt,
        last_transaction_hash: c.lastTx!.hash,
        status: 'active',
      });
      const v2 = (await f.get(`/api/v2/getWalletInformation?address=${w.raw}`)).body.result;
      expect(v2).toMatchObject({ wallet: true, wallet_type: r.body.wallet_type, seqno, wallet_id: walletId });
    }
  });

  it('is 409 "not a wallet" for contracts and missing accounts; uninit and unknown accounts answer without wallet fields', async () => {
    const byStatus = await accountsByStatus();
    const walletRaws = new Set(wallets.map((w) => w.raw));
    const contracts = (byStatus.get('active') ?? []).filter((a) => !walletRaws.has(a));
    const jetton = f.ledger!.jettons[0]!.master.toRawString().toUpperCase();
    expect(contracts).toContain(jetton);
    for (const raw of contracts) {
      expectError(await f.get(`/api/v3/walletInformation?address=${raw}`), 409, 'not a wallet');
      expectError(await f.get(`/api/v3/walletInformation?address=${raw}&use_v2=true`), 409, 'not a wallet');
    }
    // An uninit account may still become a wallet: toncenter answers it, without the wallet fields.
    const uninit = byStatus.get('uninit') ?? [];
    expect(uninit.length).toBeGreaterThan(0);
    for (const raw of uninit) {
      const c = await chainAccount(Address.parseRaw(raw), atBlock);
      const r = await get(`/api/v3/walletInformation?address=${raw}`);
      expect(r.body).toEqual({
        balance: c.balance.toString(),
        last_transaction_lt: c.lastTx!.lt,
        last_transaction_hash: c.lastTx!.hash,
        status: 'uninit',
      });
      const v2 = await get(`/api/v3/walletInformation?address=${raw}&use_v2=true`);
      expect(v2.body).toMatchObject({ balance: c.balance.toString(), status: 'uninitialized' });
      expect(v2.body).not.toHaveProperty('wallet_type');
    }
    // A deleted (nonexist) account in the index is neither a wallet nor uninit: 409, as toncenter's converter says.
    for (const raw of byStatus.get('nonexist') ?? []) {
      expectError(await f.get(`/api/v3/walletInformation?address=${raw}`), 409, 'not a wallet');
    }
    const nobody = new Address(0, Buffer.alloc(32, 0x5c)).toRawString();
    expect((await get(`/api/v3/walletInformation?address=${nobody}`)).body).toEqual({
      balance: '0',
      last_transaction_lt: '0',
      last_transaction_hash: ZERO_HASH,
      status: 'uninit',
    });
  });
});

// ---- /runGetMethod -------------------------------------------------------------------------------------------

describe('POST /api/v3/runGetMethod', () => {
  it('runs a wallet getter as the chain does, with the gas our v2 reports', async () => {
    const w = wallet('v4r2');
    const r = await post('/api/v3/runGetMethod', { address: w.address.toString(), method: 'seqno', stack: [] });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['gas_used', 'exit_code', 'stack']);
    const seqno = await getterInt(w.address, 'seqno', await mcBlock());
    expect(r.body.exit_code).toBe(0);
    expect(r.body.stack).toEqual([{ type: 'num', value: hex(seqno) }]);
    const v2 = (await f.post('/api/v2/runGetMethod', { address: w.raw, method: 'seqno', stack: [] })).body.result;
    expect(r.body.gas_used).toBe(v2.gas_used);
    expect(r.body.gas_used).toBeGreaterThan(0);
    // No stack at all is an empty one.
    expect((await post('/api/v3/runGetMethod', { address: w.raw, method: 'seqno' })).body).toEqual(r.body);
  });

  it('translates results: numbers as hex, top-level slices as cells, cells as BoCs', async () => {
    const master = f.ledger!.jettons[0]!.master;
    const r = await post('/api/v3/runGetMethod', {
      address: master.toRawString(),
      method: 'get_jetton_data',
      stack: [],
    });
    expect(r.status).toBe(200);
    const chain = await liteRun(master, 'get_jetton_data', [], await mcBlock());
    expect(r.body.exit_code).toBe(chain.exitCode);
    expect(r.body.stack.map((e: JsonBody) => e.type)).toEqual(
      chain.stack.map((e) => (e.type === 'int' ? 'num' : e.type === 'slice' ? 'cell' : e.type)),
    );
    chain.stack.forEach((e, i) => {
      const got = r.body.stack[i];
      if (e.type === 'int') expect(got.value).toBe(hex(e.value));
      else if (e.type === 'cell' || e.type === 'slice') expect(cellHashB64(got.value)).toBe(b64(e.cell.hash()));
      else throw new Error(`unexpected ${e.type}`);
    });
    expect(BigInt(r.body.stack[0].value)).toBe(f.ledger!.jettons[0]!.totalSupply);
  });

  it('takes num (hex, decimal, integer), slice and cell arguments', async () => {
    const collection = f.ledger!.collections[0]!;
    const item = collection.items.find((i) => i.index === 1n) ?? collection.items[0]!;
    for (const value of [hex(item.index), item.index.toString(), Number(item.index)]) {
      const r = await post('/api/v3/runGetMethod', {
        address: collection.address.toString(),
        method: 'get_nft_address_by_index',
        stack: [{ type: 'num', value }],
      });
      expect(r.status, String(value)).toBe(200);
      expect(r.body.exit_code).toBe(0);
      const got = Cell.fromBase64(r.body.stack[0].value).beginParse().loadAddress();
      expect(got.equals(item.address), String(value)).toBe(true);
    }
    // A slice argument: the jetton wallet of an owner, against the chain's answer to the same call.
    const jetton = f.ledger!.jettons[0]!;
    const owner = beginCell().storeAddress(jetton.admin).endCell();
    const r = await post('/api/v3/runGetMethod', {
      address: jetton.master.toString(),
      method: 'get_wallet_address',
      stack: [{ type: 'slice', value: b64(owner.toBoc()) }],
    });
    expect(r.status).toBe(200);
    const chain = await liteRun(jetton.master, 'get_wallet_address', [{ type: 'slice', cell: owner }], await mcBlock());
    const expected = (chain.stack[0] as { cell: Cell }).cell.beginParse().loadAddress();
    expect(Cell.fromBase64(r.body.stack[0].value).beginParse().loadAddress().equals(expected)).toBe(true);
    // A cell argument: an item's full content from the collection, against the chain.
    const individual = beginCell().storeStringTail('1.json').endCell();
    const content = await post('/api/v3/runGetMethod', {
      address: collection.address.toRawString(),
      method: 'get_nft_content',
      stack: [
        { type: 'num', value: '0x1' },
        { type: 'cell', value: b64(individual.toBoc()) },
      ],
    });
    const chainContent = await liteRun(
      collection.address,
      'get_nft_content',
      [
        { type: 'int', value: 1n },
        { type: 'cell', cell: individual },
      ],
      await mcBlock(),
    );
    expect(content.body.exit_code).toBe(chainContent.exitCode);
    expect(cellHashB64(content.body.stack[0].value)).toBe(b64((chainContent.stack[0] as { cell: Cell }).cell.hash()));
  });

  it('answers failing get-methods with their exit code, not an error', async () => {
    const w = wallet('v3r2');
    const r = await post('/api/v3/runGetMethod', { address: w.raw, method: 'no_such_method', stack: [] });
    expect(r.status).toBe(200);
    const chain = await liteRun(w.address, 'no_such_method', [], await mcBlock());
    expect(r.body.exit_code).toBe(chain.exitCode);
    expect(r.body.exit_code).not.toBe(0);
    // An account without code: tonlib's -13, as our v2 answers it.
    const nobody = new Address(0, Buffer.alloc(32, 0x5d)).toRawString();
    const none = await post('/api/v3/runGetMethod', { address: nobody, method: 'seqno', stack: [] });
    expect(none.body.exit_code).toBe(-13);
    const v2 = (await f.post('/api/v2/runGetMethod', { address: nobody, method: 'seqno', stack: [] })).body.result;
    expect(none.body.exit_code).toBe(v2.exit_code);
  });

  it('refuses bad input with a 4xx', async () => {
    const address = wallets[0]!.raw;
    expectError(await f.post('/api/v3/runGetMethod', { method: 'seqno', stack: [] }), 401, 'address is required');
    expectError(await f.post('/api/v3/runGetMethod', { address, stack: [] }), 401, 'method is required');
    expectError(await f.post('/api/v3/runGetMethod', { address, method: '' }), 401, 'method is required');
    expectError(await f.post('/api/v3/runGetMethod', { address: 'zz', method: 'seqno' }), 422, /ton_addr/);
    expectError(await f.post('/api/v3/runGetMethod', { address: 7, method: 'seqno' }), 422, /address/);
    expectError(
      await f.post('/api/v3/runGetMethod', { address: `-2:${'0'.repeat(64)}`, method: 'seqno' }),
      422,
      /workchain -2/,
    );
    expectError(
      await f.post('/api/v3/runGetMethod', { address, method: 'seqno', stack: [{ type: 'builder', value: 'x' }] }),
      422,
      /unsupported stack parameter type/,
    );
    expectError(
      await f.post('/api/v3/runGetMethod', { address, method: 'seqno', stack: [{ type: 'num', value: 'zz' }] }),
      422,
    );
    expectError(await f.post('/api/v3/runGetMethod', { address, method: 'seqno', stack: 'x' }), 422, /stack/);
    expectError(await f.post('/api/v3/runGetMethod', [address]), 422, /JSON object/);
    expectError(await f.post('/api/v3/runGetMethod', { address, method: { a: 1 } }), 422, /method/);
  });
});

// ---- /estimateFee and /message (these change the chain: last) ----------------------------------------------------

describe('POST /api/v3/estimateFee and /api/v3/message', () => {
  it('estimates a signed transfer as the chain then charges it when sent through /message', async () => {
    const w = wallet('v4r2');
    const to = new Address(0, Buffer.alloc(32, 0x72));
    const seqno = await seqnoAtHead(w);
    const { body, message } = v4Transfer(w, seqno, to, 50_000_000n, 'v3 fee check');
    const est = await post('/api/v3/estimateFee', { address: w.address.toString(), body: b64(body.toBoc()) });
    expect(est.status).toBe(200);
    expect(Object.keys(est.body)).toEqual(['source_fees', 'destination_fees']);
    expect(Object.keys(est.body.source_fees)).toEqual(['in_fwd_fee', 'storage_fee', 'gas_fee', 'fwd_fee']);
    expect(est.body.destination_fees).toEqual([]);
    // Our v2 with the ignore_chksig toncenter forwards (false) gives the same numbers, without the @type tags.
    const v2 = (await f.post('/api/v2/estimateFee', { address: w.raw, body: b64(body.toBoc()), ignore_chksig: false }))
      .body.result;
    const { '@type': _t, ...v2fees } = v2.source_fees;
    expect(est.body.source_fees).toEqual(v2fees);

    hooked.length = 0;
    const sent = await post('/api/v3/message', { boc: b64(message.toBoc()) });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      message_hash: b64(message.hash()),
      message_hash_norm: b64(normalizedHash(w.address, body)),
    });
    // The hook saw exactly this message.
    expect(hooked).toHaveLength(1);
    expect(hooked[0]!.boc.equals(message.toBoc())).toBe(true);
    expect(b64(hooked[0]!.hash)).toBe(sent.body.message_hash);
    expect(b64(hooked[0]!.hashNorm)).toBe(sent.body.message_hash_norm);

    const tx = await landedTransaction(f.lite, w.address, message.hash());
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm' || !d.actionPhase) throw new Error('unexpected tx');
    const fees = est.body.source_fees;
    expect(fees.gas_fee).toBe(Number(d.computePhase.gasFees));
    expect(fees.fwd_fee).toBe(Number(d.actionPhase.totalFwdFees ?? 0n));
    const importFee =
      tx.totalFees.coins -
      (d.storagePhase?.storageFeesCollected ?? 0n) -
      d.computePhase.gasFees -
      (d.actionPhase.totalActionFees ?? 0n);
    expect(fees.in_fwd_fee).toBe(Number(importFee));
    expect(BigInt(fees.storage_fee)).toBeLessThanOrEqual(d.storagePhase?.storageFeesCollected ?? 0n);
  });

  it('checks signatures unless ignore_chksig is true (toncenter forwards false by default)', async () => {
    const w = wallet('v4r2');
    const bad = (w.contract as WalletContractV4).createTransfer({
      seqno: await seqnoAtHead(w),
      secretKey: (await mnemonicToPrivateKey(Array(24).fill('abandon'))).secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: w.address, value: 1n, bounce: false })],
    });
    const b = b64(bad.toBoc());
    const byDefault = await post('/api/v3/estimateFee', { address: w.raw, body: b });
    const checked = await post('/api/v3/estimateFee', { address: w.raw, body: b, ignore_chksig: false });
    const ignored = await post('/api/v3/estimateFee', { address: w.raw, body: b, ignore_chksig: true });
    expect(byDefault.body).toEqual(checked.body);
    expect(checked.body.source_fees.gas_fee).toBe(0);
    expect(ignored.body.source_fees.gas_fee).toBeGreaterThan(0);
  });

  it('refuses bad estimateFee input with a 4xx', async () => {
    const w = wallets[0]!;
    expectError(await f.post('/api/v3/estimateFee', { address: w.raw, body: 'AAAA' }), 400, /INVALID_BAG_OF_CELLS/);
    expectError(await f.post('/api/v3/estimateFee', { address: w.raw }), 400, /INVALID_BAG_OF_CELLS/);
    expectError(await f.post('/api/v3/estimateFee', { body: b64(beginCell().endCell().toBoc()) }), 422, /ton_addr/);
    expectError(await f.post('/api/v3/estimateFee', { address: w.raw, body: 'not base64!' }), 422, /base64/);
    expectError(await f.post('/api/v3/estimateFee', { address: w.raw, body: 5 }), 422, /body must be a string/);
    expectError(
      await f.post('/api/v3/estimateFee', {
        address: `127:${'0'.repeat(64)}`,
        body: b64(beginCell().endCell().toBoc()),
      }),
      422,
      /workchain 127/,
    );
    expectError(
      await f.post('/api/v3/estimateFee', {
        address: w.raw,
        body: b64(beginCell().endCell().toBoc()),
        ignore_chksig: 'yes',
      }),
      422,
      /ignore_chksig/,
    );
  });

  it('fires the hook for v2 sendBoc and sendBocReturnHash too, and a failing hook never fails the send', async () => {
    const w = wallet('v4r2');
    const to = wallet('v3r2').address;
    const seqno = await seqnoAtHead(w);

    hooked.length = 0;
    hookMode = 'throw';
    const first = v4Transfer(w, seqno, to, 10_000_000n, 'hook throws');
    const r1 = await post('/api/v3/message', { boc: b64(first.message.toBoc()) });
    expect(r1.status).toBe(200);
    expect(r1.body.message_hash).toBe(b64(first.message.hash()));
    await landedTransaction(f.lite, w.address, first.message.hash());

    hookMode = 'reject';
    const second = v4Transfer(w, seqno + 1, to, 10_000_000n, 'hook rejects');
    const r2 = await f.post('/api/v2/sendBocReturnHash', { boc: b64(second.message.toBoc()) });
    expect(r2.status).toBe(200);
    expect(r2.body.result.hash).toBe(b64(second.message.hash()));
    await landedTransaction(f.lite, w.address, second.message.hash());

    hookMode = 'record';
    const third = v4Transfer(w, seqno + 2, to, 10_000_000n, 'hook records');
    expect((await f.post('/api/v2/sendBoc', { boc: b64(third.message.toBoc()) })).status).toBe(200);
    await landedTransaction(f.lite, w.address, third.message.hash());

    expect(hooked.map((m) => b64(m.hash))).toEqual([first, second, third].map((t) => b64(t.message.hash())));
    expect(hooked.map((m) => b64(m.hashNorm))).toEqual(
      [first, second, third].map((t) => b64(normalizedHash(w.address, t.body))),
    );
  });

  it('refuses bad /message input with a 4xx and never calls the hook for it', async () => {
    hooked.length = 0;
    expectError(await f.post('/api/v3/message', {}), 401, 'boc is required');
    expectError(await f.post('/api/v3/message', { boc: '' }), 401, 'boc is required');
    expectError(await f.post('/api/v3/message', { boc: 'not base64!' }), 422, /base64/);
    expectError(await f.post('/api/v3/message', { boc: 12 }), 422, /boc must be a string/);
    expectError(await f.post('/api/v3/message', { boc: 'AAAA' }), 400, /INVALID_BAG_OF_CELLS/);
    // A well-formed BoC that is an internal message, not an external one.
    const internalMsg = beginCell()
      .store(
        storeMessage({
          info: {
            type: 'internal',
            ihrDisabled: true,
            bounce: false,
            bounced: false,
            src: wallets[0]!.address,
            dest: wallets[1]!.address,
            value: { coins: 1n },
            ihrFee: 0n,
            forwardFee: 0n,
            createdLt: 0n,
            createdAt: 0,
          },
          body: beginCell().endCell(),
        }),
      )
      .endCell();
    expectError(await f.post('/api/v3/message', { boc: b64(internalMsg.toBoc()) }), 400, /ext_in/);
    expectError(await f.post('/api/v3/message', 'just text'), 422, /JSON object/);
    expect(hooked).toEqual([]);
  });
});

// ---- documents and deployments without a pool ---------------------------------------------------------------------

describe('documentation and deployments without a liteserver pool', () => {
  it('our openapi.json documents the seven paths, with request bodies for the POSTs', () => {
    const paths = ownDoc.paths as Record<string, Record<string, JsonBody>>;
    for (const p of ['addressInformation', 'account', 'walletInformation', 'wallet']) {
      expect(Object.keys(paths[`/api/v3/${p}`] ?? {}), p).toEqual(['get']);
    }
    for (const [p, schema] of [
      ['message', 'V2SendMessageRequest'],
      ['runGetMethod', 'V2RunGetMethodRequest'],
      ['estimateFee', 'V2EstimateFeeRequest'],
    ] as const) {
      const op = paths[`/api/v3/${p}`]?.post;
      expect(op?.requestBody?.content?.['application/json']?.schema, p).toEqual({
        $ref: `#/components/schemas/${schema}`,
      });
    }
  });

  it('serves the index answers alone, refuses use_v2 with 501 and does not serve the POSTs', async () => {
    const server = await buildApiServer({ db: f.db!.db });
    try {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = server.app.server.address();
      const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
      const w = wallet('v5r1');
      const db = await fetch(`${base}/api/v3/addressInformation?address=${w.raw}`);
      expect(db.status).toBe(200);
      expect(await db.json()).toEqual((await f.get(`/api/v3/addressInformation?address=${w.raw}`)).body);
      const v2 = await fetch(`${base}/api/v3/walletInformation?address=${w.raw}&use_v2=true`);
      expect(v2.status).toBe(501);
      expect(Object.keys((await v2.json()) as object)).toEqual(['error']);
      for (const p of ['message', 'runGetMethod', 'estimateFee']) {
        const r = await fetch(`${base}/api/v3/${p}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(r.status, p).toBe(404);
      }
      const doc = (await (await fetch(`${base}/api/v3/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(doc.paths['/api/v3/addressInformation']).toBeDefined();
      expect(doc.paths['/api/v3/message']).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
