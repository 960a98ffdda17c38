// The job queue contract, run on both back ends: the in-process queue and BullMQ on a real Redis.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, DbError } from '../../src/common/index.ts';
import type { Job, QueueOptions } from '../../src/queue/index.ts';
import { QUEUE_KINDS, type QueueKind, setupQueue, type TestQueue } from '../helpers/queue.ts';

const FAST: QueueOptions = { policy: { attempts: 4, backoffMs: 10, jitter: 0 } };

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe.each(QUEUE_KINDS)('queue (%s)', (kind: QueueKind) => {
  let t: TestQueue | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('dedupes by jobId while a job waits and after it completed; requeue runs it again', async () => {
    t = setupQueue(kind, FAST);
    const q = t.queue;
    expect(await q.add('index-mc-block', { mcSeqno: 1 }, { jobId: 'mc-1' })).toBe(true);
    expect(await q.add('index-mc-block', { mcSeqno: 1 }, { jobId: 'mc-1' })).toBe(false);
    expect(
      await q.addBulk([
        { name: 'index-mc-block', data: { mcSeqno: 1 }, jobId: 'mc-1' },
        { name: 'index-mc-block', data: { mcSeqno: 2 }, jobId: 'mc-2' },
      ]),
    ).toBe(1);
    expect(await q.getState('index-mc-block', 'mc-2')).toBe('waiting');
    const seen: number[] = [];
    const p = q.process<{ mcSeqno: number }, number>('index-mc-block', async (job) => {
      seen.push(job.data.mcSeqno);
      return job.data.mcSeqno;
    });
    await q.whenIdle('index-mc-block', { pollMs: 20 });
    expect(seen.sort()).toEqual([1, 2]);
    expect(await q.getState('index-mc-block', 'mc-1')).toBe('completed');
    // A completed id that is still kept dedupes a re-plan.
    expect(await q.add('index-mc-block', { mcSeqno: 1 }, { jobId: 'mc-1' })).toBe(false);
    // requeue restarts a finished job; a waiting one is left alone.
    expect(await q.requeue('index-mc-block', { mcSeqno: 1 }, { jobId: 'mc-1' })).toBe(true);
    await q.whenIdle('index-mc-block', { pollMs: 20 });
    expect(seen.sort()).toEqual([1, 1, 2]);
    await p.close();
    const c = await q.counts('index-mc-block');
    expect(c).toMatchObject({ waiting: 0, active: 0, delayed: 0, completed: 2, failed: 0 });
  });

  it('refuses job ids BullMQ cannot use (colon, all digits) and names that are not kebab-case', async () => {
    t = setupQueue(kind, FAST);
    for (const jobId of ['123', 'mc:1', '']) {
      await expect(t.queue.add('index-mc-block', {}, { jobId })).rejects.toMatchObject({ code: 'TG_QUEUE_USAGE' });
    }
    await expect(t.queue.add('Index Block', {}, { jobId: 'mc-1' })).rejects.toMatchObject({ code: 'TG_QUEUE_USAGE' });
  });

  it('retries a retryable failure with backoff and fresh attempts, then completes', async () => {
    t = setupQueue(kind, FAST);
    const q = t.queue;
    const attempts: number[] = [];
    const failures: boolean[] = [];
    const done = deferred();
    q.process(
      'index-mc-block',
      async (job: Job<{ n: number }>) => {
        attempts.push(job.attemptsMade);
        if (job.attemptsMade < 2) throw new DbError('TG_DB_UNAVAILABLE', 'connection lost');
        return 'ok';
      },
      { onFailed: (_j, _e, final) => failures.push(final), onCompleted: () => done.resolve() },
    );
    await q.add('index-mc-block', { n: 1 }, { jobId: 'mc-7' });
    await done.promise;
    expect(attempts).toEqual([0, 1, 2]);
    expect(failures).toEqual([false, false]);
    await q.whenIdle('index-mc-block', { pollMs: 20 });
    expect(await q.getState('index-mc-block', 'mc-7')).toBe('completed');
  });

  it('fails a job after its attempts are used up', async () => {
    t = setupQueue(kind, { policy: { attempts: 3, backoffMs: 5, jitter: 0 } });
    const q = t.queue;
    let runs = 0;
    const finals: boolean[] = [];
    q.process(
      'index-mc-block',
      async () => {
        runs += 1;
        throw new Error('plain errors are retried');
      },
      { onFailed: (_j, _e, final) => finals.push(final) },
    );
    await q.add('index-mc-block', {}, { jobId: 'mc-3' });
    await q.whenIdle('index-mc-block', { pollMs: 20 });
    expect(runs).toBe(3);
    expect(finals).toEqual([false, false, true]);
    expect(await q.getState('index-mc-block', 'mc-3')).toBe('failed');
    expect(await q.failedReason('index-mc-block', 'mc-3')).toContain('plain errors are retried');
    // A failed job is kept, so add does not restart it; requeue does.
    expect(await q.add('index-mc-block', {}, { jobId: 'mc-3' })).toBe(false);
    expect(await q.requeue('index-mc-block', {}, { jobId: 'mc-3' })).toBe(true);
    await q.whenIdle('index-mc-block', { pollMs: 20 });
    expect(runs).toBe(6);
  });

  it('fails a non-retryable error once, keeping its code in the reason', async () => {
    t = setupQueue(kind, FAST);
    const q = t.queue;
    let runs = 0;
    const finals: boolean[] = [];
    q.process(
      'index-mc-block',
      async () => {
        runs += 1;
        throw new ConfigError('bad lite config');
      },
      { onFailed: (_j, _e, final) => finals.push(final) },
    );
    await q.add('index-mc-block', {}, { jobId: 'mc-9' });
    await q.whenIdle('index-mc-block', { pollMs: 20 });
    expect(runs).toBe(1);
    expect(finals).toEqual([true]);
    expect(await q.getState('index-mc-block', 'mc-9')).toBe('failed');
    expect(await q.failedReason('index-mc-block', 'mc-9')).toContain('TG_CONFIG_INVALID');
  });

  it('runs up to `concurrency` jobs at once and never more', async () => {
    t = setupQueue(kind, FAST);
    const q = t.queue;
    await q.addBulk(Array.from({ length: 9 }, (_, i) => ({ name: 'index-mc-block', data: { i }, jobId: `mc-${i}` })));
    let active = 0;
    let peak = 0;
    const three = deferred();
    q.process(
      'index-mc-block',
      async () => {
        active += 1;
        peak = Math.max(peak, active);
        if (active === 3) three.resolve();
        // The first jobs wait until three run together: with less concurrency this never resolves.
        await three.promise;
        await new Promise((r) => setTimeout(r, 5));
        active -= 1;
      },
      { concurrency: 3 },
    );
    await q.whenIdle('index-mc-block', { pollMs: 20 });
    expect(peak).toBe(3);
    expect((await q.counts('index-mc-block')).completed).toBe(9);
  });

  it('close waits for the active job, then refuses new work', async () => {
    t = setupQueue(kind, FAST);
    const q = t.queue;
    const started = deferred();
    const release = deferred();
    let finished = false;
    q.process('index-mc-block', async () => {
      started.resolve();
      await release.promise;
      finished = true;
    });
    await q.add('index-mc-block', {}, { jobId: 'mc-1' });
    await started.promise;
    const closing = q.close();
    setTimeout(() => release.resolve(), 20);
    await closing;
    expect(finished).toBe(true);
    await expect(q.add('index-mc-block', {}, { jobId: 'mc-2' })).rejects.toMatchObject({ code: 'TG_QUEUE_USAGE' });
  });

  it('hands jobs added by one queue object to a processor on another (another process, in effect)', async () => {
    t = setupQueue(kind, FAST);
    if (kind === 'local') {
      // The in-process queue is per process by design: a second object shares nothing.
      const other = t.another();
      await t.queue.add('index-mc-block', {}, { jobId: 'mc-1' });
      expect(await other.getState('index-mc-block', 'mc-1')).toBe('unknown');
      return;
    }
    const producer = t.queue;
    const consumer = t.another();
    const got: number[] = [];
    consumer.process<{ n: number }, void>(
      'index-mc-block',
      async (job) => {
        got.push(job.data.n);
      },
      { concurrency: 2 },
    );
    await producer.addBulk([1, 2, 3].map((n) => ({ name: 'index-mc-block', data: { n }, jobId: `mc-${n}` })));
    await producer.whenIdle('index-mc-block', { pollMs: 20 });
    expect(got.sort()).toEqual([1, 2, 3]);
  });
});
