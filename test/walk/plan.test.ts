// Planning against a real database (PostgreSQL and PGlite) and real queues (in-process and BullMQ):
// backfill skips checkpointed blocks, gaps are found and re-queued, tail follows a moving head. The
// processor here is a stub that writes only the checkpoint row; the real one is tested end to end in
// test/walk/walk-cli.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/index.ts';
import { migrate } from '../../src/db/index.ts';
import {
  createBackfillWindows,
  createWorkerWatch,
  findGaps,
  INDEX_MC_BLOCK,
  type IndexMcBlockJob,
  planBackfill,
  rangeProgress,
  refreshIndexedRanges,
  requeueGaps,
  runTail,
  type TailStatus,
  tailResumePoint,
} from '../../src/index/plan/index.ts';
import { startTraceAssembly } from '../../src/index/traces/index.ts';
import { setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { setupQueue, type TestQueue } from '../helpers/queue.ts';

const ROOT = Buffer.alloc(32, 7).toString('base64');

async function checkpoint(db: Queryable, seqno: number, transactions = 0) {
  await db.query(
    `INSERT INTO index_checkpoints (part, mc_seqno, mc_root_hash, decoder_version, row_counts)
     VALUES ('core', $1, $2, 1, $3) ON CONFLICT DO NOTHING`,
    [seqno, ROOT, { transactions }],
  );
}

const CASES = [
  { db: 'pglite', queue: 'local' },
  { db: 'postgres', queue: 'bullmq' },
] as const;

describe.each(CASES)('planning ($db, $queue)', ({ db: dbKind, queue: queueKind }) => {
  let tdb: TestDatabase;
  let tq: TestQueue;
  beforeEach(async () => {
    tdb = await setupDatabase(dbKind);
    await migrate(tdb.db);
    tq = setupQueue(queueKind, { policy: { attempts: 2, backoffMs: 5, jitter: 0 } });
  });
  afterEach(async () => {
    await tq.cleanup();
    await tdb.cleanup();
  });

  it('backfill enqueues only seqnos without a checkpoint, and re-planning adds nothing', async () => {
    await checkpoint(tdb.db, 3);
    await checkpoint(tdb.db, 5);
    const plan = await planBackfill({ queue: tq.queue, db: tdb.db, from: 1, to: 6, chunk: 2 });
    expect(plan).toEqual({ from: 1, to: 6, total: 6, indexed: 2, added: 4, missing: 4 });
    const states = await Promise.all([1, 2, 3, 4, 5, 6].map((s) => tq.queue.getState(INDEX_MC_BLOCK, `mc-${s}`)));
    expect(states).toEqual(['waiting', 'waiting', 'unknown', 'waiting', 'unknown', 'waiting']);
    const again = await planBackfill({ queue: tq.queue, db: tdb.db, from: 1, to: 6 });
    expect(again).toMatchObject({ added: 0, missing: 4, indexed: 2 });
    await expect(planBackfill({ queue: tq.queue, db: tdb.db, from: 5, to: 4 })).rejects.toThrow(/from <= to/);
  });

  it('finds gaps and re-queues them, restarting jobs that finished without a checkpoint', async () => {
    for (const s of [10, 11, 13, 16]) await checkpoint(tdb.db, s);
    expect(await findGaps(tdb.db, 10, 16)).toEqual([12, 14, 15]);
    // mc-12 "completed" without writing its checkpoint (a lost write), mc-14 fails for good.
    const runs: number[] = [];
    const p = tq.queue.process<IndexMcBlockJob, void>(INDEX_MC_BLOCK, async (job) => {
      runs.push(job.data.mcSeqno);
      if (job.data.mcSeqno === 14 && runs.filter((s) => s === 14).length <= 2) throw new Error('source down');
      if (runs.filter((s) => s === job.data.mcSeqno).length > 1 || job.data.mcSeqno === 15) {
        await checkpoint(tdb.db, job.data.mcSeqno);
      }
    });
    await planBackfill({ queue: tq.queue, db: tdb.db, from: 10, to: 16 });
    await tq.queue.whenIdle(INDEX_MC_BLOCK, { pollMs: 20 });
    expect(await tq.queue.getState(INDEX_MC_BLOCK, 'mc-14')).toBe('failed');
    expect(await findGaps(tdb.db, 10, 16)).toEqual([12, 14]);
    // A re-plan does not restart finished jobs (their ids dedupe); gap repair does.
    expect((await planBackfill({ queue: tq.queue, db: tdb.db, from: 10, to: 16 })).added).toBe(0);
    const report = await requeueGaps({ queue: tq.queue, db: tdb.db });
    expect(report).toEqual({ from: 10, to: 16, gaps: [12, 14], requeued: 2 });
    await tq.queue.whenIdle(INDEX_MC_BLOCK, { pollMs: 20 });
    expect(await findGaps(tdb.db, 10, 16)).toEqual([]);
    expect(await refreshIndexedRanges(tdb.db)).toEqual([{ first: 10, last: 16 }]);
    const stored = await tdb.db.query('SELECT first_mc_seqno, last_mc_seqno FROM indexed_ranges WHERE part = $1', [
      'core',
    ]);
    expect(stored.rows).toEqual([{ first_mc_seqno: 10, last_mc_seqno: 16 }]);
    await p.close();
  });

  it('folds checkpoints into ranges and sums progress', async () => {
    for (const s of [1, 2, 3, 7, 8, 20]) await checkpoint(tdb.db, s, s);
    expect(await refreshIndexedRanges(tdb.db)).toEqual([
      { first: 1, last: 3 },
      { first: 7, last: 8 },
      { first: 20, last: 20 },
    ]);
    expect(await rangeProgress(tdb.db, 2, 8)).toEqual({ blocks: 4, transactions: 2 + 3 + 7 + 8 });
  });

  it('tail enqueues new seqnos in order as the head moves and reports the lag', async () => {
    await checkpoint(tdb.db, 4);
    let head = 6;
    const source = { head: async () => head };
    const order: number[] = [];
    const p = tq.queue.process<IndexMcBlockJob, void>(INDEX_MC_BLOCK, async (job) => {
      order.push(job.data.mcSeqno);
      await checkpoint(tdb.db, job.data.mcSeqno);
    });
    const ac = new AbortController();
    const statuses: TailStatus[] = [];
    const running = runTail({
      queue: tq.queue,
      db: tdb.db,
      source,
      pollMs: 10,
      signal: ac.signal,
      onStatus: (s) => {
        statuses.push(s);
        if (s.indexedThrough >= 6 && head === 6) head = 9;
        if (s.indexedThrough >= 9) ac.abort();
      },
    });
    await running;
    await p.close();
    // The tail starts after the highest checkpoint (4) and never re-enqueues.
    expect(order).toEqual([5, 6, 7, 8, 9]);
    expect(statuses[0]).toMatchObject({ head: 6, enqueuedThrough: 6 });
    expect(statuses.at(-1)).toMatchObject({ head: 9, indexedThrough: 9, lag: 0 });
    expect(statuses.some((s) => s.lag > 0)).toBe(true);
  });

  it('backfill windows never plan past the head and stop at the backlog limit', async () => {
    const w = createBackfillWindows({ queue: tq.queue, db: tdb.db, from: 1, to: 100, window: 3, maxBacklog: 4 });
    expect(await w.extend(10)).toMatchObject({ from: 1, to: 4, added: 4 });
    expect(w.plannedThrough).toBe(4);
    // The backlog is full: nothing more until workers take jobs.
    expect(await w.extend(10)).toBeNull();
    const p = tq.queue.process<IndexMcBlockJob, void>(INDEX_MC_BLOCK, async (job) => {
      await checkpoint(tdb.db, job.data.mcSeqno);
    });
    while (w.plannedThrough < 10) {
      await w.extend(10);
      await tq.queue.whenIdle(INDEX_MC_BLOCK, { pollMs: 20 });
    }
    expect(await w.extend(10)).toBeNull();
    await p.close();
    expect(w.planned).toMatchObject({ from: 1, to: 10, total: 10, added: 10 });
    expect(await tq.queue.getState(INDEX_MC_BLOCK, 'mc-10')).toBe('completed');
    expect(await tq.queue.getState(INDEX_MC_BLOCK, 'mc-11')).toBe('unknown');
    // The head moves: the next window follows it, and only it.
    await w.extend(12);
    expect(w.plannedThrough).toBe(12);
    expect(await tq.queue.getState(INDEX_MC_BLOCK, 'mc-13')).toBe('unknown');
    expect(() => createBackfillWindows({ queue: tq.queue, db: tdb.db, from: 0, to: 5 })).toThrow(/1 <= from/);
  });

  it('a tail resumes at the first unindexed block after the contiguous ones', async () => {
    expect(await tailResumePoint(tdb.db)).toBeNull();
    for (const s of [1, 2, 3, 7, 8]) await checkpoint(tdb.db, s);
    expect(await tailResumePoint(tdb.db)).toEqual({ from: 4, after: 'checkpoints' });
    // Trace assembly planned from 1 (a backfill from 1): the same answer from the watermark.
    await startTraceAssembly(tdb.db, 1);
    expect(await tailResumePoint(tdb.db)).toEqual({ from: 4, after: 'trace-assembly' });
    await checkpoint(tdb.db, 4);
    await checkpoint(tdb.db, 5);
    await checkpoint(tdb.db, 6);
    expect(await tailResumePoint(tdb.db)).toEqual({ from: 9, after: 'trace-assembly' });
  });

  it('a tail far behind keeps the backlog bounded, logs state changes only, and says when no worker takes jobs', async () => {
    const ac = new AbortController();
    const logged: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
    const noWorker: number[] = [];
    let polls = 0;
    await runTail({
      queue: tq.queue,
      db: tdb.db,
      source: { head: async () => 100 },
      from: 1,
      pollMs: 10,
      maxPerPoll: 3,
      maxBacklog: 5,
      noWorkerMs: 0,
      onNoWorker: (c) => noWorker.push(c.waiting),
      signal: ac.signal,
      log: (_level, msg, fields) => logged.push({ msg, ...(fields ? { fields } : {}) }),
      onStatus: () => {
        polls += 1;
        if (polls >= 20) ac.abort();
      },
    });
    const c = await tq.queue.counts(INDEX_MC_BLOCK);
    expect(c.waiting).toBe(5);
    expect(await tq.queue.getState(INDEX_MC_BLOCK, 'mc-5')).toBe('waiting');
    expect(await tq.queue.getState(INDEX_MC_BLOCK, 'mc-6')).toBe('unknown');
    // 20 polls, one state: one status line.
    const followed = logged.filter((l) => l.msg === 'Followed the masterchain head');
    expect(followed).toHaveLength(1);
    expect(followed[0]?.fields).toMatchObject({ state: 'catching-up', head: 100, indexedThrough: 0 });
    expect(noWorker).toHaveLength(1);
    expect(noWorker[0]).toBeGreaterThan(0);
  });
});

describe('worker watch', () => {
  it('fires once, after jobs waited with nothing active, finishing or progressing for the whole period', () => {
    let t = 0;
    const watch = createWorkerWatch({ afterMs: 1000, now: () => t });
    const idle = { waiting: 3, active: 0, delayed: 0, completed: 7, failed: 0 };
    expect(watch(idle, 0)).toBe(false);
    t = 900;
    expect(watch(idle, 0)).toBe(false);
    // A job finished: a worker is there; the period starts again.
    t = 950;
    expect(watch({ ...idle, completed: 8 }, 0)).toBe(false);
    t = 1900;
    expect(watch({ ...idle, completed: 8 }, 0)).toBe(false);
    // Active jobs, or nothing waiting, are no reason either.
    t = 5000;
    expect(watch({ ...idle, completed: 8, active: 1 }, 0)).toBe(false);
    expect(watch({ ...idle, completed: 8, waiting: 0 }, 0)).toBe(false);
    t = 6000;
    expect(watch({ ...idle, completed: 8 }, 0)).toBe(false);
    t = 7000;
    expect(watch({ ...idle, completed: 8 }, 0)).toBe(true);
    t = 9000;
    expect(watch({ ...idle, completed: 8 }, 0)).toBe(false);
  });
});
