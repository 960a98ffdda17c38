// bench/ingest: transactions per second the indexing pipeline writes into PostgreSQL (or PGlite with --pglite) for a
// backfill of a devnet history (scripts/build-history.ts, >= 200,000 transactions under data/bench-history), as a
// ratio to a raw COPY of the same rows into the same tables in the same run (machines are shared and noisy, so only
// the ratio means anything). Three phases, each on the same history:
//   decode    indexMcBlock over the devnet store source with a capturing stand-in for the database: source ->
//             parse -> decode exactly as the pipeline runs them, the rows it would COPY kept in memory, no writes;
//   copy      the baseline: those rows (content-addressed tables deduplicated as the writer's ON CONFLICT would)
//             COPYed with db.copyFrom, one stream per table, into a fresh migrated database: no checkpoints, no
//             per-block transactions, no staging;
//   ingest    the real thing, as `tongate walk backfill` runs it: planBackfill onto the in-process queue, the
//             index-mc-block worker with its jobs at once, each a one-transaction write with its checkpoint, blocks
//             decoded on --decode-threads worker threads (default cores - 1) while the main thread writes; timed
//             from planning to the last checkpoint; row counts checked against the copy phase. This run writes the
//             core tables the raw COPY writes (trace assembly and classification off): its ratio is the headline.
//             A second run with trace assembly and classification on (walk backfill's default) is printed too;
//             --decode-threads-compare and --bulk add runs (each into a fresh database).
// --tail: a devnet with a block every 400 ms and the activity generator, tail indexing (runTail + the worker) for
// --seconds; the lag of each masterchain block is the time from the node's commit (its onBlock) to its checkpoint
// being committed (the worker's completion), shown as p50/p95 and in block intervals measured in the same run.
//
// Findings (2 shared cores, PostgreSQL 15 on the same machine; see the report printed by --profile):
//   (run with --profile; numbers from the build machine are in the closing note of the session that added this)
//
// Usage: npm run bench:ingest [-- --history DIR --concurrency N --blocks N --decode-threads N
//          --decode-threads-compare N,M --bulk --no-traces --pglite --profile]
//        npm run bench:ingest -- --tail [--seconds N --poll-ms MS --source store|lite --pglite]
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { DatabaseConfig } from '../src/common/index.ts';
import { createDatabase, type Database, EncodedCopy, migrate, type Queryable } from '../src/db/index.ts';
import { startActivity } from '../src/devnet/activity/index.ts';
import { createDevnetNode } from '../src/devnet/node/index.ts';
import {
  type BlockSource,
  CORE_TABLES,
  createDecodePool,
  createDevnetStoreSource,
  createLiteSource,
  defaultDecodeThreads,
  indexMcBlock,
  LATEST_ACCOUNT_STATE_COLUMNS,
  mapLimit,
} from '../src/index/index.ts';
import { bulkBackfill, INDEX_MC_BLOCK, planBackfill, runTail } from '../src/index/plan/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig } from '../src/lite/index.ts';
import { createQueue } from '../src/queue/index.ts';
import { cellHasherName } from '../src/ton/cell/native-hash.ts';
import { startIndexWorker } from '../workers/index-mc-block.ts';

const { values } = parseArgs({
  options: {
    history: { type: 'string', default: 'data/bench-history' },
    concurrency: { type: 'string' },
    'decode-threads': { type: 'string' },
    'decode-threads-compare': { type: 'string' },
    bulk: { type: 'boolean' },
    'no-traces': { type: 'boolean' },
    blocks: { type: 'string' },
    pglite: { type: 'boolean' },
    profile: { type: 'boolean' },
    tail: { type: 'boolean' },
    seconds: { type: 'string', default: '60' },
    'poll-ms': { type: 'string', default: '1000' },
    source: { type: 'string', default: 'store' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: npm run bench:ingest [-- options]
Backfill (default): indexes the devnet history in --history (built once by scripts/build-history.ts) into a fresh
scratch database and prints transactions per second as a ratio to a raw COPY of the same rows in the same run.
  --history DIR      the history folder (default data/bench-history; its store is DIR/devnet)
  --concurrency N    index-mc-block jobs at once (default: 4, or 2 per decode thread when that is more)
  --decode-threads N decode threads of the ingest run (default: cores - 1, at least 1; 0: the main thread);
                     given explicitly, its speed-up over decoding on the main thread is printed too
  --decode-threads-compare N,M,...  also ingest with N, M, ... decode threads and print each one's speed-up
                     over decoding on the main thread (--decode-threads 0), measured in the same run
  --no-traces        skip the extra run with trace assembly and classification on
  --bulk             also ingest with 'walk backfill --bulk' (secondary indexes dropped, rebuilt after) and
                     print its tx/s as a ratio to the raw COPY into the indexed tables
  --blocks N         only masterchain blocks 1..N (a quick run)
  --profile          CPU-profile the ingest phase: writes bench-ingest.cpuprofile and prints where the time went
Tail (--tail): a devnet with a block every 400 ms plus the activity generator, indexed by tail for --seconds
(default 60), printing the lag p50/p95 from the node's commit of a masterchain block to its checkpoint's commit.
  --poll-ms MS       how often tail asks for the head (default 1000, as 'tongate walk tail')
  --source S         store (the node's store read directly, default) or lite (its liteserver)
  --concurrency N    as above
Both: --pglite uses embedded PGlite in a temp folder instead of PostgreSQL. PostgreSQL is the server of
TONGATE_TEST_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres; the bench creates
a scratch database there (tongate_bench_<random>, needs CREATEDB) and drops it at the end.`);
  process.exit(0);
}
const concurrencyFlag = values.concurrency === undefined ? undefined : Number(values.concurrency);
const concurrency = concurrencyFlag ?? 4;
const decodeThreads =
  values['decode-threads'] === undefined ? defaultDecodeThreads() : Number(values['decode-threads']);
const compareThreads = (values['decode-threads-compare'] ?? '')
  .split(',')
  .filter((x) => x !== '')
  .map(Number);
const blocksLimit = values.blocks === undefined ? undefined : Number(values.blocks);
const seconds = Number(values.seconds);
const pollMs = Number(values['poll-ms']);
if (
  !Number.isInteger(concurrency) ||
  concurrency < 1 ||
  !Number.isInteger(decodeThreads) ||
  decodeThreads < 0 ||
  compareThreads.some((t) => !Number.isInteger(t) || t < 0) ||
  (blocksLimit !== undefined && !(Number.isInteger(blocksLimit) && blocksLimit >= 1)) ||
  !(seconds > 0) ||
  !(pollMs >= 10) ||
  (values.source !== 'store' && values.source !== 'lite')
) {
  console.error(
    'bench/ingest: --concurrency and --blocks must be integers >= 1, --decode-threads(-compare) integers >= 0, --seconds > 0, --poll-ms >= 10, --source store|lite',
  );
  process.exit(2);
}

// ---- scratch databases -----------------------------------------------------------------------------------------

const SERVER_URL =
  process.env.TONGATE_TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const cleanups: Array<() => Promise<void>> = [];

interface Scratch {
  db: Database;
  cfg: DatabaseConfig;
  name: string;
  /** Closes and drops it now (it is dropped at exit otherwise). */
  drop(): Promise<void>;
  /** Runs CHECKPOINT (PostgreSQL) so one phase's dirty pages are not flushed during the next phase's timing. */
  settle(): Promise<void>;
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

/** A fresh migrated database: a new PostgreSQL database on the server, or PGlite in a temp folder. */
async function scratchDatabase(label: string): Promise<Scratch> {
  let cfg: DatabaseConfig;
  let drop: () => Promise<void>;
  let name: string;
  if (values.pglite) {
    const parent = await mkdtemp(join(tmpdir(), `tongate-bench-${label}-`));
    cfg = { kind: 'pglite', dir: join(parent, 'pg') };
    name = `PGlite ${parent}`;
    drop = () => rm(parent, { recursive: true, force: true });
  } else {
    name = `tongate_bench_${label}_${randomBytes(4).toString('hex')}`;
    await admin((c) => c.query(`CREATE DATABASE ${name}`));
    const u = new URL(SERVER_URL);
    u.pathname = `/${name}`;
    cfg = {
      kind: 'postgres',
      url: u.toString(),
      poolSize: Math.max(concurrency, 2 * decodeThreads) + 4,
      applicationName: 'tongate-bench-ingest',
    };
    drop = () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {});
  }
  const db = await createDatabase(cfg).catch(async (e) => {
    await drop();
    throw e;
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await db.close().catch(() => {});
    await drop();
  };
  cleanups.push(close);
  await migrate(db);
  return {
    db,
    cfg,
    name,
    drop: close,
    async settle() {
      if (db.kind === 'postgres') await db.query('CHECKPOINT').catch(() => {});
    },
  };
}

async function cleanup(): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c().catch((e) => console.error(`bench/ingest: cleanup: ${e}`));
}
process.once('SIGINT', () => {
  console.error('bench/ingest: interrupted, dropping the scratch databases');
  void cleanup().finally(() => process.exit(130));
});

// ---- helpers ---------------------------------------------------------------------------------------------------

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (s: string) => console.error(`bench/ingest: ${s}`);

function quantile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const TABLES = CORE_TABLES;
type Table = (typeof TABLES)[number];

async function tableCounts(db: Queryable): Promise<Record<Table, number>> {
  const out = {} as Record<Table, number>;
  for (const t of TABLES) out[t] = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0]!.n);
  return out;
}

/** Per-file and per-package self time of a CPU profile, the biggest first. */
function summarizeProfile(profile: {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}): { byFunction: Array<[string, number]>; byArea: Array<[string, number]>; totalMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const fn = new Map<string, number>();
  const area = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    const cf = byId.get(id)!.callFrame;
    const url = cf.url.replace(/^file:\/\//, '');
    const short = url.includes('node_modules/')
      ? url.slice(url.lastIndexOf('node_modules/') + 13)
      : url.replace(`${process.cwd()}/`, '');
    const k = `${cf.functionName || '(anonymous)'} ${short ? `${short}:${cf.lineNumber + 1}` : ''}`.trim();
    fn.set(k, (fn.get(k) ?? 0) + dt);
    let a: string;
    if (!url) a = cf.functionName.startsWith('(') ? cf.functionName : '(native)';
    else if (url.includes('node_modules/')) {
      const rest = url.slice(url.lastIndexOf('node_modules/') + 13).split('/');
      a = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
    } else if (url.startsWith('node:')) a = 'node internals';
    else a = short.split('/').slice(0, 3).join('/');
    area.set(a, (area.get(a) ?? 0) + dt);
  });
  const sort = (m: Map<string, number>) => [...m.entries()].sort((x, y) => y[1] - x[1]);
  return { byFunction: sort(fn), byArea: sort(area), totalMs: total };
}

// ---- backfill --------------------------------------------------------------------------------------------------

interface Captured {
  columns: readonly string[];
  rows: (readonly unknown[])[];
}

/**
 * A stand-in Database for the decode phase: indexMcBlock finds no checkpoint, writeUnit's statements do nothing,
 * and every copyFrom is kept (stage_<table> is the writer's staging of <table>).
 */
function capturingDatabase(): { db: Database; tables: Map<string, Captured> } {
  const tables = new Map<string, Captured>();
  const q: Queryable = {
    async query() {
      return { rows: [], rowCount: 0 };
    },
    async exec() {},
    async copyFrom(table, columns, rows) {
      const name = table.replace(/^stage_/, '');
      let t = tables.get(name);
      if (!t) {
        t = { columns, rows: [] };
        tables.set(name, t);
      }
      if (rows instanceof EncodedCopy)
        throw new Error('bench/ingest: the capture phase decodes in-process (no encoded rows)');
      let n = 0;
      for await (const r of rows) {
        t.rows.push(r);
        n++;
      }
      return n;
    },
  };
  return { db: { kind: 'postgres', ...q, transaction: (fn) => fn(q), close: async () => {} }, tables };
}

/**
 * What the writer's conflict rules leave of the captured rows, so one COPY per table can hold them: the first row
 * per hash for the content-addressed tables (ON CONFLICT DO NOTHING), the highest last_trans_lt per account for
 * latest_account_states (the forward-only upsert).
 */
function finalRows(table: string, c: Captured): (readonly unknown[])[] {
  if (table === 'message_contents' || table === 'account_states') {
    const seen = new Map<string, readonly unknown[]>();
    for (const r of c.rows) {
      const k = String(r[0]);
      if (!seen.has(k)) seen.set(k, r);
    }
    return [...seen.values()];
  }
  if (table === 'latest_account_states') {
    const lt = LATEST_ACCOUNT_STATE_COLUMNS.indexOf('last_trans_lt');
    const best = new Map<string, readonly unknown[]>();
    for (const r of c.rows) {
      const k = String(r[0]);
      const have = best.get(k);
      if (!have || (have[lt] as bigint) < (r[lt] as bigint)) best.set(k, r);
    }
    return [...best.values()];
  }
  return c.rows;
}

async function backfill(): Promise<void> {
  const history = resolve(values.history as string);
  const marker = await readFile(join(history, 'COMPLETE.json'), 'utf8').catch(() => null);
  if (!marker) {
    console.error(
      `bench/ingest: no finished history in ${history} (COMPLETE.json); build it once with\n` +
        `  node --import tsx scripts/build-history.ts${values.history === 'data/bench-history' ? '' : ` --out ${history}`}`,
    );
    process.exit(2);
  }
  const store = join(history, 'devnet');
  const source: BlockSource = await createDevnetStoreSource(store);
  cleanups.push(() => source.close());
  const head = await source.head();
  const last = Math.min(head, blocksLimit ?? head);
  const seqnos = Array.from({ length: last }, (_, i) => i + 1);
  log(`history ${store}: masterchain blocks 1..${last} of ${head}, concurrency ${concurrency}`);

  // 1. decode: the pipeline without a database.
  const cap = capturingDatabase();
  const tDecode0 = performance.now();
  const decoded = await mapLimit(seqnos, concurrency, (n) => indexMcBlock(n, { source, db: cap.db }));
  const decodeSeconds = (performance.now() - tDecode0) / 1000;
  const transactions = decoded.reduce((s, r) => s + r.transactions, 0);
  log(
    `decode: ${transactions} transactions in ${round(decodeSeconds)} s (rows held: heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB)`,
  );

  // 2. copy: the same rows, one COPY per table, into a fresh database.
  const base = await scratchDatabase('copy');
  const rowsByTable = new Map<Table, { columns: readonly string[]; rows: (readonly unknown[])[] }>();
  for (const t of TABLES) {
    const c = cap.tables.get(t);
    if (c) rowsByTable.set(t, { columns: c.columns, rows: finalRows(t, c) });
  }
  cap.tables.clear();
  await base.settle();
  const copyTimes: Record<string, number> = {};
  const tCopy0 = performance.now();
  for (const [t, { columns, rows }] of rowsByTable) {
    const s = performance.now();
    await base.db.copyFrom(t, columns, rows);
    copyTimes[t] = round((performance.now() - s) / 1000);
  }
  const copySeconds = (performance.now() - tCopy0) / 1000;
  const copyRows = Object.fromEntries([...rowsByTable].map(([t, r]) => [t, r.rows.length]));
  rowsByTable.clear();
  log(`copy: ${round(copySeconds)} s (${JSON.stringify(copyTimes)})`);
  const baseCounts = await tableCounts(base.db);

  // 3. ingest: planBackfill + the worker on the in-process queue, as `tongate walk backfill` does, decoding on
  // `threads` decode threads (0: on the main thread), each run into a fresh database.
  interface IngestRun {
    threads: number;
    seconds: number;
    mainThreadBusy: number;
    jobSeconds: ReturnType<ReturnType<typeof instrument>['report']>;
    bulk?: { drop: number; load: number; restore: number; dropped: number };
  }
  const ingest = async (
    threads: number,
    opts: { profile?: boolean; bulk?: boolean; traces?: boolean } = {},
  ): Promise<IngestRun> => {
    const target = await scratchDatabase(opts.bulk ? 'bulk' : `ingest${threads}`);
    await base.settle();
    await target.settle();
    const queue = createQueue({ kind: 'local' });
    cleanups.push(() => queue.close());
    const decoder = threads > 0 ? createDecodePool({ source, threads }) : undefined;
    // Timed from planning: the threads' start-up (loading their code) is a process's, once, not the backfill's.
    await decoder?.ready();
    let failed = 0;
    const worker = startIndexWorker({
      queue,
      source,
      db: target.db,
      concurrency: concurrencyFlag ?? Math.max(concurrency, 2 * threads),
      traces: opts.traces === true,
      ...(decoder ? { decoder } : {}),
      onFailed: (n, e, final) => {
        if (final) failed++;
        log(`masterchain block ${n} failed${final ? ' for good' : ''}: ${e.message.split('\n')[0]}`);
      },
    });
    // Per-phase job time (summed over concurrent jobs): what the source and the write transactions took.
    const timed = instrument(source, target.db);
    let session: Session | undefined;
    if (opts.profile) {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
    }
    const load = async () => {
      await planBackfill({ queue, db: target.db, from: 1, to: last });
      await queue.whenIdle(INDEX_MC_BLOCK);
    };
    const tIngest0 = performance.now();
    const elu0 = performance.eventLoopUtilization();
    let bulk: IngestRun['bulk'];
    if (opts.bulk) {
      const r = await bulkBackfill({ database: target.cfg, load });
      bulk = { ...r.seconds, dropped: r.drop.recorded };
    } else {
      await load();
    }
    const run: IngestRun = {
      threads,
      seconds: (performance.now() - tIngest0) / 1000,
      mainThreadBusy: performance.eventLoopUtilization(elu0).utilization,
      jobSeconds: timed.report(),
      ...(bulk ? { bulk } : {}),
    };
    timed.restore();
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await writeFile('bench-ingest.cpuprofile', JSON.stringify(profile));
      profileReport = summarizeProfile(profile as Parameters<typeof summarizeProfile>[0]);
    }
    await worker.close();
    await decoder?.close();
    const ingestCounts = await tableCounts(target.db);
    const checkpoints = Number(
      (await target.db.query<{ n: string }>(`SELECT count(*) AS n FROM index_checkpoints WHERE part = 'core'`)).rows[0]!
        .n,
    );
    const mismatched = TABLES.filter((t) => ingestCounts[t] !== baseCounts[t]);
    if (failed > 0 || checkpoints !== last)
      log(`WARNING: ${failed} jobs failed; ${checkpoints} of ${last} checkpoints`);
    if (mismatched.length > 0) {
      allCountsMatch = false;
      log(
        `WARNING: row counts differ from the copy baseline: ${mismatched.map((t) => `${t} ${ingestCounts[t]} vs ${baseCounts[t]}`).join(', ')}`,
      );
    }
    await target.drop();
    log(
      `ingest (${threads} decode threads${opts.bulk ? ', --bulk' : ''}${opts.traces ? ', with traces and actions' : ''}): ${round(transactions / run.seconds)} tx/s, ${round(run.seconds)} s`,
    );
    return run;
  };
  let profileReport: ReturnType<typeof summarizeProfile> | undefined;
  let allCountsMatch = true;
  const main = await ingest(decodeThreads, { profile: values.profile === true });
  const ingestSeconds = main.seconds;
  const mainThreadBusy = main.mainThreadBusy;
  const timedReport = main.jobSeconds;
  // --decode-threads-compare 1,2: the same ingest on N decode threads each, against the main thread alone.
  // --decode-threads N given explicitly prints its speed-up too (against a run decoding on the main thread).
  const asked = [...compareThreads, ...(values['decode-threads'] !== undefined ? [decodeThreads] : [])];
  const compare = asked.some((t) => t !== 0) ? [0, ...new Set(asked.filter((t) => t !== 0))] : [];
  const speedups: Array<{ threads: number; txPerSecond: number; speedup: number }> = [];
  let inProcess = 0;
  for (const t of compare) {
    const r = t === decodeThreads ? main : await ingest(t);
    const tps = transactions / r.seconds;
    if (t === 0) inProcess = tps;
    speedups.push({ threads: t, txPerSecond: round(tps), speedup: round(tps / inProcess, 3) });
  }
  const bulkRun = values.bulk ? await ingest(decodeThreads, { bulk: true }) : undefined;
  // The whole of what `walk backfill` does by default: the core rows, then trace assembly (trace ids written onto
  // the rows, traces, pending edges) and classification (actions): more tables than the raw COPY writes.
  const fullRun = values['no-traces'] ? undefined : await ingest(decodeThreads, { traces: true });

  const ingestTps = transactions / ingestSeconds;
  const copyTps = transactions / copySeconds;
  const decodeTps = transactions / decodeSeconds;
  const report = {
    database: values.pglite ? 'pglite' : 'postgres',
    history: store,
    mcBlocks: last,
    transactions,
    concurrency,
    rows: copyRows,
    decodeThreads,
    cells: cellHasherName(),
    ingest: {
      txPerSecond: round(ingestTps),
      seconds: round(ingestSeconds),
      mainThreadBusy: round(mainThreadBusy),
      jobSeconds: timedReport,
    },
    ...(speedups.length > 0 ? { decodeThreadSpeedups: speedups } : {}),
    ...(bulkRun
      ? {
          bulk: {
            txPerSecond: round(transactions / bulkRun.seconds),
            ratioToIndexedCopy: round(transactions / bulkRun.seconds / copyTps, 3),
            seconds: bulkRun.bulk,
          },
        }
      : {}),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    copy: { txPerSecond: round(copyTps), seconds: round(copySeconds), secondsPerTable: copyTimes },
    decodeOnly: { txPerSecond: round(decodeTps), seconds: round(decodeSeconds) },
    ratio: round(ingestTps / copyTps, 3),
    rowCountsMatch: allCountsMatch,
  };
  console.log(JSON.stringify(report, null, 2));
  const pr = profileReport as ReturnType<typeof summarizeProfile> | undefined;
  if (pr) {
    const pct = (ms: number) => `${((100 * ms) / pr.totalMs).toFixed(1).padStart(5)}%`;
    console.log(`profile of the ingest phase (bench-ingest.cpuprofile), self time, ${round(pr.totalMs)} ms:`);
    for (const [k, ms] of pr.byArea.slice(0, 15)) console.log(`  ${pct(ms)}  ${k}`);
    console.log('top functions:');
    for (const [k, ms] of pr.byFunction.slice(0, 25)) console.log(`  ${pct(ms)}  ${k}`);
  }
  for (const sp of speedups) {
    console.log(
      `bench/ingest: --decode-threads ${sp.threads}: ${sp.txPerSecond} tx/s = ${sp.speedup} x decoding on the main thread`,
    );
  }
  if (bulkRun) {
    const tps = transactions / bulkRun.seconds;
    console.log(
      `bench/ingest: --bulk ${round(tps)} tx/s = ${round(tps / copyTps, 3)} x the raw COPY into the indexed tables (drop ${round(bulkRun.bulk?.drop ?? 0)} s, load ${round(bulkRun.bulk?.load ?? 0)} s, rebuild ${round(bulkRun.bulk?.restore ?? 0)} s)`,
    );
  }
  if (fullRun) {
    const tps = transactions / fullRun.seconds;
    console.log(
      `bench/ingest: with trace assembly and classification (walk backfill's default; traces, actions and trace ids written on top of the core rows): ${round(tps)} tx/s = ${round(tps / copyTps, 3)} x the raw COPY of the core rows`,
    );
  }
  console.log(`bench/ingest: peak RSS ${report.peakRssMiB} MiB (this process and its decode threads)`);
  console.log(projection(decodeTps, copyTps, ingestTps, decodeThreads));
  console.log(
    `bench/ingest: ${round(ingestTps)} tx/s into ${report.database} = ${round(ingestTps / copyTps, 3)} x a raw COPY of the same rows (${round(copyTps)} tx/s); decode alone ${round(decodeTps)} tx/s`,
  );
}

/**
 * Days to index 4 billion transactions (TON's history, order of magnitude) on N cores, from this run's figures.
 * Assumptions, printed with it: decoding scales with cores (threads and processes: it shares nothing) at the
 * single-thread decode rate measured here; PostgreSQL on cores of its own writes at the raw COPY rate measured here
 * per core it has (COPY is CPU-bound on one core per stream); mainnet transactions cost what this history's do
 * (devnet wallet transfers: mainnet ones carry larger bodies and states, so this is a lower bound).
 */
function projection(decodeTps: number, copyTps: number, ingestTps: number, threads: number): string {
  const total = 4e9;
  const lines = [
    'bench/ingest: projection for 4e9 transactions (decode scales with cores at the single-thread rate measured here,',
    `  ${round(decodeTps)} tx/s; PostgreSQL writes at the raw COPY rate measured here, ${round(copyTps)} tx/s per core it gets;`,
    `  measured end to end here: ${round(ingestTps)} tx/s on this machine with ${threads} decode threads):`,
  ];
  for (const cores of [2, 8, 32, 64]) {
    const decodeCores = Math.max(1, Math.floor(cores / 2));
    const dbCores = Math.max(1, cores - decodeCores);
    const rate = Math.min(decodeCores * decodeTps, dbCores * copyTps);
    lines.push(
      `  ${String(cores).padStart(2)} cores (${decodeCores} decoding, ${dbCores} for PostgreSQL): ${round(rate)} tx/s, ${round(total / rate / 86400, 1)} days`,
    );
  }
  return lines.join('\n');
}

/** Wraps the source and the database to sum the time jobs spend in each (concurrent jobs overlap). */
function instrument(source: BlockSource, db: Database) {
  const spent = { source: 0, write: 0, accountStates: 0 };
  const wrap = <A extends unknown[], R>(
    obj: Record<string, unknown>,
    key: string,
    bucket: keyof typeof spent,
  ): void => {
    const orig = obj[key] as (...a: A) => Promise<R>;
    obj[key] = async (...a: A) => {
      const s = performance.now();
      try {
        return await orig.apply(obj, a);
      } finally {
        spent[bucket] += performance.now() - s;
      }
    };
  };
  const src = source as unknown as Record<string, unknown>;
  const dbo = db as unknown as Record<string, unknown>;
  const originals = {
    mcBlock: src.mcBlock,
    block: src.block,
    accountStates: src.accountStates,
    transaction: dbo.transaction,
  };
  wrap(src, 'mcBlock', 'source');
  wrap(src, 'block', 'source');
  wrap(src, 'accountStates', 'accountStates');
  wrap(dbo, 'transaction', 'write');
  return {
    /** Unwraps the source, so the next run's wrappers do not nest in these. */
    restore() {
      src.mcBlock = originals.mcBlock;
      src.block = originals.block;
      src.accountStates = originals.accountStates;
      dbo.transaction = originals.transaction;
    },
    report: () => ({
      readBlocks: round(spent.source / 1000),
      accountStates: round(spent.accountStates / 1000),
      writeTransactions: round(spent.write / 1000),
    }),
  };
}

// ---- tail ------------------------------------------------------------------------------------------------------

async function tail(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tongate-bench-tail-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const node = createDevnetNode({ dataDir: dir, litePort: 0, blockIntervalMs: 400, seed: 'bench-tail', logEvery: 0 });
  const committedAt = new Map<number, { at: number; genUtime: number }>();
  node.onBlock((e) => committedAt.set(e.mcSeqno, { at: Date.now(), genUtime: e.genUtime }));
  log('starting a devnet (400 ms blocks) with the activity generator ...');
  const info = await node.start();
  cleanups.push(() => node.stop());
  const activity = await startActivity({
    liteConfig: info.globalConfigFile,
    wallets: info.walletsFile,
    seed: 'bench-tail',
    log: () => {},
  });
  cleanups.push(async () => {
    await activity.stop();
  });

  const target = await scratchDatabase('tail');
  let pool: LitePool | undefined;
  let source: BlockSource;
  if (values.source === 'lite') {
    pool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers });
    const p = pool;
    cleanups.push(() => p.close());
    source = createLiteSource(pool);
  } else {
    source = await createDevnetStoreSource(info.devnetDir);
  }
  cleanups.push(() => source.close());
  const queue = createQueue({ kind: 'local' });
  cleanups.push(() => queue.close());
  const indexedAt = new Map<number, number>();
  const worker = startIndexWorker({
    queue,
    source,
    db: target.db,
    concurrency,
    onIndexed: (r) => {
      if (!r.skipped) indexedAt.set(r.mcSeqno, Date.now());
    },
  });
  cleanups.push(() => worker.close());

  // Warm-up: the genesis wallets deploy and the activity starts; then follow the head from the next block.
  await sleep(3000);
  const from = node.info().head.seqno + 1;
  const ac = new AbortController();
  let tailError: unknown;
  const tailing = runTail({ queue, db: target.db, source, from, pollMs, signal: ac.signal }).catch((e) => {
    tailError = e;
  });
  log(`tailing from masterchain block ${from} for ${seconds} s (poll ${pollMs} ms, ${values.source} source) ...`);
  const elu0 = performance.eventLoopUtilization();
  await sleep(seconds * 1000);
  const to = node.info().head.seqno;
  const mainThreadBusy = performance.eventLoopUtilization(elu0).utilization;
  // Let the blocks of the window finish (bounded).
  const deadline = performance.now() + 15_000;
  while (performance.now() < deadline) {
    let all = true;
    for (let n = from; n <= to; n++) if (!indexedAt.has(n)) all = false;
    if (all) break;
    await sleep(100);
  }
  ac.abort();
  await tailing;
  if (tailError) throw tailError;

  const lags: number[] = [];
  const genLags: number[] = [];
  let missing = 0;
  for (let n = from; n <= to; n++) {
    const c = committedAt.get(n);
    const i = indexedAt.get(n);
    if (!c || i === undefined) {
      missing++;
      continue;
    }
    lags.push(i - c.at);
    genLags.push(i - c.genUtime * 1000);
  }
  lags.sort((a, b) => a - b);
  genLags.sort((a, b) => a - b);
  const commits = [...committedAt.entries()].filter(([n]) => n >= from && n <= to).map(([, c]) => c.at);
  const interval = commits.length > 1 ? (commits.at(-1)! - commits[0]!) / (commits.length - 1) : Number.NaN;
  const counters = activity.counters;
  const txs = Number(
    (
      await target.db.query<{ n: string }>(
        `SELECT coalesce(sum((row_counts->>'transactions')::bigint), 0) AS n FROM index_checkpoints WHERE mc_seqno BETWEEN $1 AND $2`,
        [from, to],
      )
    ).rows[0]!.n,
  );
  const p50 = quantile(lags, 0.5);
  const p95 = quantile(lags, 0.95);
  console.log(
    JSON.stringify(
      {
        database: values.pglite ? 'pglite' : 'postgres',
        source: values.source,
        pollMs,
        concurrency,
        seconds,
        mcBlocks: { from, to, indexed: lags.length, missing },
        transactions: txs,
        activitySteps: { ok: counters.ok, failed: counters.failed },
        blockIntervalMs: round(interval),
        lagFromCommitMs: { p50: round(p50), p95: round(p95), max: round(lags.at(-1) ?? Number.NaN) },
        lagFromGenUtimeMs: { p50: round(quantile(genLags, 0.5)), p95: round(quantile(genLags, 0.95)) },
        lagInBlockIntervals: { p50: round(p50 / interval), p95: round(p95 / interval) },
        mainThreadBusy: round(mainThreadBusy),
      },
      null,
      2,
    ),
  );
  console.log(
    `bench/ingest --tail: lag from the node's commit to the checkpoint p50 ${round(p50)} ms, p95 ${round(p95)} ms = ${round(p50 / interval)} / ${round(p95 / interval)} block intervals (${round(interval)} ms), ${lags.length} blocks, ${missing} missing`,
  );
}

try {
  if (values.tail) await tail();
  else await backfill();
} finally {
  await cleanup();
}
