// Looking into and repairing the shared BullMQ queue from outside the processes that use it (`tongate queue`):
// counts by state, the oldest waiting job, failed jobs grouped by reason, failed jobs back to waiting with fresh
// attempts, and draining everything that is not running. One short-lived producer connection (redis-link.ts):
// Redis unreachable fails within the connect timeout with TG_QUEUE_UNAVAILABLE (retryable, exit 75 in the CLI).
import { Job as BullJob, Queue } from 'bullmq';
import { QueueError } from '../common/index.ts';
import type { Log } from '../common/logger.ts';
import { connectProducer, DEFAULT_QUEUE_PREFIX, jobCountsOf, redisUnavailable } from './bullmq.ts';
import { checkJobName } from './policy.ts';
import { closeClient, createRedisLink, resolveRedisLinkPolicy } from './redis-link.ts';
import type { JobCounts, RedisLinkPolicy } from './types.ts';

export interface QueueSummary {
  name: string;
  counts: JobCounts;
  /** The job that waits longest (next in line), if any. */
  oldestWaiting: { jobId: string; ageMs: number } | null;
}

export interface FailedGroup {
  reason: string;
  count: number;
  /** The first few job ids with this reason, earliest failure first. */
  jobIds: string[];
}

export interface FailedByReason {
  total: number;
  /** Groups by reason, most jobs first; at most `groups` of them. */
  groups: FailedGroup[];
  /** How many reasons there are in all. */
  reasons: number;
}

export interface DrainResult {
  removed: { waiting: number; delayed: number; failed: number; completed: number };
  /** Running jobs are left to finish. */
  active: number;
}

export interface QueueAdmin {
  /** The Redis URL without its password. */
  readonly where: string;
  readonly prefix: string;
  /** Connects (fails within the connect timeout with TG_QUEUE_UNAVAILABLE when Redis cannot be reached). */
  connect(): Promise<void>;
  /** The job names that have a queue under the prefix. */
  names(): Promise<string[]>;
  summary(name: string): Promise<QueueSummary>;
  failedByReason(name: string, opts?: { groups?: number; idsPerGroup?: number }): Promise<FailedByReason>;
  /** Moves every failed job back to waiting with fresh attempts; returns how many moved. */
  retryFailed(name: string): Promise<number>;
  /** Removes every job that is not running: waiting, delayed, failed and the completed ids kept for dedupe. */
  drain(name: string): Promise<DrainResult>;
  close(): Promise<void>;
}

const CHUNK = 1000;

/** Back to waiting with fresh attempts (BullMQ's retry of a failed job; only its id is needed). */
const retryOne = (q: Queue, name: string, id: string) =>
  new BullJob(q, name, {}, {}, id).retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });

export function openQueueAdmin(
  cfg: { url: string; prefix?: string },
  options: { log?: Log; redis?: Partial<RedisLinkPolicy> } = {},
): QueueAdmin {
  const prefix = cfg.prefix ?? DEFAULT_QUEUE_PREFIX;
  const link = createRedisLink(cfg.url, options.log ?? (() => {}), resolveRedisLinkPolicy(options.redis));
  const client = link.client('producer');
  const queues = new Map<string, Queue>();
  let closed = false;

  const connect = async () => {
    if (closed) throw new QueueError('TG_QUEUE_USAGE', 'the queue admin was closed');
    await connectProducer(link, client);
  };

  const queueFor = async (name: string): Promise<Queue> => {
    checkJobName(name);
    await connect();
    let q = queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: client, prefix });
      q.on('error', () => {});
      queues.set(name, q);
    }
    return q;
  };

  const run = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof QueueError) throw e;
      // A command Redis refused (or a bug) is no outage: only a lost connection is retryable.
      if (client.status !== 'ready') throw redisUnavailable(link, e, what, client);
      throw e;
    }
  };

  return {
    where: link.where,
    prefix,
    connect,
    async names() {
      await connect();
      return run('names', async () => {
        const found = new Set<string>();
        let cursor = '0';
        const head = `${prefix}:`;
        do {
          const [next, keys] = await client.scan(cursor, 'MATCH', `${head}*:meta`, 'COUNT', 1000);
          cursor = next;
          for (const k of keys) {
            const name = k.slice(head.length, -':meta'.length);
            if (/^[a-z0-9][a-z0-9-]*$/.test(name)) found.add(name);
          }
        } while (cursor !== '0');
        return [...found].sort();
      });
    },
    async summary(name) {
      const q = await queueFor(name);
      return run('status', async () => {
        const c = await jobCountsOf(q);
        // Jobs are pushed on the left of the wait list and taken from the right: the oldest is the last.
        const id = await client.lindex(q.keys.wait as string, -1);
        let oldestWaiting: QueueSummary['oldestWaiting'] = null;
        if (id !== null) {
          const ts = Number(await client.hget(q.toKey(id), 'timestamp'));
          if (Number.isFinite(ts) && ts > 0) oldestWaiting = { jobId: id, ageMs: Math.max(0, Date.now() - ts) };
        }
        return { name, counts: c, oldestWaiting };
      });
    },
    async failedByReason(name, opts = {}) {
      const q = await queueFor(name);
      const maxGroups = opts.groups ?? 10;
      const idsPerGroup = opts.idsPerGroup ?? 3;
      return run('status', async () => {
        // Earliest failure first; only the reason of each is read (a pipeline per thousand), not the whole job.
        const ids = await client.zrange(q.keys.failed as string, 0, -1);
        const groups = new Map<string, FailedGroup>();
        for (let i = 0; i < ids.length; i += CHUNK) {
          const chunk = ids.slice(i, i + CHUNK);
          const p = client.pipeline();
          for (const id of chunk) p.hget(q.toKey(id), 'failedReason');
          const replies = (await p.exec()) ?? [];
          chunk.forEach((id, j) => {
            const reply = replies[j];
            const raw = reply && !reply[0] && typeof reply[1] === 'string' ? reply[1] : '';
            const reason = raw.split('\n')[0]?.trim() || 'no reason recorded';
            let g = groups.get(reason);
            if (!g) {
              g = { reason, count: 0, jobIds: [] };
              groups.set(reason, g);
            }
            g.count += 1;
            if (g.jobIds.length < idsPerGroup) g.jobIds.push(id);
          });
        }
        const sorted = [...groups.values()].sort((a, b) => b.count - a.count);
        return { total: ids.length, reasons: sorted.length, groups: sorted.slice(0, maxGroups) };
      });
    },
    async retryFailed(name) {
      const q = await queueFor(name);
      return run('retry-failed', async () => {
        const ids = await client.zrange(q.keys.failed as string, 0, -1);
        let moved = 0;
        for (let i = 0; i < ids.length; i += CHUNK) {
          const chunk = ids.slice(i, i + CHUNK);
          const results = await Promise.allSettled(chunk.map((id) => retryOne(q, name, id)));
          for (const r of results) {
            if (r.status === 'fulfilled') moved += 1;
            // A job that is no longer failed (retried or removed meanwhile) is skipped; a lost connection is not.
            else if (client.status !== 'ready') throw r.reason;
          }
        }
        return moved;
      });
    },
    async drain(name) {
      const q = await queueFor(name);
      return run('drain', async () => {
        const before = await jobCountsOf(q);
        await q.drain(true);
        await q.clean(0, 0, 'failed');
        await q.clean(0, 0, 'completed');
        const after = await jobCountsOf(q);
        return {
          removed: {
            waiting: Math.max(0, before.waiting - after.waiting),
            delayed: Math.max(0, before.delayed - after.delayed),
            failed: Math.max(0, before.failed - after.failed),
            completed: Math.max(0, before.completed - after.completed),
          },
          active: after.active,
        };
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...queues.values()].map((q) => q.close().catch(() => {})));
      await closeClient(client, link);
      link.close();
    },
  };
}
