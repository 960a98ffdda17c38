// A devnet node with activity (real node, fast blocks, temp dir), indexed masterchain block by masterchain block
// through the lite source into PGlite and into PostgreSQL. Checked against the chain through a separate
// ton-lite-client connection, never against our writer: the set of blocks (each shard chain walked back from the
// tops every masterchain block lists), the set of transactions (liteServer.listBlockTransactions of each block),
// each transaction's fields (the transaction BoC from getOneTransaction, decoded by @ton/core), message hashes,
// opcodes, bodies and values, and every account's balance and state hash at the head (getAccountState). A re-run
// changes no row; the devnet store source gives the same checksum as the lite source.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, Cell, Dictionary, loadAccount, loadTransaction } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTongateError } from '../../src/common/index.ts';
import { migrate } from '../../src/db/index.ts';
import { CORE_CYCLE, startActivity } from '../../src/devnet/activity/index.ts';
import { createDevnetNode, type DevnetInfo, type DevnetNode } from '../../src/devnet/node/index.ts';
import {
  type BlockSource,
  createDevnetStoreSource,
  createLiteSource,
  indexedSeqnos,
  indexMcBlock,
} from '../../src/index/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig } from '../../src/lite/index.ts';
import { listShards, loadBlockCell, prevBlockIds } from '../../src/ton/index.ts';
import { setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { checksums } from '../helpers/index-checksums.ts';

const SEED = 'index-devnet';
const MC = '-9223372036854775808';
let dir: string;
let node: DevnetNode;
let info: DevnetInfo;
let pool: LitePool;
let engine: LiteSingleEngine;
let client: LiteClient;
let head: number;
const dbs: TestDatabase[] = [];

type Id = tonNode_blockIdExt;
const key = (id: { workchain: number; shard: string | bigint; seqno: number }) =>
  `${id.workchain}:${BigInt.asIntN(64, BigInt(id.shard))}:${id.seqno}`;
const b64 = (b: Buffer) => b.toString('base64');
const raw = (wc: number, hash: Buffer) => `${wc}:${hash.toString('hex').toUpperCase()}`;

/** The chain as a separate client sees it: every block committed by masterchain blocks 1..head, and its txs. */
interface Reference {
  blocks: Map<string, { id: Id; mcSeqno: number }>;
  txs: Array<{ account: string; lt: string; hash: string; block: Id; addr: Address }>;
}
let ref: Reference;

async function getBlock(id: Id) {
  const r = await engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id });
  return loadBlockCell(Cell.fromBoc(Buffer.from(r.data))[0]!);
}

async function buildReference(): Promise<Reference> {
  const blocks = new Map<string, { id: Id; mcSeqno: number }>();
  for (let n = 1; n <= head; n++) {
    const mcId = (await client.lookupBlockByID({ workchain: -1, shard: MC, seqno: n })).id;
    blocks.set(key(mcId), { id: mcId, mcSeqno: n });
    const mc = await getBlock(mcId);
    const pending: Id[] = listShards(mc.extra.custom!.shardHashes).map((s) => ({
      kind: 'tonNode.blockIdExt',
      workchain: s.workchain,
      shard: BigInt.asIntN(64, s.shard).toString(),
      seqno: s.descr.seqNo,
      rootHash: s.descr.rootHash,
      fileHash: s.descr.fileHash,
    }));
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (id.seqno === 0 || blocks.has(key(id))) continue;
      blocks.set(key(id), { id, mcSeqno: n });
      const b = await getBlock(id);
      for (const p of prevBlockIds(b.info)) {
        pending.push({ kind: 'tonNode.blockIdExt', ...p, shard: BigInt.asIntN(64, p.shard).toString() });
      }
    }
  }
  const txs: Reference['txs'] = [];
  for (const { id } of blocks.values()) {
    let after: { kind: 'liteServer.transactionId3'; account: Buffer; lt: string } | null = null;
    for (;;) {
      const r = await client.listBlockTransactions(id, { mode: 7 | (after ? 128 : 0), count: 256, after });
      for (const t of r.ids) {
        txs.push({
          account: raw(id.workchain, t.account!),
          lt: String(t.lt),
          hash: b64(t.hash!),
          block: id,
          addr: new Address(id.workchain, t.account!),
        });
      }
      if (!r.incomplete || r.ids.length === 0) break;
      const last = r.ids.at(-1)!;
      after = { kind: 'liteServer.transactionId3', account: last.account!, lt: String(last.lt) };
    }
  }
  return { blocks, txs };
}

/** Index 1..head as the queue would: a retryable failure (a liteserver slow under the test's load) is retried. */
async function indexRange(source: BlockSource, t: TestDatabase) {
  for (let n = 1; n <= head; n++) {
    for (let attempt = 1; ; attempt++) {
      try {
        await indexMcBlock(n, { source, db: t.db });
        break;
      } catch (e) {
        if (!isTongateError(e) || !e.retryable || attempt >= 5) throw e;
        await pool.ready({ timeoutMs: 30_000 });
      }
    }
  }
}

async function freshDb(kind: 'pglite' | 'postgres') {
  const t = await setupDatabase(kind);
  dbs.push(t);
  await migrate(t.db);
  return t;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tongate-index-'));
  node = createDevnetNode({ dataDir: dir, litePort: 0, httpPort: 0, blockIntervalMs: 100, sync: false, seed: SEED });
  info = await node.start();
  const handle = await startActivity({
    liteConfig: info.globalConfigFile,
    wallets: info.walletsFile,
    seed: SEED,
    cycle: CORE_CYCLE,
    steps: CORE_CYCLE.length,
    intervalMs: 0,
    pollMs: 100,
    stepTimeoutMs: 60_000,
  });
  const counters = await handle.done;
  expect(counters.failed).toBe(0);
  pool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers });
  engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${info.litePort}`, publicKey: info.liteServerPublicKey });
  engine.on('error', () => {});
  await new Promise((resolve) => engine.once('ready', resolve));
  client = new LiteClient({ engine, cacheMap: 0 });
  head = (await client.getMasterchainInfo()).last.seqno;
  ref = await buildReference();
}, 600_000);

afterAll(async () => {
  for (const t of dbs) await t.cleanup();
  engine?.close();
  await pool?.close();
  await node?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(['pglite', 'postgres'] as const)('devnet through the lite source into %s', (kind) => {
  let t: TestDatabase;
  let source: BlockSource;

  beforeAll(async () => {
    t = await freshDb(kind);
    source = createLiteSource(pool);
    await indexRange(source, t);
  }, 600_000);

  it('has a checkpoint for every masterchain block and exactly the chain blocks', async () => {
    expect(await indexedSeqnos(t.db, 1, head)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    const r = await t.db.query<{
      workchain: number;
      shard: string;
      seqno: number;
      root_hash: string;
      mc_block_seqno: number;
    }>('SELECT workchain, shard::text AS shard, seqno, root_hash, mc_block_seqno FROM blocks');
    expect(r.rowCount).toBe(ref.blocks.size);
    for (const row of r.rows) {
      const want = ref.blocks.get(key(row));
      expect(want, key(row)).toBeDefined();
      expect(row.root_hash).toBe(b64(want!.id.rootHash));
      expect(row.mc_block_seqno).toBe(want!.mcSeqno);
    }
    expect(ref.blocks.size).toBeGreaterThan(head); // shard blocks too
  });

  it('has every transaction of the chain exactly once', async () => {
    const r = await t.db.query<{ account: string; lt: string; hash: string }>(
      'SELECT account, lt::text AS lt, hash FROM transactions',
    );
    const got = r.rows.map((x) => `${x.account}/${x.lt}/${x.hash}`).sort();
    const want = ref.txs.map((x) => `${x.account}/${x.lt}/${x.hash}`).sort();
    expect(got).toEqual(want);
    expect(new Set(got).size).toBe(got.length);
    expect(want.length).toBeGreaterThan(30);
  });

  it('stores each transaction and its messages as the chain has them', async () => {
    const txRows = new Map(
      (
        await t.db.query<Record<string, unknown>>(
          `SELECT hash, lt::text AS lt, account, now::text AS now, total_fees::text AS total_fees, orig_status, end_status,
                  prev_trans_lt::text AS prev_trans_lt, prev_trans_hash, account_state_hash_after, block_seqno
           FROM transactions`,
        )
      ).rows.map((x) => [x.hash as string, x]),
    );
    let opcodes = 0;
    for (const want of ref.txs) {
      const info = await client.getAccountTransaction(want.addr, want.lt, want.block);
      const cell = Cell.fromBoc(Buffer.from(info.transaction))[0]!;
      const tx = loadTransaction(cell.beginParse());
      const row = txRows.get(b64(cell.hash()))!;
      expect(row, want.hash).toBeDefined();
      expect(row.lt).toBe(tx.lt.toString());
      expect(row.now).toBe(String(tx.now));
      expect(row.total_fees).toBe(tx.totalFees.coins.toString());
      expect(row.prev_trans_lt).toBe(tx.prevTransactionLt.toString());
      expect(row.prev_trans_hash).toBe(b64(Buffer.from(tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex')));
      expect(row.account_state_hash_after).toBe(b64(Buffer.from(tx.stateUpdate.newHash)));
      expect(row.block_seqno).toBe(want.block.seqno);
      // Messages: the raw cells of in_msg and out_msgs (Transaction ^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ]).
      const io = cell.refs[0]!.beginParse();
      const inCell = io.loadBit() ? io.loadRef() : null;
      const outs = Dictionary.load(Dictionary.Keys.Uint(15), Dictionary.Values.Cell(), io).values();
      const msgs = await t.db.query<Record<string, unknown>>(
        `SELECT m.msg_hash, m.direction, m.opcode, m.body_hash, m.value::text AS value, m.source, m.destination, c.body
         FROM messages m LEFT JOIN message_contents c ON c.hash = m.body_hash WHERE m.tx_hash = $1 AND m.tx_lt = $2`,
        [row.hash, row.lt],
      );
      const byHash = new Map(msgs.rows.map((m) => [`${m.direction}/${m.msg_hash}`, m]));
      expect(msgs.rowCount).toBe((inCell ? 1 : 0) + outs.length);
      const check = (c: Cell, dir: 'in' | 'out', parsed: NonNullable<typeof tx.inMessage>) => {
        const m = byHash.get(`${dir}/${b64(c.hash())}`)!;
        expect(m, `${dir} message of ${want.hash}`).toBeDefined();
        const body = parsed.body;
        expect(m.body_hash).toBe(b64(body.hash()));
        expect(b64(Cell.fromBoc(Buffer.from(m.body as string, 'base64'))[0]!.hash())).toBe(b64(body.hash()));
        const s = body.beginParse();
        expect(m.opcode).toBe(s.remainingBits >= 32 ? s.loadInt(32) : null);
        if (m.opcode !== null) opcodes++;
        if (parsed.info.type === 'internal') {
          expect(m.value).toBe(parsed.info.value.coins.toString());
          expect(m.source).toBe(parsed.info.src.toRawString().toUpperCase());
          expect(m.destination).toBe(parsed.info.dest.toRawString().toUpperCase());
        } else {
          expect(m.value).toBeNull();
        }
      };
      if (inCell) check(inCell, 'in', tx.inMessage!);
      const parsedOuts = tx.outMessages.values();
      for (const [i, c] of outs.entries()) check(c, 'out', parsedOuts[i]!);
    }
    expect(opcodes).toBeGreaterThan(0);
  }, 600_000);

  it('has every account balance and state hash the chain has at the head', async () => {
    const mcId = (await client.lookupBlockByID({ workchain: -1, shard: MC, seqno: head })).id;
    const rows = await t.db.query<{ account: string; balance: string; hash: string; account_status: string }>(
      'SELECT account, balance::text AS balance, hash, account_status FROM latest_account_states',
    );
    const accounts = new Set(ref.txs.map((x) => x.account));
    expect(rows.rowCount).toBe(accounts.size);
    for (const r of rows.rows) {
      const a = Address.parseRaw(r.account);
      const st = await engine.query(Functions.liteServer_getAccountState, {
        kind: 'liteServer.getAccountState',
        id: mcId,
        account: { kind: 'liteServer.accountId', workchain: a.workChain, id: a.hash },
      });
      const cell = st.state.length > 0 ? Cell.fromBoc(Buffer.from(st.state))[0]! : null;
      if (!cell) {
        expect(r.account_status).toBe('nonexist');
        continue;
      }
      expect(r.hash, r.account).toBe(b64(cell.hash()));
      const s = cell.beginParse();
      const acc = s.loadBit() ? loadAccount(s) : null;
      expect(r.balance, r.account).toBe((acc?.storage.balance.coins ?? 0n).toString());
    }
  }, 300_000);

  it('re-running the range skips, and a forced replace gives identical rows', async () => {
    const before = await checksums(t.db);
    for (let n = 1; n <= head; n++) expect((await indexMcBlock(n, { source, db: t.db })).skipped).toBe(true);
    for (let n = head; n >= 1; n--) await indexMcBlock(n, { source, db: t.db, replace: true });
    expect(await checksums(t.db)).toEqual(before);
  }, 600_000);
});

describe('devnet store source', () => {
  it('gives the same checksum as the lite source, on both back ends', async () => {
    const [a, b] = [dbs[0]!, dbs[1]!];
    const lite = await checksums(a.db);
    expect(await checksums(b.db)).toEqual(lite);
    const t = await freshDb('pglite');
    const store = await createDevnetStoreSource(info.devnetDir, { fallback: createLiteSource(pool) });
    await indexRange(store, t);
    expect(await checksums(t.db)).toEqual(lite);
    // Without a liteserver, states come from the blocks' state updates: the same account_states rows.
    const t2 = await freshDb('pglite');
    const bare = await createDevnetStoreSource(info.devnetDir);
    await indexRange(bare, t2);
    const sums = await checksums(t2.db);
    for (const table of ['blocks', 'shard_state', 'transactions', 'messages', 'message_contents', 'account_states']) {
      expect(sums[table], table).toEqual(lite[table]);
    }
  }, 600_000);
});
