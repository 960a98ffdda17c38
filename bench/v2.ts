// bench/v2: what our toncenter v2 API costs on top of what it serves, each measured against a baseline in the same
// run (machines are shared and noisy, so only the ratios mean anything):
//   (a) getAddressInformation through our HTTP API (uncached: a fresh address per request) against a direct
//       ton-lite-client getAccountState to the same liteserver: the overhead ratio;
//   (b) getMasterchainInfo answered from our response cache against a bare Fastify route that returns a constant
//       JSON body of the same size: requests per second and latency ratios.
// Usage: npm run bench:v2 [-- --seconds N --concurrency C --lite-config FILE|URL]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Address } from '@ton/core';
import Fastify from 'fastify';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { type ApiServer, buildApiServer } from '../src/api/build.ts';
import { createLitePool, type LiteServerEndpoint, loadGlobalConfig } from '../src/lite/index.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
    'lite-config': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: npm run bench:v2 [-- --seconds N --concurrency C --lite-config FILE|URL]
Runs each scenario for N seconds (default 3) with C requests in flight (default 8), after a warm-up; the scenarios
compared take turns (two slices each), so drift in machine load hits them alike. Without --lite-config it starts a
devnet (\`tongate devnet\`, 400 ms blocks) as a child process in a temp folder; with it, it uses the first
liteserver of that TON global config (file or URL). Our API server (buildApiServer, v2 only, its pool on that one
liteserver) runs in this process on 127.0.0.1; HTTP requests go through node:http with keep-alive, the same client
for our routes and for the baseline's.
  (a) getAddressInformation  GET /api/v2/getAddressInformation?address=<fresh random address> at the head. Every
      request names an address never asked before, so the response cache cannot answer (checked: no ":c" in
      @extra); on a devnet these accounts do not exist, the liteserver still proves their absence in the shard
      state. Baselines, on the same liteserver with the same kind of addresses, through ton-lite-client:
        lite getAccountState        the account at a head block read once;
        lite head + getAccountState getMasterchainInfo then getAccountState, the two queries our server makes.
  (b) getMasterchainInfo       GET /api/v2/getMasterchainInfo, answered from the response cache (fresh for 200 ms,
      the share of cached answers is printed). Baseline: a bare Fastify server in this process whose one route
      returns a constant JSON object that serialises to the same size.
Prints requests per second, p50 and p99 latency, and each subject's ratio to its baseline.`);
  process.exit(0);
}
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
if (!(seconds > 0) || !Number.isInteger(concurrency) || concurrency < 1) {
  console.error('bench/v2: --seconds must be > 0 and --concurrency an integer >= 1');
  process.exit(2);
}

interface Result {
  n: number;
  qps: number;
  p50: number;
  p99: number;
}

/** Each run is split into this many slices, the subjects taking turns, so drift in machine load hits all alike. */
const ROUNDS = 2;

interface Sample {
  lat: number[];
  elapsedMs: number;
}

/** `op` in `concurrency` loops for `ms`; latencies in ms. */
async function runFor(op: () => Promise<unknown>, ms: number): Promise<Sample> {
  const lat: number[] = [];
  const t0 = performance.now();
  const end = t0 + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const s = performance.now();
        await op();
        lat.push(performance.now() - s);
      }
    }),
  );
  return { lat, elapsedMs: performance.now() - t0 };
}

/** Warms every op up (JIT, connections), then runs them in turns for `seconds` each in all. */
async function measure(ops: Array<() => Promise<unknown>>): Promise<Result[]> {
  for (const op of ops) await runFor(op, Math.min(1000, seconds * 250));
  const acc: Sample[] = ops.map(() => ({ lat: [], elapsedMs: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, op] of ops.entries()) {
      const s = await runFor(op, (seconds * 1000) / ROUNDS);
      const into = acc[i] as Sample;
      for (const x of s.lat) into.lat.push(x);
      into.elapsedMs += s.elapsedMs;
    }
  }
  return acc.map(({ lat, elapsedMs }) => {
    lat.sort((x, y) => x - y);
    const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? Number.NaN;
    return { n: lat.length, qps: lat.length / (elapsedMs / 1000), p50: q(0.5), p99: q(0.99) };
  });
}

// ---- HTTP client: one keep-alive agent for every server measured ---------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

function httpGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function portOf(app: { server: { address(): unknown } }): number {
  const a = app.server.address();
  return typeof a === 'object' && a !== null ? (a as { port: number }).port : 0;
}

const freshAddress = () => new Address(0, randomBytes(32));

// ---- the stack --------------------------------------------------------------------------------------------------

/**
 * The liteserver to measure against: the first of --lite-config, else a devnet started as a child process (the
 * `tongate devnet` command), so that its block production does not share this process's event loop with the
 * server and the clients being measured.
 */
async function liteEndpoint(): Promise<{ endpoint: LiteServerEndpoint; stop(): Promise<void> }> {
  const given = values['lite-config'];
  if (given) {
    const first = (await loadGlobalConfig(given)).liteservers[0];
    if (!first) throw new Error(`bench/v2: ${given} lists no liteserver`);
    return { endpoint: first, stop: async () => {} };
  }
  const dir = await mkdtemp(join(tmpdir(), 'tongate-bench-v2-'));
  const bin = fileURLToPath(new URL('../bin/tongate.js', import.meta.url));
  const args = ['devnet', '--data', dir, '--lite-port', '0', '--http-port', '0', '--block-interval', '400'];
  const child = spawn(process.execPath, [bin, ...args, '--seed', 'bench-v2'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  // The node writes its global config once its liteserver listens (on an ephemeral port, named in the file).
  const configFile = join(dir, 'devnet', 'global.config.json');
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bench/v2: the devnet exited (${child.exitCode}): ${stderr}`);
    try {
      await access(configFile);
      const first = (await loadGlobalConfig(configFile)).liteservers[0];
      if (first) return { endpoint: first, stop };
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`bench/v2: the devnet did not start in 120 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function bench(endpoint: LiteServerEndpoint) {
  const pool = createLitePool({ servers: [endpoint] });
  await pool.ready({ timeoutMs: 15_000 });
  const engine = new LiteSingleEngine({
    host: `tcp://${endpoint.host}:${endpoint.port}`,
    publicKey: endpoint.publicKey,
  });
  engine.on('error', () => {});
  await new Promise((r) => engine.once('ready', r));
  const lite = new LiteClient({ engine, cacheMap: 0 });
  // A new devnet starts at its zero state; the basechain exists from masterchain block 1.
  while ((await lite.getMasterchainInfo()).last.seqno < 3) await new Promise((r) => setTimeout(r, 200));
  const api: ApiServer = await buildApiServer({ lite: pool });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const apiPort = portOf(api.app);

  let addressCacheHits = 0;
  let cached = 0;
  let total = 0;
  let failures = 0;

  // (a) getAddressInformation, uncached, against ton-lite-client on the same liteserver.
  const headOnce = (await lite.getMasterchainInfo()).last;
  const [baseA, ours, baseA2] = (await measure([
    () => lite.getAccountState(freshAddress(), headOnce),
    async () => {
      const r = await httpGet(apiPort, `/api/v2/getAddressInformation?address=${freshAddress().toRawString()}`);
      if (r.status !== 200) failures++;
      if (r.body.endsWith(':c"}')) addressCacheHits++;
    },
    async () => lite.getAccountState(freshAddress(), (await lite.getMasterchainInfo()).last),
  ])) as [Result, Result, Result];

  // (b) cached getMasterchainInfo against a bare Fastify route with a constant body of the same size.
  const sample = await httpGet(apiPort, '/api/v2/getMasterchainInfo');
  const constant = JSON.parse(sample.body) as unknown;
  const bare = Fastify({ logger: false });
  bare.get('/constant', async () => constant);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const barePort = portOf(bare);
  const bareSize = (await httpGet(barePort, '/constant')).body.length;
  const [baseB, info] = (await measure([
    async () => {
      const r = await httpGet(barePort, '/constant');
      if (r.status !== 200) failures++;
    },
    async () => {
      const r = await httpGet(apiPort, '/api/v2/getMasterchainInfo');
      if (r.status !== 200) failures++;
      total++;
      if (r.body.endsWith(':c"}')) cached++;
    },
  ])) as [Result, Result];

  const rows: Array<{ name: string; r: Result; base: Result }> = [
    { name: 'lite getAccountState', r: baseA, base: baseA },
    { name: 'v2 getAddressInformation', r: ours, base: baseA },
    { name: 'lite head + getAccountState', r: baseA2, base: baseA },
    { name: '  v2 / (head + state)', r: ours, base: baseA2 },
    { name: 'bare Fastify constant JSON', r: baseB, base: baseB },
    { name: 'v2 getMasterchainInfo', r: info, base: baseB },
  ];
  console.log(
    `bench/v2: ${seconds} s per scenario, ${concurrency} in flight, 127.0.0.1; getMasterchainInfo body ` +
      `${sample.body.length} B (bare ${bareSize} B), ${((100 * cached) / Math.max(1, total)).toFixed(1)}% of it ` +
      `from the cache; getAddressInformation cache hits: ${addressCacheHits}; non-200 answers: ${failures}`,
  );
  console.log(
    `  ${'scenario'.padEnd(30)}${'qps'.padStart(10)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}` +
      `${'qps/base'.padStart(11)}${'p50/base'.padStart(11)}${'p99/base'.padStart(11)}`,
  );
  for (const { name, r, base } of rows) {
    console.log(
      `  ${name.padEnd(30)}${r.qps.toFixed(0).padStart(10)}${r.p50.toFixed(3).padStart(10)}${r.p99.toFixed(3).padStart(10)}` +
        `${(r.qps / base.qps).toFixed(3).padStart(11)}${(r.p50 / base.p50).toFixed(2).padStart(11)}` +
        `${(r.p99 / base.p99).toFixed(2).padStart(11)}`,
    );
  }
  console.log(
    `  overhead (a): getAddressInformation takes ${(ours.p50 / baseA.p50).toFixed(2)}× the p50 of a direct ` +
      `getAccountState (${(ours.p50 / baseA2.p50).toFixed(2)}× head + getAccountState); ` +
      `${(baseA.qps / ours.qps).toFixed(2)}× fewer requests per second`,
  );
  console.log(
    `  ratio (b): cached getMasterchainInfo serves ${(info.qps / baseB.qps).toFixed(3)} of the bare route's ` +
      `requests per second (p50 ${(info.p50 / baseB.p50).toFixed(2)}×, p99 ${(info.p99 / baseB.p99).toFixed(2)}×)`,
  );

  await bare.close();
  await api.close();
  engine.close();
  await pool.close();
}

const where = values['lite-config'] ? `the first liteserver of ${values['lite-config']}` : 'a fresh devnet';
console.log(`bench/v2: starting ${where} ...`);
const { endpoint, stop } = await liteEndpoint();
try {
  await bench(endpoint);
} catch (e) {
  console.error(`bench/v2: ${(e as Error).stack ?? e}`);
  process.exitCode = 1;
} finally {
  agent.destroy();
  await stop();
}
// A failed run may leave sockets open; the devnet is stopped, so leave.
if (process.exitCode) process.exit();
