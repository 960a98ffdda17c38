// Issue 24: `tongate queue status|retry-failed|drain` as operators run them (real child processes) against a
// private redis-server holding a queue with completed, failed (two different reasons) and waiting jobs, put
// there through the queue layer exactly as workers leave them.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexError } from '../../src/common/index.ts';
import { createQueue, type JobQueue } from '../../src/queue/index.ts';
import { type Child, startTongate } from '../helpers/cli.ts';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.ts';

const PREFIX = 'tgqcli';
const REASON_A = 'TG_INDEX_SOURCE: the block does not match its id';
const REASON_B = 'TG_INDEX_SOURCE: the shard block is missing';

let redis: RedisServer;
let queue: JobQueue;
const children: Child[] = [];

async function cli(...args: string[]): Promise<{ code: number | null; out: string[]; err: string[]; ms: number }> {
  const t0 = Date.now();
  const c = startTongate(['queue', ...args], { REDIS_URL: redis.url });
  children.push(c);
  const code = await c.exited;
  return { code, out: c.out, err: c.err, ms: Date.now() - t0 };
}

interface StatusJson {
  redis: string;
  prefix: string;
  queues: Array<{
    name: string;
    counts: { waiting: number; active: number; delayed: number; failed: number; completed: number };
    oldestWaiting: { jobId: string; ageSeconds: number } | null;
    failed: { total: number; reasons: number; groups: Array<{ reason: string; count: number; jobIds: string[] }> };
  }>;
}

async function status(...extra: string[]): Promise<StatusJson> {
  const r = await cli('status', '--queue-prefix', PREFIX, '--json', ...extra);
  expect(r.code, r.err.join('\n')).toBe(0);
  return JSON.parse(r.out.join('\n')) as StatusJson;
}

const byName = (s: StatusJson, name: string) => s.queues.find((q) => q.name === name);

beforeAll(async () => {
  redis = await startRedisServer();
  queue = createQueue({ kind: 'bullmq', url: redis.url, prefix: PREFIX }, { policy: { attempts: 3, backoffMs: 10 } });
  // One job completes, three fail for good with two reasons (non-retryable errors end a job after one attempt).
  await queue.addBulk(['mc-0', 'mc-1', 'mc-2', 'mc-3'].map((jobId) => ({ name: 'index-mc-block', data: {}, jobId })));
  let finished = 0;
  let allFinished = () => {};
  const four = new Promise<void>((resolve) => {
    allFinished = resolve;
  });
  const done = () => {
    finished += 1;
    if (finished === 4) allFinished();
  };
  const p = queue.process(
    'index-mc-block',
    async (job) => {
      if (job.id === 'mc-0') return 'ok';
      throw new IndexError('TG_INDEX_SOURCE', (job.id === 'mc-3' ? REASON_B : REASON_A).slice(17));
    },
    { onCompleted: done, onFailed: (_j, _e, final) => final && done() },
  );
  await four;
  await p.close();
  // Then jobs that wait (no worker), oldest first, in ours and in another queue under the prefix.
  for (const jobId of ['mc-10', 'mc-11', 'mc-12', 'mc-13']) {
    await queue.add('index-mc-block', {}, { jobId });
    await new Promise((r) => setTimeout(r, 5));
  }
  await queue.add('classify-mc-block', {}, { jobId: 'mc-10' });
  await queue.add('some-other', {}, { jobId: 'x-1' });
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await queue?.close();
  await redis?.kill();
});

describe('tongate queue', () => {
  it('status: counts by state, the oldest waiting job, failed jobs grouped by reason', async () => {
    const s = await status();
    expect(s.prefix).toBe(PREFIX);
    expect(s.queues.map((q) => q.name)).toEqual(['index-mc-block', 'classify-mc-block', 'some-other']);
    const ix = byName(s, 'index-mc-block');
    expect(ix?.counts).toEqual({ waiting: 4, active: 0, delayed: 0, failed: 3, completed: 1 });
    expect(ix?.oldestWaiting?.jobId).toBe('mc-10');
    expect(ix?.oldestWaiting?.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(ix?.failed).toEqual({
      total: 3,
      reasons: 2,
      groups: [
        { reason: REASON_A, count: 2, jobIds: ['mc-1', 'mc-2'] },
        { reason: REASON_B, count: 1, jobIds: ['mc-3'] },
      ],
    });
    expect(byName(s, 'classify-mc-block')?.counts.waiting).toBe(1);
    expect(byName(s, 'some-other')?.counts.waiting).toBe(1);

    // The same as lines, with --limit cutting the reasons shown.
    const text = await cli('status', '--queue-prefix', PREFIX, '--name', 'index-mc-block', '--limit', '1');
    expect(text.code, text.err.join('\n')).toBe(0);
    expect(text.out[0]).toContain(`prefix ${PREFIX}`);
    expect(text.out[1]).toMatch(
      /^index-mc-block: 4 waiting, 0 active, 0 delayed, 3 failed, 1 completed; oldest waiting \d+ s \(mc-10\)$/,
    );
    expect(text.out[2]).toBe('  failed, by reason (2 reasons, first 1):');
    expect(text.out[3]).toMatch(new RegExp(`^ +2  ${REASON_A}  \\(mc-1, mc-2\\)$`));
    expect(text.out).toHaveLength(4);
  }, 60_000);

  it('retry-failed moves the failed jobs back to waiting with fresh attempts', async () => {
    const r = await cli('retry-failed', '--queue-prefix', PREFIX);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.out).toContain('index-mc-block: moved 3 failed jobs back to waiting.');
    const ix = byName(await status(), 'index-mc-block');
    expect(ix?.counts).toEqual({ waiting: 7, active: 0, delayed: 0, failed: 0, completed: 1 });
    expect(ix?.failed.total).toBe(0);
    // Fresh attempts: what a worker will see as attemptsMade.
    const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
    const q = new Queue('index-mc-block', { connection: conn, prefix: PREFIX });
    try {
      for (const id of ['mc-1', 'mc-2', 'mc-3']) {
        const job = await q.getJob(id);
        expect(await job?.getState()).toBe('waiting');
        expect(job?.attemptsMade).toBe(0);
      }
    } finally {
      await q.close();
      await conn.quit();
    }
  }, 60_000);

  it('drain refuses without --yes (exit 2, nothing removed) and empties every queue with it', async () => {
    const refused = await cli('drain', '--queue-prefix', PREFIX);
    expect(refused.code).toBe(2);
    expect(refused.err.join('\n')).toMatch(/--yes/);
    const before = await status();
    expect(byName(before, 'index-mc-block')?.counts.waiting).toBe(7);

    const r = await cli('drain', '--yes', '--queue-prefix', PREFIX);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.out).toContain('index-mc-block: removed 7 waiting, 0 delayed, 0 failed, 1 completed.');
    const after = await status();
    for (const q of after.queues) {
      expect(q.counts, q.name).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 });
      expect(q.oldestWaiting).toBeNull();
    }
  }, 60_000);

  it('usage: --help exits 0, no Redis configured or a bad --name exits 2', async () => {
    const [help, noRedis, badName] = await Promise.all([
      cli('status', '--help'),
      (async () => {
        const c = startTongate(['queue', 'status'], {});
        children.push(c);
        return { code: await c.exited, err: c.err };
      })(),
      cli('retry-failed', '--name', 'Not A Name'),
    ]);
    expect(help.code).toBe(0);
    expect(help.out.join('\n')).toContain('Usage: tongate queue status');
    expect(noRedis.code).toBe(2);
    expect(noRedis.err.join('\n')).toMatch(/REDIS_URL/);
    expect(badName.code).toBe(2);
  }, 60_000);

  it('Redis unreachable: one line and exit 75 in under 10 s', async () => {
    await redis.kill();
    const r = await cli('status', '--queue-prefix', PREFIX);
    expect(r.code).toBe(75);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^tongate queue status: cannot reach Redis .*ECONNREFUSED/);
    expect(r.ms).toBeLessThan(10_000);
  }, 60_000);
});
