// Issue 24: backfill and tail without gaps or floods, through the real CLI against one running devnet (its store
// read directly while the node writes it), PostgreSQL and BullMQ on the real Redis:
//  - `walk backfill --from 0` is refused with 2 before anything is queued;
//  - `walk backfill --to` far beyond the head says so, queues nothing past the head (queue counts), says how to
//    start a worker while none runs, and ends 0 once everything up to the head is indexed;
//  - `--follow` waits for the blocks up to --to and indexes them as they appear, no job ever failing as "not
//    available yet";
//  - the README's order (backfill 1..N with no worker yet, later `walk tail`, then workers; the queue's jobs lost
//    on the way, as with a Redis restarted empty): every block from 1 to the head ends indexed with no manual
//    step, the checkpoints contiguous, and trace assembly reaches the head.
// The node is stopped to pause the chain (and started again: it goes on where it stopped) and, in the last test,
// to fix the head.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/index.ts';
import { createDevnetNode, type DevnetInfo, type DevnetNode } from '../../src/devnet/node/index.ts';
import { openDevnetStoreReader } from '../../src/devnet/store/index.ts';
import { INDEX_MC_BLOCK } from '../../src/index/plan/index.ts';
import { traceAssemblyState } from '../../src/index/traces/index.ts';
import { createQueue, type JobQueue } from '../../src/queue/index.ts';
import { type Child, startTongate } from '../helpers/cli.ts';
import { createScratch, type Scratch } from '../helpers/database.ts';
import { startDevnetChain } from '../helpers/devnet-chain.ts';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../helpers/queue.ts';
import { until } from '../helpers/until.ts';

const SEED = 'walk-head-bounds';

let dir: string;
let node: DevnetNode;
let info: DevnetInfo;
let nodeStopped = false;
const scratches: Scratch[] = [];
const prefixes: string[] = [];
const queues: JobQueue[] = [];
const dbs: Database[] = [];
const children: Child[] = [];

function track(c: Child): Child {
  children.push(c);
  return c;
}

/** The store's committed masterchain head, read as the walker reads it. */
async function storeHead(): Promise<number> {
  const reader = await openDevnetStoreReader(info.devnetDir);
  try {
    return (await reader.head())?.mcSeqno ?? 0;
  } finally {
    await reader.close();
  }
}

async function scratchDb(): Promise<{ url: string; db: () => Promise<Database> }> {
  const s = await createScratch('postgres');
  scratches.push(s);
  const url = s.config.kind === 'postgres' ? s.config.url : '';
  return {
    url,
    async db() {
      const db = await createDatabase(s.config);
      dbs.push(db);
      return db;
    },
  };
}

function bullmq(): { prefix: string; queue: JobQueue } {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  const queue = createQueue({ kind: 'bullmq', url: TEST_REDIS_URL, prefix });
  queues.push(queue);
  return { prefix, queue };
}

const lines = (c: Child) => [...c.out, ...c.err];
const notAvailable = (c: Child) => lines(c).filter((l) => l.includes('is not available yet'));

async function total(queue: JobQueue): Promise<number> {
  const c = await queue.counts(INDEX_MC_BLOCK);
  return c.waiting + c.active + c.delayed + c.completed + c.failed;
}

beforeAll(async () => {
  // Slow-ish blocks: the tests wait for a few to appear, and the walkers keep up with the chain on two cores.
  ({ dir, node, info } = await startDevnetChain({ seed: SEED, steps: 2, blockIntervalMs: 400 }));
}, 300_000);

afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  for (const q of queues) await q.close().catch(() => {});
  for (const d of dbs) await d.close().catch(() => {});
  if (!nodeStopped) await node?.stop();
  for (const s of scratches) await s.cleanup();
  for (const p of prefixes) await deletePrefix(p);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('walk backfill and tail within the head', () => {
  it('refuses --from 0 with 2 before anything is queued', async () => {
    const { url } = await scratchDb();
    const { prefix, queue } = bullmq();
    const env = { DATABASE_URL: url, REDIS_URL: TEST_REDIS_URL };
    for (const args of [
      ['walk', 'backfill', '--from', '0', '--to', '5'],
      ['walk', 'tail', '--from', '0'],
    ]) {
      const c = track(startTongate([...args, '--devnet-store', info.devnetDir, '--queue-prefix', prefix], env));
      expect(await c.exited, args.join(' ')).toBe(2);
      const err = c.err.filter((l) => l.trim() !== '');
      expect(err, args.join(' ')).toHaveLength(1);
      expect(err[0]).toMatch(/masterchain block 0 is the zero state, not a block/);
      expect(err[0]).toMatch(/--from 1/);
    }
    expect(await total(queue)).toBe(0);
    // Nothing opened the database either: not even the schema is there.
    const db = await createDatabase({ kind: 'postgres', url, applicationName: 'tongate-test' });
    dbs.push(db);
    const r = await db.query("SELECT to_regclass('public.index_checkpoints') AS t");
    expect(r.rows[0]).toEqual({ t: null });
  }, 180_000);

  it('backfill --to beyond the head queues nothing past it, says how to start a worker, and ends 0 at the head', async () => {
    const { url, db: open } = await scratchDb();
    const { prefix, queue } = bullmq();
    const env = { DATABASE_URL: url, REDIS_URL: TEST_REDIS_URL };
    const common = ['--devnet-store', info.devnetDir, '--queue-prefix', prefix];
    const from = Math.max(1, (await storeHead()) - 3);
    const to = from + 100_000;
    const backfill = track(
      startTongate(['walk', 'backfill', '--from', String(from), '--to', String(to), '--no-progress', ...common], env),
    );
    const headLine = await backfill.waitFor(/the source's masterchain head is \d+, below --to/, 120_000);
    const head = Number(/head is (\d+)/.exec(headLine)?.[1]);
    expect(head).toBeGreaterThanOrEqual(from);
    expect(headLine).toContain(`indexing ${from}..${head} and stopping there`);
    // No worker runs: after a few seconds it says how to start one, once.
    const hint = await backfill.waitFor(/no worker has taken a job/, 120_000);
    expect(hint).toContain(`tongate work --devnet-store ${info.devnetDir} --queue-prefix ${prefix}`);
    expect(hint).toContain('--work');
    // Everything up to the head is queued, nothing past it (the chain has moved on meanwhile: still nothing).
    const c = await queue.counts(INDEX_MC_BLOCK);
    expect(c).toMatchObject({ waiting: head - from + 1, active: 0, completed: 0, failed: 0 });
    expect(await total(queue)).toBe(head - from + 1);
    expect(await queue.getState(INDEX_MC_BLOCK, `mc-${head}`)).toBe('waiting');
    expect(await queue.getState(INDEX_MC_BLOCK, `mc-${head + 1}`)).toBe('unknown');
    expect(await storeHead()).toBeGreaterThan(head);

    const worker = track(startTongate(['work', ...common, '--concurrency', '2'], env));
    expect(await backfill.exited, backfill.err.slice(-10).join('\n')).toBe(0);
    expect(backfill.out.join('\n')).toContain(`Indexed masterchain blocks ${from}..${head}: ${head - from + 1} blocks`);
    expect(backfill.err.filter((l) => /no worker has taken a job/.test(l))).toHaveLength(1);
    // Every job ever queued was for a block up to the head, and none failed for a block that was not there.
    expect(await queue.counts(INDEX_MC_BLOCK)).toMatchObject({ completed: head - from + 1, failed: 0 });
    expect(await total(queue)).toBe(head - from + 1);
    worker.proc.kill('SIGTERM');
    expect(await worker.exited, worker.err.slice(-10).join('\n')).toBe(0);
    expect(notAvailable(worker)).toEqual([]);
    const db = await open();
    const r = await db.query<{ n: string; min: number; max: number }>(
      "SELECT count(*)::text AS n, min(mc_seqno) AS min, max(mc_seqno) AS max FROM index_checkpoints WHERE part = 'core'",
    );
    expect(r.rows[0]).toEqual({ n: String(head - from + 1), min: from, max: head });
  }, 180_000);

  it('backfill --follow waits for the blocks up to --to and indexes them as they appear', async () => {
    const { url, db: open } = await scratchDb();
    // The chain pauses (the node stopped), so the walker sees the head below --to however long it takes to start.
    await node.stop();
    const paused = await storeHead();
    const from = Math.max(1, paused - 2);
    const to = paused + 6;
    // Embedded: the in-process queue, and this process works its jobs (its queue's failures are in its log).
    const run = track(
      startTongate(
        ['walk', 'backfill', '--from', String(from), '--to', String(to), '--follow', '--devnet-store', info.devnetDir],
        { DATABASE_URL: url },
      ),
    );
    expect(await run.waitFor(/masterchain head is \d+, below --to/, 120_000)).toContain(
      `masterchain head is ${paused}, below --to ${to}: indexing up to it, then each block up to ${to} as it appears (--follow)`,
    );
    await run.waitFor(/"msg":"Waiting for the source to produce blocks"/, 120_000);
    // The node goes on where it stopped; the walker indexes the new blocks as they appear, and ends at --to.
    node = createDevnetNode({
      dataDir: dir,
      litePort: 0,
      httpPort: 0,
      blockIntervalMs: 400,
      sync: false,
      seed: SEED,
    });
    info = await node.start();
    expect(await run.exited, run.err.slice(-10).join('\n')).toBe(0);
    expect(run.out.join('\n')).toContain(`Indexed masterchain blocks ${from}..${to}: ${to - from + 1} blocks`);
    // It waited for blocks instead of queueing jobs for them (a job for a missing block fails "not available yet").
    expect(notAvailable(run)).toEqual([]);
    expect(run.err.some((l) => l.includes('"msg":"Saw the source produce the blocks it waited for"'))).toBe(true);
    const db = await open();
    const r = await db.query<{ n: string; max: number }>(
      "SELECT count(*)::text AS n, max(mc_seqno) AS max FROM index_checkpoints WHERE part = 'core'",
    );
    expect(r.rows[0]).toEqual({ n: String(to - from + 1), max: to });
  }, 180_000);

  it('README order: backfill 1..N, tail started later, jobs lost, workers last: 1..head indexed, traces at the head', async () => {
    const { url, db: open } = await scratchDb();
    const { prefix, queue } = bullmq();
    const env = { DATABASE_URL: url, REDIS_URL: TEST_REDIS_URL };
    const common = ['--devnet-store', info.devnetDir, '--queue-prefix', prefix];
    const n = 5;
    // The backfill plans 1..N and waits: no worker runs yet.
    const backfill = track(startTongate(['walk', 'backfill', '--from', '1', '--to', String(n), ...common], env));
    await backfill.waitFor(/"msg":"Planned backfill"/, 120_000);
    await until('the chain to move past the backfill', async () => (await storeHead()) >= n + 10, 90_000);
    // Tail started later, still before any worker: nothing is indexed, yet it starts where assembly needs blocks.
    const tail = track(startTongate(['walk', 'tail', '--poll-ms', '100', ...common], env));
    const started = JSON.parse(await tail.waitFor(/"msg":"Started following the masterchain head"/, 60_000)) as {
      from: number;
      head: number;
    };
    expect(started.from).toBe(1);
    expect(started.head).toBeGreaterThan(n + 1);
    await tail.waitFor(/tongate walk tail: no worker has taken a job/, 120_000);
    // Blocks between the backfill and the head are queued too.
    expect(await queue.getState(INDEX_MC_BLOCK, `mc-${n + 1}`)).toBe('waiting');
    expect(await queue.getState(INDEX_MC_BLOCK, `mc-${started.head}`)).toBe('waiting');
    // The chain stops, fixing the head; Redis loses every job (restarted empty); then a worker starts.
    await node.stop();
    nodeStopped = true;
    const head = await storeHead();
    await deletePrefix(prefix);
    const worker = track(startTongate(['work', ...common, '--concurrency', '2'], env));

    expect(await backfill.exited, backfill.err.slice(-10).join('\n')).toBe(0);
    expect(backfill.out.join('\n')).toContain(`Indexed masterchain blocks 1..${n}: ${n} blocks`);
    const caughtUp = await tail.waitFor(
      // A JSON record's fields come before its msg (pino).
      new RegExp(`"indexedThrough":${head},"lag":0,"state":"following".*"msg":"Followed the masterchain head"`),
      120_000,
    );
    expect(JSON.parse(caughtUp)).toMatchObject({ head, enqueuedThrough: head });
    // The tail put back the jobs Redis lost.
    expect(tail.err.some((l) => l.includes('"msg":"Re-queued gaps"'))).toBe(true);
    // Every block from 1 to the head is indexed, once.
    const db = await open();
    const r = await db.query<{ n: string; min: number; max: number }>(
      "SELECT count(*)::text AS n, min(mc_seqno) AS min, max(mc_seqno) AS max FROM index_checkpoints WHERE part = 'core'",
    );
    expect(r.rows[0]).toEqual({ n: String(head), min: 1, max: head });
    // Trace assembly, which needs every block in order from 1, reaches the head; every transaction has its trace.
    const assembled = await until(
      'trace assembly to reach the head',
      async () => {
        const s = await traceAssemblyState(db);
        return s && s.nextMcSeqno > head ? s : null;
      },
      90_000,
    );
    expect(assembled).toEqual({ firstMcSeqno: 1, nextMcSeqno: head + 1 });
    const untraced = await db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM transactions WHERE trace_id IS NULL',
    );
    expect(untraced.rows[0]?.n).toBe('0');
    // Log lines per state change, not per block or per poll.
    const followed = tail.err.filter((l) => l.includes('"msg":"Followed the masterchain head"'));
    expect(followed.length).toBeLessThan(head - n);
    expect(JSON.parse(followed[0] ?? '{}')).toMatchObject({ state: 'catching-up' });
    expect(tail.err.filter((l) => /no worker has taken a job/.test(l))).toHaveLength(1);
    expect(notAvailable(worker)).toEqual([]);
    tail.proc.kill('SIGTERM');
    worker.proc.kill('SIGTERM');
    expect(await tail.exited, tail.err.slice(-10).join('\n')).toBe(0);
    expect(await worker.exited, worker.err.slice(-10).join('\n')).toBe(0);
  }, 180_000);
});
