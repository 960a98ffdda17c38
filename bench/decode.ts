// bench/decode: the contract decoders' throughput — accounts detected per second (get-methods in our TVM off the
// main thread) and decoded events per second — as ratios to raw block parsing of the same blocks in the same run
// (machines are shared and noisy, so only the ratios mean anything). A devnet runs the whole activity cycle
// (jettons, NFTs, DNS, multisig, vesting, highload) `--cycles` times; its blocks are read once through the devnet
// store, and the account states the decoders need are fetched (untimed) through the liteserver. Then, timed:
//   raw parse:  Block cell -> transactions -> transaction views (what the indexer does before any decoder);
//   events:     the same transactions -> decoder inputs -> candidate events;
//   detection:  every changed account's state -> interfaces (cold cache, then warm: the steady state of a tail).
// Usage: node --import tsx bench/decode.ts [--cycles N] [--threads N]
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Address } from '@ton/core';
import { createDatabase, migrate } from '../src/db/index.ts';
import { devnetDnsRoots } from '../src/devnet/activity/index.ts';
import { createContractsEnv } from '../src/index/contracts/index.ts';
import {
  type AccountInput,
  createDetectCache,
  detectAccounts,
  eventsOf,
  transactionInput,
} from '../src/index/decode/contracts/index.ts';
import {
  accountInputOf,
  createDevnetStoreSource,
  createLiteSource,
  newShardBlocks,
  shardTopsOf,
} from '../src/index/index.ts';
import { createLitePool, loadGlobalConfig } from '../src/lite/index.ts';
import {
  type FetchedBlock,
  listBlockTransactions,
  loadBlockCell,
  transactionFromCell,
  transactionView,
} from '../src/ton/index.ts';
import { startActivityDevnet } from './support/activity-devnet.ts';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '3' },
    threads: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: node --import tsx bench/decode.ts [--cycles N] [--threads N]
Runs a devnet with N activity cycles (default 3; every contract family), then measures contract detection
(accounts/s, cold and warm cache, --threads TVM workers) and event decoding (events/s) against raw block
parsing of the same blocks, all in this run.`);
  process.exit(0);
}
const cycles = Number(values.cycles);
const threads = Number(values.threads);
if (!Number.isInteger(cycles) || cycles < 1 || !Number.isInteger(threads) || threads < 1) {
  console.error('bench/decode: --cycles and --threads must be positive integers');
  process.exit(2);
}

const devnet = await startActivityDevnet('bench/decode', cycles);
const { dir, info } = devnet;
try {
  const pool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers });
  const source = await createDevnetStoreSource(info.devnetDir, { fallback: createLiteSource(pool) });
  const head = await source.head();

  // Read every block once (untimed): the masterchain blocks and the shard blocks each commits.
  const blocks: Array<{ fetched: FetchedBlock; mcSeqno: number }> = [];
  let prevTops = shardTopsOf(loadBlockCell((await source.mcBlock(1))!.root));
  for (let n = 2; n <= head; n++) {
    const mc = (await source.mcBlock(n))!;
    const tops = shardTopsOf(loadBlockCell(mc.root));
    blocks.push({ fetched: mc, mcSeqno: n });
    for (const s of await newShardBlocks(tops, prevTops, (id) => source.block(id))) {
      blocks.push({ fetched: s.fetched, mcSeqno: n });
    }
    prevTops = tops;
  }

  // Raw parse (the baseline), keeping the views for the decoders' inputs.
  const parse = () => {
    const views = [];
    for (const b of blocks) {
      const block = loadBlockCell(b.fetched.root);
      const workchain = block.info.shard.workchainId;
      for (const t of listBlockTransactions(block)) {
        views.push({ view: transactionView(transactionFromCell(t.cell), { workchain }), mcSeqno: b.mcSeqno });
      }
    }
    return views;
  };
  parse();
  let t0 = performance.now();
  const views = parse();
  const parseMs = performance.now() - t0;

  // Events.
  let events = 0;
  t0 = performance.now();
  const eventsOnce = (): number => {
    let n = 0;
    for (const v of views) for (const _ of eventsOf(transactionInput(v.view, v.mcSeqno))) n++;
    return n;
  };
  events = eventsOnce();
  const eventsMs = performance.now() - t0;

  // Detection inputs (untimed): each account's state after the last block that changed it, newest per account.
  const latest = new Map<string, AccountInput>();
  for (const b of blocks) {
    const block = loadBlockCell(b.fetched.root);
    const txs = listBlockTransactions(block);
    const last = new Map<string, bigint>();
    for (const t of txs) {
      const k = t.account.toString('hex');
      if ((last.get(k) ?? -1n) < t.lt) last.set(k, t.lt);
    }
    const wanted = [...last.keys()].map((k) => Buffer.from(k, 'hex'));
    for (const st of await source.accountStates(b.fetched.id, wanted)) {
      const input = accountInputOf(st, last.get(st.address.toString('hex')) ?? 0n);
      if (input) latest.set(input.address.toRawString(), input);
    }
  }
  const states = [...latest.values()];
  const db = await createDatabase({ kind: 'pglite', dir: join(dir, 'pg') });
  await migrate(db);
  const env = await createContractsEnv({ db, threads, dnsRoots: devnetDnsRoots() });
  const byKey = new Map(states.map((s) => [s.address.toRawString(), s]));
  const ctx = {
    tvm: env.tvm,
    config: env.config,
    library: env.library,
    dnsRoots: env.dnsRoots,
    now: Math.floor(Date.now() / 1000),
    account: async (a: Address) => byKey.get(a.toRawString()) ?? null,
  };
  t0 = performance.now();
  const detected = await detectAccounts(states, ctx, createDetectCache());
  const coldMs = performance.now() - t0;
  const warm = createDetectCache();
  await detectAccounts(states, ctx, warm);
  t0 = performance.now();
  await detectAccounts(states, ctx, warm);
  const warmMs = performance.now() - t0;
  await env.close();
  await db.close();
  await source.close();
  await pool.close();

  const txPerS = views.length / (parseMs / 1000);
  const rate = (n: number, ms: number) => n / (ms / 1000);
  const kinds = new Map<string, number>();
  for (const d of detected) kinds.set(d.kind, (kinds.get(d.kind) ?? 0) + 1);
  console.log(`\n  ${blocks.length} blocks, ${views.length} transactions, ${states.length} active accounts changed`);
  console.log(`  detected: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}; ${events} candidate events`);
  console.log(`  raw parse      ${txPerS.toFixed(0).padStart(8)} tx/s        (baseline)`);
  console.log(
    `  events         ${rate(views.length, eventsMs).toFixed(0).padStart(8)} tx/s        ${(rate(views.length, eventsMs) / txPerS).toFixed(2)}x raw parse (${rate(events, eventsMs).toFixed(0)} events/s)`,
  );
  console.log(
    `  detect (cold)  ${rate(states.length, coldMs).toFixed(1).padStart(8)} accounts/s  ${(rate(states.length, coldMs) / txPerS).toFixed(4)}x raw parse tx/s`,
  );
  console.log(
    `  detect (warm)  ${rate(states.length, warmMs).toFixed(1).padStart(8)} accounts/s  ${(rate(states.length, warmMs) / txPerS).toFixed(4)}x raw parse tx/s`,
  );
} finally {
  await devnet.close();
}
