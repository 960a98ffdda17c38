// `tongate work`: process index-mc-block jobs from the shared BullMQ queue until SIGINT/SIGTERM. Run as many
// as you like on any machines; the same processor (workers/index-mc-block.ts) runs in embedded `walk`.

import { defaultConcurrency, type Indexer, openIndexer, startProcessor } from '../app.ts';
import { EXIT_RETRYABLE, exitCodeFor, firstLine } from '../common/exit-codes.ts';
import { intOption, UsageError } from '../common/options.ts';
import { onShutdownSignal } from '../common/shutdown.ts';
import { cellHasherName } from '../ton/cell/index.ts';
import type { Command } from './command.ts';
import { indexerOptions, indexerSettings } from './indexer-options.ts';
import { createLog } from './log.ts';
import { checkQueueReachable } from './queue.ts';

export const workCommand: Command = {
  name: 'work',
  summary: 'Process index-mc-block jobs from the shared queue (REDIS_URL) until SIGINT/SIGTERM.',
  details:
    'Each job indexes one masterchain block with the shard blocks it commits and writes the rows and the\n' +
    'checkpoint in one transaction; a job whose worker died is handed to another after about --lock-ms.\n' +
    'On SIGINT/SIGTERM, active jobs finish first (a second signal, or 30 s, exits at once); while Redis is down\n' +
    'it stops at once. Redis going away while running is waited out (reconnecting with a backoff up to 5 s), and\n' +
    'logged once when it goes, once a minute while it stays away and once when it is back.\n' +
    'Exit codes: 0 stopped by a signal, 1 failed, 2 bad usage or configuration (no REDIS_URL),\n' +
    `${EXIT_RETRYABLE} a retryable failure (source, database or Redis unreachable at start; Redis within 5 s).`,
  options: {
    ...indexerOptions,
    concurrency: {
      type: 'string',
      value: 'N',
      description: 'jobs processed at once (default: 2 per decode thread, 1 with --decode-threads 0)',
    },
    'lock-ms': {
      type: 'string',
      value: 'MS',
      description: "how long an active job's lock lasts without renewal; a dead worker's job is retried after it",
      default: '30000',
    },
  },
  async run({ values, positionals, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const concurrencyFlag = intOption(values, 'concurrency', { min: 1 });
    const lockMs = intOption(values, 'lock-ms', { min: 1000 }) ?? 30_000;
    const log = createLog(err);
    const shutdown = onShutdownSignal(log);
    let ix: Indexer | undefined;
    try {
      // Redis unreachable at start: one line and 75 (a supervisor retries), not a worker waiting for it forever;
      // checked before the source, database and decoders open, so it takes seconds.
      await checkQueueReachable(values);
      ix = await openIndexer(
        indexerSettings(values, log, { applicationName: 'tongate-work', requireSharedQueue: true, lockMs }),
        log,
      );
      const concurrency = concurrencyFlag ?? defaultConcurrency(ix);
      log('info', 'Started worker', {
        ...ix.describe,
        concurrency,
        decodeThreads: ix.decodeThreads,
        cells: cellHasherName(),
        pid: process.pid,
      });
      const processor = startProcessor(ix, log, concurrency);
      if (!shutdown.signal.aborted) {
        await new Promise<void>((resolve) =>
          shutdown.signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      }
      // Active jobs finish first; while Redis is down the queue ends its connections instead of waiting for it.
      await processor.close();
      log('info', 'Stopped worker', {});
      return 0;
    } catch (e) {
      err(`tongate work: ${firstLine(e)}`);
      return exitCodeFor(e);
    } finally {
      await ix?.close();
      shutdown.dispose();
    }
  },
};
