import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors } from '../../../test/helpers/vectors.ts';
import { loadBlockInfo } from '../block/block-info.ts';
import { buildHashmapAug, loadHashmapAug, loadHmLabel, storeHmLabel } from '../dict/index.ts';
import type { McStateExtraR1 } from './mc-state-extra.ts';
import {
  buildOldMcBlocksInfo,
  combineKeyMaxLt,
  type KeyExtBlkRef,
  keyMaxLtOf,
  loadKeyExtBlkRef,
  loadKeyMaxLt,
  loadOldMcBlocksInfo,
  type OldMcBlocksInfo,
  oldMcBlocksInfoCodec,
  oldMcBlocksInfoEntries,
  storeKeyMaxLt,
  storeOldMcBlocksInfo,
} from './old-mc-blocks-info.ts';
import { isPruned } from './pruned.ts';
import { loadShardStateUnsplit } from './shard-state.ts';
import { augNodes, cellOf, nodeExtra, type RealState, realStates } from './vectors.test-util.ts';

function prevBlocksOf(st: RealState): OldMcBlocksInfo | null {
  const s = loadShardStateUnsplit(st.cell.beginParse());
  if (s.custom === null || isPruned(s.custom) || isPruned(s.custom.r1)) return null;
  return (s.custom.r1 as McStateExtraR1).prevBlocks;
}

describe.skipIf(!hasVectors)('OldMcBlocksInfo in real masterchain states', () => {
  const withPrev = hasVectors
    ? realStates().flatMap((st) => {
        if (st.block && st.block.workchain !== -1) return [];
        const p = prevBlocksOf(st);
        return p ? [{ st, prev: p }] : [];
      })
    : [];

  it('the state after a block lists the block before it, with the root hash its header names', () => {
    let checked = 0;
    for (const { st, prev } of withPrev) {
      if (!st.block || st.side !== 'new') continue;
      const info = loadBlockInfo(st.block.blockRoot.refs[0]!.beginParse());
      if (info.prevRef.kind !== 'prev_blk_info') throw new Error('masterchain blocks have one parent');
      const parent = info.prevRef.prev;
      const entry = oldMcBlocksInfoEntries(prev).entries.find((e) => e.key === BigInt(st.block!.seqno - 1));
      if (!entry) throw new Error(`${st.label}: no entry for the previous block`);
      expect(entry.value.blkRef.seqNo).toBe(parent.seqNo);
      expect(entry.value.blkRef.endLt).toBe(parent.endLt);
      expect(entry.value.blkRef.rootHash.toString('hex')).toBe(parent.rootHash.toString('hex'));
      expect(entry.value.blkRef.fileHash.toString('hex')).toBe(parent.fileHash.toString('hex'));
      // The newest block has the largest end_lt, so it is the root's max_end_lt.
      expect(prev.extra.maxEndLt).toBe(parent.endLt);
      expect(prev.extra.key).toBe(true);
      checked++;
    }
    expect(checked).toBe(3);
  });

  it('leaf extras come from their blocks; fork extras combine (key OR, max end_lt); forks re-encode', () => {
    let leaves = 0;
    let forks = 0;
    for (const { prev } of withPrev) {
      if (prev.root === null || prev.root.isExotic) continue;
      for (const node of augNodes(prev.root, 32)) {
        const s = node.afterLabel.clone();
        const stored = loadKeyMaxLt(s);
        if (node.isLeaf) {
          const value: KeyExtBlkRef = loadKeyExtBlkRef(s);
          expect(keyMaxLtOf(value)).toEqual(stored);
          leaves++;
          continue;
        }
        if (node.children.some((c) => c.isExotic)) continue;
        const [l, r] = node.children.map((c) => nodeExtra(c, node.n - 1, loadKeyMaxLt));
        const combined = combineKeyMaxLt(l!, r!);
        expect(combined).toEqual(stored);
        const label = loadHmLabel(node.cell.beginParse(), node.keyBits);
        const b = beginCell();
        storeHmLabel(b, label.len, label.bits, node.keyBits);
        b.storeRef(node.children[0]!).storeRef(node.children[1]!).store(storeKeyMaxLt(combined));
        expect(b.endCell().hash().toString('hex')).toBe(node.cell.hash().toString('hex'));
        forks++;
      }
    }
    expect(leaves).toBeGreaterThanOrEqual(5);
    expect(forks).toBeGreaterThanOrEqual(4);
  });

  it('the writer rebuilds every whole subtree from its entries', () => {
    let rebuilt = 0;
    for (const { prev } of withPrev) {
      if (prev.root === null || prev.root.isExotic) continue;
      for (const node of augNodes(prev.root, 32)) {
        if (node.isLeaf || node.cell.level() !== 0) continue;
        const dict = loadHashmapAug(node.cell.beginParse(), node.keyBits, oldMcBlocksInfoCodec);
        const built = buildHashmapAug(dict.entries, node.keyBits, oldMcBlocksInfoCodec);
        expect(built.cell.hash().toString('hex')).toBe(node.cell.hash().toString('hex'));
        rebuilt++;
      }
    }
    expect(rebuilt).toBeGreaterThanOrEqual(2);
  });
});

describe('OldMcBlocksInfo writer', () => {
  const ref = (seqNo: number, endLt: bigint, key: boolean): KeyExtBlkRef => ({
    key,
    blkRef: { endLt, seqNo, rootHash: Buffer.alloc(32, seqNo), fileHash: Buffer.alloc(32, seqNo + 1) },
  });

  it('builds a dictionary whose root extra says whether a key block is below and the largest end_lt', () => {
    const entries = [ref(1, 100n, false), ref(2, 300n, true), ref(3, 200n, false)].map((v) => ({
      key: BigInt(v.blkRef.seqNo),
      value: v,
      extra: keyMaxLtOf(v),
    }));
    const d = buildOldMcBlocksInfo(entries);
    expect(d.extra).toEqual({ key: true, maxEndLt: 300n });
    const back = loadOldMcBlocksInfo(cellOf(storeOldMcBlocksInfo(d)).beginParse());
    expect(oldMcBlocksInfoEntries(back).entries.map((e) => e.value.blkRef.seqNo)).toEqual([1, 2, 3]);
    expect(buildOldMcBlocksInfo([]).extra).toEqual({ key: false, maxEndLt: 0n });
  });

  it('throws CodecError naming KeyExtBlkRef on truncated data', () => {
    const short = beginCell().storeBit(true).storeUint(5, 64).endCell();
    expect(() => loadKeyExtBlkRef(short.beginParse())).toThrow(/^ExtBlkRef: |^KeyExtBlkRef: /);
  });
});
