// One live stack for API tests: a devnet node on loopback that ran the activity cycle (wallets, jetton,
// NFT, bounces), its blocks indexed into a fresh database (PGlite or PostgreSQL), a liteserver pool on it,
// and our API server listening on a random port. Tests call it over real HTTP and check answers against
// the chain through their own ton-lite-client connection (`lite`), never against our own rows.
import { rm } from 'node:fs/promises';
import type { LiteClient } from 'ton-lite-client';
import { type ApiServer, type ApiServerOptions, buildApiServer } from '../../src/api/build.ts';
import { migrate } from '../../src/db/index.ts';
import type { ActivityLedger } from '../../src/devnet/activity/index.ts';
import type { DevnetInfo, DevnetNode } from '../../src/devnet/node/index.ts';
import { classifyMcBlock } from '../../src/index/actions/index.ts';
import { createLiteSource, indexMcBlock } from '../../src/index/index.ts';
import { assembleTraces } from '../../src/index/traces/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig } from '../../src/lite/index.ts';
import { type Kind, setupDatabase, type TestDatabase } from './database.ts';
import { startDevnetChain } from './devnet-chain.ts';
import { liteClientOn } from './lite-client.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are walked field by field by the tests
export type JsonBody = any;

/** `?a=1&b=x&b=y` of request parameters (arrays repeat the name); '' when there are none. */
export function queryString(params: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const x of v) q.append(k, String(x));
    else q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

export interface ApiFixture {
  node: DevnetNode;
  info: DevnetInfo;
  dir: string;
  /** Our pool over the devnet (what the v2 API uses). */
  pool: LitePool;
  /** An independent client for checks. */
  lite: LiteClient;
  db?: TestDatabase;
  server: ApiServer;
  /** http://127.0.0.1:<port> */
  base: string;
  /** Highest masterchain seqno indexed (0 when not indexed). */
  indexedThrough: number;
  /** What the activity did (null when it ran no steps). */
  ledger: ActivityLedger | null;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: JsonBody; headers: Headers }>;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: JsonBody; headers: Headers }>;
  close(): Promise<void>;
}

export interface FixtureOptions {
  seed: string;
  /** Database to index into; omit for a v2-only stack. */
  db?: Kind;
  /** Activity steps to run before indexing (default: one core cycle, CORE_CYCLE). */
  activitySteps?: number;
  server?: Omit<ApiServerOptions, 'db' | 'lite'>;
  blockIntervalMs?: number;
  shardLeadMs?: number;
  /** Funded user wallets (role "user") per wallet version; default none. */
  userWalletsPerVersion?: number;
}

export async function startApiFixture(opts: FixtureOptions): Promise<ApiFixture> {
  const { dir, node, info, ledger } = await startDevnetChain({
    seed: opts.seed,
    steps: opts.activitySteps,
    blockIntervalMs: opts.blockIntervalMs,
    shardLeadMs: opts.shardLeadMs,
    userWalletsPerVersion: opts.userWalletsPerVersion,
  });
  const pool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers });
  await pool.ready({ timeoutMs: 10_000 });
  const { engine, lite } = await liteClientOn(info.litePort, info.liteServerPublicKey);

  let db: TestDatabase | undefined;
  let indexedThrough = 0;
  if (opts.db) {
    db = await setupDatabase(opts.db);
    await migrate(db.db);
    const source = createLiteSource(pool);
    indexedThrough = (await pool.getMasterchainInfo()).last.seqno;
    // As the index worker does: each block, then trace assembly and the classification of finished traces.
    for (let n = 1; n <= indexedThrough; n++) {
      await indexMcBlock(n, { source, db: db.db });
      await assembleTraces(db.db);
      await classifyMcBlock(n, { db: db.db });
    }
  }
  const server = await buildApiServer({ ...opts.server, db: db?.db, lite: pool });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = server.app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed as JsonBody, headers: res.headers };
  };
  return {
    node,
    info,
    dir,
    pool,
    lite,
    db,
    server,
    base,
    indexedThrough,
    ledger,
    get: (path, headers) => call('GET', path, undefined, headers),
    post: (path, body, headers) => call('POST', path, body, headers),
    async close() {
      await server.close();
      engine.close();
      await pool.close();
      await db?.cleanup();
      await node.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
