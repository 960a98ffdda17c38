// End to end through the CLI as operators run it: a real devnet node with activity (temp dir, fast blocks),
// stopped, then its store indexed by child processes.
//  - embedded mode: `tongate walk backfill` alone (in-process queue and processor) into PostgreSQL, and into
//    PGlite: the two databases end with the same checksum;
//  - production mode: `tongate walk backfill` plans onto BullMQ (real Redis, own key prefix) and two
//    `tongate work` processes index into another PostgreSQL database; one worker is killed with SIGKILL in
//    the middle of its jobs and a new one started: the backfill still completes, and the checksum over every
//    table equals the uninterrupted run's.
// Field-by-field checks against the chain are test/index/devnet.test.ts's; here the uninterrupted run is the
// reference, and the counts are checked against the store's own block list.
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Cell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevnetInfo } from '../../src/devnet/node/index.ts';
import { openDevnetStoreReader } from '../../src/devnet/store/index.ts';
import { listBlockTransactions, loadBlockCell } from '../../src/ton/index.ts';
import { type Child, startTongate as start } from '../helpers/cli.ts';
import { createScratch, type Scratch } from '../helpers/database.ts';
import { startDevnetChain } from '../helpers/devnet-chain.ts';
import { type checksums, checksumsOf } from '../helpers/index-checksums.ts';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../helpers/queue.ts';
import { until } from '../helpers/until.ts';

const SEED = 'walk-cli';

const children: Child[] = [];
function track(c: Child): Child {
  children.push(c);
  return c;
}

let dir: string;
let info: DevnetInfo;
let head: number;
let storeTxCount: number;
let storeBlockCount: number;
const scratches: Scratch[] = [];
const prefixes: string[] = [];

beforeAll(async () => {
  ({ dir, info } = await startDevnetChain({ seed: SEED, stop: true }));
  const reader = await openDevnetStoreReader(info.devnetDir);
  try {
    head = (await reader.head())?.mcSeqno ?? 0;
    storeTxCount = 0;
    storeBlockCount = 0;
    for (let n = 1; n <= head; n++) {
      const m = await reader.manifest(n);
      if (!m) throw new Error(`devnet store has no manifest ${n}`);
      for (const b of [m.mcBlock, ...m.shardBlocks]) {
        if (b.id.seqno === 0) continue;
        const bytes = await reader.blockFile(b.id);
        if (!bytes) throw new Error(`devnet store has no file for a block of manifest ${n}`);
        storeBlockCount += 1;
        storeTxCount += listBlockTransactions(loadBlockCell(Cell.fromBoc(bytes)[0] as Cell)).length;
      }
    }
  } finally {
    await reader.close();
  }
}, 600_000);

afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  for (const s of scratches) await s.cleanup();
  for (const p of prefixes) await deletePrefix(p);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const urlOf = (s: Scratch) => (s.config.kind === 'postgres' ? s.config.url : '');

describe('tongate walk and work on a devnet store', () => {
  let reference: Awaited<ReturnType<typeof checksums>>;

  it('embedded backfill (in-process queue and processor) indexes every masterchain block once', async () => {
    expect(head).toBeGreaterThan(5);
    const pg = await createScratch('postgres');
    scratches.push(pg);
    const run = track(
      start(
        [
          'walk',
          'backfill',
          '--from',
          '1',
          '--to',
          String(head),
          '--devnet-store',
          info.devnetDir,
          '--concurrency',
          '2',
        ],
        {
          DATABASE_URL: urlOf(pg),
        },
      ),
    );
    const code = await run.exited;
    expect(code, run.err.join('\n')).toBe(0);
    expect(run.out.join('\n')).toContain(`Indexed masterchain blocks 1..${head}: ${head} blocks`);
    // Not a TTY: progress is logged as lines.
    expect(run.err.some((l) => l.includes('"msg":"Updated backfill progress"'))).toBe(true);
    reference = await checksumsOf(pg.config);
    expect(reference.index_checkpoints?.rows).toBe(head);
    expect(reference.transactions?.rows).toBeGreaterThan(0);
    // Every block and transaction the store holds (read with the codec straight from its files), once.
    expect(reference.blocks?.rows).toBe(storeBlockCount);
    expect(reference.transactions?.rows).toBe(storeTxCount);

    // Re-running the range adds nothing and changes nothing.
    const again = track(
      start(['walk', 'backfill', '--from', '1', '--to', String(head), '--devnet-store', info.devnetDir], {
        DATABASE_URL: urlOf(pg),
      }),
    );
    expect(await again.exited, again.err.join('\n')).toBe(0);
    expect(await checksumsOf(pg.config)).toEqual(reference);
  });

  it('embedded backfill into PGlite (--data) gives the same rows', async () => {
    const lite = await createScratch('pglite');
    scratches.push(lite);
    const data = dirname(lite.config.kind === 'pglite' ? lite.config.dir : '');
    const run = track(
      start(
        ['walk', 'backfill', '--from', '1', '--to', String(head), '--devnet-store', info.devnetDir, '--data', data],
        {},
      ),
    );
    expect(await run.exited, run.err.join('\n')).toBe(0);
    expect(await checksumsOf(lite.config)).toEqual(reference);
  });

  it('BullMQ: a worker killed with SIGKILL mid-run is replaced, and the database ends identical', async () => {
    const pg = await createScratch('postgres');
    scratches.push(pg);
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const env = { DATABASE_URL: urlOf(pg), REDIS_URL: TEST_REDIS_URL };
    const common = ['--devnet-store', info.devnetDir, '--queue-prefix', prefix];
    const workArgs = ['work', ...common, '--concurrency', '3', '--lock-ms', '2000'];
    // The migration runs in whichever process opens the database first; start the victim before the planner.
    const victim = track(start(workArgs, env));
    await until(
      'the first worker to start',
      () => victim.err.some((l) => l.includes('"msg":"Started worker"')),
      300_000,
    );
    const backfill = track(start(['walk', 'backfill', '--from', '1', '--to', String(head), ...common], env));
    await until(
      'indexed blocks',
      () => victim.err.filter((l) => l.includes('"msg":"Indexed masterchain block"')).length >= 2,
      300_000,
    );
    victim.proc.kill('SIGKILL');
    expect(await victim.exited).toBeNull();
    // The replacement is the bare worker entry (src/cli/bare-worker.ts), the same processor as `tongate work`.
    const survivor = track(start(workArgs, env, 'worker'));
    const code = await backfill.exited;
    expect(code, backfill.err.join('\n')).toBe(0);
    // Stop the survivor the polite way: it finishes what it has and exits 0.
    survivor.proc.kill('SIGTERM');
    expect(await survivor.exited, survivor.err.join('\n')).toBe(0);
    // The victim died holding jobs: the survivor found them stalled and ran them again.
    expect(survivor.err.some((l) => l.includes('"msg":"Recovered stalled job"'))).toBe(true);
    expect(await checksumsOf(pg.config)).toEqual(reference);
  });

  it('embedded tail follows the head from --from, logs its lag, and stops cleanly on SIGTERM', async () => {
    const pg = await createScratch('postgres');
    scratches.push(pg);
    const tail = track(
      start(['walk', 'tail', '--from', '1', '--poll-ms', '100', '--devnet-store', info.devnetDir], {
        DATABASE_URL: urlOf(pg),
      }),
    );
    await until(
      'the tail to catch up',
      () =>
        tail.err.some(
          (l) => l.includes('"msg":"Followed the masterchain head"') && l.includes(`"indexedThrough":${head},`),
        ),
      300_000,
    );
    const lags = tail.err
      .filter((l) => l.includes('"msg":"Followed the masterchain head"'))
      .map((l) => (JSON.parse(l) as { lag: number }).lag);
    expect(lags[0]).toBeGreaterThan(0);
    expect(lags.at(-1)).toBe(0);
    tail.proc.kill('SIGTERM');
    expect(await tail.exited, tail.err.join('\n')).toBe(0);
    expect(await checksumsOf(pg.config)).toEqual(reference);
  });
});

describe('tongate walk and work: usage', () => {
  it('answers --help on every command and refuses bad usage with exit 2', async () => {
    for (const args of [
      ['walk', '--help'],
      ['walk', 'backfill', '--help'],
      ['walk', 'tail', '--help'],
      ['walk', 'gaps', '--help'],
      ['work', '--help'],
    ]) {
      const c = track(start(args, {}));
      expect(await c.exited, `${args.join(' ')}: ${c.err.join('\n')}`).toBe(0);
      expect(c.out.join('\n')).toMatch(/Usage: tongate (walk|work)/);
    }
    const help = children.at(-4)?.out.join('\n') ?? '';
    for (const flag of [
      '--from',
      '--to',
      '--lite-config',
      '--devnet-store',
      '--data',
      'DATABASE_URL',
      'REDIS_URL',
      '--concurrency',
    ]) {
      expect(help).toContain(flag);
    }
    for (const args of [
      ['walk', 'backfill', '--from', '1', '--to', '5'],
      ['walk', 'backfill', '--from', '9', '--to', '5', '--devnet-store', dir],
      ['walk', 'backfill', '--from', 'x', '--to', '5', '--devnet-store', dir],
      ['walk', 'backfill', '--from', '1', '--to', '5', '--devnet-store', dir, '--lite-config', 'x.json'],
      ['work', '--devnet-store', dir],
      ['walk', 'backfill', '--from', '1', '--to', '5', '--devnet-store', dir, '--redis-url', 'http://x'],
    ]) {
      const c = track(start(args, {}));
      expect(await c.exited, args.join(' ')).toBe(2);
      expect(
        c.err.filter((l) => l.trim() !== ''),
        args.join(' '),
      ).toHaveLength(1);
    }
  });
});
