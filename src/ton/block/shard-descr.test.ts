import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beginCell, Cell, CellType } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector, vectorPath } from '../../../test/helpers/vectors.ts';
import { CodecError } from '../../common/errors.ts';
import { binTreePresentLeaves, loadBinTreeCell } from '../dict/bin-tree.ts';
import { type Block, loadBlockCell } from './block.ts';
import {
  listShards,
  listShardsPresent,
  loadShardDescr,
  loadShardHashes,
  type ShardDescr,
  storeShardHashes,
} from './shard-descr.ts';

const hex = (b: Buffer) => b.toString('hex');

// xssnick/tonutils-go ton/block_test.go TestLoadShardsFromHashes: the cell is a ShardHashes dictionary root
// (Hashmap 32 ^(BinTree ShardDescr)) cut out of a proof; LoadShardsFromHashes(dict, skipPruned=true) returns
// exactly one shard, and with skipPruned=false it fails on the pruned branches.
describe.skipIf(!hasVectors)('ShardHashes from a proof (tonutils-go TestLoadShardsFromHashes)', () => {
  type V = { ids: { root_hash: string }; expected: Record<string, unknown>; boc_base64: string };
  const v = hasVectors ? loadVector<V>('liteserver', 'shard_hashes_dict_tonutils.json') : undefined;
  // tonutils-go writes a level mask of 0 above pruned branches; @ton/core recomputes it, as the node does.
  const root = () => Cell.fromBase64(v!.boc_base64);
  const hashmapE = () => beginCell().storeMaybeRef(root()).endCell().beginParse();

  it('is the dictionary the source names', () => {
    expect(hex(root().hash())).toBe(v!.ids.root_hash);
    expect(v!.expected).toEqual({ shards_with_skip_pruned: 1, error_without_skip_pruned: true });
  });

  it('skipping pruned branches: exactly the one shard tonutils-go finds', () => {
    const { shards, pruned } = listShardsPresent(hashmapE());
    expect(shards.length).toBe(v!.expected.shards_with_skip_pruned);
    expect(pruned).toBeGreaterThan(0);
    const [only] = shards;
    // The tree is fork(fork(fork(leaf, pruned), pruned), pruned) under workchain 0: the leaf is shard 0:1…
    expect(only!.workchain).toBe(0);
    expect(only!.shard).toBe(0x1000000000000000n);
    // McShardHash::from_block (crypto/block/mc-config.cpp) sets next_validator_shard to the shard itself.
    expect(only!.descr.nextValidatorShard).toBe(only!.shard);
    expect(only!.descr.startLt).toBeLessThan(only!.descr.endLt);
    // The same leaf through the BinTree reader: one leaf, three pruned subtrees.
    const dictValue = root().refs[0]!;
    const tree = binTreePresentLeaves(dictValue, loadShardDescr);
    expect(tree.leaves.map((l) => l.path)).toEqual([[false, false, false]]);
    expect(tree.pruned).toBe(pruned);
    expect(tree.leaves[0]!.leaf).toEqual(only!.descr);
  });

  it('reading it whole fails on the pruned branches (a CodecError, as tonutils-go returns an error)', () => {
    expect(v!.expected.error_without_skip_pruned).toBe(true);
    expect(() => loadShardHashes(hashmapE())).toThrowError(
      expect.objectContaining({
        code: 'TG_CODEC_INVALID',
        message: expect.stringMatching(/^BinTree: expected a subtree, got a pruned branch/),
      }),
    );
    expect(() => loadBinTreeCell(root().refs[0]!, loadShardDescr)).toThrow(CodecError);
  });

  it('a pruned dictionary root or tree root counts as one pruned subtree', () => {
    const prunedRoot = root().refs[0]!.refs[1]!;
    expect(prunedRoot.type).toBe(CellType.PrunedBranch);
    expect(listShardsPresent(beginCell().storeMaybeRef(prunedRoot).endCell().beginParse())).toEqual({
      shards: [],
      pruned: 1,
    });
    expect(binTreePresentLeaves(prunedRoot, loadShardDescr)).toEqual({ leaves: [], pruned: 1 });
    expect(listShardsPresent(beginCell().storeBit(false).endCell().beginParse())).toEqual({ shards: [], pruned: 0 });
  });
});

// Real node data: the node-db vectors' .pack files hold masterchain blocks and the shard blocks they
// committed (private network, see node-db/README.md), with file names (wc,shard,seqno):ROOT_HASH:FILE_HASH.
interface PackEntry {
  name: string;
  data: Buffer;
}

/** package header magic 0xae8fdd01, then entries: magic 0x1e8b, u16 name length, u32 data length (LE). */
function packEntries(file: string): PackEntry[] {
  const buf = readFileSync(vectorPath('node-db', file));
  expect(buf.readUInt32LE(0)).toBe(0xae8fdd01);
  const out: PackEntry[] = [];
  for (let off = 4; off < buf.length; ) {
    expect(buf.readUInt16LE(off)).toBe(0x1e8b);
    const nameLen = buf.readUInt16LE(off + 2);
    const dataLen = buf.readUInt32LE(off + 4);
    out.push({
      name: buf.subarray(off + 8, off + 8 + nameLen).toString('latin1'),
      data: buf.subarray(off + 8 + nameLen, off + 8 + nameLen + dataLen),
    });
    off += 8 + nameLen + dataLen;
  }
  return out;
}

describe.skipIf(!hasVectors)('ShardDescr in real masterchain blocks against the shard blocks they name', () => {
  const PACKS = ['archive.00000.pack', 'archive.00100.pack', 'archive.00200.pack'];
  const blocks = new Map<string, PackEntry>(); // by entry name
  const bySeqno = new Map<string, PackEntry>(); // by `wc:shard:seqno`
  if (hasVectors) {
    for (const e of PACKS.flatMap(packEntries)) {
      const m = /^block_\((-?\d+),([0-9a-f]{16}),(\d+)\):[0-9A-F]{64}:[0-9A-F]{64}$/i.exec(e.name);
      if (!m) continue;
      blocks.set(e.name, e);
      bySeqno.set(`${m[1]}:${m[2]!.toLowerCase()}:${m[3]}`, e);
    }
  }
  const decoded = new Map<PackEntry, { root: Cell; block: Block }>();
  const blockOf = (e: PackEntry) => {
    let d = decoded.get(e);
    if (!d) {
      const root = Cell.fromBoc(e.data)[0]!;
      d = { root, block: loadBlockCell(root) };
      decoded.set(e, d);
    }
    return d;
  };
  const masters = [...blocks.values()]
    .filter((e) => e.name.startsWith('block_(-1,'))
    .map((e) => blockOf(e).block)
    .sort((a, b) => a.info.seqNo - b.info.seqNo);
  const entryName = (wc: number, shard: bigint, d: ShardDescr) =>
    `block_(${wc},${shard.toString(16).padStart(16, '0')},${d.seqNo}):${hex(d.rootHash).toUpperCase()}:${hex(d.fileHash).toUpperCase()}`;

  it('every masterchain block’s shard_hashes re-encodes to its own cell', () => {
    // node-db/README.md: the packs hold masterchain blocks 1..264 (and the shard blocks they committed).
    expect(masters.map((b) => b.info.seqNo)).toEqual(Array.from({ length: 264 }, (_, i) => i + 1));
    for (const { extra } of masters) {
      const again = beginCell().store(storeShardHashes(extra.custom!.shardHashes)).endCell();
      const present = listShardsPresent(again.beginParse());
      expect(present.pruned).toBe(0);
      expect(present.shards).toEqual(listShards(extra.custom!.shardHashes));
    }
  });

  it('each descriptor carries the id and header fields of the shard block it names (McShardHash::from_block)', () => {
    let checked = 0;
    let sameCatchain = 0;
    for (const mc of masters) {
      for (const { workchain, shard, descr } of listShards(mc.extra.custom!.shardHashes)) {
        const e = blocks.get(entryName(workchain, shard, descr));
        if (!e) continue; // committed before the first pack (the first masterchain blocks)
        const { root, block } = blockOf(e);
        const i = block.info;
        // root_hash / file_hash: the block cell's hash and sha256 of the block file, as the pack names them.
        expect(root.hash().equals(descr.rootHash)).toBe(true);
        expect(createHash('sha256').update(e.data).digest().equals(descr.fileHash)).toBe(true);
        expect({
          workchain: i.shard.workchainId,
          seqNo: i.seqNo,
          startLt: i.startLt,
          endLt: i.endLt,
          genUtime: i.genUtime,
          minRefMcSeqno: i.minRefMcSeqno,
          nextValidatorShard: shard,
          beforeSplit: i.beforeSplit,
          wantSplit: i.wantSplit,
          wantMerge: i.wantMerge,
        }).toEqual({
          workchain,
          seqNo: descr.seqNo,
          startLt: descr.startLt,
          endLt: descr.endLt,
          genUtime: descr.genUtime,
          minRefMcSeqno: descr.minRefMcSeqno,
          nextValidatorShard: descr.nextValidatorShard,
          beforeSplit: descr.beforeSplit,
          wantSplit: descr.wantSplit,
          wantMerge: descr.wantMerge,
        });
        // next_catchain_seqno starts as the block's gen_catchain_seqno; the masterchain collator adds 1 when it
        // rotates the shard's catchain (collator.cpp update_shard_config: before_merge changes, cc updates).
        expect([0, 1]).toContain(descr.nextCatchainSeqno - i.genCatchainSeqno);
        if (descr.nextCatchainSeqno === i.genCatchainSeqno) sameCatchain++;
        // reg_mc_seqno: the masterchain block that registered this top block, at or before this one.
        expect(descr.regMcSeqno).toBeLessThanOrEqual(mc.info.seqNo);
        expect(descr.flags).toBe(0);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(400);
    expect(sameCatchain).toBeGreaterThan(checked / 2);
  });

  it('fees_collected / funds_created sum the value flows of the shard blocks registered with it', () => {
    // validator/impl/top-shard-descr.cpp (ShardTopBlockDescrQ::get_top_descr) adds up fees_collected and
    // created of every shard block since the previous top; validate-query.cpp check_one_shard_fee ties the
    // result to ShardFees of the block with seqno reg_mc_seqno.
    const bySeq = new Map(masters.map((b) => [b.info.seqNo, b]));
    let checked = 0;
    for (const mc of masters) {
      for (const { workchain, shard, descr } of listShards(mc.extra.custom!.shardHashes)) {
        const before = bySeq.get(descr.regMcSeqno - 1);
        const prev = before && listShards(before.extra.custom!.shardHashes).find((p) => p.shard === shard);
        if (!prev) continue; // the shard appeared by a split or merge, or its previous top is not in the packs
        const chain: PackEntry[] = [];
        for (let q = prev.descr.seqNo + 1; q <= descr.seqNo; q++) {
          const e = bySeqno.get(`${workchain}:${shard.toString(16).padStart(16, '0')}:${q}`);
          if (e) chain.push(e);
        }
        if (chain.length !== descr.seqNo - prev.descr.seqNo) continue;
        const flows = chain.map((e) => blockOf(e).block.valueFlow);
        expect(descr.feesCollected.coins).toBe(flows.reduce((n, f) => n + f.feesCollected.coins, 0n));
        expect(descr.fundsCreated.coins).toBe(flows.reduce((n, f) => n + f.created.coins, 0n));
        expect(descr.feesCollected.other ?? null).toBeNull();
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(400);
  });
});
