// The contract decoders end to end (issue 9): a devnet runs the whole activity cycle (our Tolk jetton and NFT,
// multisig v2, DNS, a governed jetton, vesting, tonweb's standard NFT, a highload wallet), its blocks are indexed
// with the decoders into PGlite and PostgreSQL, and the rows are checked against the contracts' own get-methods
// run by the liteserver at the indexed block (an independent ton-lite-client), against the activity's ledger,
// between the two back ends, and against `rederive` over an index that was built without decoders.
import { Address, Cell, parseTuple, type TupleItem, TupleReader } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, buildApiServer } from '../../src/api/build.ts';
import { librariesFrom } from '../../src/app.ts';
import { isTongateError } from '../../src/common/index.ts';
import { migrate, type Queryable } from '../../src/db/index.ts';
import { ACTIVITY_CYCLE, type ActivityLedger, devnetDnsRoots } from '../../src/devnet/activity/index.ts';
import { classifyMcBlock, expandSupported, isShown } from '../../src/index/actions/index.ts';
import { createContractsEnv } from '../../src/index/contracts/index.ts';
import { rederive } from '../../src/index/contracts/rederive.ts';
import { createLiteSource, indexMcBlock } from '../../src/index/index.ts';
import { assembleTraces } from '../../src/index/traces/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig } from '../../src/lite/index.ts';
import { type Kind, setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { type DevnetChain, startDevnetChain } from '../helpers/devnet-chain.ts';
import { CONTRACT_TABLES, checksums } from '../helpers/index-checksums.ts';
import { validateV3 } from '../helpers/openapi-validator.ts';

const MC_SHARD = '-9223372036854775808';

let chain: DevnetChain;
let ledger: ActivityLedger;
let pool: LitePool;
let engine: LiteSingleEngine;
let lite: LiteClient;
let head: number;
const dbs = new Map<string, TestDatabase>();

async function indexInto(kind: Kind, decoders: boolean, order: 'up' | 'down' = 'up'): Promise<TestDatabase> {
  const t = await setupDatabase(kind);
  await migrate(t.db);
  const source = createLiteSource(pool);
  const contracts = decoders
    ? await createContractsEnv({ db: t.db, dnsRoots: devnetDnsRoots(), libraries: (h) => librariesFrom(pool, h) })
    : undefined;
  try {
    const seqnos = Array.from({ length: head }, (_, i) => i + 1);
    if (order === 'down') seqnos.reverse();
    for (const n of seqnos) {
      // Retryable failures (a liteserver slow under load) are retried, as the queue worker does.
      for (let attempt = 1; ; attempt++) {
        try {
          await indexMcBlock(n, { source, db: t.db, ...(contracts ? { contracts } : {}) });
          break;
        } catch (e) {
          if (attempt >= 5 || !isTongateError(e) || !e.retryable) throw e;
          await new Promise((r) => setTimeout(r, 1000 * attempt));
        }
      }
    }
  } finally {
    await contracts?.close();
  }
  // Then what the workers do after each block: trace assembly (in masterchain order whatever the indexing order)
  // and classification of the traces each block finished.
  await assembleTraces(t.db);
  for (let n = 1; n <= head; n++) await classifyMcBlock(n, { db: t.db });
  return t;
}

beforeAll(async () => {
  chain = await startDevnetChain({ seed: 'contracts-e2e', steps: ACTIVITY_CYCLE.length, cycle: ACTIVITY_CYCLE });
  ledger = chain.ledger!;
  pool = createLitePool({ servers: (await loadGlobalConfig(chain.info.globalConfigFile)).liteservers });
  await pool.ready({ timeoutMs: 10_000 });
  head = (await pool.getMasterchainInfo()).last.seqno;
  engine = new LiteSingleEngine({
    host: `tcp://127.0.0.1:${chain.info.litePort}`,
    publicKey: chain.info.liteServerPublicKey,
  });
  engine.on('error', () => {});
  await new Promise((resolve) => engine.once('ready', resolve));
  lite = new LiteClient({ engine, cacheMap: 0 });
  dbs.set('pglite', await indexInto('pglite', true));
  dbs.set('postgres', await indexInto('postgres', true));
  dbs.set('bare', await indexInto('pglite', false));
  dbs.set('reversed', await indexInto('pglite', true, 'down'));
}, 900_000);

afterAll(async () => {
  for (const t of dbs.values()) await t.cleanup();
  engine?.close();
  await pool?.close();
  await chain?.node.stop();
});

const db = (): Queryable => dbs.get('pglite')!.db;

/** A get-method run by the liteserver at the indexed head (the chain's answer, not ours); one retry on a timeout. */
let headId: Awaited<ReturnType<LiteClient['lookupBlockByID']>>['id'] | undefined;
async function getter(address: string, method: string): Promise<TupleItem[]> {
  // lookupBlockByID has the client's fixed 5 s deadline: one retry, as for the getters.
  const lookup = () => lite.lookupBlockByID({ seqno: head, shard: MC_SHARD, workchain: -1 });
  headId ??= (await lookup().catch(lookup)).id;
  // the client's default 5 s query deadline is short for a liteserver sharing a loaded CI box with other test files
  const run = () => lite.runMethod(Address.parseRaw(address), method, Buffer.alloc(0), headId!, { timeout: 30_000 });
  const r = await run().catch(run);
  expect(r.exitCode, `${method} on ${address}`).toBe(0);
  return r.result ? parseTuple(Cell.fromBase64(r.result)) : [];
}

const raw = (a: Address | null) => (a ? a.toRawString().toUpperCase() : null);
const rawOf = (r: TupleReader) => raw(r.readAddressOpt());

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db().query<T & Record<string, unknown>>(sql, params)).rows;
}

// Getter checks make one liteserver round trip per contract: more than the default 5 s on a loaded CI box.
describe('contract decoders on a devnet index', { timeout: 120_000 }, () => {
  it('fills every family the activity exercised', async () => {
    const counts: Record<string, number> = {};
    for (const { table } of CONTRACT_TABLES) {
      counts[table] = Number((await rows<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`))[0]!.n);
    }
    for (const t of [
      'contract_methods',
      'jetton_masters',
      'jetton_wallets',
      'jetton_transfers',
      'jetton_burns',
      'jetton_mints',
      'nft_collections',
      'nft_items',
      'nft_transfers',
      'dns_entries',
      'multisig',
      'multisig_orders',
      'vesting_contracts',
      'getgems_nft_sales',
    ]) {
      expect(counts[t], `${t}: ${JSON.stringify(counts)}`).toBeGreaterThan(0);
    }
  });

  it('GetGems sales hold what get_sale_data says; the activity sold each one it listed', async () => {
    const sales = ledger.standard.nftSales;
    expect(sales.length).toBeGreaterThan(0);
    for (const s of sales) {
      const at = raw(s.address)!;
      const [row] = await rows<Record<string, unknown>>('SELECT * FROM getgems_nft_sales WHERE address = $1', [at]);
      expect(row, at).toBeDefined();
      const r = new TupleReader(await getter(at, 'get_sale_data'));
      expect(r.readBigNumber()).toBe(0x46495850n);
      expect({
        is_complete: row!.is_complete,
        created_at: BigInt(row!.created_at as bigint),
        marketplace_address: row!.marketplace_address,
        nft_address: row!.nft_address,
        nft_owner_address: row!.nft_owner_address,
        full_price: row!.full_price,
        marketplace_fee_address: row!.marketplace_fee_address,
        marketplace_fee: row!.marketplace_fee,
        royalty_address: row!.royalty_address,
        royalty_amount: row!.royalty_amount,
      }).toEqual({
        is_complete: r.readBoolean(),
        created_at: r.readBigNumber(),
        marketplace_address: rawOf(r),
        nft_address: rawOf(r),
        nft_owner_address: rawOf(r),
        full_price: r.readBigNumber().toString(),
        marketplace_fee_address: rawOf(r),
        marketplace_fee: r.readBigNumber().toString(),
        royalty_address: rawOf(r),
        royalty_amount: r.readBigNumber().toString(),
      });
      // And what the activity did: listed by its seller at its price, and bought.
      expect([row!.nft_owner_address, row!.full_price, row!.is_complete]).toEqual([
        raw(s.seller),
        s.price.toString(),
        s.buy !== null,
      ]);
    }
  });

  it('jetton wallets hold what get_wallet_data says at the indexed block', async () => {
    const wallets = await rows<{ address: string; balance: string; owner: string; jetton: string }>(
      'SELECT address, balance::text AS balance, owner, jetton FROM jetton_wallets',
    );
    expect(wallets.length).toBeGreaterThan(0);
    for (const w of wallets) {
      const r = new TupleReader(await getter(w.address, 'get_wallet_data'));
      expect(r.readBigNumber().toString(), w.address).toBe(w.balance);
      expect(rawOf(r)).toBe(w.owner);
      expect(rawOf(r)).toBe(w.jetton);
    }
  });

  it('jetton masters hold what get_jetton_data says', async () => {
    const masters = await rows<{ address: string; total_supply: string; mintable: boolean; admin_address: string }>(
      'SELECT address, total_supply::text AS total_supply, mintable, admin_address FROM jetton_masters',
    );
    expect(masters.length).toBeGreaterThanOrEqual(ledger.jettons.length);
    for (const m of masters) {
      const r = new TupleReader(await getter(m.address, 'get_jetton_data'));
      expect(r.readBigNumber().toString(), m.address).toBe(m.total_supply);
      expect(r.readBigNumber() !== 0n).toBe(m.mintable);
      expect(rawOf(r)).toBe(m.admin_address);
    }
  });

  it('NFT items have the owners get_nft_data gives', async () => {
    const items = await rows<{ address: string; index: string; collection_address: string; owner_address: string }>(
      'SELECT address, index::text AS index, collection_address, owner_address FROM nft_items',
    );
    expect(items.length).toBeGreaterThan(0);
    for (const i of items) {
      const r = new TupleReader(await getter(i.address, 'get_nft_data'));
      expect(r.readBoolean()).toBe(true);
      expect(r.readBigNumber().toString()).toBe(i.index);
      expect(rawOf(r)).toBe(i.collection_address);
      expect(rawOf(r)).toBe(i.owner_address);
    }
  });

  it('multisig wallets and orders hold what their getters say', async () => {
    const ms = await rows<{ address: string; next_order_seqno: string; threshold: string }>(
      'SELECT address, next_order_seqno::text AS next_order_seqno, threshold::text AS threshold FROM multisig',
    );
    expect(ms.length).toBeGreaterThan(0);
    for (const m of ms) {
      const r = new TupleReader(await getter(m.address, 'get_multisig_data'));
      expect(r.readBigNumber().toString()).toBe(m.next_order_seqno);
      expect(r.readBigNumber().toString()).toBe(m.threshold);
    }
    const orders = await rows<{
      address: string;
      multisig_address: string;
      order_seqno: string;
      sent_for_execution: boolean;
      approvals_num: string;
    }>(
      `SELECT address, multisig_address, order_seqno::text AS order_seqno, sent_for_execution,
              approvals_num::text AS approvals_num FROM multisig_orders`,
    );
    expect(orders.length).toBeGreaterThan(0);
    for (const o of orders) {
      const r = new TupleReader(await getter(o.address, 'get_order_data'));
      expect(rawOf(r)).toBe(o.multisig_address);
      expect(r.readBigNumber().toString()).toBe(o.order_seqno);
      r.readBigNumber(); // threshold
      expect(r.readBoolean()).toBe(o.sent_for_execution);
      r.readCell(); // signers
      r.readBigNumber(); // approvals mask
      expect(r.readBigNumber().toString()).toBe(o.approvals_num);
    }
  });

  it('vesting contracts hold what get_vesting_data says', async () => {
    const vs = await rows<{ address: string; vesting_total_amount: string; owner_address: string }>(
      'SELECT address, vesting_total_amount::text AS vesting_total_amount, owner_address FROM vesting_contracts',
    );
    expect(vs.length).toBeGreaterThan(0);
    for (const v of vs) {
      const r = new TupleReader(await getter(v.address, 'get_vesting_data'));
      for (let i = 0; i < 4; i++) r.readBigNumber();
      expect(r.readBigNumber().toString()).toBe(v.vesting_total_amount);
      r.readAddress(); // sender
      expect(rawOf(r)).toBe(v.owner_address);
    }
  });

  it('DNS entries are the names the activity registered', async () => {
    const entries = await rows<{ nft_item_address: string; domain: string; nft_item_owner: string }>(
      'SELECT nft_item_address, domain, nft_item_owner FROM dns_entries',
    );
    const byItem = new Map(entries.map((e) => [e.nft_item_address, e]));
    expect(ledger.dns.domains.length).toBeGreaterThan(0);
    for (const d of ledger.dns.domains) {
      const e = byItem.get(raw(d.item)!);
      expect(e, d.domain).toBeDefined();
      expect(e!.domain).toBe(d.domain);
    }
  });

  it('jetton transfers carry the amount of the internal_transfer their wallet sent (read raw)', async () => {
    const transfers = await rows<{ tx_hash: string; tx_lt: string; amount: string; query_id: string }>(
      'SELECT tx_hash, tx_lt::text AS tx_lt, amount::text AS amount, query_id::text AS query_id FROM jetton_transfers',
    );
    expect(transfers.length).toBeGreaterThan(0);
    let checked = 0;
    for (const t of transfers) {
      const out = await rows<{ body: string }>(
        `SELECT c.body FROM messages m JOIN message_contents c ON c.hash = m.body_hash
          WHERE m.tx_hash = $1 AND m.tx_lt = $2 AND m.direction = 'out' AND m.opcode = $3`,
        [t.tx_hash, t.tx_lt, 0x178d4519],
      );
      if (out.length === 0) continue; // an aborted or refused transfer sends none
      const b = Cell.fromBase64(out[0]!.body).beginParse();
      b.loadUint(32);
      expect(b.loadUintBig(64).toString()).toBe(t.query_id);
      expect(b.loadCoins().toString()).toBe(t.amount);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('every jetton the activity minted has mint rows, from its own master', async () => {
    const masters = [...ledger.jettons, ...ledger.governedJettons, ...ledger.standard.jettons].map((j) =>
      raw(j.master),
    );
    expect(masters.length).toBeGreaterThan(2);
    for (const m of masters) {
      const r = await rows<{ n: string }>(
        'SELECT count(*)::text AS n FROM jetton_mints WHERE jetton_master_address = $1 AND minter = $1',
        [m],
      );
      expect(Number(r[0]!.n), m!).toBeGreaterThan(0);
    }
  });

  it('NFT transfers name the new owner their transfer body names (read raw)', async () => {
    const ts = await rows<{ tx_hash: string; tx_lt: string; new_owner: string; nft_item_address: string }>(
      'SELECT tx_hash, tx_lt::text AS tx_lt, new_owner, nft_item_address FROM nft_transfers',
    );
    expect(ts.length).toBeGreaterThan(0);
    for (const t of ts) {
      const inm = await rows<{ body: string; destination: string }>(
        `SELECT c.body, m.destination FROM messages m JOIN message_contents c ON c.hash = m.body_hash
          WHERE m.tx_hash = $1 AND m.tx_lt = $2 AND m.direction = 'in'`,
        [t.tx_hash, t.tx_lt],
      );
      expect(inm[0]!.destination).toBe(t.nft_item_address);
      const b = Cell.fromBase64(inm[0]!.body).beginParse();
      expect(b.loadUint(32)).toBe(0x5fcc3d14);
      b.loadUintBig(64);
      expect(raw(b.loadAddress())).toBe(t.new_owner);
    }
  });

  it('PostgreSQL and PGlite hold the same contract rows', async () => {
    const a = await checksums(dbs.get('pglite')!.db, CONTRACT_TABLES);
    const b = await checksums(dbs.get('postgres')!.db, CONTRACT_TABLES);
    expect(b).toEqual(a);
  });

  it('masterchain blocks indexed newest first leave the same rows (latest states move only forward)', async () => {
    const a = await checksums(dbs.get('pglite')!.db, CONTRACT_TABLES);
    const b = await checksums(dbs.get('reversed')!.db, CONTRACT_TABLES);
    expect(b).toEqual(a);
  });

  it('rederive after an older decoder wrote different rows restores the rows a fresh index has', async () => {
    const pg = dbs.get('postgres')!.db;
    // What a worse decoder might have left: wrong balances and content, a missing transfer, a stray item.
    await pg.query('UPDATE jetton_wallets SET balance = 0');
    await pg.query("UPDATE jetton_masters SET jetton_content = '{}'::jsonb");
    await pg.query('DELETE FROM nft_transfers WHERE tx_lt = (SELECT max(tx_lt) FROM nft_transfers)');
    await pg.query(
      `INSERT INTO nft_items (address, init, index, collection_address, owner_address, content, last_transaction_lt, code_hash, data_hash)
       SELECT account, true, 7, NULL, NULL, NULL, last_trans_lt, code_hash, data_hash
         FROM latest_account_states WHERE code_hash IS NOT NULL AND data_hash IS NOT NULL
          AND account NOT IN (SELECT address FROM nft_items) LIMIT 1`,
    );
    expect(await checksums(pg, CONTRACT_TABLES)).not.toEqual(await checksums(db(), CONTRACT_TABLES));
    const env = await createContractsEnv({ db: pg, dnsRoots: devnetDnsRoots() });
    try {
      await rederive({ db: pg, env, families: ['jetton', 'nft', 'dns', 'multisig', 'vesting'] });
    } finally {
      await env.close();
    }
    expect(await checksums(pg, CONTRACT_TABLES)).toEqual(await checksums(db(), CONTRACT_TABLES));
  });

  it('rederive over an index built without decoders gives the rows of a fresh index', async () => {
    const bare = dbs.get('bare')!.db;
    const empty = await checksums(bare, CONTRACT_TABLES);
    expect(empty.jetton_wallets!.rows).toBe(0);
    const env = await createContractsEnv({ db: bare, dnsRoots: devnetDnsRoots() });
    try {
      await rederive({ db: bare, env, families: ['jetton', 'nft', 'dns', 'multisig', 'vesting'] });
    } finally {
      await env.close();
    }
    const fresh = await checksums(dbs.get('pglite')!.db, CONTRACT_TABLES);
    const derived = await checksums(bare, CONTRACT_TABLES);
    expect(derived).toEqual(fresh);
  });
});

describe('contract endpoints over the devnet index', () => {
  let server: ApiServer;
  let base: string;
  beforeAll(async () => {
    server = await buildApiServer({ db: dbs.get('pglite')!.db, maxLimit: 1000 });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = server.app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function get(route: string, query: Record<string, string>) {
    const res = await fetch(`${base}/api/v3${route}?${new URLSearchParams(query)}`);
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, `${route} ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
    expect(validateV3('get', `/api/v3${route}`, 200, body), route).toEqual([]);
    return body;
  }

  const one = async (sql: string) => (await rows<Record<string, string>>(sql))[0]!;

  it('every endpoint answers with what the tables hold, in the OpenAPI shape', async () => {
    const w = await one('SELECT address, owner, jetton FROM jetton_wallets ORDER BY balance DESC LIMIT 1');
    const wallets = (await get('/jetton/wallets', { owner_address: w.owner! })).jetton_wallets as unknown[];
    expect(wallets.length).toBeGreaterThan(0);
    const masters = (await get('/jetton/masters', { address: w.jetton! })).jetton_masters as Array<{ address: string }>;
    expect(masters.map((m) => m.address)).toEqual([w.jetton]);
    expect(
      ((await get('/jetton/transfers', { jetton_master: w.jetton! })).jetton_transfers as unknown[]).length,
    ).toBeGreaterThan(0);
    await get('/jetton/burns', { limit: '50' });
    const item = await one('SELECT address, owner_address, collection_address FROM nft_items LIMIT 1');
    const items = (await get('/nft/items', { collection_address: item.collection_address! })).nft_items as unknown[];
    expect(items.length).toBeGreaterThan(0);
    await get('/nft/collections', { collection_address: item.collection_address! });
    await get('/nft/transfers', { item_address: item.address! });
    const d = ledger.dns.domains[0]!;
    const records = (await get('/dns/records', { domain: d.domain })).records as Array<{ nft_item_address: string }>;
    expect(records.map((r) => r.nft_item_address)).toEqual([raw(d.item)]);
    const ms = await one('SELECT address FROM multisig LIMIT 1');
    const multisigs = (await get('/multisig/wallets', { address: ms.address! })).multisigs as Array<{
      orders: unknown[];
    }>;
    expect(multisigs[0]!.orders.length).toBeGreaterThan(0);
    await get('/multisig/orders', { multisig_address: ms.address!, parse_actions: 'true' });
    const v = await one('SELECT address FROM vesting_contracts LIMIT 1');
    expect(((await get('/vesting', { contract_address: v.address! })).vesting_contracts as unknown[]).length).toBe(1);
    for (const s of ledger.standard.nftSales) {
      const sales = (await get('/nft/sales', { address: s.address.toString() })).nft_sales as Array<
        Record<string, unknown>
      >;
      expect(sales.map((x) => [x.type, x.address, x.nft_address, x.nft_owner_address])).toEqual([
        ['getgems_sale', raw(s.address), raw(s.item), raw(s.seller)],
      ]);
      expect(sales[0]!.details).toMatchObject({ is_complete: s.buy !== null, full_price: s.price.toString() });
    }
    const book = (await get('/addressBook', { address: w.address! })) as Record<string, { interfaces: string[] }>;
    expect(book[w.address!]!.interfaces).toContain('jetton_wallet');
    await get('/metadata', { address: w.jetton! });
  });
});

// --- actions -----------------------------------------------------------------------------------------

interface ActionRow {
  trace_id: string;
  action_id: string;
  type: string;
  success: boolean;
  tx_hashes: string[];
  details: Record<string, unknown>;
  ancestor_type: string[];
  parent_action_id: string | null;
}

async function actionsOf(type: string): Promise<ActionRow[]> {
  return rows<ActionRow>(
    `SELECT trace_id, action_id, type, success, tx_hashes::text[] AS tx_hashes, details, ancestor_type::text[] AS ancestor_type,
            parent_action_id FROM actions WHERE type = $1`,
    [type],
  );
}

/** Event rows whose trace is final (the last steps' traces can still have a message in flight at the head). */
const FINAL =
  'EXISTS (SELECT 1 FROM transactions x JOIN traces tr ON tr.trace_id = x.trace_id WHERE x.hash = tx_hash AND tr.pending_edges_ = 0)';

const TRACE_TABLES = ['traces', 'actions', 'action_accounts'].map((table) => ({ table, exclude: [] as string[] }));

describe('traces and actions of the activity', () => {
  it('every trace is complete and classified; no trace is broken', async () => {
    const states = await rows<{ state: string; classification_state: string; n: number }>(
      'SELECT state, classification_state, count(*)::int AS n FROM traces GROUP BY 1, 2 ORDER BY 1, 2',
    );
    expect(states.find((r) => r.state === 'broken')).toBeUndefined();
    // A trace still pending at the head has a message no indexed transaction received yet.
    const pending = await rows<{ trace_id: string; unreceived: number }>(
      `SELECT t.trace_id, count(m.msg_hash)::int AS unreceived FROM traces t
         JOIN messages m ON m.trace_id = t.trace_id AND m.direction = 'out' AND m.destination IS NOT NULL
        WHERE t.state = 'pending'
          AND NOT EXISTS (SELECT 1 FROM messages r WHERE r.msg_hash = m.msg_hash AND r.direction = 'in')
        GROUP BY 1`,
    );
    const pendingTotal = states.filter((r) => r.state === 'pending').reduce((a, r) => a + r.n, 0);
    expect(pending.length).toBe(pendingTotal);
    const complete = states.filter((r) => r.state === 'complete');
    expect(complete.map((r) => r.classification_state)).toEqual(['ok']);
    expect(complete[0]!.n).toBeGreaterThan(20);
    const untraced = await rows<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE trace_id IS NULL');
    expect(untraced[0]!.n).toBe(0);
  });

  it('PostgreSQL, PGlite and blocks indexed newest first give the same traces and actions', async () => {
    const a = await checksums(dbs.get('pglite')!.db, TRACE_TABLES);
    expect(a.actions!.rows).toBeGreaterThan(50);
    expect(await checksums(dbs.get('postgres')!.db, TRACE_TABLES)).toEqual(a);
    expect(await checksums(dbs.get('reversed')!.db, TRACE_TABLES)).toEqual(a);
  });

  it('each TON transfer, bounce and failed call of the activity is its action', async () => {
    const transfers = await actionsOf('ton_transfer');
    for (const t of ledger.transfers) {
      const found = transfers.filter(
        (a) =>
          a.details.source === raw(t.from) &&
          a.details.destination === raw(t.to) &&
          a.details.value === t.value.toString(),
      );
      expect(found.length, `transfer of step ${t.step}`).toBeGreaterThanOrEqual(1);
      expect(found.some((a) => a.success && (t.comment === '' || a.details.comment === t.comment))).toBe(true);
    }
    expect(ledger.bounces.length).toBeGreaterThan(0);
    for (const b of ledger.bounces) {
      const failed = transfers.filter(
        (a) => a.details.source === raw(b.from) && a.details.destination === raw(b.to) && !a.success,
      );
      expect(failed.length, `bounce of step ${b.step}`).toBeGreaterThanOrEqual(1);
      // The bounce came back to the sender inside the same action.
      expect(failed[0]!.tx_hashes.length).toBe(3);
    }
    const calls = await actionsOf('call_contract');
    for (const f of ledger.failedComputes) {
      expect(
        calls.some((a) => a.details.source === raw(f.from) && a.details.destination === raw(f.to) && !a.success),
        `failed compute of step ${f.step}`,
      ).toBe(true);
    }
  });

  it('each jetton transfer, burn and mint row is one action with its details', async () => {
    const byTx = new Map<string, ActionRow[]>();
    for (const type of ['jetton_transfer', 'jetton_burn', 'jetton_mint']) {
      for (const a of await actionsOf(type)) {
        for (const h of a.tx_hashes) byTx.set(h, [...(byTx.get(h) ?? []), a]);
      }
    }
    const find = (tx: string, type: string) => (byTx.get(tx) ?? []).filter((a) => a.type === type);
    const transfers = await rows<Record<string, string | boolean>>(
      `SELECT tx_hash, source, destination, amount::text, jetton_wallet_address, jetton_master_address, query_id::text,
              tx_aborted FROM jetton_transfers WHERE ${FINAL}`,
    );
    expect(transfers.length).toBeGreaterThan(2);
    // A transfer its wallet refused (aborted: no internal_transfer) is a failed contract call, as toncenter has it.
    const calls = await actionsOf('call_contract');
    for (const r of transfers.filter((x) => x.tx_aborted === true)) {
      const call = calls.find((a) => a.tx_hashes.includes(String(r.tx_hash)));
      expect(call?.details, String(r.tx_hash)).toMatchObject({
        opcode: '0x0f8a7ea5',
        destination: r.jetton_wallet_address,
      });
      expect(call!.success).toBe(false);
    }
    for (const r of transfers.filter((x) => x.tx_aborted !== true)) {
      const [a, ...more] = find(String(r.tx_hash), 'jetton_transfer');
      const context = async () =>
        JSON.stringify({
          row: r,
          actions: await rows('SELECT type, details, tx_hashes::text[] FROM actions WHERE $1 = ANY(tx_hashes)', [
            r.tx_hash,
          ]),
        });
      expect(more, String(r.tx_hash)).toEqual([]);
      expect(a, a ? '' : await context()).toBeDefined();
      expect(a!.details).toMatchObject({
        sender: r.source,
        receiver: r.destination,
        amount: r.amount,
        sender_jetton_wallet: r.jetton_wallet_address,
        asset: r.jetton_master_address,
        query_id: r.query_id,
      });
      expect(a!.success).toBe(true);
    }
    const burns = await rows<Record<string, string>>(
      `SELECT tx_hash, owner, amount::text, jetton_wallet_address, jetton_master_address FROM jetton_burns WHERE ${FINAL}`,
    );
    expect(burns.length).toBeGreaterThan(0);
    for (const r of burns) {
      const [a] = find(r.tx_hash!, 'jetton_burn');
      expect(a?.details, r.tx_hash).toMatchObject({
        owner: r.owner,
        owner_jetton_wallet: r.jetton_wallet_address,
        asset: r.jetton_master_address,
        amount: r.amount,
      });
    }
    const mints = await rows<Record<string, string>>(
      `SELECT tx_hash, destination, amount::text, jetton_wallet_address, jetton_master_address FROM jetton_mints WHERE ${FINAL}`,
    );
    expect(mints.length).toBeGreaterThan(0);
    for (const r of mints) {
      const [a] = find(r.tx_hash!, 'jetton_mint');
      expect(a?.details, r.tx_hash).toMatchObject({
        receiver: r.destination,
        receiver_jetton_wallet: r.jetton_wallet_address,
        asset: r.jetton_master_address,
        amount: r.amount,
      });
    }
  });

  it('each NFT transfer row is an nft_transfer; each minted item an nft_mint', async () => {
    const actions = await actionsOf('nft_transfer');
    const transfers = await rows<Record<string, string>>(
      `SELECT tx_hash, nft_item_address, nft_collection_address, old_owner, new_owner, nft_item_index::text FROM nft_transfers
        WHERE ${FINAL}`,
    );
    expect(transfers.length).toBeGreaterThan(1);
    for (const r of transfers) {
      const a = actions.find((x) => x.tx_hashes.includes(r.tx_hash!));
      expect(a?.details, r.tx_hash).toMatchObject({
        nft_item: r.nft_item_address,
        nft_collection: r.nft_collection_address,
        new_owner: r.new_owner,
        nft_item_index: r.nft_item_index,
      });
    }
    const mints = await actionsOf('nft_mint');
    for (const c of [...ledger.collections, ...ledger.standard.nftCollections]) {
      for (const item of c.items) {
        expect(
          mints.some((m) => m.details.nft_item === raw(item.address) && m.details.nft_collection === raw(c.address)),
          `mint of item ${item.index} of ${raw(c.address)}`,
        ).toBe(true);
      }
    }
  });

  it('each GetGems sale bought is an nft_purchase: price, seller, payout; its transfer and payout are its parts', async () => {
    const purchases = await actionsOf('nft_purchase');
    const bought = ledger.standard.nftSales.filter((s) => s.buy !== null);
    expect(bought.length).toBeGreaterThan(0);
    for (const s of bought) {
      const b = s.buy!;
      const a = purchases.find((x) => x.tx_hashes.includes(b.txHash.toString('base64')));
      expect(a?.details, `purchase at ${raw(s.address)}`).toMatchObject({
        nft_item: raw(s.item),
        nft_collection: raw(s.collection),
        old_owner: raw(s.address),
        new_owner: raw(b.buyer),
        is_purchase: true,
        price: s.price.toString(),
        marketplace: 'getgems',
        marketplace_address: raw(s.marketplace),
        real_old_owner: raw(s.seller),
        payout_amount: b.sellerPayout.toString(),
        payout_address: raw(s.seller),
      });
      expect([a!.success, a!.ancestor_type, a!.parent_action_id]).toEqual([true, [], null]);
      // The parts: the transfer (with the purchase's fields) and the seller's payout, children of the purchase.
      const parts = (await rows<ActionRow>(
        `SELECT type, details, ancestor_type::text[] AS ancestor_type FROM actions WHERE parent_action_id = $1
          ORDER BY type`,
        [a!.action_id],
      )) as ActionRow[];
      expect(parts.map((p) => [p.type, p.ancestor_type])).toEqual([
        ['nft_transfer', ['nft_purchase']],
        ['ton_transfer', ['nft_purchase']],
      ]);
      expect(parts[1]!.details).toMatchObject({ destination: raw(s.seller), value: b.sellerPayout.toString() });
      // v1 clients see the transfer in its place; latest clients the purchase alone.
      expect(isShown('nft_transfer', parts[0]!.ancestor_type, expandSupported(['v1']))).toBe(true);
      expect(isShown('nft_transfer', parts[0]!.ancestor_type, expandSupported(['latest']))).toBe(false);
      expect(isShown('nft_purchase', [], expandSupported(['v1']))).toBe(false);
    }
  });

  it('multisig orders: create, approve and execute, with v1 clients seeing the payment instead', async () => {
    const creates = await actionsOf('multisig_create_order');
    const approves = await actionsOf('multisig_approve');
    const executes = await actionsOf('multisig_execute');
    const orders = ledger.multisigs.flatMap((m) => m.orders.map((o) => ({ m, o })));
    expect(orders.length).toBeGreaterThan(0);
    for (const { m, o } of orders) {
      const create = creates.find((a) => a.details.destination_order === raw(o.address));
      expect(create?.details, `order ${o.seqno}`).toMatchObject({
        destination: raw(m.address),
        order_seqno: o.seqno.toString(),
      });
      // The proposer's approval is in its proposal; every later approval is an action.
      const later = approves.filter((a) => a.details.destination === raw(o.address));
      expect(later.length, `approvals of order ${o.seqno}`).toBe(o.approvals.length - 1);
      const exec = executes.filter(
        (a) => a.details.destination === raw(m.address) && a.details.order_seqno === o.seqno.toString(),
      );
      expect(exec.length, `execution of order ${o.seqno}`).toBe(o.executed ? 1 : 0);
      if (!o.executed) continue;
      // The payment is the composite's child: shown to v1 clients only.
      const children = await rows<ActionRow>(
        'SELECT type, details, ancestor_type::text[] AS ancestor_type FROM actions WHERE parent_action_id = $1',
        [exec[0]!.action_id],
      );
      const pay = children.find((c) => c.type === 'ton_transfer');
      expect(pay?.details).toMatchObject({ destination: raw(o.payment.receiver), value: o.payment.value.toString() });
      const v1 = expandSupported(['v1']);
      const latest = expandSupported(undefined);
      expect(isShown('multisig_execute', [], v1)).toBe(false);
      expect(isShown(pay!.type, pay!.ancestor_type, v1)).toBe(true);
      expect(isShown('multisig_execute', [], latest)).toBe(true);
      expect(isShown(pay!.type, pay!.ancestor_type, latest)).toBe(false);
    }
  });

  it('vesting sends and whitelist additions, DNS record changes', async () => {
    const sends = await actionsOf('vesting_send_message');
    const adds = await actionsOf('vesting_add_whitelist');
    for (const v of ledger.standard.vestings) {
      for (const s of v.sends.filter((x) => x.path === 'internal')) {
        expect(
          sends.some(
            (a) =>
              a.details.vesting === raw(v.address) &&
              a.details.destination === raw(s.to) &&
              a.details.amount === s.value.toString(),
          ),
          `vesting send of step ${s.step}`,
        ).toBe(true);
      }
      // Every entry is an add_whitelist (the deploy step sends one right after the deposit).
      const added = adds
        .filter((a) => a.details.vesting === raw(v.address))
        .flatMap((a) => a.details.accounts_added as string[]);
      expect(added.sort()).toEqual(v.whitelist.map(raw).sort());
    }
    const changes = [...(await actionsOf('change_dns')), ...(await actionsOf('delete_dns'))];
    expect(ledger.dns.domains.length).toBeGreaterThan(0);
    for (const d of ledger.dns.domains) {
      const mine = changes.filter((a) => a.details.asset === raw(d.item));
      expect(mine.length, d.domain).toBeGreaterThan(0);
      for (const a of mine) expect(a.details.nft_collection).toBe(raw(ledger.dns.collection));
    }
  });
});
