// bench/nodedb: blocks and transactions per second for a backfill read through --node-db (the node's on-disk
// database read directly), as a ratio to the liteserver source over loopback on the same blocks in the same run
// (machines are shared and noisy, so only the ratio means anything). The run:
//   1. a history: by default a devnet (temp folder) with --activities activity generators running side by side
//      (one genesis wallet each) until --blocks masterchain blocks exist; with --history DIR, a copy of a history
//      built by scripts/build-history.ts (dense: thousands of transactions per block), first --blocks of it;
//   2. its store is exported as a node-format tree (exportDevnetNodeDb: packs, indexes, celldb with the states);
//   3. the devnet restarts idle on the same store, for its liteserver;
//   4. the same read runs through each source: every masterchain block 1..N, the shard blocks it commits (its
//      shard tops walked back to the previous block's), and the states after each block of the accounts its
//      transactions touched, --concurrency masterchain blocks at once. What the two sources returned is compared
//      (block file hashes, account state hashes), so a fast wrong answer does not pass as a speed-up.
// Needs the native RocksDB addon for the node-db side to read indexes and celldb (else it scans packs and reads
// states from block state updates; the bench says which mode it ran in).
// Usage: npm run bench:nodedb [-- --blocks N --concurrency C --rounds R --activities A --history DIR --keep]
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { type ActivityWalletEntry, startActivity } from '../src/devnet/activity/index.ts';
import { createDevnetNode, type DevnetNode } from '../src/devnet/node/index.ts';
import {
  type BlockSource,
  createLiteSource,
  mapLimit,
  newShardBlocks,
  type ShardTop,
  shardTopsOf,
} from '../src/index/index.ts';
import { createNodeDbSource } from '../src/index/source/node-db-source.ts';
import { createLitePool, loadGlobalConfig } from '../src/lite/index.ts';
import { exportDevnetNodeDb } from '../src/nodedb/export-devnet.ts';
import { blockKey, listBlockTransactions, loadBlockCell } from '../src/ton/index.ts';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '1' },
    interval: { type: 'string', default: '250' },
    activities: { type: 'string', default: '6' },
    history: { type: 'string' },
    keep: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: npm run bench:nodedb [-- options]
Makes a devnet history, exports it as a node database tree, and reads the same masterchain range through the
liteserver source (the devnet's liteserver on 127.0.0.1) and through the node-db source. Prints blocks/s and
transactions/s of each and the ratio node-db / liteserver.
  --blocks N        masterchain blocks read (default 120; with --history, 10)
  --concurrency C   masterchain blocks read at once (default 4)
  --rounds R        read passes per source, alternating liteserver and node-db (default 1); the best pass counts
  --interval MS     the devnet's block interval while the history is made (default 250)
  --activities A    activity generators at once while the history is made, one genesis wallet each (default 6)
  --history DIR     use (a copy of) the history scripts/build-history.ts built in DIR (e.g. data/bench-history)
                    instead of making one: dense blocks, so transactions and account states dominate
  --keep            keep the temp folder (devnet store and node tree) and print its path`);
  process.exit(0);
}
const blocks = Number(values.blocks ?? (values.history ? 10 : 120));
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);
const interval = Number(values.interval);
const activities = Number(values.activities);
if (![blocks, concurrency, rounds, activities].every((v) => Number.isInteger(v) && v >= 1) || !(interval >= 10)) {
  console.error(
    'bench/nodedb: --blocks, --concurrency, --rounds and --activities must be integers >= 1, --interval >= 10',
  );
  process.exit(2);
}

let seed = 'bench-nodedb';
const log = (s: string) => console.error(`bench/nodedb: ${s}`);
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const cleanups: Array<() => Promise<unknown>> = [];
async function cleanup(): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c().catch((e) => log(`cleanup: ${e}`));
}
process.once('SIGINT', () => {
  log('interrupted, cleaning up');
  void cleanup().finally(() => process.exit(130));
});

interface Pass {
  seconds: number;
  blocks: number;
  transactions: number;
  accountStates: number;
  /** blockKey → file hash, and blockKey/address → account state hash: what the source answered. */
  answers: Map<string, string>;
}

/** The backfill read of masterchain 1..n through one source. */
async function readPass(source: BlockSource, n: number): Promise<Pass> {
  const answers = new Map<string, string>();
  let blockCount = 0;
  let transactions = 0;
  let accountStates = 0;
  // a masterchain block's tops are needed by its own job and by the next one's walk: read each once
  const tops = new Map<number, Promise<ShardTop[]>>();
  const topsOf = (seqno: number): Promise<ShardTop[]> => {
    let t = tops.get(seqno);
    if (!t) {
      t = source.mcBlock(seqno).then((f) => {
        if (!f) throw new Error(`${source.name}: no masterchain block ${seqno}`);
        answers.set(blockKey(f.id), f.id.fileHash.toString('hex'));
        return shardTopsOf(loadBlockCell(f.root));
      });
      tops.set(seqno, t);
    }
    return t;
  };
  const t0 = performance.now();
  await mapLimit(
    Array.from({ length: n }, (_, i) => i + 1),
    concurrency,
    async (seqno) => {
      const mc = await source.mcBlock(seqno);
      if (!mc) throw new Error(`${source.name}: no masterchain block ${seqno}`);
      const shards = await newShardBlocks(await topsOf(seqno), seqno > 1 ? await topsOf(seqno - 1) : [], (id) =>
        source.block(id),
      );
      const all = [{ fetched: mc, block: loadBlockCell(mc.root) }, ...shards];
      for (const { fetched, block } of all) {
        blockCount++;
        answers.set(blockKey(fetched.id), fetched.id.fileHash.toString('hex'));
        const txs = listBlockTransactions(block);
        transactions += txs.length;
        const touched = [...new Map(txs.map((t) => [t.account.toString('hex'), t.account])).values()];
        if (touched.length === 0) continue;
        const states = await source.accountStates(fetched.id, touched);
        accountStates += states.length;
        for (const s of states)
          answers.set(`${blockKey(fetched.id)}/${s.address.toString('hex')}`, s.hash.toString('hex'));
      }
    },
  );
  return { seconds: (performance.now() - t0) / 1000, blocks: blockCount, transactions, accountStates, answers };
}

function compare(a: Pass, b: Pass): string[] {
  const problems: string[] = [];
  for (const [k, v] of a.answers) {
    const w = b.answers.get(k);
    if (w === undefined) problems.push(`${k}: missing from node-db`);
    else if (w !== v) problems.push(`${k}: liteserver ${v.slice(0, 16)}…, node-db ${w.slice(0, 16)}…`);
  }
  for (const k of b.answers.keys()) if (!a.answers.has(k)) problems.push(`${k}: only from node-db`);
  return problems;
}

/** A fresh devnet history: --activities generators, one wallet each, until masterchain block --blocks. */
async function makeHistory(dir: string): Promise<void> {
  const node = createDevnetNode({
    dataDir: dir,
    litePort: 0,
    blockIntervalMs: interval,
    seed,
    walletsPerVersion: Math.ceil(activities / 3),
    logEvery: 0,
  });
  log(
    `making a history of ${blocks} masterchain blocks (a block every ${interval} ms, ${activities} activity generators) ...`,
  );
  const info = await node.start();
  let stopNode: (() => Promise<void>) | null = () => node.stop();
  cleanups.push(() => stopNode?.() ?? Promise.resolve());
  const pool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers });
  const wallets = JSON.parse(await readFile(info.walletsFile, 'utf8')) as ActivityWalletEntry[];
  const running = await Promise.all(
    wallets
      .slice(0, activities)
      .map((w, i) => startActivity({ pool, wallets: [w], seed: `${seed}-${i}`, intervalMs: 50, log: () => {} })),
  );
  try {
    await node.waitMasterchainSeqno(blocks);
  } finally {
    for (const a of running) await a.stop();
    await pool.close();
    const stop = stopNode;
    stopNode = null;
    await stop();
  }
}

/** A copy of a finished scripts/build-history.ts history (its store is DIR/devnet; the node then runs on the copy). */
async function copyHistory(from: string, dir: string): Promise<void> {
  const marker = JSON.parse(await readFile(join(from, 'COMPLETE.json'), 'utf8').catch(() => 'null')) as {
    mcSeqno: number;
    transactions: number;
    params: { seed: string };
  } | null;
  if (!marker) {
    console.error(
      `bench/nodedb: no finished history in ${from} (COMPLETE.json); build one with scripts/build-history.ts`,
    );
    process.exit(2);
  }
  if (marker.mcSeqno < blocks) {
    console.error(
      `bench/nodedb: the history in ${from} has ${marker.mcSeqno} masterchain blocks, fewer than --blocks ${blocks}`,
    );
    process.exit(2);
  }
  seed = marker.params.seed;
  log(`copying the history in ${from} (${marker.mcSeqno} masterchain blocks, ${marker.transactions} transactions) ...`);
  await cp(join(from, 'devnet'), join(dir, 'devnet'), { recursive: true });
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tongate-bench-nodedb-'));
  if (values.keep) log(`keeping ${dir}`);
  else cleanups.push(() => rm(dir, { recursive: true, force: true }));

  if (values.history) await copyHistory(resolve(values.history), dir);
  else await makeHistory(dir);
  const tree = join(dir, 'node-db');
  const tExport = performance.now();
  const exported = await exportDevnetNodeDb({ store: join(dir, 'devnet'), out: tree, to: blocks });
  log(
    `exported masterchain ${exported.from}..${exported.to} (${exported.blocks} blocks, ${exported.transactions} transactions) to ${tree} in ${round((performance.now() - tExport) / 1000)} s`,
  );

  // The devnet again, idle, on the same store: its liteserver serves the same history.
  const node: DevnetNode = createDevnetNode({ dataDir: dir, litePort: 0, blockIntervalMs: 0, seed, logEvery: 0 });
  const info = await node.start();
  cleanups.push(() => node.stop());
  // one server that also runs the node, so long deadlines: a dense block's account states queue up behind each other
  const pool = createLitePool({
    servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers,
    requestTimeoutMs: 120_000,
    attemptTimeoutMs: 120_000,
  });
  cleanups.push(() => pool.close());
  await pool.ready();
  const lite = createLiteSource(pool);
  const disk = await createNodeDbSource({ root: tree, secondaryDir: join(dir, 'secondary') });
  cleanups.push(() => disk.close());
  const mode = disk.nodeDb.mode;
  log(`node-db source: blocks via ${mode.blocks}, account states via ${mode.states}`);

  let bestLite: Pass | null = null;
  let bestDisk: Pass | null = null;
  for (let r = 0; r < rounds; r++) {
    const a = await readPass(lite, blocks);
    log(`round ${r + 1}: liteserver ${a.blocks} blocks, ${a.transactions} transactions in ${round(a.seconds)} s`);
    const b = await readPass(disk, blocks);
    log(`round ${r + 1}: node-db    ${b.blocks} blocks, ${b.transactions} transactions in ${round(b.seconds)} s`);
    const problems = compare(a, b);
    if (problems.length > 0) {
      throw new Error(
        `the sources disagree on ${problems.length} answers: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? '; …' : ''}`,
      );
    }
    if (!bestLite || a.seconds < bestLite.seconds) bestLite = a;
    if (!bestDisk || b.seconds < bestDisk.seconds) bestDisk = b;
  }
  const a = bestLite!;
  const b = bestDisk!;
  const rate = (p: Pass) => ({
    blocksPerSecond: round(p.blocks / p.seconds),
    txPerSecond: round(p.transactions / p.seconds),
    seconds: round(p.seconds),
  });
  const ratioBlocks = b.blocks / b.seconds / (a.blocks / a.seconds);
  const ratioTx = b.transactions / b.seconds / (a.transactions / a.seconds);
  console.log(
    JSON.stringify(
      {
        history: values.history ? resolve(values.history) : 'devnet with activity generators',
        mcBlocks: blocks,
        nodeDbMode: mode,
        blocks: a.blocks,
        transactions: a.transactions,
        accountStates: a.accountStates,
        concurrency,
        rounds,
        liteserver: rate(a),
        nodeDb: rate(b),
        ratio: { blocks: round(ratioBlocks, 3), transactions: round(ratioTx, 3) },
        answersCompared: a.answers.size,
      },
      null,
      2,
    ),
  );
  console.log(
    `bench/nodedb: node-db ${round(b.blocks / b.seconds)} blocks/s, ${round(b.transactions / b.seconds)} tx/s = ${round(ratioBlocks, 3)} x the liteserver over loopback (${round(a.blocks / a.seconds)} blocks/s, ${round(a.transactions / a.seconds)} tx/s) on the same ${a.blocks} blocks`,
  );
}

try {
  await main();
} finally {
  await cleanup();
}
