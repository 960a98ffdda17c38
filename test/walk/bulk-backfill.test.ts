// Issue 23, item 4: `tongate walk backfill --bulk` as operators run it (a child process through bin/tongate.js) on a
// devnet store into real PostgreSQL databases. The reference is a plain `walk backfill` of the same range:
//  - a --bulk run ends with the same index set (pg_indexes) as a freshly migrated database and the same rows
//    (checksum over every table indexing writes: core, contract decoders, traces, actions);
//  - SIGKILL during the load, then the same command again: same rows, same index set, empty record;
//  - SIGKILL during the drop phase, again during the rebuild, then `tongate db indexes --restore` and the command
//    again: the same.
// The kills are placed by locks the test holds (an advisory lock on a block the writer takes, a SHARE UPDATE
// EXCLUSIVE lock on a table the index statements need), so each lands in its phase without any timing.
// PGlite is refused with exit 2.
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { DatabaseConfig } from '../../src/common/index.ts';
import { createDatabase, migrate } from '../../src/db/index.ts';
import type { DevnetInfo } from '../../src/devnet/node/index.ts';
import { openDevnetStoreReader } from '../../src/devnet/store/index.ts';
import {
  BULK_KEEP_INDEXES,
  BULK_TABLES,
  buildStatement,
  openBulkIndexes,
  type RecordedIndex,
  secondaryIndexes,
} from '../../src/index/plan/bulk.ts';
import { type Child, startTongate } from '../helpers/cli.ts';
import { createScratch, type Scratch } from '../helpers/database.ts';
import { startDevnetChain } from '../helpers/devnet-chain.ts';
import { CONTRACT_TABLES, checksums } from '../helpers/index-checksums.ts';
import { until } from '../helpers/until.ts';

const SEED = 'walk-bulk';
type Sums = Record<string, { rows: number; md5: string }>;

let dir: string;
let info: DevnetInfo;
let head: number;
let reference: Sums;
let referenceIndexes: string[];
const scratches: Scratch[] = [];
const children: Child[] = [];
const clients: pg.Client[] = [];

const urlOf = (s: Scratch) => (s.config.kind === 'postgres' ? s.config.url : '');

function track(c: Child): Child {
  children.push(c);
  onTestFailed(() => {
    console.error(
      `--- ${c.proc.spawnargs.slice(2, 5).join(' ')} (exit ${c.proc.exitCode}):\n${c.err.slice(-40).join('\n')}`,
    );
  });
  return c;
}

async function client(s: Scratch): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: urlOf(s) });
  await c.connect();
  clients.push(c);
  return c;
}

/** Every table indexing writes, checksummed (every column but the row-number ids and indexed_at). */
async function allChecksums(config: DatabaseConfig): Promise<Sums> {
  const db = await createDatabase(config);
  try {
    return { ...(await checksums(db)), ...(await checksums(db, CONTRACT_TABLES)) };
  } finally {
    await db.close();
  }
}

/** What a bulk load would drop from this database now. */
async function toDrop(config: DatabaseConfig): Promise<RecordedIndex[]> {
  const db = await createDatabase(config);
  try {
    return await secondaryIndexes(db);
  } finally {
    await db.close();
  }
}

/** The index set of the database: every index of schema public with its definition. */
async function indexSet(c: pg.Client): Promise<string[]> {
  const r = await c.query<{ d: string }>(
    `SELECT indexname || ': ' || indexdef AS d FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`,
  );
  return r.rows.map((x) => x.d);
}

async function recordCount(c: pg.Client): Promise<number> {
  return Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM bulk_load_indexes')).rows[0]!.n);
}

async function checkpoints(c: pg.Client): Promise<number> {
  return Number(
    (await c.query<{ n: string }>("SELECT count(*) AS n FROM index_checkpoints WHERE part = 'core'")).rows[0]!.n,
  );
}

/** Sessions of the bulk control connections waiting for a lock on `table`. */
async function bulkWaitingOn(c: pg.Client, table: string): Promise<boolean> {
  const r = await c.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE NOT l.granted AND l.locktype = 'relation' AND l.relation = $1::regclass
       AND a.application_name LIKE '%bulk-indexes'`,
    [table],
  );
  return Number(r.rows[0]!.n) > 0;
}

/** Whether some session waits for the writer's advisory lock on masterchain block `seqno`. */
async function writerWaitingOn(c: pg.Client, seqno: number): Promise<boolean> {
  const r = await c.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
       AND classid = hashtext('core')::oid AND objid = $1::oid AND objsubid = 2`,
    [seqno],
  );
  return Number(r.rows[0]!.n) > 0;
}

/** Waits until no session of the killed process's control connections runs a statement any more. */
async function orphansDone(c: pg.Client): Promise<void> {
  await until(
    'the killed process sessions to end',
    async () => {
      const r = await c.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE '%bulk-indexes' AND pid <> pg_backend_pid()`,
      );
      return Number(r.rows[0]!.n) === 0;
    },
    300_000,
  );
}

function bulk(s: Scratch, extra: string[] = []): Child {
  return track(
    startTongate(
      ['walk', 'backfill', '--bulk', '--from', '1', '--to', String(head), '--devnet-store', info.devnetDir, ...extra],
      { DATABASE_URL: urlOf(s) },
    ),
  );
}

const lines = (c: Child, msg: string) => c.err.filter((l) => l.includes(`"msg":"${msg}"`));

async function migrated(): Promise<{ s: Scratch; admin: pg.Client; before: string[] }> {
  const s = await createScratch('postgres');
  scratches.push(s);
  const db = await createDatabase(s.config);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  const admin = await client(s);
  return { s, admin, before: await indexSet(admin) };
}

afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  for (const c of clients) await c.end().catch(() => {});
  for (const s of scratches) await s.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('tongate walk backfill --bulk', () => {
  // The devnet chain, and the reference: a plain backfill of the same range through the same CLI.
  beforeAll(async () => {
    ({ dir, info } = await startDevnetChain({ seed: SEED, stop: true }));
    const reader = await openDevnetStoreReader(info.devnetDir);
    head = (await reader.head())?.mcSeqno ?? 0;
    await reader.close();
    // The reference: a plain backfill of the same range through the same CLI.
    const { s, admin } = await migrated();
    const run = startTongate(
      ['walk', 'backfill', '--from', '1', '--to', String(head), '--devnet-store', info.devnetDir],
      {
        DATABASE_URL: urlOf(s),
      },
    );
    children.push(run);
    const code = await run.exited;
    if (code !== 0) throw new Error(`reference backfill exited ${code}:\n${run.err.slice(-20).join('\n')}`);
    reference = await allChecksums(s.config);
    referenceIndexes = await indexSet(admin);
  }, 600_000);

  it('ends with the index set of a fresh database and the rows of a plain backfill', async () => {
    expect(head).toBeGreaterThan(5);
    expect(reference.transactions?.rows).toBeGreaterThan(0);
    expect(reference.index_checkpoints?.rows).toBe(head);
    const { s, admin, before } = await migrated();
    expect(before).toEqual(referenceIndexes);
    const dropped = await toDrop(s.config);
    expect(dropped.length).toBeGreaterThan(50);
    const run = bulk(s, ['--concurrency', '2']);
    expect(await run.exited, run.err.slice(-20).join('\n')).toBe(0);
    const out = run.out.join('\n');
    expect(out).toContain(`Indexed masterchain blocks 1..${head}: ${head} blocks`);
    expect(out).toMatch(new RegExp(`Rebuilt ${dropped.length} secondary indexes in `));
    // One line per phase, progress while loading, and every index built once with its place and duration.
    const recorded = JSON.parse(lines(run, 'Recorded secondary indexes for a bulk load')[0] ?? '{}');
    expect(recorded).toMatchObject({ recorded: dropped.length, toDrop: dropped.length });
    expect(lines(run, 'Dropped secondary indexes')).toHaveLength(1);
    expect(lines(run, 'Started loading with secondary indexes dropped')).toHaveLength(1);
    expect(lines(run, 'Updated backfill progress').length).toBeGreaterThan(0);
    expect(lines(run, 'Started rebuilding secondary indexes')).toHaveLength(1);
    const built = lines(run, 'Built index').map((l) => JSON.parse(l) as { index: string; n: number; of: number });
    expect(built.map((b) => b.index).sort()).toEqual(dropped.map((d) => d.name).sort());
    expect(
      built.every((b) => b.of === dropped.length && typeof (b as { seconds?: unknown }).seconds === 'number'),
    ).toBe(true);
    expect(lines(run, 'Rebuilt secondary indexes')).toHaveLength(1);
    expect(await indexSet(admin)).toEqual(before);
    expect(await recordCount(admin)).toBe(0);
    expect(await allChecksums(s.config)).toEqual(reference);
  });

  it('SIGKILL during the load, then the same command: same rows, same indexes', async () => {
    const { s, admin, before } = await migrated();
    // The writer takes an advisory lock per masterchain block: holding block 3's stops the load right there.
    await admin.query("SELECT pg_advisory_lock(hashtext('core'), 3)");
    const victim = bulk(s, ['--concurrency', '1']);
    await until(
      'the load to block',
      async () => (await checkpoints(admin)) >= 2 && (await writerWaitingOn(admin, 3)),
      300_000,
    );
    await until('the drop phase line', () => lines(victim, 'Dropped secondary indexes').length === 1, 300_000);
    victim.proc.kill('SIGKILL');
    expect(await victim.exited).toBeNull();
    await admin.query("SELECT pg_advisory_unlock(hashtext('core'), 3)");
    // Killed mid-load: some blocks in, the API-only indexes gone, the record saying what to build.
    expect(await checkpoints(admin)).toBeLessThan(head);
    const now = await indexSet(admin);
    expect(now.some((i) => i.startsWith('messages_index_1:'))).toBe(false);
    expect(now.some((i) => i.startsWith('transactions_index_8:'))).toBe(true);
    expect(await recordCount(admin)).toBeGreaterThan(50);

    const status = track(startTongate(['db', 'indexes'], { DATABASE_URL: urlOf(s) }));
    expect(await status.exited, status.err.join('\n')).toBe(0);
    expect(status.out.join('\n')).toMatch(/a bulk load left \d+ secondary indexes recorded/);
    expect(status.out.join('\n')).toContain('messages.messages_index_1');

    // A plain backfill meanwhile works (over blocks already in) and says what is pending.
    const plain = track(
      startTongate(['walk', 'backfill', '--from', '1', '--to', '1', '--devnet-store', info.devnetDir], {
        DATABASE_URL: urlOf(s),
      }),
    );
    expect(await plain.exited, plain.err.join('\n')).toBe(0);
    expect(lines(plain, 'Found secondary indexes dropped by an unfinished bulk load')).toHaveLength(1);

    const again = bulk(s, ['--concurrency', '2']);
    expect(await again.exited, again.err.slice(-20).join('\n')).toBe(0);
    expect(lines(again, 'Resumed a bulk load')).toHaveLength(1);
    expect(await indexSet(admin)).toEqual(before);
    expect(await recordCount(admin)).toBe(0);
    expect(await allChecksums(s.config)).toEqual(reference);
  });

  it('SIGKILL while dropping and again while rebuilding, then db indexes --restore and the command again', async () => {
    const { s, admin, before } = await migrated();
    const locker = await client(s);

    // 1. Killed in the drop phase: DROP INDEX CONCURRENTLY on actions waits for the lock this test holds.
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE actions IN SHARE UPDATE EXCLUSIVE MODE');
    const first = bulk(s, ['--concurrency', '1']);
    await until('the drop phase to wait on actions', () => bulkWaitingOn(admin, 'actions'), 300_000);
    first.proc.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    const partial = await admin.query<{ dropped: boolean; n: string }>(
      'SELECT dropped, count(*) AS n FROM bulk_load_indexes GROUP BY dropped',
    );
    expect(partial.rows.map((r) => r.dropped).sort()).toEqual([false, true]);
    expect(await checkpoints(admin)).toBe(0);
    await locker.query('COMMIT');
    await orphansDone(admin);

    // 2. Killed in the rebuild: the load is held at block 3 until this test has the lock on actions again, so the
    // rebuild waits there after building the indexes of the tables before it.
    await admin.query("SELECT pg_advisory_lock(hashtext('core'), 3)");
    const second = bulk(s, ['--concurrency', '1']);
    await until('the load', () => lines(second, 'Started loading with secondary indexes dropped').length > 0, 300_000);
    expect(lines(second, 'Resumed a bulk load')).toHaveLength(1);
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE actions IN SHARE UPDATE EXCLUSIVE MODE');
    await admin.query("SELECT pg_advisory_unlock(hashtext('core'), 3)");
    await until('the rebuild to wait on actions', () => bulkWaitingOn(admin, 'actions'), 300_000);
    // Every index of the tables before actions is built by now (their lines may still be in the pipe).
    await until('the first index builds', () => lines(second, 'Built index').length > 10, 300_000);
    second.proc.kill('SIGKILL');
    expect(await second.exited).toBeNull();
    const left = await recordCount(admin);
    expect(left).toBeGreaterThan(0);
    expect((await indexSet(admin)).length).toBeLessThan(before.length);
    expect(await checkpoints(admin)).toBe(head);
    await locker.query('COMMIT');

    // 3. `tongate db indexes --restore` builds what is left (waiting for the killed session's build if it is still
    // running), and the command again has nothing left to do but confirm.
    const restore = track(startTongate(['db', 'indexes', '--restore'], { DATABASE_URL: urlOf(s) }));
    expect(await restore.exited, restore.err.join('\n')).toBe(0);
    expect(restore.out.join('\n')).toMatch(/Rebuilt \d+ secondary indexes in /);
    expect(await indexSet(admin)).toEqual(before);
    expect(await recordCount(admin)).toBe(0);
    const third = bulk(s);
    expect(await third.exited, third.err.slice(-20).join('\n')).toBe(0);
    expect(await indexSet(admin)).toEqual(before);
    expect(await recordCount(admin)).toBe(0);
    expect(await allChecksums(s.config)).toEqual(reference);
  });

  it('refuses PGlite with exit 2 and one line, and says --bulk in --help', async () => {
    const lite = await createScratch('pglite');
    scratches.push(lite);
    const data = dirname(lite.config.kind === 'pglite' ? lite.config.dir : '');
    const run = track(
      startTongate(
        ['walk', 'backfill', '--bulk', '--from', '1', '--to', '2', '--devnet-store', info.devnetDir, '--data', data],
        {},
      ),
    );
    expect(await run.exited).toBe(2);
    const errLines = run.err.filter((l) => l.trim() !== '');
    expect(errLines).toHaveLength(1);
    expect(errLines[0]).toMatch(/--bulk needs PostgreSQL/);
    await expect(openBulkIndexes(lite.config)).rejects.toMatchObject({ code: 'TG_CONFIG_INVALID' });
    const help = track(startTongate(['walk', 'backfill', '--help'], {}));
    expect(await help.exited).toBe(0);
    expect(help.out.join('\n')).toMatch(/--bulk/);
    expect(help.out.join('\n')).toMatch(/APIs/);
  });
});

describe('what a bulk load drops', () => {
  it('keeps keys, unique indexes and every listed index the writer reads by; drops the rest', async () => {
    const { s, admin, before } = await migrated();
    const dropped = await toDrop(s.config);
    const names = new Set(dropped.map((d) => d.name));
    const all = await admin.query<{ name: string; table: string; unique: boolean }>(
      `SELECT i.relname AS name, t.relname AS table, x.indisunique AS unique
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       WHERE t.relnamespace = 'public'::regnamespace`,
    );
    for (const name of Object.keys(BULK_KEEP_INDEXES)) {
      const i = all.rows.find((r) => r.name === name);
      expect(i, `${name} (BULK_KEEP_INDEXES) exists`).toBeDefined();
      expect(i!.unique, name).toBe(false);
      expect(names.has(name), name).toBe(false);
    }
    for (const r of all.rows) {
      const expected = BULK_TABLES.includes(r.table) && !r.unique && BULK_KEEP_INDEXES[r.name] === undefined;
      expect(names.has(r.name), r.name).toBe(expected);
    }
    expect(dropped.length + Object.keys(BULK_KEEP_INDEXES).length).toBeLessThan(before.length);
    expect(buildStatement(dropped[0]!)).toMatch(/^CREATE INDEX CONCURRENTLY IF NOT EXISTS \S+ ON public\./);
    expect(
      buildStatement({ definition: 'CREATE INDEX "a b" ON ONLY public.t USING btree (x)', partitioned: true }),
    ).toBe('CREATE INDEX IF NOT EXISTS "a b" ON public.t USING btree (x)');
  });

  it('restores a partitioned table exactly: the parent index and its partitions’ indexes under their names', async () => {
    const { s, admin } = await migrated();
    await admin.query("SELECT tongate_partition_by_range('transactions', 'lt', 1000000000000)");
    await admin.query("SELECT tongate_add_range_partition('transactions', 1000000000000, 2000000000000)");
    const before = await indexSet(admin);
    expect(before.some((i) => i.startsWith('transactions_index_4:') && i.includes('ON ONLY'))).toBe(true);
    const logs: string[] = [];
    const session = await openBulkIndexes(s.config, { log: (_l, msg, f) => logs.push(`${msg} ${JSON.stringify(f)}`) });
    try {
      const d = await session.dropSecondaryIndexes();
      expect(d.interrupted).toBe(false);
      const rec = await session.pending();
      const tx4 = rec.filter((r) => r.top === 'transactions_index_4');
      expect(tx4.length).toBe(3); // the partitioned index and the indexes of its two partitions
      expect(tx4.at(-1)).toMatchObject({ name: 'transactions_index_4', partitioned: true });
      const during = await indexSet(admin);
      expect(during.filter((i) => i.includes('(account, lt)'))).toEqual([]);
      const r = await session.restoreSecondaryIndexes();
      expect(r.left).toBe(0);
      expect(r.built).toBe(rec.length);
    } finally {
      await session.close();
    }
    expect(await indexSet(admin)).toEqual(before);
    expect(await recordCount(admin)).toBe(0);
  });
});
