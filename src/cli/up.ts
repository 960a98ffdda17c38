// `tongate up` (what `npm start` runs): the whole service on one process with nothing to configure: a
// devnet node in DIR/devnet with its traffic generator, tail indexing of that chain (read straight from
// the node's store, account code and data through its liteserver) into PGlite under DIR/pg or
// DATABASE_URL, through the in-process queue or REDIS_URL, and both APIs on http://HOST:PORT.

import { startIndexWorker } from '../../workers/index-mc-block.ts';
import type { ApiServer } from '../api/build.ts';
import { librariesFrom } from '../app.ts';
import { exitCodeFor, firstLine } from '../common/exit-codes.ts';
import {
  createMetricsRegistry,
  ENV_DATA_DIR,
  resolveDatabaseConfig,
  resolveDataDir,
  resolveQueueConfig,
} from '../common/index.ts';
import { intOption, str, UsageError } from '../common/options.ts';
import { onShutdownSignal } from '../common/shutdown.ts';
import { createDatabase, type Database, describeDatabase, migrate } from '../db/index.ts';
import { devnetDnsRoots, startActivity } from '../devnet/activity/index.ts';
import { DEVNET_USER_WALLETS_PER_VERSION } from '../devnet/genesis/index.ts';
import { createDevnetNode, DEFAULT_LITE_PORT, type DevnetNode } from '../devnet/node/index.ts';
import { createContractsEnv, MAINNET_DNS_ROOTS, type OwnedContractsEnv } from '../index/contracts/index.ts';
import { type BlockSource, createDevnetStoreSource, createIndexMetrics, createLiteSource } from '../index/index.ts';
import { checkpointBounds } from '../index/plan/checkpoints.ts';
import { runTail } from '../index/plan/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig } from '../lite/index.ts';
import { createQueue, type JobQueue, type Processor } from '../queue/index.ts';
import type { Command } from './command.ts';
import { createLog } from './log.ts';
import { checkPorts } from './ports.ts';
import { accessOptions, apiLogger, apiPort, apiSettings, listenOptions, startApi } from './serve.ts';

/** Where the devnet's liteserver and config endpoint listen. */
const DEVNET_HOST = '127.0.0.1';

export const upCommand: Command = {
  name: 'up',
  summary: 'Run everything on one process: devnet node + activity, tail indexing, API v2 and v3.',
  details:
    `Data lives in --data (env ${ENV_DATA_DIR}; default ./data): the chain in DIR/devnet, the embedded database\n` +
    'in DIR/pg (or DATABASE_URL), the queue in-process (or REDIS_URL). The APIs listen on --port (env PORT;\n' +
    'default 8080) and --host (env HOST; default 127.0.0.1): /api/v2, /api/v3, /healthz, /metrics. The devnet\n' +
    'liteserver listens on --lite-port (default 4924) and its global config on lite port + 1. A second run\n' +
    'continues the same chain and index. Stops cleanly on SIGINT/SIGTERM. Every port is checked before anything\n' +
    'starts: one in use exits 2 at once, with nothing written to --data.\n' +
    'Exit codes: 0 stopped by a signal, 1 failed, 2 bad usage (or a port in use), 75 retryable.',
  options: {
    data: { type: 'string', value: 'DIR', description: `data folder (env ${ENV_DATA_DIR}; default ./data)` },
    ...listenOptions,
    'lite-port': {
      type: 'string',
      value: 'PORT',
      description: `devnet liteserver port (default ${DEFAULT_LITE_PORT}; 0 = any free port)`,
    },
    'block-interval': { type: 'string', value: 'MS', description: 'devnet milliseconds between blocks (default 400)' },
    'no-activity': { type: 'boolean', description: 'do not run the traffic generator' },
    ...accessOptions,
  },
  async run({ values, positionals, out, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    apiSettings(values);
    const litePort = intOption(values, 'lite-port') ?? DEFAULT_LITE_PORT;
    if (litePort > 65534) throw new UsageError('--lite-port must be at most 65534 (the config listens on port + 1)');
    const blockIntervalMs = intOption(values, 'block-interval');
    const data = resolveDataDir({ flags: { data: str(values, 'data') }, env: process.env });
    // Every listener's port before any work: nothing is created in --data when one is taken (exit 2).
    await checkPorts([
      apiPort(values),
      { port: litePort, host: DEVNET_HOST, what: "the devnet's liteserver", change: '--lite-port' },
      {
        port: litePort === 0 ? 0 : litePort + 1,
        host: DEVNET_HOST,
        what: "the devnet's config endpoint (--lite-port + 1)",
        change: '--lite-port',
      },
    ]);
    const log = createLog(err, values.verbose === true ? 'debug' : 'info');
    const shutdown = onShutdownSignal(log);
    // Stops the tail on a signal and on any failure (an API that could not listen must not leave it running).
    const stopAll = new AbortController();
    shutdown.signal.addEventListener('abort', () => stopAll.abort(), { once: true });
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
    try {
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

      if (values['no-activity'] !== true) {
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
      const started = await startApi({ values, db, pool, metrics, logger: apiLogger(values.verbose === true) });
      api = started.api;
      out(`tongate up: devnet, indexer and APIs running (data in ${data})`);
      out(`  v2       ${started.url}/api/v2   (e.g. ${started.url}/api/v2/getMasterchainInfo)`);
      out(`  v3       ${started.url}/api/v3   (docs ${started.url}/api/v3/)`);
      out(`  health   ${started.url}/healthz   metrics ${started.url}/metrics`);
      out(
        `  devnet   liteserver ${info.host}:${info.litePort}, config ${info.globalConfigFile}, wallets ${info.walletsFile}`,
      );
      out(
        `  network  global id ${info.globalId} (v5r1 walletId.networkGlobalId), DNS root ${info.dnsRoot} (.ton); user wallets: role "user" in wallets.json`,
      );
      await new Promise<void>((resolve) => shutdown.signal.addEventListener('abort', () => resolve(), { once: true }));
      return 0;
    } catch (e) {
      err(`tongate up: ${firstLine(e)}`);
      return exitCodeFor(e);
    } finally {
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
      shutdown.dispose();
    }
  },
};
