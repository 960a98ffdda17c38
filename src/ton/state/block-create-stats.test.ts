import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors } from '../../../test/support/vectors.ts';
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

describe.skipIf(!hasVectors)('BlockCreateStats in the states after real masterchain blocks', () => {
  const cases = hasVectors
    ? realStates().flatMap((st) => {
        if (!st.block || st.block.workchain !== -1 || st.side !== 'new') return [];
        const s = loadShardStateUnsplit(st.cell.beginParse());
        if (s.custom === null || isPruned(s.custom) || isPruned(s.custom.r1)) throw new Error('expected McStateExtra');
        return [{ st, stats: s.custom.r1.blockCreateStats as BlockCreateStats, block: st.block }];
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
