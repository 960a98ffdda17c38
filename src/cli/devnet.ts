// `tongate devnet`: run the local devnet node until SIGINT/SIGTERM; `tongate devnet faucet`: send TON from a
// genesis wallet to any address through the running node's liteserver; `activity` and `export-node-db` live in
// their own files.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Address, fromNano, toNano } from '@ton/core';
import { EXIT_FAILED, EXIT_RETRYABLE, EXIT_USAGE } from '../common/exit-codes.ts';
import { ENV_DATA_DIR, isTongateError, resolveDataDir } from '../common/index.ts';
import { intOption, UsageError } from '../common/options.ts';
import { startActivity } from '../devnet/activity/index.ts';
import {
  DEVNET_USER_WALLETS_PER_VERSION,
  DEVNET_WALLET_VERSIONS,
  type DevnetWalletVersion,
  MAX_DEVNET_SHARDS,
} from '../devnet/genesis/index.ts';
import {
  createDevnetNode,
  DEFAULT_BLOCK_INTERVAL_MS,
  DEFAULT_LITE_PORT,
  DEFAULT_SEED,
  DEFAULT_SHARDS,
  GLOBAL_CONFIG_FILE,
  runFaucet,
  WALLETS_FILE,
  type WalletsFileEntry,
} from '../devnet/node/index.ts';
import { createLitePool, type GlobalConfig, parseGlobalConfig } from '../lite/index.ts';
import type { Command } from './command.ts';
import { activityCommand } from './devnet-activity.ts';
import { exportNodeDbCommand } from './devnet-export.ts';
import { lineLog } from './line-log.ts';
import { checkPorts } from './ports.ts';

/** Exit codes (style guide §6.5): 1 a failure, 75 a failure worth retrying later (e.g. the node is not up yet). */

function dataDirOf(values: Record<string, unknown>): string {
  return resolveDataDir({ flags: { data: values.data as string | undefined }, env: process.env });
}

const DATA_OPTION = {
  type: 'string' as const,
  value: 'DIR',
  description: `data folder; the devnet lives in DIR/devnet (env ${ENV_DATA_DIR}; default ./data)`,
};

export const faucetCommand: Command = {
  name: 'faucet',
  summary: 'Send TON from a genesis wallet to an address, through the running devnet node.',
  args: '<address> <amount>',
  details:
    'The amount is in TON (up to 9 decimals, e.g. 2.5). The genesis wallets and their mnemonics come from\n' +
    'DIR/devnet/wallets.json, the node from DIR/devnet/global.config.json (or --config). The transfer goes through\n' +
    "the liteserver protocol only: the wallet's seqno by runSmcMethod, a signed transfer by sendMessage; then the\n" +
    "command waits until the recipient's balance moves. Exit codes: 0 sent and arrived, 1 failed, 2 bad usage,\n" +
    '75 the node is not running or did not confirm in time (worth retrying).',
  options: {
    data: DATA_OPTION,
    config: {
      type: 'string',
      value: 'FILE|URL',
      description: 'global config of the node (default DIR/devnet/global.config.json)',
    },
    from: {
      type: 'string',
      value: 'VERSION',
      description: `paying wallet: ${DEVNET_WALLET_VERSIONS.join(' | ')} (default: the first that holds enough)`,
    },
    timeout: {
      type: 'string',
      value: 'SECONDS',
      description: "how long to wait for the recipient's balance",
      default: '60',
    },
  },
  async run({ values, positionals, out, err }) {
    if (positionals.length !== 2) throw new UsageError('expected <address> <amount>');
    const [addrText, amountText] = positionals as [string, string];
    let to: Address;
    try {
      to = Address.parse(addrText);
    } catch {
      throw new UsageError(`'${addrText}' is not a TON address (raw 0:<64 hex> or user-friendly base64)`);
    }
    if (!/^\d+(\.\d{1,9})?$/.test(amountText) || toNano(amountText) <= 0n) {
      throw new UsageError(`the amount must be a positive number of TON with at most 9 decimals; got '${amountText}'`);
    }
    const amount = toNano(amountText);
    const from = values.from as string | undefined;
    if (from !== undefined && !(DEVNET_WALLET_VERSIONS as readonly string[]).includes(from)) {
      throw new UsageError(`--from must be one of ${DEVNET_WALLET_VERSIONS.join(', ')}; got '${from}'`);
    }
    const timeoutS = intOption(values, 'timeout', { min: 1, max: 3600, interval: true }) ?? 60;
    const devnetDir = join(dataDirOf(values), 'devnet');
    const configSource = (values.config as string | undefined) ?? join(devnetDir, GLOBAL_CONFIG_FILE);

    let wallets: WalletsFileEntry[];
    let config: GlobalConfig;
    try {
      wallets = JSON.parse(await readFile(join(devnetDir, WALLETS_FILE), 'utf8')) as WalletsFileEntry[];
      config = /^https?:\/\//i.test(configSource)
        ? parseGlobalConfig(await (await fetch(configSource)).text(), configSource)
        : parseGlobalConfig(await readFile(configSource, 'utf8'), configSource);
    } catch (e) {
      err(
        `tongate devnet faucet: no devnet in ${devnetDir} (${(e as Error).message.split('\n')[0]}); start one with 'tongate devnet'`,
      );
      return EXIT_FAILED;
    }
    const server = config.liteservers[0]!;
    const pool = createLitePool({ servers: config.liteservers, connectTimeoutMs: 3000, maxAttempts: 1 });
    try {
      try {
        await pool.ready({ timeoutMs: 5000 });
      } catch {
        err(
          `tongate devnet faucet: the devnet node at ${server.host}:${server.port} is not running (no liteserver answered within 5 s)`,
        );
        return EXIT_RETRYABLE;
      }
      const r = await runFaucet({
        pool,
        wallets,
        to,
        amount,
        from: from as DevnetWalletVersion | undefined,
        timeoutMs: timeoutS * 1000,
      });
      out(
        `Sent ${fromNano(r.amount)} TON from the ${r.version} wallet ${r.from.toString({ bounceable: false, testOnly: true })} (seqno ${r.seqno}) to ${addrText}`,
      );
      out(
        `Balance ${fromNano(r.balanceBefore)} -> ${fromNano(r.balanceAfter)} TON at masterchain block ${r.mcSeqno}; message hash ${r.messageHash.toString('hex')}`,
      );
      return 0;
    } catch (e) {
      err(`tongate devnet faucet: ${(e as Error).message}`);
      return isTongateError(e) && e.retryable ? EXIT_RETRYABLE : EXIT_FAILED;
    } finally {
      await pool.close();
    }
  },
};

export const devnetCommand: Command = {
  name: 'devnet',
  summary: 'Run a local TON devnet node (real blocks, liteserver protocol), use its faucet, or export it.',
  details:
    'Without a command, runs the node until SIGINT/SIGTERM: masterchain plus a basechain split into --shards\n' +
    'shards, a step (shard blocks, then a masterchain block) every --block-interval ms (0: only when external\n' +
    'messages wait), a liteserver on --lite-port, and GET /global.config.json and /healthz on --http-port.\n' +
    'The first run creates the genesis from --seed; later runs continue the chain in DIR/devnet. Files there:\n' +
    'wallets.json (funded genesis wallets with mnemonics; addresses non-bounceable, test-only), global.config.json\n' +
    '(a standard TON global config for any liteserver client). Logs go to stderr, a line per 100 masterchain\n' +
    'blocks. Both ports are checked before anything starts or is written. Exit codes: 0 stopped cleanly, 1 failed,\n' +
    '2 bad usage or a port in use, 75 the data folder is in use by another node.',
  options: {
    data: DATA_OPTION,
    shards: {
      type: 'string',
      value: 'N',
      description: `basechain shards of a new devnet, 1..${MAX_DEVNET_SHARDS} (default: ${DEFAULT_SHARDS}, or what DIR/devnet was created with)`,
    },
    'block-interval': {
      type: 'string',
      value: 'MS',
      description: 'milliseconds between blocks (0 = on demand)',
      default: String(DEFAULT_BLOCK_INTERVAL_MS),
    },
    'shard-lead': {
      type: 'string',
      value: 'MS',
      description:
        'shard blocks show this long before the masterchain block that commits them (streaming `confirmed`; default a quarter of --block-interval)',
    },
    'lite-port': {
      type: 'string',
      value: 'PORT',
      description: 'liteserver TCP port (0 = any free port)',
      default: String(DEFAULT_LITE_PORT),
    },
    'http-port': {
      type: 'string',
      value: 'PORT',
      description: 'HTTP port for the global config and health (default: lite port + 1)',
    },
    host: { type: 'string', value: 'IPV4', description: 'listen address', default: '127.0.0.1' },
    seed: {
      type: 'string',
      value: 'TEXT',
      description: `genesis seed of a new devnet: keys and wallets derive from it (default: ${DEFAULT_SEED}, or what DIR/devnet was created with)`,
    },
    activity: { type: 'boolean', description: 'also run the traffic generator against the node' },
    verbose: { type: 'boolean', short: 'v', description: 'log debug lines too (connections, refused messages)' },
  },
  subcommands: [faucetCommand, activityCommand, exportNodeDbCommand],
  async run({ values, out, err }) {
    const shards = intOption(values, 'shards', { min: 1, max: MAX_DEVNET_SHARDS, interval: true });
    const blockIntervalMs = intOption(values, 'block-interval', { min: 0, max: 3_600_000, interval: true });
    const shardLeadMs = intOption(values, 'shard-lead', { min: 0, max: 60_000, interval: true });
    const litePort = intOption(values, 'lite-port', { min: 0, max: 65535, interval: true });
    const httpPort = intOption(values, 'http-port', { min: 0, max: 65535, interval: true });
    const host = values.host as string;
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) throw new UsageError(`--host must be an IPv4 address; got '${host}'`);
    // Before the genesis or anything in --data: a port in use is bad usage (exit 2), said at once.
    const lite = litePort ?? DEFAULT_LITE_PORT;
    await checkPorts([
      { port: lite, host, what: 'the liteserver', change: '--lite-port', hostChange: '--host' },
      {
        port: httpPort ?? (lite === 0 ? 0 : lite + 1),
        host,
        what: `the config and health endpoint${httpPort === undefined ? ' (--lite-port + 1)' : ''}`,
        change: httpPort === undefined ? '--http-port or --lite-port' : '--http-port',
        hostChange: '--host',
      },
    ]);
    const log = lineLog(values.verbose === true, err);
    const node = createDevnetNode({
      dataDir: dataDirOf(values),
      // Unset flags take what an existing devnet was created with; set ones must match it.
      shards,
      seed: values.seed as string | undefined,
      blockIntervalMs,
      shardLeadMs,
      litePort,
      httpPort,
      host,
      log,
      userWalletsPerVersion: DEVNET_USER_WALLETS_PER_VERSION,
    });
    let info: Awaited<ReturnType<typeof node.start>>;
    try {
      info = await node.start();
    } catch (e) {
      if (/EADDRINUSE/.test(`${(e as { code?: string }).code} ${(e as Error).message}`)) {
        err(
          `tongate devnet: a port is already in use (${(e as Error).message}); pick others with --lite-port/--http-port`,
        );
        return EXIT_USAGE;
      }
      err(`tongate devnet: failed to start: ${(e as Error).message}`);
      return isTongateError(e) && e.retryable ? EXIT_RETRYABLE : EXIT_FAILED;
    }
    out(`devnet running: masterchain block ${info.head.seqno}, ${info.shardLayout.length} basechain shards`);
    out(`  liteserver   ${info.host}:${info.litePort}  key ${info.liteServerPublicKey.toString('base64')}`);
    out(`  config       http://${info.host}:${info.httpPort}/global.config.json  (${info.globalConfigFile})`);
    out(`  wallets      ${info.walletsFile}  (${info.userWallets} with "role": "user", never used by the activity)`);
    out(`  network      global id ${info.globalId} (v5r1 walletId.networkGlobalId), DNS root ${info.dnsRoot} (.ton)`);

    const stopActivity = new AbortController();
    let activity: Promise<unknown> | undefined;
    if (values.activity) {
      // The traffic generator is a liteserver client of this node, exactly as `tongate devnet activity` is.
      activity = startActivity({
        liteConfig: info.globalConfigFile,
        wallets: info.walletsFile,
        signal: stopActivity.signal,
        log: (level, msg, fields) => log(level === 'error' ? 'warn' : level, msg, fields),
      })
        .then((h) => h.done)
        .catch((e: unknown) => log('warn', 'Stopped activity', { error: (e as Error).message }));
    }

    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    // A terminal's Ctrl-C reaches every process of the group (npm and node alike), and npm forwards it again,
    // so one keypress often arrives twice: only a signal well after the first means "stop now".
    const firstAt = Date.now();
    const force = () => {
      if (Date.now() - firstAt < 2000) {
        process.once('SIGINT', force);
        process.once('SIGTERM', force);
        return;
      }
      err('tongate devnet: second signal, exiting without a clean stop');
      process.exit(130);
    };
    process.once('SIGINT', force);
    process.once('SIGTERM', force);
    log('info', 'Stopping devnet', { signal });
    stopActivity.abort();
    await activity;
    await node.stop();
    process.off('SIGINT', force);
    process.off('SIGTERM', force);
    return 0;
  },
};
