// bench/api-load: the API server under a mixed closed-loop load over real HTTP, each result printed as a ratio to a
// baseline measured in the same run (machines are shared and noisy, so only the ratios mean anything).
//
// The stack: a devnet (`tongate devnet`, 400 ms blocks, a child process so that its block production shares neither
// this event loop nor this process's RSS) runs --cycles core activity cycles (transfers of every wallet version, a
// jetton, an NFT collection, bounces); its blocks are indexed by the real pipeline (indexMcBlock with the contract
// decoders, trace assembly, action classification) into PGlite or PostgreSQL; then `tongate serve` (v2 on a
// liteserver pool over the devnet, v3 on the database) runs as its own process on 127.0.0.1, as deployed: its event
// loop serves requests only, and the load generator (this process) neither delays it nor counts in its RSS.
// Clients are node:http keep-alive sockets, one request in flight each (closed loop). The devnet keeps producing
// blocks during the load, so "latest" answers age as they do on a live network.
//
// The requests, as a client would send them, on addresses read from the index:
//   getAddressInformation  GET /api/v2/getAddressInformation?address=A, A round-robin over every indexed account;
//   runGetMethod           POST /api/v2/runGetMethod {address, method, stack: []}, alternately `seqno` on an active
//                          wallet (round-robin over them) and `get_jetton_data` on a jetton master of the activity;
//   transactions           GET /api/v3/transactions?limit=100 (the newest 100, with their messages);
//   actions                GET /api/v3/actions?limit=100.
// Phases:
//   (1) idle /healthz: sequential requests on one socket, nothing else running, for as long as (2) probes (half
//       before (2), half after; a p99 over a couple of thousand requests is one machine hiccup away): p50/p99;
//   (2) /healthz (sequential, its own socket) while --connections loops keep runGetMethod calls running: p99 as a
//       ratio to (1)'s p99 (target <= 3x): what a get-method costs the event loop everyone shares;
//   (3) mixed load for --duration s: the connections split evenly over the four routes (connection i serves route
//       i mod 4), per route rps, p50, p99, max, non-200 answers by status, share answered from v2's cache; RSS
//       (the server process's VmRSS) and completions sampled every second, and the server's event-loop lag (its
//       own /metrics);
//   (4) baseline "served from cache": the same mix on the same connections (v3 loops included, same addresses in
//       the same round-robin), but every v2 read is answered by v2's response cache (src/api/v2/cache.ts). That
//       cache keeps an account read at the head for only LATEST_TTL_MS (200 ms), so "the same request repeated
//       within the TTL" gives hits only while each address is asked more than five times a second, which a loaded
//       server (or a longer address list) does not do: a baseline built that way measures the cache's hit rate,
//       not the cost of a cached answer. The cache keeps an account read at a fixed masterchain block for good,
//       though, so the baseline asks the same reads with `seqno` = one recent masterchain block (each target asked
//       once before, untimed): every answer then comes from the cache (":c" in @extra; the share is printed, 100%
//       expected), with the same shape and size as at the head. Caveat: the cache holds account states, not
//       get-method results, so a cached runGetMethod still runs the VM on the cached state: for runGetMethod the
//       baseline removes the liteserver round trips (head lookup, account state, proof checks), not the VM. The
//       baseline runs half before (3) and half after it (--duration/4 s each, at least 3 s), so drift in the
//       machine's load hits both alike. Printed: throughput in (3) / in (4) per route, and for the v2 reads
//       (getAddressInformation + runGetMethod) together (target >= 0.5x). (3)'s own cache share is printed too:
//       round-robin over the indexed accounts repeats an address only every (accounts / rps) seconds, but the few
//       wallets and jetton masters are asked so often that many of their reads are hits in (3) as well.
// RSS "flat": the least-squares slope of RSS over the last 2/3 of (3) (the first third is warm-up: JIT, heap growth),
// in MB/min, printed with start, peak and end; the verdict is "flat" when slope x run length is under 5% of the mean
// RSS, else "growing"/"shrinking".
//
// Usage: npm run bench:api-load [-- --duration S --connections N --db pglite|postgres --cycles C]
// Profiling the server: SERVE_NODE_ARGS='--cpu-prof --cpu-prof-dir=prof' passes node flags to `tongate serve`.
import { type ChildProcess, spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { librariesFrom } from '../src/app.ts';
import type { DatabaseConfig } from '../src/common/index.ts';
import { createDatabase, type Database, migrate } from '../src/db/index.ts';
import { CORE_CYCLE, devnetDnsRoots, startActivity } from '../src/devnet/activity/index.ts';
import { GLOBAL_CONFIG_FILE, WALLETS_FILE } from '../src/devnet/node/index.ts';
import { classifyMcBlock } from '../src/index/actions/index.ts';
import { createContractsEnv } from '../src/index/contracts/index.ts';
import { createLiteSource, indexMcBlock } from '../src/index/index.ts';
import { assembleTraces } from '../src/index/traces/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig } from '../src/lite/index.ts';
import { knownWalletCode } from '../src/ton/index.ts';
import { createScratchPostgres } from './support/postgres-scratch.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '20' },
    db: { type: 'string' },
    cycles: { type: 'string', default: '2' },
    help: { type: 'boolean', short: 'h' },
  },
});
const ENV_URL = process.env.DATABASE_URL || process.env.TONGATE_TEST_DATABASE_URL;
if (values.help) {
  console.log(`Usage: npm run bench:api-load [-- options]
The API server (tongate serve, its own process, on 127.0.0.1) under N keep-alive HTTP connections in a closed
loop, on a devnet (child process, 400 ms blocks) whose activity is indexed into a database. Phases:
  (1) idle /healthz latency (sequential requests for as long as (2) runs): p50/p99
  (2) /healthz p99 while N connections keep v2 runGetMethod calls running, as a ratio to (1) (target <= 3x)
  (3) the mixed load for --duration s: v2 getAddressInformation + runGetMethod (seqno on wallets, get_jetton_data
      on jetton masters), v3 /transactions?limit=100 + /actions?limit=100, N/4 connections each: rps, p50, p99,
      errors by status per route; RSS every second (start, peak, end, slope over the last 2/3)
  (4) the same mix with every v2 read answered from v2's response cache (the same reads at one recent masterchain
      seqno, which the cache keeps for good; half before (3), half after): v2-read throughput of (3) as a ratio to
      it (target >= 0.5x). A cached runGetMethod still runs the VM: the cache holds account states, not results.
Options:
  --duration S       seconds of the mixed load (default 60)
  --connections N    concurrent connections (default 20)
  --db KIND          pglite (a temp dir) or postgres (a scratch database on DATABASE_URL, else
                     TONGATE_TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres, dropped at the end);
                     default postgres when one of those variables is set, else pglite
  --cycles C         core activity cycles (10 steps each) the devnet runs before indexing (default 2)
A run takes about 1.5 x --duration + 80 s (setup ~45 s: devnet, activity, indexing; phases 1 and 2 up to 30 s).`);
  process.exit(0);
}

const fail = (msg: string): never => {
  console.error(`bench/api-load: ${msg}`);
  process.exit(2);
};
const duration = Number(values.duration);
if (!(duration > 0)) fail('--duration must be a number of seconds > 0');
const connections = Number(values.connections);
if (!Number.isInteger(connections) || connections < 1) fail('--connections must be an integer >= 1');
const cycles = Number(values.cycles);
if (!Number.isInteger(cycles) || cycles < 1) fail('--cycles must be an integer >= 1');
const dbKind = values.db ?? (ENV_URL ? 'postgres' : 'pglite');
if (dbKind !== 'pglite' && dbKind !== 'postgres') fail(`--db must be pglite or postgres, got '${dbKind}'`);

const log = (msg: string) => console.error(`bench/api-load: ${msg}`);
const out = (line: string) => console.log(line);

/** Seconds of phase (2), and of phase (1) (sequential /healthz for as long, so both p99 cover as many requests). */
const PROBE_SECONDS = Math.max(5, Math.min(15, duration / 4));
/** Seconds of each half of phase (4). */
const CACHED_HALF_SECONDS = Math.max(3, duration / 4);
/** A request silent this long counts as a stall ("timeout") and is given up. */
const REQUEST_TIMEOUT_MS = 30_000;
const BLOCK_INTERVAL_MS = 400;

// ---- latency histograms: constant memory whatever the request count ---------------------------------------------

const BUCKET_GROWTH = 1.01;
const LOG_GROWTH = Math.log(BUCKET_GROWTH);
const MIN_MS = 0.001;

class Histogram {
  readonly counts = new Uint32Array(2300);
  n = 0;
  max = 0;
  add(ms: number): void {
    const i = ms <= MIN_MS ? 0 : Math.min(this.counts.length - 1, Math.ceil(Math.log(ms / MIN_MS) / LOG_GROWTH));
    this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.n++;
    if (ms > this.max) this.max = ms;
  }
  /** The p-quantile, as the upper edge of its bucket (within 1%). */
  q(p: number): number {
    if (this.n === 0) return Number.NaN;
    const target = Math.max(1, Math.ceil(p * this.n));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i] ?? 0;
      if (seen >= target) return Math.min(this.max, MIN_MS * BUCKET_GROWTH ** i);
    }
    return this.max;
  }
}

// ---- HTTP -------------------------------------------------------------------------------------------------------

interface Req {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}
interface Reply {
  /** 0 when no answer came (socket error, stall). */
  status: number;
  body: Buffer;
  error?: string;
}

const EMPTY = Buffer.alloc(0);

function send(port: number, agent: Agent, r: Req): Promise<Reply> {
  return new Promise((resolve) => {
    const headers =
      r.body === undefined
        ? undefined
        : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(r.body)) };
    const req = request(
      { host: '127.0.0.1', port, method: r.method, path: r.path, agent, headers, timeout: REQUEST_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', (e) => resolve({ status: 0, body: EMPTY, error: e.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS / 1000} s`)));
    req.on('error', (e) => resolve({ status: 0, body: EMPTY, error: e.message }));
    req.end(r.body);
  });
}

const describe = (r: Req) => `${r.method} ${r.path}${r.body ? ` ${r.body}` : ''}`;
/** v2 marks an answer from its response cache with ":c" at the end of @extra. */
const CACHED_MARK = /"@extra":"[^"]*:c"/;

// ---- routes and their statistics -------------------------------------------------------------------------------

interface Stats {
  hist: Histogram;
  statuses: Map<string, number>;
  cached: number;
  bytes: number;
}
const newStats = (): Stats => ({ hist: new Histogram(), statuses: new Map(), cached: 0, bytes: 0 });

interface Anomaly {
  phase: string;
  route: string;
  request: string;
  status: string;
  detail: string;
  atS: number;
}
const anomalies: Anomaly[] = [];
let anomalyCount = 0;
const t0Run = performance.now();

/** One request: timed, counted into `stats`; a non-200 answer or a failure is noted (the first 20 kept). */
async function timed(port: number, agent: Agent, phase: string, route: string, r: Req, stats: Stats, v2: boolean) {
  const s = performance.now();
  const reply = await send(port, agent, r);
  const ms = performance.now() - s;
  stats.hist.add(ms);
  const status =
    reply.status === 0 ? (reply.error?.startsWith('no answer') ? 'timeout' : 'error') : String(reply.status);
  stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
  stats.bytes += reply.body.length;
  if (v2 && reply.status === 200 && CACHED_MARK.test(reply.body.toString('latin1'))) stats.cached++;
  if (reply.status !== 200) {
    anomalyCount++;
    if (anomalies.length < 20) {
      anomalies.push({
        phase,
        route,
        request: describe(r),
        status,
        detail: (reply.error ?? reply.body.toString('utf8')).slice(0, 300),
        atS: (performance.now() - t0Run) / 1000,
      });
    }
  }
  return reply;
}

/** Hands out the addresses of a list round-robin (one counter per list, shared by the loops). */
type Pick = (list: readonly string[]) => string;

const roundRobin = (): Pick => {
  const next = new Map<readonly string[], number>();
  return (list) => {
    const i = next.get(list) ?? 0;
    next.set(list, i + 1);
    return list[i % list.length]!;
  };
};

interface Targets {
  accounts: string[];
  wallets: string[];
  jettonMasters: string[];
}

const ROUTES = ['getAddressInformation', 'runGetMethod', 'transactions', 'actions'] as const;
type Route = (typeof ROUTES)[number];
/** Rows of the tables: runGetMethod is shown per get-method. */
const ROWS = [
  'getAddressInformation',
  'runGetMethod seqno',
  'runGetMethod get_jetton_data',
  'transactions',
  'actions',
] as const;
type Row = (typeof ROWS)[number];
const V2_ROWS: readonly Row[] = ['getAddressInformation', 'runGetMethod seqno', 'runGetMethod get_jetton_data'];

/** getAddressInformation of `address`, at the head or at masterchain block `at`. */
const addressInformation = (address: string, at?: number): Req => ({
  method: 'GET',
  path: `/api/v2/getAddressInformation?address=${encodeURIComponent(address)}${at === undefined ? '' : `&seqno=${at}`}`,
});
/** runGetMethod `method` (no arguments) on `address`, at the head or at masterchain block `at`. */
const getMethod = (address: string, method: string, at?: number): Req => ({
  method: 'POST',
  path: '/api/v2/runGetMethod',
  body: JSON.stringify(at === undefined ? { address, method, stack: [] } : { address, method, stack: [], seqno: at }),
});

/**
 * The next request of a route's loop, and the table row it counts in. v2 reads ask at the head, or at masterchain
 * block `at` (phase 4: answers v2's cache keeps for good).
 */
function requestFor(route: Route, t: Targets, pick: Pick, flip: { n: number }, at?: number): { row: Row; req: Req } {
  switch (route) {
    case 'getAddressInformation':
      return { row: 'getAddressInformation', req: addressInformation(pick(t.accounts), at) };
    case 'runGetMethod': {
      const seqno = flip.n++ % 2 === 0;
      return seqno
        ? { row: 'runGetMethod seqno', req: getMethod(pick(t.wallets), 'seqno', at) }
        : { row: 'runGetMethod get_jetton_data', req: getMethod(pick(t.jettonMasters), 'get_jetton_data', at) };
    }
    case 'transactions':
      return { row: 'transactions', req: { method: 'GET', path: '/api/v3/transactions?limit=100' } };
    case 'actions':
      return { row: 'actions', req: { method: 'GET', path: '/api/v3/actions?limit=100' } };
  }
}

interface LoadResult {
  rows: Map<Row, Stats>;
  seconds: number;
  /** Completed requests in each whole second of the run. */
  perSecond: number[];
}

/**
 * `routes[i]` is connection i's route; each loop keeps one request in flight until `seconds` have passed.
 * `onSecond` is called once a second with the completions of that second.
 */
async function runLoad(opts: {
  port: number;
  agent: Agent;
  phase: string;
  routes: readonly Route[];
  targets: Targets;
  pick: Pick;
  /** v2 reads at this masterchain seqno instead of the head. */
  at?: number;
  seconds: number;
  onSecond?: (completed: number) => void;
}): Promise<LoadResult> {
  const rows = new Map<Row, Stats>(ROWS.map((r) => [r, newStats()]));
  const flip = { n: 0 };
  let completed = 0;
  const perSecond: number[] = [];
  const start = performance.now();
  const end = start + opts.seconds * 1000;
  const tick = setInterval(() => {
    perSecond.push(completed);
    opts.onSecond?.(completed);
    completed = 0;
  }, 1000);
  try {
    await Promise.all(
      opts.routes.map(async (route) => {
        while (performance.now() < end) {
          const { row, req } = requestFor(route, opts.targets, opts.pick, flip, opts.at);
          await timed(
            opts.port,
            opts.agent,
            opts.phase,
            row,
            req,
            rows.get(row)!,
            row !== 'transactions' && row !== 'actions',
          );
          completed++;
        }
      }),
    );
  } finally {
    clearInterval(tick);
  }
  return { rows, seconds: (performance.now() - start) / 1000, perSecond };
}

function mergeLoads(a: LoadResult, b: LoadResult): LoadResult {
  const rows = new Map<Row, Stats>(ROWS.map((r) => [r, mergeStats(a.rows.get(r)!, b.rows.get(r)!)]));
  return { rows, seconds: a.seconds + b.seconds, perSecond: [...a.perSecond, ...b.perSecond] };
}

// ---- printing ---------------------------------------------------------------------------------------------------

const f = (v: number, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '-');
const verdict = (met: boolean) => (met ? 'met' : 'not met');
const errorsOf = (s: Stats) =>
  [...s.statuses]
    .filter(([k]) => k !== '200')
    .map(([k, v]) => `${k}x${v}`)
    .join(' ') || '-';
const v2Rps = (l: LoadResult) => V2_ROWS.reduce((n, r) => n + l.rows.get(r)!.hist.n, 0) / l.seconds;

function printLoad(l: LoadResult): void {
  out(
    `  ${'route'.padEnd(30)}${'conns'.padStart(6)}${'rps'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}` +
      `${'max ms'.padStart(9)}${'cached'.padStart(8)}${'KB/resp'.padStart(9)}  non-200`,
  );
  let total = 0;
  for (const r of ROWS) {
    const s = l.rows.get(r)!;
    total += s.hist.n;
    const conns = connectionsOf(r);
    const v2 = (V2_ROWS as readonly string[]).includes(r);
    out(
      `  ${r.padEnd(30)}${conns.padStart(6)}${f(s.hist.n / l.seconds, 0).padStart(9)}${f(s.hist.q(0.5)).padStart(9)}` +
        `${f(s.hist.q(0.99)).padStart(9)}${f(s.hist.max, 1).padStart(9)}` +
        `${(v2 ? `${f((100 * s.cached) / Math.max(1, s.hist.n), 1)}%` : '').padStart(8)}` +
        `${f(s.bytes / Math.max(1, s.hist.n) / 1024, 1).padStart(9)}  ${errorsOf(s)}`,
    );
  }
  const ps = [...l.perSecond].sort((a, b) => a - b);
  out(
    `  total ${f(total / l.seconds, 0)} rps over ${f(l.seconds, 1)} s; v2 reads ${f(v2Rps(l), 0)} rps; completions per ` +
      `second min ${ps[0] ?? '-'} / median ${ps[Math.floor(ps.length / 2)] ?? '-'} / max ${ps[ps.length - 1] ?? '-'}`,
  );
  out("  ((N): runGetMethod's N connections alternate seqno and get_jetton_data)");
}

let routeOf: readonly Route[] = [];
function connectionsOf(row: Row): string {
  const route: Route = row.startsWith('runGetMethod') ? 'runGetMethod' : (row as Route);
  const n = routeOf.filter((r) => r === route).length;
  return row.startsWith('runGetMethod') ? `(${n})` : String(n);
}

// ---- the stack --------------------------------------------------------------------------------------------------

/** `tongate devnet` as a child process in `dir`; resolves once its global config and wallets are written. */
async function startDevnet(dir: string): Promise<{ child: ChildProcess; configFile: string; walletsFile: string }> {
  const bin = fileURLToPath(new URL('../bin/tongate.js', import.meta.url));
  const args = ['devnet', '--data', dir, '--lite-port', '0', '--http-port', '0', '--block-interval'];
  const child = spawn(process.execPath, [bin, ...args, String(BLOCK_INTERVAL_MS), '--seed', 'bench-api-load'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-4000);
  });
  const configFile = join(dir, 'devnet', GLOBAL_CONFIG_FILE);
  const walletsFile = join(dir, 'devnet', WALLETS_FILE);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the devnet exited (${child.exitCode}): ${stderr}`);
    try {
      await access(configFile);
      await access(walletsFile);
      if ((await loadGlobalConfig(configFile)).liteservers[0]) return { child, configFile, walletsFile };
    } catch {}
    if (Date.now() > deadline) throw new Error(`the devnet did not start in 120 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** `tongate serve` as a child process on a free port; resolves with the port once it listens. */
async function startServe(
  liteConfig: string,
  dbFlags: string[],
): Promise<{ pid: number; port: number; stop(): Promise<void> }> {
  const bin = fileURLToPath(new URL('../bin/tongate.js', import.meta.url));
  const args = ['serve', '--lite-config', liteConfig, ...dbFlags, '--port', '0', '--host', '127.0.0.1'];
  const child = spawn(
    process.execPath,
    [...(process.env.SERVE_NODE_ARGS?.split(' ').filter(Boolean) ?? []), bin, ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (c: Buffer) => {
    output = (output + c.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    const m = /ops http:\/\/127\.0\.0\.1:(\d+)\/healthz/.exec(output);
    if (m) return { pid: child.pid!, port: Number(m[1]), stop };
    if (child.exitCode !== null) throw new Error(`tongate serve exited (${child.exitCode}): ${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`tongate serve did not listen in 120 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resident set of a process in MB (Linux /proc). */
async function rssMbOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status);
  return kb ? Number(kb[1]) / 1024 : Number.NaN;
}

/** Values of the server's own /metrics by name (one scrape: prom-client resets its event-loop lag gauges at each). */
async function serverMetrics(port: number, agent: Agent, names: string[]): Promise<number[]> {
  const r = await send(port, agent, { method: 'GET', path: '/metrics' });
  const lines = r.body.toString('utf8').split('\n');
  return names.map((name) => {
    const line = lines.find((l) => l.startsWith(`${name} `));
    return line === undefined ? Number.NaN : Number(line.slice(name.length + 1));
  });
}

interface BenchDb {
  db: Database;
  label: string;
  /** How `tongate serve` opens the same database. */
  serveFlags: string[];
  cleanup(): Promise<void>;
}

async function openDatabase(dir: string): Promise<BenchDb> {
  if (dbKind === 'pglite') {
    const db = await createDatabase({ kind: 'pglite', dir: join(dir, 'pg') });
    return {
      db,
      label: "PGlite (in the server's process, in a thread of its own)",
      serveFlags: ['--data', dir],
      cleanup: async () => {},
    };
  }
  const scratch = await createScratchPostgres(
    ENV_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    'tongate_bench_api_load',
  );
  const config: DatabaseConfig = { kind: 'postgres', url: scratch.url, applicationName: 'tongate-bench-api-load' };
  const db = await createDatabase(config);
  return {
    db,
    label: `PostgreSQL ${new URL(scratch.url).host}/${scratch.name}`,
    serveFlags: ['--database-url', scratch.url],
    cleanup: scratch.drop,
  };
}

/** Every masterchain block through the pipeline: blocks (with the contract decoders), traces, actions. */
async function indexChain(pool: LitePool, db: Database): Promise<number> {
  const head = (await pool.getMasterchainInfo()).last.seqno;
  const contracts = await createContractsEnv({
    db,
    dnsRoots: devnetDnsRoots(),
    libraries: (h) => librariesFrom(pool, h),
  });
  try {
    const source = createLiteSource(pool);
    for (let n = 1; n <= head; n++) await indexMcBlock(n, { source, db, contracts });
  } finally {
    await contracts.close();
  }
  await assembleTraces(db);
  for (let n = 1; n <= head; n++) await classifyMcBlock(n, { db });
  return head;
}

// ---- main -------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const tSetup = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'tongate-bench-api-load-'));
  const cleanups: Array<() => Promise<unknown>> = [() => rm(dir, { recursive: true, force: true })];
  try {
    log(`starting a devnet (${BLOCK_INTERVAL_MS} ms blocks) in ${dir} ...`);
    const devnet = await startDevnet(dir);
    const exited = new Promise<void>((r) => devnet.child.once('exit', () => r()));
    cleanups.unshift(async () => {
      if (devnet.child.exitCode === null) devnet.child.kill('SIGTERM');
      await exited;
    });

    const steps = cycles * CORE_CYCLE.length;
    log(`running ${steps} activity steps ...`);
    const activity = await startActivity({
      liteConfig: devnet.configFile,
      wallets: devnet.walletsFile,
      seed: 'bench-api-load',
      cycle: CORE_CYCLE,
      steps,
      intervalMs: 0,
      pollMs: 100,
      stepTimeoutMs: 60_000,
      log: () => {},
    });
    const counters = await activity.done;
    const ledger = activity.ledger();
    log(`activity: ${counters.ok} ok, ${counters.failed} failed, ${counters.skipped} skipped`);

    const pool = createLitePool({ servers: (await loadGlobalConfig(devnet.configFile)).liteservers });
    cleanups.unshift(() => pool.close());
    await pool.ready({ timeoutMs: 15_000 });
    const bdb = await openDatabase(dir);
    cleanups.unshift(async () => {
      await bdb.db.close().catch(() => {});
      await bdb.cleanup();
    });
    await migrate(bdb.db);
    log(`indexing into ${bdb.label} ...`);
    const indexed = await indexChain(pool, bdb.db);
    const count = async (sql: string) => Number((await bdb.db.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
    const txCount = await count('SELECT count(*) AS n FROM transactions');
    const actionCount = await count('SELECT count(*) AS n FROM actions');
    const states = (
      await bdb.db.query<{ account: string; code_hash: string | null; account_status: string }>(
        'SELECT account, code_hash, account_status FROM latest_account_states ORDER BY account',
      )
    ).rows;

    // The server is `tongate serve` in its own process, as deployed: its event loop serves requests only, and the
    // load generator (this process) neither delays it nor shares its RSS. PGlite allows one process per directory.
    await bdb.db.close();
    const server = await startServe(devnet.configFile, bdb.serveFlags);
    cleanups.unshift(server.stop);
    const port = server.port;
    const agent = new Agent({ keepAlive: true, maxSockets: connections });
    const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.unshift(async () => {
      agent.destroy();
      probeAgent.destroy();
    });

    // The targets, each checked once through the API (a wallet counts when its seqno answers exit code 0).
    const call = (r: Req) => send(port, agent, r);
    const json = (r: Reply) => JSON.parse(r.body.toString('utf8')) as { ok?: boolean; result?: { exit_code?: number } };
    const accounts: string[] = [];
    for (const s of states) {
      const r = await call(addressInformation(s.account));
      if (r.status === 200) accounts.push(s.account);
      else log(`  skipped ${s.account}: getAddressInformation answered ${r.status} ${r.body.toString().slice(0, 200)}`);
    }
    const wallets: string[] = [];
    for (const s of states) {
      if (s.account_status !== 'active' || !knownWalletCode(s.code_hash)) continue;
      const r = await call(getMethod(s.account, 'seqno'));
      if (r.status === 200 && json(r).result?.exit_code === 0) wallets.push(s.account);
    }
    const jettonMasters: string[] = [];
    for (const j of ledger.jettons) {
      const address = j.master.toRawString();
      const r = await call(getMethod(address, 'get_jetton_data'));
      if (r.status === 200 && json(r).result?.exit_code === 0) jettonMasters.push(address);
    }
    if (accounts.length === 0 || wallets.length === 0 || jettonMasters.length === 0) {
      throw new Error(
        `not enough targets: ${accounts.length} accounts, ${wallets.length} wallets, ${jettonMasters.length} jetton masters`,
      );
    }
    for (const path of ['/api/v3/transactions?limit=100', '/api/v3/actions?limit=100']) {
      const r = await call({ method: 'GET', path });
      if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}: ${r.body.toString().slice(0, 300)}`);
    }
    const targets: Targets = { accounts, wallets, jettonMasters };
    routeOf = Array.from({ length: connections }, (_, i) => ROUTES[i % ROUTES.length]!);
    const setupS = (performance.now() - tSetup) / 1000;

    out(
      `bench/api-load: ${connections} connections, mixed load ${duration} s, server tongate serve (own process) on 127.0.0.1 ` +
        `(node ${process.version}), devnet child process (${BLOCK_INTERVAL_MS} ms blocks)`,
    );
    out(
      `  setup ${f(setupS, 0)} s: ${steps} activity steps (${counters.ok} ok, ${counters.failed} failed), masterchain ` +
        `blocks 1..${indexed} indexed into ${bdb.label}: ${txCount} transactions, ${actionCount} actions`,
    );
    out(
      `  targets: ${accounts.length} accounts (getAddressInformation), ${wallets.length} active wallets (seqno), ` +
        `${jettonMasters.length} jetton masters (get_jetton_data)`,
    );

    // (1) idle /healthz
    // (1) idle /healthz: half before (2), half after, so that drift in the machine's load hits both alike
    log('phase 1a: idle /healthz ...');
    const healthz: Req = { method: 'GET', path: '/healthz' };
    const idle = newStats();
    const idleHalf = async () => {
      const end = performance.now() + (PROBE_SECONDS / 2) * 1000;
      while (performance.now() < end) await timed(port, probeAgent, 'idle', '/healthz', healthz, idle, false);
    };
    for (let i = 0; i < 200; i++) await send(port, probeAgent, healthz); // warm-up
    await idleHalf();

    // (2) /healthz while the connections keep get-methods running
    log(`phase 2: /healthz during ${connections} concurrent runGetMethod (${f(PROBE_SECONDS, 0)} s) ...`);
    const busy = newStats();
    const gmRoutes: Route[] = Array.from({ length: connections }, () => 'runGetMethod');
    const pick2 = roundRobin();
    // Warm-up: the loops alone for a second, then the probe alongside them.
    await runLoad({ port, agent, phase: 'warm-up', routes: gmRoutes, targets, pick: pick2, seconds: 1 });
    const loops = runLoad({
      port,
      agent,
      phase: 'get-methods',
      routes: gmRoutes,
      targets,
      pick: pick2,
      seconds: PROBE_SECONDS,
    });
    const probeEnd = performance.now() + (PROBE_SECONDS - 0.5) * 1000;
    while (performance.now() < probeEnd) await timed(port, probeAgent, 'get-methods', '/healthz', healthz, busy, false);
    const gm = await loops;
    log('phase 1b: idle /healthz ...');
    await new Promise((r) => setTimeout(r, 500));
    await idleHalf();
    out('');
    out(
      `(1) idle /healthz, ${idle.hist.n} sequential requests on one socket in ${f(PROBE_SECONDS, 0)} s (half before (2), half after)`,
    );
    out(
      `  p50 ${f(idle.hist.q(0.5), 3)} ms, p99 ${f(idle.hist.q(0.99), 3)} ms, max ${f(idle.hist.max, 2)} ms; non-200: ${errorsOf(idle)}`,
    );
    const ratio2 = busy.hist.q(0.99) / idle.hist.q(0.99);
    const gmN = gm.rows.get('runGetMethod seqno')!.hist.n + gm.rows.get('runGetMethod get_jetton_data')!.hist.n;
    const gmAll = mergeStats(gm.rows.get('runGetMethod seqno')!, gm.rows.get('runGetMethod get_jetton_data')!);
    out('');
    out(
      `(2) /healthz (sequential, own socket) while ${connections} connections keep runGetMethod running, ${f(gm.seconds, 1)} s`,
    );
    out(
      `  runGetMethod: ${f(gmN / gm.seconds, 0)} rps, p50 ${f(gmAll.hist.q(0.5))} ms, p99 ${f(gmAll.hist.q(0.99))} ms, ` +
        `cached ${f((100 * gmAll.cached) / Math.max(1, gmN), 1)}%, non-200: ${errorsOf(gmAll)}`,
    );
    out(
      `  /healthz: ${busy.hist.n} requests, p50 ${f(busy.hist.q(0.5), 3)} ms, p99 ${f(busy.hist.q(0.99), 3)} ms, ` +
        `max ${f(busy.hist.max, 2)} ms; non-200: ${errorsOf(busy)}`,
    );
    out(`  /healthz p99 / idle p99 = ${f(ratio2)}x  (target <= 3x: ${verdict(ratio2 <= 3)})`);

    // (4a) the cached baseline, first half: every v2 read pinned at one masterchain block, each asked once first
    const at = (await pool.getMasterchainInfo()).last.seqno;
    for (const address of accounts) await call(addressInformation(address, at));
    for (const address of wallets) await call(getMethod(address, 'seqno', at));
    for (const address of jettonMasters) await call(getMethod(address, 'get_jetton_data', at));
    log(`phase 4a: the mix from v2's cache (${f(CACHED_HALF_SECONDS, 0)} s) ...`);
    const cachedHalf = () =>
      runLoad({
        port,
        agent,
        phase: 'cached',
        routes: routeOf,
        targets,
        pick: roundRobin(),
        at,
        seconds: CACHED_HALF_SECONDS,
      });
    const cachedA = await cachedHalf();

    // (3) the mixed load, RSS and the event loop sampled
    log(`phase 3: the mixed load (${duration} s) ...`);
    const rss: Array<{ t: number; mb: number }> = [];
    const sample = (t: number) => {
      void rssMbOf(server.pid).then((mb) => rss.push({ t, mb }));
    };
    const lagName = 'tongate_process_nodejs_eventloop_lag';
    const lagNames = ['p50', 'p99', 'max'].map((q) => `${lagName}_${q}_seconds`);
    await serverMetrics(port, probeAgent, lagNames); // a scrape resets the server's lag histogram
    const t3 = performance.now();
    sample(0);
    const mixed = await runLoad({
      port,
      agent,
      phase: 'mixed',
      routes: routeOf,
      targets,
      pick: roundRobin(),
      seconds: duration,
      onSecond: () => sample((performance.now() - t3) / 1000),
    });
    const [p50, p99, max] = await serverMetrics(port, probeAgent, lagNames);
    const lag = { p50: p50!, p99: p99!, max: max! };
    sample((performance.now() - t3) / 1000);
    await new Promise((r) => setTimeout(r, 200));
    rss.sort((x, y) => x.t - y.t);

    // (4b) the cached baseline, second half
    log(`phase 4b: the mix from v2's cache (${f(CACHED_HALF_SECONDS, 0)} s) ...`);
    const cachedB = await cachedHalf();
    const cached = mergeLoads(cachedA, cachedB);

    out('');
    out(`(3) mixed load, ${connections} connections (connection i serves route i mod 4), ${duration} s`);
    printLoad(mixed);
    out(
      `  server event loop delay (its /metrics, over the phase): p50 ${f(lag.p50 * 1000)} ms, ` +
        `p99 ${f(lag.p99 * 1000)} ms, max ${f(lag.max * 1000)} ms`,
    );
    const first = rss[0]!;
    const last = rss[rss.length - 1]!;
    const peak = rss.reduce((m, s) => (s.mb > m.mb ? s : m), first);
    const tail = rss.filter((s) => s.t >= duration / 3);
    const slope = slopePerMinute(tail.map((s) => [s.t, s.mb]));
    const meanMb = tail.reduce((n, s) => n + s.mb, 0) / Math.max(1, tail.length);
    const drift = (slope * duration) / 60;
    const rssVerdict = Math.abs(drift) < 0.05 * meanMb ? 'flat' : drift > 0 ? 'growing' : 'shrinking';
    out(
      `  RSS (${rss.length} samples, 1 s apart): start ${f(first.mb, 0)} MB, peak ${f(peak.mb, 0)} MB at ${f(peak.t, 0)} s, ` +
        `end ${f(last.mb, 0)} MB; slope over the last 2/3 ${f(slope, 1)} MB/min (${f(drift, 1)} MB over ${duration} s, ` +
        `${f((100 * drift) / meanMb, 1)}% of the mean ${f(meanMb, 0)} MB) of the server process: ${rssVerdict}`,
    );

    out('');
    out(
      `(4) baseline: the same mix, every v2 read from v2's response cache (${f(cached.seconds, 1)} s: half before (3), ` +
        `half after; v2 reads at masterchain block ${at}, each asked once before)`,
    );
    printLoad(cached);
    out('  mixed / cached throughput:');
    for (const r of ROWS) {
      const m = mixed.rows.get(r)!.hist.n / mixed.seconds;
      const c = cached.rows.get(r)!.hist.n / cached.seconds;
      out(`    ${r.padEnd(30)}${f(m, 0).padStart(7)} / ${f(c, 0).padStart(7)} rps = ${f(m / c)}x`);
    }
    const ratio4 = v2Rps(mixed) / v2Rps(cached);
    out(
      `  v2 reads (getAddressInformation + runGetMethod): ${f(v2Rps(mixed), 0)} / ${f(v2Rps(cached), 0)} rps = ` +
        `${f(ratio4)}x  (target >= 0.5x: ${verdict(ratio4 >= 0.5)})`,
    );

    out('');
    out('summary');
    out(
      `  /healthz p99 under ${connections} get-methods / idle: ${f(ratio2)}x (target <= 3x: ${verdict(ratio2 <= 3)})`,
    );
    out(`  v2-read throughput mixed / from cache:      ${f(ratio4)}x (target >= 0.5x: ${verdict(ratio4 >= 0.5)})`);
    out(`  RSS over the mixed load: ${f(first.mb, 0)} -> ${f(last.mb, 0)} MB, ${f(slope, 1)} MB/min: ${rssVerdict}`);
    out(`  non-200 answers or failed requests, all phases: ${anomalyCount}`);
    for (const x of anomalies) {
      out(`    [${x.phase} +${f(x.atS, 1)} s] ${x.status} ${x.request}: ${x.detail.replace(/\s+/g, ' ')}`);
    }
    if (anomalyCount > anomalies.length) out(`    ... and ${anomalyCount - anomalies.length} more`);
  } finally {
    for (const c of cleanups) {
      await c().catch((e: unknown) => log(`cleanup: ${(e as Error).message}`));
    }
  }
}

function mergeStats(a: Stats, b: Stats): Stats {
  const hist = new Histogram();
  for (let i = 0; i < hist.counts.length; i++) hist.counts[i] = (a.hist.counts[i] ?? 0) + (b.hist.counts[i] ?? 0);
  hist.n = a.hist.n + b.hist.n;
  hist.max = Math.max(a.hist.max, b.hist.max);
  const statuses = new Map(a.statuses);
  for (const [k, v] of b.statuses) statuses.set(k, (statuses.get(k) ?? 0) + v);
  return { hist, statuses, cached: a.cached + b.cached, bytes: a.bytes + b.bytes };
}

/** Least-squares slope of (seconds, MB) points, in MB per minute. */
function slopePerMinute(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return (num / den) * 60;
}

try {
  await main();
} catch (e) {
  console.error(`bench/api-load: ${(e as Error).stack ?? e}`);
  process.exitCode = 1;
}
// Sockets or worker threads a failed run left behind must not keep the process alive: everything is closed above.
process.exit();
