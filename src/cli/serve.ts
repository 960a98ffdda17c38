// `tongate serve`: the HTTP APIs alone. v2 needs liteservers (--lite-config), v3 a database (DATABASE_URL
// or the embedded PGlite under --data); each part runs as its own process in production, so an API
// process can scale apart from the indexer. `tongate up` starts the same server next to a devnet. Here: the
// options (shared with up) and the port checked; src/app.ts's createServe opens and closes the parts.

import type { Logger } from 'pino';
import type { ApiServer } from '../api/build.ts';
import { type ApiSettings, createServe, type Service, startApiServer } from '../app.ts';
import { exitCodeFor, firstLine } from '../common/exit-codes.ts';
import { type Registry, resolveDatabaseConfig } from '../common/index.ts';
import { intOption, str, UsageError, type Values } from '../common/options.ts';
import { onShutdownSignal } from '../common/shutdown.ts';
import type { Database } from '../db/index.ts';
import { REDIS_LOSS_MODES, type RedisLossMode } from '../http/rate-limit.ts';
import type { LitePool } from '../lite/index.ts';
import type { Command, OptionSpec } from './command.ts';
import { databaseOptions } from './db.ts';
import { cliLogger, createLog } from './log.ts';
import { checkPorts, type PortToBind } from './ports.ts';

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '127.0.0.1';

export const listenOptions: Record<string, OptionSpec> = {
  port: { type: 'string', value: 'N', description: `HTTP port (env PORT; default ${DEFAULT_PORT})` },
  host: { type: 'string', value: 'H', description: `listen address (env HOST; default ${DEFAULT_HOST})` },
};

export const accessOptions: Record<string, OptionSpec> = {
  profile: {
    type: 'string',
    value: 'open|managed',
    description:
      "rate limits: 'open' (none unless a key has one) or 'managed' (toncenter's: keyless 1 rps, keys 10 rps)",
  },
  'v3-keyless-rps': { type: 'string', value: 'N', description: 'keyless requests per second on v3 (managed profile)' },
  'rate-limit-on-redis-loss': {
    type: 'string',
    value: 'closed|open',
    description:
      "while REDIS_URL's Redis is unreachable: 'closed' answers limited requests 503 + Retry-After (default under --profile managed), 'open' lets them through uncounted (default otherwise)",
  },
  testnet: { type: 'boolean', description: 'print user-friendly addresses with the test-only flag' },
  'tvm-threads': {
    type: 'string',
    value: 'N',
    description: 'threads running v2 get-methods, fee estimates and emulation (default: cores - 1, 1..4)',
  },
  'tvm-queue': {
    type: 'string',
    value: 'N',
    description: 'get-method calls allowed to wait for a TVM thread before 503 + Retry-After (default 64)',
  },
  verbose: { type: 'boolean', short: 'v', description: 'log every request' },
};

export function listenAddress(values: Values): { port: number; host: string } {
  const portText = str(values, 'port') ?? process.env.PORT;
  let port = DEFAULT_PORT;
  if (portText !== undefined && portText !== '') {
    if (!/^\d+$/.test(portText) || Number(portText) > 65535) {
      throw new UsageError(`port must be a number 0..65535, got '${portText}'`);
    }
    port = Number(portText);
  }
  const host = str(values, 'host') ?? process.env.HOST ?? DEFAULT_HOST;
  return { port, host };
}

export function accessProfile(values: Values): 'open' | 'managed' {
  const p = str(values, 'profile') ?? process.env.TONGATE_PROFILE ?? 'open';
  if (p !== 'open' && p !== 'managed') throw new UsageError(`--profile must be 'open' or 'managed', got '${p}'`);
  return p;
}

/** --rate-limit-on-redis-loss: given, else closed under the managed profile and open under the open one. */
export function redisLossMode(values: Values): RedisLossMode {
  const v = str(values, 'rate-limit-on-redis-loss');
  if (v === undefined) return accessProfile(values) === 'managed' ? 'closed' : 'open';
  if (!(REDIS_LOSS_MODES as readonly string[]).includes(v)) {
    throw new UsageError(`--rate-limit-on-redis-loss must be 'closed' or 'open', got '${v}'`);
  }
  return v as RedisLossMode;
}

/** The API server's settings from its options, validated (bad usage throws before anything starts). */
export function apiSettings(values: Values): ApiSettings {
  return {
    listen: listenAddress(values),
    profile: accessProfile(values),
    rateLimitOnRedisLoss: redisLossMode(values),
    v3KeylessRps: intOption(values, 'v3-keyless-rps', { min: 1 }),
    tvmThreads: intOption(values, 'tvm-threads', { min: 1, max: 64 }),
    tvmQueue: intOption(values, 'tvm-queue', { min: 0, max: 100_000 }),
    testnet: values.testnet === true,
  };
}

/** The API's listener, for checkPorts. */
export function apiPort(values: Values): PortToBind {
  const { port, host } = listenAddress(values);
  return { port, host, what: 'the HTTP API', change: '--port or PORT', hostChange: '--host or HOST' };
}

/** The API's request log in the commands' one format (src/cli/log.ts): request lines with --verbose. */
export function apiLogger(verbose: boolean): Logger {
  return cliLogger({ level: verbose ? 'info' : 'warn' });
}

/** Starts the API server (src/app.ts) with the settings of its options. */
export function startApi(opts: {
  values: Values;
  db?: Database;
  pool?: LitePool;
  metrics?: Registry;
  logger: Logger;
}): Promise<{ api: ApiServer; url: string }> {
  const { values, ...parts } = opts;
  return startApiServer({ settings: apiSettings(values), ...parts });
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the HTTP APIs: v2 over liteservers (--lite-config), v3 over the index database.',
  details:
    'v2 (/api/v2) needs --lite-config (a TON global config, file or URL). v3 (/api/v3) reads the index in\n' +
    'DATABASE_URL, else the embedded PGlite under --data (run migrations with tongate db migrate, or they run\n' +
    'here). --no-v3 serves v2 alone. With REDIS_URL, rate limits are shared by every API process; while that\n' +
    'Redis is unreachable, --rate-limit-on-redis-loss decides (managed profile: closed, 503 + Retry-After).\n' +
    'The Streaming API (/api/streaming/v2) shares pending events between processes on that Redis too (channel\n' +
    'tongate:streaming:v2; TONGATE_STREAM_CHANNEL names another).\n' +
    'Also: /metrics (Prometheus), /healthz (index, trace assembly and classification lag; liteservers; the rate\n' +
    'limiter). Stops on SIGINT/SIGTERM. The port is checked before anything opens.\n' +
    'Exit codes: 0 stopped by a signal, 1 failed, 2 bad usage or configuration (or the port in use), 75 retryable\n' +
    '(database down).',
  options: {
    'lite-config': { type: 'string', value: 'FILE|URL', description: 'TON global config whose liteservers back v2' },
    ...databaseOptions,
    'no-v3': { type: 'boolean', description: 'do not open a database; serve v2 only' },
    ...listenOptions,
    ...accessOptions,
  },
  async run({ values, positionals, out, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const liteConfig = str(values, 'lite-config');
    if (liteConfig === undefined && values['no-v3'] === true) {
      throw new UsageError('nothing to serve: --no-v3 needs --lite-config for v2');
    }
    apiSettings(values);
    // Before anything opens: a busy port is said at once (exit 2), not after the database and the pool.
    await checkPorts([apiPort(values)]);
    const log = createLog(err);
    const shutdown = onShutdownSignal(log);
    let serve: Service<{ url: string; v2: boolean; v3: boolean }> | undefined;
    try {
      const database =
        values['no-v3'] === true
          ? undefined
          : resolveDatabaseConfig({
              flags: { databaseUrl: str(values, 'database-url'), data: str(values, 'data') },
              env: process.env,
              applicationName: 'tongate-serve',
            });
      serve = createServe(
        { api: apiSettings(values), database, liteConfig },
        { log, logger: apiLogger(values.verbose === true) },
      );
      const { url, v2, v3 } = await serve.start();
      if (v2) out(`v2  ${url}/api/v2   (liteservers of ${liteConfig})`);
      if (v3) out(`v3  ${url}/api/v3   (docs ${url}/api/v3/)`);
      out(`ops ${url}/healthz  ${url}/metrics`);
      await new Promise<void>((resolve) => shutdown.signal.addEventListener('abort', () => resolve(), { once: true }));
      return 0;
    } catch (e) {
      err(`tongate serve: ${firstLine(e)}`);
      return exitCodeFor(e);
    } finally {
      await serve?.close();
      shutdown.dispose();
    }
  },
};
