import type { Cell } from '@ton/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPrivateNetVectorChain } from '../../../test/helpers/vector-chain.ts';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import {
  buildMerkleProof,
  listBlockTransactions,
  listShards,
  loadBlockCell,
  parseBoc,
  trackCellUsage,
} from '../../ton/index.ts';
import { dictLookupRoot, dictNearestRoot, findShardLeaf } from './cell-walk.ts';
import { addressKey } from './ids.ts';

function blockRoot(file: string): Cell {
  const v = loadVector<{ boc_base64: string }>('blocks', file);
  return parseBoc(Buffer.from(v.boc_base64, 'base64'))[0] as Cell;
}

/** ShardAccountBlocks root of a full block (extra → account_blocks → HashmapAugE root). */
function accountBlocksRoot(root: Cell): Cell {
  const s = ((root.refs[3] as Cell).refs[2] as Cell).beginParse();
  expect(s.loadBit()).toBe(true);
  return s.loadRef();
}

describe.skipIf(!hasVectors)(
  'dictionary walks on a real block (ShardAccountBlocks of 0:8000000000000000:71398501)',
  () => {
    const root = blockRoot('mainnet_0_8000000000000000_71398501.json');
    const accounts = [...new Set(listBlockTransactions(loadBlockCell(root)).map((t) => addressKey(t.account)))].sort(
      (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    );
    const dict = accountBlocksRoot(root);

    it('dictLookupRoot finds every account and no other key', () => {
      for (const key of accounts) expect(dictLookupRoot(dict, 256, key, 'test')).not.toBeNull();
      for (const key of accounts.slice(0, 20)) expect(dictLookupRoot(dict, 256, key ^ 1n, 'test')).toBeNull();
    });

    it('dictNearestRoot agrees with a sorted key list in both directions, with and without equality', () => {
      const probes = [
        0n,
        (1n << 256n) - 1n,
        ...accounts.slice(0, 30),
        ...accounts.slice(0, 30).map((k) => k + 1n),
        ...accounts.slice(0, 30).map((k) => k - 1n),
      ];
      for (const probe of probes) {
        for (const next of [true, false]) {
          for (const allowEq of [true, false]) {
            const want = next
              ? accounts.find((k) => (allowEq ? k >= probe : k > probe))
              : [...accounts].reverse().find((k) => (allowEq ? k <= probe : k < probe));
            const got = dictNearestRoot(dict, 256, probe, next, allowEq, 'test');
            expect(got?.key).toBe(want);
          }
        }
      }
    });

    it('a lookup touches only its path: the proof of one key is a small part of the dictionary', () => {
      const usage = trackCellUsage(dict);
      expect(dictLookupRoot(usage.root, 256, accounts[100] as bigint, 'test')).not.toBeNull();
      const proof = buildMerkleProof(dict, usage.visited);
      expect(usage.visited.size).toBeLessThan(20);
      expect(proof.refs[0]?.hash(0).equals(dict.hash(0))).toBe(true);
    });

    it('a pruned branch on the path is 651: the node does not hold that part', () => {
      const usage = trackCellUsage(dict);
      dictLookupRoot(usage.root, 256, accounts[0] as bigint, 'test');
      const partial = buildMerkleProof(dict, usage.visited).refs[0] as Cell;
      expect(dictLookupRoot(partial, 256, accounts[0] as bigint, 'test')).not.toBeNull();
      expect(() => dictLookupRoot(partial, 256, accounts[accounts.length - 1] as bigint, 'accounts')).toThrow(
        expect.objectContaining({ liteCode: 651, message: 'accounts is not known to this node (pruned)' }),
      );
    });
  },
);

describe.skipIf(!hasVectors)('findShardLeaf on a real shard table (private network masterchain block 200)', () => {
  let shards: ReturnType<typeof listShards> = [];
  let shardHashes: Cell;
  beforeAll(() => {
    const root = createPrivateNetVectorChain().find(-1, 200).root;
    shards = listShards(loadBlockCell(root).extra.custom?.shardHashes as never);
    const s = ((root.refs[3] as Cell).refs[3] as Cell).beginParse();
    s.skip(16 + 1);
    expect(s.loadBit()).toBe(true);
    shardHashes = s.loadRef();
  });

  it('every shard is found exactly, and an account prefix inside it finds it too', () => {
    expect(shards.length).toBeGreaterThan(1);
    for (const sh of shards) {
      const exact = findShardLeaf(shardHashes, 0, sh.shard, true, 'test');
      expect(exact?.shard).toBe(sh.shard);
      const inside = findShardLeaf(shardHashes, 0, sh.shard | 1n, false, 'test');
      expect(inside?.shard).toBe(sh.shard);
      expect(inside?.descr.loadUint(4)).toBeGreaterThanOrEqual(0xa);
    }
  });

  it('the whole workchain is not one leaf; the masterchain and unknown workchains have none', () => {
    expect(findShardLeaf(shardHashes, 0, 0x8000000000000000n, false, 'test')).toBeNull();
    expect(findShardLeaf(shardHashes, 7, 0x8000000000000000n, false, 'test')).toBeNull();
    const sh = shards[0] as (typeof shards)[number];
    // A shard below a leaf: not exact, but contained.
    const child = sh.shard - ((sh.shard & -sh.shard) >> 1n);
    expect(findShardLeaf(shardHashes, 0, child, true, 'test')).toBeNull();
    expect(findShardLeaf(shardHashes, 0, child, false, 'test')?.shard).toBe(sh.shard);
  });
});
