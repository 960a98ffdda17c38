// ton-lite-client (LiteSingleEngine over TCP + LiteClient) against our liteserver on loopback, answering from
// the real chain data of shared/vectors. Expected values come from the vectors themselves (pack entry names,
// the sources' assertions, the blocks decoded with src/ton), never from the server's own output.
import { Address, beginCell, Cell } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../src/adnl/index.ts';
import { createLiteServer, type LiteServer } from '../../src/lite/server/index.ts';
import {
  blockStateHash,
  listBlockTransactions,
  listShards,
  loadBlockCell,
  loadConfigParams,
  loadHmLabel,
  parseBoc,
  prevBlockIds,
  verifyBlockProof,
  verifyMerkleProof,
} from '../../src/ton/index.ts';
import {
  createMainnetVectorChain,
  createPrivateNetVectorChain,
  type KnownBlock,
  tongoConfigFixture,
  type VectorChainView,
} from '../helpers/vector-chain.ts';
import { hasVectors, loadVector } from '../helpers/vectors.ts';

interface Running {
  server: LiteServer;
  engine: LiteSingleEngine;
  client: LiteClient;
}

async function start(view: VectorChainView): Promise<Running> {
  const server = createLiteServer({ view, keys: [generateKeyPair()], host: '127.0.0.1', port: 0 });
  const { port } = await server.listen();
  const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey: server.publicKey });
  engine.on('error', () => {});
  await new Promise((resolve) => engine.once('ready', resolve));
  return { server, engine, client: new LiteClient({ engine }) };
}

async function stop(r: Running | undefined): Promise<void> {
  r?.engine.close();
  await r?.server.close();
}

/** A block id as ton-lite-client takes it (shard as a signed decimal string). */
function tlcId(b: { workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer | null }) {
  return {
    workchain: b.workchain,
    shard: BigInt.asIntN(64, b.shard).toString(),
    seqno: b.seqno,
    rootHash: b.rootHash,
    fileHash: b.fileHash ?? Buffer.alloc(32, 0xee),
  };
}

const MC_SHARD = '-9223372036854775808';

describe.skipIf(!hasVectors)('ton-lite-client against the private-network chain (vectors/node-db)', () => {
  let view: ReturnType<typeof createPrivateNetVectorChain>;
  let r: Running;
  const mc = (seqno: number) => view.find(-1, seqno);

  beforeAll(async () => {
    view = createPrivateNetVectorChain();
    r = await start(view);
  });
  afterAll(() => stop(r));

  it('getMasterchainInfo(Ext): the newest masterchain block, its state hash and the zero state block 1 names', async () => {
    const top = view.blocks.filter((b) => b.workchain === -1).reduce((a, b) => (b.seqno > a.seqno ? b : a));
    const zero = prevBlockIds(mc(1).info)[0];
    const info = await r.client.getMasterchainInfo();
    expect(info.last.seqno).toBe(264);
    expect(info.last.rootHash.equals(top.rootHash)).toBe(true);
    expect(info.last.fileHash.equals(top.fileHash as Buffer)).toBe(true);
    expect(info.stateRootHash.equals(loadBlockCell(top.root).stateUpdate.newHash)).toBe(true);
    expect(info.init.rootHash.equals(zero?.rootHash as Buffer)).toBe(true);
    expect(info.init.fileHash.equals(zero?.fileHash as Buffer)).toBe(true);
    const ext = await r.client.getMasterchainInfoExt();
    expect(ext.lastUtime).toBe(top.info.genUtime);
    expect(ext.version).toBe(0x101);
    expect(ext.last.seqno).toBe(264);
    expect(ext.now).toBeGreaterThanOrEqual(ext.lastUtime);
  });

  it('getCurrentTime and getVersion', async () => {
    const now = await r.client.getCurrentTime();
    expect(Number.isInteger(now)).toBe(true);
    expect(now).toBeGreaterThan(mc(264).info.genUtime);
    const v = await r.client.getVersion();
    expect(v.version).toBe(0x101);
    expect(BigInt(v.capabilities)).toBe(7n);
  });

  it('lookupBlockByID / ByUtime / ByLt name the blocks the archive holds', async () => {
    const byId = await r.client.lookupBlockByID({ workchain: -1, shard: MC_SHARD, seqno: 150 });
    expect(byId.id.rootHash.equals(mc(150).rootHash)).toBe(true);
    expect(byId.id.fileHash.equals(mc(150).fileHash as Buffer)).toBe(true);
    // By utime: the first block generated at or after it (validator/db/archive-slice.cpp).
    const utime = mc(149).info.genUtime + 1;
    const want = view.blocks
      .filter((b) => b.workchain === -1 && b.info.genUtime >= utime)
      .reduce((a, b) => (b.seqno < a.seqno ? b : a));
    const byUtime = await r.client.lookupBlockByUtime({ workchain: -1, shard: MC_SHARD, utime });
    expect(byUtime.id.seqno).toBe(want.seqno);
    // By lt: the block whose lt range holds it, here in the basechain shard 0:4000000000000000.
    const shardBlock = view.find(0, 120, 0x4000000000000000n);
    const byLt = await r.client.lookupBlockByLt({
      workchain: 0,
      shard: BigInt.asIntN(64, 0x4000000000000000n).toString(),
      lt: shardBlock.info.startLt + 1n,
    });
    expect(byLt.id.seqno).toBe(120);
    expect(byLt.id.rootHash.equals(shardBlock.rootHash)).toBe(true);
  });

  it('getBlockHeader: the header proof verifies against the root hash and names the state hash', async () => {
    const b = mc(200);
    const h = await r.client.getBlockHeader(tlcId(b));
    const root = parseBoc(h.headerProof)[0] as Cell;
    const block = verifyBlockProof(root, b.rootHash);
    expect(blockStateHash(block).equals(loadBlockCell(b.root).stateUpdate.newHash)).toBe(true);
    // The proof keeps the header, not the block's contents.
    expect(h.headerProof.length).toBeLessThan((b.data as Buffer).length);
  });

  it('getAllShardsInfo: the shard table of the masterchain block, with a proof of where it sits', async () => {
    const b = mc(200);
    const res = await r.client.getAllShardsInfo(tlcId(b));
    const want = listShards(
      (loadBlockCell(b.root).extra.custom as NonNullable<ReturnType<typeof loadBlockCell>['extra']['custom']>)
        .shardHashes,
    );
    const got = Object.entries(res.shards['0'] ?? {}).map(([s, seqno]) => ({
      shard: BigInt.asUintN(64, BigInt(s)),
      seqno,
    }));
    expect(got.sort((x, y) => (x.shard < y.shard ? -1 : 1))).toEqual(
      want.map((s) => ({ shard: s.shard, seqno: s.descr.seqNo })).sort((x, y) => (x.shard < y.shard ? -1 : 1)),
    );
    const block = verifyBlockProof(parseBoc(res.proof)[0] as Cell, b.rootHash);
    const mcExtra = block.refs[3]?.refs[3] as Cell;
    const dataRoot = parseBoc(res.raw)[0] as Cell;
    expect(mcExtra.refs[0]?.hash(0).equals(dataRoot.refs[0]?.hash(0) as Buffer)).toBe(true);
  });

  it('listBlockTransactions pages with after/incomplete through every transaction of a block', async () => {
    const b = mc(5);
    const want = listBlockTransactions(loadBlockCell(b.root));
    expect(want.length).toBeGreaterThan(2);
    const got: Array<{ account: string; lt: string; hash: string }> = [];
    let after: { kind: 'liteServer.transactionId3'; account: Buffer; lt: string } | null = null;
    for (let page = 0; page < 10; page++) {
      const res = await r.client.listBlockTransactions(tlcId(b), {
        mode: 7 | (after ? 128 : 0),
        count: 2,
        after: after ?? undefined,
      } as never);
      for (const t of res.ids)
        got.push({
          account: (t.account as Buffer).toString('hex'),
          lt: String(t.lt),
          hash: (t.hash as Buffer).toString('hex'),
        });
      if (!res.incomplete) break;
      const last = res.ids[res.ids.length - 1];
      if (!last) break;
      after = { kind: 'liteServer.transactionId3', account: last.account as Buffer, lt: String(last.lt) };
    }
    expect(got).toEqual(
      want.map((t) => ({ account: t.account.toString('hex'), lt: t.lt.toString(), hash: t.hash.toString('hex') })),
    );
  });

  it('getFullBlock: the masterchain block and every shard block it committed, with their transactions', async () => {
    const seqno = view.blocks
      .filter((b) => b.workchain === -1 && b.seqno > 100 && b.seqno < 260)
      .map((b) => b.seqno)
      .find((s) => {
        const tops = (n: number) =>
          listShards(loadBlockCell(mc(n).root).extra.custom?.shardHashes as never)
            .map((x) => x.descr.seqNo)
            .join();
        return tops(s) !== tops(s - 1);
      }) as number;
    const full = await r.client.getFullBlock(seqno);
    const tops = (n: number) => listShards(loadBlockCell(mc(n).root).extra.custom?.shardHashes as never);
    const prev = new Map(tops(seqno - 1).map((s) => [s.shard, s.descr.seqNo]));
    const expected = [{ workchain: -1, shard: 0x8000000000000000n, seqno }];
    for (const s of tops(seqno)) {
      for (let q = (prev.get(s.shard) ?? s.descr.seqNo - 1) + 1; q <= s.descr.seqNo; q++)
        expected.push({ workchain: 0, shard: s.shard, seqno: q });
    }
    expect(
      full.shards.map((s) => `${s.workchain}:${BigInt.asUintN(64, BigInt(s.shard)).toString(16)}:${s.seqno}`).sort(),
    ).toEqual(expected.map((s) => `${s.workchain}:${s.shard.toString(16)}:${s.seqno}`).sort());
    for (const s of full.shards) {
      const b = view.find(s.workchain, s.seqno, BigInt.asUintN(64, BigInt(s.shard)));
      expect(s.rootHash.equals(b.rootHash)).toBe(true);
      expect(s.fileHash.equals(b.fileHash as Buffer)).toBe(true);
      expect(s.transactions.map((t) => (t.hash as Buffer).toString('hex'))).toEqual(
        listBlockTransactions(loadBlockCell(b.root)).map((t) => t.hash.toString('hex')),
      );
    }
  });

  it('getAccountTransaction and getAccountTransactions follow an account across blocks', async () => {
    // A special masterchain account runs tick and tock transactions in every masterchain block.
    const b = mc(230);
    const txs = listBlockTransactions(loadBlockCell(b.root));
    const first = txs[txs.length - 1] as (typeof txs)[number];
    const addr = new Address(-1, first.account);
    const one = await r.client.getAccountTransaction(addr, first.lt.toString(), tlcId(b));
    expect(Cell.fromBoc(one.transaction)[0]?.hash().equals(first.hash)).toBe(true);
    verifyBlockProof(parseBoc(one.proof)[0] as Cell, b.rootHash);
    const list = await r.client.getAccountTransactions(addr, first.lt.toString(), first.hash, 16);
    expect(list.ids).toHaveLength(16);
    // The expected chain, walked through the decoded blocks by prev_trans_lt/hash.
    const chain: string[] = [];
    let lt = first.lt;
    let hash = first.hash;
    for (let seq = b.seqno; chain.length < 16 && seq > 0; seq--) {
      for (const t of listBlockTransactions(loadBlockCell(mc(seq).root)).reverse()) {
        if (!t.account.equals(first.account) || t.lt !== lt) continue;
        expect(t.hash.equals(hash)).toBe(true);
        chain.push(t.hash.toString('hex'));
        const s = t.cell.beginParse().skip(4 + 256 + 64);
        hash = s.loadBuffer(32);
        lt = s.loadUintBig(64);
      }
    }
    expect(Cell.fromBoc(list.transactions).map((c) => c.hash().toString('hex'))).toEqual(chain.slice(0, 16));
  });

  it('queries that need a state answer the node error: this archive holds no states', async () => {
    const last = tlcId(mc(264));
    await expect(r.client.getConfig(last)).rejects.toThrow(/cannot load state for .*not in db/);
    const addr = new Address(-1, Buffer.alloc(32, 0x33));
    await expect(r.client.getAccountState(addr, last)).rejects.toThrow(/not in db/);
    await expect(r.client.runMethod(addr, 'seqno', Buffer.alloc(0), last)).rejects.toThrow(/not in db/);
    await expect(r.client.getLibraries([Buffer.alloc(32, 1)])).rejects.toThrow(/not in db/);
  });

  it('sendMessage is refused by a node that does not accept messages', async () => {
    const msg = beginCell().storeUint(0, 8).endCell().toBoc();
    await expect(r.client.sendMessage(msg)).rejects.toThrow(/cannot apply external message/);
  });

  it('the rest of its Functions table: getBlock, getShardBlockProof, getBlockProof, getState, getShardInfo, getConfigParams, getValidatorStats', async () => {
    const b = mc(180);
    const id = { kind: 'tonNode.blockIdExt' as const, ...tlcId(b) };
    const data = await r.engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id });
    expect(data.data.equals(b.data as Buffer)).toBe(true);

    // A shard block: linked down from the masterchain block that committed it.
    const sb = view.find(0, 150, 0xc000000000000000n);
    const sp = await r.engine.query(Functions.liteServer_getShardBlockProof, {
      kind: 'liteServer.getShardBlockProof',
      id: { kind: 'tonNode.blockIdExt', ...tlcId(sb) },
    });
    expect(sp.links.length).toBeGreaterThan(0);
    const trusted = view.blocks.find(
      (x) => x.workchain === -1 && x.rootHash.equals(sp.masterchainId.rootHash),
    ) as KnownBlock;
    expect(trusted).toBeDefined();
    let trustedHash = trusted.rootHash;
    for (const link of sp.links) {
      verifyBlockProof(parseBoc(link.proof)[0] as Cell, trustedHash);
      trustedHash = link.id.rootHash;
    }
    expect(trustedHash.equals(sb.rootHash)).toBe(true);

    const no = (p: Promise<unknown>, re: RegExp) => expect(p).rejects.toThrow(re);
    await no(r.engine.query(Functions.liteServer_getState, { kind: 'liteServer.getState', id }), /not in db/);
    await no(
      r.engine.query(Functions.liteServer_getShardInfo, {
        kind: 'liteServer.getShardInfo',
        id,
        workchain: 0,
        shard: '-9223372036854775808',
        exact: false,
      }),
      /not in db/,
    );
    await no(
      r.engine.query(Functions.liteServer_getConfigParams, {
        kind: 'liteServer.getConfigParams',
        mode: 0,
        id,
        paramList: [0],
      }),
      /not in db/,
    );
    await no(
      r.engine.query(Functions.liteServer_getBlockProof, {
        kind: 'liteServer.getBlockProof',
        mode: 0,
        knownBlock: id,
        targetBlock: null,
      }),
      /not in db/,
    );
    // ton-lite-client still sends getValidatorStats with the constructor id lite_api.tl replaced (#091a58bc).
    await no(
      r.engine.query(Functions.liteServer_getValidatorStats, {
        kind: 'liteServer.getValidatorStats',
        mode: 0,
        id,
        limit: 10,
        startAfter: null,
        modifiedAfter: null,
      }),
      /unknown query/,
    );
  });
});

describe.skipIf(!hasVectors)('ton-lite-client against mainnet fragments', () => {
  let view: VectorChainView;
  let r: Running;
  const fixture = () => tongoConfigFixture();

  beforeAll(async () => {
    view = createMainnetVectorChain();
    r = await start(view);
  });
  afterAll(() => stop(r));

  it('getMasterchainInfo answers what the real liteserver answered (tongo fixture)', async () => {
    const f = fixture().masterchainInfo;
    const info = await r.client.getMasterchainInfo();
    expect(info.last.seqno).toBe(26309435);
    expect(info.last.rootHash.equals(f.last.rootHash)).toBe(true);
    expect(info.last.fileHash.equals(f.last.fileHash)).toBe(true);
    expect(info.stateRootHash.equals(f.stateRootHash)).toBe(true);
    expect(info.init.rootHash.equals(f.init.rootHash)).toBe(true);
  });

  it('getConfig: the whole configuration of block 26309435, with proofs that verify', async () => {
    const info = await r.client.getMasterchainInfo();
    const extras = await r.client.getConfig(info.last);
    expect(extras.configAddress).toBe(BigInt(`0x${'5'.repeat(64)}`));
    // As many parameters as the configuration in the real node's answer holds.
    const realState = verifyMerkleProof(parseBoc(fixture().configInfo.configProof)[0] as Cell, info.stateRootHash);
    const realConfig = (realState.refs[3] as Cell).refs[1] as Cell;
    expect(extras.config.size).toBe(loadConfigParams(realConfig).size);
    const raw = await r.engine.query(Functions.liteServer_getConfigAll, {
      kind: 'liteServer.getConfigAll',
      mode: 0,
      id: info.last,
    });
    const block = verifyBlockProof(parseBoc(raw.stateProof)[0] as Cell, info.last.rootHash);
    const state = verifyMerkleProof(parseBoc(raw.configProof)[0] as Cell, blockStateHash(block));
    expect(state.hash(0).equals(info.stateRootHash)).toBe(true);
    // Byte for byte the answer the real node gave to the same query.
    expect(raw.configProof.equals(fixture().configInfo.configProof)).toBe(true);
    expect(raw.stateProof.equals(fixture().configInfo.stateProof)).toBe(true);
  });

  it('getConfigParams: only the parameters asked for are revealed', async () => {
    const info = await r.client.getMasterchainInfo();
    const res = await r.engine.query(Functions.liteServer_getConfigParams, {
      kind: 'liteServer.getConfigParams',
      mode: 0,
      id: info.last,
      paramList: [1, 34],
    });
    const block = verifyBlockProof(parseBoc(res.stateProof)[0] as Cell, info.last.rootHash);
    const state = verifyMerkleProof(parseBoc(res.configProof)[0] as Cell, blockStateHash(block));
    const configRoot = state.refs[3]?.refs[1] as Cell;
    const full = fixture();
    expect(res.configProof.length).toBeLessThan(full.configInfo.configProof.length);
    expect(
      configRoot
        .hash(0)
        .equals(
          verifyMerkleProof(
            parseBoc(full.configInfo.configProof)[0] as Cell,
            info.stateRootHash,
          ).refs[3]?.refs[1]?.hash(0) as Buffer,
        ),
    ).toBe(true);
  });

  it('getBlockHeader of a block known only from a proof, and getBlock refused for it (no file)', async () => {
    const info = await r.client.getMasterchainInfo();
    const h = await r.client.getBlockHeader(info.last);
    const block = verifyBlockProof(parseBoc(h.headerProof)[0] as Cell, info.last.rootHash);
    expect(blockStateHash(block).equals(info.stateRootHash)).toBe(true);
    await expect(
      r.engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: info.last }),
    ).rejects.toThrow(/not in db/);
  });

  it('lookupBlockByID names block 0:8000000000000000:71398501 with the file hash its source states', async () => {
    const v = loadVector<{ ids: { root_hash: string; file_hash: string } }>(
      'blocks',
      'mainnet_0_8000000000000000_71398501.json',
    );
    const res = await r.client.lookupBlockByID({ workchain: 0, shard: MC_SHARD, seqno: 71398501 });
    expect(res.id.rootHash.toString('hex')).toBe(v.ids.root_hash);
    expect(res.id.fileHash.toString('hex')).toBe(v.ids.file_hash);
  });

  it('getAccountTransaction: transactions of block 71398501 with their asserted hashes', async () => {
    const b = view.find(0, 71398501);
    for (const name of ['highload_v3_jetton_send_803ef840.json', 'wallet_v5r1_transfer_a4bbd904.json']) {
      const v = loadVector<{ ids: { tx_hash_hex: string; lt: number; account: string } }>('transactions', name);
      const addr = Address.parseRaw(v.ids.account);
      const res = await r.client.getAccountTransaction(addr, String(v.ids.lt), tlcId(b));
      expect(Cell.fromBoc(res.transaction)[0]?.hash().toString('hex')).toBe(v.ids.tx_hash_hex);
      verifyBlockProof(parseBoc(res.proof)[0] as Cell, b.rootHash);
    }
  });

  it('getAccountTransactions stops where the node knows no earlier block; the chain meets the ShardAccount before the block', async () => {
    const acc = loadVector<{
      verification: { decoded: { address: string; shard_account: { last_trans_hash: string } } };
    }>('accounts', 'fatblock_wallet_v3r2_04ae074a.json');
    const addr = Address.parseRaw(acc.verification.decoded.address);
    const txs = listBlockTransactions(loadBlockCell(view.find(0, 71398501).root)).filter((t) =>
      t.account.equals(addr.hash),
    );
    const newest = txs[txs.length - 1] as (typeof txs)[number];
    const res = await r.client.getAccountTransactions(addr, newest.lt.toString(), newest.hash, 16);
    const got = Cell.fromBoc(res.transactions);
    expect(got.map((c) => c.hash().toString('hex'))).toEqual(txs.map((t) => t.hash.toString('hex')).reverse());
    const oldest = (got[got.length - 1] as Cell).beginParse().skip(4 + 256 + 64);
    expect(oldest.loadBuffer(32).toString('hex')).toBe(acc.verification.decoded.shard_account.last_trans_hash);
  });

  it('listBlockTransactions pages through the 269 transactions of block 71398501', async () => {
    const b = view.find(0, 71398501);
    const v = loadVector<{ transactions: Array<{ account: string; lt: string; hash: string }> }>(
      'blocks',
      'mainnet_0_8000000000000000_71398501.json',
    );
    const got: string[] = [];
    let after: { kind: 'liteServer.transactionId3'; account: Buffer; lt: string } | null = null;
    for (let page = 0; page < 10; page++) {
      const res = await r.client.listBlockTransactions(tlcId(b), {
        mode: 7 | (after ? 128 : 0),
        count: 128,
        after: after ?? undefined,
      } as never);
      for (const t of res.ids)
        got.push(`0:${(t.account as Buffer).toString('hex')}:${t.lt}:${(t.hash as Buffer).toString('hex')}`);
      const last = res.ids[res.ids.length - 1];
      if (!res.incomplete || !last) break;
      after = { kind: 'liteServer.transactionId3', account: last.account as Buffer, lt: String(last.lt) };
    }
    expect(got).toHaveLength(269);
    expect(new Set(got)).toEqual(new Set(v.transactions.map((t) => `${t.account}:${t.lt}:${t.hash}`)));
  });

  it('getAllShardsInfo of full masterchain block 24374597', async () => {
    const b = view.find(-1, 24374597);
    const res = await r.client.getAllShardsInfo(tlcId(b));
    const want = listShards(loadBlockCell(b.root).extra.custom?.shardHashes as never);
    expect(Object.keys(res.shards['0'] ?? {}).length).toBe(want.length);
    verifyBlockProof(parseBoc(res.proof)[0] as Cell, b.rootHash);
  });

  it('getAccountState(Raw, Prunned) and runMethod at shard block 31618192: absence proven, presence unknown', async () => {
    const b = view.find(0, 31618192);
    const state = b.state as Cell;
    // The one account the vector's proof shows (its Account cell itself is pruned there).
    const accounts = state.refs[1]?.beginParse();
    accounts?.loadBit();
    const present = firstLeafKey(accounts?.loadRef() as Cell);
    const absent = Buffer.from(present);
    absent[31] = (absent[31] as number) ^ 1;
    const id = tlcId(b);
    const res = await r.client.getAccountStateRaw(new Address(0, absent), id);
    expect(res.state).toBeNull();
    const [blockProof, stateProof] = parseBoc(res.proof) as [Cell, Cell];
    const block = verifyBlockProof(blockProof, b.rootHash);
    verifyMerkleProof(stateProof, blockStateHash(block));
    const pr = await r.client.getAccountStatePrunned(new Address(0, absent), id);
    expect(pr.stateHash).toBeNull();
    const run = await r.client.runMethod(new Address(0, absent), 'seqno', Buffer.alloc(0), id);
    expect(run.exitCode).toBe(-256);
    await expect(r.client.getAccountStateRaw(new Address(0, present), id)).rejects.toThrow(/not known to this node/);
  });

  it('getBlockProof from the last block to itself is complete without links', async () => {
    const info = await r.client.getMasterchainInfo();
    const res = await r.engine.query(Functions.liteServer_getBlockProof, {
      kind: 'liteServer.getBlockProof',
      mode: 1,
      knownBlock: info.last,
      targetBlock: info.last,
    });
    expect(res.complete).toBe(true);
    expect(res.steps).toHaveLength(0);
    expect(res.to.rootHash.equals(info.last.rootHash)).toBe(true);
  });
});

/** The key of the first present leaf of a HashmapAug 256 whose other branches may be pruned. */
function firstLeafKey(root: Cell): Buffer {
  const walk = (c: Cell, n: number, prefix: bigint): bigint | null => {
    if (c.isExotic) return null;
    const s = c.beginParse();
    const { len, bits } = loadHmLabel(s, n);
    const p = (prefix << BigInt(len)) | bits;
    const m = n - len;
    if (m === 0) return p;
    const left = s.loadRef();
    const right = s.loadRef();
    return walk(left, m - 1, p << 1n) ?? walk(right, m - 1, (p << 1n) | 1n);
  };
  const key = walk(root, 256, 0n);
  if (key === null) throw new Error('no present leaf');
  return Buffer.from(key.toString(16).padStart(64, '0'), 'hex');
}
