// A devnet chain for tests that need real blocks with real traffic: a node on loopback (fast blocks, no
// fsync, temp dir) that has run `steps` of the activity generator. Shared by the indexer, walker and API
// tests so each builds its chain the same way.
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import {
  type ActivityCounters,
  type ActivityLedger,
  type ActivityStepKind,
  CORE_CYCLE,
  startActivity,
} from '../../src/devnet/activity/index.ts';
import { createDevnetNode, type DevnetInfo, type DevnetNode } from '../../src/devnet/node/index.ts';

export interface DevnetChain {
  dir: string;
  node: DevnetNode;
  info: DevnetInfo;
  /** What the activity did (null when it ran no steps). */
  counters: ActivityCounters | null;
  /** What the activity did (null when it ran no steps). */
  ledger: ActivityLedger | null;
}

/** Starts a node and runs `steps` activity steps (default one full cycle, 0 for none); every step must succeed. */
export async function startDevnetChain(opts: {
  seed: string;
  steps?: number;
  /** Step kinds to cycle through (default the core cycle; ACTIVITY_CYCLE adds the contract families). */
  cycle?: readonly ActivityStepKind[];
  blockIntervalMs?: number;
  /** How long shard blocks show before their masterchain block (default: the node's, a quarter of the interval). */
  shardLeadMs?: number;
  /** Stop the node once the activity is done (the store stays readable). */
  stop?: boolean;
  /** Funded user wallets (role "user") per wallet version in genesis; default none. */
  userWalletsPerVersion?: number;
}): Promise<DevnetChain> {
  const dir = await mkdtemp(join(tmpdir(), `tongate-${opts.seed}-`));
  const node = createDevnetNode({
    dataDir: dir,
    litePort: 0,
    httpPort: 0,
    blockIntervalMs: opts.blockIntervalMs ?? 100,
    shardLeadMs: opts.shardLeadMs,
    sync: false,
    seed: opts.seed,
    userWalletsPerVersion: opts.userWalletsPerVersion,
  });
  const info = await node.start();
  let counters: ActivityCounters | null = null;
  let ledger: ActivityLedger | null = null;
  const steps = opts.steps ?? CORE_CYCLE.length;
  if (steps > 0) {
    try {
      const handle = await startActivity({
        liteConfig: info.globalConfigFile,
        wallets: info.walletsFile,
        seed: opts.seed,
        cycle: opts.cycle ?? CORE_CYCLE,
        steps,
        intervalMs: 0,
        pollMs: 100,
        stepTimeoutMs: 60_000,
      });
      counters = await handle.done;
      ledger = handle.ledger();
      expect(counters.failed, JSON.stringify(counters.lastFailure)).toBe(0);
    } catch (e) {
      await node.stop();
      throw e;
    }
  }
  if (opts.stop) await node.stop();
  return { dir, node, info, counters, ledger };
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}
