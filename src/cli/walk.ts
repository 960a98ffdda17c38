// `tongate walk backfill|tail|gaps`: plan index-mc-block jobs (one per masterchain block) onto the queue.
// Without REDIS_URL the queue is in-process and this process also runs the processor (embedded mode);
// with it, `tongate work` processes (any number, anywhere) do the work, or --work here as well.

import { ConfigError, type DatabaseConfig, isTongateError, resolveDatabaseConfig } from '../common/index.ts';
import { classifyMcBlock } from '../index/actions/index.ts';
import {
  type BackfillPlan,
  bulkBackfill,
  CLASSIFY_MC_BLOCK,
  findGaps,
  INDEX_MC_BLOCK,
  pendingBulkIndexes,
  planBackfill,
  rangeProgress,
  requeueGaps,
  runTail,
} from '../index/plan/index.ts';
import { assembleTraces } from '../index/traces/index.ts';
import type { Processor } from '../queue/index.ts';
import { type Command, type OptionSpec, UsageError } from './command.ts';
import {
  createLog,
  defaultConcurrency,
  EXIT_FAILED,
  EXIT_RETRYABLE,
  exitCodeFor,
  firstLine,
  type Indexer,
  indexerOptions,
  intOption,
  type Log,
  onShutdownSignal,
  openIndexer,
  startProcessor,
  str,
  type Values,
} from './indexer-setup.ts';
import { createProgressView } from './progress.ts';

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
    ix = await openIndexer(values, log, { applicationName: 'tongate-walk', ...opts });
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

function rangeOf(values: Values): { from: number; to: number } {
  const from = intOption(values, 'from');
  const to = intOption(values, 'to');
  if (from === undefined || to === undefined) throw new UsageError('expected --from N and --to M (masterchain seqnos)');
  if (to < from) throw new UsageError(`--to (${to}) is below --from (${from})`);
  return { from, to };
}

const backfillCommand: Command = {
  name: 'backfill',
  summary: 'Index masterchain blocks --from N --to M (inclusive) and wait until every one is committed.',
  details:
    'Enqueues one job (mc-<seqno>) per masterchain block that has no checkpoint yet; re-running a range adds\n' +
    'nothing twice. Shows a progress bar on a TTY (blocks, tx/s, ETA), else logs progress every 5 s.\n' +
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
    to: { type: 'string', value: 'M', description: 'last masterchain seqno' },
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
    const bulk = values.bulk === true ? bulkDatabase(values) : undefined;
    return withIndexer(values, err, 'backfill', async (ix, log, signal) => {
      const load = () => backfillRange(ix, log, signal, { from, to, values, out, err });
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

/** The ordinary backfill of [from, to]: plan, show progress until every block is committed. Returns the exit code. */
async function backfillRange(
  ix: Indexer,
  log: Log,
  signal: AbortSignal,
  {
    from,
    to,
    values,
    out,
    err,
  }: { from: number; to: number; values: Values; out: (l: string) => void; err: (l: string) => void },
): Promise<number> {
  const plan: BackfillPlan = await planBackfill({ queue: ix.queue, db: ix.db, from, to });
  log('info', 'Planned backfill', { ...plan });
  const view = createProgressView({
    total: plan.total,
    tty: process.stderr.isTTY === true && values['no-progress'] !== true,
    write: (c) => process.stderr.write(c),
    log: (msg, f) => log('info', msg, f),
  });
  let lostRounds = 0;
  let outageSince: number | undefined;
  for (;;) {
    try {
      const p = await rangeProgress(ix.db, from, to);
      if (p.blocks >= plan.total) {
        // The last jobs still assemble traces and queue their classification: let them finish.
        await ix.queue.whenIdle(INDEX_MC_BLOCK, { signal });
        await ix.queue.whenIdle(CLASSIFY_MC_BLOCK, { signal });
        // Jobs lost with the queue (a Redis restart) may have left assembly or classification behind: finish
        // both here (each is a no-op when the workers did it).
        await assembleTraces(ix.db);
        await classifyMcBlock(to, { db: ix.db, log });
        view.done(p);
        out(`Indexed masterchain blocks ${from}..${to}: ${p.blocks} blocks, ${p.transactions} transactions.`);
        return 0;
      }
      view.update(p);
      if (signal.aborted) {
        err(`tongate walk backfill: stopped with ${plan.total - p.blocks} blocks left; run it again to continue`);
        return EXIT_RETRYABLE;
      }
      const c = await ix.queue.counts(INDEX_MC_BLOCK);
      if (c.waiting + c.active + c.delayed === 0) {
        const gaps = await findGaps(ix.db, from, to);
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
          const r = await requeueGaps({ queue: ix.queue, db: ix.db, from, to });
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
    'Starts at --from, else after the highest indexed block, else at the current head. Runs until SIGINT or\n' +
    `SIGTERM, re-queueing gaps behind the head now and then.\n${EXIT_NOTE}`,
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
    const from = intOption(values, 'from');
    const pollMs = intOption(values, 'poll-ms', { min: 10 }) ?? 1000;
    return withIndexer(values, err, 'tail', async (ix, log, signal) => {
      await runTail(
        from === undefined
          ? { queue: ix.queue, db: ix.db, source: ix.source, pollMs, signal, log }
          : { queue: ix.queue, db: ix.db, source: ix.source, pollMs, signal, log, from },
      );
      return 0;
    });
  },
};

const gapsCommand: Command = {
  name: 'gaps',
  summary: 'Find masterchain blocks without a checkpoint in --from..--to and queue them again.',
  details:
    'Without a range, checks between the lowest and highest indexed block. Does not wait for the jobs, so it\n' +
    `needs the shared queue (REDIS_URL); in embedded mode 'walk backfill' repairs gaps itself.\n${EXIT_NOTE}`,
  options: {
    from: { type: 'string', value: 'N', description: 'first masterchain seqno' },
    to: { type: 'string', value: 'M', description: 'last masterchain seqno' },
    ...indexerOptions,
  },
  async run({ values, positionals, out, err }) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const from = intOption(values, 'from');
    const to = intOption(values, 'to');
    if ((from === undefined) !== (to === undefined)) throw new UsageError('give both --from and --to, or neither');
    return withIndexer(
      { ...values, work: false },
      err,
      'gaps',
      async (ix) => {
        const r = await requeueGaps(
          from === undefined ? { queue: ix.queue, db: ix.db } : { queue: ix.queue, db: ix.db, from, to },
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
