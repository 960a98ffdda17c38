// bench/devnet: transactions per second the devnet node turns into committed blocks, as a ratio to the raw
// @ton/sandbox Executor running the same messages in the same run without blocks (machines are shared and noisy,
// so only the ratio means anything). A burst of N wallet transfers (each from its own genesis wallet, to a new
// address) goes through the liteserver's sendMessage into a node with --block-interval 0; the node's time runs
// from the first send to the step that commits the last of the 2N transactions (each transfer and its delivery).
// The baseline runs the same 2N transactions on one in-thread Executor, one after another.
// Usage: node --import tsx bench/devnet.ts [--transfers N] [--no-sync] [--profile] [--tvm-threads T]
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Address, beginCell, Cell, internal, loadTransaction, storeMessage, toNano } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { Executor } from '@ton/sandbox';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import {
  createDevnetNode,
  type DevnetBlockEvent,
  type WalletsFileEntry,
  walletTransferMessage,
} from '../src/devnet/node/index.ts';

const { values } = parseArgs({
  options: {
    transfers: { type: 'string', default: '90' },
    'no-sync': { type: 'boolean' },
    profile: { type: 'boolean' },
    'tvm-threads': { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: node --import tsx bench/devnet.ts [--transfers N] [--no-sync] [--profile] [--tvm-threads T]
Starts a devnet (block interval 0, ceil(N/3) genesis wallets per version) in a temp folder, sends N signed
transfers at once through the liteserver (sendMessage), and measures transactions per second until all 2N
transactions (the transfers and their deliveries) are in committed blocks. Prints that as a ratio to the raw
@ton/sandbox Executor running the same 2N transactions in this process without blocks. --no-sync turns off
the store's fsyncs; --profile writes a main-thread CPU profile of the burst (bench-devnet.cpuprofile); --tvm-threads
gives the node T emulator threads (default 1, as \`tongate devnet\`). Default N = 90.`);
  process.exit(0);
}
const transfers = Number(values.transfers);
if (!Number.isInteger(transfers) || transfers < 3) {
  console.error('bench/devnet: --transfers must be an integer >= 3');
  process.exit(2);
}

const tvmThreads = Number(values['tvm-threads']);
if (!Number.isInteger(tvmThreads) || tvmThreads < 1 || tvmThreads > 64) {
  console.error('bench/devnet: --tvm-threads must be an integer in 1..64');
  process.exit(2);
}

const dir = await mkdtemp(join(tmpdir(), 'tongate-bench-devnet-'));
const events: Array<DevnetBlockEvent & { at: number }> = [];
const node = createDevnetNode({
  dataDir: dir,
  litePort: 0,
  blockIntervalMs: 0,
  walletsPerVersion: Math.ceil(transfers / 3),
  sync: !values['no-sync'],
  seed: 'bench-devnet',
  logEvery: 0,
  tvmThreads,
});
node.onBlock((e) => events.push({ ...e, at: performance.now() }));
try {
  console.log(`bench/devnet: starting a devnet with ${3 * Math.ceil(transfers / 3)} genesis wallets ...`);
  const info = await node.start();
  const engine = new LiteSingleEngine({
    host: `tcp://127.0.0.1:${info.litePort}`,
    publicKey: info.liteServerPublicKey,
  });
  engine.on('error', () => {});
  await new Promise((r) => engine.once('ready', r));
  const client = new LiteClient({ engine, cacheMap: 0 });

  const entries = (JSON.parse(await readFile(info.walletsFile, 'utf8')) as WalletsFileEntry[]).slice(0, transfers);
  // The bootstrap: the shard layout in place and every genesis wallet deployed (it has a transaction).
  let head = (await client.getMasterchainInfo()).last;
  for (;;) {
    head = (await client.getMasterchainInfo()).last;
    if (node.info().shardTops.length === info.shardLayout.length) {
      const states = await Promise.all(entries.map((e) => client.getAccountStateRaw(Address.parse(e.raw), head)));
      if (states.every((st) => st.lastTx)) break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const now = Math.floor(Date.now() / 1000);
  const jobs = await Promise.all(
    entries.map(async (e) => {
      const keys = await mnemonicToPrivateKey(e.mnemonic);
      const address = Address.parse(e.raw);
      const to = new Address(0, randomBytes(32));
      const message = walletTransferMessage(
        { version: e.version, publicKey: keys.publicKey, secretKey: keys.secretKey, address },
        {
          seqno: 1,
          messages: [internal({ to, value: toNano('0.1'), bounce: false })],
          validUntil: now + 600,
          deploy: false,
        },
      );
      const st = await client.getAccountStateRaw(address, head);
      if (!st.lastTx) throw new Error(`wallet ${e.raw} is not deployed`);
      const shardAccount = beginCell()
        .storeRef(Cell.fromBoc(st.raw)[0]!)
        .storeUint(st.lastTx.hash, 256)
        .storeUint(st.lastTx.lt, 64)
        .endCell();
      return { message, shardAccount, to };
    }),
  );

  // The node: the burst through sendMessage, until the blocks hold 2N transactions.
  const before = events.length;
  let session: Session | undefined;
  if (values.profile) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const t0 = performance.now();
  await Promise.all(jobs.map((j) => client.sendMessage(j.message.toBoc())));
  const tSent = performance.now();
  const want = 2 * transfers;
  for (;;) {
    const got = events.slice(before).reduce((n, e) => n + e.transactions, 0);
    if (got >= want) break;
    if (performance.now() - t0 > 300_000) throw new Error(`only ${got} of ${want} transactions after 300 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await writeFile('bench-devnet.cpuprofile', JSON.stringify(profile));
    console.log('bench/devnet: main-thread CPU profile of the burst in bench-devnet.cpuprofile');
  }
  const burst = events.slice(before);
  const nodeSeconds = (burst.at(-1)!.at - t0) / 1000;
  const nodeTps = want / nodeSeconds;
  engine.close();

  // The baseline: the same messages on one Executor, then each delivery on its new account.
  const mcState = (await node.chainView.shardState(node.info().head)) as Cell;
  const extra = mcState.refs[3]!.beginParse();
  extra.loadUint(16);
  if (extra.loadBit()) extra.loadRef();
  extra.loadBuffer(32);
  const config = beginCell().storeSlice(extra.loadRef().beginParse()).endCell().toBoc().toString('base64');
  const executor = await Executor.create();
  const common = {
    config,
    libs: null,
    verbosity: 'short' as const,
    now,
    randomSeed: Buffer.alloc(32, 7),
    ignoreChksig: false,
    debugEnabled: false,
  };
  const t1 = performance.now();
  let baseTxs = 0;
  for (const j of jobs) {
    const r = await executor.runTransaction({
      ...common,
      message: j.message,
      shardAccount: j.shardAccount.toBoc().toString('base64'),
      lt: 100_000_000_000n,
    });
    if (!r.result.success) throw new Error(`baseline: transfer refused: ${r.result.error}`);
    baseTxs++;
    const tx = loadTransaction(Cell.fromBase64(r.result.transaction).beginParse());
    const out = tx.outMessages.get(0)!;
    const d = await executor.runTransaction({
      ...common,
      message: beginCell().store(storeMessage(out)).endCell(),
      shardAccount: beginCell()
        .storeRef(beginCell().storeBit(false).endCell())
        .storeBuffer(Buffer.alloc(32))
        .storeUint(0, 64)
        .endCell()
        .toBoc()
        .toString('base64'),
      lt: 100_000_100_000n,
    });
    if (!d.result.success) throw new Error(`baseline: delivery refused: ${d.result.error}`);
    baseTxs++;
  }
  const baseSeconds = (performance.now() - t1) / 1000;
  const baseTps = baseTxs / baseSeconds;

  const stats = node.info().stats;
  console.log(
    JSON.stringify(
      {
        transfers,
        transactions: want,
        node: {
          txPerSecond: round(nodeTps),
          seconds: round(nodeSeconds),
          sendSeconds: round((tSent - t0) / 1000),
          steps: burst.length,
          avgCollateMs: round(burst.reduce((n, e) => n + e.collateMs, 0) / burst.length),
          avgCommitMs: round(burst.reduce((n, e) => n + e.commitMs, 0) / burst.length),
          avgMainThreadMsPerStep: stats.avgMainThreadMs,
        },
        executor: { txPerSecond: round(baseTps), seconds: round(baseSeconds) },
        ratio: round(nodeTps / baseTps),
      },
      null,
      2,
    ),
  );
  console.log(
    `bench/devnet: ${round(nodeTps)} tx/s into committed blocks = ${round(nodeTps / baseTps)} x the raw Executor (${round(baseTps)} tx/s, no blocks)`,
  );
} finally {
  await node.stop();
  await rm(dir, { recursive: true, force: true });
}

function round(x: number | undefined): number {
  return Math.round((x ?? 0) * 100) / 100;
}
