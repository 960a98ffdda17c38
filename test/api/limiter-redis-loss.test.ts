// The managed profile's rate limiter when its Redis goes away (issue 24), with a redis-server of this test's own
// (never the shared one) killed with SIGKILL and started again on the same port, over real HTTP:
//  - `tongate serve --profile managed` as users run it defaults to closed: while Redis is gone every limited request
//    gets 503 with Retry-After and /healthz is 503 with the limiter's state; one warn line when Redis is lost and one
//    when it is back, however many requests came meanwhile; then requests are counted in Redis again;
//  - `--rate-limit-on-redis-loss open` (here through buildApiServer) lets requests through uncounted meanwhile, with
//    /healthz ok and the same two lines, and limits again once Redis is back.
import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, buildApiServer } from '../../src/api/build.ts';
import { migrate } from '../../src/db/index.ts';
import type { JsonBody } from '../helpers/api-fixture.ts';
import { type Child, startTongate } from '../helpers/cli.ts';
import { setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { freePort } from '../helpers/devnet-chain.ts';
import { until } from '../helpers/until.ts';

let t: TestDatabase;
const redises: ChildProcess[] = [];
const children: Child[] = [];
const servers: ApiServer[] = [];

beforeAll(async () => {
  t = await setupDatabase('postgres');
  await migrate(t.db);
});
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  for (const r of redises) if (r.exitCode === null && r.signalCode === null) r.kill('SIGKILL');
  await t?.cleanup();
});

/** A redis-server of our own on `port` (no persistence), resolved once it accepts connections. */
async function startRedis(port: number): Promise<ChildProcess> {
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  redises.push(proc);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out.slice(-500)}`)));
  });
  return proc;
}

async function killRedis(proc: ChildProcess): Promise<void> {
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await exited;
}

async function get(url: string): Promise<{ status: number; body: JsonBody; headers: Headers }> {
  const r = await fetch(url);
  const text = await r.text();
  let body: JsonBody = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: r.status, body, headers: r.headers };
}

/** /healthz once the limiter's Redis state is `state`. */
const healthWhen = (base: string, state: string) =>
  until(
    `rate limiter ${state}`,
    async () => {
      const h = await get(`${base}/healthz`);
      return h.body.rate_limiter?.redis === state ? h : undefined;
    },
    { timeoutMs: 30_000, stepMs: 100, ignoreErrors: true },
  );

const count = (lines: string[], text: string) => lines.filter((l) => l.includes(text)).length;

describe('the managed rate limiter when Redis is lost', () => {
  it('tongate serve --profile managed: closed by default, 503 + Retry-After while Redis is gone, one line each way', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const child = startTongate(['serve', '--profile', 'managed', '--port', '0', '--v3-keyless-rps', '1000'], {
      DATABASE_URL: t.config.kind === 'postgres' ? t.config.url : undefined,
      REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    children.push(child);
    const line = await child.waitFor(/^v3\s+http:\/\/127\.0\.0\.1:\d+\/api\/v3/, 60_000);
    const base = `http://127.0.0.1:${/127\.0\.0\.1:(\d+)/.exec(line)?.[1]}`;
    const url = `${base}/api/v3/transactions?limit=1`;

    const up = await healthWhen(base, 'ok');
    expect(up.status).toBe(200);
    expect(up.body.rate_limiter).toEqual({ backend: 'redis', redis: 'ok', on_redis_loss: 'closed', refusing: false });
    expect((await get(url)).status).toBe(200);
    // Counted in our Redis.
    const client = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    expect((await client.keys('tongate:rl:v3:ip:*')).length).toBeGreaterThan(0);
    client.disconnect();

    await killRedis(redis);
    const down = await healthWhen(base, 'lost');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      ok: false,
      rate_limiter: { backend: 'redis', redis: 'lost', on_redis_loss: 'closed', refusing: true },
    });
    expect(Number.isNaN(Date.parse(down.body.rate_limiter.lost_since))).toBe(false);
    for (let i = 0; i < 12; i++) {
      const r = await get(url);
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body.error).toContain('rate limiting is unavailable');
    }
    expect(count(child.err, 'Rate limiter lost Redis; limited requests get 503')).toBe(1);

    redis = await startRedis(port);
    const back = await healthWhen(base, 'ok');
    expect(back.status).toBe(200);
    expect(back.body.ok).toBe(true);
    for (let i = 0; i < 5; i++) expect((await get(url)).status).toBe(200);
    await child.waitFor(/Rate limiter reached Redis again/, 10_000);
    expect(count(child.err, 'Rate limiter reached Redis again')).toBe(1);
    expect(count(child.err, 'Rate limiter lost Redis')).toBe(1);

    child.proc.kill('SIGTERM');
    expect(await child.exited, child.err.slice(-5).join('\n')).toBe(0);
  }, 120_000);

  it('open: requests pass uncounted while Redis is gone, /healthz stays ok, and limits apply again after', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const lines: string[] = [];
    // One far-future second for every request: the keyless limit (1 rps) is exact whatever the machine's speed.
    const second = (4_100_000_000 + Math.floor(Math.random() * 1_000_000)) * 1000 + 500;
    const server = await buildApiServer({
      db: t.db,
      profile: 'managed',
      redisUrl: `redis://127.0.0.1:${port}`,
      rateLimitOnRedisLoss: 'open',
      now: () => second,
      logger: pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) }),
    });
    servers.push(server);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = server.app.server.address();
    const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const url = `${base}/api/v3/transactions?limit=1`;
    const burst = async (n: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++) statuses.push((await get(url)).status);
      return statuses;
    };

    await healthWhen(base, 'ok');
    expect(await burst(3)).toEqual([200, 429, 429]);

    await killRedis(redis);
    const down = await healthWhen(base, 'lost');
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({
      ok: true,
      rate_limiter: { redis: 'lost', on_redis_loss: 'open', refusing: false },
    });
    expect(await burst(6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(count(lines, 'Rate limiter lost Redis; requests pass unlimited')).toBe(1);

    redis = await startRedis(port);
    await healthWhen(base, 'ok');
    // A new Redis has no counts of this second: one request passes, the next are limited again.
    expect(await burst(3)).toEqual([200, 429, 429]);
    expect(count(lines, 'Rate limiter reached Redis again')).toBe(1);
    expect(count(lines, 'Rate limiter lost Redis')).toBe(1);
  }, 60_000);
});
