// block.tlb:517-545
//   fsm_none$0 = FutureSplitMerge;
//   fsm_split$10 split_utime:uint32 interval:uint32 = FutureSplitMerge;
//   fsm_merge$11 merge_utime:uint32 interval:uint32 = FutureSplitMerge;
//   shard_descr#b seq_no:uint32 reg_mc_seqno:uint32 start_lt:uint64 end_lt:uint64 root_hash:bits256 file_hash:bits256
//     before_split:Bool before_merge:Bool want_split:Bool want_merge:Bool nx_cc_updated:Bool flags:(## 3) { flags = 0 }
//     next_catchain_seqno:uint32 next_validator_shard:uint64 min_ref_mc_seqno:uint32 gen_utime:uint32
//     split_merge_at:FutureSplitMerge fees_collected:CurrencyCollection funds_created:CurrencyCollection = ShardDescr;
//   shard_descr_new#a (the same fields) ^[ fees_collected:CurrencyCollection funds_created:CurrencyCollection ] = ShardDescr;
//   _ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes;
import {
  type Builder,
  beginCell,
  type Cell,
  CellType,
  type CurrencyCollection,
  Dictionary,
  loadCurrencyCollection,
  type Slice,
  storeCurrencyCollection,
} from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { type AugDictCodec, loadHashmapAug } from '../dict/aug-dict.ts';
import { type BinTree, binTreeLeaves, binTreePresentLeaves, loadBinTreeCell, storeBinTree } from '../dict/bin-tree.ts';
import { decoding } from './codec-util.ts';

export type FutureSplitMerge =
  | { kind: 'fsm_none' }
  | { kind: 'fsm_split'; splitUtime: number; interval: number }
  | { kind: 'fsm_merge'; mergeUtime: number; interval: number };

export function loadFutureSplitMerge(s: Slice): FutureSplitMerge {
  if (!s.loadBit()) return { kind: 'fsm_none' };
  if (!s.loadBit()) return { kind: 'fsm_split', splitUtime: s.loadUint(32), interval: s.loadUint(32) };
  return { kind: 'fsm_merge', mergeUtime: s.loadUint(32), interval: s.loadUint(32) };
}

export function storeFutureSplitMerge(v: FutureSplitMerge): (b: Builder) => void {
  return (b) => {
    if (v.kind === 'fsm_none') b.storeBit(false);
    else if (v.kind === 'fsm_split') b.storeUint(0b10, 2).storeUint(v.splitUtime, 32).storeUint(v.interval, 32);
    else b.storeUint(0b11, 2).storeUint(v.mergeUtime, 32).storeUint(v.interval, 32);
  };
}

export interface ShardDescr {
  kind: 'shard_descr' | 'shard_descr_new';
  seqNo: number;
  regMcSeqno: number;
  startLt: bigint;
  endLt: bigint;
  rootHash: Buffer;
  fileHash: Buffer;
  beforeSplit: boolean;
  beforeMerge: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  nxCcUpdated: boolean;
  flags: number;
  nextCatchainSeqno: number;
  nextValidatorShard: bigint;
  minRefMcSeqno: number;
  genUtime: number;
  splitMergeAt: FutureSplitMerge;
  feesCollected: CurrencyCollection;
  fundsCreated: CurrencyCollection;
}

export function loadShardDescr(s: Slice): ShardDescr {
  const tag = s.loadUint(4);
  if (tag !== 0xa && tag !== 0xb)
    throw new CodecError(`ShardDescr: expected tag 0xa or 0xb, got 0x${tag.toString(16)}`);
  const d = {
    kind: tag === 0xb ? 'shard_descr' : 'shard_descr_new',
    seqNo: s.loadUint(32),
    regMcSeqno: s.loadUint(32),
    startLt: s.loadUintBig(64),
    endLt: s.loadUintBig(64),
    rootHash: s.loadBuffer(32),
    fileHash: s.loadBuffer(32),
    beforeSplit: s.loadBit(),
    beforeMerge: s.loadBit(),
    wantSplit: s.loadBit(),
    wantMerge: s.loadBit(),
    nxCcUpdated: s.loadBit(),
    flags: s.loadUint(3),
    nextCatchainSeqno: s.loadUint(32),
    nextValidatorShard: s.loadUintBig(64),
    minRefMcSeqno: s.loadUint(32),
    genUtime: s.loadUint(32),
    splitMergeAt: loadFutureSplitMerge(s),
  } as const;
  if (d.flags !== 0) throw new CodecError(`ShardDescr: flags must be 0, got ${d.flags}`);
  const fees = tag === 0xb ? s : s.loadRef().beginParse();
  const feesCollected = loadCurrencyCollection(fees);
  const fundsCreated = loadCurrencyCollection(fees);
  if (tag === 0xa) fees.endParse();
  return { ...d, feesCollected, fundsCreated };
}

export function storeShardDescr(d: ShardDescr): (b: Builder) => void {
  return (b) => {
    b.storeUint(d.kind === 'shard_descr' ? 0xb : 0xa, 4)
      .storeUint(d.seqNo, 32)
      .storeUint(d.regMcSeqno, 32)
      .storeUint(d.startLt, 64)
      .storeUint(d.endLt, 64)
      .storeBuffer(d.rootHash, 32)
      .storeBuffer(d.fileHash, 32)
      .storeBit(d.beforeSplit)
      .storeBit(d.beforeMerge)
      .storeBit(d.wantSplit)
      .storeBit(d.wantMerge)
      .storeBit(d.nxCcUpdated)
      .storeUint(d.flags, 3)
      .storeUint(d.nextCatchainSeqno, 32)
      .storeUint(d.nextValidatorShard, 64)
      .storeUint(d.minRefMcSeqno, 32)
      .storeUint(d.genUtime, 32)
      .store(storeFutureSplitMerge(d.splitMergeAt));
    const fees = (x: Builder) =>
      x.store(storeCurrencyCollection(d.feesCollected)).store(storeCurrencyCollection(d.fundsCreated));
    if (d.kind === 'shard_descr') fees(b);
    else b.storeRef(fees(beginCell()));
  };
}

/** ShardHashes: per workchain, the binary tree of its shards' latest descriptions. */
export type ShardHashes = Map<number, BinTree<ShardDescr>>;

const shardTreeValue = {
  serialize: (tree: BinTree<ShardDescr>, b: Builder) => {
    b.storeRef(beginCell().store(storeBinTree(tree, storeShardDescr)));
  },
  parse: (s: Slice) => loadBinTreeCell(s.loadRef(), loadShardDescr),
};

/** ShardHashes whole; a subtree a Merkle proof pruned is a CodecError (see `listShardsPresent`). */
export function loadShardHashes(s: Slice): ShardHashes {
  return decoding('ShardHashes', () => {
    const dict = s.loadDict(Dictionary.Keys.Int(32), shardTreeValue);
    return new Map(dict.keys().map((wc) => [wc, dict.get(wc)!]));
  });
}

export function storeShardHashes(h: ShardHashes): (b: Builder) => void {
  return (b) => {
    const dict = Dictionary.empty(Dictionary.Keys.Int(32), shardTreeValue);
    for (const [wc, tree] of h) dict.set(wc, tree);
    b.storeDict(dict);
  };
}

/**
 * The shard id (64-bit, with its terminating 1-bit) of a leaf at `path` in a workchain's shard tree:
 * the root is the whole workchain (0x8000000000000000), each left/right step fixes one more prefix bit.
 */
export function shardIdFromPath(path: boolean[]): bigint {
  let shard = 0n;
  for (let i = 0; i < path.length; i++) if (path[i]) shard |= 1n << BigInt(63 - i);
  return shard | (1n << BigInt(63 - path.length));
}

/** Every shard's description with its workchain and 64-bit shard id. */
export function listShards(h: ShardHashes): Array<{ workchain: number; shard: bigint; descr: ShardDescr }> {
  const out: Array<{ workchain: number; shard: bigint; descr: ShardDescr }> = [];
  for (const [workchain, tree] of h) {
    for (const { path, leaf } of binTreeLeaves(tree))
      out.push({ workchain, shard: shardIdFromPath(path), descr: leaf });
  }
  return out;
}

/** HashmapE 32 ^(BinTree ShardDescr) with no extra: the values are the trees' cells, read as they are. */
const shardTreeCells: AugDictCodec<Cell, undefined> = {
  loadValue: (s) => s.loadRef(),
  storeValue: () => () => {
    throw new CodecError('ShardHashes: the present-shards reader does not write');
  },
  loadExtra: () => undefined,
  storeExtra: () => () => {},
  combine: () => undefined,
  empty: () => undefined,
};

/**
 * The shards present in ShardHashes that may come from a Merkle proof (a liteserver's masterchain state
 * proof keeps the shard it is about and prunes the rest), like tonutils-go LoadShardsFromHashes with
 * skipPruned; `pruned` counts the subtrees (of the dictionary or of a shard tree) the proof left out.
 */
export function listShardsPresent(s: Slice): {
  shards: Array<{ workchain: number; shard: bigint; descr: ShardDescr }>;
  pruned: number;
} {
  return decoding('ShardHashes', () => {
    const out = { shards: [] as Array<{ workchain: number; shard: bigint; descr: ShardDescr }>, pruned: 0 };
    const root = s.loadMaybeRef();
    if (root === null) return out;
    if (root.isExotic && root.type === CellType.PrunedBranch) return { ...out, pruned: 1 };
    const dict = loadHashmapAug(root.beginParse(), 32, shardTreeCells);
    out.pruned += dict.pruned;
    for (const { key, value } of dict.entries) {
      const workchain = Number(BigInt.asIntN(32, key));
      const tree = binTreePresentLeaves(value, loadShardDescr);
      out.pruned += tree.pruned;
      for (const { path, leaf } of tree.leaves)
        out.shards.push({ workchain, shard: shardIdFromPath(path), descr: leaf });
    }
    return out;
  });
}
