// The composition root (issue 22): the parts put together into what a command runs. The indexer (a block source,
// the database, the job queue, the contract decoders, a --metrics-port listener), the index-mc-block processor over
// it (workers/index-mc-block.ts), the API server with its /healthz, and the services `tongate serve` (the APIs over
// a database and liteservers) and `tongate up` (a devnet, its tail indexing and the APIs) run until a signal.
// src/cli/ parses a command's arguments into the settings taken here and calls these; nothing below src/cli/
// imports this module.

import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { Cell } from '@ton/core';
import type { Logger } from 'pino';
import { startIndexWorker } from '../workers/index-mc-block.ts';
import { type ApiServer, buildApiServer } from './api/build.ts';
import { ENV_STREAM_CHANNEL } from './api/streaming/bus.ts';
import { firstLine } from './common/exit-codes.ts';
import {
  ConfigError,
  createMetricsRegistry,
  type DatabaseConfig,
  ENV_REDIS_URL,
  isTongateError,
  type QueueConfig,
  type Registry,
  resolveDatabaseConfig,
  resolveQueueConfig,
} from './common/index.ts';
import type { Log } from './common/logger.ts';
import { UsageError } from './common/options.ts';
import { createDatabase, type Database, describeDatabase, migrate, type Queryable } from './db/index.ts';
import type { DevnetInfo, DevnetNode } from './devnet/node/index.ts';
import { devnetDnsRootsOf } from './devnet/node/published-files.ts';
import type { RedisLossMode } from './http/rate-limit.ts';
import type { HealthReport } from './http/server.ts';
import { createContractsEnv, MAINNET_DNS_ROOTS, type OwnedContractsEnv } from './index/contracts/index.ts';
import { createDecodePool } from './index/decode-pool/index.ts';
import { type PipelineHealth, pipelineHealth, pipelineStalled, registerPipelineGauges } from './index/health.ts';
import {
  type BlockSource,
  createDevnetStoreSource,
  createIndexMetrics,
  createLiteSource,
  type IndexMetrics,
} from './index/index.ts';
import { checkpointBounds } from './index/plan/checkpoints.ts';
import { runTail } from './index/plan/index.ts';
import { createNodeDbSource, type NodeDbOptions } from './index/source/node-db-source.ts';
import { createLitePool, type LiteMethods, type LitePool, loadGlobalConfig } from './lite/index.ts';
import type { NodeDb } from './nodedb/node-db.ts';
import { createQueue, type JobQueue, type Processor } from './queue/index.ts';
import { cellsFromBoc } from './ton/index.ts';

/** What to open, resolved from a command's flags and the environment (src/cli/indexer-options.ts). */
export interface IndexerSettings {
  /** Exactly one block source. */
  source: { liteConfig: string } | { devnetStore: string } | { nodeDb: NodeDbOptions };
  database: DatabaseConfig;
  queue: QueueConfig;
  /** The contract decoders' settings; null when they are off (--no-decoders). */
  decoders: { threads: number; dnsRoots?: Array<{ collection: string; suffix: string }> } | null;
  /** Threads a processor in this process decodes blocks on; 0: on the main thread. */
  decodeThreads: number;
  /** The --metrics-port listener; absent when off. */
  metrics?: { port: number; host: string };
  /** The queue's job lock (tongate work --lock-ms); absent: the queue's default. */
  lockMs?: number;
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

/** Opens source, database (migrated), decoders, queue and the metrics listener; closes what opened on a failure. */
export async function openIndexer(settings: IndexerSettings, log: Log): Promise<Indexer> {
  const { source: from, database: dbConfig, queue: queueConfig, decodeThreads, lockMs } = settings;
  const decoders = settings.decoders ? { ...settings.decoders } : null;
  const liteConfig = 'liteConfig' in from ? from.liteConfig : undefined;
  const devnetStore = 'devnetStore' in from ? from.devnetStore : undefined;
  const nodeDbOptions = 'nodeDb' in from ? from.nodeDb : undefined;
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
      lockMs === undefined
        ? { log }
        : {
            log,
            policy: { lockDurationMs: lockMs, stalledIntervalMs: Math.max(500, Math.floor(lockMs / 2)) },
          },
    );
    closers.push(() => queue.close());
    const metrics = createMetricsRegistry();
    const indexMetrics = createIndexMetrics(metrics, { db, queue, head: () => source.head() });
    if (settings.metrics !== undefined) {
      const { port, host } = settings.metrics;
      const server = await serveMetrics(metrics, port, host, {
        name: source.name,
        db,
        head: () => source.head(),
        ...(nodeDb ? { coverage: () => (nodeDb as NodeDb).coverage() } : {}),
      });
      closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
      log('info', 'Serving metrics', {
        url: `http://${host}:${port}/metrics`,
        health: `http://${host}:${port}/healthz`,
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

// --metrics-port for processes without the API server (tongate work, tongate walk): a bare node:http listener that
// answers GET /metrics with the process's Prometheus registry, GET /healthz with the block source's state (for a
// node-db source also what the node's database covers) and, given the database, the index's lags (behind the
// source, trace assembly, classification), and 404 otherwise.

/**
 * The /healthz body. `ok` is false (status 503) when the source cannot say where its head is, the database cannot
 * be read, or trace assembly waits on a masterchain block that is not indexed (src/index/health.ts).
 */
export interface Health {
  ok: boolean;
  source: {
    name: string;
    /** The source's masterchain head; null when asking failed. */
    head: number | null;
    /** What a node-db source's database holds (blocks, states, garbage-collected packages). */
    coverage?: unknown;
    error?: string;
  };
  /** With a database: indexed range, lag behind the source's head, trace assembly and classification lag. */
  index?: PipelineHealth & { lag_blocks: number | null };
  error?: string;
}

/** What /healthz reports about: the process's block source, its coverage when it has one, the index database. */
export interface HealthSource {
  name: string;
  head(): Promise<number>;
  coverage?: () => Promise<unknown>;
  /** The index database: /healthz adds the pipeline's lags and /metrics their gauges. */
  db?: Queryable;
  /** Seconds a hole may hold up assembly before ok=false (default ASSEMBLY_STALL_GRACE_SECONDS). */
  assemblyGraceSeconds?: number;
}

/** Asks the source; never throws (a failure becomes ok: false with the first line of the error). */
export async function sourceHealth(source: HealthSource): Promise<Health> {
  const line = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
  const out: Health = { ok: true, source: { name: source.name, head: null } };
  try {
    out.source.head = await source.head();
  } catch (e) {
    out.ok = false;
    out.source.error = line(e);
  }
  if (source.coverage) {
    try {
      out.source.coverage = await source.coverage();
    } catch (e) {
      out.ok = false;
      out.source.error ??= line(e);
    }
  }
  if (source.db) {
    try {
      const p = await pipelineHealth(source.db, { graceSeconds: source.assemblyGraceSeconds });
      const head = out.source.head;
      out.index = {
        ...p,
        lag_blocks: head !== null && p.indexed_mc_seqno !== null ? Math.max(0, head - p.indexed_mc_seqno) : null,
      };
      if (pipelineStalled(p)) out.ok = false;
    } catch (e) {
      out.ok = false;
      out.error = `database: ${line(e)}`;
    }
  }
  return out;
}

/** JSON with bigints as decimal strings and buffers (hashes in block ids) as hex. */
const json = (v: unknown) =>
  JSON.stringify(v, function (this: Record<string, unknown>, k, x) {
    const raw = this[k]; // before toJSON: a Buffer arrives here as {type, data}
    return typeof x === 'bigint' ? x.toString() : Buffer.isBuffer(raw) ? raw.toString('hex') : x;
  });

/** The --metrics-port listener (processes without the API server: tongate work, tongate walk). */
export async function serveMetrics(
  registry: Registry,
  port: number,
  host: string,
  health?: HealthSource,
): Promise<Server> {
  if (health?.db) registerPipelineGauges(registry, health.db);
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/healthz' && health) {
      sourceHealth(health).then((h) =>
        res.writeHead(h.ok ? 200 : 503, { 'content-type': 'application/json' }).end(`${json(h)}\n`),
      );
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`not found: try GET /metrics${health ? ' or GET /healthz' : ''}\n`);
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (e: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${e.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/**
 * Index head and lags (behind the chain, trace assembly, classification) and liteserver state for /healthz;
 * ok=false when nothing can be served, or when trace assembly waits on a masterchain block that is not indexed
 * (src/index/health.ts: past a grace period for blocks in flight).
 */
export function apiHealth(parts: {
  db?: Database;
  pool?: LitePool;
  /** Seconds a hole may hold up assembly before ok=false (default ASSEMBLY_STALL_GRACE_SECONDS). */
  assemblyGraceSeconds?: number;
}): () => Promise<HealthReport> {
  return async () => {
    const report: HealthReport = { ok: true };
    let head: number | null = null;
    if (parts.pool) {
      const servers = parts.pool.health();
      head = parts.pool.headSeqno();
      report.lite = {
        head_mc_seqno: head,
        servers_in_rotation: servers.filter((s) => s.inRotation).length,
        servers: servers.length,
      };
      if (!servers.some((s) => s.inRotation)) report.ok = false;
    }
    if (parts.db) {
      const p = await pipelineHealth(parts.db, { graceSeconds: parts.assemblyGraceSeconds });
      const { first_mc_seqno, indexed_mc_seqno, ...rest } = p;
      report.index = {
        first_mc_seqno,
        indexed_mc_seqno,
        ...(parts.pool
          ? { lag_blocks: indexed_mc_seqno !== null && head !== null ? Math.max(0, head - indexed_mc_seqno) : null }
          : {}),
        ...rest,
      };
      if (pipelineStalled(p)) report.ok = false;
    }
    return report;
  };
}

/** The API server's settings (src/cli/serve.ts reads them from the options). */
export interface ApiSettings {
  listen: { port: number; host: string };
  profile: 'open' | 'managed';
  rateLimitOnRedisLoss: RedisLossMode;
  v3KeylessRps?: number;
  tvmThreads?: number;
  tvmQueue?: number;
  /** User-friendly addresses with the test-only flag. */
  testnet?: boolean;
}

/** Builds the API server over the database (v3) and the liteservers (v2) and listens; a busy port is a ConfigError. */
export async function startApiServer(opts: {
  settings: ApiSettings;
  db?: Database;
  pool?: LitePool;
  metrics?: Registry;
  logger: Logger;
}): Promise<{ api: ApiServer; url: string }> {
  const { settings } = opts;
  const { port, host } = settings.listen;
  const { v3KeylessRps, tvmThreads, tvmQueue } = settings;
  const metrics = opts.metrics ?? createMetricsRegistry();
  if (opts.db) registerPipelineGauges(metrics, opts.db);
  const api = await buildApiServer({
    tvmThreads,
    tvmQueue,
    db: opts.db,
    lite: opts.pool,
    profile: settings.profile,
    v3KeylessRps,
    testnet: settings.testnet === true,
    redisUrl: process.env[ENV_REDIS_URL] || undefined,
    rateLimitOnRedisLoss: settings.rateLimitOnRedisLoss,
    // Processes on one Redis share the streaming feed's channel; TONGATE_STREAM_CHANNEL sets another (tests).
    streaming: process.env[ENV_STREAM_CHANNEL] ? { channel: process.env[ENV_STREAM_CHANNEL] } : undefined,
    logger: opts.logger,
    metrics,
    health: apiHealth({ db: opts.db, pool: opts.pool }),
  });
  try {
    await api.app.listen({ port, host });
  } catch (e) {
    await api.close();
    const code = (e as { code?: string }).code;
    throw new ConfigError(
      code === 'EADDRINUSE'
        ? `port ${port} on ${host} is already in use; pick another with --port or PORT`
        : firstLine(e),
    );
  }
  const addr = api.app.server.address();
  const bound = typeof addr === 'object' && addr ? addr.port : port;
  return { api, url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}` };
}

/** Something a command runs until a signal: `start` opens and starts its parts, `close` stops whatever started. */
export interface Service<T> {
  /** Resolves once every part runs (the API server listens). */
  start(): Promise<T>;
  /** Stops what started, in a fixed order; also after a failed or partial start. */
  close(): Promise<void>;
}

/** `tongate serve`'s parts (src/cli/serve.ts reads them from the options). */
export interface ServeSettings {
  api: ApiSettings;
  /** The index database behind v3; absent (--no-v3): v2 alone. */
  database?: DatabaseConfig;
  /** A TON global config (file or URL) whose liteservers back v2; absent: v3 alone. */
  liteConfig?: string;
}

/** The HTTP APIs alone: the database (migrated) for v3, a liteserver pool for v2, the API server over them. */
export function createServe(
  settings: ServeSettings,
  parts: { log: Log; logger: Logger },
): Service<{ url: string; v2: boolean; v3: boolean }> {
  const { log, logger } = parts;
  let db: Database | undefined;
  let pool: LitePool | undefined;
  let api: ApiServer | undefined;
  return {
    async start() {
      if (settings.database !== undefined) {
        db = await createDatabase(settings.database);
        await migrate(db);
        log('info', 'Opened database', { database: describeDatabase(settings.database) });
      }
      if (settings.liteConfig !== undefined) {
        pool = createLitePool({ servers: (await loadGlobalConfig(settings.liteConfig)).liteservers, log });
      }
      const started = await startApiServer({ settings: settings.api, db, pool, logger });
      api = started.api;
      return { url: started.url, v2: pool !== undefined, v3: db !== undefined };
    },
    async close() {
      await api?.close().catch(() => {});
      await pool?.close().catch(() => {});
      await db?.close().catch(() => {});
    },
  };
}

/** Where `tongate up`'s devnet liteserver and config endpoint listen. */
export const DEVNET_HOST = '127.0.0.1';

/** `tongate up`'s parts (src/cli/up.ts reads them from the options). */
export interface UpSettings {
  /** The data folder: the chain in DIR/devnet, the embedded database in DIR/pg (unless DATABASE_URL). */
  dataDir: string;
  /** The devnet liteserver's port (its global config on port + 1); 0: any free port. */
  litePort: number;
  /** Devnet milliseconds between blocks; absent: the node's default. */
  blockIntervalMs?: number;
  /** Run the devnet's traffic generator. */
  activity: boolean;
  api: ApiSettings;
}

/**
 * The whole service on one process: a devnet node (with its traffic generator), tail indexing of its chain (read
 * straight from the node's store, account code and data through its liteserver) into the database under the data
 * folder or DATABASE_URL, through the in-process queue or REDIS_URL, and the API server. `signal` (the command's
 * shutdown) stops the tail at once.
 */
export function createUp(
  settings: UpSettings,
  parts: { log: Log; logger: Logger; signal: AbortSignal },
): Service<{ url: string; devnet: DevnetInfo }> {
  const { log, logger } = parts;
  const { dataDir: data, litePort, blockIntervalMs } = settings;
  // Stops the tail on a signal and on any failure (an API that could not listen must not leave it running).
  const stopAll = new AbortController();
  parts.signal.addEventListener('abort', () => stopAll.abort(), { once: true });
  const stopActivity = new AbortController();
  let node: DevnetNode | undefined;
  let pool: LitePool | undefined;
  let source: BlockSource | undefined;
  let db: Database | undefined;
  let queue: JobQueue | undefined;
  let processor: Processor | undefined;
  let contracts: OwnedContractsEnv | undefined;
  let api: ApiServer | undefined;
  let activity: Promise<unknown> | undefined;
  let tail: Promise<void> | undefined;
  return {
    async start() {
      // The devnet loads here, not with this module: serve, walk and work import it too and never run a node.
      const [{ devnetDnsRoots, startActivity }, { DEVNET_USER_WALLETS_PER_VERSION }, { createDevnetNode }] =
        await Promise.all([
          import('./devnet/activity/index.ts'),
          import('./devnet/genesis/index.ts'),
          import('./devnet/node/index.ts'),
        ]);
      node = createDevnetNode({
        dataDir: data,
        host: DEVNET_HOST,
        litePort,
        httpPort: litePort === 0 ? 0 : litePort + 1,
        ...(blockIntervalMs === undefined ? {} : { blockIntervalMs }),
        userWalletsPerVersion: DEVNET_USER_WALLETS_PER_VERSION,
        log: (level, msg, fields) =>
          log(
            level === 'debug' ? 'debug' : level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'info',
            msg,
            fields,
          ),
      });
      const info = await node.start().catch((e: unknown) => {
        if (/EADDRINUSE/.test(`${(e as { code?: string }).code} ${(e as Error).message}`)) {
          throw new UsageError(
            `the devnet's port ${litePort} or ${litePort + 1} is in use; pick others with --lite-port`,
          );
        }
        throw e;
      });
      log('info', 'Started devnet', {
        head: info.head.seqno,
        liteserver: `${info.host}:${info.litePort}`,
        dir: info.devnetDir,
      });
      pool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers, log });
      source = await createDevnetStoreSource(info.devnetDir, { fallback: createLiteSource(pool) });

      // DATABASE_URL and REDIS_URL are read once the devnet runs (a bad one fails after 'Started devnet').
      const dbConfig = resolveDatabaseConfig({ flags: { data }, env: process.env, applicationName: 'tongate-up' });
      db = await createDatabase(dbConfig);
      await migrate(db);
      log('info', 'Opened database', { database: describeDatabase(dbConfig) });
      const queueConfig = resolveQueueConfig({ flags: {}, env: process.env });
      queue = createQueue(queueConfig, { log });
      const metrics = createMetricsRegistry();
      const src = source;
      const lite = pool;
      contracts = await createContractsEnv({
        db,
        libraries: (hashes) => librariesFrom(lite, hashes),
        dnsRoots: [...MAINNET_DNS_ROOTS, ...devnetDnsRoots()],
      });
      const indexMetrics = createIndexMetrics(metrics, { db, queue, head: () => src.head() });
      processor = startIndexWorker({
        queue,
        source,
        db,
        log,
        metrics: indexMetrics,
        contracts,
        onIndexed: (r) =>
          log('debug', r.skipped ? 'Skipped indexed masterchain block' : 'Indexed masterchain block', { ...r }),
        onFailed: (seqno, e, final) =>
          log(final ? 'error' : 'warn', 'Failed to index masterchain block', { seqno, error: e.message, final }),
      });
      // A new index starts at the devnet's first block: the whole (small) history is served.
      const bounds = await checkpointBounds(db);
      let lastLogged = 0;
      tail = runTail({
        queue,
        db,
        source,
        pollMs: 200,
        signal: stopAll.signal,
        ...(bounds ? {} : { from: 1 }),
        log: (level, msg, fields) => log(level === 'info' ? 'debug' : level, msg, fields),
        onStatus: (s) => {
          indexMetrics.head(s.head);
          if (Date.now() - lastLogged > 30_000) {
            lastLogged = Date.now();
            log('info', 'Indexed the devnet', { head: s.head, indexed: s.indexedThrough, lag: s.lag });
          }
        },
      }).catch((e: unknown) => log('error', 'Stopped tail indexing', { error: firstLine(e) }));

      if (settings.activity) {
        activity = startActivity({
          liteConfig: info.globalConfigFile,
          wallets: info.walletsFile,
          signal: stopActivity.signal,
          log: (level, msg, fields) =>
            log(level === 'info' ? 'debug' : level === 'error' ? 'warn' : level, msg, fields),
        })
          .then((h) => h.done)
          .catch((e: unknown) => log('warn', 'Stopped activity', { error: firstLine(e) }));
      }
      const started = await startApiServer({ settings: settings.api, db, pool, metrics, logger });
      api = started.api;
      return { url: started.url, devnet: info };
    },
    async close() {
      stopAll.abort();
      stopActivity.abort();
      await api?.close().catch(() => {});
      await activity;
      await tail;
      await processor?.close().catch(() => {});
      await contracts?.close().catch(() => {});
      await queue?.close().catch(() => {});
      await source?.close().catch(() => {});
      await pool?.close().catch(() => {});
      await node?.stop().catch(() => {});
      await db?.close().catch(() => {});
    },
  };
}
