// bench/lite: queries per second and p50/p99 latency of lite_api queries on loopback, through our liteserver
// (ADNL client -> createLiteServer) and through the pool (pool -> two such servers), each printed as a ratio to
// a bare TCP request/response echo with the same answer size, measured in the same run (machines are shared
// and noisy, so only the ratios mean anything). Usage: npm run bench:lite [-- --seconds N --concurrency C]
import { createServer, type Socket, connect as tcpConnect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { AdnlClient, generateKeyPair } from '../src/adnl/index.ts';
import {
  createLitePool,
  createLiteServer,
  encodeTl,
  type LitePool,
  type LiteServer,
  type TlObject,
} from '../src/lite/index.ts';
import { createTestChain, createTestChainView, loadRealBlock, type RealBlock } from '../test/helpers/lite-pool.ts';
import { hasVectors } from '../test/helpers/vectors.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '8' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: npm run bench:lite [-- --seconds N --concurrency C]
Runs each scenario for N seconds (default 2) with C requests in flight (default 8), on 127.0.0.1:
  echo      bare TCP request/response (4-byte length framing) with the answer size of the query
  server    our AdnlClient -> createLiteServer (one server, one connection)
  pool      createLitePool over two createLiteServer instances
for getMasterchainInfo (small answer) and getBlock of a real 500 KB shard block (269 transactions), plus the
pool's getBlock with its root-hash check (a full BoC parse) one request at a time. Needs the real-chain vectors (TONGATE_VECTORS or ../shared/vectors).`);
  process.exit(0);
}
if (!hasVectors) {
  console.error('bench/lite: vectors not found (set TONGATE_VECTORS or place shared/vectors beside the repo)');
  process.exit(2);
}
const seconds = Number(values.seconds);
let concurrency = Number(values.concurrency);
if (!(seconds > 0) || !(concurrency >= 1)) {
  console.error('bench/lite: --seconds must be > 0 and --concurrency >= 1');
  process.exit(2);
}

interface Result {
  n: number;
  qps: number;
  p50: number;
  p99: number;
}

/** Runs `op` with `concurrency` loops for `seconds`; latencies in ms. */
async function measure(op: () => Promise<unknown>): Promise<Result> {
  for (let i = 0; i < 20; i++) await op(); // warm-up
  const lat: number[] = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const s = performance.now();
        await op();
        lat.push(performance.now() - s);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? Number.NaN;
  return { n: lat.length, qps: lat.length / elapsed, p50: q(0.5), p99: q(0.99) };
}

// ---- baseline: length-framed echo server answering `size` bytes to each request -----------------------------

async function startEcho(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((sock) => {
    sockets.add(sock);
    sock.setNoDelay(true);
    sock.on('error', () => {});
    sock.on('close', () => sockets.delete(sock));
    let buf = Buffer.alloc(0);
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 8) {
        const len = buf.readUInt32LE(0);
        if (buf.length < 4 + len) break;
        const answerSize = buf.readUInt32LE(4);
        buf = buf.subarray(4 + len);
        const out = Buffer.alloc(4 + answerSize);
        out.writeUInt32LE(answerSize, 0);
        sock.write(out);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return {
    port: typeof addr === 'object' && addr ? addr.port : 0,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** One connection, pipelined requests answered in order (FIFO). */
async function echoClient(port: number) {
  const sock = tcpConnect({ host: '127.0.0.1', port });
  sock.setNoDelay(true);
  await new Promise<void>((r) => sock.once('connect', () => r()));
  const waiting: Array<() => void> = [];
  let buf = Buffer.alloc(0);
  sock.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    while (buf.length >= 4) {
      const len = buf.readUInt32LE(0);
      if (buf.length < 4 + len) break;
      buf = buf.subarray(4 + len);
      waiting.shift()?.();
    }
  });
  return {
    request(requestSize: number, answerSize: number): Promise<void> {
      const out = Buffer.alloc(4 + Math.max(4, requestSize));
      out.writeUInt32LE(out.length - 4, 0);
      out.writeUInt32LE(answerSize, 4);
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        sock.write(out);
      });
    },
    close: () => sock.destroy(),
  };
}

// ---- lite servers -------------------------------------------------------------------------------------------

function liteQuery(fn: TlObject): Buffer {
  return encodeTl({ _: 'liteServer.query', data: encodeTl(fn) });
}

function blockIdTl(b: RealBlock) {
  return { workchain: b.workchain, shard: b.shard, seqno: b.seqno, rootHash: b.rootHash, fileHash: b.fileHash };
}

async function main() {
  const big = loadRealBlock('mainnet_0_8000000000000000_71398501.json');
  const chain = createTestChain(loadRealBlock(), [big]);
  const servers: LiteServer[] = [0, 1].map(() =>
    createLiteServer({ view: createTestChainView(chain, { lag: 0, history: true }), keys: [generateKeyPair()] }),
  );
  const bound = [];
  for (const s of servers) bound.push({ ...(await s.listen()), publicKey: s.publicKey });
  const echo = await startEcho();
  const ec = await echoClient(echo.port);
  const first = bound[0]!;
  const adnl = await AdnlClient.connect({ host: first.host, port: first.port, serverPublicKey: first.publicKey });
  const pool: LitePool = createLitePool({
    servers: bound.map((b) => ({ id: `${b.host}:${b.port}`, host: b.host, port: b.port, publicKey: b.publicKey })),
    requestTimeoutMs: 30_000,
  });
  await pool.ready();

  const infoQuery = liteQuery({ _: 'liteServer.getMasterchainInfo' });
  const blockQuery = liteQuery({ _: 'liteServer.getBlock', id: blockIdTl(big) });
  const infoAnswer = (await adnl.query(infoQuery)).length;
  const blockAnswer = (await adnl.query(blockQuery, 30_000)).length;

  const rows: Array<{ name: string; r: Result; base: Result }> = [];
  // Interleave baseline and subject per query so that drift in machine load hits both alike.
  for (const [label, query, answerSize, viaPool] of [
    ['getMasterchainInfo', infoQuery, infoAnswer, () => pool.getMasterchainInfo()],
    ['getBlock (500 KB)', blockQuery, blockAnswer, () => pool.getBlock(big, { verify: false })],
  ] as const) {
    const base = await measure(() => ec.request(query.length + 32, answerSize));
    rows.push({ name: `${label} echo`, r: base, base });
    rows.push({ name: `${label} server`, r: await measure(() => adnl.query(query, 30_000)), base });
    rows.push({ name: `${label} pool`, r: await measure(viaPool), base });
  }
  // The root-hash check parses the whole block into cells: CPU-bound, so one at a time says it best.
  const verifyBase = rows.find((r) => r.name.startsWith('getBlock') && r.name.endsWith('echo'))!.base;
  // Its baseline is the server's own answer path one at a time too (what the check adds to is that answer).
  const savedConcurrency = concurrency;
  concurrency = 1;
  const server1 = await measure(() => adnl.query(blockQuery, 30_000));
  const checked1 = await measure(() => pool.getBlock(big));
  rows.push({ name: 'getBlock server, 1×', r: server1, base: verifyBase });
  rows.push({ name: 'getBlock pool + root check, 1×', r: checked1, base: verifyBase });
  concurrency = savedConcurrency;

  console.log(
    `bench/lite: ${seconds} s per scenario, ${concurrency} in flight, loopback; answers ${infoAnswer} B and ${blockAnswer} B`,
  );
  console.log(
    `  ${'scenario'.padEnd(30)}${'qps'.padStart(10)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}` +
      `${'qps/echo'.padStart(11)}${'p50/echo'.padStart(11)}`,
  );
  for (const { name, r, base } of rows) {
    console.log(
      `  ${name.padEnd(30)}${r.qps.toFixed(0).padStart(10)}${r.p50.toFixed(3).padStart(10)}${r.p99.toFixed(3).padStart(10)}` +
        `${(r.qps / base.qps).toFixed(3).padStart(11)}${(r.p50 / base.p50).toFixed(2).padStart(11)}`,
    );
  }

  console.log(
    `bench/lite: getBlock (500 KB) through the pool with its root check ${checked1.qps.toFixed(1)} qps = ${(checked1.qps / server1.qps).toFixed(3)} x the server's own answer path (${server1.qps.toFixed(1)} qps), one at a time`,
  );
  await pool.close();
  adnl.close();
  ec.close();
  await echo.close();
  for (const s of servers) await s.close();
}

await main();
