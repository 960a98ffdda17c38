// Issue 6: "a fuzz test of random parameters gives no 5xx". Every GET route of our /api/v3 (from the route table
// that also feeds /api/v3/openapi.json) is called with random subsets of its documented parameters, plus
// unknown ones, taking values from a mix of real chain values (addresses, hashes, seqnos, lts from the index)
// and hostile ones (garbage, huge and negative numbers, wrong encodings, empty, repeated keys, long strings).
// No answer may be a 5xx; every 200 must validate against the public v3 OpenAPI document where it declares
// the path. A seeded generator, so a failure reproduces; the failing URL is in the message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/api/v3/openapi/routes.ts';
import { type ApiFixture, type JsonBody, startApiFixture } from '../helpers/api-fixture.ts';
import { documentedPaths, validateV3 } from '../helpers/openapi-validator.ts';

let f: ApiFixture;
const real: { addresses: string[]; hashes: string[]; seqnos: string[]; lts: string[]; shards: string[] } = {
  addresses: [],
  hashes: [],
  seqnos: [],
  lts: [],
  shards: [],
};

beforeAll(async () => {
  f = await startApiFixture({ seed: 'v3-fuzz', db: 'pglite', activitySteps: 4 });
  const txs = (await f.get('/api/v3/transactions?limit=50&sort=asc')).body.transactions as JsonBody[];
  for (const t of txs) {
    real.addresses.push(t.account);
    real.hashes.push(t.hash, t.in_msg?.hash ?? t.hash);
    real.lts.push(t.lt);
    real.seqnos.push(String(t.block_ref.seqno), String(t.mc_block_seqno));
    real.shards.push(t.block_ref.shard);
  }
  expect(txs.length).toBeGreaterThan(5);
}, 300_000);
afterAll(async () => {
  await f?.close();
});

/** mulberry32: small, seeded, good enough to pick cases. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e9',
  '9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '99999999999999999999999999',
  'NaN',
  'true',
  'null',
  'undefined',
  '0x',
  '0xZZ',
  "'; DROP TABLE transactions; --",
  '%00',
  '\u0000',
  'ÿ',
  '🙂',
  '[]',
  '{}',
  'a'.repeat(5000),
  `0:${'g'.repeat(64)}`,
  `0:${'a'.repeat(63)}`,
  `-1:${'F'.repeat(64)}`,
  `2147483648:${'0'.repeat(64)}`,
  `EQ${'A'.repeat(46)}`,
  'A'.repeat(44),
  'A'.repeat(43),
  'f'.repeat(64),
  'asc',
  'desc',
  'in',
  'out',
];

function valueFor(name: string, r: () => number): string {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)] as T;
  if (r() < 0.45) return pick(HOSTILE);
  if (/address|account|source|destination|owner|jetton|collection|wallet/.test(name)) return pick(real.addresses);
  if (name === 'domain') return pick(['foundation.ton', 'alice.ton', 'x.t.me', 'TON']);
  if (/hash|trace_id/.test(name)) {
    const h = pick(real.hashes);
    return r() < 0.5 ? h : Buffer.from(h, 'base64').toString('hex');
  }
  if (/lt/.test(name)) return pick(real.lts);
  if (/seqno/.test(name)) return pick(real.seqnos);
  if (name === 'shard') return pick(real.shards);
  if (name === 'workchain') return pick(['-1', '0', '1']);
  if (name === 'limit') return pick(['1', '10', '1000', '1001', '0']);
  if (name === 'offset') return pick(['0', '5', '100000']);
  if (/utime/.test(name)) return String(Math.floor(Date.now() / 1000) - Math.floor(r() * 100_000));
  if (name === 'sort') return pick(['asc', 'desc', 'a', 'd', 'x']);
  if (name === 'direction') return pick(['in', 'out', 'both']);
  if (name === 'opcode') return pick(['0x0f8a7ea5', '0', '-1', 'ffffffff']);
  return pick(['true', 'false', '1', '0']);
}

describe('v3 fuzz', () => {
  const routes = ROUTES.filter((r) => r.method === 'get' && !r.path.includes('openapi') && r.path !== '/');
  it('answers random parameters on every route without a 5xx; every 200 matches the public document', async () => {
    expect(routes.length).toBeGreaterThanOrEqual(14);
    const documented = new Set(documentedPaths());
    const r = rng(0x5eed);
    const statuses = new Map<number, number>();
    for (const route of routes) {
      const names = route.params.filter((p) => p.in === 'query').map((p) => p.name);
      for (let i = 0; i < 40; i++) {
        const qs = new URLSearchParams();
        for (const n of names) if (r() < 0.35) qs.append(n, valueFor(n, r));
        // Repeated keys, unknown keys, and now and then a required parameter left out on purpose.
        if (r() < 0.2 && names.length) qs.append(names[0] as string, valueFor(names[0] as string, r));
        if (r() < 0.1) qs.append('unknown_param', 'x');
        const url = `/api/v3${route.path}?${qs.toString()}`;
        const res = await f.get(url);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${url} -> ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(500);
        if (res.status >= 400) {
          expect(typeof res.body.error, url).toBe('string');
          expect(res.body.error.length, url).toBeGreaterThan(0);
        }
        const path = `/api/v3${route.path}`;
        if (res.status === 200 && documented.has(path) && !/ShardState|BlockShards/.test(path)) {
          expect(validateV3('get', path, 200, res.body), url).toEqual([]);
        }
      }
    }
    // Both kinds of answers happened: the generator reaches valid and invalid inputs.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
    expect(statuses.get(422) ?? 0).toBeGreaterThan(50);
  }, 600_000);
});
