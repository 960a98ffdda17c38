// A devnet in a temp dir that has run `cycles` full activity cycles (every contract family): what the benches that
// measure decoding and classification start from. `close()` stops the node and removes the dir.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACTIVITY_CYCLE, startActivity } from '../../src/devnet/activity/index.ts';
import { createDevnetNode, type DevnetInfo } from '../../src/devnet/node/index.ts';

export interface ActivityDevnet {
  dir: string;
  info: DevnetInfo;
  close(): Promise<void>;
}

/** `bench` names it in log lines (`bench/decode`) and seeds the devnet and its activity. */
export async function startActivityDevnet(bench: string, cycles: number): Promise<ActivityDevnet> {
  const seed = bench.replace(/\W+/g, '-');
  const dir = await mkdtemp(join(tmpdir(), `tongate-${seed}-`));
  const node = createDevnetNode({ dataDir: dir, litePort: 0, blockIntervalMs: 100, sync: false, seed });
  const close = async () => {
    await node.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  try {
    console.log(`${bench}: running ${cycles} activity cycle(s) (${ACTIVITY_CYCLE.length} steps each) on a devnet ...`);
    const info = await node.start();
    const activity = await startActivity({
      liteConfig: info.globalConfigFile,
      wallets: info.walletsFile,
      seed,
      steps: cycles * ACTIVITY_CYCLE.length,
      intervalMs: 0,
      pollMs: 100,
    });
    const counters = await activity.done;
    console.log(`  activity: ${counters.ok} ok, ${counters.failed} failed, ${counters.skipped} skipped`);
    return { dir, info, close };
  } catch (e) {
    await close();
    throw e;
  }
}
