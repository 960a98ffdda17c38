// Planning against a real database (PostgreSQL and PGlite) and real queues (in-process and BullMQ):
// backfill skips checkpointed blocks, gaps are found and re-queued, tail follows a moving head. The
// processor here is a stub that writes only the checkpoint row; the real one is tested end to end in
// test/walk/walk-cli.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/index.ts';
import { migrate } from '../../src/db/index.ts';
import {
  findGaps,
  INDEX_MC_BLOCK,
  type IndexMcBlockJob,
  planBackfill,
  rangeProgress,
  refreshIndexedRanges,
  requeueGaps,
  runTail,
  type TailStatus,
} from '../../src/index/plan/index.ts';
import { setupDatabase, type TestDatabase } from '../db/setup-database.ts';
import { setupQueue, type TestQueue } from '../queue/support.ts';

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
});
