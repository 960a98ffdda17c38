// createDevnetNode: the running devnet. The first start creates the genesis (deterministic in the seed) and commits
// it; every start continues from the store's head. It composes the TVM runner (worker thread), the collator's
// steps (producer.ts), the store, the ChainView over them (devnet-view.ts), the liteserver and a small HTTP
// endpoint, and publishes wallets.json and global.config.json in `<data>/devnet/`.
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type Cell, loadAccount } from '@ton/core';
import { keyPairFromSeed } from '../../adnl/index.ts';
import { ConfigError, LiteServerError } from '../../common/errors.ts';
import type { Log } from '../../common/logger.ts';
import { createLiteServer, type LiteServer } from '../../lite/index.ts';
import { type BlockIdExt, parseBoc } from '../../ton/index.ts';
import { createTvmRunner, type TvmRunnerHandle } from '../../tvm/index.ts';
import type { ChainTop, ChainTops } from '../chain/index.ts';
import {
  DEVNET_GLOBAL_ID,
  type DevnetWallet,
  deriveGenesisKeys,
  deriveUserWallets,
  deriveWallets,
  type GenesisKeys,
  MAX_DEVNET_SHARDS,
} from '../genesis/index.ts';
import { type DevnetStore, type FileEntry, openDevnetStore } from '../store/index.ts';
import { createDevnetView, type DevnetView } from './devnet-view.ts';
import { checkExternal, parseExternal } from './external-check.ts';
import { createDevnetGenesis, walletDeployMessage } from './genesis.ts';
import { createHttpEndpoint, type HttpEndpoint } from './http-endpoint.ts';
import { createPrevBlocksSource } from './prev-blocks.ts';
import { createProducer, type Producer } from './producer.ts';
import { devnetGlobalConfigText, devnetNetworkInfo, walletsFileEntries, writeFileAtomic } from './published-files.ts';
import { createSignatureStore } from './signatures.ts';
import type { DevnetBlockEvent, DevnetInfo, DevnetNode, DevnetNodeOptions } from './types.ts';

export const DEFAULT_LITE_PORT = 4924;
export const DEFAULT_BLOCK_INTERVAL_MS = 400;
export const DEFAULT_SEED = 'tongate';
export const DEFAULT_SHARDS = 2;
export const WALLETS_FILE = 'wallets.json';
export const GLOBAL_CONFIG_FILE = 'global.config.json';

interface Running {
  store: DevnetStore;
  tvm: TvmRunnerHandle;
  view: DevnetView;
  producer: Producer;
  lite: LiteServer;
  http: HttpEndpoint;
  keys: GenesisKeys;
  wallets: DevnetWallet[];
  seed: string;
  globalId: number;
  layout: bigint[];
  zeroState: BlockIdExt;
  litePort: number;
  httpPort: number;
  globalConfig: string;
}

async function loadTop(store: DevnetStore, e: FileEntry): Promise<ChainTop> {
  const state = await store.stateRoot(e.id);
  if (!state) throw new ConfigError(`devnet store: the state of ${e.id.workchain}:${e.id.seqno} is missing`);
  if (e.zeroState) return { id: e.id, block: null, state };
  const file = await store.blockFile(e.id);
  if (!file) throw new ConfigError(`devnet store: the block file of ${e.id.workchain}:${e.id.seqno} is missing`);
  return { id: e.id, block: parseBoc(file)[0] as Cell, state };
}

/** The chain tops the store's head names: the masterchain block and every shard's newest block. */
export async function loadHeadTops(store: DevnetStore): Promise<{ tops: ChainTops; mcUtime: number }> {
  const head = store.head();
  if (!head) throw new ConfigError(`devnet store ${store.dir} has no genesis`);
  const mc = await loadTop(store, head.mcBlock);
  const shards: ChainTop[] = [];
  for (const e of head.shardTops) shards.push(await loadTop(store, e));
  return { tops: { mc, shards }, mcUtime: head.mcBlock.genUtime };
}

function checkPort(name: string, p: number): void {
  if (!Number.isInteger(p) || p < 0 || p > 65535) throw new ConfigError(`devnet: ${name} must be 0..65535, got ${p}`);
}

export function createDevnetNode(opts: DevnetNodeOptions): DevnetNode {
  const log: Log = opts.log ?? (() => {});
  const clock = opts.clock ?? Date.now;
  const dataDir = resolve(opts.dataDir);
  const devnetDir = join(dataDir, 'devnet');
  const host = opts.host ?? '127.0.0.1';
  const blockIntervalMs = opts.blockIntervalMs ?? DEFAULT_BLOCK_INTERVAL_MS;
  const litePortOpt = opts.litePort ?? DEFAULT_LITE_PORT;
  const httpPortOpt = opts.httpPort ?? (litePortOpt === 0 ? 0 : litePortOpt + 1);
  if (!Number.isInteger(blockIntervalMs) || blockIntervalMs < 0) {
    throw new ConfigError(`devnet: blockIntervalMs must be an integer >= 0, got ${blockIntervalMs}`);
  }
  const shardLeadMs = opts.shardLeadMs ?? Math.floor(blockIntervalMs / 4);
  if (!Number.isInteger(shardLeadMs) || shardLeadMs < 0 || shardLeadMs > 60_000) {
    throw new ConfigError(`devnet: shardLeadMs must be an integer in 0..60000, got ${shardLeadMs}`);
  }
  checkPort('litePort', litePortOpt);
  checkPort('httpPort', httpPortOpt);
  if (
    opts.shards !== undefined &&
    (!Number.isInteger(opts.shards) || opts.shards < 1 || opts.shards > MAX_DEVNET_SHARDS)
  ) {
    throw new ConfigError(`devnet: shards must be 1..${MAX_DEVNET_SHARDS}, got ${opts.shards}`);
  }

  const listeners = new Set<(e: DevnetBlockEvent) => void>();
  let running: Running | null = null;
  let stopping = false;
  let stopped: Promise<void> | null = null;
  let view: DevnetView | null = null;

  function emit(e: DevnetBlockEvent): void {
    for (const l of listeners) {
      try {
        l(e);
      } catch (err) {
        log('warn', 'Block listener threw', { error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  async function openOrCreate(store: DevnetStore) {
    const meta = await store.meta();
    if (!meta) {
      const seed = opts.seed ?? DEFAULT_SEED;
      const g = await createDevnetGenesis({
        seed,
        shards: opts.shards ?? DEFAULT_SHARDS,
        genUtime: opts.genesisUtime ?? Math.floor(clock() / 1000),
        walletsPerVersion: opts.walletsPerVersion,
        userWalletsPerVersion: opts.userWalletsPerVersion ?? 0,
      });
      await store.commitGenesis(g.input);
      log('info', 'Created devnet genesis', {
        seed,
        shards: g.layout.length,
        zeroState: g.zero.zeroStateId.rootHash.toString('hex'),
        wallets: g.wallets.length,
      });
      return {
        seed,
        globalId: DEVNET_GLOBAL_ID,
        keys: g.keys,
        wallets: g.wallets,
        layout: g.layout,
        zero: g.zero.zeroStateId,
      };
    }
    if (opts.seed !== undefined && opts.seed !== meta.seed) {
      throw new ConfigError(
        `devnet ${devnetDir} was created with seed '${meta.seed}', not '${opts.seed}'; use another --data folder for a new devnet`,
      );
    }
    if (opts.shards !== undefined && opts.shards !== meta.shardLayout.length) {
      throw new ConfigError(
        `devnet ${devnetDir} was created with ${meta.shardLayout.length} shards, not ${opts.shards}; the split is fixed at genesis`,
      );
    }
    const perVersion = Number(meta.extra?.walletsPerVersion ?? 1);
    // Devnets created before user wallets existed have none (their genesis funded none).
    const userPerVersion = Number(meta.extra?.userWalletsPerVersion ?? 0);
    return {
      seed: meta.seed,
      globalId: meta.globalId,
      keys: deriveGenesisKeys(meta.seed),
      wallets: [
        ...(await deriveWallets(meta.seed, { globalId: meta.globalId, perVersion })),
        ...(await deriveUserWallets(meta.seed, { globalId: meta.globalId, perVersion: userPerVersion })),
      ],
      layout: [...meta.shardLayout],
      zero: meta.mcZeroState,
    };
  }

  /** Queues the deploy message of every genesis wallet that is still uninit with no transaction. */
  async function queueWalletDeploys(store: DevnetStore, wallets: DevnetWallet[], globalId: number): Promise<number> {
    let n = 0;
    for (const w of wallets) {
      const acc = await store.account(w.address);
      if (acc?.lastTransLt !== 0n) continue;
      const s = acc.account.beginParse();
      if (!s.loadBit() || loadAccount(s).storage.state.type !== 'uninit') continue;
      await store.enqueueExternal(walletDeployMessage(w, globalId).toBoc());
      n++;
    }
    return n;
  }

  async function start(): Promise<DevnetInfo> {
    if (running || stopping) throw new ConfigError('devnet: start() may be called once');
    const cleanup: Array<() => Promise<void>> = [];
    try {
      await mkdir(devnetDir, { recursive: true });
      const store = await openDevnetStore(devnetDir, { sync: opts.sync ?? true });
      cleanup.push(() => store.close());
      const g = await openOrCreate(store);
      const tvm = await createTvmRunner({ threads: opts.tvmThreads ?? 1 });
      cleanup.push(() => tvm.close());
      const head = await loadHeadTops(store);
      const prevBlocks = createPrevBlocksSource(store, g.zero);
      const validator = { seed: g.keys.validator.seed, publicKey: g.keys.validator.publicKey };
      const signatures = createSignatureStore(devnetDir, validator);

      let producer: Producer | null = null;
      /** sendMessage checks in progress, by message hash. */
      const checking = new Map<string, Promise<void>>();
      const v = createDevnetView({
        store,
        tvm,
        prevBlocks,
        signatures,
        zeroState: g.zero,
        clock,
        sendMessage: async (boc) => {
          const pub = v.published();
          if (stopping || !producer || !pub) throw new LiteServerError(-503, 'node is stopping');
          const ext = parseExternal(boc);
          // The same message while its check runs gets that check's outcome (a refused message is refused twice).
          const key = ext.hash.toString('hex');
          const running = checking.get(key);
          if (running) return running;
          // The same message again while it waits: accepted once, as the node's message pool keeps one copy.
          if (producer.isPending(ext.hash)) return;
          producer.markPending(ext.hash);
          const check = (async () => {
            try {
              await checkExternal({ store, tvm, prevBlocks }, ext, pub.tops.mc, Math.floor(clock() / 1000));
              await store.enqueueExternal(boc);
            } catch (e) {
              producer?.unmarkPending(ext.hash);
              throw e;
            }
          })();
          checking.set(key, check);
          try {
            await check;
          } finally {
            checking.delete(key);
          }
          producer.wake();
        },
      });
      view = v;
      v.publish({ tops: head.tops, mcUtime: head.mcUtime });
      cleanup.push(async () => v.close());
      producer = createProducer({
        store,
        tvm,
        view: v,
        signatures,
        validator,
        layout: g.layout,
        seed: g.seed,
        blockIntervalMs,
        shardLeadMs,
        maxExternalsPerStep: opts.maxExternalsPerStep ?? 1024,
        clock,
        log,
        logEvery: opts.logEvery ?? 100,
        emit,
        reloadTops: async () => {
          const h = await loadHeadTops(store);
          v.publish({ tops: h.tops, mcUtime: h.mcUtime });
          return h.tops;
        },
      });
      const deploys = await queueWalletDeploys(store, g.wallets, g.globalId);

      const lite = createLiteServer({
        view: v,
        keys: [keyPairFromSeed(g.keys.liteserver.seed)],
        host,
        port: litePortOpt,
        log: (level, msg, fields) => log(level === 'info' ? 'debug' : level, msg, fields),
      });
      const { port: litePort } = await lite.listen();
      cleanup.push(() => lite.close());
      const started = producer;
      started.start(head.tops);
      cleanup.push(() => started.stop());
      if (deploys > 0) started.wake();
      // The global config names the last key block as init_block; a new chain's first block is a key block
      // (producer.ts), so the config waits for it: strict clients cannot start a proof chain at a zero state.
      if (head.tops.mc.id.seqno === 0) await v.waitMasterchainSeqno(1, new AbortController().signal);
      const globalConfig = devnetGlobalConfigText({
        host,
        port: litePort,
        publicKey: lite.publicKey,
        zeroState: g.zero,
        initBlock: store.head()?.lastKeyBlock ?? g.zero,
        network: devnetNetworkInfo(g.globalId),
      });
      const http = createHttpEndpoint({
        host,
        port: httpPortOpt,
        globalConfig: () => globalConfig,
        health: () => {
          const p = v.published();
          return {
            ok: !stopping,
            mcSeqno: p?.tops.mc.id.seqno ?? null,
            mcUtime: p?.mcUtime ?? null,
            shards: p?.tops.shards.length ?? 0,
            externalsWaiting: producer?.waiting() ?? 0,
          };
        },
      });
      const httpPort = await http.listen();
      cleanup.push(() => http.close());
      await writeFileAtomic(
        join(devnetDir, WALLETS_FILE),
        `${JSON.stringify(walletsFileEntries(g.wallets, g.globalId), null, 2)}\n`,
      );
      await writeFileAtomic(join(devnetDir, GLOBAL_CONFIG_FILE), globalConfig);

      running = {
        store,
        tvm,
        view: v,
        producer,
        lite,
        http,
        keys: g.keys,
        wallets: g.wallets,
        seed: g.seed,
        globalId: g.globalId,
        layout: g.layout,
        zeroState: g.zero,
        litePort,
        httpPort,
        globalConfig,
      };
      const i = info();
      log('info', 'Started devnet', {
        dataDir,
        host,
        litePort,
        httpPort,
        mcSeqno: i.head.seqno,
        shards: g.layout.length,
        blockIntervalMs,
        walletDeploysQueued: deploys,
      });
      return i;
    } catch (e) {
      for (const c of cleanup.reverse()) await c().catch(() => {});
      view = null;
      throw e;
    }
  }

  function info(): DevnetInfo {
    const r = running;
    if (!r) throw new ConfigError('devnet: the node is not running');
    const p = r.view.published();
    const stats = r.producer.stats();
    return {
      dataDir,
      devnetDir,
      host,
      litePort: r.litePort,
      httpPort: r.httpPort,
      liteServerPublicKey: r.lite.publicKey,
      seed: r.seed,
      globalId: r.globalId,
      dnsRoot: devnetNetworkInfo(r.globalId).dnsRoot,
      userWallets: r.wallets.filter((w) => w.role === 'user').length,
      shardLayout: [...r.layout],
      zeroState: r.zeroState,
      head: p ? p.tops.mc.id : r.zeroState,
      headUtime: p?.mcUtime ?? 0,
      shardTops: p ? p.tops.shards.map((s) => s.id) : [],
      externalsWaiting: r.producer.waiting(),
      walletsFile: join(devnetDir, WALLETS_FILE),
      globalConfigFile: join(devnetDir, GLOBAL_CONFIG_FILE),
      stats,
    };
  }

  async function doStop(): Promise<void> {
    const r = running;
    if (!r) return;
    await r.producer.stop();
    r.view.close();
    await r.lite.close();
    await r.http.close();
    await r.tvm.close();
    await r.store.close();
    running = null;
    const s = r.producer.stats();
    log('info', 'Stopped devnet', {
      mcSeqno: r.view.published()?.tops.mc.id.seqno ?? null,
      steps: s.steps,
      transactions: s.transactions,
      avgCollateMs: s.avgCollateMs,
      avgCommitMs: s.avgCommitMs,
      avgMainThreadMs: s.avgMainThreadMs,
    });
  }

  return {
    start,
    stop() {
      stopping = true;
      stopped ??= doStop();
      return stopped;
    },
    get chainView() {
      if (!view) throw new ConfigError('devnet: the node is not running');
      return view;
    },
    info,
    onBlock(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    waitMasterchainSeqno(seqno, signal) {
      if (!view) return Promise.reject(new ConfigError('devnet: the node is not running'));
      return view.waitMasterchainSeqno(seqno, signal ?? new AbortController().signal);
    },
  };
}
