// Fixtures for the NodeDb tests: node-format trees built from real blocks.
//
// - The three real archive slices of vectors/node-db (a private network's masterchain 1..264, January 2024),
//   placed as a node keeps them (`archive/packages/arch0000/archive.00000.pack`, sliced generation, no indexes),
//   and what they hold, worked out here without src/nodedb/node-db.ts: every block entry, and for each masterchain
//   block the shard blocks it commits by a plain walk of shard tops and prev links.
// - The same blocks re-written through openNodeDbWriter (every archive generation, with indexes), capturing every
//   block handle the writer stores (the last write of each key), for comparison with what a reader reads back.
// - A devnet chain collated in-process (the basechain splitting in two, wallets deployed and paying), with
//   the full shard state of every block, for trees with celldb.
import { createHash } from 'node:crypto';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  type DictionaryValue,
  external,
  internal,
  loadDepthBalanceInfo,
  SendMode,
  storeMessage,
  toNano,
} from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { type ChainTops, collateStep } from '../../src/devnet/chain/step.ts';
import { createExecutorTvm } from '../../src/devnet/chain/test-support.ts';
import { createZeroStates, uninitAccount } from '../../src/devnet/chain/zero-state.ts';
import { buildDevnetConfig, deriveGenesisKeys, shardLayout } from '../../src/devnet/genesis/index.ts';
import { parseFileName } from '../../src/nodedb/fileref.ts';
import { type BlockHandle, blockHandleKey, decodeBlockHandle } from '../../src/nodedb/handle.ts';
import { openRocks } from '../../src/nodedb/kv/rocks.ts';
import type { KvWriter } from '../../src/nodedb/kv/types.ts';
import type { ArchiveGeneration } from '../../src/nodedb/layout.ts';
import { openPackReader } from '../../src/nodedb/pack.ts';
import {
  type KvOpener,
  type NodeDbWriter,
  type NodeDbWriterOptions,
  openNodeDbWriter,
  type WriterBlock,
  type WriterStep,
} from '../../src/nodedb/writer.ts';
import { type BlockIdExt, listShards, loadBlockCell, prevBlockIds } from '../../src/ton/index.ts';
import { vectorPath } from './vectors.ts';

export const REAL_PACKS = ['archive.00000.pack', 'archive.00100.pack', 'archive.00200.pack'] as const;
export const REAL_LAST_MC = 264;

export const keyOf = (id: { workchain: number; shard: bigint; seqno: number }) =>
  `${id.workchain}:${id.shard.toString(16).padStart(16, '0')}:${id.seqno}`;
/** A full id as one string (for comparing lists of ids with toEqual). */
export const fullKeyOf = (id: BlockIdExt) =>
  `${keyOf(id)}:${id.rootHash.toString('hex')}:${id.fileHash.toString('hex')}`;

export interface RealBlocks {
  /** Every distinct block entry of the three packs, by keyOf. */
  blocks: Map<string, WriterBlock>;
  /** Number of block entries in the packs, repeated copies included. */
  entries: number;
  /** Masterchain seqno → the shard blocks it commits (parents first), for those whose walk finds every block. */
  committed: Map<number, BlockIdExt[]>;
  /** Masterchain seqno → shard blocks between its entry and the next masterchain entry, in pack order. */
  packOrder: Map<number, BlockIdExt[]>;
  /** Shard blocks no complete walk reaches: those the last masterchain block commits along with missing ones. */
  orphans: WriterBlock[];
  /** Blocks the shard tops of the last masterchain block name that the packs do not hold. */
  missing: string[];
  /** Steps for openNodeDbWriter: 1..264, the orphans with 264 (the masterchain block that commits them). */
  steps: WriterStep[];
}

let realCache: Promise<RealBlocks> | undefined;

/** The blocks of the real packs and how the masterchain blocks commit them (cached per test file). */
export function loadRealBlocks(): Promise<RealBlocks> {
  realCache ??= readRealBlocks();
  return realCache;
}

async function readRealBlocks(): Promise<RealBlocks> {
  const blocks = new Map<string, WriterBlock>();
  const packOrder = new Map<number, BlockIdExt[]>();
  let entries = 0;
  let lastMc = 0;
  for (const file of REAL_PACKS) {
    const r = await openPackReader(vectorPath('node-db', file));
    try {
      const scan = await r.scan();
      for (const name of scan.duplicates) if (parseFileName(name)?.kind === 'block') entries++;
      for (const e of scan.entries) {
        const parsed = parseFileName(e.name);
        if (parsed?.kind !== 'block') continue;
        entries++;
        const root = Cell.fromBoc(e.data)[0]!;
        blocks.set(keyOf(parsed.id), { id: parsed.id, bytes: e.data, root });
        if (parsed.id.workchain === -1) {
          lastMc = parsed.id.seqno;
          packOrder.set(lastMc, []);
        } else packOrder.get(lastMc)?.push(parsed.id);
      }
    } finally {
      await r.close();
    }
  }

  // the walk: from each masterchain block's shard tops back through prev links to the previous one's tops
  const topsOf = (n: number): BlockIdExt[] => {
    if (n === 0) return [];
    const custom = loadBlockCell(blocks.get(keyOf({ workchain: -1, shard: 1n << 63n, seqno: n }))!.root).extra.custom!;
    return listShards(custom.shardHashes).map(({ workchain, shard, descr }) => ({
      workchain,
      shard,
      seqno: descr.seqNo,
      rootHash: descr.rootHash,
      fileHash: descr.fileHash,
    }));
  };
  const committed = new Map<number, BlockIdExt[]>();
  const claimed = new Set<string>();
  const missing: string[] = [];
  for (let n = 1; n <= REAL_LAST_MC; n++) {
    const stop = new Set(topsOf(n - 1).map(keyOf));
    const found = new Map<string, BlockIdExt>();
    const absent: string[] = [];
    let pending = topsOf(n);
    while (pending.length > 0) {
      const next: BlockIdExt[] = [];
      for (const id of pending) {
        const k = keyOf(id);
        if (stop.has(k) || id.seqno === 0 || found.has(k)) continue;
        const b = blocks.get(k);
        if (!b) {
          absent.push(k);
          continue;
        }
        found.set(k, b.id);
        next.push(...prevBlockIds(loadBlockCell(b.root).info));
      }
      pending = next;
    }
    if (absent.length > 0) {
      missing.push(...absent);
      continue;
    }
    const list = [...found.values()].sort(
      (a, b) => a.workchain - b.workchain || a.seqno - b.seqno || (a.shard < b.shard ? -1 : 1),
    );
    committed.set(n, list);
    for (const id of list) claimed.add(keyOf(id));
  }
  const orphans = [...blocks.values()]
    .filter((b) => b.id.workchain !== -1 && !claimed.has(keyOf(b.id)))
    .sort((a, b) => a.id.seqno - b.id.seqno || (a.id.shard < b.id.shard ? -1 : 1));

  const steps: WriterStep[] = [];
  for (let n = 1; n <= REAL_LAST_MC; n++) {
    const mc = blocks.get(keyOf({ workchain: -1, shard: 1n << 63n, seqno: n }))!;
    const shardBlocks = committed.has(n)
      ? committed.get(n)!.map((id) => blocks.get(keyOf(id))!)
      : n === REAL_LAST_MC
        ? orphans
        : [];
    steps.push({ mc, shardBlocks });
  }
  return { blocks, entries, committed, packOrder, orphans, missing, steps };
}

/** Places the real packs as a node keeps a sliced package with no index: archive/packages/arch0000/…. */
export async function placeRealPacks(root: string): Promise<void> {
  const dir = join(root, 'archive', 'packages', 'arch0000');
  await mkdir(dir, { recursive: true });
  for (const f of REAL_PACKS) await copyFile(vectorPath('node-db', f), join(dir, f));
}

const HANDLE_KEY_PREFIX = blockHandleKey({
  workchain: 0,
  shard: 0n,
  seqno: 0,
  rootHash: Buffer.alloc(32),
  fileHash: Buffer.alloc(32),
}).subarray(0, 4);

/** Every handle a writer stored, by fullKeyOf (the last write of each key wins, as in RocksDB). */
export type WrittenHandles = Map<string, BlockHandle>;

/** openRocks primaries that record the handles written through them. */
export function recordingOpener(handles: WrittenHandles): KvOpener {
  return async (path, o) => {
    const kv = await openRocks(path, {
      mode: 'primary',
      createIfMissing: true,
      cellRefcountMerge: o.cellRefcountMerge,
      manualWalFlush: o.manualWalFlush,
    });
    const recording: KvWriter = {
      ...kv,
      async write(ops, wo) {
        await kv.write(ops, wo);
        for (const op of ops) {
          if (op.type !== 'put' || op.key.length !== 84 || !op.key.subarray(0, 4).equals(HANDLE_KEY_PREFIX)) continue;
          const h = decodeBlockHandle(op.value);
          handles.set(fullKeyOf(h.id), h);
        }
      },
    };
    return recording;
  };
}

export interface TreeOptions extends Omit<NodeDbWriterOptions, 'root' | 'openKv'> {
  /** Keep the writer open (the caller closes it), e.g. to read while the index lags. */
  keepOpen?: boolean;
}

/** Writes `steps` into a node-format tree at `root`; returns the handles written and the writer (closed unless keepOpen). */
export async function writeTree(
  root: string,
  steps: readonly WriterStep[],
  opts: TreeOptions = {},
): Promise<{ handles: WrittenHandles; writer: NodeDbWriter }> {
  const handles: WrittenHandles = new Map();
  const { keepOpen, ...writerOpts } = opts;
  const writer = await openNodeDbWriter({
    indexCommit: 'sync',
    ...writerOpts,
    root,
    openKv: recordingOpener(handles),
  });
  for (const s of steps) await writer.append(s);
  if (!keepOpen) await writer.close();
  return { handles, writer };
}

export const GENERATIONS: ReadonlyArray<{ name: string; generation: ArchiveGeneration; splitDepth?: number }> = [
  { name: 'unsliced', generation: 'unsliced' },
  { name: 'sliced', generation: 'sliced' },
  { name: 'shard-split-colon', generation: 'shard-split-colon', splitDepth: 0 },
  { name: 'shard-split, depth 0', generation: 'shard-split', splitDepth: 0 },
  { name: 'shard-split, depth 2', generation: 'shard-split', splitDepth: 2 },
];

// ---------------------------------------------------------------------------------------------------------------
// A devnet chain with states

export interface DevnetBlock extends WriterBlock {
  state: Cell;
}

export interface DevnetChainSteps {
  steps: Array<{ mc: DevnetBlock; shardBlocks: DevnetBlock[] }>;
  /** The wallets deployed at step 2 (three basechain, one masterchain). */
  wallets: WalletContractV4[];
}

const GEN_UTIME = 1_700_000_000;

/** The accounts of a ShardStateUnsplit as @ton/core's Dictionary reads them: hex address → Account cell. */
export function accountsOfState(state: Cell): Map<string, Cell> {
  const value: DictionaryValue<Cell> = {
    parse: (cs) => {
      loadDepthBalanceInfo(cs);
      return cs.loadRef();
    },
    serialize: () => {
      throw new Error('read only');
    },
  };
  const out = new Map<string, Cell>();
  const a = state.refs[1]!.beginParse();
  for (const [k, v] of Dictionary.load(Dictionary.Keys.BigUint(256), value, a)) {
    out.set(k.toString(16).padStart(64, '0'), v);
  }
  return out;
}

let devnetCache: Promise<DevnetChainSteps> | undefined;

/** `count` devnet steps (default 5; cached, so the first count wins): four wallets deployed at step 2, paying at step 3. */
export function devnetChain(count = 5): Promise<DevnetChainSteps> {
  devnetCache ??= collateChain(count);
  return devnetCache;
}

async function collateChain(count: number): Promise<DevnetChainSteps> {
  const keys = deriveGenesisKeys('node-db-reader-test');
  const validator = { seed: keys.validator.seed, publicKey: keys.validator.publicKey };
  const layout = shardLayout(2);
  const wkey = keyPairFromSeed(createHash('sha256').update('node-db-reader-wallet').digest());
  const wallets = [0, 1, 2, 3].map((id) =>
    WalletContractV4.create({ workchain: id === 3 ? -1 : 0, publicKey: wkey.publicKey, walletId: id }),
  );
  const filler = Array.from({ length: 40 }, (_, i) =>
    Address.parse(`0:${createHash('sha256').update(`filler ${i}`).digest('hex')}`),
  );
  const config = buildDevnetConfig({
    validatorPublicKey: keys.validator.publicKey,
    genUtime: GEN_UTIME,
    wcZeroStateRootHash: Buffer.alloc(32),
    wcZeroStateFileHash: Buffer.alloc(32),
  });
  const genesis = createZeroStates({
    config,
    accounts: [
      ...wallets.filter((w) => w.workchain === 0).map((w) => uninitAccount(w.address, toNano('1000'))),
      ...filler.map((a) => uninitAccount(a, toNano('1'))),
    ],
    masterchainAccounts: [
      uninitAccount(Address.parse(`-1:${'55'.repeat(32)}`), 4_000_000_000_000_000_000n),
      uninitAccount(wallets[3]!.address, toNano('1000')),
    ],
    layout,
    genUtime: GEN_UTIME,
    globalId: -217,
    validatorPublicKey: keys.validator.publicKey,
  });
  const tvm = await createExecutorTvm();
  const transfer = (w: WalletContractV4, seqno: number, messages: ReturnType<typeof internal>[], deploy: boolean) =>
    beginCell()
      .store(
        storeMessage(
          external({
            to: w.address,
            init: deploy ? w.init : undefined,
            body: w.createTransfer({
              seqno,
              secretKey: wkey.secretKey,
              messages,
              sendMode: SendMode.PAY_GAS_SEPARATELY,
              timeout: GEN_UTIME + 100_000,
            }),
          }),
        ),
      )
      .endCell();
  const plan: Record<number, Cell[]> = {
    2: wallets.map((w) => transfer(w, 0, [], true)),
    3: [
      transfer(
        wallets[0]!,
        1,
        [
          internal({ to: wallets[1]!.address, value: toNano('5'), bounce: false }),
          internal({ to: filler[0]!, value: toNano('1'), bounce: false }),
        ],
        false,
      ),
      transfer(wallets[3]!, 1, [internal({ to: wallets[2]!.address, value: toNano('2'), bounce: false })], false),
    ],
  };
  let tops: ChainTops = { mc: genesis.masterchain, shards: [genesis.workchain] };
  const steps: DevnetChainSteps['steps'] = [];
  const asBlock = (b: { id: BlockIdExt; boc: Buffer; block: Cell; state: Cell }): DevnetBlock => ({
    id: b.id,
    bytes: b.boc,
    root: b.block,
    state: b.state,
  });
  for (let step = 1; step <= count; step++) {
    const r = await collateStep(tops, {
      now: GEN_UTIME + 2 * step,
      seed: Buffer.from(`node-db step ${step}`),
      externals: plan[step] ?? [],
      tvm,
      validator,
      layout,
    });
    steps.push({ mc: asBlock(r.mcBlock), shardBlocks: r.shardBlocks.map(asBlock) });
    tops = r.tops;
  }
  return { steps, wallets };
}
