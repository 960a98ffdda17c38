// The BullMQ back end (style guide §5): one BullMQ queue per job name under a key prefix, deterministic
// job ids, attempts with exponential backoff and jitter, completed ids kept long enough to dedupe
// re-plans, stalled jobs (a worker killed mid-job) handed to another worker. Redis connections come from
// one link (redis-link.ts): producers fail fast while Redis is down (no offline queue) and say so at once
// when it cannot be reached at all; workers wait and reconnect with a capped exponential backoff, and an
// outage is logged once when it starts, once a minute while it lasts and once when it ends. Closing while
// Redis is down ends the connections instead of waiting for Redis (an active job cut off that way is
// handed to another worker as stalled; its checkpoint makes the re-run safe).
import { type Job as BullJob, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { ConfigError, QueueError } from '../common/index.ts';
import { checkJobId, checkJobName, describeError, isRetryableError, resolvePolicy } from './policy.ts';
import {
  closeClient,
  createRedisLink,
  endClient,
  type RedisLink,
  releaseClient,
  resolveRedisLinkPolicy,
} from './redis-link.ts';
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

/**
 * A queue's jobs by state as JobCounts: everything that waits its turn (waiting, paused, prioritized, waiting for
 * children) counts as waiting. Shared by the workers' queue and `tongate queue`.
 */
export async function jobCountsOf(q: Queue): Promise<JobCounts> {
  const c = await q.getJobCounts(
    'waiting',
    'paused',
    'prioritized',
    'waiting-children',
    'active',
    'delayed',
    'completed',
    'failed',
  );
  return {
    waiting: (c.waiting ?? 0) + (c.paused ?? 0) + (c.prioritized ?? 0) + (c['waiting-children'] ?? 0),
    active: c.active ?? 0,
    delayed: c.delayed ?? 0,
    completed: c.completed ?? 0,
    failed: c.failed ?? 0,
  };
}

export const DEFAULT_QUEUE_PREFIX = 'tongate';

/**
 * A QueueError for Redis being unreachable (retryable: exit 75 in the CLI), or `e` when it is one already. With
 * `client`, a client that is not connected is said so (with the last connection error) instead of ioredis's words.
 */
export function redisUnavailable(link: RedisLink, e: unknown, what: string, client?: Redis): QueueError {
  if (e instanceof QueueError) return e;
  const said = describeError(e);
  const reason = /^Connection is closed/.test(said) && link.lastError ? link.lastError : said;
  const message =
    what === 'connect'
      ? `cannot reach Redis ${link.where}: ${reason}`
      : client !== undefined && client.status !== 'ready'
        ? `Redis ${link.where} is unreachable, reconnecting (${link.lastError ?? client.status})`
        : `${what} on Redis ${link.where} failed: ${reason}`;
  return new QueueError('TG_QUEUE_UNAVAILABLE', message, { cause: e, details: { redis: link.where } });
}

/**
 * Connects a producer client for the first time (or again after a first connection failed): within the link's
 * connect timeout, else TG_QUEUE_UNAVAILABLE. While a connected client reconnects in the background, fails at once.
 */
export function connectProducer(link: RedisLink, producer: Redis): Promise<void> {
  if (producer.status === 'ready') return Promise.resolve();
  if (producer.status !== 'wait' && producer.status !== 'end') {
    // Connected before and reconnecting in the background: fail at once, the caller retries when it likes.
    return Promise.reject(redisUnavailable(link, new Error('not connected'), 'queue', producer));
  }
  return new Promise<void>((resolve, reject) => {
    // connectTimeout bounds the TCP connect; this bounds the whole handshake (a server that accepts and says nothing).
    const timer = setTimeout(() => {
      endClient(producer);
      reject(redisUnavailable(link, new Error(`no answer within ${link.policy.connectTimeoutMs} ms`), 'connect'));
    }, link.policy.connectTimeoutMs + 1000);
    producer.connect().then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (e: unknown) => {
        clearTimeout(timer);
        // A refused login is configuration (exit 2), not an outage to wait out.
        const said = `${link.lastError ?? ''} ${describeError(e)}`;
        if (/WRONGPASS|NOAUTH|NOPERM|invalid password/i.test(said)) {
          const reason = link.lastError ?? describeError(e);
          reject(new ConfigError(`Redis ${link.where} refused the login: ${reason}`, { cause: e }));
        } else {
          reject(redisUnavailable(link, e, 'connect'));
        }
      },
    );
  });
}

/** Resolves once `pending` is empty (BullMQ recorded every job's end), Redis is down, or after `maxMs`. */
function recorded(pending: Set<string>, link: RedisLink, maxMs: number): Promise<void> {
  if (pending.size === 0 || link.down) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const end = Date.now() + maxMs;
    const cancel = link.whenDown(finish);
    const timer = setInterval(() => {
      if (pending.size === 0 || Date.now() >= end) finish();
    }, 20);
    function finish() {
      clearInterval(timer);
      cancel();
      resolve();
    }
  });
}

export function createBullmqQueue(cfg: { url: string; prefix?: string }, options: QueueOptions = {}): JobQueue {
  const policy = resolvePolicy(options.policy);
  const log = options.log ?? (() => {});
  const prefix = cfg.prefix ?? DEFAULT_QUEUE_PREFIX;
  const link = createRedisLink(cfg.url, log, resolveRedisLinkPolicy(options.redis));
  const producer = link.client('producer');
  let connecting: Promise<void> | undefined;
  const queues = new Map<string, Queue>();
  const processors = new Set<Processor>();
  let closed = false;

  const connect = (): Promise<void> => {
    if (closed) return Promise.reject(new QueueError('TG_QUEUE_USAGE', 'the queue was closed'));
    if (producer.status === 'ready') return Promise.resolve();
    connecting ??= connectProducer(link, producer).finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  const queueFor = async (name: string): Promise<Queue> => {
    if (closed) throw new QueueError('TG_QUEUE_USAGE', 'the queue was closed');
    checkJobName(name);
    await connect();
    let q = queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: producer, prefix });
      q.on('error', (e) => link.reportError({ queue: name }, e));
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
      throw redisUnavailable(link, e, what, producer);
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
      // The worker's connection, and the blocking one BullMQ duplicates from it, report to the link.
      const conn = link.client('worker');
      const clients: Redis[] = [conn];
      const duplicate = conn.duplicate.bind(conn);
      conn.duplicate = (override) => {
        const c = duplicate(override);
        clients.push(c);
        link.watch(c);
        return c;
      };
      const toJob = (j: BullJob): Job<D> => ({
        id: j.id as string,
        name: j.name,
        data: j.data as D,
        attemptsMade: j.attemptsMade,
      });
      // For close(): handlers running, and jobs whose handler ran but whose end BullMQ has not recorded yet.
      const running = new Set<Promise<unknown>>();
      const unrecorded = new Set<string>();
      let stopping = false;
      const worker = new Worker(
        name,
        async (j: BullJob) => {
          // Taken while closing (a fetch in flight): never started, never ended here; reclaimed as stalled later.
          if (stopping) return new Promise<never>(() => {});
          unrecorded.add(j.id as string);
          const run = (async () => {
            try {
              return await handler(toJob(j));
            } catch (e) {
              // The worker boundary (§6.5): a non-retryable error skips the remaining attempts.
              if (!isRetryableError(e)) throw new UnrecoverableError(describeError(e));
              throw e instanceof Error ? e : new Error(String(e));
            }
          })();
          const settled = run.then(
            () => {},
            () => {},
          );
          running.add(settled);
          void settled.then(() => running.delete(settled));
          return run;
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
      worker.on('error', (e) => link.reportError({ queue: name }, e));
      worker.on('completed', (j, result) => {
        unrecorded.delete(j.id as string);
        opts.onCompleted?.(toJob(j), result as R);
      });
      worker.on('failed', (j, err) => {
        if (!j) return;
        unrecorded.delete(j.id as string);
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
      let closing: Promise<void> | undefined;
      const processor: Processor = {
        close() {
          closing ??= (async () => {
            // No more jobs; the running ones finish (their handlers need no Redis), and while Redis is up BullMQ
            // records how they ended. While Redis is down that would wait for it, so then it is left undone: the
            // jobs' locks run out and they are taken again as stalled (their checkpoints make that safe).
            stopping = true;
            await worker.pause(true).catch(() => {});
            await Promise.all([...running]);
            await recorded(unrecorded, link, 5000);
            // Force: BullMQ waits for nothing more. The connections are let go without failing what is pending.
            await worker.close(true).catch(() => {});
            for (const c of clients) {
              releaseClient(c);
              link.unwatch(c);
            }
            processors.delete(processor);
          })();
          return closing;
        },
      };
      processors.add(processor);
      return processor;
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
      return run('counts', () => jobCountsOf(q));
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
      await Promise.all([...processors].map((p) => p.close()));
      await Promise.all([...queues.values()].map((q) => q.close().catch(() => {})));
      await closeClient(producer, link);
      link.close();
    },
    async connect() {
      await connect();
    },
  };
}
