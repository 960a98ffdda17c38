// X-Timeout and the default statement cap over real HTTP, on a devnet index in PGlite and in PostgreSQL (issue 18:
// PGlite used to answer 200 whatever the timeout). A timed-out read is toncenter's 500
// {"error":"timeout: context deadline exceeded"} on both. Slow by construction, not by a guess about this machine:
// the cap is met by a 30 s sleep, and `X-Timeout: 1` by a full page of 1000 transactions, whose statements need
// several ms of CPU on PostgreSQL and hundreds on PGlite. One core cycle of the devnet gives some 40
// transactions, so the index gets copies of them under new hashes and lts until a page of 1000 is full.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V3RouteGroup } from '../../src/api/v3/context.ts';
import { routeGroups } from '../../src/api/v3/routes/index.ts';
import { type ApiFixture, startApiFixture } from '../helpers/api-fixture.ts';
import { KINDS, type Kind } from '../helpers/database.ts';

const TIMEOUT = { status: 500, body: { error: 'timeout: context deadline exceeded' } };

// A test-only route whose one statement sleeps 30 s, through the same ctx.query (read()) as every v3 route.
const slowRoute: V3RouteGroup = (app, ctx) => {
  app.get('/__test/slow', async (req) => {
    const rows = await ctx.query<{ slept: boolean }>(req, 'SELECT pg_sleep(30) IS NOT NULL AS slept');
    return rows[0];
  });
};

beforeAll(() => {
  routeGroups.push(slowRoute);
});
afterAll(() => {
  const i = routeGroups.indexOf(slowRoute);
  if (i >= 0) routeGroups.splice(i, 1);
});

describe.each(KINDS)('v3 statement timeout on %s', (kind: Kind) => {
  let f: ApiFixture;
  beforeAll(async () => {
    f = await startApiFixture({ seed: `v3-timeout-${kind}`, db: kind });
    await f.db!.db.transaction(async (tx) => {
      await tx.query('CREATE TEMP TABLE copies ON COMMIT DROP AS SELECT * FROM transactions');
      for (let i = 0; i < 40; i++) {
        await tx.query(
          "UPDATE copies SET hash = encode(sha256(convert_to(hash, 'UTF8')), 'base64'), lt = lt + 1000000000",
        );
        await tx.query('INSERT INTO transactions SELECT * FROM copies');
      }
    });
  }, 600_000);
  afterAll(async () => {
    await f?.close();
  });

  it('answers /transactions?limit=1000 with the timeout error under X-Timeout: 1, and 200 without it', async () => {
    expect(await f.get('/api/v3/transactions?limit=1000', { 'x-timeout': '1' })).toMatchObject(TIMEOUT);
    expect(await f.get('/api/v3/transactions?limit=1000&x_timeout=1')).toMatchObject(TIMEOUT);
    const ok = await f.get('/api/v3/transactions?limit=1000');
    expect(ok.status).toBe(200);
    expect(ok.body.transactions).toHaveLength(1000);
    // The server still answers after the timeouts.
    expect((await f.get('/api/v3/transactions?limit=1', { 'x-timeout': '3000' })).status).toBe(200);
  });

  it('applies the 3000 ms default cap without X-Timeout, and a larger X-Timeout cannot raise it', async () => {
    expect(await f.get('/api/v3/__test/slow')).toMatchObject(TIMEOUT);
    expect(await f.get('/api/v3/__test/slow', { 'x-timeout': '60000' })).toMatchObject(TIMEOUT);
  });
});
