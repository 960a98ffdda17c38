// createDatabase(): the one interface over PostgreSQL and PGlite (style guide §6.6, 2). This file and the
// two drivers are the only code that knows which back end runs; callers get the same methods, the same
// JS values back (values.ts), the same COPY bytes (copy.ts) and the same typed errors (db-error.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { type DatabaseConfig, DbError, redactDatabaseUrl } from '../common/index.ts';
import { EncodedCopy, encodeCopyRows } from './copy.ts';
import { toDbError } from './db-error.ts';
import type { Driver, DriverSession } from './driver.ts';
import { createPgliteDriver } from './pglite-thread.ts';
import { createPostgresDriver } from './postgres.ts';
import { normalizeParam } from './values.ts';

export type Row = Record<string, unknown>;

export interface QueryResult<R extends Row = Row> {
  rows: R[];
  /** Rows returned, or rows affected by INSERT/UPDATE/DELETE. */
  rowCount: number;
}

async function* oneChunk(text: Buffer): AsyncGenerator<Buffer> {
  yield text;
}

/** Rows to COPY: values (encoded here), or text a decode thread encoded already. */
export type CopyRows = Iterable<readonly unknown[]> | AsyncIterable<readonly unknown[]> | EncodedCopy;

/** What both a Database and a transaction handle offer. */
export interface Queryable {
  /** One statement; values only through $1, $2 … `params` (bigint, Buffer, arrays, objects as JSON). */
  query<R extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** A script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
  /**
   * Bulk insert through COPY text: one row per item, one value per column, encoded by copy.ts.
   * Atomic: on any error no row of this call stays. Returns the number of rows copied.
   */
  copyFrom(table: string, columns: readonly string[], rows: CopyRows): Promise<number>;
}

export interface Database extends Queryable {
  readonly kind: DatabaseConfig['kind'];
  /**
   * Runs fn in one transaction on one connection and commits, or rolls back and rethrows. Inside fn use
   * only `tx`: calling this Database's own methods there throws TG_DB_USAGE on both back ends (on PGlite
   * it would wait for itself forever, on PostgreSQL it would silently run outside the transaction).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

/** "table" or "schema.table" plus its columns, validated and quoted for a COPY statement. */
export function copyTarget(table: string, columns: readonly string[]): string {
  const parts = table.split('.');
  if (parts.length > 2 || !parts.every((p) => IDENT.test(p))) {
    throw new DbError('TG_DB_USAGE', `copyFrom: '${table}' is not a plain table name`);
  }
  if (columns.length === 0) throw new DbError('TG_DB_USAGE', `copyFrom ${table}: no columns given`);
  for (const c of columns) {
    if (!IDENT.test(c)) throw new DbError('TG_DB_USAGE', `copyFrom ${table}: '${c}' is not a plain column name`);
  }
  return `${parts.map((p) => `"${p}"`).join('.')} (${columns.map((c) => `"${c}"`).join(', ')})`;
}

/** One line naming a database for output and logs: the URL without its password, or the PGlite dir. */
export function describeDatabase(cfg: DatabaseConfig): string {
  return cfg.kind === 'postgres' ? redactDatabaseUrl(cfg.url) : `PGlite at ${cfg.dir}`;
}

const insideTransactionOf = new AsyncLocalStorage<object>();

export async function createDatabase(cfg: DatabaseConfig): Promise<Database> {
  let driver: Driver;
  if (cfg.kind === 'postgres') {
    driver = createPostgresDriver(cfg);
  } else {
    try {
      driver = await createPgliteDriver(cfg);
    } catch (e) {
      if (e instanceof DbError) throw e;
      throw new DbError('TG_DB_OPEN', `cannot open PGlite at ${cfg.dir}: ${(e as Error).message?.split('\n')[0]}`, {
        cause: e,
        details: { dir: cfg.dir },
      });
    }
  }
  const where = driver.where;
  const identity = {};
  let closed = false;

  const checkUsable = (method: string) => {
    if (closed) throw new DbError('TG_DB_USAGE', `db.${method}: the database was closed`);
    if (insideTransactionOf.getStore() === identity) {
      throw new DbError(
        'TG_DB_USAGE',
        `db.${method} called inside db.transaction(): use the transaction handle passed to the callback`,
      );
    }
  };

  const over = (session: DriverSession, isOpen: () => boolean): Queryable => ({
    async query<R extends Row = Row>(sql: string, params: readonly unknown[] = []) {
      if (!isOpen()) throw new DbError('TG_DB_USAGE', 'query on a transaction that has ended');
      try {
        const r = await session.query(sql, params.map(normalizeParam));
        return { rows: r.rows as R[], rowCount: r.rowCount };
      } catch (e) {
        throw toDbError(e, { where, what: 'query', sql });
      }
    },
    async exec(script: string) {
      if (!isOpen()) throw new DbError('TG_DB_USAGE', 'exec on a transaction that has ended');
      try {
        await session.exec(script);
      } catch (e) {
        throw toDbError(e, { where, what: 'script' });
      }
    },
    async copyFrom(table: string, columns: readonly string[], rows: CopyRows) {
      if (!isOpen()) throw new DbError('TG_DB_USAGE', 'copyFrom on a transaction that has ended');
      const target = copyTarget(table, columns);
      if (rows instanceof EncodedCopy) {
        if (rows.width !== columns.length) {
          throw new DbError(
            'TG_DB_ENCODE',
            `COPY into ${table}: rows encoded for ${rows.width} columns, ${columns.length} given`,
          );
        }
        if (rows.count === 0) return 0;
        try {
          await session.copyIn(target, oneChunk(rows.text));
        } catch (e) {
          throw toDbError(e, { where, what: `COPY into ${table}` });
        }
        return rows.count;
      }
      let count = 0;
      try {
        await session.copyIn(
          target,
          encodeCopyRows(rows, columns.length, {
            onRows: (n) => {
              count = n;
            },
          }),
        );
      } catch (e) {
        throw toDbError(e, { where, what: `COPY into ${table}` });
      }
      return count;
    },
  });

  const direct = over(driver.direct, () => true);

  return {
    kind: cfg.kind,
    async query(sql, params) {
      checkUsable('query');
      return direct.query(sql, params);
    },
    async exec(script) {
      checkUsable('exec');
      return direct.exec(script);
    },
    async copyFrom(table, columns, rows) {
      checkUsable('copyFrom');
      return direct.copyFrom(table, columns, rows);
    },
    async transaction(fn) {
      checkUsable('transaction');
      let open = true;
      // Errors thrown by fn (already DbErrors, or the caller's own) pass through unchanged; only
      // BEGIN/COMMIT and connection failures are mapped here.
      let fromCallback: unknown;
      try {
        return await driver.transaction((session) =>
          insideTransactionOf.run(identity, async () => {
            try {
              return await fn(over(session, () => open));
            } catch (e) {
              fromCallback = e;
              throw e;
            }
          }),
        );
      } catch (e) {
        if (e === fromCallback) throw e;
        throw toDbError(e, { where, what: 'transaction' });
      } finally {
        open = false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await driver.close();
    },
  };
}
