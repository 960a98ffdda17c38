// `tongate db indexes [--restore]`: what a bulk backfill (`tongate walk backfill --bulk`) left dropped, and building
// it back without loading anything (src/index/plan/bulk.ts). Made by a factory taking db.ts's database options so
// the two files do not import each other. Exit codes as `db migrate`: 0, 1 failed, 2 usage, 75 retryable.

import { EXIT_RETRYABLE } from '../common/exit-codes.ts';
import { ConfigError, isTongateError, resolveDatabaseConfig } from '../common/index.ts';
import { UsageError } from '../common/options.ts';
import { createDatabase, type Database, describeDatabase } from '../db/index.ts';
import { pendingBulkIndexes, restoreSecondaryIndexes } from '../index/plan/bulk.ts';
import type { Command, OptionSpec } from './command.ts';

export function dbIndexesCommand(databaseOptions: Record<string, OptionSpec>): Command {
  return {
    name: 'indexes',
    summary: 'Show the secondary indexes a bulk backfill left dropped; --restore builds them now.',
    details:
      "A 'tongate walk backfill --bulk' records the indexes it drops in bulk_load_indexes and builds them at the\n" +
      'end; a run that was killed or stopped leaves them recorded. This lists them (exit 0 either way); --restore\n' +
      'builds each (CREATE INDEX CONCURRENTLY: writers and readers go on) and clears the record, without loading\n' +
      'anything; running the --bulk backfill again does the same after finishing its range. PostgreSQL only.\n' +
      `Exit codes: 0 done, 1 failed, 2 bad usage or configuration, ${EXIT_RETRYABLE} database unreachable (retry).`,
    options: {
      restore: { type: 'boolean', description: 'build the recorded indexes and clear the record' },
      ...databaseOptions,
    },
    async run({ values, positionals, out, err }) {
      if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
      let db: Database | undefined;
      const ac = new AbortController();
      const stop = () => ac.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        const cfg = resolveDatabaseConfig({
          flags: {
            databaseUrl: values['database-url'] as string | undefined,
            data: values.data as string | undefined,
          },
          env: process.env,
          applicationName: 'tongate-db',
        });
        const name = describeDatabase(cfg);
        db = await createDatabase(cfg);
        const left = await pendingBulkIndexes(db);
        await db.close();
        db = undefined;
        if (left.length === 0) {
          out(`${name}: no bulk load is pending; every secondary index is in place.`);
          return 0;
        }
        const tops = left.filter((r) => r.top === r.name);
        out(
          `${name}: a bulk load left ${left.length} secondary indexes recorded (${left.filter((r) => r.dropped).length} dropped):`,
        );
        for (const r of tops) out(`  ${r.table}.${r.name}${r.dropped ? '' : ' (not dropped yet)'}`);
        if (values.restore !== true) {
          out("Run 'tongate db indexes --restore' (or the bulk backfill again) to build them.");
          return 0;
        }
        const log = (level: string, msg: string, fields?: Record<string, unknown>) =>
          err(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }));
        const r = await restoreSecondaryIndexes(cfg, { log, signal: ac.signal });
        if (r.left > 0) {
          err(`tongate db indexes: stopped with ${r.left} indexes left; run it again to finish`);
          return EXIT_RETRYABLE;
        }
        out(`Rebuilt ${r.built} secondary indexes in ${r.seconds} s (${r.kept} were already built).`);
        return 0;
      } catch (e) {
        const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
        err(`tongate db indexes: ${message}`);
        if (e instanceof ConfigError) return 2;
        return isTongateError(e) && e.retryable ? EXIT_RETRYABLE : 1;
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        await db?.close().catch(() => {});
      }
    },
  };
}
