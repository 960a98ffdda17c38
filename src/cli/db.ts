// `tongate db migrate`: apply the pending schema/NNNN_*.sql migrations to PostgreSQL or PGlite.
// Exit codes (style guide §6.5): 0 applied or up to date, 1 a non-retryable failure (changed migration,
// failing SQL, refused login), 2 bad usage or configuration (a URL that is not postgres://), 75 a
// retryable failure (server unreachable, connection lost) so a supervisor tries again.

import { EXIT_RETRYABLE } from '../common/exit-codes.ts';
import {
  ConfigError,
  DEFAULT_DATA_DIR,
  ENV_DATA_DIR,
  ENV_DATABASE_URL,
  isTongateError,
  resolveDatabaseConfig,
} from '../common/index.ts';
import { UsageError } from '../common/options.ts';
import { createDatabase, type Database, describeDatabase, migrate } from '../db/index.ts';
import type { Command, OptionSpec } from './command.ts';
import { dbIndexesCommand } from './db-indexes.ts';

export const databaseOptions: Record<string, OptionSpec> = {
  'database-url': {
    type: 'string',
    value: 'URL',
    description: `PostgreSQL URL, postgres://user@host:5432/database (env ${ENV_DATABASE_URL}); without one, the embedded PGlite database <data>/pg`,
  },
  data: {
    type: 'string',
    value: 'DIR',
    description: `data directory holding the embedded database in <DIR>/pg (env ${ENV_DATA_DIR}; default ${DEFAULT_DATA_DIR})`,
  },
};

const migrateCommand: Command = {
  name: 'migrate',
  summary: 'Apply the pending schema migrations (schema/NNNN_*.sql), in order, forward only.',
  details:
    `The database is --database-url, else ${ENV_DATABASE_URL}, else PGlite under <data>/pg.\n` +
    'Each file runs in its own transaction and is recorded with its sha256 in schema_migrations;\n' +
    'an applied file that was changed is refused. Safe to run from several processes at once.\n' +
    `Exit codes: 0 done, 1 failed, 2 bad usage or configuration, ${EXIT_RETRYABLE} database unreachable (retry).`,
  options: databaseOptions,
  async run({ values, positionals, out, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    let db: Database | undefined;
    try {
      const cfg = resolveDatabaseConfig({
        flags: { databaseUrl: values['database-url'] as string | undefined, data: values.data as string | undefined },
        env: process.env,
        applicationName: 'tongate-migrate',
      });
      const name = describeDatabase(cfg);
      db = await createDatabase(cfg);
      const result = await migrate(db, undefined, { onApplied: (f) => out(`Applied ${f.name}`) });
      out(
        result.applied.length > 0
          ? `Migrated ${name} to ${result.latest.name} (${result.applied.length} applied, ${result.present.length} already there).`
          : `${name} is up to date at ${result.latest.name} (nothing to apply).`,
      );
      return 0;
    } catch (e) {
      const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
      err(`tongate db migrate: ${message}`);
      if (e instanceof ConfigError) return 2;
      return isTongateError(e) && e.retryable ? EXIT_RETRYABLE : 1;
    } finally {
      await db?.close().catch(() => {});
    }
  },
};

export const dbCommand: Command = {
  name: 'db',
  summary: 'Manage the indexer database (PostgreSQL, or the embedded PGlite by default).',
  subcommands: [migrateCommand, dbIndexesCommand(databaseOptions)],
};
