// The liteserver path of the CLI: `tongate walk backfill|tail --lite-config FILE|URL` against a running devnet
// node (a real liteserver on loopback; its global config as a file and as the node's HTTP URL). The rows equal
// those of the same pipeline run in this process over our pool (the pipeline itself is checked against the
// chain field by field in test/index/devnet.test.ts); tail serves Prometheus metrics with --metrics-port.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { librariesFrom } from '../../src/app.ts';
import { createDatabase, migrate } from '../../src/db/index.ts';
import type { DevnetInfo, DevnetNode } from '../../src/devnet/node/index.ts';
import { createContractsEnv } from '../../src/index/contracts/index.ts';
import { createLiteSource } from '../../src/index/index.ts';
import { createLitePool, loadGlobalConfig } from '../../src/lite/index.ts';
import { type Child, startTongate } from '../helpers/cli.ts';
import { createScratch, type Scratch } from '../helpers/database.ts';
import { freePort, startDevnetChain } from '../helpers/devnet-chain.ts';
import { checksums, checksumsOf, indexInOrder } from '../helpers/index-checksums.ts';

const SEED = 'walk-lite-config';
let dir: string;
let node: DevnetNode;
let info: DevnetInfo;
let to: number;
let reference: Awaited<ReturnType<typeof checksums>>;
const scratches: Scratch[] = [];
const children: Child[] = [];

beforeAll(async () => {
  ({ dir, node, info } = await startDevnetChain({ seed: SEED, steps: 3 }));
  const pool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers });
  const ref = await createScratch('postgres');
  scratches.push(ref);
  const db = await createDatabase(ref.config);
  try {
    to = (await pool.getMasterchainInfo()).last.seqno;
    await migrate(db);
    const source = createLiteSource(pool);
    // As `tongate walk` does by default: with the contract decoders (actions depend on what they detect).
    const contracts = await createContractsEnv({ db, libraries: (h) => librariesFrom(pool, h) });
    try {
      await indexInOrder(db, source, 1, to, contracts);
    } finally {
      await contracts.close();
    }
    reference = await checksums(db);
  } finally {
    await db.close();
    await pool.close();
  }
}, 600_000);

afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  await node?.stop();
  for (const s of scratches) await s.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function track(c: Child): Child {
  children.push(c);
  return c;
}

describe('tongate walk --lite-config', () => {
  it('backfills from a global config file into PostgreSQL', async () => {
    expect(reference.transactions?.rows).toBeGreaterThan(0);
    const pg = await createScratch('postgres');
    scratches.push(pg);
    const url = pg.config.kind === 'postgres' ? pg.config.url : '';
    const run = track(
      startTongate(['walk', 'backfill', '--from', '1', '--to', String(to), '--lite-config', info.globalConfigFile], {
        DATABASE_URL: url,
      }),
    );
    expect(await run.exited, run.err.slice(-10).join('\n')).toBe(0);
    expect(run.err.some((l) => l.includes(`"source":"liteservers of ${info.globalConfigFile}"`))).toBe(true);
    expect(await checksumsOf(pg.config)).toEqual(reference);
  }, 300_000);

  it("backfills from the node's config URL into the embedded PGlite", async () => {
    const lite = await createScratch('pglite');
    scratches.push(lite);
    const data = join(lite.config.kind === 'pglite' ? lite.config.dir : '', '..');
    const configUrl = `http://127.0.0.1:${info.httpPort}/global.config.json`;
    const run = track(
      startTongate(
        ['walk', 'backfill', '--from', '1', '--to', String(to), '--lite-config', configUrl, '--data', data],
        {},
      ),
    );
    expect(await run.exited, run.err.slice(-10).join('\n')).toBe(0);
    expect(await checksumsOf(lite.config)).toEqual(reference);
  }, 300_000);

  it('tails the head and serves indexer metrics on --metrics-port', async () => {
    const pg = await createScratch('postgres');
    scratches.push(pg);
    const url = pg.config.kind === 'postgres' ? pg.config.url : '';
    const port = await freePort();
    const tail = track(
      startTongate(
        [
          'walk',
          'tail',
          '--from',
          '1',
          '--poll-ms',
          '100',
          '--lite-config',
          info.globalConfigFile,
          '--metrics-port',
          String(port),
        ],
        { DATABASE_URL: url },
      ),
    );
    const caughtUp = () => tail.err.some((l) => Number(/"indexedThrough":(\d+)/.exec(l)?.[1] ?? -1) >= to + 2);
    const end = Date.now() + 240_000;
    while (!caughtUp()) {
      if (Date.now() > end || tail.proc.exitCode !== null)
        throw new Error(`tail did not catch up: ${tail.err.slice(-5).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const indexed = Number(/^tongate_index_indexed_mc_seqno (\d+)$/m.exec(text)?.[1]);
    expect(indexed).toBeGreaterThanOrEqual(to + 2);
    expect(text).toMatch(/^tongate_index_head_mc_seqno \d+$/m);
    expect(text).toMatch(/^tongate_index_mc_blocks_total\{result="indexed"\} [1-9]\d*$/m);
    expect(text).toMatch(/^tongate_index_queue_jobs\{state="waiting"\} \d+$/m);
    // Traces are assembled from --from 1 on, as each block's job ends; final ones wait only for the classify jobs.
    const assembled = Number(/^tongate_traces_assembled_mc_seqno (\d+)$/m.exec(text)?.[1]);
    expect(assembled).toBeGreaterThanOrEqual(to);
    expect(text).toMatch(/^tongate_traces_unclassified \d+$/m);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    tail.proc.kill('SIGTERM');
    expect(await tail.exited, tail.err.slice(-10).join('\n')).toBe(0);
  }, 300_000);

  it('says what is wrong with a config that cannot be read', () => {
    const missing = track(startTongate(['walk', 'tail', '--lite-config', join(dir, 'nope.json')], {}));
    return missing.exited.then((code) => {
      expect(code).toBe(2);
      expect(missing.err.join('\n')).toMatch(/nope\.json/);
    });
  });
});
