// Issue 24, in process: the reconnect schedule, and closing a BullMQ processor while Redis is down, with one job
// that finished during the outage (its end cannot be recorded: BullMQ retries that without delay while closing,
// so a connection failed under it would spin) and one still running. A private redis-server, killed with SIGKILL.
import { afterEach, describe, expect, it } from 'vitest';
import { createQueue, type JobQueue, reconnectDelay } from '../../src/queue/index.ts';
import { resolveRedisLinkPolicy } from '../../src/queue/redis-link.ts';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.ts';

describe('reconnect schedule', () => {
  it('doubles from the first delay up to the cap, less up to 20% at random', () => {
    const p = resolveRedisLinkPolicy({ firstDelayMs: 100, maxDelayMs: 1000 }, {});
    expect([1, 2, 3, 4, 5, 6, 50].map((n) => reconnectDelay(n, p, () => 0))).toEqual([
      100, 200, 400, 800, 1000, 1000, 1000,
    ]);
    expect(reconnectDelay(3, p, () => 1)).toBe(320);
  });

  it('takes the schedule from TONGATE_REDIS_BACKOFF (tests of child processes); options win', () => {
    const env = { TONGATE_REDIS_BACKOFF: '100,800,3000' };
    expect(resolveRedisLinkPolicy(undefined, env)).toMatchObject({
      firstDelayMs: 100,
      maxDelayMs: 800,
      stillDownEveryMs: 3000,
      connectTimeoutMs: 5000,
    });
    expect(resolveRedisLinkPolicy({ maxDelayMs: 50 }, env).maxDelayMs).toBe(100);
    expect(resolveRedisLinkPolicy(undefined, {})).toMatchObject({ firstDelayMs: 250, maxDelayMs: 5000 });
  });
});

describe('closing while Redis is down', () => {
  let redis: RedisServer | undefined;
  let queue: JobQueue | undefined;
  afterEach(async () => {
    await queue?.close();
    await redis?.kill();
  });

  it('a processor started while Redis is down says so once and works once Redis is there', async () => {
    redis = await startRedisServer();
    await redis.kill();
    const lines: string[] = [];
    queue = createQueue(
      { kind: 'bullmq', url: redis.url, prefix: 'tglink2' },
      { log: (_level, msg) => lines.push(msg), redis: { firstDelayMs: 50, maxDelayMs: 200 } },
    );
    await expect(queue.connect()).rejects.toMatchObject({ code: 'TG_QUEUE_UNAVAILABLE', retryable: true });
    const done: string[] = [];
    const p = queue.process('index-mc-block', async (job) => {
      done.push(job.id);
    });
    while (!lines.includes('Could not connect to Redis, retrying')) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 500));
    await redis.start();
    await queue.add('index-mc-block', {}, { jobId: 'mc-5' });
    while (done.length === 0) await new Promise((r) => setTimeout(r, 20));
    expect(done).toEqual(['mc-5']);
    expect(lines.filter((l) => l === 'Could not connect to Redis, retrying')).toHaveLength(1);
    expect(lines).toContain('Reconnected to Redis');
    await p.close();
  }, 30_000);

  it('finishes the running job, gives up what Redis cannot record, and keeps the event loop free', async () => {
    redis = await startRedisServer();
    const lines: string[] = [];
    queue = createQueue(
      { kind: 'bullmq', url: redis.url, prefix: 'tglink' },
      {
        log: (_level, msg) => lines.push(msg),
        redis: { firstDelayMs: 50, maxDelayMs: 200, stillDownEveryMs: 60_000 },
      },
    );
    await queue.connect();
    const release: Array<() => void> = [];
    const started: string[] = [];
    const finished: string[] = [];
    const p = queue.process(
      'index-mc-block',
      async (job) => {
        started.push(job.id);
        await new Promise<void>((r) => release.push(r));
        finished.push(job.id);
        return job.id;
      },
      { concurrency: 2 },
    );
    await queue.addBulk([
      { name: 'index-mc-block', data: {}, jobId: 'mc-1' },
      { name: 'index-mc-block', data: {}, jobId: 'mc-2' },
    ]);
    while (started.length < 2) await new Promise((r) => setTimeout(r, 20));

    await redis.kill();
    while (!lines.includes('Lost the connection to Redis, reconnecting')) await new Promise((r) => setTimeout(r, 20));
    // One job ends during the outage (BullMQ's record of it waits for Redis), the other while closing.
    release.shift()?.();
    await new Promise((r) => setTimeout(r, 300));
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 10);
    const t0 = Date.now();
    const closing = p.close();
    setTimeout(() => release.shift()?.(), 200);
    await closing;
    await queue.close();
    const ms = Date.now() - t0;
    clearInterval(ticker);
    expect(finished.sort()).toEqual(['mc-1', 'mc-2']);
    expect(ms).toBeLessThan(5000);
    // Timers kept firing throughout: nothing spun on a failed connection.
    expect(ticks).toBeGreaterThan(ms / 10 / 4);
    expect(lines.filter((l) => l === 'Lost the connection to Redis, reconnecting')).toHaveLength(1);
    expect(lines).not.toContain('Reported a queue error');
    queue = undefined;
  }, 30_000);
});
