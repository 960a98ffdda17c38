import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  loadMessage,
  loadTransaction,
  type Message,
  storeStateInit,
  type Transaction,
} from '@ton/core';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, buildApiServer } from '../../src/api/build.ts';
import { migrate } from '../../src/db/index.ts';
import { createLiteSource } from '../../src/index/index.ts';
import { type ApiFixture, type JsonBody, startApiFixture } from '../helpers/api-fixture.ts';
import { setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { indexInOrder } from '../helpers/index-checksums.ts';
import { validateV3 } from '../helpers/openapi-validator.ts';
import { normalizedHashOf } from '../helpers/wallet-messages.ts';

// --- chain model, read through lite ------------------------------------------------------------------

interface BlockRef {
  workchain: number;
  /** unsigned 64-bit */
  shard: bigint;
  seqno: number;
}

interface ChainBlock extends BlockRef {
  rootHash: string;
  fileHash: string;
  /** The masterchain block that committed it (itself for a masterchain block). */
  mcSeqno: number;
  globalId: number;
  info: BlockInfo;
  randSeed: string;
  createdBy: string;
  prev: BlockRef[];
  txIds: Array<{ account: string; lt: bigint; hash: string }>;
}

interface BlockInfo {
  version: number;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  vertSeqnoIncr: boolean;
  flags: number;
  seqno: number;
  vertSeqno: number;
  shardPfxBits: number;
  workchain: number;
  shardPrefix: bigint;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  validatorListHashShort: number;
  catchainSeqno: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  masterRefSeqno: number;
  prevSeqnos: number[];
}

interface ChainMsg {
  hash: string;
  msg: Message;
  cell: Cell;
  source: string | null;
  destination: string | null;
  importFee: bigint | null;
  opcode: string | null;
  bodyHash: string;
  bodyCell: Cell;
  initHash: string | null;
  normHash: string | null;
  /** Transaction that received it / sent it. */
  inTx?: ChainTx;
  outTx?: ChainTx;
}

interface ChainTx {
  account: string;
  hash: string;
  lt: bigint;
  now: number;
  block: ChainBlock;
  tx: Transaction;
  inMsg: ChainMsg | null;
  outMsgs: ChainMsg[];
}

const MC = -(1n << 63n);
const b64 = (b: Buffer) => b.toString('base64');
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const shardHex = (s: bigint) => BigInt.asUintN(64, s).toString(16).toUpperCase();
const tlId = (b: { workchain: number; shard: bigint; seqno: number; rootHash: string; fileHash: string }) => ({
  kind: 'tonNode.blockIdExt' as const,
  workchain: b.workchain,
  shard: BigInt.asIntN(64, b.shard).toString(),
  seqno: b.seqno,
  rootHash: Buffer.from(b.rootHash, 'base64'),
  fileHash: Buffer.from(b.fileHash, 'base64'),
});

/** BlockInfo (block.tlb block_info#9bc7a987), read field by field. */
function readBlockInfo(c: Cell): BlockInfo {
  const s = c.beginParse(true);
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
  const seqno = s.loadUint(32);
  const vertSeqno = s.loadUint(32);
  expect(s.loadUint(2)).toBe(0); // shard_ident$00
  const shardPfxBits = s.loadUint(6);
  const workchain = s.loadInt(32);
  const shardPrefix = s.loadUintBig(64);
  const info = {
    version,
    afterMerge,
    beforeSplit,
    afterSplit,
    wantSplit,
    wantMerge,
    keyBlock,
    vertSeqnoIncr,
    flags,
    seqno,
    vertSeqno,
    shardPfxBits,
    workchain,
    shardPrefix,
    genUtime: s.loadUint(32),
    startLt: s.loadUintBig(64),
    endLt: s.loadUintBig(64),
    validatorListHashShort: s.loadInt(32),
    catchainSeqno: s.loadUint(32),
    minRefMcSeqno: s.loadUint(32),
    prevKeyBlockSeqno: s.loadUint(32),
    masterRefSeqno: 0,
    prevSeqnos: [] as number[],
  };
  let ref = 0;
  // ExtBlkRef: end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256
  const extSeqno = (cell: Cell) => {
    const r = cell.beginParse();
    r.skip(64);
    return r.loadUint(32);
  };
  if (notMaster) info.masterRefSeqno = extSeqno(c.refs[ref++] as Cell);
  const prev = c.refs[ref++] as Cell;
  info.prevSeqnos = afterMerge ? [extSeqno(prev.refs[0] as Cell), extSeqno(prev.refs[1] as Cell)] : [extSeqno(prev)];
  return info;
}

/** The shard ids the previous block(s) of a block had (split: the parent; merge: both children). */
function prevShards(shard: bigint, info: BlockInfo): bigint[] {
  const low = shard & -shard;
  if (info.afterMerge) return [shard - (low >> 1n), shard + (low >> 1n)];
  if (info.afterSplit) return [(shard - low) | (low << 1n)];
  return [shard];
}

/** MsgAddressExt / MsgAddressInt aware read of a message's sides and import_fee (ext_in_msg_info$10). */
function importFee(cell: Cell): bigint | null {
  const s = cell.beginParse();
  if (s.loadUint(2) !== 2) return null;
  s.loadAddressAny();
  s.loadAddress();
  return s.loadCoins();
}

function chainMessage(cell: Cell): ChainMsg {
  const msg = loadMessage(cell.beginParse());
  const info = msg.info;
  const body = msg.body;
  const bs = body.beginParse();
  const init = msg.init ? beginCell().store(storeStateInit(msg.init)).endCell() : null;
  return {
    hash: b64(cell.hash()),
    msg,
    cell,
    source: info.type === 'external-in' ? null : raw(info.src),
    destination: info.type === 'external-out' ? null : raw(info.dest),
    importFee: importFee(cell),
    opcode: bs.remainingBits >= 32 ? `0x${bs.preloadUint(32).toString(16).padStart(8, '0')}` : null,
    bodyHash: b64(body.hash()),
    bodyCell: body,
    initHash: init ? b64(init.hash()) : null,
    normHash: normalizedHashOf(msg),
  };
}

interface Chain {
  blocks: ChainBlock[];
  txs: ChainTx[];
  msgs: Map<string, ChainMsg>;
  /** Shard tips listed by each masterchain block (getAllShardsInfo). */
  tips: Map<number, BlockRef[]>;
  lastMc: ChainBlock;
}

async function readChain(f: ApiFixture, through: number): Promise<Chain> {
  const lite = f.lite;
  const blocks: ChainBlock[] = [];
  const seen = new Set<string>();
  const key = (b: BlockRef) => `${b.workchain}:${b.shard}:${b.seqno}`;
  const tips = new Map<number, BlockRef[]>();

  const fetchBlock = async (ref: BlockRef, mcSeqno: number): Promise<ChainBlock> => {
    const h = await lite.lookupBlockByID({
      workchain: ref.workchain,
      shard: BigInt.asIntN(64, ref.shard).toString(),
      seqno: ref.seqno,
    });
    const idBase = { ...ref, rootHash: b64(h.id.rootHash), fileHash: b64(h.id.fileHash) };
    const data = await lite.engine.query(Functions.liteServer_getBlock, {
      kind: 'liteServer.getBlock',
      id: tlId(idBase),
    });
    const root = Cell.fromBoc(data.data)[0] as Cell;
    expect(b64(root.hash())).toBe(idBase.rootHash);
    const rs = root.beginParse();
    expect(rs.loadUint(32)).toBe(0x11ef55aa);
    const globalId = rs.loadInt(32);
    const info = readBlockInfo(root.refs[0] as Cell);
    const extra = (root.refs[3] as Cell).beginParse();
    expect(extra.loadUint(32)).toBe(0x4a33f6fd);
    const randSeed = b64(extra.loadBuffer(32));
    const createdBy = b64(extra.loadBuffer(32));
    const shards = prevShards(ref.shard, info);
    const prev = info.prevSeqnos.map((seqno, i) => ({
      workchain: ref.workchain,
      shard: shards[i] ?? ref.shard,
      seqno,
    }));
    const txIds: ChainBlock['txIds'] = [];
    const list = await lite.listBlockTransactions(tlId(idBase) as never, { mode: 7, count: 1000 });
    expect(list.incomplete).toBe(false);
    for (const t of list.ids) {
      txIds.push({
        account: `${ref.workchain}:${(t.account as Buffer).toString('hex').toUpperCase()}`,
        lt: BigInt(t.lt as string),
        hash: b64(t.hash as Buffer),
      });
    }
    return { ...idBase, mcSeqno, globalId, info, randSeed, createdBy, prev, txIds };
  };

  for (let n = 1; n <= through; n++) {
    const mc = await fetchBlock({ workchain: -1, shard: BigInt.asUintN(64, MC), seqno: n }, n);
    blocks.push(mc);
    seen.add(key(mc));
    const all = await lite.getAllShardsInfo({
      workchain: -1,
      shard: MC.toString(),
      seqno: n,
      rootHash: Buffer.from(mc.rootHash, 'base64'),
      fileHash: Buffer.from(mc.fileHash, 'base64'),
    });
    const list: BlockRef[] = [];
    for (const [wc, shards] of Object.entries(all.shards)) {
      for (const [shard, seqno] of Object.entries(shards)) {
        list.push({ workchain: Number(wc), shard: BigInt.asUintN(64, BigInt(shard)), seqno: Number(seqno) });
      }
    }
    tips.set(n, list);
    // Blocks newly committed by mc block n: walk back from each tip until a block already committed.
    const stack = [...list];
    while (stack.length > 0) {
      const ref = stack.pop() as BlockRef;
      if (ref.seqno === 0 || seen.has(key(ref))) continue;
      const b = await fetchBlock(ref, n);
      blocks.push(b);
      seen.add(key(b));
      stack.push(...b.prev);
    }
  }

  const txs: ChainTx[] = [];
  const msgs = new Map<string, ChainMsg>();
  for (const b of blocks) {
    for (const id of b.txIds) {
      const [wc, hex] = id.account.split(':') as [string, string];
      const info = await lite.getAccountTransaction(
        new Address(Number(wc), Buffer.from(hex, 'hex')),
        id.lt.toString(),
        tlId(b) as never,
      );
      const cell = Cell.fromBoc(info.transaction)[0] as Cell;
      const tx = loadTransaction(cell.beginParse());
      expect(b64(cell.hash())).toBe(id.hash);
      const ms = (cell.refs[0] as Cell).beginParse();
      const inCell = ms.loadMaybeRef();
      const outs = ms.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
      const t: ChainTx = {
        account: id.account,
        hash: id.hash,
        lt: id.lt,
        now: tx.now,
        block: b,
        tx,
        inMsg: null,
        outMsgs: [],
      };
      if (inCell) {
        const m = msgs.get(b64(inCell.hash())) ?? chainMessage(inCell);
        m.inTx = t;
        msgs.set(m.hash, m);
        t.inMsg = m;
      }
      for (const k of outs.keys().sort((x, y) => x - y)) {
        const oc = outs.get(k) as Cell;
        const m = msgs.get(b64(oc.hash())) ?? chainMessage(oc);
        m.outTx = t;
        msgs.set(m.hash, m);
        t.outMsgs.push(m);
      }
      txs.push(t);
    }
  }
  return { blocks, txs, msgs, tips, lastMc: blocks.filter((b) => b.workchain === -1).at(-1) as ChainBlock };
}

// --- the fixture and request helpers -----------------------------------------------------------------

let f: ApiFixture;
let chain: Chain;

beforeAll(async () => {
  f = await startApiFixture({ seed: 'v3-blockchain', db: 'postgres' });
  chain = await readChain(f, f.indexedThrough);
}, 600_000);
afterAll(async () => {
  await f?.close();
});

/** GET /api/v3<path>, expecting 200 and a body valid against the OpenAPI document. */
async function ok(path: string, schemaPath?: string): Promise<JsonBody> {
  const r = await f.get(`/api/v3${path}`);
  expect(r.status, `${path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  const p = schemaPath ?? `/api/v3${path.split('?')[0]}`;
  expect(validateV3('get', p, 200, r.body), path).toEqual([]);
  return r.body;
}

/** GET expecting an error status with toncenter's {"error": "..."} body. */
async function fails(path: string, status: number, message: RegExp | string): Promise<void> {
  const r = await f.get(`/api/v3${path}`);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(status);
  expect(Object.keys(r.body)).toEqual(['error']);
  if (typeof message === 'string') expect(r.body.error).toBe(message);
  else expect(r.body.error).toMatch(message);
}

const urlsafe = (h: string) => h.replace(/\+/g, '-').replace(/\//g, '_');
const hex = (h: string) => Buffer.from(h, 'base64').toString('hex');
const blockKey = (b: { workchain: number; shard: string | bigint; seqno: number }) =>
  `${b.workchain}:${typeof b.shard === 'bigint' ? shardHex(b.shard) : b.shard}:${b.seqno}`;
const sortedKeys = (xs: Iterable<string>) => [...xs].sort();
const txKey = (t: { hash: string; lt: bigint | string }) => `${t.hash}@${t.lt}`;

// --- blocks ------------------------------------------------------------------------------------------

describe('blocks', () => {
  const mcBlocks = () => chain.blocks.filter((b) => b.workchain === -1);

  it('masterchainInfo: the first and last indexed masterchain blocks, as the chain has them', async () => {
    const body = await ok('/masterchainInfo');
    expect(Object.keys(body).sort()).toEqual(['first', 'last']);
    expect(body.first.seqno).toBe(1);
    expect(body.last.seqno).toBe(f.indexedThrough);
    expect(body.last.root_hash).toBe(chain.lastMc.rootHash);
    expect(body.last.file_hash).toBe(chain.lastMc.fileHash);
    expect(body.first.root_hash).toBe(mcBlocks()[0]?.rootHash);
  });

  it('/blocks lists every indexed block, each field equal to the chain block', async () => {
    const body = await ok('/blocks?limit=1000');
    expect(body.blocks.length).toBe(chain.blocks.length);
    const byKey = new Map(chain.blocks.map((b) => [blockKey(b), b]));
    for (const got of body.blocks) {
      const b = byKey.get(blockKey(got));
      expect(b, blockKey(got)).toBeDefined();
      if (!b) continue;
      const i = b.info;
      expect(got).toEqual({
        workchain: b.workchain,
        shard: shardHex(b.shard),
        seqno: b.seqno,
        root_hash: b.rootHash,
        file_hash: b.fileHash,
        global_id: b.globalId,
        version: i.version,
        after_merge: i.afterMerge,
        before_split: i.beforeSplit,
        after_split: i.afterSplit,
        want_merge: i.wantMerge,
        want_split: i.wantSplit,
        key_block: i.keyBlock,
        vert_seqno_incr: i.vertSeqnoIncr,
        flags: i.flags,
        gen_utime: String(i.genUtime),
        start_lt: String(i.startLt),
        end_lt: String(i.endLt),
        validator_list_hash_short: i.validatorListHashShort,
        gen_catchain_seqno: i.catchainSeqno,
        min_ref_mc_seqno: i.minRefMcSeqno,
        prev_key_block_seqno: i.prevKeyBlockSeqno,
        vert_seqno: i.vertSeqno,
        master_ref_seqno: i.masterRefSeqno,
        rand_seed: b.randSeed,
        created_by: b.createdBy,
        tx_count: b.txIds.length,
        masterchain_block_ref: { workchain: -1, shard: '8000000000000000', seqno: b.mcSeqno },
        prev_blocks: b.prev.map((p) => ({ workchain: p.workchain, shard: shardHex(p.shard), seqno: p.seqno })),
      });
    }
    // The devnet's basechain runs more than one shard, so shard ids other than 8000000000000000 are covered.
    expect(new Set(body.blocks.filter((x: JsonBody) => x.workchain === 0).map((x: JsonBody) => x.shard)).size).toBe(
      new Set(chain.blocks.filter((b) => b.workchain === 0).map((b) => b.shard)).size,
    );
  });

  it('/blocks: every filter selects exactly the chain blocks it names', async () => {
    const shardBlock = chain.blocks.find((b) => b.workchain === 0 && b.txIds.length > 0) as ChainBlock;
    const mc = chain.blocks.find((b) => b.workchain === -1 && b.seqno === 5) as ChainBlock;
    const keys = (body: JsonBody) => sortedKeys(body.blocks.map(blockKey));
    const want = (pred: (b: ChainBlock) => boolean) => sortedKeys(chain.blocks.filter(pred).map(blockKey));
    const sh = shardBlock.shard;
    const cases: Array<[string, (b: ChainBlock) => boolean]> = [
      ['workchain=0', (b) => b.workchain === 0],
      ['workchain=-1', (b) => b.workchain === -1],
      [`workchain=0&shard=${shardHex(sh)}`, (b) => b.workchain === 0 && b.shard === sh],
      [`workchain=0&shard=0x${shardHex(sh).toLowerCase()}`, (b) => b.workchain === 0 && b.shard === sh],
      [`workchain=0&shard=${BigInt.asIntN(64, sh)}`, (b) => b.workchain === 0 && b.shard === sh],
      [
        `workchain=0&shard=${shardHex(sh)}&seqno=${shardBlock.seqno}`,
        (b) => b.workchain === 0 && b.shard === sh && b.seqno === shardBlock.seqno,
      ],
      [`workchain=0&seqno=${shardBlock.seqno}`, (b) => b.workchain === 0 && b.seqno === shardBlock.seqno],
      [`seqno=${shardBlock.seqno}`, (b) => b.seqno === shardBlock.seqno],
      [`root_hash=${encodeURIComponent(shardBlock.rootHash)}`, (b) => b === shardBlock],
      [`root_hash=${hex(shardBlock.rootHash)}`, (b) => b === shardBlock],
      [`root_hash=${urlsafe(shardBlock.rootHash)}`, (b) => b === shardBlock],
      [`file_hash=${encodeURIComponent(mc.fileHash)}`, (b) => b === mc],
      [`file_hash=0x${hex(mc.fileHash)}`, (b) => b === mc],
      [`mc_seqno=${mc.seqno}`, (b) => b.mcSeqno === mc.seqno],
      [`start_utime=${mc.info.genUtime}`, (b) => b.info.genUtime >= mc.info.genUtime],
      [`end_utime=${mc.info.genUtime}`, (b) => b.info.genUtime <= mc.info.genUtime],
      [`start_lt=${mc.info.startLt}`, (b) => b.info.startLt >= mc.info.startLt],
      [`end_lt=${mc.info.startLt}`, (b) => b.info.startLt <= mc.info.startLt],
      [
        `start_lt=${mc.info.startLt}&end_lt=${mc.info.endLt + 5_000_000n}`,
        (b) => b.info.startLt >= mc.info.startLt && b.info.startLt <= mc.info.endLt + 5_000_000n,
      ],
    ];
    for (const [q, pred] of cases) {
      const expected = want(pred);
      expect(expected.length, q).toBeGreaterThan(0);
      expect(keys(await ok(`/blocks?${q}&limit=1000`)), q).toEqual(expected);
    }
    expect((await ok('/blocks?seqno=99999999')).blocks).toEqual([]);
  });

  it('/blocks: limit (default 10), offset and sort page through one gen_utime order', async () => {
    expect((await ok('/blocks')).blocks.length).toBe(10);
    const desc = (await ok('/blocks?limit=1000&sort=desc')).blocks;
    const asc = (await ok('/blocks?limit=1000&sort=asc')).blocks;
    expect(asc.map(blockKey)).toEqual([...desc].reverse().map(blockKey));
    for (let i = 1; i < asc.length; i++)
      expect(Number(asc[i].gen_utime)).toBeGreaterThanOrEqual(Number(asc[i - 1].gen_utime));
    const pages: JsonBody[] = [];
    for (let off = 0; off < 45; off += 15) pages.push(...(await ok(`/blocks?limit=15&offset=${off}&sort=asc`)).blocks);
    expect(pages.map(blockKey)).toEqual(asc.slice(0, 45).map(blockKey));
    // A closed lt window: the asc page is the reversed desc page.
    const mid = mcBlocks()[Math.floor(mcBlocks().length / 2)] as ChainBlock;
    const w = `start_lt=${mid.info.startLt - 20_000_000n}&end_lt=${mid.info.startLt + 20_000_000n}`;
    const wa = (await ok(`/blocks?${w}&sort=asc&limit=1000`)).blocks.map(blockKey);
    const wd = (await ok(`/blocks?${w}&sort=d&limit=1000`)).blocks.map(blockKey);
    expect(wa.length).toBeGreaterThan(3);
    expect(wa).toEqual([...wd].reverse());
    // toncenter raises a limit below 1 to 1 (v3-api.md §2.9); issue 6 asks for a 4xx instead.
    const zero = await f.get('/api/v3/blocks?limit=0');
    expect(zero.status).toBe(422);
    expect(zero.body.error).toBe('limit is not allowed: 0 < 1');
  });

  it('masterchainBlockShardState: the shard tips the masterchain block lists (getAllShardsInfo)', async () => {
    for (const n of [1, 5, f.indexedThrough]) {
      // A tip still at seqno 0 is the zero state, which is no block: it is not listed (toncenter joins the tips
      // to blocks too), and a masterchain block with only such tips answers 404.
      const live = (chain.tips.get(n) ?? []).filter((t) => t.seqno > 0);
      if (live.length === 0) {
        await fails(`/masterchainBlockShardState?seqno=${n}`, 404, 'blocks not found');
        continue;
      }
      const body = await ok(`/masterchainBlockShardState?seqno=${n}`);
      // The OpenAPI document names TransactionsResponse here (a documented slip); the body is a BlocksResponse.
      expect(validateV3('get', '/api/v3/blocks', 200, body)).toEqual([]);
      // Ordered by workchain, shard (as the signed 64-bit the table stores, like toncenter's SQL), seqno.
      const tips = [...live].sort(
        (a, b) => a.workchain - b.workchain || (BigInt.asIntN(64, a.shard) < BigInt.asIntN(64, b.shard) ? -1 : 1),
      );
      expect(tips.length).toBeGreaterThan(0);
      expect(body.blocks.map(blockKey)).toEqual(tips.map(blockKey));
    }
  });

  it('masterchainBlockShards: every block the masterchain block committed, itself included', async () => {
    for (const n of [1, 5, f.indexedThrough]) {
      const body = await ok(`/masterchainBlockShards?seqno=${n}&limit=1000`);
      expect(validateV3('get', '/api/v3/blocks', 200, body)).toEqual([]);
      const want = sortedKeys(chain.blocks.filter((b) => b.mcSeqno === n).map(blockKey));
      expect(sortedKeys(body.blocks.map(blockKey))).toEqual(want);
    }
    const n = f.indexedThrough;
    const all = (await ok(`/masterchainBlockShards?seqno=${n}&limit=1000&sort=asc`)).blocks.map(blockKey);
    const one = (await ok(`/masterchainBlockShards?seqno=${n}&limit=1&offset=1&sort=asc`)).blocks.map(blockKey);
    expect(one).toEqual(all.slice(1, 2));
  });
});

// --- transactions ------------------------------------------------------------------------------------

/** The v3 JSON toncenter gives for a message, from the message as the chain has it. */
function expectMessage(got: JsonBody, m: ChainMsg) {
  const info = m.msg.info;
  expect(got.hash).toBe(m.hash);
  expect(got.source).toBe(m.source);
  expect(got.destination).toBe(m.destination);
  expect(got.opcode).toBe(m.opcode);
  expect(got.message_content.hash).toBe(m.bodyHash);
  expect(b64((Cell.fromBase64(got.message_content.body) as Cell).hash())).toBe(m.bodyHash);
  if (m.initHash) {
    expect(got.init_state.hash).toBe(m.initHash);
    expect(b64(Cell.fromBase64(got.init_state.body).hash())).toBe(m.initHash);
  } else {
    expect(got.init_state).toBeNull();
  }
  if (info.type === 'internal') {
    expect(got.value).toBe(String(info.value.coins));
    expect(got.fwd_fee).toBe(String(info.forwardFee));
    // From global version 12 the old ihr_fee field is extra_flags: toncenter then reports ihr_fee 0.
    if (got.extra_flags === null) expect(got.ihr_fee).toBe(String(info.ihrFee));
    else expect([got.ihr_fee, got.extra_flags]).toEqual(['0', String(info.ihrFee)]);
    expect(got.created_lt).toBe(String(info.createdLt));
    expect(got.created_at).toBe(String(info.createdAt));
    expect([got.ihr_disabled, got.bounce, got.bounced]).toEqual([info.ihrDisabled, info.bounce, info.bounced]);
    expect(got.import_fee).toBeNull();
    expect(got.value_extra_currencies).toEqual({});
    expect(got.hash_norm).toBeUndefined();
  } else if (info.type === 'external-in') {
    for (const k of ['value', 'fwd_fee', 'ihr_fee', 'created_lt', 'created_at', 'bounce', 'bounced']) {
      expect(got[k], k).toBeNull();
    }
    expect(got.import_fee).toBe(String(m.importFee));
    expect(got.hash_norm).toBe(m.normHash);
  } else {
    expect(got.created_lt).toBe(String(info.createdLt));
    expect(got.created_at).toBe(String(info.createdAt));
  }
  // A text comment is decoded as toncenter's back-compat object; an empty body as empty_cell.
  const bs = m.bodyCell.beginParse();
  if (m.bodyCell.bits.length === 0 && m.bodyCell.refs.length === 0) {
    expect(got.message_content.decoded).toEqual({ '@type': 'empty_cell' });
  } else if (m.opcode === '0x00000000') {
    bs.skip(32);
    expect(got.message_content.decoded).toEqual({
      '@type': 'text_comment',
      comment: bs.loadStringTail(),
      type: 'text_comment',
    });
    expect(got.decoded_opcode).toBe('text_comment');
  } else if (m.opcode !== null && STANDARD_BODIES[m.opcode]) {
    // The jetton and NFT bodies of the activity, decoded in ton-marker's names (v3-api.md Appendix A); the
    // query id read here from the chain's body.
    const name = STANDARD_BODIES[m.opcode];
    bs.skip(32);
    expect(got.decoded_opcode).toBe(name);
    expect(got.message_content.decoded['@type'], m.opcode).toBe(name);
    expect(got.message_content.decoded.query_id).toBe(bs.loadUintBig(64).toString());
  }
}

/** Opcodes of the jetton and NFT bodies the devnet activity sends -> their ton-marker constructor names. */
const STANDARD_BODIES: Record<string, string> = {
  '0x0f8a7ea5': 'jetton_transfer',
  '0x178d4519': 'jetton_internal_transfer',
  '0x7362d09c': 'jetton_notify',
  '0xd53276db': 'excess',
  '0x595f07bc': 'jetton_burn',
  '0x7bdd97de': 'jetton_burn_notification',
  '0x5fcc3d14': 'nft_transfer',
  '0x05138d91': 'nft_ownership_assigned',
};

const STATUS: Record<string, string> = {
  uninitialized: 'uninit',
  frozen: 'frozen',
  active: 'active',
  'non-existing': 'nonexist',
};
const SKIP: Record<string, string> = { 'no-state': 'no_state', 'bad-state': 'bad_state', 'no-gas': 'no_gas' };
const CHANGE: Record<string, string> = { unchanged: 'unchanged', frozen: 'frozen', deleted: 'deleted' };
const BOUNCE: Record<string, string> = { 'negative-funds': 'negfunds', 'no-funds': 'nofunds', ok: 'ok' };
const h256 = (v: bigint) => b64(Buffer.from(v.toString(16).padStart(64, '0'), 'hex'));

/** The description toncenter gives, built from the transaction @ton/core decoded. */
function expectedDescription(tx: Transaction): Record<string, unknown> {
  const d = tx.description;
  expect(d.type).toBe('generic'); // the devnet runs ordinary transactions only
  if (d.type !== 'generic') return {};
  const out: Record<string, unknown> = {
    type: 'ord',
    aborted: d.aborted,
    destroyed: d.destroyed,
    credit_first: d.creditFirst,
  };
  if (d.storagePhase) {
    out.storage_ph = {
      storage_fees_collected: String(d.storagePhase.storageFeesCollected),
      ...(d.storagePhase.storageFeesDue == null ? {} : { storage_fees_due: String(d.storagePhase.storageFeesDue) }),
      status_change: CHANGE[d.storagePhase.statusChange],
    };
  }
  if (d.creditPhase) {
    out.credit_ph = {
      ...(d.creditPhase.dueFeesColelcted == null ? {} : { due_fees_collected: String(d.creditPhase.dueFeesColelcted) }),
      credit: String(d.creditPhase.credit.coins),
    };
  }
  const c = d.computePhase;
  out.compute_ph =
    c.type === 'skipped'
      ? { skipped: true, reason: SKIP[c.reason] }
      : {
          skipped: false,
          success: c.success,
          msg_state_used: c.messageStateUsed,
          account_activated: c.accountActivated,
          gas_fees: String(c.gasFees),
          gas_used: String(c.gasUsed),
          gas_limit: String(c.gasLimit),
          ...(c.gasCredit == null ? {} : { gas_credit: String(c.gasCredit) }),
          mode: c.mode,
          exit_code: c.exitCode,
          ...(c.exitArg == null ? {} : { exit_arg: c.exitArg }),
          vm_steps: c.vmSteps,
          vm_init_state_hash: h256(c.vmInitStateHash),
          vm_final_state_hash: h256(c.vmFinalStateHash),
        };
  const a = d.actionPhase;
  if (a) {
    out.action = {
      success: a.success,
      valid: a.valid,
      no_funds: a.noFunds,
      status_change: CHANGE[a.statusChange],
      ...(a.totalFwdFees == null ? {} : { total_fwd_fees: String(a.totalFwdFees) }),
      ...(a.totalActionFees == null ? {} : { total_action_fees: String(a.totalActionFees) }),
      result_code: a.resultCode,
      ...(a.resultArg == null ? {} : { result_arg: a.resultArg }),
      tot_actions: a.totalActions,
      spec_actions: a.specActions,
      skipped_actions: a.skippedActions,
      msgs_created: a.messagesCreated,
      action_list_hash: h256(a.actionListHash),
      tot_msg_size: { cells: String(a.totalMessageSize.cells), bits: String(a.totalMessageSize.bits) },
    };
  }
  const b = d.bouncePhase;
  if (b) {
    out.bounce =
      b.type === 'negative-funds'
        ? { type: 'negfunds' }
        : b.type === 'no-funds'
          ? {
              type: BOUNCE[b.type],
              msg_size: { cells: String(b.messageSize.cells), bits: String(b.messageSize.bits) },
              req_fwd_fees: String(b.requiredForwardFees),
            }
          : {
              type: 'ok',
              msg_size: { cells: String(b.messageSize.cells), bits: String(b.messageSize.bits) },
              msg_fees: String(b.messageFees),
              fwd_fees: String(b.forwardFees),
            };
  }
  return out;
}

function expectTransaction(got: JsonBody, t: ChainTx) {
  const tx = t.tx;
  expect(got.account).toBe(t.account);
  expect(got.hash).toBe(t.hash);
  expect(got.lt).toBe(String(t.lt));
  expect(got.now).toBe(tx.now);
  expect(got.mc_block_seqno).toBe(t.block.mcSeqno);
  expect(got.prev_trans_hash).toBe(h256(tx.prevTransactionHash));
  expect(got.prev_trans_lt).toBe(String(tx.prevTransactionLt));
  expect(got.orig_status).toBe(STATUS[tx.oldStatus]);
  expect(got.end_status).toBe(STATUS[tx.endStatus]);
  expect(got.total_fees).toBe(String(tx.totalFees.coins));
  expect(got.total_fees_extra_currencies).toEqual({});
  expect(got.description).toEqual(expectedDescription(tx));
  expect(got.block_ref).toEqual({ workchain: t.block.workchain, shard: shardHex(t.block.shard), seqno: t.block.seqno });
  expect(got.account_state_before.hash).toBe(b64(tx.stateUpdate.oldHash));
  expect(got.account_state_after.hash).toBe(b64(tx.stateUpdate.newHash));
  if (t.inMsg) expectMessage(got.in_msg, t.inMsg);
  else expect(got.in_msg).toBeNull();
  expect(got.out_msgs.map((m: JsonBody) => m.hash)).toEqual(
    [...t.outMsgs].sort((a, b) => Number(msgLt(a) - msgLt(b))).map((m) => m.hash),
  );
  for (const m of got.out_msgs) expectMessage(m, chain.msgs.get(m.hash) as ChainMsg);
  expect([got.emulated, got.finality]).toEqual([false, 'finalized']);
  // The trace: the root the chain's own message links lead to (the fixture assembles traces as the workers do).
  let root = t;
  while (root.inMsg?.outTx) root = root.inMsg.outTx;
  expect(got.trace_id).toBe(root.hash);
}

const msgLt = (m: ChainMsg) => (m.msg.info.type === 'external-in' ? -1n : m.msg.info.createdLt);

describe('transactions', () => {
  const byHash = () => new Map(chain.txs.map((t) => [t.hash, t]));
  const keysOf = (body: JsonBody) => sortedKeys(body.transactions.map(txKey));
  const want = (pred: (t: ChainTx) => boolean) => sortedKeys(chain.txs.filter(pred).map(txKey));

  it('lists every transaction of the index, each equal to the chain transaction (getOneTransaction)', async () => {
    expect(chain.txs.length).toBeGreaterThan(20);
    const body = await ok('/transactions?limit=1000');
    expect(keysOf(body)).toEqual(want(() => true));
    const map = byHash();
    for (const got of body.transactions) expectTransaction(got, map.get(got.hash) as ChainTx);
    // The activity covers failed computations, bounces, deploys (StateInit) and external messages.
    const descr = body.transactions.map((t: JsonBody) => t.description);
    expect(descr.some((d: JsonBody) => d.compute_ph?.success === false)).toBe(true);
    expect(descr.some((d: JsonBody) => d.bounce)).toBe(true);
    expect(body.transactions.some((t: JsonBody) => t.in_msg?.init_state)).toBe(true);
    expect(body.transactions.some((t: JsonBody) => t.in_msg?.source === null)).toBe(true);
    // The jetton and NFT activity's bodies come decoded (each checked against its chain body in expectMessage).
    const types = new Set(
      body.transactions.flatMap((t: JsonBody) =>
        [t.in_msg, ...t.out_msgs].map((m: JsonBody) => m?.message_content?.decoded?.['@type']),
      ),
    );
    for (const name of Object.values(STANDARD_BODIES).filter((n) => !n.startsWith('jetton_burn'))) {
      expect(types.has(name), name).toBe(true);
    }
  });

  it('default order: lt desc, account asc; a utime bound orders by now first', async () => {
    const list = (await ok('/transactions?limit=1000')).transactions;
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1], list[i]];
      expect(BigInt(a.lt) > BigInt(b.lt) || (a.lt === b.lt && a.account <= b.account)).toBe(true);
    }
    const byNow = (await ok('/transactions?limit=1000&start_utime=0&sort=asc')).transactions;
    for (let i = 1; i < byNow.length; i++) {
      const [a, b] = [byNow[i - 1], byNow[i]];
      expect(a.now < b.now || (a.now === b.now && BigInt(a.lt) <= BigInt(b.lt))).toBe(true);
    }
    expect((await ok('/transactions')).transactions.length).toBe(10);
  });

  it('account_state_before/after carry the chain state (getAccountState) when the index holds it', async () => {
    const body = await ok('/transactions?limit=1000');
    const last = chain.lastMc;
    const accounts = [...new Set(chain.txs.map((t) => t.account))];
    let compared = 0;
    for (const account of accounts) {
      const s = await f.lite.getAccountState(Address.parseRaw(account), {
        workchain: -1,
        shard: MC.toString(),
        seqno: last.seqno,
        rootHash: Buffer.from(last.rootHash, 'base64'),
        fileHash: Buffer.from(last.fileHash, 'base64'),
      });
      if (s.raw.length === 0) continue; // account_none: nothing to compare
      const stateHash = b64((Cell.fromBoc(s.raw)[0] as Cell).hash());
      const got = body.transactions.find((t: JsonBody) => t.account_state_after.hash === stateHash);
      if (!got) continue;
      const st = got.account_state_after;
      expect(st.balance).toBe(String(s.balance.coins));
      const storage = s.state?.storage.state;
      expect(st.account_status).toBe(storage?.type === 'uninit' ? 'uninit' : storage?.type);
      if (storage?.type === 'active') {
        expect(st.code_hash).toBe(storage.state.code ? b64(storage.state.code.hash()) : null);
        expect(st.data_hash).toBe(storage.state.data ? b64(storage.state.data.hash()) : null);
      }
      expect(st.frozen_hash).toBeNull();
      compared++;
    }
    expect(compared).toBeGreaterThan(5);
  });

  it('every /transactions filter selects exactly the chain transactions it names', async () => {
    const withIn = chain.txs.find((t) => t.inMsg?.source && t.outMsgs.length > 0) as ChainTx;
    const acc = withIn.account;
    const [wc, accHex] = acc.split(':') as [string, string];
    const addr = new Address(Number(wc), Buffer.from(accHex, 'hex'));
    const other = chain.txs.find((t) => t.account !== acc) as ChainTx;
    const b = withIn.block;
    const mid = chain.txs[Math.floor(chain.txs.length / 2)] as ChainTx;
    const cases: Array<[string, (t: ChainTx) => boolean]> = [
      [`account=${acc}`, (t) => t.account === acc],
      [`account=${acc.toLowerCase()}`, (t) => t.account === acc],
      [`account=${addr.toString({ bounceable: true })}`, (t) => t.account === acc],
      [`account=${addr.toString({ bounceable: false })}`, (t) => t.account === acc],
      [`account=${encodeURIComponent(addr.toString({ urlSafe: false }))}`, (t) => t.account === acc],
      [`account=${acc}&account=${other.account}`, (t) => t.account === acc || t.account === other.account],
      [`account=${acc},${other.account}`, (t) => t.account === acc || t.account === other.account],
      [`exclude_account=${acc}`, (t) => t.account !== acc],
      [`hash=${encodeURIComponent(withIn.hash)}`, (t) => t === withIn],
      [`hash=${hex(withIn.hash)}&hash=${urlsafe(other.hash)}`, (t) => t === withIn || t === other],
      [`lt=${withIn.lt}`, (t) => t.lt === withIn.lt],
      [`workchain=${b.workchain}`, (t) => t.block.workchain === b.workchain],
      [`workchain=${b.workchain}&shard=${shardHex(b.shard)}&seqno=${b.seqno}`, (t) => t.block === b],
      [`workchain=${b.workchain}&shard=${BigInt.asIntN(64, b.shard)}`, (t) => t.block.shard === b.shard],
      [`mc_seqno=${b.mcSeqno}`, (t) => t.block.mcSeqno === b.mcSeqno],
      [`start_lt=${mid.lt}`, (t) => t.lt >= mid.lt],
      [`end_lt=${mid.lt}`, (t) => t.lt <= mid.lt],
      [`start_utime=${mid.now}`, (t) => t.now >= mid.now],
      [`end_utime=${mid.now}`, (t) => t.now <= mid.now],
      [`start_utime=${mid.now}.7&end_utime=${mid.now}`, (t) => t.now === mid.now],
      [`account=${acc}&start_lt=${withIn.lt}&end_lt=${withIn.lt}`, (t) => t === withIn],
      [`account=${acc}&start_utime=${withIn.now}`, (t) => t.account === acc && t.now >= withIn.now],
    ];
    for (const [q, pred] of cases) {
      const expected = want(pred);
      expect(expected.length, q).toBeGreaterThan(0);
      expect(keysOf(await ok(`/transactions?${q}&limit=1000`)), q).toEqual(expected);
    }
    // One account: account asc, lt <sort> (toncenter's order, served by the (account, lt) index).
    const mine = (await ok(`/transactions?account=${acc}&sort=asc&limit=1000`)).transactions.map((t: JsonBody) => t.lt);
    expect(mine).toEqual(
      chain.txs
        .filter((t) => t.account === acc)
        .map((t) => t.lt)
        .sort((x, y) => (x < y ? -1 : 1))
        .map(String),
    );
  });

  it('pages with limit, offset and sort over a closed window (asc is the reversed desc)', async () => {
    const lts = chain.txs.map((t) => t.lt).sort((a, b) => (a < b ? -1 : 1));
    const lo = lts[3] as bigint;
    const hi = lts[lts.length - 4] as bigint;
    const w = `start_lt=${lo}&end_lt=${hi}`;
    const asc = (await ok(`/transactions?${w}&sort=asc&limit=1000`)).transactions;
    const desc = (await ok(`/transactions?${w}&sort=desc&limit=1000`)).transactions;
    expect(asc.length).toBe(chain.txs.filter((t) => t.lt >= lo && t.lt <= hi).length);
    // Equal lts (different accounts) keep `account asc` both ways, as toncenter orders them: compare lts
    // exactly and the transactions of each lt as sets.
    expect(asc.map((t: JsonBody) => t.lt)).toEqual([...desc].reverse().map((t: JsonBody) => t.lt));
    expect(sortedKeys(asc.map(txKey))).toEqual(sortedKeys(desc.map(txKey)));
    const paged: JsonBody[] = [];
    for (let off = 0; off < asc.length; off += 4) {
      paged.push(...(await ok(`/transactions?${w}&sort=asc&limit=4&offset=${off}`)).transactions);
    }
    expect(paged.map(txKey)).toEqual(asc.map(txKey));
    // One account's window: unique lts, so the pages are exact mirrors.
    const acc = chain.txs.find((t) => chain.txs.filter((x) => x.account === t.account).length >= 3)?.account;
    const a1 = (await ok(`/transactions?account=${acc}&sort=asc&limit=1000`)).transactions.map(txKey);
    const d1 = (await ok(`/transactions?account=${acc}&sort=desc&limit=1000`)).transactions.map(txKey);
    expect(a1.length).toBeGreaterThanOrEqual(3);
    expect(a1).toEqual([...d1].reverse());
  });

  it('transactionsByMasterchainBlock: the transactions of the masterchain block and the shard blocks it commits', async () => {
    const n = (chain.txs.find((t) => t.block.workchain === 0) as ChainTx).block.mcSeqno;
    const body = await ok(`/transactionsByMasterchainBlock?seqno=${n}&limit=1000`);
    expect(keysOf(body)).toEqual(want((t) => t.block.mcSeqno === n));
    const asc = (await ok(`/transactionsByMasterchainBlock?seqno=${n}&sort=asc&limit=1000`)).transactions;
    const second = (await ok(`/transactionsByMasterchainBlock?seqno=${n}&sort=asc&limit=1&offset=1`)).transactions;
    if (asc.length > 1) expect(second.map(txKey)).toEqual([txKey(asc[1])]);
    // A block with no transactions is still found.
    const empty = chain.blocks.find((b) => b.workchain === -1 && !chain.txs.some((t) => t.block.mcSeqno === b.seqno));
    if (empty) expect((await ok(`/transactionsByMasterchainBlock?seqno=${empty.seqno}`)).transactions).toEqual([]);
  });

  it('transactionsByMessage: msg_hash (or its normalized hash), body_hash, opcode, direction', async () => {
    const internal = [...chain.msgs.values()].find((m) => m.inTx && m.outTx && m.opcode) as ChainMsg;
    const ext = [...chain.msgs.values()].find((m) => m.msg.info.type === 'external-in') as ChainMsg;
    const q = (s: string) => ok(`/transactionsByMessage?${s}&limit=1000`);
    const both = sortedKeys([txKey(internal.inTx as ChainTx), txKey(internal.outTx as ChainTx)]);
    expect(keysOf(await q(`msg_hash=${encodeURIComponent(internal.hash)}`))).toEqual(both);
    expect(keysOf(await q(`msg_hash=${hex(internal.hash)}&direction=in`))).toEqual([txKey(internal.inTx as ChainTx)]);
    expect(keysOf(await q(`msg_hash=${urlsafe(internal.hash)}&direction=out`))).toEqual([
      txKey(internal.outTx as ChainTx),
    ]);
    // TON Connect reports the normalized hash of an external message; it finds the same transaction.
    expect(ext.normHash).not.toBe(ext.hash);
    expect(keysOf(await q(`msg_hash=${encodeURIComponent(ext.normHash as string)}`))).toEqual([
      txKey(ext.inTx as ChainTx),
    ]);
    const withBody = (pred: (m: ChainMsg) => boolean) =>
      sortedKeys([
        ...new Set(
          [...chain.msgs.values()]
            .filter(pred)
            .flatMap((m) => [m.inTx, m.outTx])
            .filter((t): t is ChainTx => !!t)
            .map(txKey),
        ),
      ]);
    expect(keysOf(await q(`body_hash=${encodeURIComponent(internal.bodyHash)}`))).toEqual(
      withBody((m) => m.bodyHash === internal.bodyHash),
    );
    // An opcode matches inbound messages only.
    const op = internal.opcode as string;
    const byOp = sortedKeys([
      ...new Set(
        [...chain.msgs.values()].filter((m) => m.opcode === op && m.inTx).map((m) => txKey(m.inTx as ChainTx)),
      ),
    ]);
    expect(keysOf(await q(`opcode=${op}`))).toEqual(byOp);
    expect(keysOf(await q(`opcode=${op.slice(2)}`))).toEqual(byOp);
    expect(keysOf(await q(`opcode=${op}&direction=in`))).toEqual(byOp);
    const signed = BigInt.asIntN(32, BigInt(op));
    if (signed < 0n) expect(keysOf(await q(`opcode=${signed}`))).toEqual(byOp);
    // limit/offset/sort (sort is honoured though not documented here).
    const asc = (await q(`body_hash=${encodeURIComponent(internal.bodyHash)}&sort=asc`)).transactions;
    const one = (
      await ok(`/transactionsByMessage?body_hash=${encodeURIComponent(internal.bodyHash)}&sort=asc&limit=1&offset=1`)
    ).transactions;
    expect(one.map(txKey)).toEqual(asc.slice(1, 2).map(txKey));
    for (let i = 1; i < asc.length; i++) expect(BigInt(asc[i].lt) >= BigInt(asc[i - 1].lt)).toBe(true);
  });

  it('adjacentTransactions: the parent with direction=in, the children with out, both without', async () => {
    const t = chain.txs.find((x) => x.inMsg?.outTx && x.outMsgs.some((m) => m.inTx)) as ChainTx;
    expect(t).toBeDefined();
    const parent = txKey(t.inMsg?.outTx as ChainTx);
    const children = t.outMsgs.filter((m) => m.inTx).map((m) => txKey(m.inTx as ChainTx));
    const q = (s: string) => ok(`/adjacentTransactions?hash=${s}`);
    expect(keysOf(await q(`${encodeURIComponent(t.hash)}&direction=in`))).toEqual([parent]);
    expect(keysOf(await q(`${hex(t.hash)}&direction=out`))).toEqual(sortedKeys(children));
    const all = (await q(urlsafe(t.hash))).transactions;
    expect(sortedKeys(all.map(txKey))).toEqual(sortedKeys([parent, ...children]));
    for (let i = 1; i < all.length; i++) expect(BigInt(all[i].lt) >= BigInt(all[i - 1].lt)).toBe(true);
    for (const got of all) expectTransaction(got, byHash().get(got.hash) as ChainTx);
    // A transaction started by an external message has no parent.
    const root = chain.txs.find((x) => x.inMsg?.msg.info.type === 'external-in') as ChainTx;
    await fails(
      `/adjacentTransactions?hash=${encodeURIComponent(root.hash)}&direction=in`,
      404,
      'adjacent transactions not found',
    );
  });

  it('address_book: the account, in_msg source and out_msgs destinations, in user-friendly form', async () => {
    const body = await ok('/transactions?limit=1000');
    const want = new Set<string>();
    for (const t of body.transactions) {
      want.add(t.account);
      if (t.in_msg?.source) want.add(t.in_msg.source);
      for (const m of t.out_msgs) if (m.destination) want.add(m.destination);
    }
    expect(sortedKeys(Object.keys(body.address_book))).toEqual(sortedKeys(want));
    for (const [rawAddr, e] of Object.entries(body.address_book as Record<string, JsonBody>)) {
      const parsed = Address.parseFriendly(e.user_friendly);
      expect(raw(parsed.address)).toBe(rawAddr);
      expect(parsed.isTestOnly).toBe(false);
      expect(e.domain).toBeNull();
      expect(Array.isArray(e.interfaces)).toBe(true);
    }
    // X-No-Address-Book (header or query) leaves it empty.
    const r = await f.get('/api/v3/transactions?limit=3', { 'x-no-address-book': 'true' });
    expect(r.body.address_book).toEqual({});
    expect((await ok('/transactions?limit=3&x_no_address_book=1')).address_book).toEqual({});
  });
});

// --- messages ----------------------------------------------------------------------------------------

describe('messages', () => {
  const all = () => [...chain.msgs.values()];
  const keysOf = (body: JsonBody) => sortedKeys(body.messages.map((m: JsonBody) => m.hash));
  const want = (pred: (m: ChainMsg) => boolean) =>
    sortedKeys(
      all()
        .filter(pred)
        .map((m) => m.hash),
    );
  const q = (s: string) => ok(`/messages?${s}&limit=1000`);

  it('lists every message once, equal to the chain message, with the transactions on each side', async () => {
    const body = await q('sort=desc');
    expect(keysOf(body)).toEqual(want(() => true));
    for (const got of body.messages) {
      const m = chain.msgs.get(got.hash) as ChainMsg;
      expectMessage(got, m);
      expect(got.in_msg_tx_hash).toBe(m.inTx?.hash);
      expect(got.out_msg_tx_hash).toBe(m.outTx?.hash);
    }
    expect(body.metadata).toEqual({});
    const book = new Set(body.messages.flatMap((m: JsonBody) => [m.source, m.destination]).filter(Boolean));
    expect(sortedKeys(Object.keys(body.address_book))).toEqual(sortedKeys(book as Set<string>));
    // External-in messages have no created_lt: first in a desc page (NULLS FIRST), last in an asc one.
    const ext = body.messages.findIndex((m: JsonBody) => m.created_lt !== null);
    expect(body.messages.slice(0, ext).every((m: JsonBody) => m.source === null)).toBe(true);
    expect(ext).toBeGreaterThan(0);
  });

  it('every /messages filter selects exactly the chain messages it names', async () => {
    const internal = all().find((m) => m.inTx && m.outTx && m.opcode && m.msg.info.type === 'internal') as ChainMsg;
    const info = internal.msg.info as Extract<Message['info'], { type: 'internal' }>;
    const ext = all().find((m) => m.msg.info.type === 'external-in') as ChainMsg;
    const src = internal.source as string;
    const dst = internal.destination as string;
    const lt = (m: ChainMsg) => (m.msg.info.type === 'external-in' ? null : m.msg.info.createdLt);
    const at = (m: ChainMsg) => (m.msg.info.type === 'external-in' ? null : m.msg.info.createdAt);
    const srcAddr = Address.parseRaw(src);
    const cases: Array<[string, (m: ChainMsg) => boolean]> = [
      [`msg_hash=${encodeURIComponent(internal.hash)}`, (m) => m === internal],
      [`msg_hash=${hex(internal.hash)}&msg_hash=${urlsafe(ext.hash)}`, (m) => m === internal || m === ext],
      [`msg_hash=${encodeURIComponent(ext.normHash as string)}`, (m) => m === ext],
      [`hash=${hex(internal.hash)}`, (m) => m === internal],
      [`body_hash=${encodeURIComponent(internal.bodyHash)}`, (m) => m.bodyHash === internal.bodyHash],
      [`source=${src}`, (m) => m.source === src],
      [`source=${srcAddr.toString()}`, (m) => m.source === src],
      ['source=null', (m) => m.source === null],
      [`destination=${dst}`, (m) => m.destination === dst],
      [`opcode=${internal.opcode}`, (m) => m.opcode === internal.opcode],
      [`start_lt=${info.createdLt}`, (m) => lt(m) !== null && (lt(m) as bigint) >= info.createdLt],
      [`end_lt=${info.createdLt}`, (m) => lt(m) !== null && (lt(m) as bigint) <= info.createdLt],
      [`start_utime=${info.createdAt}`, (m) => at(m) !== null && (at(m) as number) >= info.createdAt],
      [`end_utime=${info.createdAt}`, (m) => at(m) !== null && (at(m) as number) <= info.createdAt],
      ['direction=in', (m) => !!m.inTx],
      ['direction=out', (m) => !!m.outTx],
      ['exclude_externals=true', (m) => m.msg.info.type !== 'external-in'],
      ['only_externals=true', (m) => m.msg.info.type === 'external-in'],
      [`only_externals=1&start_utime=0`, () => false],
      [
        `source=${src}&destination=${dst}&opcode=${internal.opcode}`,
        (m) => m.source === src && m.destination === dst && m.opcode === internal.opcode,
      ],
    ];
    for (const [s, pred] of cases) {
      expect(keysOf(await q(s)), s).toEqual(want(pred));
    }
    // destination=null selects external-out messages; the devnet's contracts emit none, so the answer is
    // empty exactly when the chain has none.
    expect(keysOf(await q('destination=null'))).toEqual(want((m) => m.destination === null));
    // With direction, only that side's transaction hash is shown.
    const inOnly = (await q(`msg_hash=${encodeURIComponent(internal.hash)}&direction=in`)).messages[0];
    expect([inOnly.in_msg_tx_hash, inOnly.out_msg_tx_hash]).toEqual([internal.inTx?.hash, undefined]);
  });

  it('orders by created_lt (created_at with a utime bound) and msg_hash; pages mirror', async () => {
    const lts = all()
      .map((m) => (m.msg.info.type === 'external-in' ? null : m.msg.info.createdLt))
      .filter((x): x is bigint => x !== null)
      .sort((a, b) => (a < b ? -1 : 1));
    const w = `start_lt=${lts[2]}&end_lt=${lts[lts.length - 3]}`;
    const asc = (await q(`${w}&sort=asc`)).messages;
    const desc = (await q(`${w}&sort=desc`)).messages;
    expect(asc.length).toBeGreaterThan(5);
    expect(asc.map((m: JsonBody) => m.hash)).toEqual([...desc].reverse().map((m: JsonBody) => m.hash));
    for (let i = 1; i < asc.length; i++) {
      const [a, b] = [asc[i - 1], asc[i]];
      expect(BigInt(a.created_lt) < BigInt(b.created_lt) || (a.created_lt === b.created_lt && a.hash < b.hash)).toBe(
        true,
      );
    }
    const paged: JsonBody[] = [];
    for (let off = 0; off < asc.length; off += 3) {
      paged.push(...(await ok(`/messages?${w}&sort=asc&limit=3&offset=${off}`)).messages);
    }
    expect(paged.map((m: JsonBody) => m.hash)).toEqual(asc.map((m: JsonBody) => m.hash));
    const byAt = (await q('start_utime=0&sort=asc')).messages;
    for (let i = 1; i < byAt.length; i++)
      expect(Number(byAt[i].created_at) >= Number(byAt[i - 1].created_at)).toBe(true);
    expect((await ok('/messages')).messages.length).toBe(10);
  });
});

// --- bad input ---------------------------------------------------------------------------------------

describe('bad input gets toncenter status and an {"error"} body', () => {
  it('addresses, hashes, shards, opcodes, numbers', async () => {
    await fails('/transactions?account=nonsense', 422, /invalid address in account/);
    await fails('/transactions?account=0:1234', 422, /invalid address/);
    await fails('/transactions?exclude_account=EQ123', 422, /invalid address in exclude_account/);
    await fails('/messages?source=abc', 422, /invalid address in source/);
    await fails('/messages?destination=0:zz', 422, /invalid address in destination/);
    await fails('/transactions?hash=abcd', 422, /invalid hash in hash/);
    await fails('/blocks?root_hash=xyz', 422, /invalid hash in root_hash/);
    await fails('/messages?msg_hash=AAAA', 422, /invalid hash in msg_hash/);
    await fails('/messages?body_hash=0x12', 422, /invalid hash in body_hash/);
    await fails('/adjacentTransactions?hash=nothash', 422, /invalid hash in hash/);
    await fails('/blocks?workchain=0&shard=xyz', 422, /invalid shard/);
    await fails('/transactions?shard=0x10000000000000000', 422, /invalid shard/);
    await fails('/messages?opcode=0x1234567890', 422, /invalid opcode/);
    await fails('/transactionsByMessage?opcode=zz', 422, /invalid opcode/);
    await fails('/blocks?workchain=abc', 422, /invalid workchain/);
    await fails('/blocks?seqno=4294967296', 422, /invalid seqno/);
    await fails('/transactions?lt=-1', 422, /invalid lt/);
    await fails('/transactions?start_lt=x', 422, /invalid start_lt/);
    await fails('/messages?start_utime=-5', 422, /invalid start_utime/);
    await fails('/blocks?start_utime=10&end_utime=5', 422, /start_utime 10 is greater than end_utime 5/);
    await fails('/transactions?start_lt=10&end_lt=5', 422, /start_lt 10 is greater than end_lt 5/);
    await fails('/messages?exclude_externals=maybe', 422, /invalid exclude_externals/);
  });

  it('limit, offset and sort', async () => {
    for (const p of [
      '/blocks',
      '/transactions',
      '/messages',
      '/transactionsByMessage?opcode=0&',
      '/masterchainBlockShards?seqno=1&',
    ]) {
      const sep = p.endsWith('&') ? '' : '?';
      await fails(`${p}${sep}limit=1001`, 422, 'limit is not allowed: 1001 > 1000');
      await fails(`${p}${sep}sort=x`, 422, 'wrong value for sort parameter');
      await fails(`${p}${sep}offset=-1`, 422, /invalid offset/);
      await fails(`${p}${sep}limit=ten`, 422, /invalid limit/);
    }
    await fails('/transactionsByMasterchainBlock?seqno=1&limit=5000', 422, 'limit is not allowed: 5000 > 1000');
    // limit=1000 is the largest accepted.
    expect((await ok('/blocks?limit=1000')).blocks.length).toBe(chain.blocks.length);
  });

  it('unknown and missing seqnos, missing filters, bad directions', async () => {
    const unknown = f.indexedThrough + 100000;
    await fails(`/transactionsByMasterchainBlock?seqno=${unknown}`, 404, `masterchain block ${unknown} not found`);
    await fails(`/transactions?mc_seqno=${unknown}`, 404, `masterchain block ${unknown} not found`);
    await fails(`/masterchainBlockShardState?seqno=${unknown}`, 404, 'blocks not found');
    await fails(`/masterchainBlockShards?seqno=${unknown}`, 404, 'blocks not found');
    await fails('/masterchainBlockShardState', 422, 'seqno is required');
    await fails('/masterchainBlockShards?seqno=x', 422, /invalid seqno/);
    await fails('/transactionsByMasterchainBlock', 422, 'seqno is required');
    await fails('/transactionsByMessage', 422, 'at least one of msg_hash, body_hash, opcode should be specified');
    await fails('/transactionsByMessage?opcode=0&direction=up', 422, 'direction should be one of: in, out');
    await fails('/messages?direction=sideways', 422, 'direction should be one of: in, out');
    await fails('/adjacentTransactions', 422, 'hash is required');
    await fails(
      `/adjacentTransactions?hash=${'A'.repeat(43)}=&direction=x`,
      422,
      'direction should be one of: in, out',
    );
    await fails(`/adjacentTransactions?hash=${'A'.repeat(43)}=`, 404, 'adjacent transactions not found');
    // Unknown parameters are ignored, as toncenter does.
    expect((await ok('/blocks?limit=2&no_such_filter=1')).blocks.length).toBe(2);
  });
});

// --- the embedded back end -----------------------------------------------------------------------------

describe('PGlite answers as PostgreSQL does', () => {
  let lite: TestDatabase;
  let server: ApiServer;
  beforeAll(async () => {
    // The same chain indexed again, into PGlite, behind a second server: every answer must be identical.
    lite = await setupDatabase('pglite');
    await migrate(lite.db);
    const source = createLiteSource(f.pool);
    await indexInOrder(lite.db, source, 1, f.indexedThrough);
    server = await buildApiServer({ db: lite.db });
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await lite?.cleanup();
  });

  it('every endpoint, filter and error gives the same status and body', async () => {
    const t = chain.txs.find((x) => x.inMsg?.outTx && x.outMsgs.some((m) => m.inTx)) as ChainTx;
    const m = t.inMsg as ChainMsg;
    const ext = [...chain.msgs.values()].find((x) => x.msg.info.type === 'external-in') as ChainMsg;
    const h = encodeURIComponent;
    const paths = [
      '/masterchainInfo',
      '/blocks?limit=1000',
      `/blocks?workchain=0&shard=${shardHex(t.block.shard)}&sort=asc&limit=7&offset=3`,
      `/blocks?start_utime=${t.now}&root_hash=${h(t.block.rootHash)}`,
      '/masterchainBlockShardState?seqno=5',
      `/masterchainBlockShards?seqno=${t.block.mcSeqno}&limit=1000`,
      '/transactions?limit=1000',
      `/transactions?account=${t.account}&start_utime=0&sort=asc`,
      `/transactions?workchain=0&exclude_account=${t.account}&limit=5&offset=2`,
      `/transactionsByMasterchainBlock?seqno=${t.block.mcSeqno}`,
      `/transactionsByMessage?msg_hash=${h(ext.normHash as string)}`,
      `/transactionsByMessage?opcode=${m.opcode}&direction=in`,
      `/adjacentTransactions?hash=${h(t.hash)}`,
      '/messages?limit=1000',
      '/messages?source=null&sort=asc',
      `/messages?destination=${m.destination}&start_utime=0&exclude_externals=true`,
      `/messages?msg_hash=${h(m.hash)}&direction=out`,
      '/transactions?limit=1001',
      `/transactionsByMasterchainBlock?seqno=${f.indexedThrough + 1000}`,
      '/messages?source=bad',
    ];
    for (const path of paths) {
      const pg = await f.get(`/api/v3${path}`);
      const embedded = await server.app.inject({ method: 'GET', url: `/api/v3${path}` });
      expect(embedded.statusCode, path).toBe(pg.status);
      expect(JSON.parse(embedded.body), path).toEqual(pg.body);
    }
  });
});
