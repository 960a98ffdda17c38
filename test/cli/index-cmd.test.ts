// `tongate index rederive|metadata` as users run them: a child process through bin/tongate.js on an embedded
// database, with usage errors (exit 2, one line) and a real run on a migrated but empty index.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, migrate } from '../../src/db/index.ts';
import { createDevnetStoreSource } from '../../src/index/index.ts';
import { runTongate } from '../helpers/cli.ts';
import { createScratch } from '../helpers/database.ts';
import { startDevnetChain } from '../helpers/devnet-chain.ts';
import { checksums, indexInOrder } from '../helpers/index-checksums.ts';

const ACTION_TABLES = ['traces', 'actions', 'action_accounts'].map((table) => ({ table, exclude: [] as string[] }));

/** The CLI with nothing but PATH and HOME in its environment, killed after 120 s. */
const tongate = (args: string[]) =>
  runTongate(args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, timeoutMs: 120_000 });

describe('tongate index', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tongate-index-cmd-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('explains itself with --help', async () => {
    const r = await tongate(['index', 'rederive', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--family/);
    expect(r.out).toMatch(/--from/);
    const m = await tongate(['index', 'metadata', '--help']);
    expect(m.code).toBe(0);
    expect(m.out).toMatch(/--rate/);
  }, 120_000);

  it('refuses a missing or unknown family, and a reversed range, with exit 2', async () => {
    const none = await tongate(['index', 'rederive', '--data', dir]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/--family is required/);
    const bad = await tongate(['index', 'rederive', '--family', 'jettons', '--data', dir]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown family 'jettons'/);
    const reversed = await tongate(['index', 'rederive', '--family', 'all', '--from', '9', '--to', '3', '--data', dir]);
    expect(reversed.code).toBe(2);
    expect(reversed.err).toMatch(/--from 9 is after --to 3/);
  }, 120_000);

  it('rederives an empty index to nothing and says so', async () => {
    const r = await tongate(['index', 'rederive', '--family', 'all', '--data', dir, '--no-progress']);
    expect(r.err).not.toMatch(/TypeError|at .*\.ts:/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Rederived jetton, nft, dns, multisig, vesting: 0 latest-state rows, 0 event rows/);
  }, 120_000);

  it('rederive --family actions classifies stored traces again: the same rows', async () => {
    const chain = await startDevnetChain({ seed: 'index-cmd-actions', stop: true });
    const scratch = await createScratch('pglite');
    try {
      const db = await createDatabase(scratch.config);
      let before: Awaited<ReturnType<typeof checksums>>;
      let final = 0;
      let withTraces: Awaited<ReturnType<typeof checksums>> = {};
      try {
        await migrate(db);
        const source = await createDevnetStoreSource(chain.info.devnetDir);
        await indexInOrder(db, source, 1, await source.head());
        await source.close();
        before = await checksums(db, ACTION_TABLES);
        withTraces = await checksums(db, [{ table: 'transactions', exclude: [] }]);
        final = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM traces WHERE pending_edges_ = 0'))
          .rows[0]!.n;
        expect(before.actions!.rows).toBeGreaterThan(5);
        // What an older classifier could have left: other actions, or none, and traces marked unclassified.
        await db.query("UPDATE actions SET details = '{}', success = NOT success");
        await db.query('DELETE FROM action_accounts');
        await db.query("UPDATE traces SET classification_state = 'unclassified'");
        expect(await checksums(db, ACTION_TABLES)).not.toEqual(before);
      } finally {
        await db.close();
      }
      const data = join(scratch.config.kind === 'pglite' ? scratch.config.dir : '', '..');
      const r = await tongate(['index', 'rederive', '--family', 'actions', '--data', data, '--no-progress']);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(new RegExp(`Reclassified ${final} traces: ${before.actions!.rows} actions\\.`));
      expect(r.out).not.toMatch(/Rederived/);
      const again = await createDatabase(scratch.config);
      try {
        expect(await checksums(again, ACTION_TABLES)).toEqual(before);
        // Assembly that went wrong or never happened (trace ids lost, traces gone, the watermark elsewhere):
        // --family traces assembles everything again, then classifies.
        await again.query('UPDATE transactions SET trace_id = NULL');
        await again.query('UPDATE messages SET trace_id = NULL');
        await again.query('DELETE FROM traces');
        await again.query('UPDATE trace_assembly SET next_mc_seqno = first_mc_seqno + 2');
      } finally {
        await again.close();
      }
      const retrace = await tongate(['index', 'rederive', '--family', 'traces', '--data', data, '--no-progress']);
      expect(retrace.code, retrace.err).toBe(0);
      expect(retrace.out).toMatch(/Assembled traces of masterchain blocks 1\.\.\d+\./);
      expect(retrace.out).toMatch(new RegExp(`Reclassified ${final} traces: ${before.actions!.rows} actions\\.`));
      const third = await createDatabase(scratch.config);
      try {
        expect(await checksums(third, [...ACTION_TABLES, { table: 'transactions', exclude: [] }])).toEqual({
          ...before,
          transactions: withTraces.transactions,
        });
      } finally {
        await third.close();
      }
    } finally {
      await scratch.cleanup();
      await rm(chain.dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('runs one metadata pass over an empty index', async () => {
    const r = await tongate(['index', 'metadata', '--once', '--data', dir]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Fetched 0 metadata documents/);
  }, 120_000);
});
