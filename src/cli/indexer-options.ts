// The indexer's options, shared by `tongate walk` and `tongate work`: the chain, decoder, database, queue and
// metrics flags, read with the environment (src/common/config.ts decides the modes) into the settings that
// openIndexer (src/app.ts) opens. Bad usage fails here, before anything opens.

import { hostname } from 'node:os';
import { join } from 'node:path';
import type { IndexerSettings } from '../app.ts';
import { ENV_REDIS_URL, resolveDatabaseConfig, resolveQueueConfig } from '../common/index.ts';
import type { Log } from '../common/logger.ts';
import { intOption, str, UsageError, type Values } from '../common/options.ts';
import { parseDnsRoots } from '../index/contracts/index.ts';
import { defaultDecodeThreads } from '../index/decode-pool/index.ts';
import type { NodeDbOptions } from '../index/source/node-db-source.ts';
import type { OptionSpec } from './command.ts';
import { databaseOptions } from './db.ts';
import { metricsOptions } from './metrics-endpoint.ts';

export const chainOptions: Record<string, OptionSpec> = {
  'lite-config': {
    type: 'string',
    value: 'FILE|URL',
    description: 'TON global config (file or http(s) URL) whose liteservers are the block source',
  },
  'devnet-store': {
    type: 'string',
    value: 'DIR',
    description: "a devnet node's store directory, read directly (the fast path for a local devnet)",
  },
  'node-db': {
    type: 'string',
    value: 'DIR',
    description:
      "a TON node's database folder (validator-engine --db, e.g. /var/ton-work/db), read directly on the same host",
  },
  'node-db-secondary': {
    type: 'string',
    value: 'DIR',
    description:
      'writable folder for the RocksDB secondary instances that follow the running node; each process uses its own subfolder (default: a temp folder)',
  },
  'node-db-blocks': {
    type: 'string',
    value: 'auto|index|packscan',
    description:
      "how --node-db finds blocks: the archive's RocksDB indexes (needs the native addon), scanning the pack files, or auto (default: auto)",
  },
};

const NODE_DB_BLOCKS = ['auto', 'index', 'packscan'] as const;

export const queueOptions: Record<string, OptionSpec> = {
  'redis-url': {
    type: 'string',
    value: 'URL',
    description: `Redis for the BullMQ job queue, redis://host:6379 (env ${ENV_REDIS_URL}); without one, an in-process queue`,
  },
  'queue-prefix': {
    type: 'string',
    value: 'NAME',
    description: 'Redis key prefix of the queue, to share one Redis between deployments',
    default: 'tongate',
  },
};

export const decoderOptions: Record<string, OptionSpec> = {
  'no-decoders': {
    type: 'boolean',
    description:
      'index only the core tables (blocks, transactions, messages, states): no Jetton/NFT/DNS/multisig/vesting rows',
  },
  'dns-root': {
    type: 'string',
    value: 'ADDR[=.suffix],...',
    description:
      "NFT collections whose items are DNS names (default: the mainnet .ton root, and a devnet's own when the source is one)",
  },
  'decoder-threads': {
    type: 'string',
    value: 'N',
    description: "worker threads running the decoders' get-methods",
    default: '1',
  },
  'decode-threads': {
    type: 'string',
    value: 'N',
    description:
      'worker threads decoding blocks into rows while this thread writes (default: cores - 1, at least 1; 0: decode on this thread)',
  },
};

export const indexerOptions: Record<string, OptionSpec> = {
  ...chainOptions,
  ...decoderOptions,
  ...databaseOptions,
  ...queueOptions,
  ...metricsOptions,
};

/** The indexer's settings from its options and the environment; bad usage throws before anything opens. */
export function indexerSettings(
  values: Values,
  log: Log,
  opts: { applicationName: string; requireSharedQueue?: boolean; lockMs?: number },
): IndexerSettings {
  const liteConfig = str(values, 'lite-config');
  const devnetStore = str(values, 'devnet-store');
  const nodeDbOptions = nodeDbConfig(values, log);
  if ([liteConfig, devnetStore, nodeDbOptions].filter((s) => s !== undefined).length !== 1) {
    throw new UsageError(
      'expected exactly one block source: --lite-config FILE|URL, --devnet-store DIR or --node-db DIR',
    );
  }
  const database = resolveDatabaseConfig({
    flags: { databaseUrl: str(values, 'database-url'), data: str(values, 'data') },
    env: process.env,
    applicationName: opts.applicationName,
  });
  const queue = resolveQueueConfig({
    flags: { redisUrl: str(values, 'redis-url'), queuePrefix: str(values, 'queue-prefix') },
    env: process.env,
  });
  const decoders = decoderConfig(values);
  const decodeThreads = intOption(values, 'decode-threads', { min: 0 }) ?? defaultDecodeThreads();
  if (decodeThreads > 64) throw new UsageError('--decode-threads must be at most 64');
  const metricsPort = intOption(values, 'metrics-port');
  if (metricsPort !== undefined && metricsPort > 65535) throw new UsageError(`--metrics-port must be at most 65535`);
  if (opts.requireSharedQueue && queue.kind === 'local') {
    throw new UsageError(
      `needs a shared queue: set ${ENV_REDIS_URL} or --redis-url (without one, tongate walk processes its own jobs)`,
    );
  }
  return {
    source:
      nodeDbOptions !== undefined
        ? { nodeDb: nodeDbOptions }
        : liteConfig !== undefined
          ? { liteConfig }
          : { devnetStore: devnetStore as string },
    database,
    queue,
    decoders,
    decodeThreads,
    ...(metricsPort === undefined
      ? {}
      : { metrics: { port: metricsPort, host: str(values, 'metrics-host') ?? '127.0.0.1' } }),
    ...(opts.lockMs === undefined ? {} : { lockMs: opts.lockMs }),
  };
}

/** The node-db source's options from --node-db, --node-db-secondary and --node-db-blocks; undefined without --node-db. */
export function nodeDbConfig(values: Values, log?: Log): NodeDbOptions | undefined {
  const root = str(values, 'node-db');
  const secondary = str(values, 'node-db-secondary');
  const blocks = str(values, 'node-db-blocks');
  if (root === undefined) {
    if (secondary !== undefined) throw new UsageError('--node-db-secondary needs --node-db DIR');
    if (blocks !== undefined) throw new UsageError('--node-db-blocks needs --node-db DIR');
    return undefined;
  }
  if (blocks !== undefined && !(NODE_DB_BLOCKS as readonly string[]).includes(blocks)) {
    throw new UsageError(`--node-db-blocks must be one of ${NODE_DB_BLOCKS.join(', ')}; got '${blocks}'`);
  }
  return {
    root,
    // Every RocksDB secondary needs a folder of its own: one per process, so any number of workers can follow
    // the same node (the host name keeps processes of several machines apart on a shared volume).
    ...(secondary === undefined ? {} : { secondaryDir: join(secondary, `${hostname()}-${process.pid}`) }),
    ...(blocks === undefined ? {} : { blocks: blocks as (typeof NODE_DB_BLOCKS)[number] }),
    ...(log ? { log } : {}),
  };
}

/** The decoders' settings from --no-decoders, --dns-root and --decoder-threads; null when they are off. */
export function decoderConfig(
  values: Values,
): { threads: number; dnsRoots?: Array<{ collection: string; suffix: string }> } | null {
  if (values['no-decoders'] === true) return null;
  const threads = intOption(values, 'decoder-threads', { min: 1 }) ?? 1;
  if (threads > 64) throw new UsageError('--decoder-threads must be at most 64');
  const roots = str(values, 'dns-root');
  let dnsRoots: Array<{ collection: string; suffix: string }> | undefined;
  try {
    dnsRoots = roots === undefined ? undefined : parseDnsRoots(roots.split(',').map((r) => r.trim()));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return { threads, ...(dnsRoots ? { dnsRoots } : {}) };
}
