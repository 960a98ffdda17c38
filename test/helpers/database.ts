// Isolated databases for tests (after Ponder's setupIsolatedDatabase): on PostgreSQL a fresh database
// per call (CREATE DATABASE tongate_test_<random>, dropped by cleanup), on PGlite a fresh directory
// under the OS temp dir (removed by cleanup). PostgreSQL is always up in CI; the server is
// TONGATE_TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/common/index.ts';
import { createDatabase, type Database } from '../../src/db/index.ts';

export const TEST_SERVER_URL = process.env.TONGATE_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export const KINDS = ['pglite', 'postgres'] as const;
export type Kind = (typeof KINDS)[number];

/** A URL for `database` on the test server. */
export function urlFor(database: string): string {
  const u = new URL(TEST_SERVER_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A superuser connection to the test server's maintenance database. */
export async function adminClient(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: TEST_SERVER_URL });
  await c.connect();
  return c;
}

export interface Scratch {
  config: DatabaseConfig;
  cleanup(): Promise<void>;
}

/** A fresh empty database: a new PostgreSQL database or a new PGlite directory. Not opened. */
export async function createScratch(kind: Kind): Promise<Scratch> {
  if (kind === 'pglite') {
    const parent = await mkdtemp(join(tmpdir(), 'tongate-db-'));
    return {
      config: { kind: 'pglite', dir: join(parent, 'pg') },
      cleanup: () => rm(parent, { recursive: true, force: true }),
    };
  }
  const name = `tongate_test_${randomBytes(6).toString('hex')}`;
  const admin = await adminClient();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    config: { kind: 'postgres', url: urlFor(name), applicationName: 'tongate-test' },
    async cleanup() {
      const c = await adminClient();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface TestDatabase extends Scratch {
  db: Database;
}

/** A fresh database, opened. cleanup closes it and removes it. */
export async function setupDatabase(kind: Kind): Promise<TestDatabase> {
  const scratch = await createScratch(kind);
  let db: Database;
  try {
    db = await createDatabase(scratch.config);
  } catch (e) {
    await scratch.cleanup();
    throw e;
  }
  return {
    ...scratch,
    db,
    async cleanup() {
      await db.close();
      await scratch.cleanup();
    },
  };
}

/**
 * Inserts seed rows (column name -> value) into `table`, one parameterised INSERT per row (the v3 tests' fixtures).
 * String arrays go in as text[] (an address[] parameter has a type PGlite cannot serialise).
 */
export async function insertRows(db: Database, table: string, rows: ReadonlyArray<Record<string, unknown>>) {
  const strings = (x: unknown) => Array.isArray(x) && x.every((e) => typeof e === 'string');
  for (const row of rows) {
    const cols = Object.keys(row);
    const slots = cols.map((c, i) => (strings(row[c]) ? `$${i + 1}::text[]` : `$${i + 1}`));
    await db.query(
      `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${slots.join(', ')})`,
      cols.map((c) => row[c]),
    );
  }
}
