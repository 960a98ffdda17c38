// Issue 5: "the same when Redis or Postgres restarts under a running worker". A BullMQ backfill of a devnet
// store runs with `tongate work` and `tongate walk backfill` as child processes; mid-run, (a) a private
// redis-server (not the shared test one, other files use it) is killed and started again empty on the same
// port, (b) PostgreSQL drops every session of the database and refuses new ones for a while, as a restart
// looks to clients. The processes must ride it out, and the database must end identical (checksum over all
// tables) to an uninterrupted in-process run.
import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createDatabase, migrate } from '../../src/db/index.ts';
import type { DevnetInfo } from '../../src/devnet/node/index.ts';
import { openDevnetStoreReader } from '../../src/devnet/store/index.ts';
import { createDevnetStoreSource } from '../../src/index/index.ts';
import { type Child, startTongate } from '../helpers/cli.ts';
import { adminClient, createScratch, type Scratch } from '../helpers/database.ts';
import { freePort, startDevnetChain } from '../helpers/devnet-chain.ts';
import { checksums, checksumsOf, indexInOrder } from '../helpers/index-checksums.ts';
import { until } from '../helpers/until.ts';

const SEED = 'walk-restart';
let dir: string;
let info: DevnetInfo;
let head: number;
let reference: Awaited<ReturnType<typeof checksums>>;
const scratches: Scratch[] = [];
const children: Child[] = [];
const redises: ChildProcess[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A throwaway redis-server on `port`, without persistence: a restart loses every key (the worst case). */
async function startRedis(port: number): Promise<ChildProcess> {
  const p = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  redises.push(p);
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
    p.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('Ready to accept connections')) {
        clearTimeout(t);
        resolve();
      }
    });
    p.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return p;
}

const urlOf = (s: Scratch) => (s.config.kind === 'postgres' ? s.config.url : '');
const dbNameOf = (s: Scratch) => new URL(urlOf(s)).pathname.slice(1);

beforeAll(async () => {
  ({ dir, info } = await startDevnetChain({ seed: SEED, stop: true }));
  const reader = await openDevnetStoreReader(info.devnetDir);
  head = (await reader.head())?.mcSeqno ?? 0;
  await reader.close();
  // The uninterrupted run: the same pipeline in this process, block by block.
  const ref = await createScratch('postgres');
  scratches.push(ref);
  const db = await createDatabase(ref.config);
  const source = await createDevnetStoreSource(info.devnetDir);
  try {
    await migrate(db);
    await indexInOrder(db, source, 1, head);
    reference = await checksums(db);
  } finally {
    await source.close();
    await db.close();
  }
}, 600_000);

afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  for (const r of redises) if (r.exitCode === null && r.signalCode === null) r.kill('SIGKILL');
  for (const s of scratches) await s.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function track(c: Child): Child {
  children.push(c);
  // What each process said last, when a test fails (a hang otherwise shows only a timeout).
  onTestFailed(() => {
    console.error(
      `--- ${c.proc.spawnargs.slice(2, 4).join(' ')} (exit ${c.proc.exitCode}):\n${c.err.slice(-90).join('\n')}`,
    );
  });
  return c;
}

/** The planner's exit code; throws at once if the worker dies first (the planner would wait for it forever). */
async function finished(planner: Child, worker: Child): Promise<number | null> {
  let done = false;
  const died = worker.exited.then((code) => {
    if (done) return null;
    throw new Error(`the worker exited (${code}) before the backfill finished:\n${worker.err.slice(-40).join('\n')}`);
  });
  died.catch(() => {});
  try {
    return await Promise.race([planner.exited, died]);
  } finally {
    done = true;
  }
}

const indexedLines = (c: Child) => c.err.filter((l) => l.includes('"msg":"Indexed masterchain block"')).length;

describe('BullMQ backfill through restarts', () => {
  it('survives Redis being killed and restarted empty: the database ends identical', async () => {
    expect(head).toBeGreaterThan(5);
    const port = await freePort();
    let redis = await startRedis(port);
    const pg = await createScratch('postgres');
    scratches.push(pg);
    const env = { DATABASE_URL: urlOf(pg), REDIS_URL: `redis://127.0.0.1:${port}` };
    const common = ['--devnet-store', info.devnetDir];
    const worker = track(startTongate(['work', ...common, '--concurrency', '2', '--lock-ms', '2000'], env));
    await until('the worker to start', () => worker.err.some((l) => l.includes('"msg":"Started worker"')), 300_000);
    const backfill = track(startTongate(['walk', 'backfill', '--from', '1', '--to', String(head), ...common], env));
    await until('indexed blocks', () => indexedLines(worker) >= 2, 300_000);
    redis.kill('SIGKILL');
    await new Promise((r) => redis.once('exit', r));
    await sleep(1500);
    redis = await startRedis(port);
    expect(await finished(backfill, worker), backfill.err.slice(-15).join('\n')).toBe(0);
    expect(backfill.out.join('\n')).toContain(`Indexed masterchain blocks 1..${head}`);
    // Both really saw the outage (the planner waited it out; the worker lost and regained its connection).
    expect(backfill.err.some((l) => l.includes('"msg":"Lost the queue or database, retrying"'))).toBe(true);
    expect(worker.err.some((l) => l.includes('"msg":"Lost the connection to Redis, reconnecting"'))).toBe(true);
    // The worker rode it out: still running, then stops cleanly.
    expect(worker.proc.exitCode).toBeNull();
    worker.proc.kill('SIGTERM');
    expect(await worker.exited, worker.err.slice(-15).join('\n')).toBe(0);
    expect(await checksumsOf(pg.config)).toEqual(reference);
  }, 600_000);

  it('survives PostgreSQL cutting every session again and again for 2 s: the database ends identical', async () => {
    const port = await freePort();
    await startRedis(port);
    const pg = await createScratch('postgres');
    scratches.push(pg);
    const name = dbNameOf(pg);
    const env = { DATABASE_URL: urlOf(pg), REDIS_URL: `redis://127.0.0.1:${port}` };
    const common = ['--devnet-store', info.devnetDir];
    const worker = track(startTongate(['work', ...common, '--concurrency', '2', '--lock-ms', '2000'], env));
    await until('the worker to start', () => worker.err.some((l) => l.includes('"msg":"Started worker"')), 300_000);
    const backfill = track(startTongate(['walk', 'backfill', '--from', '1', '--to', String(head), ...common], env));
    await until('indexed blocks', () => indexedLines(worker) >= 2, 300_000);
    const admin = await adminClient();
    try {
      // What clients see of a restart: every session cut (57P01 admin_shutdown), again and again for 2 s, so
      // reconnects fail too until it is over.
      const end = Date.now() + 2000;
      let cut = 0;
      while (Date.now() < end) {
        const r = await admin.query(
          'SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        cut += Number(r.rows[0].n);
        await sleep(50);
      }
      expect(cut).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    expect(await finished(backfill, worker), backfill.err.slice(-15).join('\n')).toBe(0);
    // Jobs cut mid-transaction failed an attempt and were retried; nothing half-written stayed.
    expect(worker.err.some((l) => l.includes('"msg":"Failed job attempt, will retry"'))).toBe(true);
    expect(worker.proc.exitCode).toBeNull();
    worker.proc.kill('SIGTERM');
    expect(await worker.exited, worker.err.slice(-15).join('\n')).toBe(0);
    expect(await checksumsOf(pg.config)).toEqual(reference);
  }, 600_000);
});
