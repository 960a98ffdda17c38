// `tongate walk backfill|tail|gaps`: plan index-mc-block jobs (one per masterchain block) onto the queue.
// Without REDIS_URL the queue is in-process and this process also runs the processor (embedded mode);
// with it, `tongate work` processes (any number, anywhere) do the work, or --work here as well.

import { defaultConcurrency, type Indexer, openIndexer, startProcessor } from '../app.ts';
import { EXIT_FAILED, EXIT_RETRYABLE, exitCodeFor, firstLine } from '../common/exit-codes.ts';
import { ConfigError, type DatabaseConfig, isTongateError, resolveDatabaseConfig } from '../common/index.ts';
import type { Log } from '../common/logger.ts';
import { intOption, str, UsageError, type Values } from '../common/options.ts';
import { onShutdownSignal } from '../common/shutdown.ts';
import { classifyMcBlock } from '../index/actions/index.ts';
import {
  bulkBackfill,
  CLASSIFY_MC_BLOCK,
  createBackfillWindows,
  createWorkerWatch,
  findGaps,
  INDEX_MC_BLOCK,
  pendingBulkIndexes,
  rangeProgress,
  requeueGaps,
  runTail,
  type WatchedCounts,
} from '../index/plan/index.ts';
import { assembleTraces } from '../index/traces/index.ts';
import type { Processor } from '../queue/index.ts';
import type { Command, OptionSpec } from './command.ts';
import { indexerOptions, indexerSettings } from './indexer-options.ts';
import { createLog } from './log.ts';
import { createProgressView } from './progress.ts';
import { checkQueueReachable } from './queue.ts'; // issue 24

const workOptions: Record<string, OptionSpec> = {
  work: {
    type: 'boolean',
    description: 'also process jobs in this process (always on with the in-process queue, i.e. without REDIS_URL)',
  },
  concurrency: {
    type: 'string',
    value: 'N',
    description: 'jobs processed at once in this process (default: 2 per decode thread, 1 with --decode-threads 0)',
  },
};

/** How long backfill waits through a Redis or database outage before exiting with 75. */
const OUTAGE_GRACE_MS = 120_000;

const EXIT_NOTE =
  'Exit codes: 0 done (or stopped by SIGINT/SIGTERM), 1 failed, 2 bad usage or configuration,\n' +
  `${EXIT_RETRYABLE} a retryable failure (source, database or Redis unreachable): run it again.`;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** Opens everything, starts an in-process processor when this process must work, runs `body`, closes all. */
async function withIndexer(
  values: Values,
  err: (l: string) => void,
  name: string,
  body: (ix: Indexer, log: Log, signal: AbortSignal) => Promise<number>,
  opts: { requireSharedQueue?: boolean } = {},
): Promise<number> {
  const log = createLog(err);
  const concurrencyFlag = intOption(values, 'concurrency', { min: 1 });
  let ix: Indexer | undefined;
  let processor: Processor | undefined;
  const shutdown = onShutdownSignal(log);
  try {
    await checkQueueReachable(values); // issue 24: Redis unreachable at start, one line and exit 75 within seconds
    ix = await openIndexer(indexerSettings(values, log, { applicationName: 'tongate-walk', ...opts }), log);
    log('info', 'Opened indexer', { ...ix.describe });
    if (ix.queueConfig.kind === 'local' || values.work === true) {
      processor = startProcessor(ix, log, concurrencyFlag ?? defaultConcurrency(ix), 'debug');
    }
    return await body(ix, log, shutdown.signal);
  } catch (e) {
    err(`tongate walk ${name}: ${firstLine(e)}`);
    return exitCodeFor(e);
  } finally {
    await processor?.close().catch(() => {});
    await ix?.close();
    shutdown.dispose();
  }
}

/** --from, refusing 0: the zero state is no block, so no job could ever index it. */
function fromOption(values: Values): number | undefined {
  const from = intOption(values, 'from');
  if (from === 0) {
    throw new UsageError(
      '--from 0: masterchain block 0 is the zero state, not a block (nothing to index there); start at --from 1',
    );
  }
  return from;
}

function rangeOf(values: Values): { from: number; to: number } {
  const from = fromOption(values);
  const to = intOption(values, 'to');
  if (from === undefined || to === undefined) throw new UsageError('expected --from N and --to M (masterchain seqnos)');
  if (to < from) throw new UsageError(`--to (${to}) is below --from (${from})`);
  return { from, to };
}

/** How long jobs may wait with no worker taking any before walk says how to start one. */
const NO_WORKER_MS = 5000;

/** Whether jobs this process plans are worked on by other processes only (so a missing worker is worth a hint). */
function othersWork(ix: Indexer, values: Values): boolean {
  return ix.queueConfig.kind === 'bullmq' && values.work !== true;
}

/** The once-printed line when jobs wait and no worker takes them. */
function noWorkerHint(command: string, values: Values, c: WatchedCounts): string {
  const source =
    str(values, 'lite-config') !== undefined
      ? `--lite-config ${str(values, 'lite-config')}`
      : str(values, 'devnet-store') !== undefined
        ? `--devnet-store ${str(values, 'devnet-store')}`
        : `--node-db ${str(values, 'node-db')}`;
  const prefix = str(values, 'queue-prefix');
  const prefixArg = prefix !== undefined && prefix !== 'tongate' ? ` --queue-prefix ${prefix}` : '';
  return (
    `tongate walk ${command}: no worker has taken a job for ${NO_WORKER_MS / 1000} s (${c.waiting} waiting, none active): ` +
    `start one with 'tongate work ${source}${prefixArg}' (same database and Redis; any number, anywhere), ` +
    'or run this command with --work to process jobs in this process too'
  );
}

const backfillCommand: Command = {
  name: 'backfill',
  summary: 'Index masterchain blocks --from N --to M (inclusive) and wait until every one is committed.',
  details:
    'Enqueues one job (mc-<seqno>) per masterchain block that has no checkpoint yet, a window at a time and never\n' +
    "past the source's head; re-running a range adds nothing twice. With --to beyond the head it says so, indexes\n" +
    'up to the head and ends there (0), or with --follow waits for the blocks up to --to as they appear.\n' +
    '--from 0 is refused (masterchain block 0 is the zero state, not a block).\n' +
    'Shows a progress bar on a TTY (blocks, tx/s, ETA), else logs progress every 5 s. With a shared queue and no\n' +
    "worker taking jobs it says how to start one ('tongate work', or --work here).\n" +
    'Jobs that failed for good are reported and end the command with 1; blocks whose job vanished without a\n' +
    'checkpoint are queued again.\n' +
    '\n' +
    '--bulk (PostgreSQL only; refused on PGlite with 2) is for loading a long history: it records the secondary\n' +
    'indexes of the indexing tables in bulk_load_indexes and drops them (primary keys, unique indexes and the few\n' +
    'indexes the writer reads by stay), runs the backfill above, then builds each recorded index once\n' +
    '(CREATE INDEX CONCURRENTLY, logging each with its duration) and clears the record. Tail, workers and the APIs\n' +
    'keep working meanwhile: lookups by key and by the kept indexes stay fast, but filters the dropped indexes\n' +
    "served scan their tables (on large ones past v3's 3 s query timeout) until the rebuild ends. Killed or\n" +
    'stopped at any point, the same command run again finishes the load and restores exactly the recorded\n' +
    "indexes ('tongate db indexes' shows what is pending, 'tongate db indexes --restore' builds them without\n" +
    'loading). Finish a bulk load before a tongate upgrade.\n' +
    `${EXIT_NOTE}`,
  options: {
    from: { type: 'string', value: 'N', description: 'first masterchain seqno (>= 1)' },
    to: { type: 'string', value: 'M', description: "last masterchain seqno (beyond the source's head: see --follow)" },
    follow: {
      type: 'boolean',
      description:
        "with --to beyond the source's head: wait for the blocks up to --to as they appear (default: stop at the head)",
    },
    bulk: {
      type: 'boolean',
      description:
        'drop the secondary indexes of the indexing tables for the load and build them once at the end (PostgreSQL)',
    },
    ...indexerOptions,
    ...workOptions,
    'no-progress': { type: 'boolean', description: 'log progress lines instead of drawing a bar' },
  },
  async run({ values, positionals, out, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const { from, to } = rangeOf(values);
    const follow = values.follow === true;
    const bulk = values.bulk === true ? bulkDatabase(values) : undefined;
    return withIndexer(values, err, 'backfill', async (ix, log, signal) => {
      const load = () => backfillRange(ix, log, signal, { from, to, follow, values, out, err });
      if (bulk === undefined) {
        const left = await pendingBulkIndexes(ix.db);
        if (left.length > 0) {
          log('warn', 'Found secondary indexes dropped by an unfinished bulk load', {
            indexes: left.length,
            hint: "run 'tongate walk backfill --bulk' again, or 'tongate db indexes --restore'",
          });
        }
        return load();
      }
      const r = await bulkBackfill({
        database: bulk,
        log,
        signal,
        load,
        restoreAfter: (code) => code === 0 && !signal.aborted,
      });
      if (r.pending > 0) {
        err(
          `tongate walk backfill: ${r.pending} secondary indexes stay dropped; run the same command again to finish, or 'tongate db indexes --restore' to build them now`,
        );
        return r.result === undefined || r.result === 0 ? EXIT_RETRYABLE : r.result;
      }
      if (r.restore) out(`Rebuilt ${r.restore.built} secondary indexes in ${r.seconds.restore} s.`);
      return r.result ?? EXIT_RETRYABLE;
    });
  },
};

/** The database of a --bulk backfill, for its own control connections: PostgreSQL only. */
function bulkDatabase(values: Values): DatabaseConfig {
  let cfg: DatabaseConfig;
  try {
    cfg = resolveDatabaseConfig({
      flags: { databaseUrl: str(values, 'database-url'), data: str(values, 'data') },
      env: process.env,
      applicationName: 'tongate-walk',
    });
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  if (cfg.kind !== 'postgres') {
    throw new UsageError(
      '--bulk needs PostgreSQL (DATABASE_URL or --database-url): the embedded PGlite database is one connection, where index builds would stop tail and the APIs; run the backfill without --bulk',
    );
  }
  return cfg;
}

/**
 * The ordinary backfill of [from, to]: plan window by window (never past the source's head), show progress until
 * every block up to the target (--to, or the head read at start when --to is beyond it and not --follow) is
 * committed. Returns the exit code.
 */
async function backfillRange(
  ix: Indexer,
  log: Log,
  signal: AbortSignal,
  {
    from,
    to,
    follow,
    values,
    out,
    err,
  }: {
    from: number;
    to: number;
    follow: boolean;
    values: Values;
    out: (l: string) => void;
    err: (l: string) => void;
  },
): Promise<number> {
  let head = await ix.source.head();
  log('info', 'Read the masterchain head', { head, from, to, follow });
  const target = follow ? to : Math.min(to, head);
  if (to > head) {
    err(
      follow
        ? `tongate walk backfill: the source's masterchain head is ${head}, below --to ${to}: indexing up to it, then each block up to ${to} as it appears (--follow)`
        : `tongate walk backfill: the source's masterchain head is ${head}, below --to ${to}: indexing ${from}..${head} and stopping there (--follow waits for blocks up to ${to})`,
    );
  }
  if (target < from) {
    out(`Nothing to index: the source's masterchain head is ${head}, below --from ${from}.`);
    return 0;
  }
  const total = target - from + 1;
  const windows = createBackfillWindows({ queue: ix.queue, db: ix.db, from, to: target });
  const tty = process.stderr.isTTY === true && values['no-progress'] !== true;
  const view = createProgressView({
    total,
    tty,
    write: (c) => process.stderr.write(c),
    log: (msg, f) => log('info', msg, f),
  });
  const watch = othersWork(ix, values) ? createWorkerWatch({ afterMs: NO_WORKER_MS }) : undefined;
  let loggedPlan = false;
  let waitingForHead = false;
  let lostRounds = 0;
  let outageSince: number | undefined;
  for (;;) {
    try {
      const p = await rangeProgress(ix.db, from, target);
      if (p.blocks >= total) {
        // The last jobs still assemble traces and queue their classification: let them finish.
        await ix.queue.whenIdle(INDEX_MC_BLOCK, { signal });
        await ix.queue.whenIdle(CLASSIFY_MC_BLOCK, { signal });
        // Jobs lost with the queue (a Redis restart) may have left assembly or classification behind: finish
        // both here (each is a no-op when the workers did it).
        await assembleTraces(ix.db);
        await classifyMcBlock(target, { db: ix.db, log });
        view.done(p);
        out(`Indexed masterchain blocks ${from}..${target}: ${p.blocks} blocks, ${p.transactions} transactions.`);
        return 0;
      }
      view.update(p);
      if (signal.aborted) {
        err(`tongate walk backfill: stopped with ${total - p.blocks} blocks left; run it again to continue`);
        return EXIT_RETRYABLE;
      }
      if (follow && windows.plannedThrough < target) head = Math.max(head, await ix.source.head());
      const planned = await windows.extend(head);
      if (!loggedPlan && windows.plannedThrough >= from) {
        loggedPlan = true;
        log('info', 'Planned backfill', { ...windows.planned, target, head });
      } else if (planned) {
        log('debug', 'Planned backfill window', { ...planned, head });
      }
      // --follow: one line when it starts waiting for the source, one when the source reached --to.
      const waiting = windows.plannedThrough < target && windows.plannedThrough >= head;
      if (waiting !== waitingForHead) {
        waitingForHead = waiting;
        if (waiting) log('info', 'Waiting for the source to produce blocks', { head, to: target });
        else log('info', 'Saw the source produce the blocks it waited for', { head, to: target });
      }
      const c = await ix.queue.counts(INDEX_MC_BLOCK);
      if (watch?.(c, p.blocks)) {
        if (tty) process.stderr.write('\n');
        err(noWorkerHint('backfill', values, c));
      }
      if (c.waiting + c.active + c.delayed === 0 && windows.plannedThrough >= from) {
        const plannedTo = windows.plannedThrough;
        const gaps = await findGaps(ix.db, from, plannedTo);
        const states = await Promise.all(gaps.slice(0, 1000).map((s) => ix.queue.getState(INDEX_MC_BLOCK, `mc-${s}`)));
        const failed = gaps.filter((_, i) => states[i] === 'failed');
        if (failed.length > 0) {
          for (const s of failed.slice(0, 5)) {
            const reason = await ix.queue.failedReason(INDEX_MC_BLOCK, `mc-${s}`);
            err(`tongate walk backfill: masterchain block ${s} failed: ${reason ?? 'unknown reason'}`);
          }
          err(
            `tongate walk backfill: ${failed.length} blocks failed; 'tongate walk gaps' or a re-run queues them again`,
          );
          return EXIT_FAILED;
        }
        if (gaps.length > 0 && states.every((s) => s === 'unknown' || s === 'completed')) {
          lostRounds += 1;
          if (lostRounds > 3) {
            err(`tongate walk backfill: ${gaps.length} blocks keep finishing without a checkpoint (first ${gaps[0]})`);
            return EXIT_FAILED;
          }
          const r = await requeueGaps({ queue: ix.queue, db: ix.db, from, to: plannedTo });
          log('warn', 'Re-queued gaps', { requeued: r.requeued, gaps: r.gaps.slice(0, 20) });
        }
      }
      outageSince = undefined;
    } catch (e) {
      // Redis or the database restarting under us: wait for them (the workers do too) rather than give up,
      // for up to OUTAGE_GRACE_MS; the jobs and checkpoints make every round safe to repeat.
      if (!isTongateError(e) || !e.retryable) throw e;
      outageSince ??= Date.now();
      if (Date.now() - outageSince > OUTAGE_GRACE_MS) throw e;
      log('warn', 'Lost the queue or database, retrying', { error: firstLine(e) });
    }
    await sleep(500, signal);
  }
}

const tailCommand: Command = {
  name: 'tail',
  summary: "Follow the source's masterchain head, enqueueing each new block in order; logs the lag.",
  details:
    'Starts at --from, else at the first masterchain block not indexed after the contiguous indexed blocks\n' +
    "(from where trace assembly stands, e.g. after an earlier backfill), else at the source's head; queues every\n" +
    'block from there to the head, a window at a time, then follows the head. Runs until SIGINT or SIGTERM,\n' +
    're-queueing gaps behind the head now and then. Logs a line per state change (catching up, following,\n' +
    "behind), and with a shared queue and no worker taking jobs says how to start one ('tongate work').\n" +
    `${EXIT_NOTE}`,
  options: {
    from: { type: 'string', value: 'N', description: 'first masterchain seqno to index' },
    'poll-ms': {
      type: 'string',
      value: 'MS',
      description: 'how often to ask the source for its head',
      default: '1000',
    },
    ...indexerOptions,
    ...workOptions,
  },
  async run({ values, positionals, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const from = fromOption(values);
    const pollMs = intOption(values, 'poll-ms', { min: 10 }) ?? 1000;
    return withIndexer(values, err, 'tail', async (ix, log, signal) => {
      await runTail({
        queue: ix.queue,
        db: ix.db,
        source: ix.source,
        pollMs,
        signal,
        log,
        ...(from === undefined ? {} : { from }),
        ...(othersWork(ix, values)
          ? { onNoWorker: (c: WatchedCounts) => err(noWorkerHint('tail', values, c)), noWorkerMs: NO_WORKER_MS }
          : {}),
      });
      return 0;
    });
  },
};

const gapsCommand: Command = {
  name: 'gaps',
  summary: 'Find masterchain blocks without a checkpoint in --from..--to and queue them again.',
  details:
    "Without a range, checks between the lowest and highest indexed block; never past the source's head.\n" +
    "Does not wait for the jobs, so it needs the shared queue (REDIS_URL); in embedded mode 'walk backfill'\n" +
    `repairs gaps itself, and a running 'walk tail' repairs those behind the head.\n${EXIT_NOTE}`,
  options: {
    from: { type: 'string', value: 'N', description: 'first masterchain seqno' },
    to: { type: 'string', value: 'M', description: 'last masterchain seqno' },
    ...indexerOptions,
  },
  async run({ values, positionals, out, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const from = fromOption(values);
    const to = intOption(values, 'to');
    if ((from === undefined) !== (to === undefined)) throw new UsageError('give both --from and --to, or neither');
    if (from !== undefined && to !== undefined && to < from) {
      throw new UsageError(`--to (${to}) is below --from (${from})`);
    }
    return withIndexer(
      { ...values, work: false },
      err,
      'gaps',
      async (ix) => {
        let upTo = to;
        if (upTo !== undefined) {
          // A block past the head has no checkpoint because it does not exist yet: not a gap to queue.
          const head = await ix.source.head();
          if (upTo > head) {
            err(`tongate walk gaps: the source's masterchain head is ${head}, below --to ${upTo}: checking up to it`);
            upTo = head;
          }
        }
        const r = await requeueGaps(
          from === undefined || upTo === undefined
            ? { queue: ix.queue, db: ix.db }
            : { queue: ix.queue, db: ix.db, from, to: upTo },
        );
        out(`Found ${r.gaps.length} gaps in ${r.from}..${r.to}; queued ${r.requeued} again.`);
        return 0;
      },
      { requireSharedQueue: true },
    );
  },
};

export const walkCommand: Command = {
  name: 'walk',
  summary: 'Plan indexing: backfill a range of masterchain blocks, follow the head, repair gaps.',
  subcommands: [backfillCommand, tailCommand, gapsCommand],
};
