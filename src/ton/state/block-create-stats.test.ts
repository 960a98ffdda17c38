import { type Builder, beginCell, type Cell, type Slice } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors } from '../../../test/helpers/vectors.ts';
import { loadBlockInfo } from '../block/block-info.ts';
import {
  type BlockCreateStats,
  buildBlockCreateStats,
  type CreatorStats,
  creatorStatsEntries,
  loadBlockCreateStats,
  loadCreatorStats,
  storeBlockCreateStats,
  storeCreatorStats,
} from './block-create-stats.ts';
import { buildDictRoot, dictEntries } from './dict-root.ts';
import { isPruned } from './pruned.ts';
import { loadShardStateUnsplit } from './shard-state.ts';
import { augNodes, cellOf, realStates } from './vectors.test-util.ts';

/**
 * The block_create_stats part of a real masterchain state cell, cut out by reading block.tlb:574-583 by hand
 * (no codec of ours): ShardStateUnsplit's 4th ref is McStateExtra (#cc26 shard_hashes:(Maybe ^…)
 * config_addr:bits256 config:^… ^[ flags:(## 16) validator_info:(uint32 uint32 Bool)
 * prev_blocks:(HashmapAugE 32 … KeyMaxLt) after_key_block:Bool last_key_block:(Maybe ExtBlkRef)
 * block_create_stats:(flags . 0)?BlockCreateStats ] …); the part is what is left of that ^[ … ] cell.
 */
function statsPart(state: Cell): Slice {
  const extra = state.refs[3]!.beginParse();
  expect(extra.loadUint(16)).toBe(0xcc26);
  extra.loadMaybeRef();
  extra.skip(256);
  extra.loadRef();
  const r1 = extra.loadRef().beginParse();
  expect(r1.loadUint(16) & 1).toBe(1);
  r1.skip(32 + 32 + 1);
  r1.loadMaybeRef();
  r1.skip(1 + 64);
  r1.skip(1);
  if (r1.loadBit()) r1.skip(64 + 32 + 256 + 256);
  return r1;
}

describe.skipIf(!hasVectors)('BlockCreateStats in the states after real masterchain blocks', () => {
  const cases = hasVectors
    ? realStates().flatMap((st) => {
        if (!st.block || st.block.workchain !== -1 || st.side !== 'new') return [];
        const s = loadShardStateUnsplit(st.cell.beginParse());
        if (s.custom === null || isPruned(s.custom) || isPruned(s.custom.r1)) throw new Error('expected McStateExtra');
        return [
          {
            st,
            stats: s.custom.r1.blockCreateStats as BlockCreateStats,
            block: st.block,
            original: statsPart(st.cell),
          },
        ];
      })
    : [];

  it('counts the block for its creator, at the block’s time', () => {
    expect(cases.length).toBe(3);
    for (const { stats, block } of cases) {
      // BlockExtra: block_extra#4a33f6fd in_msg_descr out_msg_descr account_blocks rand_seed created_by …
      const extra = block.blockRoot.refs[3]!.beginParse();
      expect(extra.loadUint(32)).toBe(0x4a33f6fd);
      extra.skip(256);
      const createdBy = extra.loadUintBig(256);
      const d = creatorStatsEntries(stats);
      expect(d.pruned).toBeGreaterThan(0);
      const mine = d.entries.find((e) => e.key === createdBy);
      if (!mine) throw new Error('the creator’s counters are missing');
      expect(mine.value.mcBlocks.lastUpdated).toBe(loadBlockInfo(block.blockRoot.refs[0]!.beginParse()).genUtime);
      expect(mine.value.mcBlocks.total).toBeGreaterThan(0n);
    }
  });

  it('every present CreatorStats re-encodes, and every whole subtree rebuilds from its entries', () => {
    let leaves = 0;
    let rebuilt = 0;
    for (const { stats } of cases) {
      if (stats.kind !== 'block_create_stats' || stats.counters === null) throw new Error('expected #17 with counters');
      for (const node of augNodes(stats.counters, 256)) {
        if (node.isLeaf) {
          const s = node.afterLabel.clone();
          const bits = s.clone();
          const value = loadCreatorStats(s);
          expect(cellOf(storeCreatorStats(value)).bits.equals(bits.loadBits(bits.remainingBits))).toBe(true);
          leaves++;
        } else if (node.cell.level() === 0) {
          const d = dictEntries(node.cell, node.keyBits, loadCreatorStats);
          expect(buildDictRoot(d.entries, node.keyBits, storeCreatorStats)!.hash()).toEqual(node.cell.hash());
          rebuilt++;
        }
      }
      const cell = cellOf(storeBlockCreateStats(stats));
      expect(cellOf(storeBlockCreateStats(loadBlockCreateStats(cell.beginParse()))).hash()).toEqual(cell.hash());
    }
    // Decoded straight from the state cell's own bits, the stats write back exactly those bits and refs.
    expect(cases.length).toBeGreaterThan(0);
    for (const { original, stats } of cases) {
      const part = beginCell().storeSlice(original.clone()).endCell();
      expect(part.refs.length).toBe(1); // the counters dictionary's root
      // What the state decoder produced, re-encoded, is that part of the state cell.
      expect(cellOf(storeBlockCreateStats(stats)).hash().toString('hex')).toBe(part.hash().toString('hex'));
      const again = cellOf(storeBlockCreateStats(loadBlockCreateStats(original.clone())));
      expect(again.bits.equals(part.bits)).toBe(true);
      expect(again.hash().toString('hex')).toBe(part.hash().toString('hex'));
    }
    expect(leaves).toBeGreaterThanOrEqual(10);
    expect(rebuilt).toBeGreaterThanOrEqual(1);
  });
});

describe('BlockCreateStats codec', () => {
  const counters = (n: number) => ({ lastUpdated: n, total: BigInt(n), cnt2048: 2n, cnt65536: 3n });
  const stats = (n: number): CreatorStats => ({ mcBlocks: counters(n), shardBlocks: counters(n + 1) });

  it('builds and reads back block_create_stats#17', () => {
    const v = buildBlockCreateStats([
      { key: 5n, value: stats(1) },
      { key: 1n << 200n, value: stats(2) },
    ]);
    const back = loadBlockCreateStats(cellOf(storeBlockCreateStats(v)).beginParse());
    expect(creatorStatsEntries(back).entries.map((e) => [e.key, e.value.shardBlocks.lastUpdated])).toEqual([
      [5n, 2],
      [1n << 200n, 3],
    ]);
  });

  it('reads block_create_stats_ext#34 written field by field from block.tlb, and writes it back', () => {
    // counters#_ last_updated:uint32 total:uint64 cnt2048:uint64 cnt65536:uint64 = Counters;
    const counters = (b: Builder, n: number) =>
      b
        .storeUint(1_700_000_000 + n, 32)
        .storeUint(1000 + n, 64)
        .storeUint(n, 64)
        .storeUint(2 * n, 64);
    // creator_info#4 mc_blocks:Counters shard_blocks:Counters = CreatorStats;
    const creator = (b: Builder, n: number) => counters(counters(b.storeUint(0x4, 4), n), n + 1);
    // A leaf under the root fork has 255 key bits left, all zero: ahm_edge label:hml_same$11 v:$0
    // n:(#<= 255) = 255 in 8 bits, then ahmn_leaf extra:uint32 value:CreatorStats.
    const leaf = (extra: number, n: number) =>
      creator(beginCell().storeUint(0b11, 2).storeBit(false).storeUint(255, 8).storeUint(extra, 32), n).endCell();
    // The root: label hml_short$0 len:(Unary ~0) = $0 (empty), ahmn_fork left:^… right:^… extra:uint32.
    const root = beginCell().storeBit(false).storeBit(false).storeRef(leaf(11, 1)).storeRef(leaf(22, 2));
    root.storeUint(33, 32);
    // block_create_stats_ext#34 counters:(HashmapAugE 256 CreatorStats uint32): ahme_root$1 root:^… extra:uint32.
    const cell = beginCell().storeUint(0x34, 8).storeBit(true).storeRef(root.endCell()).storeUint(44, 32).endCell();

    const v = loadBlockCreateStats(cell.beginParse());
    if (v.kind !== 'block_create_stats_ext') throw new Error(`expected block_create_stats_ext, got ${v.kind}`);
    expect(v.counters.extra).toBe(44);
    expect(v.counters.root?.hash().toString('hex')).toBe(cell.refs[0]!.hash().toString('hex'));
    const d = creatorStatsEntries(v);
    expect(d.pruned).toBe(0);
    // The values written above, field for field.
    const want = (n: number) => ({
      lastUpdated: 1_700_000_000 + n,
      total: BigInt(1000 + n),
      cnt2048: BigInt(n),
      cnt65536: BigInt(2 * n),
    });
    expect(d.entries).toEqual([
      { key: 0n, value: { mcBlocks: want(1), shardBlocks: want(2) } },
      { key: 1n << 255n, value: { mcBlocks: want(2), shardBlocks: want(3) } },
    ]);
    const again = cellOf(storeBlockCreateStats(v));
    expect(again.equals(cell)).toBe(true);

    // ahme_empty$0 extra:uint32
    const empty = beginCell().storeUint(0x34, 8).storeBit(false).storeUint(7, 32).endCell();
    const e = loadBlockCreateStats(empty.beginParse());
    expect(e).toEqual({ kind: 'block_create_stats_ext', counters: { root: null, extra: 7 } });
    expect(creatorStatsEntries(e)).toEqual({ entries: [], pruned: 0 });
    expect(cellOf(storeBlockCreateStats(e)).equals(empty)).toBe(true);
  });

  it('throws CodecError naming the type on a wrong tag', () => {
    expect(() => loadBlockCreateStats(beginCell().storeUint(0x18, 8).storeBit(false).endCell().beginParse())).toThrow(
      /BlockCreateStats: expected tag 0x17 or 0x34, got 0x18/,
    );
    const bad = beginCell()
      .storeUint(0x5, 4)
      .store(storeCreatorStats(stats(1)))
      .endCell()
      .beginParse();
    expect(() => loadCreatorStats(bad)).toThrow(/CreatorStats: expected tag 0x4, got 0x5/);
  });
});
