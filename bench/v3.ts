// bench/v3: p50/p99 latency of the main API v3 queries over real HTTP on an index of at least 1M transactions, each
// printed as a ratio to the same SQL run directly against PostgreSQL in the same run (machines are shared and
// noisy, so only the ratios mean anything). For every query a set of parameter values is sampled from the index
// (a fixed seed, so reruns ask the same questions); then, per query, four measurements over those values with
// the same number of clients in flight:
//   main   the route's main statement alone, built by the route's own exported builder (transactionsQuery,
//          messagesQuery, blocksQuery, latestStatesQuery, topAccountsQuery, adjacentTransactionsQuery), sent on a
//          plain pg connection per client;
//   sql    every statement the route runs for that request, in order (the main one, then the messages, account
//          states and address book of the page), recorded from the route once (the recording is checked to
//          contain the builder's main statement verbatim, so the baseline is the query the route runs) and
//          replayed on a plain pg connection: the baseline of the ratios;
//   txn    (a diagnostic, not a baseline) the same inside the route's read-only transaction, as ctx.read runs it:
//          BEGIN, SET LOCAL statement_timeout, SET TRANSACTION READ ONLY, the statements, COMMIT;
//   http   GET through our server (buildApiServer, in this process, listening on 127.0.0.1:0) over keep-alive
//          HTTP: parameter parsing, the read-only transaction with its statement timeout, the same statements,
//          rendering, JSON, the socket.
// The index: a devnet history indexed by the real pipeline (data/bench-history when scripts/build-history.ts has
// finished one, else a short devnet activity run), then replicated with fresh keys inside PostgreSQL
// (bench/support/replicate.ts) until it holds --transactions transactions, VACUUM ANALYZE. It is kept in the
// database tongate_bench_v3 so that reruns start at once; --rebuild builds it again.
//
// Usage: npm run bench:v3 [-- --seconds N --concurrency C --values K --rebuild --transactions N --only a,b]
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import { buildApiServer } from '../src/api/build.ts';
import { V3_DEFAULTS } from '../src/api/v3/context.ts';
import type { Page } from '../src/api/v3/params.ts';
import { latestStatesQuery, topAccountsQuery } from '../src/api/v3/routes/accounts.ts';
import { blocksQuery } from '../src/api/v3/routes/blocks.ts';
import { messagesQuery } from '../src/api/v3/routes/messages.ts';
import { adjacentTransactionsQuery, transactionsQuery } from '../src/api/v3/routes/transactions.ts';
import type { SqlQuery } from '../src/api/v3/sql-query.ts';
import { createDatabase, type Database, migrate, type Queryable, type Row } from '../src/db/index.ts';
import { normalizeParam } from '../src/db/values.ts';
import { startActivity } from '../src/devnet/activity/index.ts';
import { createDevnetNode } from '../src/devnet/node/index.ts';
import { createDevnetStoreSource, indexMcBlock, mapLimit } from '../src/index/index.ts';
import { knownWalletCode } from '../src/ton/index.ts';
import { replicateIndex } from './support/replicate.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '4' },
    values: { type: 'string', default: '100' },
    transactions: { type: 'string', default: '1000000' },
    history: { type: 'string', default: 'data/bench-history' },
    'activity-steps': { type: 'string', default: '100' },
    rebuild: { type: 'boolean' },
    only: { type: 'string' },
    'query-timeout': { type: 'string', default: String(V3_DEFAULTS.queryTimeoutMs) },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: npm run bench:v3 [-- options]
p50/p99 latency of the main API v3 queries over HTTP (our server in this process, C keep-alive clients) on an
index of >= N transactions, each as a ratio to the same statements sent straight to PostgreSQL in the same run:
  main  the route's main statement alone (built by the route's exported builder)
  sql   every statement the route runs for the request (main + messages, account states, address book)
  txn   the same inside the route's read-only transaction (BEGIN, its SETs, ..., COMMIT), for diagnosis
  http  the request through our server
Options:
  --seconds N        seconds per measurement (default 4; four measurements per query)
  --concurrency C    requests (or statements) in flight (default 4)
  --values K         parameter values sampled per query, cycled through (default 100)
  --only a,b         only the queries whose names contain one of these words (e.g. --only messages,blocks)
  --query-timeout MS the server's statement timeout (default ${V3_DEFAULTS.queryTimeoutMs}, toncenter's); a request past it
                     answers 500 and is counted, not dropped
The index lives in the database tongate_bench_v3 on the server of DATABASE_URL, else TONGATE_TEST_DATABASE_URL,
else postgres://postgres@127.0.0.1:5432/postgres (needs CREATEDB). The first run builds it; later runs reuse it:
  --rebuild          drop and build it again
  --transactions N   least transactions in it (default 1000000; a reused index with fewer is rebuilt)
  --history DIR      a finished scripts/build-history.ts history to index first (default data/bench-history,
                     used when DIR/COMPLETE.json exists)
  --activity-steps S otherwise, a devnet (temp folder) runs S steps of its activity cycle (default 100: wallets of
                     every version, a jetton, an NFT collection, bounces) and is indexed
Either base index is then copied with fresh keys (hashes, accounts, lts, seqnos) by INSERT ... SELECT until it
holds N transactions, and VACUUM ANALYZEd. The build time is printed (and remembered for later runs).`);
  process.exit(0);
}

function intOption(name: keyof typeof values, min: number): number {
  const v = Number(values[name]);
  if (!Number.isInteger(v) || v < min) {
    console.error(`bench/v3: --${name} must be an integer >= ${min}`);
    process.exit(2);
  }
  return v;
}
const seconds = Number(values.seconds);
if (!(seconds > 0)) {
  console.error('bench/v3: --seconds must be > 0');
  process.exit(2);
}
const concurrency = intOption('concurrency', 1);
const sampleSize = intOption('values', 1);
const targetTransactions = intOption('transactions', 1);
const activitySteps = intOption('activity-steps', 1);
const queryTimeoutMs = intOption('query-timeout', 1);
const only = values.only
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);

const log = (msg: string) => console.error(`bench/v3: ${msg}`);
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const fmtInt = (n: number) => n.toLocaleString('en-US');

// ---- the bench database ----------------------------------------------------------------------------------------

const DB_NAME = 'tongate_bench_v3';
const SERVER_URL =
  process.env.DATABASE_URL || process.env.TONGATE_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const BENCH_URL = (() => {
  const u = new URL(SERVER_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();
const TABLES = [
  'transactions',
  'messages',
  'blocks',
  'message_contents',
  'account_states',
  'latest_account_states',
] as const;

/** Names how the index is made; a build made another way (an older bench/v3) is not reused. */
const BUILD_FORMAT = 'tongate-bench-v3/2';

/** What a finished build leaves in bench_v3_build (its last write, so a build cut short is never reused). */
interface BuildInfo {
  format: string;
  builtAt: string;
  base: string;
  baseTransactions: number;
  copies: number;
  rows: Record<string, number>;
  seconds: { base: number; replicate: number; vacuumAnalyze: number; total: number };
  sizeBytes: number;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: SERVER_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The build record of a finished bench database, or why there is none. */
async function existingBuild(): Promise<BuildInfo | string> {
  const exists = await admin((c) => c.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]));
  if (exists.rowCount === 0) return `no database ${DB_NAME} yet`;
  const c = new pg.Client({ connectionString: BENCH_URL });
  await c.connect();
  try {
    const r = await c.query(`SELECT to_regclass('bench_v3_build') IS NOT NULL AS done`);
    if (!r.rows[0].done) return `${DB_NAME} holds an unfinished build`;
    const info = (await c.query('SELECT info FROM bench_v3_build')).rows[0]?.info as BuildInfo | undefined;
    if (!info) return `${DB_NAME} holds an unfinished build`;
    if (info.format !== BUILD_FORMAT) return `${DB_NAME} was built by another version of this bench`;
    if ((info.rows.transactions ?? 0) < targetTransactions) {
      return `${DB_NAME} holds ${fmtInt(info.rows.transactions ?? 0)} transactions, fewer than --transactions ${fmtInt(targetTransactions)}`;
    }
    return info;
  } finally {
    await c.end();
  }
}

/** Indexes a finished build-history store, or a fresh devnet's activity run; returns its label. */
async function indexBase(db: Database): Promise<string> {
  const history = resolve(values.history as string);
  const finished = await readFile(join(history, 'COMPLETE.json'), 'utf8').catch(() => null);
  if (finished) {
    log(`indexing the devnet history in ${history} ...`);
    await indexStore(db, join(history, 'devnet'));
    return `devnet history ${history}`;
  }
  log(`no finished history in ${history}: running ${activitySteps} devnet activity steps ...`);
  const dir = await mkdtemp(join(tmpdir(), 'tongate-bench-v3-'));
  try {
    const node = createDevnetNode({
      dataDir: dir,
      litePort: 0,
      httpPort: 0,
      blockIntervalMs: 0,
      sync: false,
      seed: 'bench-v3',
      logEvery: 0,
      log: () => {},
    });
    const info = await node.start();
    try {
      const activity = await startActivity({
        liteConfig: info.globalConfigFile,
        wallets: info.walletsFile,
        seed: 'bench-v3',
        steps: activitySteps,
        intervalMs: 0,
        pollMs: 100,
        stepTimeoutMs: 60_000,
        log: () => {},
      });
      const counters = await activity.done;
      log(`activity: ${counters.ok} steps ok, ${counters.failed} failed, ${counters.skipped} skipped`);
    } finally {
      await node.stop();
    }
    await indexStore(db, info.devnetDir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return `devnet activity, ${activitySteps} steps`;
}

/** Every masterchain block of a devnet store through indexMcBlock, the pipeline's one processor. */
async function indexStore(db: Database, store: string): Promise<void> {
  const source = await createDevnetStoreSource(store);
  try {
    const head = await source.head();
    const seqnos = Array.from({ length: head }, (_, i) => i + 1);
    let done = 0;
    let txs = 0;
    await mapLimit(seqnos, 4, async (n) => {
      const r = await indexMcBlock(n, { source, db });
      txs += r.transactions;
      if (++done % 500 === 0) log(`  ${done}/${head} masterchain blocks, ${fmtInt(txs)} transactions`);
    });
    log(`indexed masterchain blocks 1..${head}: ${fmtInt(txs)} transactions`);
  } finally {
    await source.close();
  }
}

async function countRows(db: Queryable): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = Number((await db.query(`SELECT count(*) AS n FROM ${t}`)).rows[0]!.n);
  return out;
}

async function build(): Promise<BuildInfo> {
  const t0 = performance.now();
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB_NAME}`);
  });
  const db = await createDatabase({ kind: 'postgres', url: BENCH_URL, applicationName: 'tongate-bench-v3-build' });
  try {
    await migrate(db);
    const base = await indexBase(db);
    const tBase = performance.now();
    const baseTransactions = (await countRows(db)).transactions ?? 0;
    if (baseTransactions === 0) throw new Error('the base index has no transactions');
    const copies = Math.ceil(targetTransactions / baseTransactions) - 1;
    if (copies > 0) {
      log(`replicating ${fmtInt(baseTransactions)} transactions (and their rows) ${fmtInt(copies)} times ...`);
      // One transaction: its session settings hold for every statement (and a build cut short leaves nothing).
      await db.transaction(async (tx) => {
        await tx.query(`SET LOCAL maintenance_work_mem = '512MB'`);
        await tx.query('SET LOCAL synchronous_commit = off');
        await replicateIndex(tx, {
          copies,
          latestAccountStates: true,
          analyze: false,
          rebuildIndexes: true,
          onTable: (t, n, ms) => log(`  ${t}: +${fmtInt(n)} rows in ${round(ms / 1000)} s (indexes rebuilt)`),
        });
      });
    }
    const tReplicate = performance.now();
    log('VACUUM ANALYZE ...');
    await db.query('VACUUM ANALYZE');
    const tEnd = performance.now();
    const info: BuildInfo = {
      format: BUILD_FORMAT,
      builtAt: new Date().toISOString(),
      base,
      baseTransactions,
      copies,
      rows: await countRows(db),
      seconds: {
        base: round((tBase - t0) / 1000),
        replicate: round((tReplicate - tBase) / 1000),
        vacuumAnalyze: round((tEnd - tReplicate) / 1000),
        total: round((tEnd - t0) / 1000),
      },
      sizeBytes: Number((await db.query('SELECT pg_database_size(current_database()) AS n')).rows[0]!.n),
    };
    await db.query('CREATE TABLE bench_v3_build (info jsonb NOT NULL)');
    await db.query('INSERT INTO bench_v3_build (info) VALUES ($1)', [info]);
    return info;
  } finally {
    await db.close();
  }
}

// ---- the queries -----------------------------------------------------------------------------------------------

interface Request {
  path: string;
  /** The route's main statement for this request, from the route's own builder. */
  main: SqlQuery;
  /** Every statement the route ran for it (filled by the recording pass). */
  statements?: SqlQuery[];
  /** The same inside the route's read-only transaction: BEGIN, its SETs, the statements, COMMIT. */
  txn?: SqlQuery[];
}
interface Scenario {
  name: string;
  requests: Request[];
  /** Mean response body size (bytes), from the recording pass. */
  bytes?: number;
  /** Requests of the recording pass that hit the route's statement timeout. */
  timeouts?: number;
}

const TIMEOUT_BODY = /context deadline exceeded/;

const PAGE: Page = { limit: 10, offset: 0, sort: 'desc' };
const V3 = '/api/v3';
const enc = encodeURIComponent;
const shardHex = (shard: unknown) => BigInt.asUintN(64, BigInt(shard as string)).toString(16);

/** K random rows of `sql` (an ORDER BY random() LIMIT $1 statement) under the session's seed. */
async function sample(tx: Queryable, sql: string): Promise<Row[]> {
  const rows = (await tx.query(sql, [sampleSize])).rows;
  if (rows.length === 0) throw new Error(`no rows to sample: ${sql}`);
  return rows;
}

async function scenarios(db: Database): Promise<Scenario[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT setseed(0.25)');
    const accounts = await sample(tx, 'SELECT account FROM transactions ORDER BY random() LIMIT $1');
    const blocks = await sample(
      tx,
      'SELECT workchain, shard, seqno, gen_utime FROM blocks WHERE workchain = 0 AND tx_count > 0 ORDER BY random() LIMIT $1',
    );
    const anyBlocks = await sample(tx, 'SELECT workchain, seqno, gen_utime FROM blocks ORDER BY random() LIMIT $1');
    const inMsgs = await sample(tx, `SELECT msg_hash FROM messages WHERE direction = 'in' ORDER BY random() LIMIT $1`);
    const sources = await sample(tx, 'SELECT source FROM messages WHERE source IS NOT NULL ORDER BY random() LIMIT $1');
    const dests = await sample(
      tx,
      'SELECT destination FROM messages WHERE destination IS NOT NULL ORDER BY random() LIMIT $1',
    );
    const opcodes = await sample(tx, 'SELECT opcode FROM messages WHERE opcode IS NOT NULL ORDER BY random() LIMIT $1');
    const states = await sample(tx, 'SELECT account FROM latest_account_states ORDER BY random() LIMIT $1');
    // Wallets: accounts running a known wallet code (sampled wide, then filtered by our list of wallet codes).
    const wallets = (
      await tx.query(
        'SELECT account, code_hash FROM latest_account_states WHERE code_hash IS NOT NULL ORDER BY random() LIMIT $1',
        [sampleSize * 20],
      )
    ).rows
      .filter((r) => knownWalletCode(r.code_hash as string))
      .slice(0, sampleSize);
    // Transactions whose inbound message was sent by an indexed transaction: each has at least a parent.
    const linked = (
      await tx.query(
        `SELECT S.tx_hash FROM (SELECT tx_hash, msg_hash FROM messages WHERE direction = 'in' AND source IS NOT NULL
           ORDER BY random() LIMIT $1) S
         WHERE EXISTS (SELECT 1 FROM messages O WHERE O.msg_hash = S.msg_hash AND O.direction = 'out') LIMIT $2`,
        [sampleSize * 4, sampleSize],
      )
    ).rows;
    const topAccounts = Number((await tx.query('SELECT count(*) AS n FROM latest_account_states')).rows[0]!.n);

    const list: Scenario[] = [
      {
        name: 'transactions by account',
        requests: accounts.map((r) => ({
          path: `${V3}/transactions?account=${enc(r.account as string)}&limit=10`,
          main: transactionsQuery({ accounts: [r.account as string], page: PAGE }),
        })),
      },
      {
        name: 'transactions by block',
        requests: blocks.map((r) => ({
          path: `${V3}/transactions?workchain=${r.workchain}&shard=${shardHex(r.shard)}&seqno=${r.seqno}&limit=10`,
          main: transactionsQuery({
            workchain: Number(r.workchain),
            shard: BigInt(r.shard as string),
            seqno: Number(r.seqno),
            page: PAGE,
          }),
        })),
      },
      {
        name: 'transactionsByMessage (msg_hash)',
        requests: inMsgs.map((r) => ({
          path: `${V3}/transactionsByMessage?msg_hash=${enc(r.msg_hash as string)}&limit=10`,
          main: transactionsQuery({ message: { msgHashes: [r.msg_hash as string] }, page: PAGE }),
        })),
      },
      {
        name: 'adjacentTransactions',
        requests: linked.map((r) => ({
          path: `${V3}/adjacentTransactions?hash=${enc(r.tx_hash as string)}`,
          main: adjacentTransactionsQuery(r.tx_hash as string),
        })),
      },
      {
        name: 'messages by source',
        requests: sources.map((r) => ({
          path: `${V3}/messages?source=${enc(r.source as string)}&limit=10`,
          main: messagesQuery({ source: r.source as string, page: PAGE }),
        })),
      },
      {
        name: 'messages by destination',
        requests: dests.map((r) => ({
          path: `${V3}/messages?destination=${enc(r.destination as string)}&limit=10`,
          main: messagesQuery({ destination: r.destination as string, page: PAGE }),
        })),
      },
      {
        name: 'messages by opcode',
        requests: opcodes.map((r) => ({
          path: `${V3}/messages?opcode=0x${(Number(r.opcode) >>> 0).toString(16).padStart(8, '0')}&limit=10`,
          main: messagesQuery({ opcode: Number(r.opcode), page: PAGE }),
        })),
      },
      {
        name: 'blocks by seqno',
        requests: anyBlocks.map((r) => ({
          path: `${V3}/blocks?workchain=${r.workchain}&seqno=${r.seqno}&limit=10`,
          main: blocksQuery({ workchain: Number(r.workchain), seqno: Number(r.seqno), page: PAGE }),
        })),
      },
      {
        name: 'blocks by utime (60 s window)',
        requests: anyBlocks.map((r) => {
          const end = Number(r.gen_utime);
          return {
            path: `${V3}/blocks?start_utime=${end - 60}&end_utime=${end}&limit=10`,
            main: blocksQuery({ window: { startUtime: end - 60, endUtime: end }, page: PAGE }),
          };
        }),
      },
      {
        name: 'accountStates',
        requests: states.map((r) => ({
          path: `${V3}/accountStates?address=${enc(r.account as string)}`,
          main: latestStatesQuery([r.account as string], [], true),
        })),
      },
      {
        name: 'walletStates',
        requests: wallets.map((r) => ({
          path: `${V3}/walletStates?address=${enc(r.account as string)}`,
          main: latestStatesQuery([r.account as string], [], true),
        })),
      },
      {
        name: 'topAccountsByBalance',
        // The first 100 pages (ranks 1..1000), as clients page through the top.
        requests: Array.from({ length: sampleSize }, (_, i) => {
          const offset = Math.min((i % 100) * 10, Math.max(0, topAccounts - 10));
          return {
            path: `${V3}/topAccountsByBalance?limit=10&offset=${offset}`,
            main: topAccountsQuery({ limit: 10, offset }),
          };
        }),
      },
    ];
    for (const s of list) if (s.requests.length === 0) throw new Error(`no parameter values for ${s.name}`);
    return list.filter((s) => !only || only.some((w) => s.name.toLowerCase().includes(w.toLowerCase())));
  });
}

// ---- measuring -------------------------------------------------------------------------------------------------

interface Result {
  n: number;
  qps: number;
  p50: number;
  p99: number;
  /** Operations that failed (HTTP: any status but 200). */
  errors: number;
}

/** `concurrency` loops for `seconds`, each calling op(next value index, its loop number); latencies in ms. */
async function measure(count: number, op: (i: number, loop: number) => Promise<boolean>): Promise<Result> {
  let next = 0;
  let errors = 0;
  for (let i = 0; i < Math.min(count, 2 * concurrency); i++) await op(i % count, 0); // warm-up
  const lat: number[] = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      while (performance.now() < end) {
        const i = next++ % count;
        const s = performance.now();
        if (!(await op(i, loop))) errors++;
        lat.push(performance.now() - s);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? Number.NaN;
  return { n: lat.length, qps: lat.length / elapsed, p50: q(0.5), p99: q(0.99), errors };
}

/** The API's Database, recording the statements a request runs while `recording` is set (one request at a time). */
function recordingDatabase(db: Database) {
  let recorded: SqlQuery[] | null = null;
  const note = (sql: string, params: readonly unknown[] = []) => {
    if (recorded) recorded.push({ sql, params: [...params] });
  };
  const wrap = (q: Queryable): Queryable => ({
    query: <R extends Row = Row>(sql: string, params?: readonly unknown[]) => {
      note(sql, params);
      return q.query<R>(sql, params);
    },
    exec: (script) => q.exec(script),
    copyFrom: (table, columns, rows) => q.copyFrom(table, columns, rows),
  });
  const rec: Database = {
    kind: db.kind,
    ...wrap(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: () => db.close(),
  };
  return {
    db: rec,
    /** The route's statements, apart from its transaction's own settings (statement timeout, read only). */
    async record<T>(fn: () => Promise<T>): Promise<{ result: T; statements: SqlQuery[]; settings: SqlQuery[] }> {
      recorded = [];
      try {
        const result = await fn();
        const isSetting = (st: SqlQuery) => /^SET\s/i.test(st.sql);
        return { result, statements: recorded.filter((st) => !isSetting(st)), settings: recorded.filter(isSetting) };
      } finally {
        recorded = null;
      }
    },
  };
}

interface Reply {
  status: number;
  body: Buffer;
}

const sameStatement = (a: SqlQuery, b: SqlQuery) =>
  a.sql === b.sql && JSON.stringify(a.params.map(normalizeParam)) === JSON.stringify(b.params.map(normalizeParam));

async function main() {
  let info = values.rebuild ? 'asked to rebuild (--rebuild)' : await existingBuild();
  let built = false;
  if (typeof info === 'string') {
    log(`${info}: building the index in ${DB_NAME} ...`);
    info = await build();
    built = true;
  }
  const b = info;

  const raw = await createDatabase({ kind: 'postgres', url: BENCH_URL, applicationName: 'tongate-bench-v3-api' });
  const rec = recordingDatabase(raw);
  const server = await buildApiServer({ db: rec.db, logger: pino({ level: 'silent' }), queryTimeoutMs });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = server.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const get = (path: string) =>
    new Promise<Reply>((ok, fail) => {
      const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', fail);
      });
      req.on('error', fail);
    });
  const clients = await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const c = new pg.Client({ connectionString: BENCH_URL, application_name: 'tongate-bench-v3-sql' });
      await c.connect();
      return c;
    }),
  );
  const send = (c: pg.Client, s: SqlQuery) => c.query({ text: s.sql, values: s.params.map(normalizeParam) });

  try {
    log('sampling parameter values ...');
    const list = await scenarios(raw);
    // The recording pass: each distinct request once through the server, one at a time (it also warms the caches).
    const seen = new Map<string, { result: Reply; statements: SqlQuery[]; settings: SqlQuery[] }>();
    for (const s of list) {
      let bytes = 0;
      for (const r of s.requests) {
        let run = seen.get(r.path);
        if (!run) {
          run = await rec.record(() => get(r.path));
          seen.set(r.path, run);
        }
        const { result, statements, settings } = run;
        // A statement past the route's timeout (toncenter's 500) is a result worth showing: its statements up to
        // the timeout are the baseline. Any other error means the bench asked a wrong question.
        if (result.status !== 200 && !(result.status === 500 && TIMEOUT_BODY.test(result.body.toString()))) {
          throw new Error(
            `${s.name}: GET ${r.path} answered ${result.status}: ${result.body.toString().slice(0, 300)}`,
          );
        }
        if (result.status !== 200) s.timeouts = (s.timeouts ?? 0) + 1;
        if (!statements.some((st) => sameStatement(st, r.main))) {
          throw new Error(
            `${s.name}: the route did not run the builder's statement for ${r.path}; it ran:\n${statements.map((st) => st.sql).join('\n---\n')}`,
          );
        }
        r.statements = statements;
        r.txn = [{ sql: 'BEGIN', params: [] }, ...settings, ...statements, { sql: 'COMMIT', params: [] }];
        bytes += result.body.length;
      }
      s.bytes = bytes / s.requests.length;
    }

    const rows: Array<{
      s: Scenario;
      main: Result;
      sql: Result;
      txn: Result;
      http: Result;
      stmts: number;
      kb: number;
    }> = [];
    for (const s of list) {
      log(`measuring ${s.name} ...`);
      const reqs = s.requests;
      // Interleaved per query so that drift in the machine's load hits all four alike.
      const main = await measure(reqs.length, async (i, loop) => {
        await send(clients[loop]!, reqs[i]!.main);
        return true;
      });
      const sql = await measure(reqs.length, async (i, loop) => {
        for (const st of reqs[i]!.statements!) await send(clients[loop]!, st);
        return true;
      });
      const txn = await measure(reqs.length, async (i, loop) => {
        const c = clients[loop]!;
        try {
          for (const st of reqs[i]!.txn!) await send(c, st);
          return true;
        } catch (e) {
          // The route's statement timeout (57014 query_canceled) ends its transaction as it ends the route's.
          if ((e as { code?: string }).code !== '57014') throw e;
          await c.query('ROLLBACK');
          return false;
        }
      });
      const viaHttp = await measure(reqs.length, async (i) => (await get(reqs[i]!.path)).status === 200);
      const stmts = reqs.reduce((n, r) => n + r.statements!.length, 0) / reqs.length;
      rows.push({ s, main, sql, txn, http: viaHttp, stmts, kb: (s.bytes ?? 0) / 1024 });
    }

    const r = b.rows;
    console.log(
      `bench/v3: index of ${fmtInt(r.transactions ?? 0)} transactions, ${fmtInt(r.messages ?? 0)} messages, ` +
        `${fmtInt(r.blocks ?? 0)} blocks, ${fmtInt(r.account_states ?? 0)} account states, ` +
        `${fmtInt(r.latest_account_states ?? 0)} accounts (${round(b.sizeBytes / 2 ** 30, 2)} GiB, ${DB_NAME})`,
    );
    console.log(
      `  ${built ? 'built now' : `built ${b.builtAt}`} in ${b.seconds.total} s: base (${b.base}, ` +
        `${fmtInt(b.baseTransactions)} transactions) ${b.seconds.base} s, ${fmtInt(b.copies)} copies ${b.seconds.replicate} s, ` +
        `VACUUM ANALYZE ${b.seconds.vacuumAnalyze} s${built ? '' : ' (reused; --rebuild to build again)'}`,
    );
    console.log(
      `  ${seconds} s per measurement, ${concurrency} in flight, ${sampleSize} sampled values per query, loopback; ` +
        `x = http / sql (all the route's statements sent straight to PostgreSQL)`,
    );
    console.log(
      `  ${'query'.padEnd(34)}${'main p50'.padStart(9)}${'sql p50'.padStart(9)}${'sql p99'.padStart(9)}${'txn p50'.padStart(9)}` +
        `${'http p50'.padStart(9)}${'http p99'.padStart(9)}${'x p50'.padStart(8)}${'x p99'.padStart(8)}` +
        `${'http qps'.padStart(9)}${'stmts'.padStart(6)}${'KB'.padStart(6)}`,
    );
    const ms = (v: number) => v.toFixed(2).padStart(9);
    for (const x of rows) {
      console.log(
        `  ${x.s.name.padEnd(34)}${ms(x.main.p50)}${ms(x.sql.p50)}${ms(x.sql.p99)}${ms(x.txn.p50)}${ms(x.http.p50)}${ms(x.http.p99)}` +
          `${(x.http.p50 / x.sql.p50).toFixed(2).padStart(8)}${(x.http.p99 / x.sql.p99).toFixed(2).padStart(8)}` +
          `${x.http.qps.toFixed(0).padStart(9)}${x.stmts.toFixed(1).padStart(6)}${x.kb.toFixed(1).padStart(6)}`,
      );
      if (x.s.timeouts || x.http.errors || x.txn.errors) {
        console.log(
          `    ! ${x.s.timeouts ?? 0} of ${x.s.requests.length} sampled values hit the ${queryTimeoutMs} ms ` +
            `statement timeout (500) in the recording pass; timed: ${x.http.errors} of ${x.http.n} requests not 200, ` +
            `${x.txn.errors} of ${x.txn.n} transactions timed out`,
        );
      }
    }
    console.log(
      "  (latencies in ms; main = the main statement alone; txn = the statements inside the route's read-only " +
        'transaction, as it runs them; stmts = statements per request; KB = body size)',
    );
  } finally {
    agent.destroy();
    for (const c of clients) await c.end();
    await server.close();
    await raw.close();
  }
}

await main();
