// bench/actions: the classifier's throughput — traces classified per second — as a ratio to reading the same traces
// (transactions, messages, bodies, contract interfaces) from the database in the same run (machines are shared and
// noisy, so only the ratios mean anything). A devnet runs the whole activity cycle `--cycles` times; its blocks are
// indexed (untimed) with the contract decoders into PGlite (or DATABASE_URL), and the traces assembled. Then, timed,
// over every final trace:
//   read:      loadTraceInputs + loadInterfaces (the baseline: what any consumer of stored traces pays);
//   classify:  classifyTrace over the loaded trees (the matchers alone, CPU only);
//   job:       classifyStored: read + classify + write actions and action_accounts (what the classify job costs).
// First, the same read / classify pair over the 97 real mainnet traces of the vectors (shared/vectors/actions, one
// trace at a time in a scratch PGlite, as `tongate index classify-trace` stores them), where the traces are larger
// and the protocols many.
// Usage: node --import tsx bench/actions.ts [--cycles N] [--repeat N]
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { librariesFrom } from '../src/app.ts';
import { resolveDatabaseConfig } from '../src/common/index.ts';
import { createDatabase, type Database, migrate } from '../src/db/index.ts';
import { devnetDnsRoots } from '../src/devnet/activity/index.ts';
import {
  classifyStored,
  classifyTrace,
  interfacesOf,
  loadInterfaces,
  loadTraceInputs,
  type StoredTrace,
  traceRequests,
} from '../src/index/actions/index.ts';
import { assembleTraceFile, clearTraceFile, readTraceFile, storeTraceFile } from '../src/index/actions/trace-file.ts';
import { createContractsEnv } from '../src/index/contracts/index.ts';
import { createLiteSource, indexMcBlock } from '../src/index/index.ts';
import { assembleTraces } from '../src/index/traces/index.ts';
import { createLitePool, loadGlobalConfig } from '../src/lite/index.ts';
import { startActivityDevnet } from './support/activity-devnet.ts';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '2' },
    repeat: { type: 'string', default: '5' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: node --import tsx bench/actions.ts [--cycles N] [--repeat N]
Runs a devnet with N activity cycles (default 2; every contract family), indexes it with the contract decoders and
assembles its traces, then measures classification (traces/s) against reading the same traces from the database
(PGlite in a temp dir, or DATABASE_URL), each timed --repeat times (default 5), all in this run.`);
  process.exit(0);
}
const cycles = Number(values.cycles);
const repeat = Number(values.repeat);
if (!Number.isInteger(cycles) || cycles < 1 || !Number.isInteger(repeat) || repeat < 1) {
  console.error('bench/actions: --cycles and --repeat must be positive integers');
  process.exit(2);
}

/** The fastest of `repeat` timed runs after one warm-up, in ms. */
async function best(fn: () => Promise<unknown> | unknown): Promise<number> {
  await fn();
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

/** Reads stored traces back as the classify job does: their trees, then what the matchers ask about. */
async function readBack(db: Database, traces: readonly StoredTrace[]) {
  const inputs = await loadTraceInputs(db, traces);
  const wanted = traceRequests(inputs);
  return { inputs, interfaces: interfacesOf(await loadInterfaces(db, wanted.addresses, wanted.accountData)) };
}

/** Read and classify times over the real mainnet traces of the vectors, one trace stored at a time. */
async function mainnetTraces(): Promise<void> {
  const dir = join(
    process.env.TONGATE_VECTORS ?? join(import.meta.dirname, '..', '..', 'shared', 'vectors'),
    'actions',
    'traces',
  );
  if (!existsSync(dir)) {
    console.log(`bench/actions: mainnet traces not found at ${dir} (set TONGATE_VECTORS); that part is skipped`);
    return;
  }
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const scratch = await mkdtemp(join(tmpdir(), 'tongate-bench-actions-'));
  const db = await createDatabase(resolveDatabaseConfig({ flags: { data: scratch }, env: {} }));
  try {
    await migrate(db);
    let readMs = 0;
    let classifyMs = 0;
    let actions = 0;
    let transactions = 0;
    for (const file of files) {
      const f = await readTraceFile(join(dir, file));
      await clearTraceFile(db, f);
      await storeTraceFile(db, f);
      const stored = (await assembleTraceFile(db, f)).stored;
      if (!stored) throw new Error(`bench/actions: ${file} did not assemble`);
      const loaded = await readBack(db, [stored]);
      readMs += await best(() => readBack(db, [stored]));
      classifyMs += await best(() => {
        actions = classifyTrace(loaded.inputs[0]!, loaded.interfaces).length;
      });
      transactions += f.transactions.length;
      await clearTraceFile(db, f);
    }
    const rate = (ms: number) => (files.length / ms) * 1000;
    console.log(`  ${files.length} mainnet traces (${transactions} transactions), PGlite, best of ${repeat}:`);
    console.log(`  read traces from the database:   ${rate(readMs).toFixed(0)} traces/s (${readMs.toFixed(1)} ms)`);
    console.log(
      `  classify (matchers only):        ${rate(classifyMs).toFixed(0)} traces/s (${classifyMs.toFixed(1)} ms)`,
    );
    console.log(
      `bench/actions: mainnet classify ${rate(classifyMs).toFixed(0)} traces/s = ${(readMs / classifyMs).toFixed(2)} x reading them back (${rate(readMs).toFixed(0)} traces/s; ${actions} actions in the last)`,
    );
  } finally {
    await db.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

await mainnetTraces();

const devnet = await startActivityDevnet('bench/actions', cycles);
const { dir, info } = devnet;
try {
  const pool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers });
  const source = createLiteSource(pool);
  const head = (await pool.getMasterchainInfo()).last.seqno;
  const dbConfig = resolveDatabaseConfig({
    flags: { data: join(dir, 'db') },
    env: process.env,
    applicationName: 'tongate-bench-actions',
  });
  const db = await createDatabase(dbConfig);
  await migrate(db);
  const contracts = await createContractsEnv({
    db,
    dnsRoots: devnetDnsRoots(),
    libraries: (h) => librariesFrom(pool, h),
  });
  console.log(`  indexing masterchain blocks 1..${head} (${dbConfig.kind}) ...`);
  for (let n = 1; n <= head; n++) await indexMcBlock(n, { source, db, contracts });
  await contracts.close();
  await assembleTraces(db);
  const traces = (
    await db.query<StoredTrace & Record<string, unknown>>(
      `SELECT trace_id, external_hash, external_hash_norm, mc_seqno_end, end_lt::text AS end_lt, end_utime, state
         FROM traces WHERE pending_edges_ = 0 ORDER BY trace_id`,
    )
  ).rows;
  const txCount = (
    await db.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE trace_id IS NOT NULL')
  ).rows[0]!.n;
  console.log(`  ${traces.length} final traces, ${txCount} transactions`);

  const read = () => readBack(db, traces);
  const loaded = await read();
  const readMs = await best(read);
  let actions = 0;
  const classifyMs = await best(() => {
    actions = 0;
    for (const t of loaded.inputs) actions += classifyTrace(t, loaded.interfaces).length;
  });
  const jobMs = await best(() => classifyStored(traces, { db }));
  const rate = (ms: number) => (traces.length / ms) * 1000;
  console.log(`  read traces from the database:   ${rate(readMs).toFixed(0)} traces/s (${readMs.toFixed(1)} ms)`);
  console.log(
    `  classify (matchers only):        ${rate(classifyMs).toFixed(0)} traces/s (${classifyMs.toFixed(1)} ms, ${actions} actions)`,
  );
  console.log(`  classify job (read+classify+write): ${rate(jobMs).toFixed(0)} traces/s (${jobMs.toFixed(1)} ms)`);
  console.log(`  ratio classify / read:     ${(readMs / classifyMs).toFixed(2)}x`);
  console.log(`  ratio job / read:          ${(readMs / jobMs).toFixed(2)}x`);
  await db.close();
  await pool.close();
} finally {
  await devnet.close();
}
