// ChainViews built from the real chain data in shared/vectors, for liteserver tests. Nothing here is made up:
// a view knows exactly what the vectors hold, and where they stop (a pruned branch, a block without its file,
// a block whose file hash no source states) the view does not know it and the server answers the node's error.
//
// Two views, because the vectors hold two unrelated chains:
// * mainnet fragments: masterchain block 26309435 as a real liteserver answered about it (tongo's
//   get-last-config-all fixture: its masterchainInfo, the block proof and the state proof with the whole
//   config), shard block 0:8000000000000000:31618192 with the state proof of one account (ton-core's
//   accountProof.txt), and full block files (tonutils-go, ton-core, tongo fixtures).
// * a private network (vectors/node-db: a validator-engine's archive packages, masterchain 1..264 and the shard
//   blocks they committed, with real file hashes): a complete, consecutive chain of blocks, but no states.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Cell } from '@ton/core';
import type {
  BlockLookup,
  BlockRecord,
  ChainView,
  MasterchainInfo,
  ZeroStateIdExt,
} from '../../src/lite/server/index.ts';
import { decodeTl, type TlObjectByName } from '../../src/lite/tl/index.ts';
import {
  type BlockIdExt,
  type BlockInfo,
  listShards,
  loadBlockCell,
  loadBlockInfo,
  loadMerkleUpdate,
  parseBoc,
  prevBlockIds,
  shardIdOf,
  verifyMerkleProof,
} from '../../src/ton/index.ts';
import { loadNodePackage, loadVector, vectorPath } from './vectors.ts';

const MC_SHARD = 0x8000000000000000n;

/** A block the view knows: its id (file hash null when no source states it), its root (maybe a proof's virtual tree). */
export interface KnownBlock {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer | null;
  root: Cell;
  data: Buffer | null;
  info: BlockInfo;
  /** The state after the block, when a vector holds (part of) it. */
  state: Cell | null;
}

export interface VectorChainView extends ChainView {
  readonly blocks: readonly KnownBlock[];
  /** The known block with this workchain/seqno (and shard, when given). */
  find(workchain: number, seqno: number, shard?: bigint): KnownBlock;
  idOf(b: KnownBlock): BlockIdExt;
}

function infoOf(root: Cell): BlockInfo {
  const info = root.refs[0];
  if (!info) throw new Error('block root without BlockInfo');
  return loadBlockInfo(info.beginParse());
}

function knownBlock(root: Cell, fileHash: Buffer | null, data: Buffer | null, state: Cell | null = null): KnownBlock {
  const info = infoOf(root);
  return {
    workchain: info.shard.workchainId,
    shard: shardIdOf(info.shard),
    seqno: info.seqNo,
    rootHash: root.hash(0),
    fileHash,
    root,
    data,
    info,
    state,
  };
}

function stateHashOf(b: KnownBlock): Buffer {
  const upd = b.root.refs[2];
  if (!upd) throw new Error('block without state_update');
  return loadMerkleUpdate(upd.beginParse(true)).newHash;
}

function shardContains(parent: bigint, child: bigint): boolean {
  const x = parent & -parent;
  const mask = BigInt.asUintN(64, -x << 1n);
  return ((parent ^ child) & mask) === 0n;
}

interface MemoryChainSpec {
  blocks: KnownBlock[];
  masterchainInfo: () => MasterchainInfo;
  masterchainRefSeqno?: (b: KnownBlock) => number | null;
}

/** A ChainView over a set of known blocks; lookups answer only what the known blocks determine. */
function memoryChainView(spec: MemoryChainSpec): VectorChainView & { publish(seqno: number): void } {
  const byRoot = new Map<string, KnownBlock>();
  for (const b of spec.blocks) byRoot.set(b.rootHash.toString('hex'), b);
  const waiters = new Set<{ seqno: number; resolve: () => void }>();
  let published = Number.POSITIVE_INFINITY;
  const lastSeqno = () => Math.min(spec.masterchainInfo().last.seqno, published);
  const idOf = (b: KnownBlock): BlockIdExt => ({
    workchain: b.workchain,
    shard: b.shard,
    seqno: b.seqno,
    rootHash: b.rootHash,
    fileHash: b.fileHash ?? Buffer.alloc(32),
  });
  const visible = (b: KnownBlock) => b.workchain !== -1 || b.seqno <= lastSeqno();
  // Blocks a lookup may name: a lookup answers a full id, so the file hash must be known.
  const chainOf = (workchain: number, prefix: bigint) =>
    spec.blocks
      .filter((b) => b.fileHash && visible(b) && b.workchain === workchain && shardContains(b.shard, prefix))
      .sort((a, b) => a.seqno - b.seqno);
  const consecutive = (list: KnownBlock[], i: number) =>
    i > 0 && (list[i - 1] as KnownBlock).seqno === (list[i] as KnownBlock).seqno - 1;

  const view = {
    blocks: spec.blocks,
    idOf,
    find(workchain: number, seqno: number, shard?: bigint): KnownBlock {
      const b = spec.blocks.find(
        (x) => x.workchain === workchain && x.seqno === seqno && (shard === undefined || x.shard === shard),
      );
      if (!b) throw new Error(`vector chain: no block ${workchain}:${shard?.toString(16) ?? '*'}:${seqno}`);
      return b;
    },
    publish(seqno: number) {
      published = seqno;
      for (const w of [...waiters]) {
        if (w.seqno <= lastSeqno()) {
          waiters.delete(w);
          w.resolve();
        }
      }
    },
    async masterchainInfo(): Promise<MasterchainInfo> {
      const info = spec.masterchainInfo();
      if (info.last.seqno <= published) return info;
      const b = view.find(-1, published);
      return { ...info, last: idOf(b), stateRootHash: stateHashOf(b), lastUtime: b.info.genUtime };
    },
    waitMasterchainSeqno(seqno: number, signal: AbortSignal): Promise<void> {
      if (seqno <= lastSeqno()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const w = {
          seqno,
          resolve: () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          waiters.delete(w);
          reject(signal.reason);
        };
        if (signal.aborted) return reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        waiters.add(w);
      });
    },
    now: () => Math.floor(Date.now() / 1000),
    async block(id: BlockIdExt): Promise<BlockRecord | null> {
      const b = byRoot.get(id.rootHash.toString('hex'));
      if (!b || !visible(b) || b.workchain !== id.workchain || b.shard !== id.shard || b.seqno !== id.seqno)
        return null;
      // Where no source states the file hash, the view cannot tell a wrong one from the right one.
      if (b.fileHash && !b.fileHash.equals(id.fileHash)) return null;
      return { id, root: b.root, data: b.data };
    },
    async lookupBlock(q: BlockLookup): Promise<BlockIdExt | null> {
      const list = chainOf(q.workchain, q.prefix);
      if ('seqno' in q) {
        const b = list.find((x) => x.seqno === q.seqno);
        return b ? idOf(b) : null;
      }
      if ('lt' in q) {
        // The first block with end_lt >= lt, when it certainly is the first: it contains lt, or its predecessor is known.
        const i = list.findIndex((x) => x.info.endLt >= q.lt);
        const b = list[i];
        if (!b || !(b.info.startLt <= q.lt || consecutive(list, i))) return null;
        return idOf(b);
      }
      const i = list.findIndex((x) => x.info.genUtime >= q.utime);
      const b = list[i];
      if (!b || !(consecutive(list, i) || (i === 0 && b.seqno === 1))) return null;
      return idOf(b);
    },
    async shardState(id: BlockIdExt): Promise<Cell | null> {
      const b = byRoot.get(id.rootHash.toString('hex'));
      return b && visible(b) ? b.state : null;
    },
    async masterchainRefSeqno(id: BlockIdExt): Promise<number | null> {
      const b = byRoot.get(id.rootHash.toString('hex'));
      if (!b || !spec.masterchainRefSeqno) return null;
      return b.workchain === -1 ? b.seqno : spec.masterchainRefSeqno(b);
    },
  };
  return view;
}

// ---------------------------------------------------------------------------------------------------------
// Mainnet fragments

interface BlockVector {
  boc_base64: string;
  ids: { root_hash: string; file_hash?: string | null };
  expected?: { fixture_block?: { file_hash?: string } };
}

/** The TL answer bytes of tongo's get-last-config-all fixture, parsed as lite_api objects. */
export function tongoConfigFixture(): {
  masterchainInfo: TlObjectByName['liteServer.masterchainInfo'];
  configInfo: TlObjectByName['liteServer.configInfo'];
  masterchainInfoBytes: Buffer;
  configInfoBytes: Buffer;
} {
  const v = loadVector<{ request_hex: string; response_hex: string }>('liteserver', 'get_config_all_tongo.json');
  // The fixture's first file (labelled "request") is the liteServer.masterchainInfo answer the client got first.
  const masterchainInfoBytes = Buffer.from(v.request_hex, 'hex');
  const configInfoBytes = Buffer.from(v.response_hex, 'hex');
  return {
    masterchainInfo: decodeTl(masterchainInfoBytes) as TlObjectByName['liteServer.masterchainInfo'],
    configInfo: decodeTl(configInfoBytes) as TlObjectByName['liteServer.configInfo'],
    masterchainInfoBytes,
    configInfoBytes,
  };
}

function virtualRoot(proof: Cell): Cell {
  return verifyMerkleProof(proof, proof.refs[0]?.hash(0) ?? Buffer.alloc(32));
}

/** Full block files in vectors/blocks (plus the masterchain block inside liteserver/proof_of_proof…). */
export const MAINNET_BLOCK_FILES = [
  'blocks/mainnet_-1_8000000000000000_24374597.json',
  'blocks/mainnet_0_8000000000000000_29836576.json',
  'blocks/mainnet_0_8000000000000000_34703989.json',
  'blocks/mainnet_0_8000000000000000_71398501.json',
  'blocks/mainnet_0_c000000000000000_13516764.json',
  'blocks/mainnet_tongo_block-5.json',
  'liteserver/proof_of_proof_masterchain_block_tonutils.json',
];

export function createMainnetVectorChain(): VectorChainView {
  const { masterchainInfo, configInfo } = tongoConfigFixture();
  const last = masterchainInfo.last;
  const mcBlock = virtualRoot(parseBoc(configInfo.stateProof)[0] as Cell);
  const mcState = virtualRoot(parseBoc(configInfo.configProof)[0] as Cell);
  const blocks: KnownBlock[] = [knownBlock(mcBlock, last.fileHash, null, mcState)];

  const acc = loadVector<{ boc_base64: string }>('liteserver', 'account_proof_toncore.json');
  const [blockProof, stateProof] = parseBoc(Buffer.from(acc.boc_base64, 'base64')) as [Cell, Cell];
  blocks.push(knownBlock(virtualRoot(blockProof), null, null, virtualRoot(stateProof)));

  for (const file of MAINNET_BLOCK_FILES) {
    const v = JSON.parse(readFileSync(vectorPath(file), 'utf8')) as BlockVector;
    const data = Buffer.from(v.boc_base64, 'base64');
    const root = parseBoc(data)[0] as Cell;
    const stated = v.ids.file_hash ?? v.expected?.fixture_block?.file_hash ?? null;
    blocks.push(knownBlock(root, stated ? Buffer.from(stated, 'hex') : null, data));
  }
  const info: MasterchainInfo = {
    last: {
      workchain: last.workchain,
      shard: BigInt.asUintN(64, last.shard),
      seqno: last.seqno,
      rootHash: last.rootHash,
      fileHash: last.fileHash,
    },
    stateRootHash: masterchainInfo.stateRootHash,
    init: {
      workchain: masterchainInfo.init.workchain,
      rootHash: masterchainInfo.init.rootHash,
      fileHash: masterchainInfo.init.fileHash,
    },
    lastUtime: (blocks[0] as KnownBlock).info.genUtime,
  };
  return memoryChainView({ blocks, masterchainInfo: () => info });
}

// ---------------------------------------------------------------------------------------------------------
// The private network of vectors/node-db

const PACKS = ['archive.00000.pack', 'archive.00100.pack', 'archive.00200.pack'];

export interface PrivateNetChainView extends VectorChainView {
  /** Makes masterchain blocks up to `seqno` visible (those above stay unknown until then); wakes waiters. */
  publish(seqno: number): void;
}

export function createPrivateNetVectorChain(opts: { lastSeqno?: number } = {}): PrivateNetChainView {
  const blocks: KnownBlock[] = [];
  const seen = new Set<string>();
  for (const pack of PACKS) {
    for (const e of loadNodePackage(pack)) {
      const m = /^block_\((-?\d+),([0-9a-f]+),(\d+)\):([0-9A-F]{64}):([0-9A-F]{64})$/i.exec(e.name);
      if (!m || seen.has(e.name)) continue;
      seen.add(e.name);
      const root = parseBoc(e.data)[0] as Cell;
      const fileHash = Buffer.from(m[5] as string, 'hex');
      if (!root.hash(0).equals(Buffer.from(m[4] as string, 'hex'))) throw new Error(`${e.name}: root hash differs`);
      if (!createHash('sha256').update(e.data).digest().equals(fileHash))
        throw new Error(`${e.name}: file hash differs`);
      blocks.push(knownBlock(root, fileHash, Buffer.from(e.data)));
    }
  }
  const mc = blocks.filter((b) => b.workchain === -1).sort((a, b) => a.seqno - b.seqno);
  const top = mc[mc.length - 1] as KnownBlock;
  const first = mc[0] as KnownBlock;
  const zero = prevBlockIds(first.info)[0];
  if (zero?.seqno !== 0 || !zero.fileHash) throw new Error('masterchain block 1 does not name the zero state');
  const init: ZeroStateIdExt = { workchain: -1, rootHash: zero.rootHash, fileHash: zero.fileHash };

  // The masterchain block that committed each shard block: the first whose shard table reaches it.
  const mcRef = new Map<string, number>();
  const byRoot = new Map(blocks.map((b) => [b.rootHash.toString('hex'), b]));
  for (const m of mc) {
    for (const topId of shardTopsOf(m)) {
      let cur = byRoot.get(topId.toString('hex'));
      while (cur && !mcRef.has(cur.rootHash.toString('hex'))) {
        mcRef.set(cur.rootHash.toString('hex'), m.seqno);
        const prev = prevBlockIds(cur.info)[0];
        cur = prev && prev.seqno > 0 ? byRoot.get(prev.rootHash.toString('hex')) : undefined;
      }
    }
  }
  const info = (): MasterchainInfo => ({
    last: {
      workchain: -1,
      shard: MC_SHARD,
      seqno: top.seqno,
      rootHash: top.rootHash,
      fileHash: top.fileHash as Buffer,
    },
    stateRootHash: stateHashOf(top),
    init,
    lastUtime: top.info.genUtime,
  });
  const view = memoryChainView({
    blocks,
    masterchainInfo: info,
    masterchainRefSeqno: (b) => mcRef.get(b.rootHash.toString('hex')) ?? null,
  });
  if (opts.lastSeqno !== undefined) view.publish(opts.lastSeqno);
  return view;
}

/** Root hashes of the shard top blocks a masterchain block's McBlockExtra lists. */
function shardTopsOf(mcBlock: KnownBlock): Buffer[] {
  const custom = loadBlockCell(mcBlock.root).extra.custom;
  return custom ? listShards(custom.shardHashes).map((s) => s.descr.rootHash) : [];
}
