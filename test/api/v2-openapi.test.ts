// /api/v2/openapi.json against the server that serves it, on a devnet: every v2 method is called (GET and POST of
// each read method, POST of each POST-only one, the 405 of their GET, every JSON-RPC name and alias), successes and
// errors alike, and every answer (status and body) must be one the document declares for that operation. A
// successful request must also fit the document's parameters, so the document accepts what the server accepts. Every
// route the v2 plugin registers must be in the document and every documented operation must have been called, so a
// new method without documentation (or without a call here) fails. The document itself must be valid OpenAPI 3.1.
// getShardAccountCell is checked against the chain through the fixture's own ton-lite-client.
import { randomBytes } from 'node:crypto';
import { Address, beginCell, Cell, external, internal, loadShardAccount, storeMessage, toNano } from '@ton/core';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V2_API_VERSION } from '../../src/api/build.ts';
import type { V2Lite } from '../../src/api/v2/context.ts';
import type { ApiTvm } from '../../src/api/v2/emulate/executor.ts';
import { v2Plugin } from '../../src/api/v2/plugin.ts';
import { type ActivityWallet, loadWallets } from '../../src/devnet/activity/wallets.ts';
import { jettonWalletAddress } from '../../src/devnet/contracts/index.ts';
import { createAccessControl, policyFor } from '../../src/http/access.ts';
import { createMemoryRateLimiter } from '../../src/http/rate-limit.ts';
import { type ApiFixture, type JsonBody, queryString, startApiFixture } from '../helpers/api-fixture.ts';
import { type OpenApi31, openApi31, openApi31Problems } from '../helpers/openapi-validator.ts';

const PREFIX = '/api/v2';
const MC_SHARD = '-9223372036854775808';

let f: ApiFixture;
let api: OpenApi31;
/** The document as served (text), and servers[0].url. */
let served: string;
let server: string;
let wallets: ActivityWallet[];

/** `get /path` and `post /path` (document paths) called, and the JSON-RPC method names called. */
const called = new Set<string>();
const rpcNames = new Set<string>();

beforeAll(async () => {
  f = await startApiFixture({ seed: 'v2-openapi' });
  const r = await fetch(`${f.base}${PREFIX}/openapi.json`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  served = await r.text();
  api = openApi31(JSON.parse(served));
  server = api.doc.servers[0].url;
  wallets = await loadWallets(f.info.walletsFile);
}, 600_000);
afterAll(async () => {
  await f?.close();
});

// ---- calls, each validated against the document -------------------------------------------------------------

type Params = Record<string, unknown>;
interface Answer {
  status: number;
  body: JsonBody;
  headers: Headers;
}

/** The document's path of a request path (/api/v2/x -> /x). */
function docPath(urlPath: string): string {
  expect(urlPath.startsWith(server)).toBe(true);
  return urlPath.slice(server === '/' ? 0 : server.length);
}

/** The answer must be declared (status) and valid (body); a successful request must fit the operation. */
function checkAnswer(verb: 'get' | 'post', path: string, res: Answer, request: { query?: Params; body?: unknown }) {
  const what = `${verb.toUpperCase()} ${path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
  const op = api.operation(verb, path);
  expect(op, `${verb} ${path} is not in the document`).toBeDefined();
  called.add(`${verb} ${path}`);
  const schema = api.responseSchema(verb, path, res.status);
  expect(schema, `${what}: the document declares no ${res.status} answer`).toBeDefined();
  expect(api.errors(schema!, res.body), what).toEqual([]);
  expect(res.headers.get('x-api-version'), what).toBe(api.doc.info.version);
  if (res.status !== 200) return;
  if (request.query) {
    const declared = new Map<string, JsonBody>((op!.parameters ?? []).map((p: JsonBody) => [p.name, p]));
    for (const p of declared.values()) {
      if (p.required) expect(request.query[p.name], `${what}: required ${p.name} not sent`).toBeDefined();
    }
    for (const [name, value] of Object.entries(request.query)) {
      const p = declared.get(name);
      expect(p, `${what}: parameter ${name} is not documented`).toBeDefined();
      const text = Array.isArray(value) ? value.map(String) : String(value);
      expect(api.queryErrors(p.schema, text), `${what}: ${name}=${String(value)}`).toEqual([]);
    }
  }
  if (request.body !== undefined) {
    const bodySchema = op!.requestBody?.content?.['application/json']?.schema;
    expect(bodySchema, `${what}: no request body documented`).toBeDefined();
    expect(api.errors(bodySchema, request.body), `${what}: request ${JSON.stringify(request.body)}`).toEqual([]);
  }
}

async function get(method: string, params: Params = {}, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await f.get(`${PREFIX}/${method}${queryString(params)}`, headers);
  checkAnswer('get', docPath(`${PREFIX}/${method}`), res, { query: params });
  return res;
}

async function post(method: string, params: Params = {}): Promise<Answer> {
  const res = await f.post(`${PREFIX}/${method}`, params);
  checkAnswer('post', docPath(`${PREFIX}/${method}`), res, { body: params });
  return res;
}

/** A JSON-RPC call: valid against /jsonRPC, and its result valid as the REST answer of the method. */
async function rpc(method: string, params: unknown = {}, id: unknown = 7): Promise<Answer> {
  const body = { jsonrpc: '2.0', id, method, params };
  const res = await f.post(`${PREFIX}/jsonRPC`, body);
  checkAnswer('post', docPath(`${PREFIX}/jsonRPC`), res, { body });
  rpcNames.add(method);
  if (res.status === 200) {
    expect(res.body.id).toBe(String(id));
    const rest = api.responseSchema('post', `/${method}`, 200);
    expect(rest, `no REST operation for ${method}`).toBeDefined();
    const { ok, result } = res.body;
    expect(api.errors(rest!, { ok, result, '@extra': res.body['@extra'] }), `jsonRPC ${method}`).toEqual([]);
  }
  return res;
}

/** Answers about the head, which may move between two calls (a block every 100 ms). */
const MOVING = new Set(['getMasterchainInfo', 'getConsensusBlock', 'getOutMsgQueueSize', 'getShardBlockProof']);

/** A read method through GET and POST (same status, same result); the GET answer's result. */
async function read(method: string, params: Params = {}, status = 200): Promise<JsonBody> {
  const g = await get(method, params);
  const p = await post(method, params);
  expect(g.status, `${method} ${JSON.stringify(g.body)}`).toBe(status);
  expect(p.status, `${method} ${JSON.stringify(p.body)}`).toBe(status);
  if (status === 200 && !MOVING.has(method)) {
    // Without a seqno both read the head, and a block may come between them: the block they name may differ.
    const pinned = params.seqno !== undefined;
    expect(pinned ? p.body.result : headless(p.body.result)).toEqual(pinned ? g.body.result : headless(g.body.result));
  }
  return g.body.result;
}

/** A result without the fields that name the head block it was read at. */
function headless(result: unknown): unknown {
  return JSON.parse(JSON.stringify(result), (k, v) => (k === 'block_id' || k === 'sync_utime' ? undefined : v));
}

function wallet(version: string): ActivityWallet {
  const w = wallets.find((x) => x.version === version);
  if (!w) throw new Error(`no ${version} wallet`);
  return w;
}
const friendly = (a: Address) => a.toString({ urlSafe: true, bounceable: true, testOnly: false });
const unused = () => new Address(0, randomBytes(32));

async function head(): Promise<number> {
  return (await f.lite.getMasterchainInfo()).last.seqno;
}

async function seqnoOf(w: ActivityWallet): Promise<number> {
  const r = await f.get(`${PREFIX}/getWalletInformation?address=${w.address.toRawString()}`);
  return r.body.result.seqno ?? 0;
}

async function waitSeqno(w: ActivityWallet, above: number): Promise<number> {
  for (let i = 0; i < 300; i++) {
    const s = await seqnoOf(w);
    if (s > above) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`seqno of ${w.version} did not pass ${above}`);
}

/** A signed transfer of `w` (its body) and the external message carrying it. */
function transfer(w: ActivityWallet, seqno: number): { body: Cell; message: string } {
  const body = w.createTransfer({
    seqno,
    validUntil: Math.floor(Date.now() / 1000) + 600,
    messages: [internal({ to: unused(), value: toNano('0.01'), bounce: false })],
  });
  const message = beginCell()
    .store(storeMessage(external({ to: w.address, body })))
    .endCell();
  return { body, message: message.toBoc().toString('base64') };
}

// ---- the document ---------------------------------------------------------------------------------------------

describe('v2 OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    expect(api.doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(openApi31Problems(api.doc)).toEqual([]);
    // The checker itself catches what it should: 3.0's nullable, a misspelt keyword, a dangling ref, a repeated
    // operation id.
    const broken = JSON.parse(served);
    broken.components.schemas.Extra.nullable = true;
    broken.components.schemas['ton.blockIdExt'].propertys = {};
    broken.paths['/getMasterchainInfo'].get.responses['200'].content['application/json'].schema = { $ref: '#/x' };
    broken.paths['/getMasterchainInfo'].post.operationId = broken.paths['/getMasterchainInfo'].get.operationId;
    const problems = openApi31Problems(broken).join('\n');
    expect(problems).toMatch(/Extra: nullable is OpenAPI 3\.0/);
    expect(problems).toMatch(/ton\.blockIdExt: strict mode: unknown keyword: "propertys"/);
    expect(problems).toMatch(/unresolved \$ref #\/x/);
    expect(problems).toMatch(/operationId getMasterchainInfo_get repeated/);
  });

  it('is relative to the serving host, asks for the API key, and is served as built once', async () => {
    expect(api.doc.servers).toEqual([{ url: PREFIX }]);
    expect(api.doc.info.version).toBe(V2_API_VERSION);
    expect(api.doc.components.securitySchemes).toEqual({
      APIKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
      APIKeyQuery: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'api_key' }),
    });
    for (const [path, item] of Object.entries<JsonBody>(api.doc.paths)) {
      for (const [verb, op] of Object.entries<JsonBody>(item)) {
        expect(op.security, `${verb} ${path}`).toEqual([{}, { APIKeyHeader: [] }, { APIKeyQuery: [] }]);
      }
    }
    const again = await get('openapi.json');
    expect(again.status).toBe(200);
    expect(JSON.stringify(again.body)).toBe(served);
  });
});

// ---- every method -------------------------------------------------------------------------------------------

describe('v2 answers against the document', () => {
  it('accounts', async () => {
    const v3 = wallet('v3r2').address;
    const v4 = wallet('v4r2').address;
    const v5 = wallet('v5r1').address;
    const none = unused();
    const at = (await head()) - 1;
    const methods = [
      'getAddressInformation',
      'getExtendedAddressInformation',
      'getWalletInformation',
      'getAddressBalance',
      'getAddressState',
      'getShardAccountCell',
    ];
    for (const m of methods) {
      await read(m, { address: friendly(v5) });
      await read(m, { address: v4.toRawString(), seqno: at });
      await read(m, { address: none.toRawString() });
      await read(m, { address: 'not-an-address' }, 422);
      await read(m, { address: friendly(v5), seqno: 0 }, 422);
      expect((await rpc(m, { address: friendly(v5) })).status).toBe(200);
    }
    // tonlib's detection: v3 and v4 recognised, v5 raw.
    expect((await read('getExtendedAddressInformation', { address: friendly(v3) })).account_state['@type']).toBe(
      'wallet.v3.accountState',
    );
    expect((await read('getWalletInformation', { address: friendly(v5) })).is_signature_allowed).toBe(true);

    const ledger = f.ledger!;
    const jetton = ledger.jettons[0]!;
    const owner = Address.parseRaw([...jetton.balances.keys()][0]!);
    const collection = ledger.collections[0]!;
    const item = collection.items[0]!;
    const tokens = [jetton.master, jettonWalletAddress(jetton.master, owner), collection.address, item.address];
    const types = [];
    for (const a of tokens) types.push((await read('getTokenData', { address: friendly(a) }))['@type']);
    expect(types).toEqual([
      'ext.tokens.jettonMasterData',
      'ext.tokens.jettonWalletData',
      'ext.tokens.nftCollectionData',
      'ext.tokens.nftItemData',
    ]);
    await read('getTokenData', { address: friendly(v5) }, 409);
    expect((await read('getWalletInformation', { address: friendly(jetton.master) })).wallet).toBe(false);
    expect((await rpc('getTokenData', { address: friendly(jetton.master) })).status).toBe(200);
  });

  it('blocks', async () => {
    const info = await read('getMasterchainInfo');
    expect((await rpc('getMasterchainInfo')).status).toBe(200);
    const seqno: number = info.last.seqno;
    await read('getMasterchainBlockSignatures', { seqno: seqno - 1 });
    await read('getMasterchainBlockSignatures', { seqno: 0 }, 422);
    expect((await rpc('getMasterchainBlockSignatures', { seqno: 1 })).status).toBe(200);

    const shards = await read('getShards', { seqno });
    expect(await read('shards', { seqno })).toEqual(shards);
    for (const name of ['getShards', 'shards']) expect((await rpc(name, { seqno })).status).toBe(200);
    const shard = shards.shards[0];
    const block = { workchain: shard.workchain, shard: shard.shard, seqno: shard.seqno };

    await read('getShardBlockProof', block);
    await read('getShardBlockProof', { ...block, from_seqno: seqno });
    expect((await rpc('getShardBlockProof', block)).status).toBe(200);

    await read('getConsensusBlock');
    expect((await rpc('getConsensusBlock')).status).toBe(200);

    const header = await read('getBlockHeader', { workchain: -1, shard: MC_SHARD, seqno });
    await read('getBlockHeader', { ...block, root_hash: shard.root_hash, file_hash: shard.file_hash });
    await read('getBlockHeader', { workchain: -1, shard: MC_SHARD, seqno, root_hash: 'xyz' }, 422);
    expect((await rpc('getBlockHeader', block)).status).toBe(200);

    await read('lookupBlock', { workchain: -1, shard: MC_SHARD, seqno });
    await read('lookupBlock', { workchain: -1, shard: MC_SHARD, lt: header.start_lt });
    await read('lookupBlock', { workchain: -1, shard: MC_SHARD, unixtime: header.gen_utime });
    await read('lookupBlock', { workchain: -1, shard: MC_SHARD, seqno, lt: 5 }, 422);
    // A block that does not exist yet: the liteserver's error, as the document says.
    const future = await get('lookupBlock', { workchain: -1, shard: MC_SHARD, seqno: seqno + 1_000_000 });
    expect(future.status).toBeGreaterThanOrEqual(500);
    expect((await rpc('lookupBlock', { workchain: -1, shard: MC_SHARD, seqno })).status).toBe(200);

    await read('getOutMsgQueueSize');
    expect((await rpc('getOutMsgQueueSize')).status).toBe(200);
  });

  it('transactions', async () => {
    const seqno = await head();
    const mc = { workchain: -1, shard: MC_SHARD, seqno };
    for (const m of ['getBlockTransactions', 'getBlockTransactionsExt']) {
      const first = await read(m, { ...mc, count: 1 });
      expect(first.transactions.length).toBeLessThanOrEqual(1);
      const last = first.transactions[0];
      // The next page: after the last item's account and lt.
      if (last)
        await read(m, { ...mc, count: 5, after_lt: last.lt ?? last.transaction_id.lt, after_hash: last.account });
      await read(m, { ...mc, count: 0 }, 422);
      expect((await rpc(m, mc)).status).toBe(200);
    }

    const v5 = friendly(wallet('v5r1').address);
    const history = await read('getTransactions', { address: v5, limit: 3 });
    expect(history.length).toBeGreaterThan(0);
    const tx = history[history.length - 1].transaction_id;
    await read('getTransactions', { address: v5, limit: 2, lt: tx.lt, hash: tx.hash, archival: true });
    await read('getTransactions', { address: unused().toRawString() });
    await read('getTransactions', { address: v5, lt: tx.lt }, 422);
    await read('getTransactionsStd', { address: v5, limit: 2 });
    await read('getTransactionsStd', { address: v5, limit: 2, lt: tx.lt, hash: tx.hash, archival: false });
    for (const m of ['getTransactions', 'getTransactionsStd']) {
      expect((await rpc(m, { address: v5, limit: 2 })).status).toBe(200);
    }

    // A transfer of the activity: the receiver's transaction and the message's created_lt.
    const t = f.ledger!.transfers[0]!;
    const received = await read('getTransactions', { address: friendly(t.to), limit: 50 });
    const hit = received.find((x: JsonBody) => x.in_msg?.source === friendly(t.from));
    expect(hit).toBeDefined();
    const locate = { source: friendly(t.from), destination: friendly(t.to), created_lt: hit.in_msg.created_lt };
    for (const m of ['tryLocateResultTx', 'tryLocateTx', 'tryLocateSourceTx']) {
      const found = await read(m, locate);
      expect(found['@type']).toBe('ext.transaction');
      await read(m, { ...locate, created_lt: 1 }, 404);
      expect((await rpc(m, locate)).status).toBe(200);
    }
  });

  it('send and fees', async () => {
    const w = wallet('v5r1');
    let seqno = await seqnoOf(w);
    const fee = transfer(w, seqno);
    const fees = { address: friendly(w.address), body: fee.body.toBoc().toString('base64'), ignore_chksig: true };
    expect((await post('estimateFee', fees)).status).toBe(200);
    expect((await rpc('estimateFee', fees)).status).toBe(200);
    expect((await post('estimateFee', { ...fees, body: Buffer.from('no boc').toString('base64') })).status).toBe(400);

    const sends: Array<[string, (m: string) => Promise<Answer>]> = [
      ['sendBoc', (boc) => post('sendBoc', { boc })],
      ['sendBocReturnHash', (boc) => post('sendBocReturnHash', { boc })],
      ['sendBoc', (boc) => rpc('sendBoc', { boc })],
      ['sendBocReturnHash', (boc) => rpc('sendBocReturnHash', { boc })],
    ];
    for (const [name, send] of sends) {
      const r = await send(transfer(w, seqno).message);
      expect(r.status, `${name} ${JSON.stringify(r.body)}`).toBe(200);
      seqno = await waitSeqno(w, seqno);
    }
    expect((await post('sendBoc', { boc: '' })).status).toBe(422);
    expect((await post('sendBoc', { boc: 'not base64!' })).status).toBe(422);
    expect((await post('sendBocReturnHash', { boc: Buffer.from('not a boc').toString('base64') })).status).toBe(400);
  });

  it('get-methods', async () => {
    const v5 = friendly(wallet('v5r1').address);
    const master = friendly(f.ledger!.jettons[0]!.master);
    const owner = beginCell().storeAddress(wallet('v4r2').address).endCell().toBoc().toString('base64');
    const legacy = [
      { address: v5, method: 'seqno', stack: [] },
      { address: v5, method: 85143, stack: [], seqno: (await head()) - 1 },
      { address: master, method: 'get_jetton_data', stack: [] },
      { address: master, method: 'get_wallet_address', stack: [['tvm.Slice', owner]] },
      { address: unused().toRawString(), method: 'seqno', stack: [['num', 5]] },
    ];
    for (const p of legacy) expect((await post('runGetMethod', p)).status).toBe(200);
    expect((await post('runGetMethod', { address: v5, method: 'seqno', stack: [['foo', 1]] })).status).toBe(542);
    expect((await post('runGetMethod', { address: v5, method: 'seqno' })).status).toBe(422);
    expect((await rpc('runGetMethod', legacy[0])).status).toBe(200);

    const slice = { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: owner } };
    const std = [
      { address: master, method: 'get_jetton_data', stack: [] },
      { address: master, method: 'get_wallet_address', stack: [slice] },
      { address: v5, method: 'seqno', stack: [], seqno: (await head()) - 1 },
    ];
    for (const p of std) expect((await post('runGetMethodStd', p)).status).toBe(200);
    expect((await post('runGetMethodStd', { address: v5, method: 'seqno', stack: [['num', 1]] })).status).toBe(422);
    expect((await rpc('runGetMethodStd', std[1])).status).toBe(200);
  });

  it('utilities', async () => {
    const a = wallet('v4r2').address;
    for (const m of ['detectAddress', 'packAddress', 'unpackAddress']) {
      await read(m, { address: a.toRawString() });
      await read(m, { address: a.toString({ urlSafe: false, bounceable: false, testOnly: true }) });
      await read(m, { address: '0:12' }, 422);
      expect((await rpc(m, { address: friendly(a) })).status).toBe(200);
    }
    const hash = randomBytes(32);
    await read('detectHash', { hash: hash.toString('hex') });
    await read('detectHash', { hash: hash.toString('base64url') });
    await read('detectHash', { hash: 'abc' }, 422);
    expect((await rpc('detectHash', { hash: hash.toString('base64') })).status).toBe(200);
  });

  it('config and libraries', async () => {
    const seqno = await head();
    await read('getConfigParam', { config_id: 34 });
    await read('getConfigParam', { param: 0, seqno });
    await read('getConfigParam', { config_id: 77 });
    await read('getConfigParam', { config_id: -1 }, 422);
    expect((await post('getConfigParam', { config_id: 1, param: 2 })).status).toBe(422);
    expect((await rpc('getConfigParam', { config_id: 1 })).status).toBe(200);
    await read('getConfigAll');
    await read('getConfigAll', { seqno });
    expect((await rpc('getConfigAll', {})).status).toBe(200);
    await read('getLibraries');
    await read('getLibraries', { libraries: [randomBytes(32).toString('hex'), randomBytes(32).toString('base64')] });
    await read('getLibraries', { libraries: ['nope'] }, 422);
    expect((await rpc('getLibraries', { libraries: [randomBytes(32).toString('hex')] })).status).toBe(200);
  });

  it('HTTP and JSON-RPC errors', async () => {
    // POST-only methods and jsonRPC refuse GET.
    for (const m of ['sendBoc', 'sendBocReturnHash', 'estimateFee', 'runGetMethod', 'runGetMethodStd', 'jsonRPC']) {
      expect((await get(m)).status).toBe(405);
    }
    // A key the server does not know (this deployment has no key store): 401 in the header or the query.
    expect((await get('getMasterchainInfo', {}, { 'X-API-Key': 'no-such-key' })).status).toBe(401);
    const byQuery = await f.get(`${PREFIX}/getMasterchainInfo?api_key=no-such-key`);
    checkAnswer('get', '/getMasterchainInfo', byQuery, {});
    expect(byQuery.status).toBe(401);
    // Bodies the JSON reader refuses.
    const raw = async (path: string, body: string, type: string) => {
      const r = await fetch(`${f.base}${PREFIX}/${path}`, { method: 'POST', headers: { 'content-type': type }, body });
      const text = await r.text();
      const res = { status: r.status, body: JSON.parse(text), headers: r.headers };
      checkAnswer('post', `/${path}`, res, {});
      return res.status;
    };
    expect(await raw('getMasterchainInfo', '', 'application/json')).toBe(400);
    expect(await raw('getMasterchainInfo', '{"a":', 'application/json')).toBe(422);
    expect(await raw('getMasterchainInfo', '[1]', 'application/json')).toBe(422);
    expect(await raw('getMasterchainInfo', '<a/>', 'application/xml')).toBe(415);
    expect(await raw('getMasterchainInfo', JSON.stringify({ pad: 'x'.repeat(3 << 20) }), 'application/json')).toBe(413);
    expect(await raw('jsonRPC', '{"method":', 'application/json')).toBe(422);
    // JSON-RPC envelopes that are refused.
    expect((await rpc('noSuchMethod', {})).status).toBe(422);
    rpcNames.delete('noSuchMethod');
    expect((await rpc('getMasterchainInfo', [1])).status).toBe(422);
    expect((await rpc('getMasterchainInfo', {}, { x: 1 })).status).toBe(422);
    expect((await rpc('getMasterchainInfo', [])).status).toBe(200);
    const noId = await f.post(`${PREFIX}/jsonRPC`, { method: 'getConsensusBlock' });
    checkAnswer('post', '/jsonRPC', noId, { body: { method: 'getConsensusBlock' } });
    expect(noId.body.id).toBeUndefined();
    const notRpc = await f.post(`${PREFIX}/jsonRPC`, [1, 2]);
    checkAnswer('post', '/jsonRPC', notRpc, {});
    expect(notRpc.status).toBe(422);
  });

  it('the document refuses answers the server does not send', async () => {
    const res = await f.get(`${PREFIX}/getAddressInformation?address=${wallet('v5r1').address.toRawString()}`);
    const schema = api.responseSchema('get', '/getAddressInformation', 200)!;
    expect(api.errors(schema, res.body)).toEqual([]);
    const wrong = (change: (b: JsonBody) => void) => {
      const b = structuredClone(res.body);
      change(b);
      return api.errors(schema, b);
    };
    expect(wrong((b) => (b.result.undocumented = 1))).not.toEqual([]);
    expect(wrong((b) => (b.result.balance = Number(b.result.balance)))).not.toEqual([]);
    expect(wrong((b) => delete b.result.block_id.root_hash)).not.toEqual([]);
    expect(wrong((b) => (b.result['@type'] = 'fullAccountState'))).not.toEqual([]);
    expect(wrong((b) => (b.ok = false))).not.toEqual([]);
    expect(api.responseSchema('get', '/getAddressInformation', 418)).toBeUndefined();
  });

  it('getShardAccountCell is the ShardAccount the chain holds', async () => {
    const seqno = (await head()) - 1;
    const mc = (await f.lite.lookupBlockByID({ workchain: -1, shard: MC_SHARD, seqno })).id;
    for (const a of [wallet('v5r1').address, f.ledger!.jettons[0]!.master]) {
      const cell = await read('getShardAccountCell', { address: friendly(a), seqno });
      expect(cell['@type']).toBe('tvm.cell');
      const root = Cell.fromBase64(cell.bytes);
      expect(root.bits.length).toBe(256 + 64);
      const shardAccount = loadShardAccount(root.beginParse());
      const chain = await f.lite.getAccountState(a, mc);
      expect(root.refs[0]!.hash().equals(Cell.fromBoc(chain.raw)[0]!.hash())).toBe(true);
      expect(shardAccount.lastTransactionLt).toBe(chain.lastTx!.lt);
      expect(shardAccount.lastTransactionHash).toBe(chain.lastTx!.hash);
      expect(shardAccount.account!.storage.balance.coins).toBe(chain.balance.coins);
      // The same state getAddressInformation shows at that block.
      const info = await read('getAddressInformation', { address: friendly(a), seqno });
      expect(info.balance).toBe(shardAccount.account!.storage.balance.coins.toString());
      expect(info.last_transaction_id.lt).toBe(shardAccount.lastTransactionLt.toString());
      expect(Buffer.from(info.last_transaction_id.hash, 'base64').toString('hex')).toBe(
        shardAccount.lastTransactionHash.toString(16).padStart(64, '0'),
      );
    }
    // A never-used address: account_none, no transaction.
    const none = await read('getShardAccountCell', { address: unused().toRawString(), seqno });
    const empty = loadShardAccount(Cell.fromBase64(none.bytes).beginParse());
    expect(empty.account).toBeUndefined();
    expect(empty.lastTransactionLt).toBe(0n);
    expect(empty.lastTransactionHash).toBe(0n);
  });
});

// ---- coverage: routes, operations, JSON-RPC names -------------------------------------------------------------

/** Method and URL of every route the v2 plugin registers (HEAD aside), seen by an onRoute hook. */
async function pluginRoutes(): Promise<string[]> {
  const app = Fastify();
  const routes: string[] = [];
  app.addHook('onRoute', (r) => {
    for (const m of Array.isArray(r.method) ? r.method : [r.method]) if (m !== 'HEAD') routes.push(`${m} ${r.url}`);
  });
  const tvm = { close: async () => {} } as unknown as ApiTvm;
  await app.register(
    v2Plugin({
      lite: {} as V2Lite,
      access: createAccessControl({ api: 'v2', policy: policyFor('open', 'v2'), limiter: createMemoryRateLimiter() }),
      testnet: false,
      version: 'routes',
      tvm,
    }),
    { prefix: PREFIX },
  );
  await app.ready();
  await app.close();
  return routes;
}

describe('v2 OpenAPI coverage', () => {
  it('documents every route of the v2 plugin, and the server registers every documented one', async () => {
    const documented = new Set<string>();
    for (const [path, item] of Object.entries<JsonBody>(api.doc.paths)) {
      for (const verb of Object.keys(item)) documented.add(`${verb.toUpperCase()} ${server}${path}`);
    }
    const routes = await pluginRoutes();
    expect(routes.length).toBeGreaterThan(70);
    const missing: string[] = [];
    for (const route of routes) {
      if (documented.has(route)) continue;
      // The explorer's pages and assets (someone else's routes) are not API operations: a GET that answers
      // something other than JSON.
      const [method, url] = route.split(' ') as [string, string];
      if (method === 'GET') {
        const r = await fetch(`${f.base}${url}`);
        if (r.ok && !(r.headers.get('content-type') ?? '').includes('json')) continue;
      }
      missing.push(route);
    }
    expect(missing, 'routes the document does not describe').toEqual([]);
    for (const op of documented) {
      const [method, url] = op.split(' ') as ['GET' | 'POST', string];
      expect(f.server.app.hasRoute({ method, url }), op).toBe(true);
    }
  });

  it('called every documented operation and every JSON-RPC method name', () => {
    const ops: string[] = [];
    for (const [path, item] of Object.entries<JsonBody>(api.doc.paths)) {
      for (const verb of Object.keys(item)) ops.push(`${verb} ${path}`);
    }
    expect(ops.length).toBeGreaterThan(70);
    expect(
      ops.filter((o) => !called.has(o)),
      'operations this test never called',
    ).toEqual([]);
    const names: string[] = api.doc.components.schemas.JsonRpcRequest.properties.method.enum;
    expect(
      names.filter((n) => !rpcNames.has(n)),
      'JSON-RPC names this test never called',
    ).toEqual([]);
    expect([...rpcNames].filter((n) => !names.includes(n))).toEqual([]);
  });
});
