// createDatabase() on both back ends with one suite: the same parameters give the same JS values, COPY
// of awkward values gives the same rows, transactions and errors behave the same. Behaviour only one
// back end can show (a dropped connection, a single serialized connection) has its own block below.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database, pgComposite, pgJson, type Queryable } from '../../src/db/index.ts';
import { adminClient, KINDS, type Kind, setupDatabase, type TestDatabase } from '../helpers/database.ts';

async function codeOf(p: Promise<unknown>): Promise<{ code?: string; retryable?: boolean; message?: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as { code?: string; retryable?: boolean; message?: string };
    return { code: err.code, retryable: err.retryable, message: err.message };
  }
  throw new Error('expected a rejection');
}

const TRICKY_DDL = `
CREATE TYPE blockref AS (workchain integer, shard bigint, seqno integer);
CREATE TABLE tricky (
  id integer PRIMARY KEY,
  t text,
  big bigint,
  b bytea,
  arr bigint[],
  tarr text[],
  j jsonb,
  flag boolean,
  refs blockref[],
  n numeric
);`;

const TRICKY_COLUMNS = ['id', 't', 'big', 'b', 'arr', 'tarr', 'j', 'flag', 'refs', 'n'] as const;

/** Rows chosen to break a naive encoder: every COPY special character, NULL next to '', 64-bit limits. */
const TRICKY_ROWS: unknown[][] = [
  [
    1,
    'tab\there\nnewline\r\ncrlf \\ backslash',
    -9223372036854775808n,
    Buffer.from([0, 9, 10, 13, 92, 255]),
    [1n, null, -9223372036854775808n, 9223372036854775807n],
    ['a,b', '"q"', '', null, 'NULL', '{x}', 'back\\slash', 'tab\t'],
    { a: 'x\ty', n: 5n, nested: { u: 'ü' } },
    true,
    [pgComposite(-1, -9223372036854775808n, 5), pgComposite(0, 1n, 2)],
    '340282366920938463463374607431768211455',
  ],
  [2, '', 9223372036854775807n, Buffer.alloc(0), [], [], {}, false, [], '0'],
  [3, null, null, null, null, null, null, null, null, null],
  [
    4,
    '\\N',
    0n,
    Buffer.from('\\N'),
    [0n],
    ['\\N', '\\.'],
    pgJson(['\\N', null, 1]),
    null,
    [pgComposite(0, null, 1)],
    '-1.5',
  ],
  [5, '\\.', -1n, Buffer.from('日本'), [-1n], ['日本', '😀'], { '': '' }, true, null, null],
  [
    6,
    'é ₮ 😀 日本 \u0001\u007f',
    4294967296n,
    Buffer.from([0x5c, 0x78]),
    [4294967296n],
    ['   spaced   '],
    pgJson('just a string'),
    false,
    null,
    '1e-20',
  ],
];

/** What both back ends must return for TRICKY_ROWS, in id order. */
const TRICKY_EXPECTED = [
  {
    id: 1,
    t: 'tab\there\nnewline\r\ncrlf \\ backslash',
    big: -9223372036854775808n,
    b: Buffer.from([0, 9, 10, 13, 92, 255]),
    arr: [1n, null, -9223372036854775808n, 9223372036854775807n],
    tarr: ['a,b', '"q"', '', null, 'NULL', '{x}', 'back\\slash', 'tab\t'],
    j: { a: 'x\ty', n: '5', nested: { u: 'ü' } },
    flag: true,
    refs: '{"(-1,-9223372036854775808,5)","(0,1,2)"}',
    n: '340282366920938463463374607431768211455',
  },
  {
    id: 2,
    t: '',
    big: 9223372036854775807n,
    b: Buffer.alloc(0),
    arr: [],
    tarr: [],
    j: {},
    flag: false,
    refs: '{}',
    n: '0',
  },
  { id: 3, t: null, big: null, b: null, arr: null, tarr: null, j: null, flag: null, refs: null, n: null },
  {
    id: 4,
    t: '\\N',
    big: 0n,
    b: Buffer.from('\\N'),
    arr: [0n],
    tarr: ['\\N', '\\.'],
    j: ['\\N', null, 1],
    flag: null,
    refs: '{"(0,,1)"}',
    n: '-1.5',
  },
  {
    id: 5,
    t: '\\.',
    big: -1n,
    b: Buffer.from('日本'),
    arr: [-1n],
    tarr: ['日本', '😀'],
    j: { '': '' },
    flag: true,
    refs: null,
    n: null,
  },
  {
    id: 6,
    t: 'é ₮ 😀 日本 \u0001\u007f',
    big: 4294967296n,
    b: Buffer.from([0x5c, 0x78]),
    arr: [4294967296n],
    tarr: ['   spaced   '],
    j: 'just a string',
    flag: false,
    refs: null,
    n: '0.00000000000000000001',
  },
];

async function copyRoundTrip(db: Database): Promise<unknown[]> {
  await db.exec(TRICKY_DDL);
  const n = await db.copyFrom('tricky', TRICKY_COLUMNS, TRICKY_ROWS);
  expect(n).toBe(TRICKY_ROWS.length);
  const { rows } = await db.query(`SELECT ${TRICKY_COLUMNS.join(', ')} FROM tricky ORDER BY id`);
  return rows;
}

const PARAM_SQL = `SELECT $1::int8 AS i8min, $2::int8 AS i8max, $3::int4 AS i4, $4::bool AS bool, $5::bytea AS bytes,
  $6::jsonb AS json, $7::numeric AS num, $8::text AS txt, $9::int8[] AS i8arr, $10::timestamptz AS ts,
  $11::text[] AS txtarr, NULL::int8 AS nothing, $12::float8 AS f8, 42::int2 AS i2, '{1,2}'::int4[] AS i4arr,
  'x'::char(3) AS bp, '{"a":1}'::json AS js, '\\x00'::bytea AS b0, $13::text AS undef`;
const PARAMS = [
  -9223372036854775808n,
  9223372036854775807n,
  -2147483648,
  true,
  new Uint8Array([0, 1, 255]),
  { k: 12345678901234567890n, s: 'é' },
  '12345678901234567890.123456789',
  'tab\tnew\nline',
  [1n, null, -5n],
  new Date(Date.UTC(2026, 6, 17, 10, 20, 30, 123)),
  ['a', null, 'b,c'],
  1.5,
  undefined,
];
const PARAM_EXPECTED = {
  i8min: -9223372036854775808n,
  i8max: 9223372036854775807n,
  i4: -2147483648,
  bool: true,
  bytes: Buffer.from([0, 1, 255]),
  json: { k: '12345678901234567890', s: 'é' },
  num: '12345678901234567890.123456789',
  txt: 'tab\tnew\nline',
  i8arr: [1n, null, -5n],
  ts: new Date(Date.UTC(2026, 6, 17, 10, 20, 30, 123)),
  txtarr: ['a', null, 'b,c'],
  nothing: null,
  f8: 1.5,
  i2: 42,
  i4arr: [1, 2],
  bp: 'x  ',
  js: { a: 1 },
  b0: Buffer.from([0]),
  undef: null,
};

describe.each(KINDS)('Database on %s', (kind: Kind) => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await setupDatabase(kind);
    db = t.db;
    await db.exec('CREATE TABLE kv (k text PRIMARY KEY, v bigint NOT NULL CHECK (v >= 0))');
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('reports its kind', () => {
    expect(db.kind).toBe(kind);
  });

  it('passes parameters and reads values back as the same JS types', async () => {
    const { rows, rowCount } = await db.query(PARAM_SQL, PARAMS);
    expect(rowCount).toBe(1);
    expect(rows[0]).toEqual(PARAM_EXPECTED);
    expect(Buffer.isBuffer(rows[0]!.bytes)).toBe(true);
  });

  it('reports rows affected by writes', async () => {
    const ins = await db.query("INSERT INTO kv (k, v) VALUES ('a', 1), ('b', 2)");
    expect(ins.rowCount).toBe(2);
    const del = await db.query("DELETE FROM kv WHERE k IN ('a', 'b')");
    expect(del.rowCount).toBe(2);
  });

  it('COPYs tabs, newlines, backslashes, NULL vs empty, unicode, 64-bit limits and bytea unchanged', async () => {
    expect(await copyRoundTrip(db)).toEqual(TRICKY_EXPECTED);
  });

  it('COPYs from an async iterable in several chunks and counts the rows', async () => {
    await db.exec('CREATE TABLE many (i bigint PRIMARY KEY, s text NOT NULL)');
    async function* rows() {
      for (let i = 0; i < 30_000; i++) yield [BigInt(i), `row ${i} ${'x'.repeat(40)}`];
    }
    expect(await db.copyFrom('many', ['i', 's'], rows())).toBe(30_000);
    const r = await db.query<{ n: bigint; s: bigint }>('SELECT count(*) AS n, sum(i)::int8 AS s FROM many');
    expect(r.rows[0]).toEqual({ n: 30_000n, s: (29_999n * 30_000n) / 2n });
  });

  it('keeps no row of a COPY that fails part-way: a bad value after the first chunks, or a duplicate key', async () => {
    await db.exec('CREATE TABLE atomic_copy (i bigint PRIMARY KEY, s text)');
    function* badLate() {
      for (let i = 0; i < 40_000; i++) yield [BigInt(i), 'y'.repeat(60)];
      yield [40_000n, 'nul \u0000 here'];
    }
    const enc = await codeOf(db.copyFrom('atomic_copy', ['i', 's'], badLate()));
    expect(enc).toMatchObject({ code: 'TG_DB_ENCODE', retryable: false });
    expect(enc.message).toContain('row 40000');
    const dup = await codeOf(
      db.copyFrom(
        'atomic_copy',
        ['i', 's'],
        [
          [1n, 'a'],
          [1n, 'b'],
        ],
      ),
    );
    expect(dup).toMatchObject({ code: 'TG_DB_CONSTRAINT', retryable: false });
    expect((await db.query('SELECT count(*) AS n FROM atomic_copy')).rows[0]).toEqual({ n: 0n });
    // The database is still usable afterwards.
    expect(await db.copyFrom('atomic_copy', ['i', 's'], [[7n, 'ok']])).toBe(1);
  });

  it('checks COPY targets: plain identifiers, as many values as columns', async () => {
    expect(await codeOf(db.copyFrom('kv; DROP TABLE kv', ['k'], []))).toMatchObject({ code: 'TG_DB_USAGE' });
    expect(await codeOf(db.copyFrom('kv', ['k"'], []))).toMatchObject({ code: 'TG_DB_USAGE' });
    expect(await codeOf(db.copyFrom('kv', ['k', 'v'], [['x']]))).toMatchObject({ code: 'TG_DB_ENCODE' });
    expect(await db.copyFrom('public.kv', ['k', 'v'], [])).toBe(0);
  });

  it('commits a transaction, with COPY inside it', async () => {
    const out = await db.transaction(async (tx) => {
      await tx.query("INSERT INTO kv (k, v) VALUES ('tx1', 1)");
      await tx.copyFrom('kv', ['k', 'v'], [['tx2', 2n]]);
      return 'done';
    });
    expect(out).toBe('done');
    const r = await db.query("SELECT k, v FROM kv WHERE k LIKE 'tx%' ORDER BY k");
    expect(r.rows).toEqual([
      { k: 'tx1', v: 1n },
      { k: 'tx2', v: 2n },
    ]);
  });

  it('rolls back when the callback throws, and rethrows that same error', async () => {
    const mine = new Error('caller failed');
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO kv (k, v) VALUES ('rb1', 1)");
        await tx.copyFrom('kv', ['k', 'v'], [['rb2', 2n]]);
        throw mine;
      }),
    ).rejects.toBe(mine);
    expect((await db.query("SELECT count(*) AS n FROM kv WHERE k LIKE 'rb%'")).rows[0]).toEqual({ n: 0n });
  });

  it('fails COMMIT when a statement failed inside and the callback swallowed the error', async () => {
    const e = await codeOf(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO kv (k, v) VALUES ('sw1', 1)");
        await tx.query("INSERT INTO kv (k, v) VALUES ('sw2', -1)").catch(() => undefined);
        return 'looked fine';
      }),
    );
    expect(e).toMatchObject({ code: 'TG_DB_QUERY', retryable: false });
    expect(e.message).toContain('rolled back at COMMIT');
    expect((await db.query("SELECT count(*) AS n FROM kv WHERE k LIKE 'sw%'")).rows[0]).toEqual({ n: 0n });
  });

  it('refuses db.* inside db.transaction() and a transaction handle used after it ended', async () => {
    let leaked: Queryable | undefined;
    const inside = await codeOf(
      db.transaction(async (tx) => {
        leaked = tx;
        await db.query('SELECT 1');
      }),
    );
    expect(inside).toMatchObject({ code: 'TG_DB_USAGE' });
    expect(inside.message).toContain('use the transaction handle');
    expect(await codeOf(leaked!.query('SELECT 1'))).toMatchObject({ code: 'TG_DB_USAGE' });
  });

  it('types errors by SQLSTATE: constraint, check, domain, syntax, missing table', async () => {
    await db.query("INSERT INTO kv (k, v) VALUES ('dup', 1)");
    const dup = await codeOf(db.query("INSERT INTO kv (k, v) VALUES ('dup', 2)"));
    expect(dup).toMatchObject({ code: 'TG_DB_CONSTRAINT', retryable: false });
    expect(await codeOf(db.query("INSERT INTO kv (k, v) VALUES ('neg', -1)"))).toMatchObject({
      code: 'TG_DB_CONSTRAINT',
    });
    expect(await codeOf(db.query('SELEC 1'))).toMatchObject({ code: 'TG_DB_QUERY', retryable: false });
    expect(await codeOf(db.query('SELECT * FROM no_such_table'))).toMatchObject({ code: 'TG_DB_QUERY' });
    expect(await codeOf(db.query('SELECT $1::int8', ['not a number']))).toMatchObject({ code: 'TG_DB_QUERY' });
  });

  it('runs multi-statement scripts with exec', async () => {
    await db.exec('CREATE TABLE script_a (x int); INSERT INTO script_a VALUES (1); INSERT INTO script_a VALUES (2);');
    expect((await db.query('SELECT sum(x) AS s FROM script_a')).rows[0]).toEqual({ s: 3n });
  });
});

describe('both back ends', () => {
  it('read back identical rows from the same COPY bytes', async () => {
    const results: Record<string, unknown[]> = {};
    for (const kind of KINDS) {
      const t = await setupDatabase(kind);
      try {
        results[kind] = await copyRoundTrip(t.db);
      } finally {
        await t.cleanup();
      }
    }
    expect(results.pglite).toEqual(results.postgres);
    expect(results.pglite).toEqual(TRICKY_EXPECTED);
  });

  it('refuse use after close', async () => {
    for (const kind of KINDS) {
      const t = await setupDatabase(kind);
      try {
        await t.db.close();
        expect(await codeOf(t.db.query('SELECT 1'))).toMatchObject({ code: 'TG_DB_USAGE' });
      } finally {
        await t.cleanup();
      }
    }
  });
});

describe('PostgreSQL only: connections', () => {
  it('reports an unreachable server as retryable TG_DB_UNAVAILABLE, naming it without the password', async () => {
    const db = await createDatabase({ kind: 'postgres', url: 'postgres://u:secret@127.0.0.1:1/x' });
    const e = await codeOf(db.query('SELECT 1'));
    expect(e).toMatchObject({ code: 'TG_DB_UNAVAILABLE', retryable: true });
    expect(e.message).toContain('127.0.0.1:1');
    expect(e.message).not.toContain('secret');
    await db.close();
  });

  it('reports a connection killed mid-transaction as retryable, and the pool recovers', async () => {
    const t = await setupDatabase('postgres');
    const admin = await adminClient();
    try {
      const e = await codeOf(
        t.db.transaction(async (tx) => {
          const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
          await tx.query('SELECT 1');
        }),
      );
      expect(e).toMatchObject({ code: 'TG_DB_UNAVAILABLE', retryable: true });
      expect((await t.db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await t.cleanup();
    }
  });

  it('sets application_name and statement_timeout per pool; a timeout is retryable TG_DB_TIMEOUT', async () => {
    const t = await setupDatabase('postgres');
    if (t.config.kind !== 'postgres') throw new Error('unreachable');
    const db = await createDatabase({ ...t.config, applicationName: 'tongate-probe', statementTimeoutMs: 100 });
    try {
      const r = await db.query<{ name: string; timeout: string }>(
        "SELECT current_setting('application_name') AS name, current_setting('statement_timeout') AS timeout",
      );
      expect(r.rows[0]).toEqual({ name: 'tongate-probe', timeout: '100ms' });
      expect(await codeOf(db.query('SELECT pg_sleep(30)'))).toMatchObject({ code: 'TG_DB_TIMEOUT', retryable: true });
    } finally {
      await db.close();
      await t.cleanup();
    }
  });

  it('reports a missing database as non-retryable TG_DB_OPEN', async () => {
    const t = await setupDatabase('postgres');
    if (t.config.kind !== 'postgres') throw new Error('unreachable');
    const url = new URL(t.config.url);
    url.pathname = '/tongate_no_such_database';
    const db = await createDatabase({ kind: 'postgres', url: url.toString() });
    try {
      expect(await codeOf(db.query('SELECT 1'))).toMatchObject({ code: 'TG_DB_OPEN', retryable: false });
    } finally {
      await db.close();
      await t.cleanup();
    }
  });
});

describe('PGlite only: one connection', () => {
  it('runs transactions one after another, never interleaved', async () => {
    const t = await setupDatabase('pglite');
    try {
      const events: string[] = [];
      const run = (name: string) =>
        t.db.transaction(async (tx) => {
          events.push(`${name} begin`);
          await tx.query('SELECT 1');
          await new Promise((r) => setTimeout(r, 20));
          await tx.query('SELECT 2');
          events.push(`${name} end`);
        });
      await Promise.all([run('A'), run('B'), t.db.query('SELECT 3').then(() => events.push('query'))]);
      const a = events.indexOf('A begin');
      expect(events[a + 1]).toBe('A end');
      const b = events.indexOf('B begin');
      expect(events[b + 1]).toBe('B end');
    } finally {
      await t.cleanup();
    }
  });

  it('refuses a directory open elsewhere (retryable TG_DB_LOCKED) and takes over a stale lock', async () => {
    const t = await setupDatabase('pglite');
    try {
      if (t.config.kind !== 'pglite') throw new Error('unreachable');
      const dir = t.config.dir;
      expect(await codeOf(createDatabase({ kind: 'pglite', dir }))).toMatchObject({
        code: 'TG_DB_LOCKED',
        retryable: true,
      });
      await t.db.close();
      expect(await readFile(`${dir}.lock`, 'utf8').catch(() => 'gone')).toBe('gone');
      // A lock held by a live process (our parent stands in for one) is refused...
      await writeFile(`${dir}.lock`, `${process.ppid}\n`);
      const held = await codeOf(createDatabase({ kind: 'pglite', dir }));
      expect(held).toMatchObject({ code: 'TG_DB_LOCKED' });
      expect(held.message).toContain(`process ${process.ppid}`);
      // ...one whose process is gone is taken over.
      await writeFile(`${dir}.lock`, '2147483646\n');
      const again = await createDatabase({ kind: 'pglite', dir });
      expect((await again.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      expect((await readFile(`${dir}.lock`, 'utf8')).trim()).toBe(String(process.pid));
      await again.close();
    } finally {
      await t.cleanup();
    }
  });

  it('reports a directory it cannot use as non-retryable TG_DB_OPEN', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'tongate-db-'));
    const file = join(parent, 'not-a-dir');
    await writeFile(file, 'x');
    try {
      expect(await codeOf(createDatabase({ kind: 'pglite', dir: join(file, 'pg') }))).toMatchObject({
        code: 'TG_DB_OPEN',
        retryable: false,
      });
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
