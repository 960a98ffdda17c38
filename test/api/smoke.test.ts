// The platform end to end: both APIs on one server over a devnet index, request ids, metrics, health, errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, startApiFixture } from '../helpers/api-fixture.ts';

let f: ApiFixture;
beforeAll(async () => {
  f = await startApiFixture({ seed: 'api-smoke', db: 'pglite', activitySteps: 2 });
}, 300_000);
afterAll(async () => {
  await f?.close();
});

describe('API platform', () => {
  it('serves v3 masterchainInfo from the index and v2 getMasterchainInfo from the liteserver', async () => {
    const v3 = await f.get('/api/v3/masterchainInfo');
    expect(v3.status).toBe(200);
    expect(v3.body.last.seqno).toBe(f.indexedThrough);
    expect(v3.headers.get('x-api-version')).toMatch(/^1\./);
    const v2 = await f.get('/api/v2/getMasterchainInfo');
    expect(v2.status).toBe(200);
    expect(v2.body.ok).toBe(true);
    expect(v2.body.result.last.seqno).toBeGreaterThanOrEqual(f.indexedThrough);
    expect(v2.headers.get('x-api-version')).toMatch(/^2\.1\./);
  });

  it('echoes a request id, counts requests in /metrics and reports health', async () => {
    const r = await f.get('/api/v3/masterchainInfo', { 'x-request-id': 'abc-123' });
    expect(r.headers.get('x-request-id')).toBe('abc-123');
    const m = await f.get('/metrics');
    expect(m.status).toBe(200);
    expect(m.body).toContain('tongate_http_request_duration_seconds_count{route="/api/v3/masterchainInfo"');
    expect((await f.get('/healthz')).status).toBe(200);
  });

  it('rejects an unknown API key with 401 in each API body shape', async () => {
    const v3 = await f.get('/api/v3/masterchainInfo?api_key=nope');
    expect(v3).toMatchObject({ status: 401, body: { error: 'API key does not exist' } });
    const v2 = await f.get('/api/v2/getMasterchainInfo', { 'x-api-key': 'nope' });
    expect(v2.status).toBe(401);
    expect(v2.body).toMatchObject({ ok: false, error: 'API key does not exist', code: 401 });
  });
});

describe('OpenAPI validator', () => {
  it('accepts our masterchainInfo and rejects a broken copy', async () => {
    const { validateV3 } = await import('../helpers/openapi-validator.ts');
    const r = await f.get('/api/v3/masterchainInfo');
    expect(validateV3('get', '/api/v3/masterchainInfo', 200, r.body)).toEqual([]);
    const broken = structuredClone(r.body);
    broken.last.seqno = 'x';
    expect(validateV3('get', '/api/v3/masterchainInfo', 200, broken).length).toBeGreaterThan(0);
    expect(() => validateV3('get', '/api/v3/noSuchPath', 200, {})).toThrow(/declares no JSON response/);
  });
});
