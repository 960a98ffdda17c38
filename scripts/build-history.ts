// scripts/build-history: builds, once, a devnet history for bench/ingest (at least 200,000 transactions by
// default) and keeps it under data/bench-history/ (or --out DIR). The devnet node (createDevnetNode, block
// interval 0) runs in this process; the genesis wallets send signed transfers straight into its sendMessage
// (the liteserver's check, in-process: no ADNL round trips on the one busy main thread). Dense on purpose: each
// v5r1 wallet sends --messages internal messages per external (v3r2/v4r2: 4, their limit), so a step carries
// hundreds to thousands of transactions and the per-step cost of the node is paid rarely. Destinations mix the
// genesis wallets (wallet code runs on receipt), fresh addresses (uninit accounts appear) and bounceable
// transfers to fresh addresses (they bounce back: bounced messages, a second transaction on the wallet), with
// text comments on most of them.
//
// Files in the output folder:
//   devnet/               the node's store (its file layer is what createDevnetStoreSource reads)
//   build-history.json    the parameters and the progress (masterchain seqno, transactions), rewritten per step
//   COMPLETE.json         written last, once the target is reached and the chain is quiet: the marker that the
//                         history is finished (a later run prints it and does nothing)
// Interrupted (Ctrl-C, kill -9), a second run resumes: the store continues its chain, the parameters come from
// build-history.json, the wallets' seqnos are read back from the chain, and the transactions committed after the
// last progress write are counted from the block files.
//
// Usage: node --import tsx scripts/build-history.ts [--out DIR] [--transactions N] [--wallets W] [--messages K]
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Address, beginCell, type Cell, internal, type MessageRelaxed, toNano } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { createDevnetNode, type SigningWallet, walletTransferMessage } from '../src/devnet/node/index.ts';
import { openDevnetStoreReader } from '../src/devnet/store/index.ts';
import { createLitePool, type LitePool, loadGlobalConfig } from '../src/lite/index.ts';
import { listBlockTransactions, loadBlockCell, parseBoc } from '../src/ton/index.ts';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'data/bench-history' },
    transactions: { type: 'string', default: '200000' },
    wallets: { type: 'string', default: '10' },
    messages: { type: 'string', default: '255' },
    shards: { type: 'string', default: '2' },
    seed: { type: 'string', default: 'bench-history' },
    'no-sync': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: node --import tsx scripts/build-history.ts [options]
Builds a devnet history of at least N transactions for bench/ingest, once: a devnet node (block interval 0) in
this process, its genesis wallets sending dense transfers (v5r1: K messages per external; v3r2/v4r2: 4) to each
other, to fresh addresses and (bounceable) to fresh addresses that bounce them back. Progress (transactions, tx/s,
ETA) goes to stderr. When OUT/COMPLETE.json exists the history is finished and nothing is done; an interrupted
build resumes where it stopped (delete OUT to start over).
  --out DIR            output folder (default data/bench-history); the store is DIR/devnet
  --transactions N     target transaction count (default 200000)
  --wallets W          genesis wallets per version (v3r2, v4r2, v5r1; default 10)
  --messages K         internal messages per v5r1 external, 1..255 (default 255)
  --shards S           basechain shards (default 2)
  --seed S             devnet seed (default bench-history)
  --no-sync            no fsync in the store (faster; a crash may then need a fresh start)
A resumed build keeps the parameters it was started with (build-history.json).`);
  process.exit(0);
}

interface Params {
  transactions: number;
  walletsPerVersion: number;
  messages: number;
  shards: number;
  seed: string;
}
interface Progress {
  format: 'tongate-bench-history-progress';
  params: Params;
  mcSeqno: number;
  transactions: number;
  /** Build time so far, over all runs, in seconds. */
  seconds: number;
}

function intArg(name: string, min: number, max: number): number {
  const v = Number(values[name as keyof typeof values]);
  if (!Number.isInteger(v) || v < min || v > max) {
    console.error(`build-history: --${name} must be an integer in ${min}..${max}`);
    process.exit(2);
  }
  return v;
}

const out = resolve(values.out as string);
const progressFile = join(out, 'build-history.json');
const markerFile = join(out, 'COMPLETE.json');
const storeDir = join(out, 'devnet');

const finished = await readJson<Record<string, unknown>>(markerFile);
if (finished) {
  console.error(`build-history: ${out} is finished already (delete it to build again):`);
  console.log(JSON.stringify(finished, null, 2));
  process.exit(0);
}

const saved = await readJson<Progress>(progressFile);
const params: Params = saved?.params ?? {
  transactions: intArg('transactions', 1, 1e9),
  walletsPerVersion: intArg('wallets', 1, 1000),
  messages: intArg('messages', 1, 255),
  shards: intArg('shards', 1, 16),
  seed: values.seed as string,
};
if (saved) console.error(`build-history: resuming in ${out} with ${JSON.stringify(params)}`);
await mkdir(out, { recursive: true });

// Transactions committed before this run: the saved count plus whatever steps landed after the last save.
let transactions = saved?.transactions ?? 0;
let savedSeqno = saved?.mcSeqno ?? 0;
const secondsBefore = saved?.seconds ?? 0;
if (saved) {
  const reader = await openDevnetStoreReader(storeDir);
  const head = (await reader.head())?.mcSeqno ?? 0;
  for (let n = savedSeqno + 1; n <= head; n++) {
    const m = await reader.manifest(n);
    if (!m) continue;
    for (const e of [m.mcBlock, ...m.shardBlocks]) {
      const bytes = await reader.blockFile(e.id);
      if (bytes) transactions += listBlockTransactions(loadBlockCell(parseBoc(bytes)[0] as Cell)).length;
    }
  }
  if (head > savedSeqno) console.error(`build-history: counted masterchain blocks ${savedSeqno + 1}..${head} again`);
  savedSeqno = Math.max(savedSeqno, head);
  await reader.close();
}

const t0 = performance.now();
const elapsed = () => secondsBefore + (performance.now() - t0) / 1000;
let progressWrite: Promise<void> = Promise.resolve();
function saveProgress(): Promise<void> {
  const p: Progress = {
    format: 'tongate-bench-history-progress',
    params,
    mcSeqno: savedSeqno,
    transactions,
    seconds: Math.round(elapsed() * 10) / 10,
  };
  progressWrite = progressWrite.then(() => writeJsonAtomic(progressFile, p));
  return progressWrite;
}
await saveProgress();

const node = createDevnetNode({
  dataDir: out,
  litePort: 0,
  blockIntervalMs: 0,
  shards: params.shards,
  seed: params.seed,
  walletsPerVersion: params.walletsPerVersion,
  sync: !values['no-sync'],
  logEvery: 0,
  log: (level, msg, fields) => {
    if (level === 'warn' || level === 'error') console.error(`devnet ${level}: ${msg} ${JSON.stringify(fields)}`);
  },
});
let lastStepAt = performance.now();
let steps = 0;
const stepWaiters: Array<() => void> = [];
node.onBlock((e) => {
  transactions += e.transactions;
  savedSeqno = e.mcSeqno;
  lastStepAt = performance.now();
  steps++;
  void saveProgress();
  for (const w of stepWaiters.splice(0)) w();
});
const nextStep = () => new Promise<void>((r) => stepWaiters.push(r));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let stopRequested = false;
const onSignal = () => {
  if (stopRequested) process.exit(130);
  stopRequested = true;
  console.error('build-history: stopping after this round (run again to resume; a second Ctrl-C exits at once)');
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

console.error(`build-history: starting the devnet in ${storeDir} ...`);
const info = await node.start();
const pool: LitePool = createLitePool({ servers: (await loadGlobalConfig(info.globalConfigFile)).liteservers });

interface BenchWallet extends SigningWallet {
  seqno: number | null;
  perExternal: number;
}
const entries = JSON.parse(await readFile(info.walletsFile, 'utf8')) as Array<{
  version: SigningWallet['version'];
  mnemonic: string[];
  raw: string;
}>;
const wallets: BenchWallet[] = await Promise.all(
  entries.map(async (e) => {
    const keys = await mnemonicToPrivateKey(e.mnemonic);
    return {
      version: e.version,
      publicKey: keys.publicKey,
      secretKey: keys.secretKey,
      address: Address.parse(e.raw),
      seqno: null,
      perExternal: e.version === 'v5r1' ? params.messages : Math.min(4, params.messages),
    };
  }),
);

/** The wallet's seqno at the head, or null while it is not deployed (v3r2/v4r2 data start with it; v5r1 after a bit). */
async function readSeqno(w: BenchWallet): Promise<number | null> {
  const { last } = await pool.getMasterchainInfo();
  const s = await pool.getAccountState(w.address, last);
  const st = s.state?.storage.state;
  if (st?.type !== 'active' || !st.state.data) return null;
  const d = st.state.data.beginParse();
  if (w.version === 'v5r1') d.loadBit();
  return d.loadUint(32);
}

/** Deterministic destinations: sha256(seed, wallet, seqno, index) picks the kind and the fresh address. */
function messagesOf(w: BenchWallet, wi: number, seqno: number): MessageRelaxed[] {
  const msgs: MessageRelaxed[] = [];
  for (let j = 0; j < w.perExternal; j++) {
    const h = createHash('sha256').update(`${params.seed} ${wi} ${seqno} ${j}`).digest();
    const pick = h[0]! % 8;
    const body =
      pick === 7 ? undefined : beginCell().storeUint(0, 32).storeStringTail(`bench ${wi}:${seqno}:${j}`).endCell();
    const value = toNano('0.01') + BigInt(h.readUInt16BE(1)) * 100_000n;
    if (pick < 4) {
      const to = wallets[h.readUInt16BE(3) % wallets.length]!.address;
      msgs.push(internal({ to, value, bounce: true, body }));
    } else if (pick < 7) {
      msgs.push(internal({ to: new Address(0, h), value, bounce: false, body }));
    } else {
      msgs.push(internal({ to: new Address(0, h), value, bounce: true }));
    }
  }
  return msgs;
}

// The genesis wallets deploy in the first blocks; wait for them (and for a resumed chain's queued externals).
for (;;) {
  try {
    for (const w of wallets) w.seqno = await readSeqno(w);
    if (wallets.every((w) => w.seqno !== null)) break;
  } catch {
    // The zero state has no account states to show; the first blocks come within a second.
  }
  await sleep(200);
}

let lastPrint = 0;
const startTx = transactions;
const startAt = performance.now();
function printProgress(force = false): void {
  const now = performance.now();
  if (!force && now - lastPrint < 5000) return;
  lastPrint = now;
  // The rate over this run: steps are large (about a thousand transactions), so a short window would jump.
  const tps = (transactions - startTx) / ((now - startAt) / 1000);
  const left = Math.max(0, params.transactions - transactions);
  const eta = tps > 0 ? left / tps : Number.NaN;
  console.error(
    `build-history: ${transactions}/${params.transactions} tx (${((100 * transactions) / params.transactions).toFixed(1)}%), ` +
      `${Math.round(tps)} tx/s, mc ${savedSeqno}, ${Math.round(elapsed())} s, ETA ${Number.isFinite(eta) ? `${Math.round(eta)} s` : '?'}, ` +
      `heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB`,
  );
}

let refused = 0;
/** Sends one external from each wallet of `group`; resolves when all were accepted or refused. */
async function sendRound(group: BenchWallet[]): Promise<number> {
  const validUntil = Math.floor(Date.now() / 1000) + 600;
  let accepted = 0;
  await Promise.all(
    group.map(async (w) => {
      const wi = wallets.indexOf(w);
      if (w.seqno === null) w.seqno = await readSeqno(w).catch(() => null);
      if (w.seqno === null) return;
      const boc = walletTransferMessage(w, {
        seqno: w.seqno,
        messages: messagesOf(w, wi, w.seqno),
        validUntil,
        deploy: false,
      }).toBoc();
      try {
        await node.chainView.sendMessage!(boc);
        w.seqno++;
        accepted++;
      } catch {
        // Not accepted (e.g. the previous seqno still queued after a restart): read it back next round.
        refused++;
        w.seqno = null;
      }
    }),
  );
  return accepted;
}

// Two groups of wallets take turns, so every step carries one group's externals and the other group's deliveries
// (steady block sizes). A wallet may send again once its previous external is surely committed: the step running
// when its group's sends finished may have taken some of them, the next step takes the rest (at most 1024 a step).
const groups = [wallets.filter((_, i) => i % 2 === 0), wallets.filter((_, i) => i % 2 === 1)];
const readyAt = [0, 1];
const inFlight = [false, false];
while (transactions < params.transactions && !stopRequested) {
  groups.forEach((g, gi) => {
    if (inFlight[gi] || steps < readyAt[gi]!) return;
    inFlight[gi] = true;
    void sendRound(g).then(
      (accepted) => {
        // Nothing accepted means no step is coming for this group: retry at once (after re-reading seqnos).
        readyAt[gi] = accepted > 0 ? steps + 2 : steps;
        inFlight[gi] = false;
      },
      () => {
        readyAt[gi] = steps;
        inFlight[gi] = false;
      },
    );
  });
  await Promise.race([nextStep(), sleep(500)]);
  printProgress();
}
while (inFlight.some(Boolean)) await sleep(50);

// Let the chain finish delivering what is in flight: the node idles once no queue holds a message.
while (performance.now() - lastStepAt < 1500) await sleep(250);
printProgress(true);
await pool.close();
await node.stop();
await saveProgress();
if (stopRequested && transactions < params.transactions) {
  console.error(`build-history: stopped at ${transactions} transactions; run again to continue`);
  process.exit(130);
}
const marker = {
  format: 'tongate-bench-history',
  store: storeDir,
  transactions,
  mcSeqno: savedSeqno,
  params,
  buildSeconds: Math.round(elapsed()),
  refusedExternals: refused,
  finishedAt: new Date().toISOString(),
};
await writeJsonAtomic(markerFile, marker);
console.log(JSON.stringify(marker, null, 2));
console.error(
  `build-history: ${transactions} transactions in ${savedSeqno} masterchain blocks, ${Math.round(elapsed())} s (${steps} steps this run)`,
);

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`);
  await rename(tmp, path);
}
