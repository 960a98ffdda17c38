// block.tlb:569-572
//   counters#_ last_updated:uint32 total:uint64 cnt2048:uint64 cnt65536:uint64 = Counters;
//   creator_info#4 mc_blocks:Counters shard_blocks:Counters = CreatorStats;
//   block_create_stats#17 counters:(HashmapE 256 CreatorStats) = BlockCreateStats;
//   block_create_stats_ext#34 counters:(HashmapAugE 256 CreatorStats uint32) = BlockCreateStats;
//
// Mainnet states carry block_create_stats#17 (the node writes only that tag). The _ext form is read and
// re-encoded as it arrived; its augmentation rule is not in block.tlb, so there is no builder for it.
import type { Builder, Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { decoding, expectTag } from '../block/codec-util.ts';
import type { AugDictCodec } from '../dict/index.ts';
import {
  type AugDictRoot,
  augDictEntries,
  buildDictRoot,
  type DictEntries,
  type DictRoot,
  dictEntries,
  loadAugDictRoot,
  loadDictRoot,
  storeAugDictRoot,
  storeDictRoot,
} from './dict-root.ts';

export interface Counters {
  lastUpdated: number;
  total: bigint;
  cnt2048: bigint;
  cnt65536: bigint;
}

export function loadCounters(s: Slice): Counters {
  return decoding('Counters', () => ({
    lastUpdated: s.loadUint(32),
    total: s.loadUintBig(64),
    cnt2048: s.loadUintBig(64),
    cnt65536: s.loadUintBig(64),
  }));
}

export function storeCounters(v: Counters): (b: Builder) => void {
  return (b) => {
    b.storeUint(v.lastUpdated, 32).storeUint(v.total, 64).storeUint(v.cnt2048, 64).storeUint(v.cnt65536, 64);
  };
}

export interface CreatorStats {
  mcBlocks: Counters;
  shardBlocks: Counters;
}

export function loadCreatorStats(s: Slice): CreatorStats {
  return decoding('CreatorStats', () => {
    expectTag(s, 'CreatorStats', 0x4, 4);
    return { mcBlocks: loadCounters(s), shardBlocks: loadCounters(s) };
  });
}

export function storeCreatorStats(v: CreatorStats): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x4, 4).store(storeCounters(v.mcBlocks)).store(storeCounters(v.shardBlocks));
  };
}

export type BlockCreateStats =
  | { kind: 'block_create_stats'; counters: DictRoot }
  | { kind: 'block_create_stats_ext'; counters: AugDictRoot<number> };

function loadUint32(s: Slice): number {
  return s.loadUint(32);
}

function storeUint32(v: number): (b: Builder) => void {
  return (b) => {
    b.storeUint(v, 32);
  };
}

export function loadBlockCreateStats(s: Slice): BlockCreateStats {
  return decoding('BlockCreateStats', () => {
    const tag = s.loadUint(8);
    if (tag === 0x17) return { kind: 'block_create_stats', counters: loadDictRoot(s) };
    if (tag === 0x34) return { kind: 'block_create_stats_ext', counters: loadAugDictRoot(s, loadUint32) };
    throw new CodecError(`BlockCreateStats: expected tag 0x17 or 0x34, got 0x${tag.toString(16)}`);
  });
}

export function storeBlockCreateStats(v: BlockCreateStats): (b: Builder) => void {
  return (b) => {
    if (v.kind === 'block_create_stats') b.storeUint(0x17, 8).store(storeDictRoot(v.counters));
    else b.storeUint(0x34, 8).store(storeAugDictRoot(v.counters, storeUint32));
  };
}

const creatorStatsExtCodec: AugDictCodec<CreatorStats, number> = {
  loadValue: loadCreatorStats,
  storeValue: storeCreatorStats,
  loadExtra: loadUint32,
  storeExtra: storeUint32,
  combine: () => {
    throw new CodecError('BlockCreateStats: block_create_stats_ext has no known augmentation rule to build forks');
  },
  empty: () => 0,
};

/** The stats of every block creator present (keyed by public key); `pruned` counts subtrees a proof left out. */
export function creatorStatsEntries(v: BlockCreateStats): DictEntries<CreatorStats> {
  return decoding('BlockCreateStats', () => {
    if (v.kind === 'block_create_stats') return dictEntries(v.counters, 256, loadCreatorStats);
    const d = augDictEntries(v.counters, 256, creatorStatsExtCodec);
    return { entries: d.entries.map(({ key, value }) => ({ key, value })), pruned: d.pruned };
  });
}

/** block_create_stats#17 from entries. */
export function buildBlockCreateStats(entries: Array<{ key: bigint; value: CreatorStats }>): BlockCreateStats {
  return { kind: 'block_create_stats', counters: buildDictRoot(entries, 256, storeCreatorStats) };
}
