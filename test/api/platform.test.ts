// The HTTP platform both APIs share, end to end over real HTTP on a devnet index in PostgreSQL: API keys made by
// `tongate keys` (shown once, stored as SHA-256 only, never logged), 401 for unknown and revoked keys, the managed
// profile's rates (keyless and per key, 429 in each API's body) counted in one-second windows of an injected
// clock, shared through Redis by two server instances and per process without it, body size limits, X-Timeout,
// CORS, request ids, /metrics as Prometheus text and /healthz. No assertion depends on how fast anything runs.
import { createHash } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, type ApiServerOptions, buildApiServer } from '../../src/api/build.ts';
import type { V3RouteGroup } from '../../src/api/v3/context.ts';
import { routeGroups } from '../../src/api/v3/routes/index.ts';
import { runCommand } from '../../src/cli/command.ts';
import { rootCommand } from '../../src/cli/main.ts';
import { type ApiFixture, type JsonBody, startApiFixture } from '../helpers/api-fixture.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';

// ---- an injected clock: every rate-limit window and key-cache expiry below reads it -------------------------
// A random far-future second, so Redis counters of this run meet no other run's.
let nowMs = (4_000_000_000 + Math.floor(Math.random() * 1_000_000)) * 1000 + 500;
const clock = () => nowMs;
/** Moves the clock into a second no request has used yet. */
function nextSecond(): void {
  nowMs = (Math.floor(nowMs / 1000) + 1) * 1000 + 500;
}

// ---- logs of every server, to prove keys never reach them ---------------------------------------------------
const logLines: string[] = [];
const logger: Logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });

// ---- a test-only v3 route: a statement as slow as asked, to exercise X-Timeout ---------------------------------
const sleepRoute: V3RouteGroup = (app, ctx) => {
  app.get('/__test/sleep', async (req) => {
    const s = Number((req.query as Record<string, string>).s ?? '0');
    await ctx.query(req, 'SELECT pg_sleep($1::float8) IS NULL AS slept', [s]);
    return { slept: s };
  });
};

let f: ApiFixture;
const extra: ApiServer[] = [];

interface Res {
  status: number;
  body: JsonBody;
  text: string;
  headers: Headers;
}

async function call(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Res> {
  const r = await fetch(base + path, { method: init.method ?? 'GET', headers: init.headers, body: init.body });
  const text = await r.text();
  let body: JsonBody = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: r.status, body, text, headers: r.headers };
}

/** Another API server over the fixture's index and liteserver pool, listening on a random port. */
async function serve(opts: Partial<ApiServerOptions>): Promise<string> {
  const s = await buildApiServer({ db: f.db!.db, lite: f.pool, logger, now: clock, ...opts });
  extra.push(s);
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = s.app.server.address();
  return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

/** `tongate …` in process: exit code and the lines it printed. */
async function tongate(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand(rootCommand, argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

const keysCreated: string[] = [];
async function createKey(name: string, rps?: number): Promise<{ key: string; id: number }> {
  const r = await tongate('keys', 'create', '--database-url', dbUrl(), ...(rps ? ['--rps', String(rps)] : []), name);
  expect(r.code, r.err.join('\n')).toBe(0);
  expect(r.out).toHaveLength(1);
  const key = r.out[0]!;
  keysCreated.push(key);
  const id = Number(/Created API key (\d+)/.exec(r.err.join('\n'))?.[1]);
  expect(id).toBeGreaterThan(0);
  return { key, id };
}

function dbUrl(): string {
  const cfg = f.db!.config;
  if (cfg.kind !== 'postgres') throw new Error('this suite runs on PostgreSQL');
  return cfg.url;
}

/** Counts of 200 and 429 answers among `n` requests made one after another (within the clock's current second). */
async function burst(n: number, request: (i: number) => Promise<Res>): Promise<{ ok: number; limited: Res[] }> {
  let ok = 0;
  const limited: Res[] = [];
  for (let i = 0; i < n; i++) {
    const r = await request(i);
    if (r.status === 200) ok++;
    else if (r.status === 429) limited.push(r);
    else throw new Error(`unexpected ${r.status}: ${r.text.slice(0, 200)}`);
  }
  return { ok, limited };
}

beforeAll(async () => {
  routeGroups.push(sleepRoute);
  f = await startApiFixture({
    seed: 'api-platform',
    db: 'postgres',
    activitySteps: 0,
    server: { logger, now: clock },
  });
}, 300_000);
afterAll(async () => {
  const i = routeGroups.indexOf(sleepRoute);
  if (i >= 0) routeGroups.splice(i, 1);
  for (const s of extra) await s.close();
  await f?.close();
});

describe('API keys', () => {
  it('tongate keys create prints the key once; the database holds only its SHA-256', async () => {
    const { key, id } = await createKey('platform-test', 3);
    expect(key).toMatch(/^tg_[A-Za-z0-9_-]{43}$/);
    const list = await tongate('keys', 'list', '--database-url', dbUrl());
    expect(list.code).toBe(0);
    const line = list.out.find((l) => l.startsWith(`${id}\t`));
    expect(line).toMatch(/platform-test\t3 rps/);
    expect(line).toContain(key.slice(0, 9));
    expect(list.out.join('\n')).not.toContain(key);

    const row = await f.db!.db.query<{ key_hash: Buffer }>('SELECT key_hash FROM api_keys WHERE id = $1', [id]);
    expect(row.rows[0]!.key_hash.equals(createHash('sha256').update(key).digest())).toBe(true);
    // No table holds the key text (or its secret part) anywhere.
    const tables = await f.db!.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    expect(tables.rows.length).toBeGreaterThan(5);
    for (const { table_name } of tables.rows) {
      const dump = await f.db!.db.query<{ t: string }>(`SELECT row_to_json(x)::text AS t FROM "${table_name}" x`);
      for (const { t } of dump.rows) {
        expect(t.includes(key.slice(3)), table_name).toBe(false);
        expect(t.includes(Buffer.from(key).toString('hex')), table_name).toBe(false);
      }
    }
  });

  it('tongate keys refuses bad usage and says which database failed', async () => {
    expect((await tongate('keys', 'create', '--database-url', dbUrl())).code).toBe(2);
    expect((await tongate('keys', 'create', '--database-url', dbUrl(), '--rps', '0', 'x')).code).toBe(2);
    expect((await tongate('keys', 'revoke', '--database-url', dbUrl(), 'abc')).code).toBe(2);
    const unknown = await tongate('keys', 'revoke', '--database-url', dbUrl(), '987654321');
    expect(unknown.code).toBe(1);
    expect(unknown.err.join('\n')).toMatch(/no active key with id 987654321/);
    const down = await tongate('keys', 'list', '--database-url', 'postgres://postgres@127.0.0.1:1/none');
    expect(down.code).toBe(75);
  });

  it('a valid key passes on both APIs, in the header and in api_key', async () => {
    const { key } = await createKey('both-forms');
    for (const path of ['/api/v3/masterchainInfo', '/api/v2/getMasterchainInfo']) {
      expect((await f.get(path, { 'x-api-key': key })).status).toBe(200);
      expect((await f.get(`${path}?api_key=${key}`)).status).toBe(200);
      // The parameter's name percent-encoded: the query parser decodes it, so the key is accepted, and the log
      // line must still hide it (the 'logs' test below reads every line for every key created here).
      expect((await f.get(`${path}?api%5Fkey=${key}&x=1`)).status).toBe(200);
    }
  });

  it('401 for unknown and revoked keys, header or query, in each API body', async () => {
    const { key, id } = await createKey('to-revoke');
    expect((await f.get('/api/v3/masterchainInfo', { 'x-api-key': key })).status).toBe(200);
    const revoked = await tongate('keys', 'revoke', '--database-url', dbUrl(), String(id));
    expect(revoked.code).toBe(0);
    // The running server cached the key as valid; revocation reaches it when the cache entry expires (10 s).
    nowMs += 11_000;
    for (const bad of ['tg_unknown', key]) {
      const v3h = await f.get('/api/v3/masterchainInfo', { 'x-api-key': bad });
      const v3q = await f.get(`/api/v3/masterchainInfo?api_key=${bad}`);
      for (const r of [v3h, v3q]) expect(r).toMatchObject({ status: 401, body: { error: 'API key does not exist' } });
      const v2h = await f.get('/api/v2/getMasterchainInfo', { 'x-api-key': bad });
      const v2q = await f.get(`/api/v2/getMasterchainInfo?api_key=${bad}`);
      for (const r of [v2h, v2q]) {
        expect(r.status).toBe(401);
        expect(r.body).toMatchObject({ ok: false, error: 'API key does not exist', code: 401 });
      }
    }
    // A server that never saw the key refuses it at once.
    const fresh = await serve({});
    expect((await call(fresh, '/api/v3/masterchainInfo', { headers: { 'x-api-key': key } })).status).toBe(401);
  });
});

describe('rate limits (managed profile)', () => {
  it('keyless: 1 request per second on each API, 429 in each API body, a new second starts over', async () => {
    const base = await serve({ profile: 'managed' });
    for (let round = 0; round < 2; round++) {
      nextSecond();
      const v3 = await burst(5, () => call(base, '/api/v3/masterchainInfo'));
      const v2 = await burst(5, () => call(base, '/api/v2/getMasterchainInfo'));
      expect([v3.ok, v3.limited.length, v2.ok, v2.limited.length]).toEqual([1, 4, 1, 4]);
      for (const r of v3.limited) {
        expect(r.body).toEqual({ ok: false, result: 'Ratelimit exceed', code: 429 });
        expect(r.headers.get('retry-after')).toBe('1');
      }
      for (const r of v2.limited) expect(r.body).toMatchObject({ ok: false, error: 'Ratelimit exceeded', code: 429 });
    }
  });

  it('keyless v3 rate is configurable; the open profile has no limit', async () => {
    const base = await serve({ profile: 'managed', v3KeylessRps: 4 });
    nextSecond();
    expect((await burst(7, () => call(base, '/api/v3/masterchainInfo'))).ok).toBe(4);
    nextSecond();
    expect((await burst(20, () => call(f.base, '/api/v3/masterchainInfo'))).ok).toBe(20);
  });

  it("a key's own rate applies to it across header, query and both APIs; a key without one gets 10", async () => {
    const base = await serve({ profile: 'managed' });
    const three = await createKey('three-rps', 3);
    const dflt = await createKey('default-rps');
    nextSecond();
    const mixed = await burst(8, (i) =>
      i % 2 === 0
        ? call(base, '/api/v3/masterchainInfo', { headers: { 'x-api-key': three.key } })
        : call(base, `/api/v2/getMasterchainInfo?api_key=${three.key}`),
    );
    expect(mixed.ok).toBe(3);
    // Keyless callers are counted apart from keys, in the same second.
    expect((await burst(3, () => call(base, '/api/v3/masterchainInfo'))).ok).toBe(1);
    expect(
      (await burst(12, () => call(base, '/api/v3/masterchainInfo', { headers: { 'x-api-key': dflt.key } }))).ok,
    ).toBe(10);
    nextSecond();
    expect(
      (await burst(4, () => call(base, '/api/v3/masterchainInfo', { headers: { 'x-api-key': three.key } }))).ok,
    ).toBe(3);
  });

  it('two instances sharing Redis enforce one limit; without Redis each instance counts alone', async () => {
    const r1 = await serve({ profile: 'managed', redisUrl: REDIS_URL });
    const r2 = await serve({ profile: 'managed', redisUrl: REDIS_URL });
    // Until its Redis connection is up a limiter lets requests through: wait until each refuses a second call.
    for (const base of [r1, r2]) {
      let connected = false;
      for (let attempt = 0; attempt < 200 && !connected; attempt++) {
        nextSecond();
        await call(base, '/api/v3/masterchainInfo');
        connected = (await call(base, '/api/v3/masterchainInfo')).status === 429;
        if (!connected) await new Promise((r) => setTimeout(r, 50));
      }
      expect(connected).toBe(true);
    }
    const { key } = await createKey('shared', 3);
    nextSecond();
    const keyless = await burst(10, (i) => call(i % 2 ? r2 : r1, '/api/v3/masterchainInfo'));
    const keyed = await burst(8, (i) =>
      call(i % 2 ? r2 : r1, '/api/v3/masterchainInfo', { headers: { 'x-api-key': key } }),
    );
    expect([keyless.ok, keyed.ok]).toEqual([1, 3]);

    const m1 = await serve({ profile: 'managed' });
    const m2 = await serve({ profile: 'managed' });
    nextSecond();
    expect((await burst(10, (i) => call(i % 2 ? m2 : m1, '/api/v3/masterchainInfo'))).ok).toBe(2);
  });

  it('an unreachable Redis lets requests through and says so in the log', async () => {
    const base = await serve({ profile: 'managed', redisUrl: 'redis://127.0.0.1:1' });
    nextSecond();
    expect((await burst(4, () => call(base, '/api/v3/masterchainInfo'))).ok).toBe(4);
    expect(logLines.some((l) => l.includes('Rate limiter lost Redis'))).toBe(true);
  });
});

describe('request limits', () => {
  it('413 for a body over the limit, in the v2 body shape', async () => {
    const big = JSON.stringify({ method: 'getMasterchainInfo', params: {}, pad: 'x'.repeat(2 * 1024 * 1024) });
    const r = await call(f.base, '/api/v2/jsonRPC', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ ok: false, code: 413, error: 'request body is too large' });
    const small = await serve({ bodyLimit: 1024 });
    const body = (pad: number) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getMasterchainInfo', params: {}, pad: 'y'.repeat(pad) });
    const post = (b: string) =>
      call(small, '/api/v2/jsonRPC', { method: 'POST', headers: { 'content-type': 'application/json' }, body: b });
    expect((await post(body(100))).status).toBe(200);
    expect((await post(body(2000))).status).toBe(413);
  });

  it('X-Timeout (or x_timeout) bounds a statement: 500 with toncenter timeout body', async () => {
    const timeout = { error: 'timeout: context deadline exceeded' };
    expect(await f.get('/api/v3/__test/sleep?s=5', { 'x-timeout': '100' })).toMatchObject({
      status: 500,
      body: timeout,
    });
    expect(await f.get('/api/v3/__test/sleep?s=5&x_timeout=100')).toMatchObject({ status: 500, body: timeout });
    expect(await f.get('/api/v3/__test/sleep?s=0', { 'x-timeout': '3000' })).toMatchObject({ status: 200 });
    const bad = await f.get('/api/v3/__test/sleep?s=0', { 'x-timeout': 'soon' });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/X-Timeout/);
    // The server's cap applies without a header and cannot be raised by one.
    const capped = await serve({ queryTimeoutMs: 150 });
    expect(await call(capped, '/api/v3/__test/sleep?s=5')).toMatchObject({ status: 500, body: timeout });
    expect(await call(capped, '/api/v3/__test/sleep?s=5', { headers: { 'x-timeout': '60000' } })).toMatchObject({
      status: 500,
      body: timeout,
    });
  });
});

describe('CORS, request ids, metrics, health', () => {
  it('answers CORS preflights and exposes the request id, also on errors', async () => {
    const pre = await call(f.base, '/api/v3/masterchainInfo', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    for (const path of ['/api/v3/masterchainInfo', '/api/v3/masterchainInfo?api_key=nope', '/api/v2/nothingHere']) {
      const r = await call(f.base, path, { headers: { origin: 'https://app.example' } });
      expect(r.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(r.headers.get('access-control-expose-headers')?.toLowerCase(), path).toContain('x-request-id');
    }
  });

  it('echoes a well-formed X-Request-Id, replaces a malformed one, and gives every request its own', async () => {
    expect(
      (await f.get('/api/v3/masterchainInfo', { 'x-request-id': 'trace-42:a.b' })).headers.get('x-request-id'),
    ).toBe('trace-42:a.b');
    for (const bad of ['has space', 'x'.repeat(200), 'semi;colon']) {
      const id = (await f.get('/api/v3/masterchainInfo', { 'x-request-id': bad })).headers.get('x-request-id');
      expect(id).toBeTruthy();
      expect(id).not.toBe(bad);
    }
    const ids = new Set<string>();
    for (const path of [
      '/api/v3/masterchainInfo',
      '/api/v3/nope',
      '/api/v2/getMasterchainInfo?api_key=x',
      '/healthz',
    ]) {
      for (let i = 0; i < 5; i++) ids.add((await f.get(path)).headers.get('x-request-id') ?? '');
    }
    expect(ids.size).toBe(20);
    expect(ids.has('')).toBe(false);
  });

  it('/metrics is valid Prometheus text exposition with the request histogram', async () => {
    await f.get('/api/v3/masterchainInfo');
    await f.get('/api/v2/getMasterchainInfo');
    const r = await call(f.base, '/metrics');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    const families = parseExposition(r.text);
    const http = families.get('tongate_http_request_duration_seconds');
    expect(http?.type).toBe('histogram');
    const routes = new Set(http!.samples.map((s) => s.labels.route));
    expect(routes).toContain('/api/v3/masterchainInfo');
    expect(routes).toContain('/api/v2/getMasterchainInfo');
    expect(
      [...families.keys()].some((n) => n.startsWith('tongate_lite_')),
      'the liteserver pool reports',
    ).toBe(true);
  });

  it('/healthz reports 200 when healthy and 503 otherwise, never failing itself', async () => {
    expect(await f.get('/healthz')).toMatchObject({ status: 200, body: { ok: true } });
    const sick = await serve({ health: async () => ({ ok: false, index: { lagSeconds: 999 } }) });
    expect(await call(sick, '/healthz')).toMatchObject({
      status: 503,
      body: { ok: false, index: { lagSeconds: 999 } },
    });
    const broken = await serve({
      health: async () => {
        throw new Error('database unreachable');
      },
    });
    expect(await call(broken, '/healthz')).toMatchObject({
      status: 503,
      body: { ok: false, error: 'database unreachable' },
    });
  });
});

describe('logs', () => {
  it('never contain an API key, and log the api_key parameter redacted', () => {
    expect(keysCreated.length).toBeGreaterThanOrEqual(5);
    expect(logLines.length).toBeGreaterThan(50);
    const all = logLines.join('\n');
    for (const key of keysCreated) {
      expect(all.includes(key.slice(3)), 'key in the logs').toBe(false);
    }
    const served = logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'Served request' && l.keyed);
    expect(served.length).toBeGreaterThan(10);
    for (const l of served) if (String(l.url).includes('api_key=')) expect(l.url).toMatch(/api_key=\[redacted\]/);
  });
});

// ---- Prometheus text exposition format (version 0.0.4), checked line by line ----------------------------------
interface Family {
  type: string;
  samples: Array<{ name: string; labels: Record<string, string>; value: number }>;
}

function parseExposition(text: string): Map<string, Family> {
  const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const families = new Map<string, Family>();
  const familyOf = (sample: string): string | undefined => {
    if (families.has(sample)) return sample;
    for (const suffix of ['_bucket', '_sum', '_count', '_total', '_created']) {
      if (sample.endsWith(suffix) && families.has(sample.slice(0, -suffix.length)))
        return sample.slice(0, -suffix.length);
    }
    return undefined;
  };
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let m = new RegExp(`^# HELP (${NAME}) (.*)$`).exec(line);
    if (m) continue;
    m = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (m) {
      expect(families.has(m[1]!), `family ${m[1]} declared twice`).toBe(false);
      families.set(m[1]!, { type: m[2]!, samples: [] });
      continue;
    }
    expect(line.startsWith('#'), `unknown comment line: ${line}`).toBe(false);
    m = new RegExp(`^(${NAME})(\\{(.*)\\})? (\\S+)( -?\\d+)?$`).exec(line);
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    const labels: Record<string, string> = {};
    const labelText = m![3] ?? '';
    const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;
    let at = 0;
    while (at < labelText.length) {
      LABEL.lastIndex = at;
      const l = LABEL.exec(labelText);
      expect(l, `bad labels in: ${line}`).not.toBeNull();
      labels[l![1]!] = l![2]!;
      at = LABEL.lastIndex;
    }
    const raw = m![4]!;
    const value = raw === '+Inf' ? Number.POSITIVE_INFINITY : raw === '-Inf' ? Number.NEGATIVE_INFINITY : Number(raw);
    expect(raw === 'NaN' || !Number.isNaN(value), `bad value in: ${line}`).toBe(true);
    const family = familyOf(m![1]!);
    expect(family, `sample ${m![1]} has no # TYPE`).toBeDefined();
    families.get(family!)!.samples.push({ name: m![1]!, labels, value });
  }
  // Histograms: cumulative buckets ending at +Inf equal to _count, per label set.
  for (const [name, fam] of families) {
    if (fam.type !== 'histogram') continue;
    const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
    for (const s of fam.samples) {
      const { le, ...rest } = s.labels;
      const k = JSON.stringify(rest);
      const e = series.get(k) ?? { buckets: [] };
      if (s.name === `${name}_bucket`) e.buckets.push([le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le), s.value]);
      if (s.name === `${name}_count`) e.count = s.value;
      series.set(k, e);
    }
    for (const [k, e] of series) {
      const sorted = [...e.buckets].sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < sorted.length; i++) {
        expect(sorted[i]![1], `${name}${k}: buckets must be cumulative`).toBeGreaterThanOrEqual(sorted[i - 1]![1]);
      }
      expect(sorted.at(-1)?.[0], `${name}${k}: last bucket +Inf`).toBe(Number.POSITIVE_INFINITY);
      expect(sorted.at(-1)?.[1], `${name}${k}: +Inf bucket = _count`).toBe(e.count);
    }
  }
  return families;
}
