// bench/v2-vs-reference: requests per second and p50/p99 latency of our v2 API and of toncenter's own v2 server
// (`ton-http-api` 2.0 from PyPI, tonlib inside; test/oracles/http/install.sh installs it) on the same endpoints,
// against the same devnet, in the same run, printed as ratios (ours / reference). Machines are shared and noisy,
// so only the ratios mean anything; the two servers take turns in slices so drift hits both alike.
// Usage: npm run bench:v2-vs-reference [-- --seconds N --concurrency C --steps S]
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Address } from '@ton/core';
import { buildApiServer } from '../src/api/build.ts';
import { startActivity } from '../src/devnet/activity/index.ts';
import { createDevnetNode } from '../src/devnet/node/index.ts';
import { createLitePool, loadGlobalConfig } from '../src/lite/index.ts';
import { REFERENCE_INSTALL, referenceToolchain, startReference } from '../test/oracles/http/reference.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
    steps: { type: 'string', default: '8' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: npm run bench:v2-vs-reference [-- --seconds N --concurrency C --steps S]
Starts a devnet in this process (2 basechain shards, blocks on demand), runs S steps of its activity generator
(default 8: wallets, transfers, a jetton), then serves it twice on 127.0.0.1: our v2 API (buildApiServer with a
pool on the devnet's liteserver) and toncenter's ton-http-api 2.0 (Python, tonlib; cache off, one worker, as
installed by ${REFERENCE_INSTALL}). Each scenario runs N seconds per server (default 3, in two slices per
server, alternating) with C requests in flight (default 8) after a warm-up, the same requests on both:
  getMasterchainInfo              GET, no arguments (our response cache answers "latest" data for 200 ms)
  getAddressInformation           GET, a genesis wallet at the head (cached by us for 200 ms)
  getAddressInformation (fresh)   GET, a new random address on every request: nobody's cache can answer
  getBlockHeader                  GET, a fixed masterchain block by seqno (cached by us for good)
  getTransactions                 GET, a genesis wallet's last 10 transactions (cached by us for 200 ms)
  runGetMethod                    POST, seqno of a genesis wallet (never cached by us)
  jsonRPC getAddressBalance       POST /jsonRPC, a genesis wallet
Prints requests/s and p50/p99 latency per server and the ratios ours/reference (rps: higher is better for us;
latency: lower is better for us). Every answer must be ok: true, or the bench stops with the answer.`);
  process.exit(0);
}
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const steps = Number(values.steps);
if (!(seconds > 0) || !(concurrency >= 1) || !(steps >= 1)) {
  console.error('bench/v2-vs-reference: --seconds must be > 0, --concurrency >= 1, --steps >= 1');
  process.exit(2);
}
const tool = referenceToolchain();
if ('missing' in tool) {
  console.error(`bench/v2-vs-reference: ${tool.missing}`);
  process.exit(2);
}

interface Stat {
  n: number;
  rps: number;
  p50: number;
  p99: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

type Op = (base: string) => Promise<void>;

async function checked(res: Response, what: string): Promise<void> {
  const text = await res.text();
  if (!text.includes('"ok":true')) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`);
}
const get =
  (path: () => string): Op =>
  async (base) =>
    checked(await fetch(`${base}/${path()}`), path());
const post =
  (method: string, body: () => unknown): Op =>
  async (base) =>
    checked(
      await fetch(`${base}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body()),
      }),
      method,
    );

/** `concurrency` loops of `op` for `ms`; latencies appended. */
async function slice(op: Op, base: string, ms: number, lat: number[]): Promise<number> {
  const t0 = performance.now();
  const end = t0 + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const s = performance.now();
        await op(base);
        lat.push(performance.now() - s);
      }
    }),
  );
  return performance.now() - t0;
}

function stat(lat: number[], ms: number): Stat {
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? Number.NaN;
  return { n: lat.length, rps: lat.length / (ms / 1000), p50: q(0.5), p99: q(0.99) };
}

const dir = await mkdtemp(join(tmpdir(), 'tongate-bench-v2ref-'));
const node = createDevnetNode({
  dataDir: dir,
  litePort: 0,
  httpPort: 0,
  blockIntervalMs: 0,
  sync: false,
  seed: 'bench-v2ref',
});
const cleanup: Array<() => Promise<unknown>> = [async () => rm(dir, { recursive: true, force: true })];
try {
  const info = await node.start();
  cleanup.unshift(async () => node.stop());
  const activity = await startActivity({
    liteConfig: info.globalConfigFile,
    wallets: info.walletsFile,
    seed: 'bench-v2ref',
    steps,
    intervalMs: 0,
    pollMs: 100,
    stepTimeoutMs: 60_000,
  });
  const counters = await activity.done;
  if (counters.failed > 0) throw new Error(`activity: ${counters.failed} steps failed`);
  const pool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers });
  await pool.ready({ timeoutMs: 10_000 });
  cleanup.unshift(async () => pool.close());
  const head = (await pool.getMasterchainInfo()).last.seqno;
  const api = await buildApiServer({ lite: pool });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  cleanup.unshift(async () => api.close());
  const addr = api.app.server.address();
  const ours = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/api/v2`;
  const reference = await startReference({
    bin: tool.bin,
    globalConfigFile: info.globalConfigFile,
    port: await freePort(),
    headSeqno: head,
  });
  cleanup.unshift(async () => reference.stop());
  const ref = reference.base;

  const wallets = JSON.parse(await readFile(info.walletsFile, 'utf8')) as Array<{ raw: string }>;
  const wallet = wallets[0]!.raw;
  const fresh = () => new Address(0, Buffer.from(crypto.getRandomValues(new Uint8Array(32)))).toRawString();
  const scenarios: Array<[string, Op]> = [
    ['getMasterchainInfo', get(() => 'getMasterchainInfo')],
    ['getAddressInformation', get(() => `getAddressInformation?address=${wallet}`)],
    ['getAddressInformation (fresh)', get(() => `getAddressInformation?address=${fresh()}`)],
    [
      'getBlockHeader',
      get(() => `getBlockHeader?workchain=-1&shard=-9223372036854775808&seqno=${Math.max(1, head - 1)}`),
    ],
    ['getTransactions', get(() => `getTransactions?address=${wallet}&limit=10`)],
    ['runGetMethod', post('runGetMethod', () => ({ address: wallet, method: 'seqno', stack: [] }))],
    [
      'jsonRPC getAddressBalance',
      post('jsonRPC', () => ({ jsonrpc: '2.0', id: 1, method: 'getAddressBalance', params: { address: wallet } })),
    ],
  ];

  console.log(
    `bench/v2-vs-reference: devnet head ${head} (${counters.ok} activity steps), ${concurrency} in flight, ` +
      `${seconds} s per server and scenario\n`,
  );
  const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const rows: string[][] = [
    [
      'scenario',
      'ours rps',
      'ref rps',
      'rps ratio',
      'ours p50',
      'ref p50',
      'p50 ratio',
      'ours p99',
      'ref p99',
      'p99 ratio',
    ],
  ];
  for (const [name, op] of scenarios) {
    for (let i = 0; i < 10; i++) {
      await op(ours);
      await op(ref);
    }
    const lat = { ours: [] as number[], ref: [] as number[] };
    const ms = { ours: 0, ref: 0 };
    for (let s = 0; s < 2; s++) {
      ms.ours += await slice(op, ours, (seconds * 1000) / 2, lat.ours);
      ms.ref += await slice(op, ref, (seconds * 1000) / 2, lat.ref);
    }
    const a = stat(lat.ours, ms.ours);
    const b = stat(lat.ref, ms.ref);
    rows.push([
      name,
      fmt(a.rps),
      fmt(b.rps),
      `${fmt(a.rps / b.rps, 2)}x`,
      `${fmt(a.p50, 2)} ms`,
      `${fmt(b.p50, 2)} ms`,
      `${fmt(a.p50 / b.p50, 3)}x`,
      `${fmt(a.p99, 2)} ms`,
      `${fmt(b.p99, 2)} ms`,
      `${fmt(a.p99 / b.p99, 3)}x`,
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows)
    console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
  console.log(
    '\nratios are ours / reference: rps above 1x and latency below 1x favour our server. The reference has no cache\n' +
      '(toncenter runs 2.0 without Redis by default); the "(fresh)" row is uncached on both.',
  );
} finally {
  for (const c of cleanup) await c().catch(() => {});
}
