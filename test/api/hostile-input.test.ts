// Issue 18: the APIs under hostile input, on PostgreSQL and PGlite over real HTTP. Each repro of the issue answers
// a 4xx naming the problem (or 200 where the input is valid), never a 5xx, and no error body echoes more than a short
// prefix of the input: unix times past 2^31 on /actions, /traces and /events (the columns were 32-bit), NUL and
// invalid UTF-8 in parameters and bodies, megabyte numbers and deep JSON in get-method stacks, stacks the emulator
// cannot take (hundreds of entries, long tuples), fractional offsets. A full TVM queue answers 503 + Retry-After.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, buildApiServer } from '../../src/api/build.ts';
import { parseWalletsFile } from '../../src/devnet/activity/index.ts';
import { MAX_ERROR_MESSAGE } from '../../src/http/errors.ts';
import { type ApiFixture, type JsonBody, startApiFixture } from '../helpers/api-fixture.ts';
import type { Kind } from '../helpers/database.ts';

/** An error body stays short whatever the input was (message cap plus the envelope). */
const MAX_ERROR_BODY = MAX_ERROR_MESSAGE + 200;

async function send(
  base: string,
  path: string,
  body?: string,
): Promise<{ status: number; text: string; body: JsonBody; headers: Headers }> {
  const r = await fetch(base + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body,
  });
  const text = await r.text();
  let parsed: JsonBody = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: r.status, text, body: parsed, headers: r.headers };
}

const kinds: Kind[] = process.env.TONGATE_TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

describe.each(kinds)('hostile input on %s', (kind) => {
  let f: ApiFixture;
  let wallet: string;
  const servers: ApiServer[] = [];

  beforeAll(async () => {
    f = await startApiFixture({ seed: `hostile-${kind}`, db: kind, activitySteps: 2 });
    wallet = parseWalletsFile(await readFile(f.info.walletsFile, 'utf8'))[0]!.address!;
  }, 300_000);
  afterAll(async () => {
    for (const s of servers) await s.close();
    await f?.close();
  });

  const get = (path: string) => send(f.base, path);
  const post = (path: string, body: unknown) =>
    send(f.base, path, typeof body === 'string' ? body : JSON.stringify(body));

  function refused(r: { status: number; text: string }, status: number, pattern: RegExp): void {
    expect(r.status, r.text.slice(0, 300)).toBe(status);
    expect(r.text.length).toBeLessThanOrEqual(MAX_ERROR_BODY);
    expect(r.text).toMatch(pattern);
  }

  it('unix times past 2^31 - 1 filter /actions, /traces and /events instead of failing', async () => {
    for (const route of ['actions', 'traces', 'events']) {
      const late = await get(`/api/v3/${route}?start_utime=2147483648`);
      expect(late.status, `${route}: ${late.text.slice(0, 200)}`).toBe(200);
      const key = route === 'events' ? 'events' : route;
      expect(late.body[key]).toEqual([]);
      const all = await get(`/api/v3/${route}?end_utime=4294967296&limit=5`);
      expect(all.status, all.text.slice(0, 200)).toBe(200);
      expect(all.body[key].length, route).toBeGreaterThan(0);
    }
  });

  it('NUL and invalid UTF-8 in query parameters are 422 naming the parameter', async () => {
    refused(await get('/api/v3/dns/records?domain=a%00b'), 422, /domain.*NUL/);
    refused(await get('/api/v3/dns/records?domain=a%FFb'), 422, /domain.*UTF-8/);
    refused(await get('/api/v3/transactions?account=%C0%AF'), 422, /account.*UTF-8/);
    refused(await get('/api/v2/getAddressInformation?address=%00'), 422, /address.*NUL/);
    // The name itself.
    refused(await get('/api/v3/blocks?a%00=1'), 422, /NUL/);
    // Valid UTF-8 that is not an address is still the parameter's own error.
    refused(await get('/api/v3/transactions?account=%E2%82%AC'), 422, /invalid address in account/);
  });

  it('NUL, lone surrogates and invalid UTF-8 in JSON bodies are refused on both APIs', async () => {
    refused(await post('/api/v3/message', { boc: 'te\u0000st' }), 422, /body\.boc.*NUL/);
    refused(await post('/api/v2/sendBoc', '{"boc":"\\ud800"}'), 422, /lone surrogate/);
    // Bytes that are not UTF-8 at all.
    const r = await fetch(`${f.base}/api/v2/sendBoc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from([0x7b, 0x22, 0x62, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
    });
    expect(r.status).toBe(422);
    expect(await r.text()).toMatch(/failed to parse post request: the JSON body is not valid UTF-8/);
  });

  it('malformed and deeply nested JSON: v2 answers 422 as toncenter, v3 400', async () => {
    refused(await post('/api/v2/runGetMethod', '{"address": '), 422, /failed to parse post request: invalid JSON/);
    refused(await post('/api/v3/runGetMethod', '{"address": '), 400, /invalid JSON body/);
    const deep = `${'['.repeat(900_000)}${']'.repeat(900_000)}`;
    refused(await post('/api/v2/runGetMethod', deep), 422, /nests deeper than \d+ levels/);
    refused(await post('/api/v3/runGetMethod', `{"stack":${deep}}`), 400, /nests deeper than \d+ levels/);
  });

  it('a megabyte number in a get-method stack is refused by its length, echoing only a prefix', async () => {
    const huge = `0x${'f'.repeat(1_900_000)}`;
    const v2 = await post('/api/v2/runGetMethod', { address: wallet, method: 'seqno', stack: [['num', huge]] });
    refused(v2, 422, /1900002 characters.*257-bit/);
    const v3 = await post('/api/v3/runGetMethod', {
      address: wallet,
      method: 'seqno',
      stack: [{ type: 'num', value: huge }],
    });
    refused(v3, 422, /257-bit/);
    // A value just out of range is still named as such.
    refused(
      await post('/api/v2/runGetMethod', {
        address: wallet,
        method: 'seqno',
        stack: [['num', `0x1${'0'.repeat(64)}`]],
      }),
      422,
      /does not fit a 257-bit/,
    );
  });

  it('stacks the emulator cannot take are 422 naming the limit, and the TVM keeps working', async () => {
    const many = Array.from({ length: 350 }, (_, i) => ['num', String(i)]);
    refused(await post('/api/v2/runGetMethod', { address: wallet, method: 'seqno', stack: many }), 422, /at most 256/);
    const tuple = {
      '@type': 'tvm.stackEntryTuple',
      tuple: {
        '@type': 'tvm.tuple',
        elements: Array.from({ length: 7000 }, (_, i) => ({
          '@type': 'tvm.stackEntryNumber',
          number: { '@type': 'tvm.numberDecimal', number: String(i) },
        })),
      },
    };
    refused(
      await post('/api/v2/runGetMethodStd', { address: wallet, method: 'seqno', stack: [tuple] }),
      422,
      /7000 elements; TVM tuples hold at most 255/,
    );
    // Within the limits the same calls run (the method ignores its arguments).
    const fine = await post('/api/v2/runGetMethod', { address: wallet, method: 'seqno', stack: many.slice(0, 200) });
    expect(fine.status, fine.text.slice(0, 300)).toBe(200);
    expect(fine.body.result.exit_code).toBe(0);
  });

  it('offset is an integer like limit; fractional unix times are truncated as toncenter does', async () => {
    refused(await get('/api/v3/transactions?offset=1.7'), 422, /invalid offset: '1.7' is not an integer/);
    refused(await get('/api/v3/transactions?limit=1.5'), 422, /invalid limit/);
    const t = await get('/api/v3/transactions?start_utime=1.9&limit=1');
    expect(t.status, t.text.slice(0, 200)).toBe(200);
  });

  it('a full get-method queue answers 503 with Retry-After; every other call answers', async () => {
    const s = await buildApiServer({ db: f.db!.db, lite: f.pool, tvmThreads: 1, tvmQueue: 0 });
    servers.push(s);
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = s.app.server.address();
    const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const body = JSON.stringify({ address: wallet, method: 'seqno', stack: [] });
    const answers = await Promise.all(Array.from({ length: 40 }, () => send(base, '/api/v2/runGetMethod', body)));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((st) => st === 200 || st === 503),
      statuses.join(','),
    ).toBe(true);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    const busy = answers.find((a) => a.status === 503)!;
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.body).toMatchObject({ ok: false, code: 503 });
    expect(busy.body.error).toMatch(/waiting for the TVM/);
  });
});
