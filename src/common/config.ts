// Turns flags and the environment into typed configuration, once (style guide §6.6, 1). This file is the
// only reader of the environment: callers pass `process.env` in, so every other module sees plain values.
// The database and queue parts exist so far; the chain part joins them with its issue.
import { resolve } from 'node:path';
import { ConfigError } from './errors.ts';

/** Which database the process uses. Only src/db looks at `kind`. */
export type DatabaseConfig =
  | {
      kind: 'postgres';
      /** postgres:// or postgresql:// URL, passed to node-postgres as is. */
      url: string;
      /** Upper bound on pooled connections (default 10). */
      poolSize?: number;
      /** Shown in pg_stat_activity, one per role: migrate, writer, api (default 'tongate'). */
      applicationName?: string;
      /** statement_timeout for every statement of this pool, in ms (default: none). */
      statementTimeoutMs?: number;
      /** How long to wait for a new connection before failing as unavailable, in ms (default 10000). */
      connectTimeoutMs?: number;
    }
  | {
      kind: 'pglite';
      /** Directory of the embedded database (created on first use). */
      dir: string;
    };

export type Env = Readonly<Record<string, string | undefined>>;

export interface DatabaseFlags {
  /** --database-url */
  databaseUrl?: string | undefined;
  /** --data: the data directory; the embedded database lives in <data>/pg. */
  data?: string | undefined;
}

/** The environment variables read here, named in every --help that offers the matching flag. */
export const ENV_DATABASE_URL = 'DATABASE_URL';
export const ENV_DATA_DIR = 'TONGATE_DATA';
export const DEFAULT_DATA_DIR = './data';

function present(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** The data directory: --data, then TONGATE_DATA, then ./data; resolved against `cwd`. */
export function resolveDataDir(opts: { flags: DatabaseFlags; env: Env; cwd?: string }): string {
  const dir = present(opts.flags.data) ?? present(opts.env[ENV_DATA_DIR]) ?? DEFAULT_DATA_DIR;
  return resolve(opts.cwd ?? process.cwd(), dir);
}

/**
 * The database to use: --database-url, then DATABASE_URL, then PGlite under <data>/pg (data = --data,
 * TONGATE_DATA, or ./data). An empty value counts as unset. A URL that is not postgres:// fails with a
 * ConfigError whose message never repeats the URL's password.
 */
export function resolveDatabaseConfig(opts: {
  flags: DatabaseFlags;
  env: Env;
  cwd?: string;
  /** application_name on PostgreSQL, naming the role of this process's pool ('tongate-migrate'). */
  applicationName?: string;
}): DatabaseConfig {
  const fromFlag = present(opts.flags.databaseUrl);
  const fromEnv = present(opts.env[ENV_DATABASE_URL]);
  const url = fromFlag ?? fromEnv;
  if (url !== undefined) {
    checkPostgresUrl(url, fromFlag !== undefined ? '--database-url' : ENV_DATABASE_URL);
    return opts.applicationName === undefined
      ? { kind: 'postgres', url }
      : { kind: 'postgres', url, applicationName: opts.applicationName };
  }
  return { kind: 'pglite', dir: resolve(resolveDataDir(opts), 'pg') };
}

function checkPostgresUrl(url: string, source: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`${source} is not a URL (expected postgres://user@host:5432/database)`, {
      details: { source },
    });
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ConfigError(
      `${source} must be a postgres:// or postgresql:// URL, got a ${parsed.protocol}// URL (expected postgres://user@host:5432/database)`,
      { details: { source, protocol: parsed.protocol } },
    );
  }
  if (parsed.hostname === '' && !parsed.searchParams.has('host')) {
    throw new ConfigError(`${source} has no host (expected postgres://user@host:5432/database)`, {
      details: { source },
    });
  }
}

/** A URL without its password, safe for logs and error messages. Unparseable input gives a placeholder. */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    for (const key of [...u.searchParams.keys()]) {
      if (key.toLowerCase() === 'password') u.searchParams.set(key, '***');
    }
    return u.toString();
  } catch {
    return '<unparseable database URL>';
  }
}

/** Which job queue the process uses. Only src/queue looks at `kind`. */
export type QueueConfig = { kind: 'local' } | { kind: 'bullmq'; url: string; prefix?: string };

export interface QueueFlags {
  /** --redis-url */
  redisUrl?: string | undefined;
  /** --queue-prefix: the Redis key prefix, so several deployments can share one Redis. */
  queuePrefix?: string | undefined;
}

export const ENV_REDIS_URL = 'REDIS_URL';

/**
 * The job queue: --redis-url, then REDIS_URL, gives BullMQ on that Redis; without either, the in-process
 * queue (embedded mode). A URL that is not redis:// or rediss:// fails with a ConfigError that never
 * repeats its password.
 */
export function resolveQueueConfig(opts: { flags: QueueFlags; env: Env }): QueueConfig {
  const fromFlag = present(opts.flags.redisUrl);
  const url = fromFlag ?? present(opts.env[ENV_REDIS_URL]);
  if (url === undefined) return { kind: 'local' };
  const source = fromFlag !== undefined ? '--redis-url' : ENV_REDIS_URL;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`${source} is not a URL (expected redis://host:6379)`, { details: { source } });
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new ConfigError(
      `${source} must be a redis:// or rediss:// URL, got a ${parsed.protocol}// URL (expected redis://host:6379)`,
      { details: { source, protocol: parsed.protocol } },
    );
  }
  const prefix = present(opts.flags.queuePrefix);
  if (prefix?.includes(':')) {
    throw new ConfigError(`--queue-prefix must not contain ':', got '${prefix}'`, { details: { prefix } });
  }
  return prefix === undefined ? { kind: 'bullmq', url } : { kind: 'bullmq', url, prefix };
}
