// PostgreSQL cutting sessions (what a server restart looks like to clients: FATAL 57P01, sometimes in the very
// packet that ends the connection handshake) must fail queries and transactions with errors, never crash the
// process through an 'error' event nobody listens to. Direct queries, transactions and COPY run in loops while
// every session of the database is terminated again and again; afterwards the database works as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, setupDatabase, type TestDatabase } from '../helpers/database.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await setupDatabase('postgres');
  await t.db.query('CREATE TABLE cut_rows (x integer)');
});
afterAll(async () => {
  await t?.cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL sessions cut under load', () => {
  it('fails the cut statements with errors and keeps the process alive', async () => {
    const name = new URL(t.config.kind === 'postgres' ? t.config.url : '').pathname.slice(1);
    let stop = false;
    const errors: string[] = [];
    let ok = 0;
    const direct = async () => {
      while (!stop) {
        await t.db.query('SELECT pg_sleep(0.005)').then(
          () => ok++,
          (e: Error & { code?: string }) =>
            errors.push(e.code === 'TG_DB_QUERY' ? `${e.code} ${e.message}` : (e.code ?? e.message)),
        );
        await sleep(3);
      }
    };
    const transactions = async () => {
      while (!stop) {
        await t.db
          .transaction(async (tx) => {
            await tx.query('SELECT 1');
            await sleep(10);
            await tx.copyFrom('cut_rows', ['x'], [[1], [2]]);
          })
          .then(
            () => ok++,
            (e: Error & { code?: string }) =>
              errors.push(e.code === 'TG_DB_QUERY' ? `${e.code} ${e.message}` : (e.code ?? e.message)),
          );
        await sleep(3);
      }
    };
    const loops = [direct(), direct(), transactions(), transactions(), transactions()];
    const admin = await adminClient();
    let cut = 0;
    try {
      const end = Date.now() + 3000;
      while (Date.now() < end) {
        const r = await admin.query(
          'SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        cut += Number(r.rows[0].n);
        await sleep(30);
      }
    } finally {
      stop = true;
      await Promise.all(loops);
      await admin.end();
    }
    expect(cut).toBeGreaterThan(20);
    expect(errors.length).toBeGreaterThan(0);
    // Every failure is one of our typed, retryable database errors.
    expect(new Set(errors)).toEqual(new Set(errors.filter((c) => c === 'TG_DB_UNAVAILABLE')));
    expect(ok).toBeGreaterThan(0);
    // And the database still works.
    expect((await t.db.query('SELECT count(*)::int AS n FROM cut_rows')).rows[0]?.n).toBeGreaterThan(0);
  }, 60_000);
});
