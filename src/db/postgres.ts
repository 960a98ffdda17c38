// PostgreSQL through a bounded node-postgres Pool: application_name and statement_timeout per pool,
// a connect timeout so an unreachable server fails instead of hanging, COPY through pg-copy-streams.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import type { DatabaseConfig } from '../common/index.ts';
import { type Driver, type DriverResult, type DriverSession, rolledBackAtCommit } from './driver.ts';
import { TEXT_PARSERS } from './values.ts';

type PostgresConfig = Extract<DatabaseConfig, { kind: 'postgres' }>;

const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    const own = format === 'binary' ? undefined : TEXT_PARSERS[oid];
    return own ?? pg.types.getTypeParser(oid, format as 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** host:port/database of a URL, for messages; never the user's password. */
export function postgresWhere(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname || u.searchParams.get('host') || 'localhost';
    return `PostgreSQL at ${host}:${u.port || '5432'}/${decodeURIComponent(u.pathname.slice(1)) || '(default database)'}`;
  } catch {
    return 'PostgreSQL';
  }
}

const ignore = () => {};

/**
 * Every client the pool creates gets an error listener for its whole life, attached in the pool's 'connect'
 * event, synchronously before the client is handed out. A checked-out client's socket errors are emitted on
 * the client itself (the pool listens only to idle ones) and the failing query rejects as well, so the
 * listener only keeps the event from crashing the process. It must be there from the first moment: a
 * server restart can send its FATAL (57P01) in the same packet as the end of the connection handshake,
 * before an `await pool.connect()` continuation could attach anything, and after a broken client was
 * released and ended.
 */
async function checkout(pool: pg.Pool): Promise<pg.PoolClient> {
  return pool.connect();
}

function release(c: pg.PoolClient, broken?: Error): void {
  c.release(broken);
}

function sessionOf(client: pg.PoolClient | pg.Pool): DriverSession {
  return {
    async query(sql, params): Promise<DriverResult> {
      // Outside a transaction, check a client out ourselves rather than use pool.query: pg-pool drops its
      // error listener when the query ends, so a session killed mid-query (a restart) could crash us later.
      const c = client instanceof pg.Pool ? await checkout(client) : client;
      let broken: Error | undefined;
      try {
        const r = await c.query({ text: sql, values: params as unknown[] });
        return { rows: r.rows as Record<string, unknown>[], rowCount: r.rowCount ?? 0 };
      } catch (e) {
        broken = e as Error;
        throw e;
      } finally {
        if (client instanceof pg.Pool) release(c as pg.PoolClient, broken);
      }
    },
    async exec(script) {
      const c = client instanceof pg.Pool ? await checkout(client) : client;
      let broken: Error | undefined;
      try {
        await c.query(script);
      } catch (e) {
        broken = e as Error;
        throw e;
      } finally {
        if (client instanceof pg.Pool) release(c as pg.PoolClient, broken);
      }
    },
    async copyIn(target, chunks) {
      const run = async (c: pg.PoolClient) => {
        const stream = c.query(copyFromStdin(`COPY ${target} FROM STDIN`));
        await pipeline(Readable.from(chunks), stream);
      };
      if (client instanceof pg.Pool) {
        const c = await checkout(client);
        let broken: Error | undefined;
        try {
          await run(c);
        } catch (e) {
          broken = e as Error;
          throw e;
        } finally {
          // A COPY cut off mid-stream leaves the connection in an unknown state: drop it.
          release(c, broken);
        }
      } else {
        await run(client);
      }
    },
  };
}

export function createPostgresDriver(cfg: PostgresConfig): Driver {
  const pool = new pg.Pool({
    connectionString: cfg.url,
    max: cfg.poolSize ?? 10,
    application_name: cfg.applicationName ?? 'tongate',
    ...(cfg.statementTimeoutMs !== undefined ? { statement_timeout: cfg.statementTimeoutMs } : {}),
    connectionTimeoutMillis: cfg.connectTimeoutMs ?? 10_000,
    idleTimeoutMillis: 10_000,
    types: typeParsers,
  });
  // An idle client whose server went away emits 'error' on the pool; without a listener that would
  // crash the process. The pool drops the client, and the next query reports the problem.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', ignore);
  });

  return {
    where: postgresWhere(cfg.url),
    direct: sessionOf(pool),
    async transaction(fn) {
      const client = await checkout(pool);
      try {
        await client.query('BEGIN');
      } catch (e) {
        release(client, e as Error);
        throw e;
      }
      let broken: Error | undefined;
      try {
        const out = await fn(sessionOf(client));
        const commit = await client.query('COMMIT');
        if (commit.command === 'ROLLBACK') throw rolledBackAtCommit();
        return out;
      } catch (e) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          // The connection is gone or wedged: the pool must not hand it out again.
          broken = rollbackError as Error;
        }
        throw e;
      } finally {
        release(client, broken);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
