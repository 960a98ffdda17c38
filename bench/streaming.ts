// bench/streaming: how soon the Streaming API v2 delivers a transfer, pending and finalized, to N SSE clients of one
// API process, each figure also printed as a ratio to the block interval measured in the same run (machines are
// shared and noisy; the ratios are what compare across runs).
//
// The stack, as deployed: a devnet (`tongate devnet`, its own process, --block-interval ms blocks, its user wallets),
// a scratch PostgreSQL database, the index worker's loop in this process (every published masterchain block
// indexed, traces assembled, what became final classified; polled every 50 ms), and `tongate serve` in its own
// process (v2 on the devnet's liteserver, v3 and the Streaming API on the database; the streaming feed polls the
// index every 250 ms, its default). N SSE clients (node:http, this process) subscribe to the senders and every
// destination with min_finality pending. M transfers (one message each, to a fresh address) are signed here with
// the devnet's four user wallets (v4r2 and v5r1, all four sending at once, each waiting for its seqno to move
// before the next, read through the server's v2 as a wallet app would) and sent with POST /api/v2/sendBoc.
//
// Measured per transfer and client:
//   pending    from the moment sendBoc's answer arrived to the pending `transactions` event of the trace at the
//              client (the server emulates the message after answering, then streams it);
//   finalized  from the moment the indexer here finished the pass that made the trace's last masterchain block
//              final (indexed, traces assembled and classified: readyThrough, what the server's feed waits for) to
//              the finalized `transactions` event at the client: what the streaming layer adds (its poll, reading
//              the block's events, fan-out). Also printed: from the block's publication (first seen by the
//              indexer's 50 ms poll; blocks it skipped are left out) and from its gen_utime (whole seconds, so up to
//              1 s more), and sendBoc to finalized end to end.
// The block interval is measured from the indexer's sightings of new masterchain blocks during the sends (and from
// gen_utime over the same blocks). Delivery rate: notifications written to all clients while the transfers flowed,
// per second, by the one server process (which also answers the wallets' seqno reads).
//
// Usage: npm run bench:streaming [-- --block-interval MS --clients N --transfers M]
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Address, beginCell, external, internal, storeMessage } from '@ton/core';
import { TonClient } from '@ton/ton';
import { readyThrough } from '../src/api/streaming/index-feed.ts';
import { createDatabase, type Database, migrate } from '../src/db/index.ts';
import { GLOBAL_CONFIG_FILE, WALLETS_FILE } from '../src/devnet/node/index.ts';
import { classifyMcBlock } from '../src/index/actions/index.ts';
import { createLiteSource, indexMcBlock } from '../src/index/index.ts';
import { assembleTraces } from '../src/index/traces/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig } from '../src/lite/index.ts';
import { startIndexLoop } from '../test/helpers/index-loop.ts';
import { openUserWallets, seqnoOf, signedTransfer, waitSeqnoPast } from '../test/helpers/user-wallets.ts';
import { createScratchPostgres } from './support/postgres-scratch.ts';

const { values } = parseArgs({
  options: {
    'block-interval': { type: 'string', default: '1000' },
    clients: { type: 'string', default: '20' },
    transfers: { type: 'string', default: '30' },
    help: { type: 'boolean', short: 'h' },
  },
});
const SERVER_URL =
  process.env.TONGATE_BENCH_DATABASE_URL ||
  process.env.TONGATE_TEST_DATABASE_URL ||
  process.env.DATABASE_URL ||
  'postgres://postgres@127.0.0.1:5432/postgres';
if (values.help) {
  console.log(`Usage: npm run bench:streaming [-- options]
Latency of the Streaming API v2 (SSE) on one \`tongate serve\` process: a devnet (own process) with its user wallets,
the index worker's loop in this process, N SSE clients subscribed with min_finality pending, M transfers sent with
v2 sendBoc. Printed, per transfer and client: sendBoc answered -> pending event, and block final in the index
(indexed, assembled, classified) -> finalized event (also from the block's publication and its gen_utime, and
sendBoc -> finalized), p50/p95/max, each as a ratio to the block interval measured in the same run; notifications
per second the process delivered; the server's RSS.
Options:
  --block-interval MS  the devnet's block interval (default 1000)
  --clients N          SSE clients (default 20)
  --transfers M        transfers, over the devnet's four user wallets (default 30)
The database is a scratch one (dropped at the end) on TONGATE_BENCH_DATABASE_URL, else TONGATE_TEST_DATABASE_URL,
else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres (the API process and the indexer share it, so
PGlite is not an option). A run takes about 30 s + M/4 x 2 block intervals.`);
  process.exit(0);
}

const fail = (msg: string): never => {
  console.error(`bench/streaming: ${msg}`);
  process.exit(2);
};
const blockInterval = Number(values['block-interval']);
if (!Number.isInteger(blockInterval) || blockInterval < 100) fail('--block-interval must be an integer >= 100 (ms)');
const clientCount = Number(values.clients);
if (!Number.isInteger(clientCount) || clientCount < 1) fail('--clients must be an integer >= 1');
const transferCount = Number(values.transfers);
if (!Number.isInteger(transferCount) || transferCount < 1) fail('--transfers must be an integer >= 1');

const log = (msg: string) => console.error(`bench/streaming: ${msg}`);
const out = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BIN = fileURLToPath(new URL('../bin/tongate.js', import.meta.url));
const INDEX_POLL_MS = 50;
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

// ---- processes --------------------------------------------------------------------------------------------------

interface Proc {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

function startProc(args: string[]): Proc {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: undefined, REDIS_URL: undefined },
  });
  let output = '';
  const keep = (c: Buffer) => {
    output = (output + c.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s: ${what}`);
    await sleep(50);
  }
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

// ---- SSE clients ------------------------------------------------------------------------------------------------

interface Arrival {
  /** performance.now() when the chunk holding the frame's end arrived. */
  at: number;
  type: string;
  finality: string;
  key: string;
  id?: string;
  bytes: number;
}

interface SseClient {
  connected: Promise<void>;
  arrivals: Arrival[];
  close(): void;
}

function openClient(port: number, body: unknown): SseClient {
  const arrivals: Arrival[] = [];
  const text = JSON.stringify(body);
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/streaming/v2/sse',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
  });
  const connected = new Promise<void>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`SSE answered ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          let event = '';
          let id: string | undefined;
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data = line.slice(6);
          }
          if (event === 'connected') resolve();
          if (event !== 'event') continue;
          const j = JSON.parse(data) as { type: string; finality?: string; trace_external_hash_norm?: string };
          arrivals.push({
            at,
            type: j.type,
            finality: j.finality ?? '',
            key: j.trace_external_hash_norm ?? '',
            id,
            bytes: data.length,
          });
        }
      });
    });
  });
  req.end(text);
  return {
    connected,
    arrivals,
    close: () => req.destroy(),
  };
}

// ---- the index worker's loop ------------------------------------------------------------------------------------

interface IndexTimes {
  /** performance.now() when the loop first saw a masterchain seqno as the chain's head. */
  seen: Map<number, number>;
  /** performance.now() when the pass that made a block final (readyThrough) ended. */
  ready: Map<number, number>;
  stop(): Promise<void>;
}

function startIndexer(pool: LitePool, db: Database, from: number): IndexTimes {
  const seen = new Map<number, number>();
  const ready = new Map<number, number>();
  let lastReady = from;
  const loop = startIndexLoop({
    pool,
    db,
    from,
    intervalMs: INDEX_POLL_MS,
    onError: (e) => log(`indexer: ${e.message}`),
    onHead: (top) => {
      if (!seen.has(top)) seen.set(top, performance.now());
    },
    afterPass: async () => {
      const through = await readyThrough(db);
      const now = performance.now();
      for (let n = lastReady + 1; through !== null && n <= through; n++) ready.set(n, now);
      if (through !== null) lastReady = Math.max(lastReady, through);
    },
  });
  return { seen, ready, stop: () => loop.stop() };
}

// ---- wallets ----------------------------------------------------------------------------------------------------

interface Wallet {
  label: string;
  address: Address;
  /** Signs a transfer of 0.01 TON to `to`, sends it with sendBoc; resolves when sendBoc answered, with its trace key. */
  send(to: Address, comment: string): Promise<{ key: string; answeredAt: number }>;
  /** Resolves once the wallet's seqno moved past the last transfer's. */
  settled(): Promise<void>;
}

async function userWallets(walletsFile: string, base: string): Promise<Wallet[]> {
  const client = new TonClient({ endpoint: `${base}/api/v2/jsonRPC` });
  return (await openUserWallets(walletsFile)).map((w): Wallet => {
    let seqno = -1;
    return {
      label: `${w.version} ${w.address.toString().slice(0, 8)}`,
      address: w.address,
      async send(to, comment) {
        seqno = await seqnoOf(client, w);
        const deployed = seqno > 0 || (await client.isContractDeployed(w.address));
        const { body, traceKey } = signedTransfer(w, seqno, [
          internal({ to, value: 10_000_000n, bounce: false, body: comment }),
        ]);
        const message = external({ to: w.address, init: deployed ? undefined : w.contract.init, body });
        const boc = beginCell().store(storeMessage(message)).endCell().toBoc().toString('base64');
        const r = await fetch(`${base}/api/v2/sendBoc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ boc }),
        });
        const answeredAt = performance.now();
        const answer = await r.text();
        if (r.status !== 200) throw new Error(`sendBoc answered ${r.status}: ${answer.slice(0, 300)}`);
        return { key: traceKey, answeredAt };
      },
      async settled() {
        if (!(await waitSeqnoPast(client, w, seqno, { timeoutMs: 60_000, pollMs: 50 }))) {
          throw new Error(`timed out after 60 s: ${w.version} wallet's seqno past ${seqno}`);
        }
      },
    };
  });
}

// ---- statistics -------------------------------------------------------------------------------------------------

function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

interface Summary {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

function summary(samples: readonly number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p95: quantile(s, 0.95), max: s.at(-1) ?? Number.NaN };
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : 'n/a');
const ratio = (v: number, interval: number) => (Number.isFinite(v) ? (v / interval).toFixed(2) : 'n/a');

// ---- main -------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tongate-bench-streaming-'));
  const cleanups: Array<() => Promise<unknown>> = [() => rm(dir, { recursive: true, force: true })];
  try {
    log(`starting a devnet (${blockInterval} ms blocks) in ${dir} ...`);
    const devnet = startProc([
      'devnet',
      '--data',
      dir,
      '--lite-port',
      '0',
      '--http-port',
      '0',
      '--block-interval',
      String(blockInterval),
      '--seed',
      'bench-streaming',
    ]);
    cleanups.unshift(() => devnet.stop());
    const configFile = join(dir, 'devnet', GLOBAL_CONFIG_FILE);
    const walletsFile = join(dir, 'devnet', WALLETS_FILE);
    await until(
      'the devnet to write its config and wallets',
      async () => {
        if (devnet.child.exitCode !== null) throw new Error(`the devnet exited: ${devnet.output()}`);
        try {
          await access(walletsFile);
          return (await loadGlobalConfig(configFile)).liteservers[0] ? true : undefined;
        } catch {
          return undefined;
        }
      },
      120_000,
    );
    const pool = createLitePool({ servers: (await loadGlobalConfig(configFile)).liteservers });
    cleanups.unshift(() => pool.close());
    await pool.ready({ timeoutMs: 15_000 });

    const scratch = await createScratchPostgres(SERVER_URL, 'tongate_bench_streaming');
    cleanups.unshift(() => scratch.drop());
    const db = await createDatabase({
      kind: 'postgres',
      url: scratch.url,
      applicationName: 'tongate-bench-streaming',
    });
    cleanups.unshift(() => db.close());
    await migrate(db);
    log(`indexing the devnet's first blocks into PostgreSQL ${new URL(scratch.url).host}/${scratch.name} ...`);
    const source = createLiteSource(pool);
    const head = (await pool.getMasterchainInfo()).last.seqno;
    for (let n = 1; n <= head; n++) await indexMcBlock(n, { source, db });
    for (const b of await assembleTraces(db)) await classifyMcBlock(b.mcSeqno, { db });
    const indexer = startIndexer(pool, db, head);
    cleanups.unshift(() => indexer.stop());

    log('starting tongate serve ...');
    const serve = startProc([
      'serve',
      '--lite-config',
      configFile,
      '--database-url',
      scratch.url,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
    ]);
    cleanups.unshift(() => serve.stop());
    const port = await until(
      'tongate serve to listen',
      () => {
        if (serve.child.exitCode !== null) throw new Error(`tongate serve exited: ${serve.output()}`);
        const m = /ops http:\/\/127\.0\.0\.1:(\d+)\/healthz/.exec(serve.output());
        return m ? Number(m[1]) : undefined;
      },
      120_000,
    );
    const base = `http://127.0.0.1:${port}`;
    const pid = serve.child.pid!;

    const wallets = await userWallets(walletsFile, base);
    if (wallets.length === 0) throw new Error('the devnet has no user wallets');
    const run = randomBytes(4).toString('hex');
    const targets = Array.from(
      { length: transferCount },
      (_, i) => new Address(0, createHash('sha256').update(`bench-streaming ${run} ${i}`).digest()),
    );
    const subscription = {
      types: ['transactions', 'actions'],
      addresses: [...wallets.map((w) => raw(w.address)), ...targets.map(raw)],
      min_finality: 'pending',
    };
    const rssIdle = await rssMiB(pid);
    const clients = Array.from({ length: clientCount }, () => openClient(port, subscription));
    cleanups.unshift(async () => {
      for (const c of clients) c.close();
    });
    await Promise.all(clients.map((c) => c.connected));
    // The server's finalized feed starts at the index's head: give it a poll before anything is sent.
    await sleep(1000);
    const rssConnected = await rssMiB(pid);

    log(`${clientCount} SSE clients connected; sending ${transferCount} transfers from ${wallets.length} wallets ...`);
    const sends: Array<{ key: string; answeredAt: number }> = [];
    const t0 = performance.now();
    await Promise.all(
      wallets.map(async (w, wi) => {
        for (let i = wi; i < transferCount; i += wallets.length) {
          sends[i] = await w.send(targets[i]!, `bench ${i}`);
          await w.settled();
        }
      }),
    );
    const sentAll = performance.now();
    log(`sent in ${((sentAll - t0) / 1000).toFixed(1)} s; waiting for every client to have every finalized event ...`);
    const finalOf = (c: SseClient, key: string) =>
      c.arrivals.find((a) => a.type === 'transactions' && a.finality === 'finalized' && a.key === key);
    await until(
      'every finalized event at every client',
      () => (clients.every((c) => sends.every((s) => finalOf(c, s.key))) ? true : undefined),
      60_000 + 20 * blockInterval,
    );
    const tEnd = Math.max(...clients.flatMap((c) => sends.map((s) => finalOf(c, s.key)!.at)));
    const rssAfter = await rssMiB(pid);

    // The block interval during the sends: the indexer's first sightings of new heads, and gen_utime.
    const seen = [...indexer.seen.entries()].filter(([, at]) => at >= t0 && at <= tEnd).sort((a, b) => a[0] - b[0]);
    const first = seen[0];
    const last = seen.at(-1);
    if (!first || !last || last[0] === first[0]) throw new Error('too few masterchain blocks seen to measure');
    const interval = (last[1] - first[1]) / (last[0] - first[0]);
    const genRows = (
      await db.query<{ seqno: number; gen_utime: string }>(
        'SELECT seqno, gen_utime FROM blocks WHERE workchain = -1 AND seqno BETWEEN $1 AND $2',
        [first[0], Math.max(last[0], ...clients.flatMap((c) => c.arrivals.map((a) => mcOf(a.id))))],
      )
    ).rows;
    const genUtime = new Map(genRows.map((r) => [Number(r.seqno), Number(r.gen_utime)]));
    const genInterval =
      (((genUtime.get(last[0]) ?? Number.NaN) - (genUtime.get(first[0]) ?? Number.NaN)) * 1000) / (last[0] - first[0]);

    const pending: number[] = [];
    const fromReady: number[] = [];
    const fromSeen: number[] = [];
    const fromGen: number[] = [];
    const endToEnd: number[] = [];
    let missingPending = 0;
    for (const c of clients) {
      for (const s of sends) {
        const p = c.arrivals.find((a) => a.type === 'transactions' && a.finality === 'pending' && a.key === s.key);
        if (p) pending.push(p.at - s.answeredAt);
        else missingPending++;
        const f = finalOf(c, s.key)!;
        const mc = mcOf(f.id);
        const ready = indexer.ready.get(mc);
        if (ready !== undefined) fromReady.push(f.at - ready);
        const sighted = indexer.seen.get(mc);
        if (sighted !== undefined) fromSeen.push(f.at - sighted);
        const gen = genUtime.get(mc);
        if (gen !== undefined) fromGen.push(performance.timeOrigin + f.at - gen * 1000);
        endToEnd.push(f.at - s.answeredAt);
      }
    }
    const window = clients.flatMap((c) => c.arrivals.filter((a) => a.at >= t0 && a.at <= tEnd));
    const rate = window.length / ((tEnd - t0) / 1000);
    const bytes = window.reduce((n, a) => n + a.bytes, 0);

    const P = summary(pending);
    const F = summary(fromReady);
    const rows: Array<[string, Summary]> = [
      ['sendBoc answered -> pending event', P],
      ['block final in the index -> finalized event', F],
      ['block published (seen) -> finalized event', summary(fromSeen)],
      ['block gen_utime (1 s steps) -> finalized event', summary(fromGen)],
      ['sendBoc answered -> finalized event', summary(endToEnd)],
    ];
    out(
      `bench/streaming: ${transferCount} transfers, ${clientCount} SSE clients, one tongate serve process; devnet ` +
        `--block-interval ${blockInterval}: measured ${interval.toFixed(0)} ms (indexer's sightings of ${last[0] - first[0] + 1} blocks), ` +
        `${Number.isFinite(genInterval) ? genInterval.toFixed(0) : 'n/a'} ms by gen_utime`,
    );
    out(
      `  ${'latency (per transfer and client)'.padEnd(48)} ${'n'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'max ms'.padStart(8)}   p50/p95 x block interval`,
    );
    for (const [label, s] of rows) {
      out(
        `  ${label.padEnd(48)} ${String(s.n).padStart(5)} ${ms(s.p50).padStart(8)} ${ms(s.p95).padStart(8)} ${ms(s.max).padStart(8)}   ${ratio(s.p50, interval)} / ${ratio(s.p95, interval)}`,
      );
    }
    if (missingPending > 0) out(`  pending events missing: ${missingPending} of ${clientCount * transferCount}`);
    out(
      `  delivered: ${window.length} notifications (${(bytes / 2 ** 20).toFixed(2)} MiB of JSON) in ${((tEnd - t0) / 1000).toFixed(1)} s ` +
        `from the first send to the last finalized event: ${rate.toFixed(0)} events/s; the transfers took ${((sentAll - t0) / 1000).toFixed(1)} s to send`,
    );
    out(
      `  server RSS: ${rssIdle.toFixed(1)} MiB idle, ${rssConnected.toFixed(1)} MiB with ${clientCount} clients, ${rssAfter.toFixed(1)} MiB after`,
    );
    out(
      `bench/streaming: pending p50 ${ms(P.p50)} ms (${ratio(P.p50, interval)} x block interval), finalized p50 ${ms(F.p50)} ms (${ratio(F.p50, interval)} x), ` +
        `p95 pending ${ms(P.p95)} ms (${ratio(P.p95, interval)} x), finalized ${ms(F.p95)} ms (${ratio(F.p95, interval)} x), ${rate.toFixed(0)} events/s per process`,
    );
  } finally {
    for (const c of cleanups) await c().catch((e: Error) => log(`cleanup: ${e.message}`));
  }
}

/** The masterchain seqno of a finalized event's cursor (c1.<mc seqno>.<key>.<part>). */
function mcOf(id: string | undefined): number {
  return id ? Number(id.split('.')[1]) : 0;
}

main().then(
  () => process.exit(0),
  (e: Error) => {
    console.error(`bench/streaming: ${e.stack ?? e.message}`);
    process.exit(1);
  },
);
