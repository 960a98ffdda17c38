// Forward-only, numbered SQL migrations (schema/NNNN_verb_object.sql). Each file runs in its own
// transaction together with its row in schema_migrations (version, name, sha256 of the file's bytes).
// Every transaction first takes one transaction-level advisory lock, so concurrent migrators (several
// workers starting at once on PostgreSQL) run one after another and each file is applied exactly once;
// PGlite takes the same lock on its single connection, so both back ends run the same code.
//
// Refused, never silently "fixed": an applied file whose bytes changed (TG_MIGRATION_CHANGED), a new
// file numbered below one already applied, an applied version this build has no file for, duplicate
// numbers or a *.sql file with another name (TG_MIGRATION_INVALID). A failing file rolls back alone
// (TG_MIGRATION_FAILED, with the line of the error); the files before it stay applied.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DbError, MigrationError } from '../common/index.ts';
import type { Database, Queryable } from './database.ts';

/** The repository's schema/ folder. */
export const SCHEMA_DIR = fileURLToPath(new URL('../../schema/', import.meta.url));

export interface MigrationFile {
  version: number;
  /** File name, e.g. 0001_core.sql. */
  name: string;
  /** sha256 of the file's bytes, hex. */
  checksum: string;
  sql: string;
}

export interface MigrateResult {
  /** Files applied by this call, in order. */
  applied: MigrationFile[];
  /** Files that were already applied (by an earlier run or a concurrent migrator). */
  present: MigrationFile[];
  /** The newest file now applied. */
  latest: MigrationFile;
}

const FILE_NAME = /^(\d{4})_([a-z0-9]+(?:_[a-z0-9]+)*)\.sql$/;

/** 'tongate1' in ASCII: the advisory lock every migration transaction takes. */
export const MIGRATION_LOCK_KEY = 0x746f6e6761746531n;

const BOOTSTRAP = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  checksum char(64) NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE schema_migrations IS 'Bookkeeping: one row per applied schema/NNNN_*.sql file, written in the same transaction as the file''s statements. tongate db migrate refuses to run when an applied file no longer matches its checksum.';
COMMENT ON COLUMN schema_migrations.version IS 'The file''s number (NNNN of NNNN_verb_object.sql); files apply in ascending order, forward only.';
COMMENT ON COLUMN schema_migrations.name IS 'The file name, e.g. 0001_core.sql.';
COMMENT ON COLUMN schema_migrations.checksum IS 'sha256 of the file''s bytes when it was applied, lower-case hex.';
COMMENT ON COLUMN schema_migrations.applied_at IS 'When the file was applied (commit time of its transaction, server clock).';
`;

/** The migration files of `dir`, validated and in order. Non-.sql files (README.md) are ignored. */
export async function readMigrations(dir: string): Promise<MigrationFile[]> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);
  } catch (e) {
    throw new MigrationError(
      'TG_MIGRATION_INVALID',
      `cannot read migrations directory ${dir}: ${(e as Error).message}`,
      {
        cause: e,
      },
    );
  }
  const files: MigrationFile[] = [];
  for (const name of names.filter((n) => n.endsWith('.sql')).sort()) {
    const m = FILE_NAME.exec(name);
    if (!m) {
      throw new MigrationError(
        'TG_MIGRATION_INVALID',
        `${join(dir, name)}: a migration must be named NNNN_verb_object.sql (four digits, lower-case words)`,
      );
    }
    const bytes = await readFile(join(dir, name));
    files.push({
      version: Number(m[1]),
      name,
      checksum: createHash('sha256').update(bytes).digest('hex'),
      sql: bytes.toString('utf8'),
    });
  }
  for (let i = 1; i < files.length; i++) {
    if (files[i]!.version === files[i - 1]!.version) {
      throw new MigrationError(
        'TG_MIGRATION_INVALID',
        `${files[i - 1]!.name} and ${files[i]!.name} share the number ${files[i]!.version}`,
      );
    }
  }
  if (files.length === 0) throw new MigrationError('TG_MIGRATION_INVALID', `no NNNN_*.sql migrations in ${dir}`);
  return files;
}

type AppliedRow = {
  version: number;
  name: string;
  checksum: string;
};

async function lockAndRead(tx: Queryable): Promise<AppliedRow[]> {
  await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
  const r = await tx.query<AppliedRow>('SELECT version, name, checksum FROM schema_migrations ORDER BY version');
  return r.rows;
}

/** Checks what the database has applied against the files; throws on any disagreement. */
function verify(applied: AppliedRow[], files: MigrationFile[]): void {
  const byVersion = new Map(files.map((f) => [f.version, f]));
  for (const row of applied) {
    const file = byVersion.get(row.version);
    if (!file) {
      throw new MigrationError(
        'TG_MIGRATION_INVALID',
        `the database has migration ${row.name} applied, but this tongate has no file numbered ${row.version} (is the database newer than this build?)`,
        { details: { version: row.version, name: row.name } },
      );
    }
    if (file.checksum !== row.checksum) {
      throw new MigrationError(
        'TG_MIGRATION_CHANGED',
        `${file.name} was changed after it was applied (sha256 ${row.checksum.slice(0, 12)}… then, ${file.checksum.slice(0, 12)}… now): applied migrations are never edited; add a new numbered file instead`,
        { details: { version: row.version, applied: row.checksum, file: file.checksum } },
      );
    }
  }
  const newest = applied.at(-1)?.version ?? 0;
  const done = new Set(applied.map((r) => r.version));
  for (const f of files) {
    if (!done.has(f.version) && f.version < newest) {
      throw new MigrationError(
        'TG_MIGRATION_INVALID',
        `${f.name} is not applied but a later migration (${applied.at(-1)!.name}) is: migrations go forward only; renumber it above ${newest}`,
        { details: { version: f.version } },
      );
    }
  }
}

/** The 1-based line of a character position (PostgreSQL's error position) in a file's text. */
function lineOf(sql: string, position: unknown): number | undefined {
  const pos = Number(position);
  if (!Number.isInteger(pos) || pos < 1) return undefined;
  return sql.slice(0, pos - 1).split('\n').length;
}

/**
 * Applies the pending migrations of `dir` in order. Safe to call on every start and from several
 * processes at once. `onApplied` is told of each file as its transaction commits.
 */
export async function migrate(
  db: Database,
  dir: string = SCHEMA_DIR,
  opts: { onApplied?: (file: MigrationFile) => void } = {},
): Promise<MigrateResult> {
  const files = await readMigrations(dir);
  const applied: MigrationFile[] = [];
  const present: MigrationFile[] = [];
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    await tx.exec(BOOTSTRAP);
  });
  for (const file of files) {
    const done = await db.transaction(async (tx) => {
      const rows = await lockAndRead(tx);
      verify(rows, files);
      if (rows.some((r) => r.version === file.version)) return false;
      try {
        await tx.exec(file.sql);
      } catch (e) {
        if (e instanceof DbError && e.retryable) throw e;
        const line = lineOf(file.sql, (e as DbError).details?.position);
        throw new MigrationError(
          'TG_MIGRATION_FAILED',
          `${file.name}${line !== undefined ? ` line ${line}` : ''}: ${(e as Error).message} (rolled back; earlier files stay applied)`,
          { cause: e, details: { version: file.version, line } },
        );
      }
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        file.version,
        file.name,
        file.checksum,
      ]);
      return true;
    });
    if (done) {
      applied.push(file);
      opts.onApplied?.(file);
    } else {
      present.push(file);
    }
  }
  return { applied, present, latest: files.at(-1)! };
}
