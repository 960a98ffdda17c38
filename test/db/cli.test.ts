// `tongate db migrate` as users run it: a child process through bin/tongate.js, against PostgreSQL
// (DATABASE_URL and --database-url) and PGlite (--data and TONGATE_DATA), with one-line errors and the
// exit codes of style.md §6.5 (0 ok, 1 failed, 2 bad usage or configuration, 75 retryable).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, readMigrations, SCHEMA_DIR } from '../../src/db/index.ts';
import { type CliRun, runTongate } from '../helpers/cli.ts';
import { createScratch, type Scratch } from '../helpers/database.ts';

/** Runs the CLI with exactly `env` on top of PATH/HOME (no DATABASE_URL or TONGATE_DATA leaks in). */
function tongate(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const base: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[k] !== undefined) base[k] = process.env[k]!;
  return runTongate(args, { env: { ...base, ...env }, timeoutMs: 90_000 });
}

function oneLine(text: string): string {
  const lines = text.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

let fileNames: string[];
let tmp: string;
const scratches: Scratch[] = [];

beforeAll(async () => {
  fileNames = (await readMigrations(SCHEMA_DIR)).map((f) => f.name);
  tmp = await mkdtemp(join(tmpdir(), 'tongate-cli-'));
});
afterAll(async () => {
  for (const s of scratches) await s.cleanup();
  await rm(tmp, { recursive: true, force: true });
});

async function postgresUrl(): Promise<string> {
  const s = await createScratch('postgres');
  scratches.push(s);
  if (s.config.kind !== 'postgres') throw new Error('unreachable');
  return s.config.url;
}

describe('tongate db', () => {
  it('prints help for db and db migrate, naming the environment variables', async () => {
    const db = await tongate(['db', '--help']);
    expect(db.code).toBe(0);
    expect(db.out).toMatch(/Usage: tongate db <command>/);
    expect(db.out).toMatch(/^ {2}migrate {2}/m);
    const m = await tongate(['db', 'migrate', '--help']);
    expect(m.code).toBe(0);
    expect(m.out).toMatch(/Usage: tongate db migrate/);
    expect(m.out).toMatch(/--database-url URL .*env DATABASE_URL/);
    expect(m.out).toMatch(/--data DIR .*env TONGATE_DATA/);
  });

  it('migrates PostgreSQL from DATABASE_URL, then finds nothing to apply', async () => {
    const url = await postgresUrl();
    const first = await tongate(['db', 'migrate'], { DATABASE_URL: url });
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const lines = first.out.trim().split('\n');
    expect(lines.slice(0, -1)).toEqual(fileNames.map((n) => `Applied ${n}`));
    expect(lines.at(-1)).toContain(`to ${fileNames.at(-1)} (${fileNames.length} applied, 0 already there)`);
    const second = await tongate(['db', 'migrate'], { DATABASE_URL: url });
    expect(second.code).toBe(0);
    expect(oneLine(second.out)).toMatch(/is up to date at .* \(nothing to apply\)\.$/);
  });

  it('lets --database-url win over DATABASE_URL', async () => {
    const url = await postgresUrl();
    const r = await tongate(['db', 'migrate', '--database-url', url], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/x',
    });
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Applied ${fileNames[0]}`);
  });

  it('survives several migrators started at once on one PostgreSQL database', async () => {
    const url = await postgresUrl();
    const runs = await Promise.all([1, 2, 3].map(() => tongate(['db', 'migrate'], { DATABASE_URL: url })));
    for (const r of runs) expect(r.code, r.err).toBe(0);
    const applied = runs.flatMap((r) => r.out.split('\n').filter((l) => l.startsWith('Applied ')));
    expect(applied.sort()).toEqual(fileNames.map((n) => `Applied ${n}`).sort());
  });

  it('migrates PGlite under --data, and under TONGATE_DATA, then finds nothing to apply', async () => {
    const data = join(tmp, 'flag-data');
    const first = await tongate(['db', 'migrate', '--data', data]);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain(`Migrated PGlite at ${join(data, 'pg')} to ${fileNames.at(-1)}`);
    expect(await readdir(join(data, 'pg'))).toContain('PG_VERSION');
    const again = await tongate(['db', 'migrate'], { TONGATE_DATA: data });
    expect(again.code, again.err).toBe(0);
    expect(oneLine(again.out)).toBe(
      `PGlite at ${join(data, 'pg')} is up to date at ${fileNames.at(-1)} (nothing to apply).`,
    );
  });

  it('reports a PGlite directory that another process has open with one line and exit 75', async () => {
    const data = join(tmp, 'busy-data');
    const holder = await createDatabase({ kind: 'pglite', dir: join(data, 'pg') });
    try {
      const r = await tongate(['db', 'migrate', '--data', data]);
      expect(r.code).toBe(75);
      expect(oneLine(r.err)).toMatch(/^tongate db migrate: PGlite at .*busy-data\/pg is open in process \d+ /);
    } finally {
      await holder.close();
    }
  });

  it('refuses a URL that is not postgres:// with one line and exit 2, without echoing the password', async () => {
    for (const url of ['mysql://root:hunter2@db/x', 'hunter2']) {
      const r = await tongate(['db', 'migrate'], { DATABASE_URL: url });
      expect(r.code).toBe(2);
      const line = oneLine(r.err);
      expect(line).toMatch(/^tongate db migrate: DATABASE_URL (must be a postgres|is not a URL)/);
      expect(line).not.toContain('hunter2');
      expect(r.out).toBe('');
    }
  });

  it('reports an unreachable server with one line and exit 75 (retry), without the password', async () => {
    const r = await tongate(['db', 'migrate'], { DATABASE_URL: 'postgres://u:hunter2@127.0.0.1:1/x' });
    expect(r.code).toBe(75);
    const line = oneLine(r.err);
    expect(line).toBe('tongate db migrate: cannot reach PostgreSQL at 127.0.0.1:1/x: connect ECONNREFUSED 127.0.0.1:1');
  });

  it('reports a database that does not exist with one line and exit 1', async () => {
    const url = new URL(await postgresUrl());
    url.pathname = '/tongate_no_such_database';
    const r = await tongate(['db', 'migrate'], { DATABASE_URL: url.toString() });
    expect(r.code).toBe(1);
    expect(oneLine(r.err)).toMatch(
      /^tongate db migrate: PostgreSQL at .*tongate_no_such_database: .*does not exist \(SQLSTATE 3D000\)$/,
    );
  });

  it('rejects unknown options and arguments with one line and exit 2', async () => {
    const a = await tongate(['db', 'migrate', '--bogus']);
    expect(a.code).toBe(2);
    oneLine(a.err);
    const b = await tongate(['db', 'migrate', 'extra']);
    expect(b.code).toBe(2);
    expect(oneLine(b.err)).toBe("tongate db migrate: unexpected argument 'extra'");
    const c = await tongate(['db', 'frobnicate']);
    expect(c.code).toBe(2);
    oneLine(c.err);
  });
});
