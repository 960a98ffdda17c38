// statement_timeout on both back ends, as v3's read() uses it: SET LOCAL in a transaction. PostgreSQL enforces it
// itself; PGlite only through src/db/pglite-timeout.ts (without it a statement ran to its end whatever the timeout,
// issue 18). Slow statements here are slow by construction (a join of 64 million rows, a sleep of many seconds),
// never by a guess about this machine's speed: had the timeout not interrupted them they would have succeeded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/index.ts';
import { KINDS, type Kind, setupDatabase, type TestDatabase } from '../helpers/database.ts';

/** CPU only, no I/O: a nested loop over two in-memory series, seconds even on PostgreSQL. */
const SLOW_JOIN = 'SELECT count(*) AS n FROM generate_series(1, 8000) a, generate_series(1, 8000) b WHERE a + b > 0';

async function failure(p: Promise<unknown>): Promise<{ code?: string; message?: string; details?: unknown }> {
  try {
    await p;
  } catch (e) {
    const err = e as { code?: string; message?: string; details?: unknown };
    return { code: err.code, message: err.message, details: err.details };
  }
  throw new Error('expected the statement to fail');
}

const TIMED_OUT = {
  code: 'TG_DB_TIMEOUT',
  message: expect.stringContaining('canceling statement due to statement timeout'),
  details: expect.objectContaining({ sqlstate: '57014' }),
};

describe.each(KINDS)('statement_timeout on %s', (kind: Kind) => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await setupDatabase(kind);
    db = t.db;
    await db.exec('CREATE TABLE marks (id integer PRIMARY KEY)');
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('cancels a CPU-bound statement past SET LOCAL statement_timeout as 57014, and rolls the transaction back', async () => {
    const run = db.transaction(async (tx) => {
      await tx.query('INSERT INTO marks VALUES (1)');
      await tx.query('SET LOCAL statement_timeout = 50');
      return tx.query(SLOW_JOIN);
    });
    expect(await failure(run)).toMatchObject(TIMED_OUT);
    expect((await db.query('SELECT count(*)::int AS n FROM marks WHERE id = 1')).rows).toEqual([{ n: 0 }]);
  });

  it('cancels a sleeping statement, again and again, and the database stays usable', async () => {
    for (let i = 0; i < 3; i++) {
      const run = db.transaction(async (tx) => {
        await tx.query('SET LOCAL statement_timeout = 100');
        await tx.query('SET TRANSACTION READ ONLY');
        return tx.query('SELECT pg_sleep(30)');
      });
      expect(await failure(run)).toMatchObject(TIMED_OUT);
    }
    expect((await db.query('SELECT 41 + 1 AS n')).rows).toEqual([{ n: 42 }]);
  });

  it('leaves no cancel behind: after hundreds of timeouts, every plain transaction right after one succeeds', async () => {
    // Timeouts of 1-3 ms on statements of a few ms: the alarm lands anywhere in or around the statement, including
    // its last moments, where a cancel raised too late used to be left pending and hit the next statement
    // ("canceling statement due to user request"), often the ROLLBACK, leaving the session in an aborted
    // transaction for good (every later query failing with 25P02).
    let timedOut = 0;
    for (let i = 0; i < 300; i++) {
      try {
        await db.transaction(async (tx) => {
          await tx.query(`SET LOCAL statement_timeout = ${1 + (i % 3)}`);
          await tx.query('SET TRANSACTION READ ONLY');
          // Mostly statements near the timeout; every tenth clearly past it (two million rows).
          const rows = i % 10 === 9 ? 2_000_000 : 3000 + (i % 200) * 40;
          return tx.query('SELECT count(*) FROM generate_series(1, $1::int)', [rows]);
        });
      } catch (e) {
        expect((e as { code?: string }).code).toBe('TG_DB_TIMEOUT');
        timedOut++;
      }
      const plain = await db.transaction((tx) => tx.query('SELECT $1::int AS i', [i]));
      expect(plain.rows).toEqual([{ i }]);
    }
    // At least the two-million-row statements ran past their timeout.
    expect(timedOut).toBeGreaterThanOrEqual(30);
  });

  it('lets cheap statements under the 3000 ms default cap run and commit', async () => {
    const n = await db.transaction(async (tx) => {
      await tx.query('SET LOCAL statement_timeout = 3000');
      await tx.query('INSERT INTO marks VALUES (2)');
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM marks')).rows[0]!.n;
    });
    expect(n).toBe(1);
    expect((await db.query('SELECT id FROM marks')).rows).toEqual([{ id: 2 }]);
  });

  it('times each statement, not the transaction: statements under the cap add up past it', async () => {
    const slept = await db.transaction(async (tx) => {
      await tx.query('SET LOCAL statement_timeout = 3000');
      let count = 0;
      // 16 × 0.25 s = 4 s in all, each statement far below 3 s.
      for (let i = 0; i < 16; i++) {
        await tx.query('SELECT pg_sleep(0.25)');
        count++;
      }
      return count;
    });
    expect(slept).toBe(16);
  });

  it('keeps a timeout to its transaction: later statements run past it', async () => {
    expect(
      await failure(
        db.transaction(async (tx) => {
          await tx.query('SET LOCAL statement_timeout = 50');
          await tx.query(SLOW_JOIN);
        }),
      ),
    ).toMatchObject(TIMED_OUT);
    // Each sleeps six times that timeout, outside a transaction and in one without a timeout.
    expect((await db.query('SELECT pg_sleep(0.3) IS NOT NULL AS ok')).rows).toEqual([{ ok: true }]);
    const inTx = await db.transaction((tx) => tx.query('SELECT pg_sleep(0.3) IS NOT NULL AS ok'));
    expect(inTx.rows).toEqual([{ ok: true }]);
  });
});

describe('PGlite only: one helper per instance', () => {
  it("with two instances open, each one's timeout cancels its own statement, and a stale alarm cancels nothing", async () => {
    const a = await setupDatabase('pglite');
    const b = await setupDatabase('pglite');
    try {
      // A arms its timer for 50 ms and finishes at once; the stale alarm falls due while B sleeps past it.
      await a.db.transaction(async (tx) => {
        await tx.query('SET LOCAL statement_timeout = 50');
        await tx.query('SELECT 1');
      });
      expect((await b.db.query('SELECT pg_sleep(0.3) IS NOT NULL AS ok')).rows).toEqual([{ ok: true }]);
      expect((await a.db.query('SELECT pg_sleep(0.3) IS NOT NULL AS ok')).rows).toEqual([{ ok: true }]);
      const run = b.db.transaction(async (tx) => {
        await tx.query('SET LOCAL statement_timeout = 50');
        await tx.query(SLOW_JOIN);
      });
      expect(await failure(run)).toMatchObject(TIMED_OUT);
    } finally {
      await a.cleanup();
      await b.cleanup();
    }
  });
});
