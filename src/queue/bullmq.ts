// The BullMQ back end (style guide §5): one BullMQ queue per job name under a key prefix, deterministic
// job ids, attempts with exponential backoff and jitter, completed ids kept long enough to dedupe
// re-plans, stalled jobs (a worker killed mid-job) handed to another worker. Producers fail fast while
// Redis is down (no offline queue); workers wait and reconnect (maxRetriesPerRequest: null).
import { type Job as BullJob, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { QueueError } from '../common/index.ts';
import { checkJobId, checkJobName, describeError, isRetryableError, resolvePolicy } from './policy.ts';
import type {
  Job,
  JobCounts,
  JobHandler,
  JobQueue,
  JobSpec,
  JobState,
  ProcessOptions,
  Processor,
  QueueOptions,
} from './types.ts';

export const DEFAULT_QUEUE_PREFIX = 'tongate';

/** A redis:// URL without its password, for messages. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable Redis URL>';
  }
}

export function createBullmqQueue(cfg: { url: string; prefix?: string }, options: QueueOptions = {}): JobQueue {
  const policy = resolvePolicy(options.policy);
  const log = options.log ?? (() => {});
  const prefix = cfg.prefix ?? DEFAULT_QUEUE_PREFIX;
  const where = redact(cfg.url);
  const producer = new Redis(cfg.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
    retryStrategy: (n) => Math.min(200 * n, 2000),
  });
  producer.on('error', (e) => log('warn', 'Lost connection to Redis (producer)', { redis: where, error: e.message }));
  let ready: Promise<void> | undefined;
  const queues = new Map<string, Queue>();
  const workers = new Set<{ worker: Worker; conn: Redis }>();
  let closed = false;

  const unavailable = (e: unknown, what: string) =>
    e instanceof QueueError
      ? e
      : new QueueError('TG_QUEUE_UNAVAILABLE', `${what} on Redis ${where} failed: ${describeError(e)}`, {
          cause: e,
          details: { redis: where },
        });

  const connect = () => {
    ready ??= producer.connect().catch((e) => {
      ready = undefined;
      throw unavailable(e, 'connect');
    });
    return ready;
  };

  const queueFor = async (name: string): Promise<Queue> => {
    if (closed) throw new QueueError('TG_QUEUE_USAGE', 'the queue was closed');
    checkJobName(name);
    await connect();
    let q = queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: producer, prefix });
      q.on('error', (e) => log('warn', 'Reported queue error', { queue: name, error: e.message }));
      queues.set(name, q);
    }
    return q;
  };

  const jobOpts = (jobId: string) => ({
    jobId,
    attempts: policy.attempts,
    backoff: { type: 'exponential' as const, delay: policy.backoffMs, jitter: policy.jitter },
    removeOnComplete: { count: policy.keepCompleted.count, age: policy.keepCompleted.ageSeconds },
    removeOnFail: { count: policy.keepFailed.count, age: policy.keepFailed.ageSeconds },
  });

  const run = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      throw unavailable(e, what);
    }
  };

  const mapState = (s: string): JobState => {
    switch (s) {
      case 'completed':
      case 'failed':
      case 'active':
      case 'delayed':
        return s;
      case 'waiting':
      case 'prioritized':
      case 'waiting-children':
        return 'waiting';
      default:
        return 'unknown';
    }
  };

  return {
    kind: 'bullmq',
    async add(name, data, { jobId }) {
      checkJobId(jobId);
      const q = await queueFor(name);
      return run('add', async () => {
        const before = await q.getJobState(jobId);
        if (before !== 'unknown') return false;
        await q.add(name, data, jobOpts(jobId));
        return true;
      });
    },
    async addBulk<D>(jobs: readonly JobSpec<D>[]) {
      for (const j of jobs) {
        checkJobName(j.name);
        checkJobId(j.jobId);
      }
      let added = 0;
      const byName = new Map<string, JobSpec<D>[]>();
      for (const j of jobs) byName.set(j.name, [...(byName.get(j.name) ?? []), j]);
      for (const [name, list] of byName) {
        const q = await queueFor(name);
        await run('addBulk', async () => {
          const states = await Promise.all(list.map((j) => q.getJobState(j.jobId)));
          const fresh = list.filter((_, i) => states[i] === 'unknown');
          // One round trip, all or none (BullMQ addBulk is a MULTI); ids that exist are skipped by Redis too.
          if (fresh.length > 0) await q.addBulk(fresh.map((j) => ({ name, data: j.data, opts: jobOpts(j.jobId) })));
          added += fresh.length;
        });
      }
      return added;
    },
    async requeue(name, data, { jobId }) {
      checkJobId(jobId);
      const q = await queueFor(name);
      return run('requeue', async () => {
        const state = await q.getJobState(jobId);
        if (state === 'completed' || state === 'failed') {
          await q.remove(jobId);
        } else if (state !== 'unknown') {
          return false;
        }
        await q.add(name, data, jobOpts(jobId));
        return true;
      });
    },
    process<D, R>(name: string, handler: JobHandler<D, R>, opts: ProcessOptions<D, R> = {}): Processor {
      if (closed) throw new QueueError('TG_QUEUE_USAGE', 'queue.process: the queue was closed');
      checkJobName(name);
      const concurrency = opts.concurrency ?? 1;
      if (!Number.isInteger(concurrency) || concurrency < 1) {
        throw new QueueError('TG_QUEUE_USAGE', `concurrency must be a positive integer, got ${concurrency}`);
      }
      const conn = new Redis(cfg.url, { maxRetriesPerRequest: null });
      conn.on('error', (e) => log('warn', 'Lost connection to Redis (worker)', { redis: where, error: e.message }));
      const toJob = (j: BullJob): Job<D> => ({
        id: j.id as string,
        name: j.name,
        data: j.data as D,
        attemptsMade: j.attemptsMade,
      });
      const worker = new Worker(
        name,
        async (j: BullJob) => {
          try {
            return await handler(toJob(j));
          } catch (e) {
            // The worker boundary (§6.5): a non-retryable error skips the remaining attempts.
            if (!isRetryableError(e)) throw new UnrecoverableError(describeError(e));
            throw e instanceof Error ? e : new Error(String(e));
          }
        },
        {
          connection: conn,
          prefix,
          concurrency,
          lockDuration: policy.lockDurationMs,
          stalledInterval: policy.stalledIntervalMs,
          maxStalledCount: policy.maxStalledCount,
        },
      );
      worker.on('error', (e) => log('warn', 'Reported worker error', { queue: name, error: e.message }));
      worker.on('completed', (j, result) => opts.onCompleted?.(toJob(j), result as R));
      worker.on('failed', (j, err) => {
        if (!j) return;
        const final = err.name === 'UnrecoverableError' || j.attemptsMade >= policy.attempts;
        log(final ? 'error' : 'warn', final ? 'Failed job' : 'Failed job attempt, will retry', {
          queue: name,
          jobId: j.id,
          attemptsMade: j.attemptsMade,
          error: err.message,
        });
        opts.onFailed?.(toJob(j), err, final);
      });
      worker.on('stalled', (jobId) => log('warn', 'Recovered stalled job', { queue: name, jobId }));
      const entry = { worker, conn };
      workers.add(entry);
      let closing: Promise<void> | undefined;
      return {
        close() {
          closing ??= (async () => {
            await worker.close();
            workers.delete(entry);
            await conn.quit().catch(() => conn.disconnect());
          })();
          return closing;
        },
      };
    },
    async getState(name, jobId) {
      const q = await queueFor(name);
      return run('getState', async () => mapState(await q.getJobState(jobId)));
    },
    async failedReason(name, jobId) {
      const q = await queueFor(name);
      return run('failedReason', async () => {
        const j = await q.getJob(jobId);
        return j && (await j.getState()) === 'failed' ? j.failedReason : undefined;
      });
    },
    async counts(name) {
      const q = await queueFor(name);
      return run('counts', async () => {
        const c = await q.getJobCounts(
          'waiting',
          'prioritized',
          'waiting-children',
          'active',
          'delayed',
          'completed',
          'failed',
        );
        const out: JobCounts = {
          waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c['waiting-children'] ?? 0),
          active: c.active ?? 0,
          delayed: c.delayed ?? 0,
          completed: c.completed ?? 0,
          failed: c.failed ?? 0,
        };
        return out;
      });
    },
    async whenIdle(name, opts = {}) {
      const pollMs = opts.pollMs ?? 250;
      for (;;) {
        opts.signal?.throwIfAborted();
        const c = await this.counts(name);
        if (c.waiting + c.active + c.delayed === 0) return;
        await new Promise<void>((resolve) => {
          const t = setTimeout(done, pollMs);
          function done() {
            clearTimeout(t);
            opts.signal?.removeEventListener('abort', done);
            resolve();
          }
          opts.signal?.addEventListener('abort', done, { once: true });
        });
      }
    },
    async obliterate(name) {
      const q = await queueFor(name);
      await run('obliterate', () => q.obliterate({ force: true }));
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(
        [...workers].map(async ({ worker, conn }) => {
          await worker.close();
          await conn.quit().catch(() => conn.disconnect());
        }),
      );
      await Promise.all([...queues.values()].map((q) => q.close().catch(() => {})));
      if (producer.status === 'ready') await producer.quit().catch(() => producer.disconnect());
      else producer.disconnect();
    },
  };
}
