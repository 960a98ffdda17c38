// Shared setup and independent checks for the devnet node tests: a node on loopback with real ton-lite-client and
// ADNL clients, the genesis wallets from wallets.json, and the checks a proof-verifying client makes (our
// verifier over what the server sent, @ton/core and src/ton parsers over the block files), never the node's own
// view of itself.
import { createHash, createPublicKey, verify as edVerify } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, Cell, loadTransaction, parseTuple, type Transaction } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { expect } from 'vitest';
import { AdnlClient } from '../../src/adnl/index.ts';
import type { DevnetWalletVersion } from '../../src/devnet/genesis/index.ts';
import {
  createDevnetNode,
  type DevnetInfo,
  type DevnetNode,
  type DevnetNodeOptions,
  type SigningWallet,
  type WalletsFileEntry,
} from '../../src/devnet/node/index.ts';
import { decodeTl, encodeTl, type TlObject } from '../../src/lite/tl/index.ts';
import {
  type Block,
  blockStateHash,
  listBlockTransactions,
  listShards,
  loadBlockCell,
  loadConfigParam,
  loadDepthBalanceInfo,
  parseBoc,
  prevBlockIds,
  verifyBlockProof,
  verifyMerkleProof,
} from '../../src/ton/index.ts';
import { dictLeaf } from './dict-leaf.ts';

export const MC_SHARD = 0x8000000000000000n;
export const MC_SHARD_TEXT = '-9223372036854775808';

export interface BlockIdLike {
  workchain: number;
  shard: bigint | string;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface Lite {
  engine: LiteSingleEngine;
  client: LiteClient;
  adnl: AdnlClient;
  /** Any lite_api function through our own TL codec (what ton-lite-client's schema cannot express). */
  ask<T = Record<string, unknown>>(fn: TlObject): Promise<T>;
  close(): void;
}

export async function connectLite(port: number, publicKey: Buffer): Promise<Lite> {
  const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey });
  engine.on('error', () => {});
  await new Promise((resolve) => engine.once('ready', resolve));
  const client = new LiteClient({ engine, cacheMap: 0 });
  const adnl = await AdnlClient.connect({ host: '127.0.0.1', port, serverPublicKey: publicKey });
  return {
    engine,
    client,
    adnl,
    async ask<T>(fn: TlObject) {
      const answer = decodeTl(await adnl.query(encodeTl({ _: 'liteServer.query', data: encodeTl(fn) }))) as {
        _: string;
        message?: string;
      };
      if (answer._ === 'liteServer.error') throw new Error(`liteServer.error: ${answer.message}`);
      return answer as T;
    },
    close() {
      engine.close();
      adnl.close();
    },
  };
}

export interface Devnet {
  node: DevnetNode;
  info: DevnetInfo;
  dir: string;
  lite: Lite;
  wallets: WalletsFileEntry[];
  close(opts?: { keepDir?: boolean }): Promise<void>;
}

export async function tempDir(prefix = 'tongate-devnet-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** A node on loopback (ephemeral ports, fast blocks, no fsync) with connected clients. */
export async function startDevnet(o: Partial<DevnetNodeOptions> & { dir?: string } = {}): Promise<Devnet> {
  const dir = o.dir ?? (await tempDir());
  const node = createDevnetNode({ litePort: 0, blockIntervalMs: 60, sync: false, ...o, dataDir: dir });
  const info = await node.start();
  const lite = await connectLite(info.litePort, info.liteServerPublicKey);
  const wallets = JSON.parse(await readFile(info.walletsFile, 'utf8')) as WalletsFileEntry[];
  return {
    node,
    info,
    dir,
    lite,
    wallets,
    async close(c = {}) {
      lite.close();
      await node.stop();
      if (!c.keepDir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A block id as ton-lite-client takes it (shard as signed decimal text). */
export function tlcId(b: BlockIdLike) {
  return {
    workchain: b.workchain,
    shard: BigInt.asIntN(64, BigInt(b.shard)).toString(),
    seqno: b.seqno,
    rootHash: b.rootHash,
    fileHash: b.fileHash,
  };
}

/** A block id as our TL codec takes it. */
export function tlId(b: BlockIdLike) {
  return {
    _: 'tonNode.blockIdExt' as const,
    workchain: b.workchain,
    shard: BigInt.asIntN(64, BigInt(b.shard)),
    seqno: b.seqno,
    rootHash: b.rootHash,
    fileHash: b.fileHash,
  };
}

export function idKey(b: BlockIdLike): string {
  return `${b.workchain}:${BigInt.asUintN(64, BigInt(b.shard)).toString(16)}:${b.seqno}:${b.rootHash.toString('hex')}:${b.fileHash.toString('hex')}`;
}

export async function signingWallet(entry: WalletsFileEntry): Promise<SigningWallet> {
  const keys = await mnemonicToPrivateKey(entry.mnemonic);
  const { Address } = await import('@ton/core');
  return {
    version: entry.version as DevnetWalletVersion,
    publicKey: keys.publicKey,
    secretKey: keys.secretKey,
    address: Address.parse(entry.raw),
  };
}

/** The block file over the wire, checked against the id it was asked for. */
export async function fetchBlock(lite: Lite, id: BlockIdLike): Promise<{ root: Cell; block: Block; data: Buffer }> {
  const r = await lite.client.engine.query(Functions.liteServer_getBlock, {
    kind: 'liteServer.getBlock',
    id: { kind: 'tonNode.blockIdExt', ...tlcId(id) },
  });
  const data = r.data;
  expect(createHash('sha256').update(data).digest().toString('hex'), `file hash of ${idKey(id)}`).toBe(
    id.fileHash.toString('hex'),
  );
  const root = parseBoc(data)[0] as Cell;
  expect(root.hash().toString('hex'), `root hash of ${idKey(id)}`).toBe(id.rootHash.toString('hex'));
  return { root, block: loadBlockCell(root), data };
}

export async function mcBlockId(lite: Lite, seqno: number): Promise<BlockIdLike> {
  const h = await lite.client.lookupBlockByID({ workchain: -1, shard: MC_SHARD_TEXT, seqno });
  return h.id as BlockIdLike;
}

export interface WalkResult {
  mcIds: BlockIdLike[];
  shardBlocks: Map<string, { id: BlockIdLike; block: Block; mcSeqno: number }>;
}

/**
 * Walks masterchain blocks 1..head: every block file hashes to its id; each masterchain block's prev_ref names
 * the previous one (block 1: the zero state); every shard block its shard_hashes list is fetched by exactly that
 * id, and so are the blocks its prev_ref names, down to blocks already seen or the workchain zero state; every
 * shard block's master_ref names a masterchain block already walked.
 */
export async function walkChain(lite: Lite, head: number, from = 1): Promise<WalkResult> {
  const info = await lite.client.getMasterchainInfo();
  const zero = info.init;
  const mcIds: BlockIdLike[] = [];
  const byMcSeqno = new Map<number, BlockIdLike>();
  byMcSeqno.set(0, { workchain: -1, shard: MC_SHARD, seqno: 0, rootHash: zero.rootHash, fileHash: zero.fileHash });
  const shardBlocks = new Map<string, { id: BlockIdLike; block: Block; mcSeqno: number }>();
  let prev: BlockIdLike | null = from === 1 ? (byMcSeqno.get(0) as BlockIdLike) : await mcBlockId(lite, from - 1);
  for (let n = from; n <= head; n++) {
    const id = await mcBlockId(lite, n);
    byMcSeqno.set(n, id);
    const { block } = await fetchBlock(lite, id);
    expect(block.info.seqNo).toBe(n);
    expect(block.info.notMaster).toBe(false);
    const [p] = prevBlockIds(block.info);
    expect(p && idKey({ ...p, fileHash: p.fileHash as Buffer }), `prev_ref of mc ${n}`).toBe(
      idKey(prev as BlockIdLike),
    );
    prev = id;
    mcIds.push(id);
    const custom = block.extra.custom;
    expect(custom, `McBlockExtra of ${n}`).toBeTruthy();
    for (const s of listShards(custom!.shardHashes)) {
      const top: BlockIdLike = {
        workchain: s.workchain,
        shard: s.shard,
        seqno: s.descr.seqNo,
        rootHash: s.descr.rootHash,
        fileHash: s.descr.fileHash,
      };
      const stack = [top];
      while (stack.length > 0) {
        const cur = stack.pop() as BlockIdLike;
        if (cur.seqno === 0 || shardBlocks.has(idKey(cur))) continue;
        const { block: sb } = await fetchBlock(lite, cur);
        expect(sb.info.seqNo).toBe(cur.seqno);
        expect(sb.info.notMaster).toBe(true);
        const mref = sb.info.masterRef?.master;
        expect(mref, `master_ref of ${idKey(cur)}`).toBeTruthy();
        const named = byMcSeqno.get(mref!.seqNo);
        if (named) {
          expect(mref!.rootHash.equals(named.rootHash) && mref!.fileHash.equals(named.fileHash)).toBe(true);
        } else {
          expect(from > 1, `master_ref of ${idKey(cur)} names an unwalked mc block ${mref!.seqNo}`).toBe(true);
        }
        shardBlocks.set(idKey(cur), { id: cur, block: sb, mcSeqno: n });
        for (const pid of prevBlockIds(sb.info)) stack.push({ ...pid, fileHash: pid.fileHash as Buffer });
      }
    }
  }
  return { mcIds, shardBlocks };
}

/**
 * getAccountState at masterchain block `mc`, every proof checked with our verifier: the shard proof (mc block →
 * its state → shard_hashes names shardblk), the account proof (shard block → state → the account leaf whose
 * balance extra and ^Account hash are those of the returned account). Returns the account's balance and last tx.
 */
export async function verifiedAccountState(lite: Lite, address: Address, mc: BlockIdLike) {
  const res = await lite.client.getAccountStateRaw(address, tlcId(mc));
  const shardBlk = res.shardBlock as BlockIdLike;
  if (address.workChain !== -1) {
    const [mcBlockProof, mcStateProof] = parseBoc(res.shardProof) as [Cell, Cell];
    const mcBlock = verifyBlockProof(mcBlockProof, mc.rootHash);
    const mcState = verifyMerkleProof(mcStateProof, blockStateHash(mcBlock));
    const extra = (mcState.refs[3] as Cell).beginParse();
    expect(extra.loadUint(16)).toBe(0xcc26);
    const shards = extra.loadBit() ? listShardsOf(extra.loadRef()) : [];
    expect(
      shards.some((s) => s === idKey(shardBlk)),
      'shard_hashes names shardblk',
    ).toBe(true);
  }
  const [blockProof, stateProof] = parseBoc(res.proof) as [Cell, Cell];
  const state = verifyMerkleProof(stateProof, blockStateHash(verifyBlockProof(blockProof, shardBlk.rootHash)));
  const accounts = (state.refs[1] as Cell).beginParse();
  const leaf = accounts.loadBit() ? dictLeaf(accounts.loadRef(), BigInt(`0x${address.hash.toString('hex')}`)) : null;
  if (!leaf) {
    expect(res.raw.length).toBe(0);
    return { exists: false as const, balance: 0n, lastTx: null, shardBlock: shardBlk };
  }
  const extra = loadDepthBalanceInfo(leaf);
  const accountRef = leaf.loadRef();
  const account = parseBoc(res.raw)[0] as Cell;
  expect(accountRef.hash(0).equals(account.hash()), 'leaf ^Account = returned account').toBe(true);
  expect(extra.balance.coins).toBe(res.balance.coins);
  return {
    exists: true as const,
    balance: extra.balance.coins,
    lastTx: { hash: leaf.loadBuffer(32), lt: leaf.loadUintBig(64) },
    shardBlock: shardBlk,
  };
}

/** The basechain shard blocks a shard_hashes dictionary root (read through a proof) names, as idKeys. */
function listShardsOf(root: Cell): string[] {
  const out: string[] = [];
  const wcLeaf = dictLeaf(root, 0n, 32);
  if (!wcLeaf) return out;
  const walk = (c: Cell, prefix: bigint, depth: number) => {
    if (c.isExotic) return; // a branch the proof left out
    const t = c.beginParse();
    if (t.loadBit()) {
      walk(t.loadRef(), prefix, depth + 1);
      walk(t.loadRef(), prefix | (1n << BigInt(63 - depth)), depth + 1);
      return;
    }
    t.loadUint(4);
    const seqno = t.loadUint(32);
    t.skip(32 + 64 + 64);
    const shard = prefix | (1n << BigInt(63 - depth));
    out.push(idKey({ workchain: 0, shard, seqno, rootHash: t.loadBuffer(32), fileHash: t.loadBuffer(32) }));
  };
  walk(wcLeaf.loadRef(), 0n, 0);
  return out;
}

/** An account's transactions by the prev_trans links from `last` back to its first, checked as a hash chain. */
export async function transactionChain(
  lite: Lite,
  address: Address,
  last: { lt: bigint; hash: Buffer },
): Promise<Array<{ tx: Transaction; cell: Cell; block: BlockIdLike }>> {
  const out: Array<{ tx: Transaction; cell: Cell; block: BlockIdLike }> = [];
  let lt = last.lt;
  let hash = last.hash;
  while (lt !== 0n) {
    const r = await lite.client.getAccountTransactions(address, lt.toString(), hash, 16);
    const cells = parseBoc(r.transactions);
    expect(cells.length).toBeGreaterThan(0);
    cells.forEach((cell, i) => {
      expect(cell.hash().toString('hex'), `tx ${lt}`).toBe(hash.toString('hex'));
      const tx = loadTransaction(cell.beginParse());
      expect(tx.lt).toBe(lt);
      out.push({ tx, cell, block: r.ids[i] as BlockIdLike });
      lt = tx.prevTransactionLt;
      hash = Buffer.from(tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex');
    });
  }
  return out;
}

/** The top integer of a VmStack in base64 (runMethod's result). */
export function stackInt(resultBase64: string | null): bigint {
  const items = parseTuple(Cell.fromBoc(Buffer.from(resultBase64 ?? '', 'base64'))[0] as Cell);
  const top = items[0];
  if (top?.type !== 'int') throw new Error(`expected an int on the stack, got ${top?.type}`);
  return top.value;
}

/** Transactions of a block (from its file, decoded by src/ton) as `account:lt:hash` keys. */
export function blockTxKeys(block: Block): string[] {
  return listBlockTransactions(block).map(
    (t) => `${t.account.toString('hex')}:${t.lt}:${t.cell.hash().toString('hex')}`,
  );
}

/** Ed25519 check of a block signature (TL ton.blockId root file) against the validator key. */
export function verifyBlockSignature(publicKey: Buffer, rootHash: Buffer, fileHash: Buffer, signature: Buffer) {
  const msg = Buffer.alloc(68);
  msg.writeUInt32LE(0xc50b6e70, 0);
  rootHash.copy(msg, 4);
  fileHash.copy(msg, 36);
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]),
    format: 'der',
    type: 'spki',
  });
  return edVerify(null, msg, key, signature);
}

/** The single validator's public key from config param 34 of a config proof's virtual McStateExtra config. */
export function validatorKeyOf(configParam34: Cell): Buffer {
  const p = loadConfigParam(34, configParam34);
  const first = [...p.curValidators.list.values()][0];
  if (!first) throw new Error('param 34 lists no validator');
  return first.publicKey;
}
