// API v2 block, transaction, utility and config methods (issue 7) against a devnet: every answer is checked
// against the chain through an independent ton-lite-client (`f.lite`) and @ton/core's own decoders, never
// against our codec. One fixture for the file; a v5 wallet adds a burst of transfers so that blocks hold
// enough transactions to page through.
import { createHash, randomBytes } from 'node:crypto';
import {
  Address,
  beginCell,
  type Cell,
  Cell as CoreCell,
  Dictionary,
  external,
  internal,
  loadMessage,
  loadTransaction,
  type Message,
  storeMessage,
  storeStateInit,
  toNano,
} from '@ton/core';
import { signVerify } from '@ton/crypto';
import { TonClient } from '@ton/ton';
import type { tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import TonWebModule from 'tonweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V2_API_VERSION } from '../../src/api/build.ts';
import { loadWallets } from '../../src/devnet/activity/wallets.ts';
import { type ApiFixture, type JsonBody, queryString, startApiFixture } from '../helpers/api-fixture.ts';

// tonweb is CommonJS (module.exports = TonWeb) while its types declare a default export.
const TonWeb = ((TonWebModule as { default?: unknown }).default ?? TonWebModule) as typeof TonWebModule.default;
const MC_SHARD = '-9223372036854775808';
let f: ApiFixture;

interface ChainTx {
  block: tonNode_blockIdExt;
  account: Address;
  lt: bigint;
  hash: Buffer;
  cell: Cell;
}
/** Every block and transaction of the chain, as the independent client sees them. */
const blocks: tonNode_blockIdExt[] = [];
const blockTxs = new Map<string, ChainTx[]>();
const txs: ChainTx[] = [];
let headSeqno = 0;

const blockKey = (b: { workchain: number; shard: string; seqno: number }) =>
  `${b.workchain}:${BigInt.asIntN(64, BigInt(b.shard))}:${b.seqno}`;
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const idJson = (b: tonNode_blockIdExt) => ({
  '@type': 'ton.blockIdExt',
  workchain: b.workchain,
  shard: BigInt.asIntN(64, BigInt(b.shard)).toString(),
  seqno: b.seqno,
  root_hash: b64(b.rootHash),
  file_hash: b64(b.fileHash),
});
const friendly = (a: Address) => a.toString({ urlSafe: true, bounceable: true, testOnly: false });
const upperRaw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

const get = (method: string, params: Record<string, unknown> = {}) => f.get(`/api/v2/${method}${queryString(params)}`);
const post = (method: string, params: Record<string, unknown> = {}) => f.post(`/api/v2/${method}`, params);
const rpc = (method: string, params: Record<string, unknown> = {}, id: unknown = 1) =>
  f.post('/api/v2/jsonRPC', { jsonrpc: '2.0', id, method, params });

/**
 * The method through GET, POST and JSON-RPC: the three must agree (status, ok, result or error), JSON-RPC in its
 * envelope with the id; returns the GET answer. POST and JSON-RPC take numbers where GET takes text.
 */
async function call(method: string, params: Record<string, unknown> = {}): Promise<{ status: number; body: JsonBody }> {
  const g = await get(method, params);
  const p = await post(method, params);
  const r = await rpc(method, params, 42);
  for (const x of [g, p, r]) {
    expect(x.headers.get('x-api-version')).toBe(V2_API_VERSION);
    expect(x.body['@extra']).toMatch(/^\d+:_:\d+(\.\d+)?(:c)?$/);
  }
  expect(p.status).toBe(g.status);
  expect(r.status).toBe(g.status);
  expect(r.body).toMatchObject({ jsonrpc: '2.0', id: '42', ok: g.body.ok });
  if (g.body.ok) {
    expect(p.body.result).toEqual(g.body.result);
    expect(r.body.result).toEqual(g.body.result);
  } else {
    expect(g.body.code).toBe(g.status);
    for (const x of [p, r]) expect(x.body.code).toBe(g.status);
    expect(r.body.error).toBe(p.body.error);
  }
  return g;
}

async function ok(method: string, params: Record<string, unknown> = {}): Promise<JsonBody> {
  const r = await call(method, params);
  expect(r.body.error).toBeUndefined();
  expect(r.status).toBe(200);
  return r.body.result;
}

async function fails(method: string, params: Record<string, unknown>, status: number, message: RegExp | string) {
  const r = await call(method, params);
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ ok: false, code: status });
  if (typeof message === 'string') expect(r.body.error).toBe(message);
  else expect(r.body.error).toMatch(message);
}

async function lookupMc(seqno: number): Promise<tonNode_blockIdExt> {
  return (await f.lite.lookupBlockByID({ workchain: -1, shard: MC_SHARD, seqno })).id;
}

/** Sends `count` transfers to fresh addresses from the genesis v5 wallet in one external message. */
async function burst(count: number): Promise<Address[]> {
  const wallets = await loadWallets(f.info.walletsFile);
  const w = wallets.find((x) => x.version === 'v5r1');
  if (!w) throw new Error('no v5r1 genesis wallet');
  const seqno = Number((await f.lite.provider(w.address).get('seqno', [])).stack.readBigNumber());
  const to = Array.from(
    { length: count },
    (_, i) => new Address(0, createHash('sha256').update(`burst ${i}`).digest()),
  );
  const body = w.createTransfer({
    seqno,
    validUntil: Math.floor(Date.now() / 1000) + 600,
    messages: to.map((dest, i) => internal({ to: dest, value: toNano('0.05'), bounce: false, body: `burst ${i}` })),
  });
  const ext = beginCell()
    .store(storeMessage(external({ to: w.address, body })))
    .endCell();
  await f.lite.sendMessage(ext.toBoc());
  const last = to[to.length - 1] as Address;
  for (let i = 0; i < 300; i++) {
    const head = (await f.lite.getMasterchainInfo()).last;
    const st = await f.lite.getAccountState(last, head);
    if (st.lastTx && st.lastTx.lt > 0n) return to;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the burst did not land');
}

/** Reads the chain through `lite`: every masterchain block, every shard block, every transaction. */
async function scanChain(): Promise<void> {
  headSeqno = (await f.lite.getMasterchainInfo()).last.seqno;
  const seen = new Set<string>();
  const add = async (id: tonNode_blockIdExt) => {
    const key = `${b64(id.rootHash)}`;
    if (seen.has(key)) return;
    seen.add(key);
    blocks.push(id);
    const list: ChainTx[] = [];
    let after: { kind: 'liteServer.transactionId3'; account: Buffer; lt: string } | undefined;
    for (;;) {
      const page = await f.lite.listBlockTransactions(id, { mode: 7 | (after ? 128 : 0), count: 256, after });
      for (const t of page.ids) {
        const account = new Address(id.workchain, t.account as Buffer);
        const info = await f.lite.getAccountTransaction(account, t.lt as string, id);
        const cell = CoreCell.fromBoc(info.transaction)[0] as Cell;
        list.push({ block: id, account, lt: BigInt(t.lt as string), hash: t.hash as Buffer, cell });
      }
      const tail = page.ids[page.ids.length - 1];
      if (!page.incomplete || !tail) break;
      after = { kind: 'liteServer.transactionId3', account: tail.account as Buffer, lt: tail.lt as string };
    }
    blockTxs.set(blockKey(id), list);
    txs.push(...list);
  };
  for (let seqno = 1; seqno <= headSeqno; seqno++) {
    const mc = await lookupMc(seqno);
    await add(mc);
    const shards = await f.lite.getAllShardsInfo(mc);
    for (const [wc, byShard] of Object.entries(shards.shards)) {
      for (const [shard, top] of Object.entries(byShard)) {
        if (top === 0) continue;
        await add((await f.lite.lookupBlockByID({ workchain: Number(wc), shard, seqno: top })).id);
      }
    }
  }
}

beforeAll(async () => {
  f = await startApiFixture({ seed: 'v2-blockchain' });
  await burst(24);
  await scanChain();
}, 600_000);
afterAll(async () => {
  await f?.close();
});

// ---- independent decoding (@ton/core and hand-read TL-B, not our codec) -----------------------------------

/** The message cells of a transaction as stored: ^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ]. */
function messageCells(tx: Cell): { inMsg: Cell | null; outMsgs: Cell[] } {
  const s = (tx.refs[0] as Cell).beginParse();
  const inMsg = s.loadMaybeRef();
  const out = s.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  return { inMsg, outMsgs: [...out.keys()].sort((a, b) => a - b).map((k) => out.get(k) as Cell) };
}

function paddedDataBits(c: Cell): Buffer {
  const out = Buffer.alloc(Math.ceil(c.bits.length / 8));
  for (let i = 0; i < c.bits.length; i++) if (c.bits.at(i)) out[i >> 3] = (out[i >> 3] ?? 0) | (0x80 >> (i % 8));
  return out;
}

function textOf(body: Cell): Buffer | null {
  const s = body.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== 0) return null;
  try {
    return Buffer.from(s.loadStringTail(), 'utf8');
  } catch {
    return null;
  }
}

function checkMessage(json: JsonBody, cell: Cell, form: 'raw' | 'ext') {
  const m: Message = loadMessage(cell.beginParse());
  expect(json['@type']).toBe(form === 'raw' ? 'raw.message' : 'ext.message');
  expect(json.hash).toBe(b64(cell.hash()));
  const addr = (a: Address | null | undefined) => (Address.isAddress(a) ? friendly(a) : '');
  let src = '';
  let dst = '';
  let value = 0n;
  let fwd = 0n;
  let createdLt = 0n;
  if (m.info.type === 'internal') {
    src = addr(m.info.src);
    dst = addr(m.info.dest);
    value = m.info.value.coins;
    fwd = m.info.forwardFee;
    createdLt = m.info.createdLt;
  } else if (m.info.type === 'external-in') {
    dst = addr(m.info.dest);
  } else {
    src = addr(m.info.src);
    createdLt = m.info.createdLt;
  }
  if (form === 'raw') {
    expect(json.source).toEqual({ '@type': 'accountAddress', account_address: src });
    expect(json.destination).toEqual({ '@type': 'accountAddress', account_address: dst });
  } else {
    expect(json.source).toBe(src);
    expect(json.destination).toBe(dst);
  }
  expect(json.value).toBe(value.toString());
  expect(json.fwd_fee).toBe(fwd.toString());
  expect(json.ihr_fee).toBe('0');
  expect(json.created_lt).toBe(createdLt.toString());
  expect(json.extra_currencies).toEqual([]);
  expect(json.body_hash).toBe(b64(m.body.hash()));
  const text = textOf(m.body);
  if (text) {
    expect(json.msg_data).toEqual({ '@type': 'msg.dataText', text: text.toString('base64') });
    if (form === 'ext') expect(json.message).toBe(text.toString('utf8'));
  } else {
    expect(json.msg_data['@type']).toBe('msg.dataRaw');
    expect(CoreCell.fromBoc(Buffer.from(json.msg_data.body, 'base64'))[0]?.hash()).toEqual(m.body.hash());
    if (m.init) {
      const init = beginCell().store(storeStateInit(m.init)).endCell();
      expect(CoreCell.fromBoc(Buffer.from(json.msg_data.init_state, 'base64'))[0]?.hash()).toEqual(init.hash());
    } else {
      expect(json.msg_data.init_state).toBe('');
    }
    const data = paddedDataBits(m.body);
    if (form === 'ext') expect(json.message).toBe(data.length ? `${data.toString('base64')}\n` : '');
  }
  if (form === 'raw') expect(json.message).toBeUndefined();
}

/** Every field of a v2 transaction against the transaction cell decoded by @ton/core. */
function checkTransaction(json: JsonBody, tx: ChainTx, form: 'raw' | 'ext' | 'rawExt') {
  const t = loadTransaction(tx.cell.beginParse());
  const type = { raw: 'raw.transaction', ext: 'ext.transaction', rawExt: 'raw.transactionExt' }[form];
  expect(json['@type']).toBe(type);
  expect(json.address).toEqual({ '@type': 'accountAddress', account_address: friendly(tx.account) });
  if (form === 'raw') expect(json.account).toBeUndefined();
  else expect(json.account).toBe(upperRaw(tx.account));
  expect(json.utime).toBe(t.now);
  expect(CoreCell.fromBoc(Buffer.from(json.data, 'base64'))[0]?.hash()).toEqual(tx.cell.hash());
  expect(json.data.startsWith('te6cck')).toBe(true); // CRC32-C, no index: tonlib's to_bytes
  expect(json.transaction_id).toEqual({ '@type': 'internal.transactionId', lt: t.lt.toString(), hash: b64(tx.hash) });
  expect(tx.cell.hash()).toEqual(tx.hash);
  let fee = t.totalFees.coins;
  for (const m of t.outMessages.values()) if (m.info.type === 'internal') fee += m.info.forwardFee;
  const d = t.description;
  const storage =
    (d.type === 'generic' || d.type === 'tick-tock' || d.type === 'storage'
      ? d.storagePhase?.storageFeesCollected
      : undefined) ?? 0n;
  expect(json.fee).toBe(fee.toString());
  expect(json.storage_fee).toBe(storage.toString());
  expect(json.other_fee).toBe((fee - storage).toString());
  const cells = messageCells(tx.cell);
  const msgForm = form === 'ext' ? 'ext' : 'raw';
  if (cells.inMsg) checkMessage(json.in_msg, cells.inMsg, msgForm);
  else expect('in_msg' in json).toBe(false);
  expect(json.out_msgs).toHaveLength(cells.outMsgs.length);
  cells.outMsgs.forEach((c, i) => {
    checkMessage(json.out_msgs[i], c, msgForm);
  });
}

/** The account's history, newest first, as the independent client walks it. */
async function historyOf(account: Address): Promise<ChainTx[]> {
  const head = (await f.lite.getMasterchainInfo()).last;
  const st = await f.lite.getAccountState(account, head);
  const out: ChainTx[] = [];
  if (!st.lastTx) return out;
  let lt = st.lastTx.lt;
  let hash = Buffer.from(st.lastTx.hash.toString(16).padStart(64, '0'), 'hex');
  while (lt > 0n) {
    const r = await f.lite.getAccountTransactions(account, lt.toString(), hash, 16);
    const cells = CoreCell.fromBoc(r.transactions);
    cells.forEach((cell, i) => {
      const t = loadTransaction(cell.beginParse());
      out.push({ block: r.ids[i] as tonNode_blockIdExt, account, lt: t.lt, hash: cell.hash(), cell });
      lt = t.prevTransactionLt;
      hash = Buffer.from(t.prevTransactionHash.toString(16).padStart(64, '0'), 'hex');
    });
  }
  return out;
}

const busiest = () =>
  [...blockTxs.entries()]
    .map(([k, list]) => ({ k, list, id: blocks.find((b) => blockKey(b) === k) as tonNode_blockIdExt }))
    .sort((a, b) => b.list.length - a.list.length)[0] as { k: string; list: ChainTx[]; id: tonNode_blockIdExt };

// ---- blocks ---------------------------------------------------------------------------------------------------

describe('v2 blocks', () => {
  it('getMasterchainInfo is the chain head with its state hash and the zero state', async () => {
    let body: JsonBody;
    let info = await f.lite.getMasterchainInfo();
    for (let i = 0; ; i++) {
      // The head moves every 100 ms: one form per call, retried until the liteserver agrees.
      body = (await get('getMasterchainInfo')).body.result;
      const after = await f.lite.getMasterchainInfo();
      if (body.last.seqno === after.last.seqno || i > 20) {
        info = after;
        break;
      }
    }
    expect(body).toEqual({
      '@type': 'blocks.masterchainInfo',
      last: idJson(info.last),
      state_root_hash: b64(info.stateRootHash),
      init: {
        '@type': 'ton.blockIdExt',
        workchain: -1,
        shard: '0',
        seqno: 0,
        root_hash: b64(info.init.rootHash),
        file_hash: b64(info.init.fileHash),
      },
    });
    for (const r of [await post('getMasterchainInfo'), await rpc('getMasterchainInfo', {}, 'head')]) {
      expect(r.status).toBe(200);
      expect(r.body.result.init).toEqual(body.init);
      expect(r.body.result.last).toEqual(idJson(await lookupMc(r.body.result.last.seqno)));
    }
  });

  it('caches: a repeated head answer and a fixed-block answer say ":c" in @extra', async () => {
    await new Promise((r) => setTimeout(r, 400)); // earlier head answers have expired
    const a = await get('getMasterchainInfo');
    const b = await get('getMasterchainInfo');
    expect(a.body['@extra']).not.toMatch(/:c$/);
    expect(b.body['@extra']).toMatch(/:c$/);
    expect(b.body.result).toEqual(a.body.result);
    const id = blocks[3] as tonNode_blockIdExt;
    const q = { workchain: id.workchain, shard: id.shard, seqno: id.seqno };
    const first = await get('getBlockHeader', q);
    await new Promise((r) => setTimeout(r, 400)); // longer than the head TTL: fixed blocks stay
    const again = await get('getBlockHeader', q);
    expect(again.body['@extra']).toMatch(/:c$/);
    expect(again.body.result).toEqual(first.body.result);
  });

  it('lookupBlock finds blocks by seqno, lt and unixtime like the liteserver', async () => {
    for (const id of blocks.slice(0, 12)) {
      const r = await ok('lookupBlock', { workchain: id.workchain, shard: id.shard, seqno: id.seqno });
      expect(r).toEqual(idJson(id));
    }
    const shardBlock = blocks.find((b) => b.workchain === 0 && b.seqno > 3) as tonNode_blockIdExt;
    const hdr = readHeader(shardBlock, (await f.lite.getBlockHeader(shardBlock)).headerProof);
    const byLt = await f.lite.lookupBlockByLt({ workchain: 0, shard: shardBlock.shard, lt: hdr.startLt });
    expect(await ok('lookupBlock', { workchain: 0, shard: shardBlock.shard, lt: hdr.startLt.toString() })).toEqual(
      idJson(byLt.id),
    );
    const mc = blocks[5] as tonNode_blockIdExt;
    const mcHdr = readHeader(mc, (await f.lite.getBlockHeader(mc)).headerProof);
    const byTime = await f.lite.lookupBlockByUtime({ workchain: -1, shard: MC_SHARD, utime: mcHdr.genUtime });
    expect(await ok('lookupBlock', { workchain: -1, shard: MC_SHARD, unixtime: mcHdr.genUtime })).toEqual(
      idJson(byTime.id),
    );
  });

  it('lookupBlock rejects bad input with 422 and an unknown block with the liteserver error', async () => {
    const exactlyOne = 'failed to validate request: exactly one of seqno, lt, unixtime should be specified';
    await fails('lookupBlock', { workchain: -1, shard: MC_SHARD }, 422, exactlyOne);
    await fails('lookupBlock', { workchain: -1, shard: MC_SHARD, seqno: 2, lt: 100 }, 422, exactlyOne);
    await fails('lookupBlock', { workchain: -1, shard: MC_SHARD, seqno: 0 }, 422, /seqno should be positive/);
    await fails('lookupBlock', { workchain: -1, shard: MC_SHARD, lt: -5 }, 422, /lt should be non-negative/);
    await fails('lookupBlock', { workchain: -1, shard: 'abc', seqno: 2 }, 422, /shard/);
    await fails('lookupBlock', { workchain: -1, shard: '99999999999999999999', seqno: 2 }, 422, /shard/);
    await fails('lookupBlock', { workchain: 'x', shard: MC_SHARD, seqno: 2 }, 422, /workchain/);
    await fails('lookupBlock', { shard: MC_SHARD, seqno: 2 }, 422, /workchain/);
    await fails(
      'lookupBlock',
      { workchain: -1, shard: MC_SHARD, seqno: headSeqno + 100_000 },
      500,
      /^LITE_SERVER_NOTREADY: .*not found/,
    );
  });

  it('getShards (and its alias shards) lists the shard tops of a masterchain block', async () => {
    for (const seqno of [1, 2, Math.floor(headSeqno / 2), headSeqno]) {
      const mc = await lookupMc(seqno);
      const info = await f.lite.getAllShardsInfo(mc);
      const expected = [];
      for (const [wc, byShard] of Object.entries(info.shards)) {
        for (const [shard, top] of Object.entries(byShard)) {
          const id = top === 0 ? null : (await f.lite.lookupBlockByID({ workchain: Number(wc), shard, seqno: top })).id;
          expected.push({ wc: Number(wc), shard: BigInt.asIntN(64, BigInt(shard)).toString(), seqno: top, id });
        }
      }
      const r = await ok('getShards', { seqno });
      expect(await ok('shards', { seqno })).toEqual(r);
      expect(r['@type']).toBe('blocks.shards');
      expect(r.shards).toHaveLength(expected.length);
      for (const e of expected) {
        const got = r.shards.find((s: JsonBody) => s.workchain === e.wc && s.shard === e.shard);
        expect(got?.seqno).toBe(e.seqno);
        if (e.id) expect(got).toEqual(idJson(e.id));
      }
    }
    await fails('getShards', { seqno: 0 }, 422, 'failed to validate request: seqno should be positive');
    await fails('getShards', {}, 422, /seqno/);
  });

  it('getBlockHeader matches the header the liteserver proves (read with @ton/core)', async () => {
    const sample = [
      ...blocks.filter((b) => b.workchain === -1).slice(0, 3),
      ...blocks.filter((b) => b.workchain === 0).slice(0, 4),
      blocks[blocks.length - 1] as tonNode_blockIdExt,
    ];
    for (const id of sample) {
      const hdr = readHeader(id, (await f.lite.getBlockHeader(id)).headerProof);
      const r = await ok('getBlockHeader', { workchain: id.workchain, shard: id.shard, seqno: id.seqno });
      expect(r).toEqual({
        '@type': 'blocks.header',
        id: idJson(id),
        global_id: hdr.globalId,
        version: hdr.version,
        after_merge: hdr.afterMerge,
        after_split: hdr.afterSplit,
        before_split: hdr.beforeSplit,
        want_merge: hdr.wantMerge,
        want_split: hdr.wantSplit,
        validator_list_hash_short: hdr.validatorListHashShort,
        catchain_seqno: hdr.catchainSeqno,
        min_ref_mc_seqno: hdr.minRefMcSeqno,
        is_key_block: hdr.keyBlock,
        prev_key_block_seqno: id.workchain === -1 ? hdr.prevKeyBlockSeqno : 0,
        start_lt: hdr.startLt.toString(),
        end_lt: hdr.endLt.toString(),
        gen_utime: hdr.genUtime,
        prev_blocks: r.prev_blocks,
      });
      // The parents: the previous block of the same chain (or, after a split, of the parent shard).
      expect(r.prev_blocks).toHaveLength(hdr.prev.length);
      for (const [i, p] of hdr.prev.entries()) {
        expect(r.prev_blocks[i].seqno).toBe(p.seqno);
        if (p.seqno > 0) {
          const prevId = (
            await f.lite.lookupBlockByID({ workchain: id.workchain, shard: r.prev_blocks[i].shard, seqno: p.seqno })
          ).id;
          expect(r.prev_blocks[i]).toEqual(idJson(prevId));
        }
        expect(r.prev_blocks[i].root_hash).toBe(b64(p.rootHash));
        expect(r.prev_blocks[i].file_hash).toBe(b64(p.fileHash));
      }
      // Given both hashes (hex here, base64url there) the block is the same.
      const byHash = await ok('getBlockHeader', {
        workchain: id.workchain,
        shard: id.shard,
        seqno: id.seqno,
        root_hash: id.rootHash.toString('hex'),
        file_hash: id.fileHash.toString('base64url'),
      });
      expect(byHash).toEqual(r);
    }
  });

  it('getBlockHeader rejects bad shards, hashes and seqnos and reports unknown blocks', async () => {
    const id = blocks[2] as tonNode_blockIdExt;
    const base = { workchain: id.workchain, shard: id.shard, seqno: id.seqno };
    await fails('getBlockHeader', { ...base, seqno: -3 }, 422, /seqno should be positive/);
    await fails('getBlockHeader', { ...base, shard: '0x8000000000000000' }, 422, /shard/);
    await fails('getBlockHeader', { ...base, root_hash: 'zz', file_hash: 'zz' }, 422, /invalid hash: 'zz'/);
    await fails(
      'getBlockHeader',
      { ...base, root_hash: randomBytes(32).toString('hex'), file_hash: randomBytes(32).toString('hex') },
      500,
      /^LITE_SERVER_/,
    );
    await fails('getBlockHeader', { ...base, seqno: headSeqno + 50_000 }, 500, /not found/);
  });

  it('getMasterchainBlockSignatures: the validators of config param 34 signed the block', async () => {
    const validators = await validatorKeys();
    for (const seqno of [1, 2, headSeqno]) {
      const id = await lookupMc(seqno);
      const r = await ok('getMasterchainBlockSignatures', { seqno });
      expect(r['@type']).toBe('blocks.blockSignatures');
      expect(r.id).toEqual(idJson(id));
      expect(r.signatures.length).toBeGreaterThan(0);
      // ton.blockId root_cell_hash:int256 file_hash:int256 = ton.BlockId (tl id 0xc50b6e70, little-endian)
      const signed = Buffer.concat([Buffer.from('706e0bc5', 'hex'), id.rootHash, id.fileHash]);
      for (const s of r.signatures) {
        expect(s['@type']).toBe('blocks.signature');
        const key = validators.get(s.node_id_short);
        expect(key).toBeDefined();
        expect(signVerify(signed, Buffer.from(s.signature, 'base64'), key as Buffer)).toBe(true);
      }
    }
    await fails('getMasterchainBlockSignatures', { seqno: 0 }, 422, /seqno should be positive/);
    await fails('getMasterchainBlockSignatures', { seqno: headSeqno + 10_000 }, 500, /not found/);
  });

  it('getShardBlockProof links a shard block to the masterchain block that commits it, and from there to from_seqno', async () => {
    const shardBlock = blocks.filter((b) => b.workchain === 0)[3] as tonNode_blockIdExt;
    const q = { workchain: 0, shard: shardBlock.shard, seqno: shardBlock.seqno };
    const r = await ok('getShardBlockProof', { ...q, from_seqno: headSeqno });
    expect(r['@type']).toBe('blocks.shardBlockProof');
    expect(r.from).toEqual(idJson(await lookupMc(headSeqno)));
    // mc_id commits the shard block: it lists it (or a later block of its chain) among its shards.
    const mcId = await lookupMc(r.mc_id.seqno);
    expect(r.mc_id).toEqual(idJson(mcId));
    // Each link proves the block above it and names the next block down; the last is the shard block.
    let above = Buffer.from(r.mc_id.root_hash, 'base64');
    for (const link of r.links) {
      expect(link['@type']).toBe('blocks.shardBlockLink');
      expect(proofRootHash(link.proof)).toEqual(above);
      above = Buffer.from(link.id.root_hash, 'base64');
    }
    expect(r.links[r.links.length - 1].id).toEqual(idJson(shardBlock));
    // A backward link from `from` down to mc_id unless they are the same block.
    if (r.mc_id.seqno === headSeqno) expect(r.mc_proof).toEqual([]);
    else {
      expect(r.mc_proof).toHaveLength(1);
      const back = r.mc_proof[0];
      expect(back).toMatchObject({ '@type': 'blocks.blockLinkBack', from: r.from, to: r.mc_id });
      expect(proofRootHash(back.proof)).toEqual(Buffer.from(r.from.root_hash, 'base64'));
    }
    const same = await ok('getShardBlockProof', { ...q, from_seqno: r.mc_id.seqno });
    expect(same.mc_proof).toEqual([]);
    expect(same.links).toEqual(r.links);
    await fails('getShardBlockProof', { ...q, from_seqno: r.mc_id.seqno - 1 }, 500, 'from mc block is too old');
    await fails('getShardBlockProof', { ...q, from_seqno: -1 }, 422, /from_seqno should be non-negative/);
    await fails('getShardBlockProof', { ...q, seqno: 0 }, 422, /seqno should be positive/);
  });

  it('getConsensusBlock is the pool head and the time; getOutMsgQueueSize names every shard top', async () => {
    const before = (await f.lite.getMasterchainInfo()).last.seqno;
    const r = (await get('getConsensusBlock')).body.result;
    const after = (await f.lite.getMasterchainInfo()).last.seqno;
    expect(r['@type']).toBe('ext.blocks.consensusBlock');
    // The pool learns the head by a probe every second: it may be a few blocks behind.
    expect(r.consensus_block).toBeGreaterThan(before - 30);
    expect(r.consensus_block).toBeLessThanOrEqual(after);
    expect(Math.abs(r.timestamp - Date.now() / 1000)).toBeLessThan(5);

    // The other forms (values move with the head, so only their shape is compared); a POST may have no body.
    for (const m of ['getConsensusBlock', 'getOutMsgQueueSize', 'getMasterchainInfo']) {
      for (const r of [await post(m), await rpc(m, {}, m), await f.post(`/api/v2/${m}`, undefined)]) {
        expect(r.status).toBe(200);
        expect(r.body.ok).toBe(true);
        expect(r.body.result['@type']).toBe((await get(m)).body.result['@type']);
      }
    }
    const q = (await get('getOutMsgQueueSize')).body.result;
    expect(q['@type']).toBe('blocks.outMsgQueueSizes');
    expect(q.ext_msg_queue_size_limit).toBeGreaterThan(0);
    expect(q.shards.map((s: JsonBody) => s.id.workchain).sort()).toEqual([-1, 0, 0]);
    for (const s of q.shards) {
      expect(s['@type']).toBe('blocks.outMsgQueueSize');
      expect(s.size).toBeGreaterThanOrEqual(0);
      const id = (await f.lite.lookupBlockByID({ workchain: s.id.workchain, shard: s.id.shard, seqno: s.id.seqno })).id;
      expect(s.id).toEqual(idJson(id));
    }
  });
});

// ---- transactions -------------------------------------------------------------------------------------------

describe('v2 transactions', () => {
  it('the burst filled a block with enough transactions to page through', () => {
    expect(busiest().list.length).toBeGreaterThanOrEqual(8);
  });

  it('getBlockTransactions lists every block exactly as the liteserver does', async () => {
    for (const id of blocks) {
      const list = blockTxs.get(blockKey(id)) as ChainTx[];
      const r = await ok('getBlockTransactions', {
        workchain: id.workchain,
        shard: id.shard,
        seqno: id.seqno,
        count: 256,
      });
      expect(r).toEqual({
        '@type': 'blocks.transactions',
        id: idJson(id),
        req_count: 256,
        incomplete: false,
        transactions: list.map((t) => ({
          '@type': 'blocks.shortTxId',
          mode: 135,
          account: `${id.workchain}:${t.account.hash.toString('hex')}`,
          lt: t.lt.toString(),
          hash: b64(t.hash),
        })),
      });
    }
  });

  it('getBlockTransactions paging with after_lt/after_hash walks a block exactly once', async () => {
    const { id, list } = busiest();
    const q = { workchain: id.workchain, shard: id.shard, seqno: id.seqno };
    for (const count of [1, 3, 5]) {
      const seen: string[] = [];
      let after: Record<string, unknown> = {};
      for (let page = 0; page < 100; page++) {
        const r = await ok('getBlockTransactions', { ...q, count, ...after });
        expect(r.req_count).toBe(count);
        expect(r.transactions.length).toBeLessThanOrEqual(count);
        seen.push(...r.transactions.map((t: JsonBody) => t.hash));
        const last = r.transactions[r.transactions.length - 1];
        if (!r.incomplete) break;
        // The cursor is the last item's account (any form) and lt.
        const forms = [
          last.account.split(':')[1],
          b64(Buffer.from(last.account.split(':')[1], 'hex')),
          friendly(Address.parse(last.account)),
          last.account,
        ];
        after = { after_lt: last.lt, after_hash: forms[page % forms.length] };
      }
      expect(seen).toEqual(list.map((t) => b64(t.hash)));
    }
  });

  it('getBlockTransactions(Ext) check count, the cursor pair and the block', async () => {
    const id = busiest().id;
    const q = { workchain: id.workchain, shard: id.shard, seqno: id.seqno };
    for (const m of ['getBlockTransactions', 'getBlockTransactionsExt']) {
      await fails(m, { ...q, count: 0 }, 422, 'failed to validate request: count should be positive');
      await fails(m, { ...q, count: 10_001 }, 422, 'failed to validate request: count should be less or equal 10000');
      await fails(
        m,
        { ...q, after_lt: 5 },
        422,
        'failed to validate request: after_lt and after_hash should be used together',
      );
      await fails(
        m,
        { ...q, after_hash: '0:'.padEnd(66, '0') },
        422,
        /after_lt and after_hash should be used together/,
      );
      await fails(m, { ...q, after_lt: -1, after_hash: '0'.repeat(64) }, 422, /after_lt should be non-negative/);
      await fails(m, { ...q, after_lt: 1, after_hash: 'nope' }, 422, /invalid hash: 'nope'/);
      await fails(m, { ...q, seqno: headSeqno + 10_000 }, 500, /not found/);
    }
  });

  it('getBlockTransactionsExt gives every transaction of a block with every field as the BoC says', async () => {
    const { id, list } = busiest();
    const q = { workchain: id.workchain, shard: id.shard, seqno: id.seqno };
    const r = await ok('getBlockTransactionsExt', { ...q, count: 100 });
    expect(r).toMatchObject({ '@type': 'blocks.transactionsExt', id: idJson(id), req_count: 100, incomplete: false });
    expect(r.transactions).toHaveLength(list.length);
    r.transactions.forEach((t: JsonBody, i: number) => {
      checkTransaction(t, list[i] as ChainTx, 'rawExt');
    });
    // Paging: the cursor is the last transaction's account and lt.
    const seen: string[] = [];
    let after: Record<string, unknown> = {};
    for (let page = 0; page < 100; page++) {
      const p = await ok('getBlockTransactionsExt', { ...q, count: 2, ...after });
      seen.push(...p.transactions.map((t: JsonBody) => t.transaction_id.hash));
      if (!p.incomplete) break;
      const last = p.transactions[p.transactions.length - 1];
      after = { after_lt: last.transaction_id.lt, after_hash: last.account };
    }
    expect(seen).toEqual(list.map((t) => b64(t.hash)));
    // All the other blocks too (fewer transactions each).
    for (const b of blocks.filter((x) => (blockTxs.get(blockKey(x)) as ChainTx[]).length > 0).slice(0, 25)) {
      const bl = blockTxs.get(blockKey(b)) as ChainTx[];
      const rr = await ok('getBlockTransactionsExt', { workchain: b.workchain, shard: b.shard, seqno: b.seqno });
      rr.transactions.forEach((t: JsonBody, i: number) => {
        checkTransaction(t, bl[i] as ChainTx, 'rawExt');
      });
    }
  });

  it('getTransactions returns an account history newest first and pages through it exactly once', async () => {
    const counts = new Map<string, number>();
    for (const t of txs) counts.set(t.account.toRawString(), (counts.get(t.account.toRawString()) ?? 0) + 1);
    const busy = Address.parseRaw([...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] as string);
    const history = await historyOf(busy);
    expect(history.length).toBeGreaterThanOrEqual(5);
    const first = await ok('getTransactions', { address: friendly(busy), limit: 1000 });
    expect(first.map((t: JsonBody) => t.transaction_id.hash)).toEqual(history.map((t) => b64(t.hash)));
    first.forEach((t: JsonBody, i: number) => {
      checkTransaction(t, history[i] as ChainTx, 'ext');
    });
    // Pages of 3 from the last item (the cursor is inclusive: each page repeats it first).
    const seen: string[] = [];
    let page = await ok('getTransactions', { address: busy.toRawString(), limit: 3 });
    seen.push(...page.map((t: JsonBody) => t.transaction_id.hash));
    while (page.length === 3) {
      const last = page[2].transaction_id;
      page = await ok('getTransactions', { address: friendly(busy), limit: 3, lt: last.lt, hash: last.hash });
      expect(page[0].transaction_id).toEqual(last);
      seen.push(...page.slice(1).map((t: JsonBody) => t.transaction_id.hash));
    }
    expect(seen).toEqual(history.map((t) => b64(t.hash)));
    // lt/hash as hex (what @ton/ton sends) and to_lt as an exclusive lower bound.
    const at = history[1] as ChainTx;
    const fromHex = await ok('getTransactions', {
      address: friendly(busy),
      lt: at.lt.toString(),
      hash: at.hash.toString('hex'),
      to_lt: (history[4] as ChainTx).lt.toString(),
      limit: 100,
    });
    expect(fromHex.map((t: JsonBody) => t.transaction_id.hash)).toEqual(history.slice(1, 4).map((t) => b64(t.hash)));
    // archival routes to archive servers (none here: any server answers).
    expect(await ok('getTransactions', { address: friendly(busy), limit: 2, archival: true })).toEqual(
      first.slice(0, 2),
    );
  });

  it('getTransactions: unknown account, limits, cursor rules and bad input', async () => {
    const nobody = new Address(0, randomBytes(32));
    expect(await ok('getTransactions', { address: friendly(nobody) })).toEqual([]);
    const a = (txs[0] as ChainTx).account.toRawString();
    await fails(
      'getTransactions',
      { address: a, limit: 0 },
      422,
      'failed to validate request: limit should be positive',
    );
    await fails('getTransactions', { address: a, limit: 1001 }, 422, /limit should be less or equal 1000/);
    await fails('getTransactions', { address: a, lt: 5 }, 422, /lt and hash should be used together/);
    await fails('getTransactions', { address: a, hash: '0'.repeat(64) }, 422, /lt and hash should be used together/);
    await fails('getTransactions', { address: a, lt: -1, hash: '0'.repeat(64) }, 422, /lt should be non-negative/);
    await fails('getTransactions', { address: a, lt: 5, hash: 'abc' }, 422, /invalid hash: 'abc'/);
    await fails('getTransactions', { address: 'EQnotanaddress' }, 422, /Failed to parse ton_addr: 'EQnotanaddress'/);
    await fails('getTransactions', {}, 422, /address/);
    await fails('getTransactions', { address: a, archival: 'maybe' }, 422, /archival/);
    // lt=0 counts as absent (the head).
    expect(await ok('getTransactions', { address: a, lt: 0, limit: 2 })).toEqual(
      await ok('getTransactions', { address: a, limit: 2 }),
    );
    // A transaction the account does not have: the liteserver's error.
    await fails(
      'getTransactions',
      { address: a, lt: '12345', hash: randomBytes(32).toString('hex') },
      500,
      /^LITE_SERVER_/,
    );
  });

  it('getTransactionsStd: raw.transactions with previous_transaction_id as the next cursor', async () => {
    const fresh = (busiest().list[0] as ChainTx).account;
    const wallet = (txs.find((t) => messageCells(t.cell).outMsgs.length > 5) as ChainTx).account;
    for (const acc of [fresh, wallet]) {
      const hist = await historyOf(acc);
      const r = await ok('getTransactionsStd', { address: friendly(acc), limit: 2 });
      expect(r['@type']).toBe('raw.transactions');
      const seen: string[] = r.transactions.map((t: JsonBody) => t.transaction_id.hash);
      r.transactions.forEach((t: JsonBody, i: number) => {
        checkTransaction(t, hist[i] as ChainTx, 'raw');
      });
      let prev = r.previous_transaction_id;
      while (prev.lt !== '0') {
        const p = await ok('getTransactionsStd', { address: friendly(acc), limit: 2, lt: prev.lt, hash: prev.hash });
        seen.push(...p.transactions.map((t: JsonBody) => t.transaction_id.hash));
        prev = p.previous_transaction_id;
      }
      expect(seen).toEqual(hist.map((t) => b64(t.hash)));
    }
  });

  it('tryLocateResultTx, tryLocateTx and tryLocateSourceTx find both ends of internal messages', async () => {
    const byInMsg = new Map<string, ChainTx>();
    for (const t of txs) {
      const m = messageCells(t.cell).inMsg;
      if (m) byInMsg.set(m.hash().toString('hex'), t);
    }
    let checked = 0;
    for (const src of txs) {
      for (const cell of messageCells(src.cell).outMsgs) {
        const m = loadMessage(cell.beginParse());
        if (m.info.type !== 'internal') continue;
        const dst = byInMsg.get(cell.hash().toString('hex'));
        if (!dst) continue;
        const q = {
          source: friendly(m.info.src),
          destination: m.info.dest.toRawString(),
          created_lt: m.info.createdLt.toString(),
        };
        const result = await ok('tryLocateResultTx', q);
        checkTransaction(result, dst, 'ext');
        expect(await ok('tryLocateTx', q)).toEqual(result);
        checkTransaction(await ok('tryLocateSourceTx', q), src, 'ext');
        if (++checked >= 12) break;
      }
      if (checked >= 12) break;
    }
    expect(checked).toBe(12);
  });

  it('tryLocate*: a message that does not exist is 404, bad input is 422', async () => {
    const src = txs.find((t) => messageCells(t.cell).outMsgs.length > 0) as ChainTx;
    const m = loadMessage((messageCells(src.cell).outMsgs[0] as Cell).beginParse());
    if (m.info.type !== 'internal') throw new Error('expected an internal message');
    const q = {
      source: friendly(m.info.src),
      destination: friendly(m.info.dest),
      created_lt: m.info.createdLt.toString(),
    };
    for (const method of ['tryLocateResultTx', 'tryLocateSourceTx']) {
      await fails(method, { ...q, created_lt: (m.info.createdLt + 7n).toString() }, 404, 'transaction was not found');
      await fails(
        method,
        { ...q, source: friendly(new Address(0, randomBytes(32))) },
        404,
        'transaction was not found',
      );
      await fails(
        method,
        { destination: q.destination, created_lt: q.created_lt },
        422,
        'failed to validate request: empty source address',
      );
      await fails(
        method,
        { source: q.source, created_lt: q.created_lt },
        422,
        'failed to validate request: empty destination address',
      );
      await fails(
        method,
        { ...q, created_lt: -1 },
        422,
        'failed to validate request: created_lt should be non-negative',
      );
      await fails(method, { ...q, created_lt: 'soon' }, 422, /created_lt/);
      await fails(method, { ...q, destination: '0:xyz' }, 422, /Failed to parse ton_addr: '0:xyz'/);
    }
  });
});

// ---- utilities ----------------------------------------------------------------------------------------------

describe('v2 utilities', () => {
  it('detectAddress, packAddress and unpackAddress agree with @ton/core for every form', async () => {
    const addresses = [new Address(0, randomBytes(32)), new Address(-1, randomBytes(32)), (txs[0] as ChainTx).account];
    for (const a of addresses) {
      const forms: Array<{ text: string; given: string; bounceable: boolean; testOnly: boolean }> = [
        { text: a.toRawString(), given: 'raw_form', bounceable: true, testOnly: false },
        {
          text: `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`,
          given: 'raw_form',
          bounceable: true,
          testOnly: false,
        },
      ];
      for (const bounceable of [true, false]) {
        for (const testOnly of [true, false]) {
          for (const urlSafe of [true, false]) {
            forms.push({
              text: a.toString({ bounceable, testOnly, urlSafe }),
              given: bounceable ? 'friendly_bounceable' : 'friendly_non_bounceable',
              bounceable,
              testOnly,
            });
          }
        }
      }
      for (const form of forms) {
        const variant = (bounceable: boolean) => ({
          '@type': 'ext.utils.detectedAddressVariant',
          b64: a.toString({ bounceable, testOnly: form.testOnly, urlSafe: false }),
          b64url: a.toString({ bounceable, testOnly: form.testOnly, urlSafe: true }),
        });
        expect(await ok('detectAddress', { address: form.text })).toEqual({
          '@type': 'ext.utils.detectedAddress',
          raw_form: a.toRawString(),
          bounceable: variant(true),
          non_bounceable: variant(false),
          given_type: form.given,
          test_only: form.testOnly,
        });
        expect(await ok('packAddress', { address: form.text })).toBe(
          a.toString({ bounceable: form.bounceable, testOnly: form.testOnly, urlSafe: true }),
        );
        expect(await ok('unpackAddress', { address: form.text })).toBe(upperRaw(a));
      }
    }
  });

  it('address utilities reject what is not an address', async () => {
    const a = new Address(0, randomBytes(32)).toString();
    const broken = `${a.slice(0, 40)}${a[40] === 'A' ? 'B' : 'A'}${a.slice(41)}`;
    for (const bad of [broken, a.slice(1), '0:1234', '1'.repeat(64), 'x:'.padEnd(66, '0'), '0:'.padEnd(66, 'g')]) {
      for (const m of ['detectAddress', 'packAddress', 'unpackAddress']) {
        await fails(m, { address: bad }, 422, `failed to parse get request: Failed to parse ton_addr: '${bad}'`);
      }
    }
    await fails('detectAddress', {}, 422, /address/);
  });

  it('detectHash gives the three spellings and takes any of them', async () => {
    const h = randomBytes(32);
    const expected = {
      '@type': 'ext.utils.detectedHash',
      b64: h.toString('base64'),
      b64url: h.toString('base64url'),
      hex: h.toString('hex'),
    };
    for (const text of [
      h.toString('hex'),
      h.toString('hex').toUpperCase(),
      h.toString('base64'),
      h.toString('base64url'),
      `${h.toString('base64url')}=`,
    ]) {
      expect(await ok('detectHash', { hash: text })).toEqual(expected);
    }
    await fails('detectHash', { hash: 'abcd' }, 422, /invalid hash: 'abcd'/);
    await fails('detectHash', {}, 422, /hash/);
  });
});

// ---- config -------------------------------------------------------------------------------------------------

describe('v2 config', () => {
  it('getConfigParam gives each parameter cell of the config (head and a past block)', async () => {
    for (const seqno of [undefined, 2]) {
      const block = seqno === undefined ? (await f.lite.getMasterchainInfo()).last : await lookupMc(seqno);
      const config = (await f.lite.getConfig(block)).config;
      for (const id of [0, 1, 8, 12, 15, 20, 34, 44, 71, 1000]) {
        const r = await ok('getConfigParam', seqno === undefined ? { config_id: id } : { config_id: id, seqno });
        expect(r['@type']).toBe('configInfo');
        expect(r.config['@type']).toBe('tvm.cell');
        const cell = config.get(id);
        if (cell) expect(CoreCell.fromBoc(Buffer.from(r.config.bytes, 'base64'))[0]?.hash()).toEqual(cell.hash());
        else expect(r.config.bytes).toBe('');
      }
    }
    expect(await ok('getConfigParam', { param: 34 })).toEqual(await ok('getConfigParam', { config_id: 34 }));
  });

  it('getConfigParam checks its parameters', async () => {
    const both = await post('getConfigParam', { config_id: 1, param: 2 });
    expect(both.status).toBe(422);
    expect(both.body.error).toBe('failed to validate request: only one of config_id or param should be specified');
    await fails(
      'getConfigParam',
      {},
      422,
      'failed to validate request: only one of config_id or param should be specified',
    );
    await fails('getConfigParam', { config_id: -1 }, 422, 'failed to validate request: param should be non-negative');
    await fails('getConfigParam', { config_id: 1, seqno: 0 }, 422, /seqno should be positive/);
    await fails('getConfigParam', { config_id: 'one' }, 422, /config_id/);
  });

  it('getConfigAll is the whole ConfigParams dictionary', async () => {
    for (const seqno of [undefined, 3]) {
      const block = seqno === undefined ? (await f.lite.getMasterchainInfo()).last : await lookupMc(seqno);
      const expected = (await f.lite.getConfig(block)).config;
      const r = await ok('getConfigAll', seqno === undefined ? {} : { seqno });
      const root = CoreCell.fromBoc(Buffer.from(r.config.bytes, 'base64'))[0] as Cell;
      const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root);
      expect([...dict.keys()].sort((a, b) => a - b)).toEqual([...expected.keys()].sort((a, b) => a - b));
      for (const k of expected.keys()) expect(dict.get(k)?.hash()).toEqual(expected.get(k)?.hash());
    }
    await fails('getConfigAll', { seqno: -2 }, 422, /seqno should be positive/);
  });

  it('getLibraries leaves out unknown libraries and checks the list', async () => {
    const unknown = randomBytes(32);
    expect(await ok('getLibraries', { libraries: [unknown.toString('hex'), unknown.toString('base64')] })).toEqual({
      '@type': 'smc.libraryResult',
      result: [],
    });
    expect(await ok('getLibraries')).toEqual({ '@type': 'smc.libraryResult', result: [] });
    const many = Array.from({ length: 17 }, () => randomBytes(32).toString('hex'));
    await fails('getLibraries', { libraries: many }, 422, /too many libraries requested, 16 maximum/);
    await fails('getLibraries', { libraries: ['xyz'] }, 422, /invalid hash: 'xyz'/);
  });
});

// ---- JSON-RPC -----------------------------------------------------------------------------------------------

describe('v2 JSON-RPC envelope', () => {
  it('echoes the id as a string, and errors come in the same envelope', async () => {
    const a = await rpc('detectHash', { hash: '0'.repeat(64) }, 7);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ ok: true, jsonrpc: '2.0', id: '7' });
    const b = await rpc('detectHash', { hash: '0'.repeat(64) }, 'abc');
    expect(b.body.id).toBe('abc');
    const none = await f.post('/api/v2/jsonRPC', { jsonrpc: '2.0', method: 'getConsensusBlock', params: {} });
    expect(none.body.ok).toBe(true);
    expect('id' in none.body).toBe(false);
    const unknown = await rpc('getEverything', {}, 9);
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ ok: false, error: 'Unknown method', code: 422, jsonrpc: '2.0', id: '9' });
    const bad = await rpc('getShards', { seqno: 0 }, 10);
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ ok: false, code: 422, jsonrpc: '2.0', id: '10' });
    expect(bad.body.error).toBe('failed to validate request: seqno should be positive');
    const notFound = await rpc('lookupBlock', { workchain: -1, shard: MC_SHARD, seqno: headSeqno + 99_999 }, 11);
    expect(notFound.status).toBe(500);
    expect(notFound.body).toMatchObject({ ok: false, code: 500, jsonrpc: '2.0', id: '11' });
    const arrayParams = await f.post('/api/v2/jsonRPC', { jsonrpc: '2.0', id: 3, method: 'getShards', params: [1] });
    expect(arrayParams.body).toMatchObject({ ok: false, code: 422, error: 'params must contain an object', id: '3' });
    const badId = await f.post('/api/v2/jsonRPC', { jsonrpc: '2.0', id: { x: 1 }, method: 'getConsensusBlock' });
    expect(badId.status).toBe(422);
    const viaGet = await f.get('/api/v2/jsonRPC');
    expect(viaGet.status).toBe(405);
    expect(viaGet.body).toMatchObject({ ok: false, code: 405 });
  });
});

// ---- real clients ------------------------------------------------------------------------------------------

describe('v2 block and transaction methods through unmodified client libraries (JSON-RPC)', () => {
  it('@ton/ton TonClient reads the head, shards, block transactions, histories and located transactions', async () => {
    const client = new TonClient({ endpoint: `${f.base}/api/v2/jsonRPC` });
    const info = await client.getMasterchainInfo();
    expect(info.workchain).toBe(-1);
    expect(info.latestSeqno).toBeGreaterThanOrEqual(headSeqno);
    const shards = await client.getWorkchainShards(headSeqno);
    const tops = (await f.lite.getAllShardsInfo(await lookupMc(headSeqno))).shards['0'] ?? {};
    expect(shards.map((s) => [s.shard, s.seqno]).sort()).toEqual(
      Object.entries(tops)
        .map(([shard, seqno]) => [BigInt.asIntN(64, BigInt(shard)).toString(), seqno])
        .sort(),
    );
    const { id, list } = busiest();
    const short = await client.getShardTransactions(
      id.workchain,
      id.seqno,
      BigInt.asIntN(64, BigInt(id.shard)).toString(),
    );
    expect(short.map((t) => t.hash)).toEqual(list.map((t) => b64(t.hash)));
    expect(short.map((t) => t.account.toRawString())).toEqual(list.map((t) => t.account.toRawString()));
    const tx = list[0] as ChainTx;
    const history = await client.getTransactions(tx.account, { limit: 5 });
    expect(history[0]?.hash()).toEqual((await historyOf(tx.account))[0]?.hash);
    const one = await client.getTransaction(tx.account, tx.lt.toString(), b64(tx.hash));
    expect(one?.hash()).toEqual(tx.hash);
    const inMsg = loadMessage((messageCells(tx.cell).inMsg as Cell).beginParse());
    if (inMsg.info.type !== 'internal') throw new Error('expected an internal inbound message');
    const located = await client.tryLocateResultTx(inMsg.info.src, inMsg.info.dest, inMsg.info.createdLt.toString());
    expect(located.hash()).toEqual(tx.hash);
    const source = await client.tryLocateSourceTx(inMsg.info.src, inMsg.info.dest, inMsg.info.createdLt.toString());
    expect(
      messageCells(source.raw).outMsgs.some((c) => c.hash().equals((messageCells(tx.cell).inMsg as Cell).hash())),
    ).toBe(true);
  });

  it('tonweb HttpProvider reads the head, shards, block headers and transactions and a config param', async () => {
    const provider = new TonWeb.HttpProvider(`${f.base}/api/v2/jsonRPC`);
    const info = await provider.getMasterchainInfo();
    expect(info.last.seqno).toBeGreaterThanOrEqual(headSeqno);
    const shards = await provider.getBlockShards(headSeqno);
    expect(shards.shards.length).toBe(2);
    const { id, list } = busiest();
    const shard = BigInt.asIntN(64, BigInt(id.shard)).toString();
    const header = await provider.getBlockHeader(id.workchain, shard, id.seqno);
    expect(header.id).toEqual(idJson(id));
    expect(header.prev_blocks.length).toBeGreaterThan(0);
    const page = await provider.getBlockTransactions(id.workchain, shard, id.seqno, 2);
    expect(page.transactions.map((t: JsonBody) => t.hash)).toEqual(list.slice(0, 2).map((t) => b64(t.hash)));
    const last = page.transactions[1];
    const rest = await provider.getBlockTransactions(
      id.workchain,
      shard,
      id.seqno,
      100,
      last.lt,
      last.account.split(':')[1],
    );
    expect(rest.transactions.map((t: JsonBody) => t.hash)).toEqual(list.slice(2).map((t) => b64(t.hash)));
    const tx = list[0] as ChainTx;
    const history = await provider.getTransactions(tx.account.toString(), 3);
    expect(history[0].transaction_id.hash).toBe(b64((await historyOf(tx.account))[0]?.hash as Buffer));
    // getConfigParam is in tonweb's provider but not in its type declarations.
    const p34 = await (
      provider as unknown as { getConfigParam(id: number): Promise<{ hash(): Promise<Uint8Array> }> }
    ).getConfigParam(34);
    const config = (await f.lite.getConfig((await f.lite.getMasterchainInfo()).last)).config;
    expect(Buffer.from(await p34.hash())).toEqual(config.get(34)?.hash());
  });
});

// ---- helpers: hand-read TL-B for the header checks ----------------------------------------------------------

interface Header {
  globalId: number;
  version: number;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  startLt: bigint;
  endLt: bigint;
  genUtime: number;
  validatorListHashShort: number;
  catchainSeqno: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  prev: Array<{ seqno: number; rootHash: Buffer; fileHash: Buffer }>;
}

/** The virtual root hash of a Merkle proof BoC (what it proves). */
function proofRootHash(boc: string): Buffer {
  const proof = CoreCell.fromBoc(Buffer.from(boc, 'base64'))[0] as Cell;
  return proof.beginParse(true).skip(8).loadBuffer(32);
}

/** block_info (block.tlb) read bit by bit from the liteserver's header proof, with @ton/core cells only. */
function readHeader(id: tonNode_blockIdExt, headerProof: Buffer): Header {
  const block = (CoreCell.fromBoc(headerProof)[0] as Cell).refs[0] as Cell;
  expect(block.hash(0)).toEqual(id.rootHash);
  const bs = block.beginParse(true);
  expect(bs.loadUint(32)).toBe(0x11ef55aa);
  const globalId = bs.loadInt(32);
  const info = block.refs[0] as Cell;
  const s = info.beginParse(true);
  expect(s.loadUint(32)).toBe(0x9bc7a987);
  const version = s.loadUint(32);
  const notMaster = s.loadBit();
  const afterMerge = s.loadBit();
  const beforeSplit = s.loadBit();
  const afterSplit = s.loadBit();
  const wantSplit = s.loadBit();
  const wantMerge = s.loadBit();
  const keyBlock = s.loadBit();
  const vertSeqnoIncr = s.loadBit();
  const flags = s.loadUint(8);
  expect(s.loadUint(32)).toBe(id.seqno);
  s.loadUint(32); // vert_seq_no
  s.skip(2 + 6 + 32 + 64); // shard_ident
  const genUtime = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const validatorListHashShort = s.loadInt(32);
  const catchainSeqno = s.loadInt(32);
  const minRefMcSeqno = s.loadInt(32);
  const prevKeyBlockSeqno = s.loadInt(32);
  if (flags & 1) s.skip(8 + 32 + 64);
  if (notMaster) s.loadRef();
  const prevRef = s.loadRef().beginParse(true);
  const ext = (r: ReturnType<Cell['beginParse']>) => {
    r.loadUintBig(64); // end_lt
    return { seqno: r.loadUint(32), rootHash: r.loadBuffer(32), fileHash: r.loadBuffer(32) };
  };
  const prev = afterMerge
    ? [ext(prevRef.loadRef().beginParse(true)), ext(prevRef.loadRef().beginParse(true))]
    : [ext(prevRef)];
  void vertSeqnoIncr;
  return {
    globalId,
    version,
    afterMerge,
    beforeSplit,
    afterSplit,
    wantSplit,
    wantMerge,
    keyBlock,
    startLt,
    endLt,
    genUtime,
    validatorListHashShort,
    catchainSeqno,
    minRefMcSeqno,
    prevKeyBlockSeqno,
    prev,
  };
}

/** node_id_short (base64) -> ed25519 public key of every validator of config param 34 (hand-read TL-B). */
async function validatorKeys(): Promise<Map<string, Buffer>> {
  const config = (await f.lite.getConfig((await f.lite.getMasterchainInfo()).last)).config;
  const p34 = (config.get(34) as Cell).beginParse();
  const tag = p34.loadUint(8); // validators#11 or validators_ext#12
  p34.skip(32 + 32 + 16 + 16);
  if (tag === 0x12) p34.skip(64);
  const list = p34.loadDict(Dictionary.Keys.Uint(16), {
    serialize: () => {
      throw new Error('read only');
    },
    parse: (v) => {
      const t = v.loadUint(8); // validator#53 or validator_addr#73
      expect(v.loadUint(32)).toBe(0x8e81278a); // ed25519_pubkey
      const key = v.loadBuffer(32);
      void t;
      return key;
    },
  });
  const out = new Map<string, Buffer>();
  for (const key of list.values()) {
    // node_id_short = sha256 of TL pub.ed25519 key:int256 (id 0x4813b4c6, little-endian)
    const id = createHash('sha256')
      .update(Buffer.concat([Buffer.from('c6b41348', 'hex'), key]))
      .digest();
    out.set(b64(id), key);
  }
  return out;
}
