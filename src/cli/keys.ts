// `tongate keys create|list|revoke`: API keys for /api/v2 and /api/v3. A key is printed once, by create; the
// database keeps only its SHA-256 and a short prefix, so neither `list` nor a dump can show it again.
// Exit codes as `tongate db migrate`: 0 done, 1 failed, 2 bad usage or configuration, 75 database unreachable.

import { EXIT_RETRYABLE } from '../common/exit-codes.ts';
import {
  ConfigError,
  ENV_DATABASE_URL,
  isTongateError,
  resolveDatabaseConfig,
  type TongateError,
} from '../common/index.ts';
import { intOption, UsageError } from '../common/options.ts';
import { createDatabase, type Database } from '../db/index.ts';
import { type ApiKeyRow, createApiKeyStore } from '../http/api-keys.ts';
import type { Command, RunContext } from './command.ts';
import { databaseOptions } from './db.ts';

const MAX_RPS = 1_000_000;

/** Opens the database the flags name, runs `fn` with the key store, maps failures to exit codes. */
async function withKeys(
  ctx: RunContext,
  what: string,
  fn: (store: ReturnType<typeof createApiKeyStore>) => Promise<number>,
): Promise<number> {
  let db: Database | undefined;
  try {
    const cfg = resolveDatabaseConfig({
      flags: {
        databaseUrl: ctx.values['database-url'] as string | undefined,
        data: ctx.values.data as string | undefined,
      },
      env: process.env,
      applicationName: 'tongate-keys',
    });
    db = await createDatabase(cfg);
    return await fn(createApiKeyStore(db));
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    const missing = isTongateError(e) && (e as TongateError).details?.sqlstate === '42P01';
    ctx.err(`tongate keys ${what}: ${message}${missing ? " (run 'tongate db migrate' first)" : ''}`);
    if (e instanceof ConfigError) return 2;
    return isTongateError(e) && e.retryable ? EXIT_RETRYABLE : 1;
  } finally {
    await db?.close().catch(() => {});
  }
}

function describeKey(k: ApiKeyRow): string {
  const rps = k.rps === null ? 'default rps' : `${k.rps} rps`;
  const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
  return `${k.id}\t${k.prefix}…\t${k.name}\t${rps}\tcreated ${k.createdAt.toISOString()}\t${state}`;
}

const createCommand: Command = {
  name: 'create',
  summary: 'Create an API key and print it (once: only its SHA-256 is stored).',
  args: '<name>',
  details:
    'The name is your label for whoever uses the key. Clients send the key in the X-API-Key header or the\n' +
    'api_key query parameter. Without --rps the deployment default for keys applies (managed profile: 10).',
  options: {
    ...databaseOptions,
    rps: { type: 'string', value: 'N', description: `requests per second for this key (1..${MAX_RPS})` },
  },
  async run(ctx) {
    const [name, extra] = ctx.positionals;
    if (name === undefined || name.trim() === '') throw new UsageError('expected the key name');
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
    const rps = intOption(ctx.values, 'rps', { min: 1, max: MAX_RPS, interval: true }) ?? null;
    return withKeys(ctx, 'create', async (store) => {
      const { key, info } = await store.create(name.trim(), rps);
      ctx.out(key);
      ctx.err(`Created API key ${info.id} (${info.name}, ${info.rps ?? 'default'} rps). It is shown only this once.`);
      return 0;
    });
  },
};

const listCommand: Command = {
  name: 'list',
  summary: 'List API keys: id, prefix, name, rate, created, revoked (never the keys themselves).',
  options: databaseOptions,
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError(`unexpected argument '${ctx.positionals[0]}'`);
    return withKeys(ctx, 'list', async (store) => {
      const keys = await store.list();
      if (keys.length === 0) ctx.err('No API keys.');
      for (const k of keys) ctx.out(describeKey(k));
      return 0;
    });
  },
};

const revokeCommand: Command = {
  name: 'revoke',
  summary: 'Revoke an API key by id: it is refused with 401 from then on (running servers: within 10 s).',
  args: '<id>',
  options: databaseOptions,
  async run(ctx) {
    const [id, extra] = ctx.positionals;
    if (id === undefined || !/^\d{1,15}$/.test(id))
      throw new UsageError(`expected a key id (a number), got '${id ?? ''}'`);
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
    return withKeys(ctx, 'revoke', async (store) => {
      if (await store.revoke(Number(id))) {
        ctx.out(`Revoked API key ${id}.`);
        return 0;
      }
      ctx.err(`tongate keys revoke: no active key with id ${id}`);
      return 1;
    });
  },
};

export const keysCommand: Command = {
  name: 'keys',
  summary: 'Manage API keys (stored hashed in the database).',
  details: `The database is --database-url, else ${ENV_DATABASE_URL}, else PGlite under <data>/pg.`,
  subcommands: [createCommand, listCommand, revokeCommand],
};
