// What `tongate walk` and `tongate work` share: the chain, database and queue options, opening the three
// from flags and the environment (src/common/config.ts decides the modes), a JSON-lines logger, exit
// codes (style guide §6.5) and the ordered shutdown on SIGINT/SIGTERM with a grace timer.

import { rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Cell } from '@ton/core';
import { startIndexWorker } from '../../workers/index-mc-block.ts';
import {
  ConfigError,
  createMetricsRegistry,
  ENV_REDIS_URL,
  isTongateError,
  type QueueConfig,
  type Registry,
  resolveDatabaseConfig,
  resolveQueueConfig,
} from '../common/index.ts';
import { createDatabase, type Database, describeDatabase, migrate } from '../db/index.ts';
import { devnetDnsRootsOf } from '../devnet/node/published-files.ts';
import {
  createContractsEnv,
  MAINNET_DNS_ROOTS,
  type OwnedContractsEnv,
  parseDnsRoots,
} from '../index/contracts/index.ts';
import { createDecodePool, defaultDecodeThreads } from '../index/decode-pool/index.ts';
import {
  type BlockSource,
  createDevnetStoreSource,
  createIndexMetrics,
  createLiteSource,
  type IndexMetrics,
} from '../index/index.ts';
import { createNodeDbSource, type NodeDbOptions } from '../index/source/node-db-source.ts';
import { createLitePool, type LiteMethods, loadGlobalConfig } from '../lite/index.ts';
import type { NodeDb } from '../nodedb/node-db.ts';
import { createQueue, type JobQueue, type Processor } from '../queue/index.ts';
import { cellsFromBoc } from '../ton/index.ts';
import { type OptionSpec, UsageError } from './command.ts';
import { databaseOptions } from './db.ts';
import { cliLogger, type Log, logTo } from './log.ts';
import { metricsOptions, serveMetrics } from './metrics-endpoint.ts';

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_RETRYABLE = 75;

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

export type Values = Record<string, string | boolean | undefined>;

export type { Log } from './log.ts';

/** The commands' log (src/cli/log.ts): JSON lines on the error stream, readable lines on a terminal. */
export function createLog(write: (line: string) => void, minLevel: 'debug' | 'info' = 'info'): Log {
  return logTo(cliLogger({ level: minLevel, write }));
}

export function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

export function intOption(values: Values, name: string, opts: { min?: number; max?: number } = {}): number | undefined {
  const v = str(values, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} expects a whole number, got '${v}'`);
  const n = Number(v);
  const min = opts.min ?? 0;
  const max = opts.max ?? 0xffffffff;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be between ${min} and ${max}, got ${v}`);
  }
  return n;
}

export interface Indexer {
  source: BlockSource;
  /** The node database behind a --node-db source. */
  nodeDb?: NodeDb;
  db: Database;
  queue: JobQueue;
  queueConfig: QueueConfig;
  metrics: Registry;
  indexMetrics: IndexMetrics;
  /** The contract decoders' environment; absent with --no-decoders. */
  contracts?: OwnedContractsEnv;
  /** Threads a processor in this process decodes blocks on (--decode-threads); 0: on the main thread. */
  decodeThreads: number;
  describe: { source: string; database: string; queue: string };
  close(): Promise<void>;
}

/** Resolves configuration first (so bad usage fails before anything opens), then opens source, db, queue. */
export async function openIndexer(
  values: Values,
  log: Log,
  opts: { applicationName: string; requireSharedQueue?: boolean; lockMs?: number },
): Promise<Indexer> {
  const liteConfig = str(values, 'lite-config');
  const devnetStore = str(values, 'devnet-store');
  const nodeDbOptions = nodeDbConfig(values, log);
  if ([liteConfig, devnetStore, nodeDbOptions].filter((s) => s !== undefined).length !== 1) {
    throw new UsageError(
      'expected exactly one block source: --lite-config FILE|URL, --devnet-store DIR or --node-db DIR',
    );
  }
  const dbConfig = resolveDatabaseConfig({
    flags: { databaseUrl: str(values, 'database-url'), data: str(values, 'data') },
    env: process.env,
    applicationName: opts.applicationName,
  });
  const queueConfig = resolveQueueConfig({
    flags: { redisUrl: str(values, 'redis-url'), queuePrefix: str(values, 'queue-prefix') },
    env: process.env,
  });
  const decoders = decoderConfig(values);
  const decodeThreads = intOption(values, 'decode-threads', { min: 0 }) ?? defaultDecodeThreads();
  if (decodeThreads > 64) throw new UsageError('--decode-threads must be at most 64');
  const metricsPort = intOption(values, 'metrics-port');
  if (metricsPort !== undefined && metricsPort > 65535) throw new UsageError(`--metrics-port must be at most 65535`);
  if (opts.requireSharedQueue && queueConfig.kind === 'local') {
    throw new UsageError(
      `needs a shared queue: set ${ENV_REDIS_URL} or --redis-url (without one, tongate walk processes its own jobs)`,
    );
  }
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => {});
  };
  try {
    let source: BlockSource;
    let nodeDb: NodeDb | undefined;
    let libraries: ((hashes: Buffer[]) => Promise<Map<string, Cell>>) | undefined;
    if (nodeDbOptions !== undefined) {
      const own = nodeDbOptions.secondaryDir;
      // this process's secondary folder (see nodeDbConfig) goes when the process is done with it
      if (own !== undefined) closers.push(() => rm(own, { recursive: true, force: true }));
      const s = await openNodeDbSource(nodeDbOptions);
      source = s;
      nodeDb = s.nodeDb;
      closers.push(() => s.close());
      // Say up front how the node is read and what it still has, instead of retrying blocks it garbage-collected.
      log('info', 'Opened node database', {
        root: nodeDbOptions.root,
        mode: s.nodeDb.mode,
        rocksdb: s.nodeDb.preflight.rocksdb ?? null,
        problems: s.nodeDb.preflight.problems,
        coverage: await s.nodeDb.coverage(),
      });
    } else if (liteConfig !== undefined) {
      const global = await loadGlobalConfig(liteConfig);
      const pool = createLitePool({
        servers: global.liteservers,
        log,
      });
      closers.push(() => pool.close());
      source = createLiteSource(pool);
      libraries = (hashes) => librariesFrom(pool, hashes);
      closers.push(() => source.close());
    } else {
      source = await createDevnetStoreSource(devnetStore as string);
      closers.push(() => source.close());
    }
    const db = await createDatabase(dbConfig);
    closers.push(() => db.close());
    await migrate(db);
    // Without --dns-root, a devnet source brings its own DNS collection (its global config's `tongate` object).
    const devnetRoots = decoders && !decoders.dnsRoots ? await devnetDnsRootsOf({ liteConfig, devnetStore }) : null;
    if (decoders && devnetRoots) {
      decoders.dnsRoots = [...MAINNET_DNS_ROOTS, ...devnetRoots];
      log('info', "Took the devnet's DNS root", { dnsRoots: devnetRoots.map((r) => `${r.collection}=${r.suffix}`) });
    }
    const contracts = decoders
      ? await createContractsEnv({ db, threads: decoders.threads, dnsRoots: decoders.dnsRoots, libraries })
      : undefined;
    if (contracts) closers.push(() => contracts.close());
    const queue = createQueue(
      queueConfig,
      opts.lockMs === undefined
        ? { log }
        : {
            log,
            policy: { lockDurationMs: opts.lockMs, stalledIntervalMs: Math.max(500, Math.floor(opts.lockMs / 2)) },
          },
    );
    closers.push(() => queue.close());
    const metrics = createMetricsRegistry();
    const indexMetrics = createIndexMetrics(metrics, { db, queue, head: () => source.head() });
    if (metricsPort !== undefined) {
      const host = str(values, 'metrics-host') ?? '127.0.0.1';
      const server = await serveMetrics(metrics, metricsPort, host, {
        name: source.name,
        db,
        head: () => source.head(),
        ...(nodeDb ? { coverage: () => (nodeDb as NodeDb).coverage() } : {}),
      });
      closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
      log('info', 'Serving metrics', {
        url: `http://${host}:${metricsPort}/metrics`,
        health: `http://${host}:${metricsPort}/healthz`,
      });
    }
    return {
      source,
      ...(nodeDb ? { nodeDb } : {}),
      db,
      queue,
      queueConfig,
      metrics,
      indexMetrics,
      contracts,
      decodeThreads,
      describe: {
        source:
          nodeDbOptions !== undefined
            ? `node database ${nodeDbOptions.root} (blocks: ${nodeDbOptions.blocks ?? 'auto'})`
            : liteConfig !== undefined
              ? `liteservers of ${liteConfig}`
              : `devnet store ${devnetStore}`,
        database: describeDatabase(dbConfig),
        queue:
          queueConfig.kind === 'bullmq' ? `BullMQ (prefix ${queueConfig.prefix ?? 'tongate'})` : 'in-process queue',
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
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

/** createNodeDbSource, with "this is not a node database this build can read" reported as a configuration error. */
async function openNodeDbSource(opts: NodeDbOptions): ReturnType<typeof createNodeDbSource> {
  try {
    return await createNodeDbSource(opts);
  } catch (e) {
    if (isTongateError(e) && (e.details as { nodeDb?: string } | undefined)?.nodeDb === 'unsupported') {
      throw new ConfigError(`--node-db ${opts.root}: ${(e as Error).message}`, { cause: e });
    }
    throw e;
  }
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

/** Libraries by hash from the liteservers (library-cell codes such as USDT's jetton wallet). */
export async function librariesFrom(pool: LiteMethods, hashes: Buffer[]): Promise<Map<string, Cell>> {
  const out = new Map<string, Cell>();
  const r = await pool.getLibraries(hashes);
  for (const e of r.result) {
    const [cell] = cellsFromBoc(Buffer.from(e.data));
    if (cell?.hash().equals(Buffer.from(e.hash))) out.set(cell.hash().toString('hex'), cell);
  }
  return out;
}

/** Exit code for an error that ended a command: 2 bad usage or config, 75 retryable, 1 otherwise. */
export function exitCodeFor(e: unknown): number {
  if (e instanceof UsageError || e instanceof ConfigError) return EXIT_USAGE;
  if (isTongateError(e) && e.retryable) return EXIT_RETRYABLE;
  return EXIT_FAILED;
}

export function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}

/**
 * An AbortSignal fired by the first SIGINT or SIGTERM; a second signal, or the grace period running out
 * after the first, exits at once (a job cut off is reclaimed as stalled; its checkpoint makes a re-run safe).
 */
export function onShutdownSignal(log: Log, graceMs = 30_000): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const handler = (sig: NodeJS.Signals) => {
    if (ac.signal.aborted) {
      log('warn', 'Exited on a second signal', { signal: sig });
      process.exit(EXIT_RETRYABLE);
    }
    log('info', 'Received shutdown signal, finishing active jobs', { signal: sig, graceMs });
    ac.abort();
    timer = setTimeout(() => {
      log('warn', 'Exited after the shutdown grace period', { graceMs });
      process.exit(EXIT_RETRYABLE);
    }, graceMs);
    timer.unref();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: ac.signal,
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      if (timer) clearTimeout(timer);
    },
  };
}

/** Jobs at once when --concurrency is not given: two per decode thread keep them busy while this thread writes. */
export const defaultConcurrency = (ix: Indexer): number => Math.max(1, 2 * ix.decodeThreads);

/**
 * The index-mc-block processor in this process, logging each block (skipped ones at `skippedLevel`), decoding on
 * ix.decodeThreads worker threads (closed with the processor).
 */
export function startProcessor(
  ix: Indexer,
  log: Log,
  concurrency: number,
  skippedLevel: 'debug' | 'info' = 'info',
): Processor {
  const decoder =
    ix.decodeThreads > 0 ? createDecodePool({ source: ix.source, threads: ix.decodeThreads, log }) : undefined;
  const processor = startIndexWorker({
    queue: ix.queue,
    source: ix.source,
    db: ix.db,
    log,
    concurrency,
    ...(decoder ? { decoder } : {}),
    metrics: ix.indexMetrics,
    ...(ix.contracts ? { contracts: ix.contracts } : {}),
    onIndexed: (r) =>
      log(
        r.skipped ? skippedLevel : 'info',
        r.skipped ? 'Skipped indexed masterchain block' : 'Indexed masterchain block',
        {
          ...r,
        },
      ),
  });
  return {
    async close() {
      await processor.close();
      await decoder?.close();
    },
  };
}
