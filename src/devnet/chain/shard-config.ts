// The masterchain's shard configuration (ShardHashes) as the mc collator updates it: a new workchain
// (ShardConfig::new_workchain), a shard's new top block (McShardHash::from_block, update_shard_block_info), and
// the per-block pass over every shard (Collator::update_one_shard: split/merge schedules, catchain seqnos).
import type { CurrencyCollection } from '@ton/core';
import { CollateError } from '../../common/errors.ts';
import {
  type BinTree,
  lowerBit,
  MASTER_SHARD,
  type ShardDescr,
  type ShardHashes,
  shardChild,
  shardIsAncestor,
  shardPrefixLength,
  type WorkchainDescr,
} from '../../ton/index.ts';
import { splitMergeTimings } from './config-view.ts';

export interface ShardLeaf {
  workchain: number;
  shard: bigint;
  descr: ShardDescr;
}

/** ShardConfig::new_workchain: the zero state as the workchain's first top (tag shard_descr#b, as the node writes it). */
export function newWorkchainDescr(regMcSeqno: number, rootHash: Buffer, fileHash: Buffer): ShardDescr {
  return {
    kind: 'shard_descr',
    seqNo: 0,
    regMcSeqno,
    startLt: 0n,
    endLt: 0n,
    rootHash,
    fileHash,
    beforeSplit: false,
    beforeMerge: false,
    wantSplit: false,
    wantMerge: false,
    nxCcUpdated: false,
    flags: 0,
    nextCatchainSeqno: 0,
    nextValidatorShard: MASTER_SHARD,
    minRefMcSeqno: 0xffffffff,
    genUtime: 0,
    splitMergeAt: { kind: 'fsm_none' },
    feesCollected: { coins: 0n },
    fundsCreated: { coins: 0n },
  };
}

export interface BlockFacts {
  seqNo: number;
  startLt: bigint;
  endLt: bigint;
  rootHash: Buffer;
  fileHash: Buffer;
  beforeSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  genCatchainSeqno: number;
  minRefMcSeqno: number;
  genUtime: number;
  feesCollected: CurrencyCollection;
  fundsCreated: CurrencyCollection;
}

/** McShardHash::from_block + set_reg_mc_seqno (McShardHash::pack always writes shard_descr_new#a). */
export function descrFromBlock(shard: bigint, b: BlockFacts, regMcSeqno: number): ShardDescr {
  return {
    kind: 'shard_descr_new',
    seqNo: b.seqNo,
    regMcSeqno,
    startLt: b.startLt,
    endLt: b.endLt,
    rootHash: b.rootHash,
    fileHash: b.fileHash,
    beforeSplit: b.beforeSplit,
    beforeMerge: false,
    wantSplit: b.wantSplit,
    wantMerge: b.wantMerge,
    nxCcUpdated: false,
    flags: 0,
    nextCatchainSeqno: b.genCatchainSeqno,
    nextValidatorShard: shard,
    minRefMcSeqno: b.minRefMcSeqno,
    genUtime: b.genUtime,
    splitMergeAt: { kind: 'fsm_none' },
    feesCollected: b.feesCollected,
    fundsCreated: b.fundsCreated,
  };
}

export function leavesOf(h: ShardHashes): ShardLeaf[] {
  const out: ShardLeaf[] = [];
  const walk = (workchain: number, t: BinTree<ShardDescr>, shard: bigint) => {
    if (t.kind === 'bt_leaf') out.push({ workchain, shard, descr: t.leaf });
    else {
      walk(workchain, t.left, shardChild(shard, false));
      walk(workchain, t.right, shardChild(shard, true));
    }
  };
  for (const [wc, tree] of h) walk(wc, tree, MASTER_SHARD);
  return out;
}

/** The BinTree of one workchain from its leaves (which must cover the workchain exactly). */
function treeOf(leaves: ShardLeaf[], shard: bigint): BinTree<ShardDescr> {
  const here = leaves.find((l) => l.shard === shard);
  if (here) return { kind: 'bt_leaf', leaf: here.descr };
  if (lowerBit(shard) === 1n || !leaves.some((l) => shardIsAncestor(shard, l.shard))) {
    throw new CollateError(`shard configuration does not cover shard ${shard.toString(16)}`);
  }
  return {
    kind: 'bt_fork',
    left: treeOf(leaves, shardChild(shard, false)),
    right: treeOf(leaves, shardChild(shard, true)),
  };
}

export function hashesOf(leaves: ShardLeaf[]): ShardHashes {
  const out: ShardHashes = new Map();
  const wcs = [...new Set(leaves.map((l) => l.workchain))].sort((a, b) => a - b);
  for (const wc of wcs)
    out.set(
      wc,
      treeOf(
        leaves.filter((l) => l.workchain === wc),
        MASTER_SHARD,
      ),
    );
  return out;
}

function fsmEnd(d: ShardDescr): number {
  const f = d.splitMergeAt;
  if (f.kind === 'fsm_split') return f.splitUtime + f.interval;
  if (f.kind === 'fsm_merge') return f.mergeUtime + f.interval;
  return 0;
}

function fsmStart(d: ShardDescr): number {
  const f = d.splitMergeAt;
  return f.kind === 'fsm_split' ? f.splitUtime : f.kind === 'fsm_merge' ? f.mergeUtime : 0;
}

export interface UpdateShardsOpts {
  now: number;
  updateCc: boolean;
  workchains: Map<number, WorkchainDescr>;
  /** The devnet's fixed layout: its shards are never scheduled to merge. */
  layout?: readonly bigint[];
}

/**
 * Collator::update_one_shard over every leaf (sibling = the leaf next to it, before its own update), returning
 * the new leaves; a changed leaf is re-packed as shard_descr_new, an unchanged one keeps its encoding.
 */
export function updateShards(leaves: ShardLeaf[], o: UpdateShardsOpts): ShardLeaf[] {
  return leaves.map((leaf) => {
    const sibShard = leaf.shard ^ (lowerBit(leaf.shard) << 1n);
    const sib =
      leaf.shard === MASTER_SHARD
        ? undefined
        : leaves.find((l) => l.workchain === leaf.workchain && l.shard === sibShard)?.descr;
    const d: ShardDescr = { ...leaf.descr };
    let changed = false;
    const oldBeforeMerge = d.beforeMerge;
    d.beforeMerge = false;
    if (d.splitMergeAt.kind !== 'fsm_none' && (o.now >= fsmEnd(d) || d.beforeSplit)) {
      d.splitMergeAt = { kind: 'fsm_none' };
      changed = true;
    } else if (d.splitMergeAt.kind === 'fsm_merge' && (!sib || sib.beforeSplit)) {
      d.splitMergeAt = { kind: 'fsm_none' };
      changed = true;
    }
    const wc = o.workchains.get(leaf.workchain);
    if (wc && !d.beforeSplit) {
      const depth = shardPrefixLength(leaf.shard);
      const t = splitMergeTimings(wc);
      const pinned = o.layout?.includes(leaf.shard) ?? false;
      if (
        d.splitMergeAt.kind === 'fsm_none' &&
        (d.wantSplit || depth < wc.minSplit) &&
        depth < wc.maxSplit &&
        depth < 60
      ) {
        d.splitMergeAt = { kind: 'fsm_split', splitUtime: o.now + t.delay, interval: t.interval };
        changed = true;
      } else if (
        !pinned &&
        d.splitMergeAt.kind === 'fsm_none' &&
        depth > wc.minSplit &&
        (d.wantMerge || depth > wc.maxSplit) &&
        sib &&
        !sib.beforeSplit &&
        sib.splitMergeAt.kind === 'fsm_none' &&
        (sib.wantMerge || depth > wc.maxSplit)
      ) {
        d.splitMergeAt = { kind: 'fsm_merge', mergeUtime: o.now + t.delay, interval: t.interval };
        changed = true;
      } else if (
        !pinned &&
        d.splitMergeAt.kind === 'fsm_merge' &&
        depth > wc.minSplit &&
        sib &&
        !sib.beforeSplit &&
        sib.splitMergeAt.kind === 'fsm_merge' &&
        o.now >= fsmStart(d) &&
        o.now >= fsmStart(sib) &&
        (depth > wc.maxSplit || (d.wantMerge && sib.wantMerge))
      ) {
        d.beforeMerge = true;
        changed = true;
      }
    }
    let updateCc = o.updateCc;
    if (d.beforeMerge !== oldBeforeMerge) {
      updateCc ||= oldBeforeMerge;
      changed = true;
    }
    if (updateCc) {
      d.nextCatchainSeqno++;
      changed = true;
    }
    if (!changed) return leaf;
    return { ...leaf, descr: { ...d, kind: 'shard_descr_new' } };
  });
}

/** ShardConfig::get_shard_cc_seqno: the catchain seqno of the group creating blocks of `shard`. */
export function shardCcSeqno(leaves: readonly ShardLeaf[], workchain: number, shard: bigint): number {
  const anc = leaves.find((l) => l.workchain === workchain && shardIsAncestor(l.shard, shard));
  if (anc) return anc.descr.nextCatchainSeqno;
  const kids = leaves.filter((l) => l.workchain === workchain && shardIsAncestor(shard, l.shard));
  const left = kids.find((l) => l.shard === shardChild(shard, false));
  const right = kids.find((l) => l.shard === shardChild(shard, true));
  if (!left || !right) throw new CollateError(`no catchain seqno for shard ${workchain}:${shard.toString(16)}`);
  return Math.max(left.descr.nextCatchainSeqno, right.descr.nextCatchainSeqno) + 1;
}
