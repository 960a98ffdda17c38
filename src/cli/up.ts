// `tongate up` (what `npm start` runs): the whole service on one process with nothing to configure: a
// devnet node in DIR/devnet with its traffic generator, tail indexing of that chain (read straight from
// the node's store, account code and data through its liteserver) into PGlite under DIR/pg or
// DATABASE_URL, through the in-process queue or REDIS_URL, and both APIs on http://HOST:PORT. Here: the
// options and the ports checked; src/app.ts's createUp starts and stops the parts.

import { createUp, DEVNET_HOST } from '../app.ts';
import { exitCodeFor, firstLine } from '../common/exit-codes.ts';
import { ENV_DATA_DIR, resolveDataDir } from '../common/index.ts';
import { intOption, str, UsageError } from '../common/options.ts';
import { onShutdownSignal } from '../common/shutdown.ts';
import { DEFAULT_LITE_PORT } from '../devnet/node/index.ts';
import type { Command } from './command.ts';
import { createLog } from './log.ts';
import { checkPorts } from './ports.ts';
import { accessOptions, apiLogger, apiPort, apiSettings, listenOptions } from './serve.ts';

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
    const up = createUp(
      { dataDir: data, litePort, blockIntervalMs, activity: values['no-activity'] !== true, api: apiSettings(values) },
      { log, logger: apiLogger(values.verbose === true), signal: shutdown.signal },
    );
    try {
      const { url, devnet: info } = await up.start();
      out(`tongate up: devnet, indexer and APIs running (data in ${data})`);
      out(`  v2       ${url}/api/v2   (e.g. ${url}/api/v2/getMasterchainInfo)`);
      out(`  v3       ${url}/api/v3   (docs ${url}/api/v3/)`);
      out(`  health   ${url}/healthz   metrics ${url}/metrics`);
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
      await up.close();
      shutdown.dispose();
    }
  },
};
