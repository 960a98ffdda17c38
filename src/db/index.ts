// The database part: createDatabase() over PostgreSQL or PGlite, the COPY encoder, migrations.
export { EncodedCopy, encodeCopyText, PgComposite, PgJson, pgComposite, pgJson } from './copy.ts';
export {
  type CopyRows,
  createDatabase,
  type Database,
  describeDatabase,
  type Queryable,
  type QueryResult,
  type Row,
} from './database.ts';
export { type MigrateResult, type MigrationFile, migrate, readMigrations, SCHEMA_DIR } from './migrate.ts';
