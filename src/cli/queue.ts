// `tongate queue status|retry-failed|drain`: look into and repair the shared BullMQ queue (REDIS_URL) that
// `walk` plans onto and `work` processes: counts by state, the oldest waiting job, failed jobs grouped by
// reason; failed jobs back to waiting with fresh attempts; everything not running removed (with --yes).
// Exit codes as the other commands: 0 done, 1 failed, 2 bad usage or configuration, 75 Redis unreachable.

import { exitCodeFor, firstLine } from '../common/exit-codes.ts';
import { ENV_REDIS_URL, resolveQueueConfig } from '../common/index.ts';
import { intOption, str, UsageError, type Values } from '../common/options.ts';
import { CLASSIFY_MC_BLOCK, INDEX_MC_BLOCK } from '../index/plan/index.ts';
import { createQueue, openQueueAdmin, type QueueAdmin, type QueueSummary } from '../queue/index.ts';
import type { Command, OptionSpec, RunContext } from './command.ts';
import { queueOptions } from './indexer-options.ts';

/** The queues tongate itself uses, shown even while empty. */
const KNOWN = [INDEX_MC_BLOCK, CLASSIFY_MC_BLOCK];

const options: Record<string, OptionSpec> = {
  ...queueOptions,
  'redis-url': {
    type: 'string',
    value: 'URL',
    description: `Redis of the shared BullMQ job queue, redis://host:6379 (env ${ENV_REDIS_URL})`,
  },
  name: {
    type: 'string',
    value: 'NAME',
    description: `only this queue (job name, e.g. ${INDEX_MC_BLOCK}); default: every queue under the prefix`,
  },
};

function sharedQueue(values: Values): { url: string; prefix: string } {
  const cfg = resolveQueueConfig({
    flags: { redisUrl: str(values, 'redis-url'), queuePrefix: str(values, 'queue-prefix') },
    env: process.env,
  });
  if (cfg.kind !== 'bullmq') {
    throw new UsageError(
      `needs the shared queue: set ${ENV_REDIS_URL} or --redis-url (the in-process queue lives inside its walk process)`,
    );
  }
  return { url: cfg.url, prefix: cfg.prefix ?? 'tongate' };
}

/**
 * Fails with TG_QUEUE_UNAVAILABLE (exit 75) within the connect timeout when the shared queue's Redis cannot be
 * reached; nothing to check for the in-process queue. For long-running commands, before they open anything else.
 */
export async function checkQueueReachable(values: Values): Promise<void> {
  const cfg = resolveQueueConfig({
    flags: { redisUrl: str(values, 'redis-url'), queuePrefix: str(values, 'queue-prefix') },
    env: process.env,
  });
  if (cfg.kind !== 'bullmq') return;
  const q = createQueue(cfg);
  try {
    await q.connect();
  } finally {
    await q.close();
  }
}

/** Opens the admin connection, runs `fn` for the selected queues, maps failures to exit codes. */
async function withAdmin(
  ctx: RunContext,
  what: string,
  fn: (admin: QueueAdmin, names: string[]) => Promise<number>,
): Promise<number> {
  if (ctx.positionals.length > 0) throw new UsageError(`unexpected argument '${ctx.positionals[0]}'`);
  const only = str(ctx.values, 'name');
  if (only !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(only)) {
    throw new UsageError(`--name expects a job name such as ${INDEX_MC_BLOCK}, got '${only}'`);
  }
  let admin: QueueAdmin | undefined;
  try {
    admin = openQueueAdmin(sharedQueue(ctx.values));
    await admin.connect();
    const found = only === undefined ? await admin.names() : [];
    const names = only !== undefined ? [only] : [...KNOWN, ...found.filter((n) => !KNOWN.includes(n))];
    return await fn(admin, names);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    ctx.err(`tongate queue ${what}: ${firstLine(e)}`);
    return exitCodeFor(e);
  } finally {
    await admin?.close();
  }
}

function age(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min`;
  if (s < 172_800) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} days`;
}

function countsLine(s: QueueSummary): string {
  const c = s.counts;
  const oldest = s.oldestWaiting ? `; oldest waiting ${age(s.oldestWaiting.ageMs)} (${s.oldestWaiting.jobId})` : '';
  return `${s.name}: ${c.waiting} waiting, ${c.active} active, ${c.delayed} delayed, ${c.failed} failed, ${c.completed} completed${oldest}`;
}

const statusCommand: Command = {
  name: 'status',
  summary: 'Show each queue: jobs by state, the oldest waiting job, failed jobs grouped by reason.',
  details:
    'Failed jobs are grouped by their failure reason, most jobs first, with the first job ids of each; --limit\n' +
    'says how many reasons to show. Completed jobs are the ids kept for a while so a re-plan adds nothing twice.\n' +
    `Exit codes: 0 done, 1 failed, 2 bad usage or configuration (no ${ENV_REDIS_URL}), 75 Redis unreachable.`,
  options: {
    ...options,
    limit: { type: 'string', value: 'N', description: 'failure reasons shown per queue', default: '10' },
    json: { type: 'boolean', description: 'print one JSON document instead of lines' },
  },
  async run(ctx) {
    const limit = intOption(ctx.values, 'limit', { min: 0, max: 1000, interval: true }) ?? 10;
    return withAdmin(ctx, 'status', async (admin, names) => {
      const queues = [];
      for (const name of names) {
        const summary = await admin.summary(name);
        const failed = await admin.failedByReason(name, { groups: limit });
        queues.push({ ...summary, failed });
      }
      if (ctx.values.json === true) {
        ctx.out(
          JSON.stringify(
            {
              redis: admin.where,
              prefix: admin.prefix,
              queues: queues.map((q) => ({
                name: q.name,
                counts: q.counts,
                oldestWaiting: q.oldestWaiting
                  ? { jobId: q.oldestWaiting.jobId, ageSeconds: Math.floor(q.oldestWaiting.ageMs / 1000) }
                  : null,
                failed: q.failed,
              })),
            },
            null,
            2,
          ),
        );
        return 0;
      }
      ctx.out(`Queues on ${admin.where} (prefix ${admin.prefix}):`);
      for (const q of queues) {
        ctx.out(countsLine(q));
        if (q.failed.total === 0) continue;
        const shown = q.failed.groups.length;
        ctx.out(
          `  failed, by reason (${q.failed.reasons} reason${q.failed.reasons === 1 ? '' : 's'}${shown < q.failed.reasons ? `, first ${shown}` : ''}):`,
        );
        for (const g of q.failed.groups) {
          const more = g.count > g.jobIds.length ? ', …' : '';
          ctx.out(`    ${String(g.count).padStart(7)}  ${g.reason}  (${g.jobIds.join(', ')}${more})`);
        }
      }
      return 0;
    });
  },
};

const retryFailedCommand: Command = {
  name: 'retry-failed',
  summary: 'Move every failed job back to waiting, with fresh attempts.',
  details:
    'A worker takes them again as for new jobs, with the full number of attempts and backoff. A block indexed\n' +
    'meanwhile is skipped by its checkpoint.\n' +
    `Exit codes: 0 done, 1 failed, 2 bad usage or configuration (no ${ENV_REDIS_URL}), 75 Redis unreachable.`,
  options,
  async run(ctx) {
    return withAdmin(ctx, 'retry-failed', async (admin, names) => {
      let total = 0;
      for (const name of names) {
        const moved = await admin.retryFailed(name);
        total += moved;
        if (moved > 0) ctx.out(`${name}: moved ${moved} failed jobs back to waiting.`);
      }
      ctx.out(total === 0 ? 'No failed jobs.' : `Moved ${total} failed jobs back to waiting, with fresh attempts.`);
      return 0;
    });
  },
};

const drainCommand: Command = {
  name: 'drain',
  summary: 'Remove every job that is not running (waiting, delayed, failed, kept completed); needs --yes.',
  details:
    'Active jobs are left to finish. Stop the planners (walk backfill, walk tail) first, or they queue their\n' +
    "blocks again; nothing indexed is lost (the checkpoints are in the database), and 'tongate walk gaps' or a\n" +
    'new backfill queues what is missing later. Without --yes nothing is removed (exit 2).\n' +
    `Exit codes: 0 done, 1 failed, 2 bad usage or configuration (no ${ENV_REDIS_URL}; no --yes), 75 Redis unreachable.`,
  options: {
    ...options,
    yes: { type: 'boolean', description: 'really remove the jobs' },
  },
  async run(ctx) {
    if (ctx.values.yes !== true) {
      throw new UsageError(
        "refusing to drain without --yes: it removes every waiting, delayed, failed and completed job (see 'tongate queue status' first)",
      );
    }
    return withAdmin(ctx, 'drain', async (admin, names) => {
      for (const name of names) {
        const r = await admin.drain(name);
        const d = r.removed;
        ctx.out(
          `${name}: removed ${d.waiting} waiting, ${d.delayed} delayed, ${d.failed} failed, ${d.completed} completed` +
            (r.active > 0 ? `; ${r.active} active left to finish.` : '.'),
        );
      }
      return 0;
    });
  },
};

export const queueCommand: Command = {
  name: 'queue',
  summary: 'Inspect and repair the shared job queue (REDIS_URL): status, retry-failed, drain.',
  details: `The queue is BullMQ on --redis-url, else ${ENV_REDIS_URL}, under --queue-prefix (default tongate).`,
  subcommands: [statusCommand, retryFailedCommand, drainCommand],
};
