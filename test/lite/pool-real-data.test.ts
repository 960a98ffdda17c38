// The pool's LiteClient-level methods against our createLiteServer serving one real masterchain block
// (shared/vectors): answers are checked against the vector's own data, not against our output.
import { Cell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../src/adnl/index.ts';
import { LiteServerError } from '../../src/common/index.ts';
import { createLitePool, createLiteServer, type LitePool, type LiteServer } from '../../src/lite/index.ts';
import { createTestChain, createTestChainView, MC_SHARD, type TestChain } from '../helpers/lite-pool.ts';
import { hasVectors, loadVector } from '../helpers/vectors.ts';

interface VectorTx {
  account: string;
  lt: string;
  hash: string;
}

describe.skipIf(!hasVectors)('lite pool on real block data (createLiteServer)', () => {
  let chain: TestChain;
  let servers: LiteServer[] = [];
  let pool: LitePool;
  let txs: VectorTx[];

  beforeAll(async () => {
    chain = createTestChain();
    txs = loadVector<{ transactions: VectorTx[] }>('blocks', 'mainnet_-1_8000000000000000_24374597.json').transactions;
    servers = [];
    for (let i = 0; i < 2; i++) {
      const s = createLiteServer({
        view: createTestChainView(chain, { lag: 0, history: true }),
        keys: [generateKeyPair()],
      });
      servers.push(s);
    }
    const bound = [];
    for (const s of servers) bound.push({ ...(await s.listen()), publicKey: s.publicKey });
    pool = createLitePool({
      servers: bound.map((b) => ({ id: `${b.host}:${b.port}`, host: b.host, port: b.port, publicKey: b.publicKey })),
      healthIntervalMs: 600_000,
    });
    await pool.ready({ timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await pool?.close();
    for (const s of servers) await s.close();
  });

  it('getMasterchainInfo, lookupBlock and getBlockHeader name the real block', async () => {
    const info = await pool.getMasterchainInfo();
    expect(info.last.seqno).toBe(chain.head);
    expect(info.init.rootHash.equals(chain.zeroRoot)).toBe(true);
    const hdr = await pool.lookupBlock({ workchain: -1, shard: MC_SHARD, seqno: chain.block.seqno });
    expect(hdr.id.rootHash.toString('hex')).toBe('1908d071c508674d205fae80f3793faf9448202166f9189769e45d506d1e0b56');
    expect(hdr.id.shard).toBe('-9223372036854775808');
    // The header proof is a Merkle proof whose virtual root is the block itself.
    const proof = Cell.fromBoc(hdr.headerProof)[0]!;
    expect(proof.refs[0]!.hash(0).equals(chain.block.rootHash)).toBe(true);
    const hdr2 = await pool.getBlockHeader(chain.block);
    expect(Cell.fromBoc(hdr2.headerProof)[0]!.refs[0]!.hash(0).equals(chain.block.rootHash)).toBe(true);
  });

  it('getBlock returns the block file and checks its root hash', async () => {
    const blk = await pool.getBlock(chain.block);
    expect(blk.data.equals(chain.block.data)).toBe(true);
    expect(blk.id.seqno).toBe(chain.block.seqno);
  });

  it('listBlockTransactions pages through the five transactions the vector lists', async () => {
    const seen: VectorTx[] = [];
    let after: { account: Buffer; lt: string } | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await pool.listBlockTransactions(chain.block, { count: 2, after });
      for (const t of res.ids) {
        seen.push({ account: `-1:${t.account!.toString('hex')}`, lt: t.lt!, hash: t.hash!.toString('hex') });
      }
      if (!res.incomplete) break;
      const last = res.ids.at(-1)!;
      after = { account: last.account!, lt: last.lt! };
    }
    const key = (t: VectorTx) => `${t.account}/${t.lt.padStart(20, '0')}`;
    expect(seen.map(key)).toEqual([...txs].sort((a, b) => (key(a) < key(b) ? -1 : 1)).map(key));
    expect(new Set(seen.map((t) => t.hash))).toEqual(new Set(txs.map((t) => t.hash)));
    // With a proof requested (a ?true flag: no payload on the wire), the server still parses the request.
    const withProof = await pool.listBlockTransactions(chain.block, { count: 5, wantProof: true, reverseOrder: true });
    expect(withProof.ids).toHaveLength(5);
    expect(Cell.fromBoc(withProof.proof)[0]!.refs[0]!.hash(0).equals(chain.block.rootHash)).toBe(true);
    expect(withProof.ids[0]!.account!.toString('hex')).toBe(seen.at(-1)!.account.slice(3));
  });

  it('getAllShardsInfo goes through ton-lite-client parsing of the real ShardHashes', async () => {
    const res = await pool.getAllShardsInfo(chain.block);
    expect(Object.keys(res.shards)).toContain('0');
    const basechain = Object.values(res.shards['0']!);
    expect(basechain.length).toBeGreaterThan(0);
    for (const seqno of basechain) expect(seqno).toBeGreaterThan(0);
  });

  it('a block the servers do not hold is a 651 LiteServerError after every server was asked once', async () => {
    const other = { ...chain.block, rootHash: Buffer.alloc(32, 7) };
    const e = await pool.getBlock(other).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LiteServerError);
    expect((e as LiteServerError).liteCode).toBe(651);
    expect((e as LiteServerError).message).toMatch(/not in db/);
  });
});
