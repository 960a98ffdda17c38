// `tongate index classify-trace FILE...` (the command is declared in src/cli/index-cmd.ts): every file is read and
// checked first (a malformed one stops the run before any database work: exit 2 naming the file and the problem),
// then each goes through runTraceFile in one scratch database (PGlite in a temp dir removed afterwards, or a given
// PostgreSQL database that holds no index), and one JSON document per file is printed:
// {"trace_id": …, "actions": [ … ]}, each action in toncenter's classifier names (classifier-names.ts).
// What the file's interfaces hold that we have no table for, and any difference between our assembly and the file's
// traces row, go to stderr.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DatabaseConfig, resolveDatabaseConfig } from '../../common/index.ts';
import { createDatabase, type Database, migrate } from '../../db/index.ts';
import { actionToClassifierNames } from './classifier-names.ts';
import { stringifyLossless } from './lossless-json.ts';
import { isScratchDatabase, readTraceFile, runTraceFile, type TraceFile, TraceFileError } from './trace-file.ts';

export interface ClassifyTraceOptions {
  files: readonly string[];
  /** A PostgreSQL URL; without it a PGlite database in a temp dir. */
  databaseUrl?: string;
  /** Indented JSON instead of one line per document. */
  pretty?: boolean;
  out: (line: string) => void;
  err: (line: string) => void;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_BAD_INPUT = 2;

/** Runs the command; returns its exit code (0 done, 1 failed, 2 bad input). */
export async function classifyTraceFiles(o: ClassifyTraceOptions): Promise<number> {
  if (o.files.length === 0) {
    o.err('tongate index classify-trace: no trace file given (see --help)');
    return EXIT_BAD_INPUT;
  }
  const files: TraceFile[] = [];
  for (const path of o.files) {
    try {
      files.push(await readTraceFile(path));
    } catch (e) {
      if (!(e instanceof TraceFileError)) throw e;
      o.err(`tongate index classify-trace: malformed trace file ${e.file}: ${e.problem}`);
      return EXIT_BAD_INPUT;
    }
  }
  let tmp: string | undefined;
  let db: Database | undefined;
  try {
    let cfg: DatabaseConfig;
    if (o.databaseUrl !== undefined) {
      cfg = resolveDatabaseConfig({
        flags: { databaseUrl: o.databaseUrl },
        env: {},
        applicationName: 'tongate-classify-trace',
      });
    } else {
      tmp = await mkdtemp(join(tmpdir(), 'tongate-classify-trace-'));
      cfg = { kind: 'pglite', dir: join(tmp, 'pg') };
    }
    db = await createDatabase(cfg);
    await migrate(db);
    if (!(await isScratchDatabase(db))) {
      o.err(
        'tongate index classify-trace: the database holds indexed blocks; give an empty database (or none: a ' +
          'temporary one is used)',
      );
      return EXIT_FAILED;
    }
    for (const f of files) {
      const r = await runTraceFile(db, f);
      for (const u of r.unstored) {
        o.err(`${f.name}: interface ${u.kind} of ${u.address} not stored (no table of ours holds it)`);
      }
      for (const d of r.assembly.differences) o.err(`${f.name}: assembly differs from the file: ${d}`);
      const doc = { trace_id: f.traceId, actions: r.actions.map(actionToClassifierNames) };
      o.out(stringifyLossless(doc, o.pretty ? 2 : undefined));
    }
    return EXIT_OK;
  } catch (e) {
    o.err(`tongate index classify-trace: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
    return EXIT_FAILED;
  } finally {
    await db?.close().catch(() => {});
    if (tmp) await rm(tmp, { recursive: true, force: true }).catch(() => {});
  }
}
