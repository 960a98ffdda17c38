// Real chain data shaped as store input, for the store's tests and their child processes:
// - the node-db packs (a private network's masterchain 1..264 with its basechain, split into two shards at
//   seqno 76): real block files (sha256 = file hash in the pack entry name), grouped into steps by each
//   masterchain block's shard_hashes; zero states and per-block states are the blocks' state_update trees;
// - the mainnet blocks of shared/vectors/blocks with the header facts the vector files state.
import { createHash } from 'node:crypto';
import { Address, beginCell, type Cell } from '@ton/core';
import type { AccountInput } from '../../src/devnet/store/index.ts';
import {
  type Block,
  type BlockId,
  type BlockIdExt,
  isPruned,
  listShards,
  loadBlockCell,
  loadShardStateUnsplit,
  parseBoc,
  prevBlockIds,
  shardAccountEntries,
  storeShardAccount,
} from '../../src/ton/index.ts';
import { loadNodePackage, loadVector } from './vectors.ts';

export interface ChainBlock {
  id: BlockIdExt;
  boc: Buffer;
  root: Cell;
  block: Block;
  /** state_update old / new trees: the states before and after the block (pruned where unchanged). */
  oldState: Cell;
  newState: Cell;
  accounts: AccountInput[];
}

export interface ChainStep {
  mc: ChainBlock;
  shards: ChainBlock[];
}

const NAME = /^block_\((-?\d+),([0-9a-f]{16}),(\d+)\):([0-9A-F]{64}):([0-9A-F]{64})$/;

/** Accounts whose new versions a block's state_update carries: those with transactions in it. */
export function accountsOf(block: Block, newState: Cell): AccountInput[] {
  const state = loadShardStateUnsplit(newState.beginParse(true));
  if (isPruned(state.accounts)) return [];
  const wc = block.info.shard.workchainId;
  const touched = new Set(block.extra.accountBlocks.entries.map((e) => e.value.accountAddr.toString('hex')));
  const out: AccountInput[] = [];
  for (const e of shardAccountEntries(state.accounts).entries) {
    const hex = e.key.toString(16).padStart(64, '0');
    if (!touched.has(hex)) continue;
    const shardAccount = beginCell().store(storeShardAccount(e.value)).endCell();
    out.push({ address: new Address(wc, Buffer.from(hex, 'hex')), shardAccount });
  }
  return out;
}

function parseName(name: string): BlockIdExt | null {
  const m = NAME.exec(name);
  if (!m) return null;
  return {
    workchain: Number(m[1]),
    shard: BigInt(`0x${m[2]}`),
    seqno: Number(m[3]),
    rootHash: Buffer.from(m[4]!, 'hex'),
    fileHash: Buffer.from(m[5]!, 'hex'),
  };
}

/** A block of the packs, decoded; its pack name gives the id, which is checked against the bytes. */
export function chainBlock(name: string, boc: Buffer): ChainBlock {
  const id = parseName(name);
  if (!id) throw new Error(`${name}: not a block entry`);
  if (!createHash('sha256').update(boc).digest().equals(id.fileHash)) throw new Error(`${name}: file hash`);
  const root = parseBoc(boc)[0]!;
  if (!root.hash().equals(id.rootHash)) throw new Error(`${name}: root hash differs from its pack name`);
  const block = loadBlockCell(root);
  const update = block.stateUpdate.cell;
  const newState = update.refs[1]!;
  return { id, boc, root, block, oldState: update.refs[0]!, newState, accounts: accountsOf(block, newState) };
}

/** Every block entry of the three packs by name (the packs repeat a few entries). */
export function readNodeDbBlocks(): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const pack of ['archive.00000.pack', 'archive.00100.pack', 'archive.00200.pack']) {
    for (const { name, data } of loadNodePackage(pack)) {
      if (NAME.test(name) && !out.has(name)) out.set(name, data);
    }
  }
  return out;
}

/** Steps by pack entry name: cheap to hand to a child process, which decodes only the steps it writes. */
export interface ChainPlan {
  steps: Array<{ mc: string; shards: string[] }>;
  /** Masterchain block 1 and basechain block 1: their old state trees are the zero states. */
  firstMc: string;
  firstWc: string;
}

export interface NodeDbChain {
  plan: ChainPlan;
  steps: ChainStep[];
  /** Zero states as BoCs: the old state trees of masterchain block 1 and of basechain block 1. */
  mcZeroState: Buffer;
  wcZeroState: Buffer;
}

export function materializeStep(plan: ChainPlan, blocks: Map<string, Buffer>, i: number): ChainStep {
  const s = plan.steps[i]!;
  const get = (name: string) => chainBlock(name, blocks.get(name)!);
  return { mc: get(s.mc), shards: s.shards.map(get) };
}

export function genesisOf(plan: ChainPlan, blocks: Map<string, Buffer>): { mcZeroState: Buffer; wcZeroState: Buffer } {
  return {
    mcZeroState: chainBlock(plan.firstMc, blocks.get(plan.firstMc)!).oldState.toBoc(),
    wcZeroState: chainBlock(plan.firstWc, blocks.get(plan.firstWc)!).oldState.toBoc(),
  };
}

let chainCache: NodeDbChain | undefined;

/** The whole chain, decoded, grouped into steps by each masterchain block's shard_hashes. */
export function loadNodeDbChain(): NodeDbChain {
  if (chainCache) return chainCache;
  const entries = readNodeDbBlocks();
  const byRoot = new Map<string, { name: string; b: ChainBlock }>();
  const mcs: Array<{ name: string; b: ChainBlock }> = [];
  for (const [name, data] of entries) {
    const b = chainBlock(name, data);
    byRoot.set(b.id.rootHash.toString('hex'), { name, b });
    if (b.id.workchain === -1) mcs.push({ name, b });
  }
  mcs.sort((x, y) => x.b.id.seqno - y.b.id.seqno);
  const committed = new Set<string>();
  const steps: ChainStep[] = [];
  const plan: ChainPlan = { steps: [], firstMc: mcs[0]!.name, firstWc: '' };
  for (const mc of mcs) {
    const shards: Array<{ name: string; b: ChainBlock }> = [];
    const walk = (ref: BlockId) => {
      const key = ref.rootHash.toString('hex');
      const hit = byRoot.get(key);
      if (!hit || committed.has(key)) return;
      committed.add(key);
      for (const p of prevBlockIds(hit.b.block.info)) walk(p);
      shards.push(hit);
    };
    for (const s of listShards(mc.b.block.extra.custom!.shardHashes)) {
      walk({
        workchain: s.workchain,
        shard: s.shard,
        seqno: s.descr.seqNo,
        rootHash: s.descr.rootHash,
        fileHash: s.descr.fileHash,
      });
    }
    steps.push({ mc: mc.b, shards: shards.map((x) => x.b) });
    plan.steps.push({ mc: mc.name, shards: shards.map((x) => x.name) });
    if (!plan.firstWc) plan.firstWc = shards.find((x) => x.b.id.seqno === 1)?.name ?? '';
  }
  const firstWc = byRoot.get(parseName(plan.firstWc)!.rootHash.toString('hex'))!.b;
  chainCache = {
    plan,
    steps,
    mcZeroState: steps[0]!.mc.oldState.toBoc(),
    wcZeroState: firstWc.oldState.toBoc(),
  };
  return chainCache;
}

export interface VectorBlock {
  file: string;
  id: BlockIdExt;
  boc: Buffer;
  block: Block;
  newState: Cell;
  accounts: AccountInput[];
  /** As the vector file states them (decoded there by an independent walker). */
  info: { startLt: bigint; endLt: bigint; genUtime: number; seqno: number };
  transactions: Array<{ account: Address; lt: bigint; hash: Buffer }>;
}

interface VectorJson {
  ids: { workchain: number; shard: string; seqno: number; root_hash: string };
  boc_base64: string;
  verification: { block_info: { start_lt: string; end_lt: string; gen_utime: number; seqno: number } };
  transactions: Array<{ account: string; lt: string; hash: string }>;
}

/** The shared/vectors/blocks files (every one: masterchain and basechain, several shards). */
export function loadVectorBlocks(files: readonly string[]): VectorBlock[] {
  return files.map((file) => {
    const v = loadVector<VectorJson>('blocks', file);
    const boc = Buffer.from(v.boc_base64, 'base64');
    const root = parseBoc(boc)[0]!;
    const block = loadBlockCell(root);
    const newState = block.stateUpdate.cell.refs[1]!;
    const bi = v.verification.block_info;
    return {
      file,
      id: {
        workchain: v.ids.workchain,
        shard: BigInt(`0x${v.ids.shard}`),
        seqno: v.ids.seqno,
        rootHash: Buffer.from(v.ids.root_hash, 'hex'),
        fileHash: createHash('sha256').update(boc).digest(),
      },
      boc,
      block,
      newState,
      accounts: accountsOf(block, newState),
      info: { startLt: BigInt(bi.start_lt), endLt: BigInt(bi.end_lt), genUtime: bi.gen_utime, seqno: bi.seqno },
      transactions: v.transactions.map((t) => ({
        account: Address.parseRaw(t.account),
        lt: BigInt(t.lt),
        hash: Buffer.from(t.hash, 'hex'),
      })),
    };
  });
}
