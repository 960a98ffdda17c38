// The metadata job against a real local HTTP server (good JSON, bad JSON, a non-object, a 404, a reset, a huge
// body, a slow answer, a non-http URI) and a migrated PGlite: what address_metadata holds afterwards, that a bad
// site costs at most the timeout, that requests keep to the rate, and that rows come back only after they expire.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupDatabase, type TestDatabase } from '../../../test/helpers/database.ts';
import { migrate } from '../../db/index.ts';
import { rateLimiter } from './fetch-metadata.ts';
import { fetchOffchainMetadata, type MetadataJobOptions, startMetadataLoop } from './index.ts';

const raw = (n: number) => `0:${n.toString(16).toUpperCase().padStart(2, '0').repeat(32)}`;
const h = (n: number) => Buffer.alloc(32, n).toString('base64');

const GOOD = {
  name: 'Tether USD',
  symbol: 'USD₮',
  description: 'stable',
  image: 'https://example.invalid/usdt.png',
  decimals: '6',
  social: ['https://t.me/x'],
};
const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 400;
const SLOW_MS = 5000;

describe('off-chain metadata job', () => {
  let t: TestDatabase;
  let server: Server;
  let base: string;
  const hits: Array<{ path: string; at: number }> = [];
  let goodStatus = 200;
  let clock = 1_800_000_000;
  const logs: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];

  const options = (over: Partial<MetadataJobOptions> = {}): MetadataJobOptions => ({
    db: t.db,
    ratePerSecond: 50,
    maxBytes: MAX_BYTES,
    timeoutMs: TIMEOUT_MS,
    refreshSeconds: 86_400,
    retrySeconds: 600,
    now: () => clock,
    log: (level, msg, fields) => logs.push({ level, msg, fields }),
    ...over,
  });

  const rows = async () =>
    (
      await t.db.query<Record<string, unknown>>(
        `SELECT address, type, valid, name, description, symbol, image, extra, updated_at, expires_at
         FROM address_metadata ORDER BY address, type`,
      )
    ).rows;

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push({ path: req.url ?? '', at: performance.now() });
      switch (req.url) {
        case '/good.json':
          res.writeHead(goodStatus, { 'content-type': 'application/json' }).end(JSON.stringify(GOOD));
          return;
        case '/nul.json':
          res.end('{"name": "a\\u0000b", "description": "x\\ud800y", "attributes": [{"trait": "x\\u0000"}]}');
          return;
        case '/bad.json':
          res.end('{"name": "unterminated');
          return;
        case '/array.json':
          res.end('[1, 2, 3]');
          return;
        case '/missing.json':
          res.writeHead(404).end('not here');
          return;
        case '/reset.json':
          req.socket.destroy();
          return;
        case '/huge.json': {
          // Chunked, no length announced: the cap must stop the read.
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(16 * 1024, 0x20);
          let sent = 0;
          const push = () => {
            while (sent < 200 && res.write(chunk)) sent++;
            if (sent < 200) res.once('drain', push);
            else res.end('"}'); // valid JSON: only the cap can refuse it
          };
          res.write('{"name": "');
          push();
          res.on('error', () => {});
          return;
        }
        case '/declared-huge.json':
          res.writeHead(200, { 'content-length': String(MAX_BYTES * 10) });
          res.write('{');
          return; // never finishes: the declared length alone must refuse it
        case '/slow.json': {
          const timer = setTimeout(() => res.end(JSON.stringify(GOOD)), SLOW_MS);
          res.on('close', () => clearTimeout(timer));
          return;
        }
        default:
          res.writeHead(500).end();
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    t = await setupDatabase('pglite');
    await migrate(t.db);
    const tail = (n: number) => [47_000_000n + BigInt(n), h(n), h(n + 1)];
    const master = (n: number, content: unknown) =>
      t.db.query(
        `INSERT INTO jetton_masters (address, jetton_content, last_transaction_lt, code_hash, data_hash)
         VALUES ($1, $2, $3, $4, $5)`,
        [raw(n), content, ...tail(n)],
      );
    await master(0x01, { uri: `${base}/good.json` });
    await master(0x02, { uri: `${base}/bad.json` });
    await master(0x03, { uri: `${base}/missing.json` });
    await master(0x04, { uri: `${base}/huge.json` });
    await master(0x05, { uri: `${base}/slow.json` });
    await master(0x06, { name: 'on-chain only' }); // no uri: never fetched
    await master(0x07, { uri: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi' });
    await master(0x08, { uri: `${base}/reset.json` });
    await master(0x09, { uri: `${base}/declared-huge.json` });
    await master(0x0a, null);
    await t.db.query(
      `INSERT INTO nft_collections (address, collection_content, last_transaction_lt, code_hash, data_hash)
       VALUES ($1, $2, 1, $3, $3)`,
      [raw(0x20), { uri: `${base}/array.json` }, h(0x20)],
    );
    await t.db.query(
      `INSERT INTO nft_items (address, content, last_transaction_lt, code_hash, data_hash) VALUES ($1, $2, 1, $3, $3)`,
      [raw(0x30), { uri: `${base}/nul.json`, name: 'on-chain name' }, h(0x30)],
    );
  });

  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    await t?.cleanup();
  });

  it('stores good documents, marks every bad one invalid, and never waits past the timeout', async () => {
    const started = performance.now();
    const r = await fetchOffchainMetadata(options());
    const elapsed = performance.now() - started;
    expect(r).toEqual({ fetched: 10, valid: 2, invalid: 8 });
    // The slow site costs the timeout, not its 5 s; the huge body stops at the cap.
    expect(elapsed).toBeLessThan(SLOW_MS - 1000);
    // Every http URI was requested once; the ipfs:// one (no gateway configured) was not requested at all.
    expect(hits).toHaveLength(9);

    const stored = await rows();
    const by = (n: number, type = 'jetton_masters') => stored.find((x) => x.address === raw(n) && x.type === type);
    expect(by(0x01)).toEqual({
      address: raw(0x01),
      type: 'jetton_masters',
      valid: true,
      name: 'Tether USD',
      description: 'stable',
      symbol: 'USD₮',
      image: 'https://example.invalid/usdt.png',
      extra: { decimals: '6', social: ['https://t.me/x'] },
      updated_at: BigInt(clock),
      expires_at: BigInt(clock + 86_400),
    });
    expect(by(0x30, 'nft_items')).toMatchObject({
      valid: true,
      name: 'ab',
      description: 'x\uFFFDy',
      extra: { attributes: [{ trait: 'x' }] },
    });
    for (const [n, type] of [
      [0x02, 'jetton_masters'],
      [0x03, 'jetton_masters'],
      [0x04, 'jetton_masters'],
      [0x05, 'jetton_masters'],
      [0x07, 'jetton_masters'],
      [0x08, 'jetton_masters'],
      [0x09, 'jetton_masters'],
      [0x20, 'nft_collections'],
    ] as const) {
      expect(by(n, type), `${n} ${type}`).toEqual({
        address: raw(n),
        type,
        valid: false,
        name: null,
        description: null,
        symbol: null,
        image: null,
        extra: null,
        updated_at: BigInt(clock),
        expires_at: BigInt(clock + 600),
      });
    }
    expect(by(0x06)).toBeUndefined();
    expect(by(0x0a)).toBeUndefined();
    // Each bad site failed for its own reason.
    const reasons = Object.fromEntries(
      logs.filter((l) => l.msg === 'Marked metadata invalid').map((l) => [l.fields!.address, l.fields!.reason]),
    );
    expect(reasons).toEqual({
      [raw(0x02)]: 'not JSON',
      [raw(0x03)]: 'HTTP 404',
      [raw(0x04)]: `body over ${MAX_BYTES} bytes`,
      [raw(0x05)]: `no answer within ${TIMEOUT_MS} ms`,
      [raw(0x07)]: 'not an http(s) URI',
      [raw(0x08)]: expect.any(String),
      [raw(0x09)]: `body of ${MAX_BYTES * 10} bytes over ${MAX_BYTES}`,
      [raw(0x20)]: 'not a JSON object',
    });
  });

  it('fetches nothing while rows are fresh, and retries invalid rows after expires_at', async () => {
    hits.length = 0;
    expect(await fetchOffchainMetadata(options())).toEqual({ fetched: 0, valid: 0, invalid: 0 });
    expect(hits).toHaveLength(0);

    clock += 601;
    // A pinned row is left alone even when expired.
    await t.db.query(`UPDATE address_metadata SET reindex_allowed = false WHERE address = $1`, [raw(0x02)]);
    const r = await fetchOffchainMetadata(options({ batch: 100 }));
    expect(r).toEqual({ fetched: 7, valid: 0, invalid: 7 });
    expect(hits.map((x) => x.path)).not.toContain('/bad.json');
    expect(hits.map((x) => x.path)).not.toContain('/good.json');
  });

  it('keeps a valid document when its refresh fails, and retries later', async () => {
    const before = (await rows()).find((x) => x.address === raw(0x01))!;
    clock += 86_400;
    goodStatus = 503;
    hits.length = 0;
    await fetchOffchainMetadata(options());
    expect(hits.map((x) => x.path)).toContain('/good.json');
    const good = (await rows()).find((x) => x.address === raw(0x01))!;
    expect(good).toMatchObject({ valid: true, name: 'Tether USD', updated_at: before.updated_at });
    expect(good.expires_at).toBe(BigInt(clock + 600));
    goodStatus = 200;
  });

  it('keeps to the rate: request starts at least 1/rate apart', async () => {
    clock += 10_000;
    hits.length = 0;
    // Only rows that make a request: pin the ipfs:// one.
    await t.db.query(`UPDATE address_metadata SET reindex_allowed = false WHERE address = $1`, [raw(0x07)]);
    const rate = 20;
    // When the pass may start each request: the limiter's releases, timed where the request starts. (The server's
    // arrival times are not that: one request arriving late shortens the gap to the next one.)
    const limiter = rateLimiter(rate);
    const starts: number[] = [];
    const wait = async () => {
      await limiter();
      starts.push(performance.now());
    };
    await fetchOffchainMetadata(options({ ratePerSecond: rate, batch: 5 }), wait);
    expect(hits.length).toBe(5);
    expect(starts.length).toBe(5);
    // setTimeout may fire up to 1 ms before its delay as performance.now() counts it.
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(1000 / rate - 1);
  });

  it('runs as its own loop that stops promptly', async () => {
    clock += 10_000;
    const loop = startMetadataLoop({ ...options({ ratePerSecond: 5 }), intervalMs: 60_000 });
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    await loop.stop();
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 500);
    expect(logs.some((l) => l.level === 'error')).toBe(false);
  });
});
