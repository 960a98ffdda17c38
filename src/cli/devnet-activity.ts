// `tongate devnet activity`: realistic traffic against a running devnet (or any network whose funded wallets you
// hold), as a liteserver client: TON transfers with comments, a bounce, a refused message, a jetton and an NFT
// collection with their life cycles. Runs until SIGINT/SIGTERM or --steps.

import { join } from 'node:path';
import { EXIT_FAILED, EXIT_RETRYABLE } from '../common/exit-codes.ts';
import { ENV_DATA_DIR, isTongateError, resolveDataDir } from '../common/index.ts';
import { intOption, UsageError } from '../common/options.ts';
import { startActivity } from '../devnet/activity/index.ts';
import { createLitePool, type GlobalConfig, loadGlobalConfig } from '../lite/index.ts';
import type { Command } from './command.ts';
import { lineLog } from './line-log.ts';

/** The node is not up (yet): worth retrying (style guide §6.5). */

export const activityCommand: Command = {
  name: 'activity',
  summary: 'Generate realistic traffic on a running devnet through its liteserver.',
  details:
    'Step by step, deterministic in --seed: TON transfers with text comments (between the genesis wallets and fresh\n' +
    'addresses), a bounced transfer, a message a contract refuses, a jetton (deployed, minted, transferred with a\n' +
    'forward payload, burned) and an NFT collection (deployed, items minted and transferred). Each step waits for\n' +
    'its effects; a failed step is logged and the next one runs. The wallets come from DIR/devnet/wallets.json,\n' +
    'the node from DIR/devnet/global.config.json. Exit codes: 0 done (or stopped by SIGINT/SIGTERM) with no failed\n' +
    'step, 1 some step failed or the inputs are unusable, 2 bad usage, 75 the node is not running.',
  options: {
    'lite-config': {
      type: 'string',
      value: 'FILE|URL',
      description: 'global config of the node (default DIR/devnet/global.config.json)',
    },
    wallets: { type: 'string', value: 'FILE', description: 'funded wallets (default DIR/devnet/wallets.json)' },
    data: {
      type: 'string',
      value: 'DIR',
      description: `data folder; the devnet lives in DIR/devnet (env ${ENV_DATA_DIR}; default ./data)`,
    },
    steps: { type: 'string', value: 'N', description: 'stop after N steps (default: run until stopped)' },
    interval: { type: 'string', value: 'MS', description: 'pause between steps in milliseconds', default: '1000' },
    seed: { type: 'string', value: 'S', description: 'seed of every choice the activity makes', default: 'tongate' },
    'step-timeout': {
      type: 'string',
      value: 'SECONDS',
      description: "longest wait for one step's effects",
      default: '60',
    },
    verbose: { type: 'boolean', short: 'v', description: 'also log debug lines' },
  },
  async run({ values, positionals, out, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const steps = intOption(values, 'steps', { min: 1, max: 1_000_000_000, interval: true });
    const intervalMs = intOption(values, 'interval', { min: 0, max: 86_400_000, interval: true }) ?? 1000;
    const stepTimeoutS = intOption(values, 'step-timeout', { min: 1, max: 3600, interval: true }) ?? 60;
    const seed = values.seed as string;
    if (seed === '') throw new UsageError('--seed must not be empty');
    const devnetDir = join(
      resolveDataDir({ flags: { data: values.data as string | undefined }, env: process.env }),
      'devnet',
    );
    const configSource = (values['lite-config'] as string | undefined) ?? join(devnetDir, 'global.config.json');
    const walletsFile = (values.wallets as string | undefined) ?? join(devnetDir, 'wallets.json');

    let config: GlobalConfig;
    try {
      config = await loadGlobalConfig(configSource);
    } catch (e) {
      err(`tongate devnet activity: ${(e as Error).message.split('\n')[0]}; start a devnet with 'tongate devnet'`);
      return EXIT_FAILED;
    }
    const server = config.liteservers[0]!;
    const pool = createLitePool({ servers: config.liteservers, connectTimeoutMs: 3000 });
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    try {
      try {
        await pool.ready({ timeoutMs: 5000 });
      } catch {
        err(
          `tongate devnet activity: the node at ${server.host}:${server.port} is not running (no liteserver answered within 5 s)`,
        );
        return EXIT_RETRYABLE;
      }
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      let handle: Awaited<ReturnType<typeof startActivity>>;
      try {
        handle = await startActivity({
          pool,
          wallets: walletsFile,
          seed,
          steps,
          intervalMs,
          stepTimeoutMs: stepTimeoutS * 1000,
          signal: stop.signal,
          log: lineLog(values.verbose === true, err),
        });
      } catch (e) {
        err(`tongate devnet activity: ${isTongateError(e) ? e.message : String(e)}`);
        return EXIT_FAILED;
      }
      const c = await handle.done;
      out(`Ran ${c.steps} activity steps: ${c.ok} ok, ${c.failed} failed, ${c.skipped} skipped`);
      return c.failed > 0 ? EXIT_FAILED : 0;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await pool.close();
    }
  },
};
