// migrate() on both back ends with one suite: forward-only numbered files, applied once each, recorded
// with checksums; edits, gaps, unknown versions and failures refused; concurrent migrators safe.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type Database, migrate, readMigrations, SCHEMA_DIR } from '../../src/db/index.ts';
import {
  createScratch,
  KINDS,
  type Kind,
  type Scratch,
  setupDatabase,
  type TestDatabase,
} from '../helpers/database.ts';

async function rejection(p: Promise<unknown>): Promise<{ code?: string; message: string; retryable?: boolean }> {
  try {
    await p;
  } catch (e) {
    return e as { code?: string; message: string; retryable?: boolean };
  }
  throw new Error('expected a rejection');
}

async function applied(db: Database): Promise<Array<{ version: number; name: string; checksum: string }>> {
  const r = await db.query<{ version: number; name: string; checksum: string }>(
    'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
  );
  return r.rows;
}

async function tableExists(db: Database, name: string): Promise<boolean> {
  const r = await db.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [name]);
  return r.rows[0]!.t !== null;
}

const sha256 = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

describe.each(KINDS)('migrate on %s', (kind: Kind) => {
  let t: TestDatabase;
  let dir: string;
  const write = (name: string, sql: string) => writeFile(join(dir, name), sql);

  beforeEach(async () => {
    t = await setupDatabase(kind);
    dir = await mkdtemp(join(tmpdir(), 'tongate-migrations-'));
    await write('README.md', 'not a migration');
    await write('0001_create_a.sql', 'CREATE TABLE a (x integer);\nINSERT INTO a VALUES (1);\n');
    await write('0002_create_b.sql', 'CREATE TABLE b (y text);\n');
  });
  afterEach(async () => {
    await t.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies every file in order, records its checksum, and applies nothing the second time', async () => {
    const seen: string[] = [];
    const first = await migrate(t.db, dir, { onApplied: (f) => seen.push(f.name) });
    expect(first.applied.map((f) => f.name)).toEqual(['0001_create_a.sql', '0002_create_b.sql']);
    expect(seen).toEqual(['0001_create_a.sql', '0002_create_b.sql']);
    expect(first.latest.name).toBe('0002_create_b.sql');
    expect(await applied(t.db)).toEqual([
      {
        version: 1,
        name: '0001_create_a.sql',
        checksum: sha256(await readFile(join(dir, '0001_create_a.sql'), 'utf8')),
      },
      { version: 2, name: '0002_create_b.sql', checksum: sha256('CREATE TABLE b (y text);\n') },
    ]);
    const second = await migrate(t.db, dir);
    expect(second.applied).toEqual([]);
    expect(second.present.map((f) => f.version)).toEqual([1, 2]);
    expect((await t.db.query('SELECT count(*)::int AS n FROM a')).rows[0]).toEqual({ n: 1 });

    await write('0003_create_c.sql', 'CREATE TABLE c (z bigint);');
    const third = await migrate(t.db, dir);
    expect(third.applied.map((f) => f.name)).toEqual(['0003_create_c.sql']);
    expect(await tableExists(t.db, 'c')).toBe(true);
  });

  it('refuses an applied file that was changed, before applying anything newer', async () => {
    await migrate(t.db, dir);
    await write('0001_create_a.sql', 'CREATE TABLE a (x integer);\nINSERT INTO a VALUES (2);\n');
    await write('0003_create_c.sql', 'CREATE TABLE c (z bigint);');
    const e = await rejection(migrate(t.db, dir));
    expect(e).toMatchObject({ code: 'TG_MIGRATION_CHANGED', retryable: false });
    expect(e.message).toContain('0001_create_a.sql was changed after it was applied');
    expect(await tableExists(t.db, 'c')).toBe(false);
    expect((await applied(t.db)).length).toBe(2);
  });

  it('refuses a new file numbered below an applied one, and an applied version with no file', async () => {
    await unlink(join(dir, '0002_create_b.sql'));
    await write('0003_create_c.sql', 'CREATE TABLE c (z bigint);');
    await migrate(t.db, dir);
    await write('0002_create_b.sql', 'CREATE TABLE b (y text);\n');
    const gap = await rejection(migrate(t.db, dir));
    expect(gap).toMatchObject({ code: 'TG_MIGRATION_INVALID' });
    expect(gap.message).toContain('0002_create_b.sql is not applied but a later migration');
    expect(await tableExists(t.db, 'b')).toBe(false);

    await unlink(join(dir, '0002_create_b.sql'));
    await unlink(join(dir, '0003_create_c.sql'));
    const unknown = await rejection(migrate(t.db, dir));
    expect(unknown).toMatchObject({ code: 'TG_MIGRATION_INVALID' });
    expect(unknown.message).toContain('has migration 0003_create_c.sql applied');
  });

  it('rolls back a failing file alone, says which line failed, and applies it once fixed', async () => {
    await write(
      '0003_create_c.sql',
      'CREATE TABLE c (z bigint);\nINSERT INTO c VALUES (1);\nINSERT INTO c VALUES (oops);\n',
    );
    const e = await rejection(migrate(t.db, dir));
    expect(e).toMatchObject({ code: 'TG_MIGRATION_FAILED', retryable: false });
    expect(e.message).toMatch(/^0003_create_c\.sql line 3: .*oops/);
    expect((await applied(t.db)).map((r) => r.version)).toEqual([1, 2]);
    expect(await tableExists(t.db, 'c')).toBe(false);

    await write('0003_create_c.sql', 'CREATE TABLE c (z bigint);\nINSERT INTO c VALUES (1);\n');
    expect((await migrate(t.db, dir)).applied.map((f) => f.version)).toEqual([3]);
  });

  it('lets concurrent migrators apply each file exactly once', async () => {
    // The first file sleeps inside its transaction so the migrators really overlap.
    await write('0001_create_a.sql', 'SELECT pg_sleep(0.3);\nCREATE TABLE a (x integer);\nINSERT INTO a VALUES (1);\n');
    const dbs: Database[] = [t.db];
    // On PostgreSQL every migrator has its own pool (its own sessions, as separate processes would);
    // PGlite is one connection per directory, so its migrators share the one instance.
    if (kind === 'postgres') {
      for (let i = 0; i < 5; i++) dbs.push(await createDatabase(t.config));
    } else {
      for (let i = 0; i < 5; i++) dbs.push(t.db);
    }
    try {
      const results = await Promise.all(dbs.map((db) => migrate(db, dir)));
      const appliedBy = results.flatMap((r) => r.applied.map((f) => f.version)).sort();
      expect(appliedBy).toEqual([1, 2]);
      for (const r of results) expect(r.applied.length + r.present.length).toBe(2);
      expect((await t.db.query('SELECT count(*)::int AS n FROM a')).rows[0]).toEqual({ n: 1 });
      expect((await applied(t.db)).map((r) => r.version)).toEqual([1, 2]);
    } finally {
      for (const db of dbs) if (db !== t.db) await db.close();
    }
  });
});

describe('readMigrations', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tongate-migrations-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses misnamed files, duplicate numbers, an empty or missing directory', async () => {
    expect(await rejection(readMigrations(dir))).toMatchObject({ code: 'TG_MIGRATION_INVALID' });
    expect(await rejection(readMigrations(join(dir, 'missing')))).toMatchObject({ code: 'TG_MIGRATION_INVALID' });
    await writeFile(join(dir, '1_short.sql'), '');
    expect((await rejection(readMigrations(dir))).message).toContain('must be named NNNN_verb_object.sql');
    await unlink(join(dir, '1_short.sql'));
    await writeFile(join(dir, '0001_a.sql'), '');
    await writeFile(join(dir, '0001_b.sql'), '');
    expect((await rejection(readMigrations(dir))).message).toContain('share the number 1');
  });

  it('reads the repository schema as numbered files with checksums', async () => {
    const files = await readMigrations(SCHEMA_DIR);
    expect(files[0]!.name).toBe('0001_core.sql');
    expect(files.map((f) => f.version)).toEqual(files.map((_, i) => i + 1));
    for (const f of files) expect(f.checksum).toBe(sha256(f.sql));
  });
});

describe('the repository schema on both back ends', () => {
  const scratches: Scratch[] = [];
  afterAll(async () => {
    for (const s of scratches) await s.cleanup();
  });

  it('applies cleanly and is idempotent', async () => {
    for (const kind of KINDS) {
      const s = await createScratch(kind);
      scratches.push(s);
      const db = await createDatabase(s.config);
      try {
        const first = await migrate(db);
        expect(first.applied.length).toBeGreaterThanOrEqual(3);
        expect(first.present).toEqual([]);
        const again = await migrate(db);
        expect(again.applied).toEqual([]);
        expect(again.present.length).toBe(first.applied.length);
      } finally {
        await db.close();
      }
    }
  });
});
