// /healthz and /metrics on trace assembly and classification lag (issue 24), over real HTTP on a devnet chain indexed
// into PostgreSQL: the API's /healthz (tongate serve's startApi) and the --metrics-port listener of walk/work. Block 1
// is indexed, assembled and classified as a worker does; then 5..8 are indexed, leaving a hole at 2..4 (where the
// devnet deployed its genesis wallets) at which assembly stops. Within the grace period that is blocks in flight;
// once the blocks above the hole were indexed longer ago (their indexed_at moved back, as time would), both
// endpoints answer 503 and the gauge says stalled. Filling the hole and assembling leaves the wallets' deploy traces
// to classify (classification lag); classifying makes both endpoints 200 with no lag.

import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../src/api/build.ts';
import { serveMetrics } from '../../src/app.ts';
import { startApi } from '../../src/cli/serve.ts';
import { createMetricsRegistry } from '../../src/common/index.ts';
import { migrate } from '../../src/db/index.ts';
import { classifyMcBlock } from '../../src/index/actions/index.ts';
import { type BlockSource, createDevnetStoreSource, indexMcBlock } from '../../src/index/index.ts';
import { assembleTraces } from '../../src/index/traces/index.ts';
import type { JsonBody } from '../helpers/api-fixture.ts';
import { setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { type DevnetChain, startDevnetChain } from '../helpers/devnet-chain.ts';
import { indexInOrder } from '../helpers/index-checksums.ts';

let chain: DevnetChain;
let source: BlockSource;
let head: number;
let t: TestDatabase;
let api: ApiServer;
let apiBase: string;
let metricsServer: Server;
let metricsBase: string;
const savedRedisUrl = process.env.REDIS_URL;

beforeAll(async () => {
  chain = await startDevnetChain({ seed: 'health-lag', steps: 0 });
  await chain.node.waitMasterchainSeqno(12);
  await chain.node.stop();
  source = await createDevnetStoreSource(chain.info.devnetDir);
  head = await source.head();
  t = await setupDatabase('postgres');
  await migrate(t.db);
  // The API's limiter is not under test here: the in-process one.
  delete process.env.REDIS_URL;
  const started = await startApi({
    values: { port: '0', host: '127.0.0.1' },
    db: t.db,
    logger: pino({ level: 'silent' }),
  });
  api = started.api;
  apiBase = started.url;
  metricsServer = await serveMetrics(createMetricsRegistry({ defaults: false }), 0, '127.0.0.1', {
    name: source.name,
    head: () => source.head(),
    db: t.db,
  });
  metricsBase = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  if (savedRedisUrl !== undefined) process.env.REDIS_URL = savedRedisUrl;
  await api?.close();
  await new Promise((r) => metricsServer?.close(r));
  await source?.close();
  await t?.cleanup();
  if (chain) await rm(chain.dir, { recursive: true, force: true });
});

async function health(base: string): Promise<{ status: number; body: JsonBody }> {
  const r = await fetch(`${base}/healthz`);
  return { status: r.status, body: await r.json() };
}

async function gauges(base: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^(tongate_[a-z_]+) (\S+)$/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

describe('/healthz with trace assembly and classification lag', () => {
  it('is ok with no lag while every indexed block is assembled and classified', async () => {
    expect(head).toBeGreaterThanOrEqual(12);
    await indexInOrder(t.db, source, 1, 1);
    const a = await health(apiBase);
    expect(a.status).toBe(200);
    expect(a.body.ok).toBe(true);
    expect(a.body.index).toEqual({
      first_mc_seqno: 1,
      indexed_mc_seqno: 1,
      assembled_mc_seqno: 1,
      assembly_lag_blocks: 0,
      oldest_unclassified_mc_seqno: null,
      classification_lag_blocks: 0,
    });
    const m = await health(metricsBase);
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({
      ok: true,
      source: { name: 'devnet-store', head },
      index: { indexed_mc_seqno: 1, lag_blocks: head - 1, assembly_lag_blocks: 0, classification_lag_blocks: 0 },
    });
    for (const g of [await gauges(apiBase), await gauges(metricsBase)]) {
      expect(g.tongate_traces_assembly_lag_blocks).toBe(0);
      expect(g.tongate_traces_assembly_stalled).toBe(0);
      expect(g.tongate_actions_classification_lag_blocks).toBe(0);
    }
  });

  it('reports the wait on an unindexed block, and is 503 once it outlasts the grace period', async () => {
    for (let n = 5; n <= 8; n++) await indexMcBlock(n, { source, db: t.db });
    expect(await assembleTraces(t.db)).toEqual([]);
    // Just indexed: taken for blocks in flight, still ok, but the lag and the wait are shown.
    const fresh = await health(apiBase);
    expect(fresh.status).toBe(200);
    expect(fresh.body.index).toMatchObject({
      indexed_mc_seqno: 8,
      assembled_mc_seqno: 1,
      assembly_lag_blocks: 7,
      assembly_waiting: { mc_seqno: 2, next_indexed_mc_seqno: 5, stalled: false },
    });

    await t.db.query(
      "UPDATE index_checkpoints SET indexed_at = indexed_at - interval '10 minutes' WHERE mc_seqno BETWEEN 5 AND 8",
    );
    const a = await health(apiBase);
    expect(a.status).toBe(503);
    expect(a.body.ok).toBe(false);
    expect(a.body.index).toMatchObject({
      indexed_mc_seqno: 8,
      assembled_mc_seqno: 1,
      assembly_lag_blocks: 7,
      classification_lag_blocks: 0,
      assembly_waiting: { mc_seqno: 2, next_indexed_mc_seqno: 5, stalled: true },
    });
    expect(a.body.index.assembly_waiting.seconds).toBeGreaterThanOrEqual(600);
    expect(a.body.index.assembly_waiting.hint).toContain('tongate walk backfill --from 2 --to 4');
    const m = await health(metricsBase);
    expect(m.status).toBe(503);
    expect(m.body).toMatchObject({
      ok: false,
      index: {
        lag_blocks: head - 8,
        assembly_lag_blocks: 7,
        assembly_waiting: { mc_seqno: 2, stalled: true },
      },
    });
    for (const g of [await gauges(apiBase), await gauges(metricsBase)]) {
      expect(g.tongate_traces_assembly_lag_blocks).toBe(7);
      expect(g.tongate_traces_assembly_stalled).toBe(1);
    }
  });

  it('is ok again once the hole is indexed, with classification lag until the classifier ran', async () => {
    for (let n = 2; n <= 4; n++) await indexMcBlock(n, { source, db: t.db });
    expect((await assembleTraces(t.db)).map((b) => b.mcSeqno)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    // The hole held the genesis wallets' deploys (a devnet's only transactions without traffic): complete traces
    // that end there, unclassified until the classify jobs run.
    const deploys = await t.db.query<{ n: number }>(
      'SELECT min(mc_block_seqno) AS n FROM transactions WHERE mc_block_seqno BETWEEN 2 AND 4',
    );
    const first = Number(deploys.rows[0]?.n);
    expect(first).toBeGreaterThanOrEqual(2);
    const assembled = await health(apiBase);
    expect(assembled.status).toBe(200);
    expect(assembled.body.index).toEqual({
      first_mc_seqno: 1,
      indexed_mc_seqno: 8,
      assembled_mc_seqno: 8,
      assembly_lag_blocks: 0,
      oldest_unclassified_mc_seqno: first,
      classification_lag_blocks: 8 - first + 1,
    });
    expect((await gauges(metricsBase)).tongate_actions_classification_lag_blocks).toBe(8 - first + 1);

    for (let n = 2; n <= 8; n++) await classifyMcBlock(n, { db: t.db });
    for (const base of [apiBase, metricsBase]) {
      const h = await health(base);
      expect(h.status).toBe(200);
      expect(h.body.ok).toBe(true);
      expect(h.body.index).toMatchObject({ assembly_lag_blocks: 0, classification_lag_blocks: 0 });
      expect(h.body.index.assembly_waiting).toBeUndefined();
      const g = await gauges(base);
      expect([g.tongate_traces_assembly_stalled, g.tongate_actions_classification_lag_blocks]).toEqual([0, 0]);
    }
  });
});
