// The collator's rules checked on blocks a real validator-engine wrote (shared/vectors/node-db: a private network,
// masterchain 1..264, one basechain shard that splits into two): block files, logical-time alignment, value
// created per block, the ShardDescr a masterchain block registers, and the new workchain's first description.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beginCell, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, vectorPath } from '../../../test/helpers/vectors.ts';
import {
  type Block,
  listShards,
  loadBlockCell,
  MASTER_SHARD,
  parseBoc,
  shardIdOf,
  shardPrefixLength,
  storeShardDescr,
} from '../../ton/index.ts';
import { descrFromBlock, newWorkchainDescr, updateShards } from './shard-config.ts';
import { alignStartLt, chainFile } from './state-parts.ts';

interface PackBlock {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  boc: Buffer;
  root: Cell;
  block: Block;
}

/** block_ entries of the archive packs: magic 0x1e8b, u16 name length, u32 data length (little-endian). */
function readBlocks(): PackBlock[] {
  const seen = new Map<string, PackBlock>();
  for (const pack of ['archive.00000.pack', 'archive.00100.pack', 'archive.00200.pack']) {
    const buf = readFileSync(vectorPath('node-db', pack));
    for (let off = 4; off < buf.length; ) {
      expect(buf.readUInt16LE(off)).toBe(0x1e8b);
      const nameLen = buf.readUInt16LE(off + 2);
      const dataLen = buf.readUInt32LE(off + 4);
      const name = buf.subarray(off + 8, off + 8 + nameLen).toString();
      const data = buf.subarray(off + 8 + nameLen, off + 8 + nameLen + dataLen);
      off += 8 + nameLen + dataLen;
      const m = /^block_\((-?\d+),([0-9a-f]+),(\d+)\):([0-9A-F]{64}):([0-9A-F]{64})$/.exec(name);
      if (!m || seen.has(name)) continue;
      const root = parseBoc(data)[0] as Cell;
      seen.set(name, {
        workchain: Number(m[1]),
        shard: BigInt(`0x${m[2]}`),
        seqno: Number(m[3]),
        rootHash: Buffer.from(m[4] as string, 'hex'),
        fileHash: Buffer.from(m[5] as string, 'hex'),
        boc: Buffer.from(data),
        root,
        block: loadBlockCell(root),
      });
    }
  }
  return [...seen.values()];
}

describe.skipIf(!hasVectors)('collator rules on a real private network (node-db vectors)', () => {
  const blocks = hasVectors ? readBlocks() : [];
  const mc = new Map(blocks.filter((b) => b.workchain === -1).map((b) => [b.seqno, b]));
  const byRoot = new Map(blocks.map((b) => [b.rootHash.toString('hex'), b]));

  it('writes every block file byte for byte as the node did (file hash = sha256 of it)', () => {
    expect(blocks.length).toBeGreaterThan(600);
    for (const b of blocks) {
      const f = chainFile(b.root);
      expect(f.boc.equals(b.boc)).toBe(true);
      expect(f.fileHash.equals(b.fileHash)).toBe(true);
      expect(createHash('sha256').update(b.boc).digest().equals(b.fileHash)).toBe(true);
    }
  });

  it('starts shard blocks at the aligned max of the previous block and the masterchain reference', () => {
    let n = 0;
    for (const b of blocks.filter((x) => x.workchain === 0)) {
      const i = b.block.info;
      if (i.prevRef.kind !== 'prev_blk_info' || !i.masterRef) throw new Error('unexpected shape');
      const prevEnd = i.prevRef.prev.endLt;
      const mcEnd = i.masterRef.master.endLt;
      expect(i.startLt).toBe(alignStartLt(prevEnd > mcEnd ? prevEnd : mcEnd));
      // No transactions here: end_lt = start_lt + 1, min_ref_mc_seqno = the masterchain reference.
      expect(i.endLt).toBe(i.startLt + 1n);
      expect(i.minRefMcSeqno).toBe(i.masterRef.master.seqNo);
      expect(shardIdOf(i.shard)).toBe(b.shard);
      n++;
    }
    expect(n).toBeGreaterThan(300);
  });

  it('creates basechain_block_fee >> depth per shard block and counts it in fees_collected', () => {
    for (const b of blocks.filter((x) => x.workchain === 0)) {
      const expected = 1_000_000_000n >> BigInt(shardPrefixLength(b.shard));
      expect(b.block.valueFlow.created.coins).toBe(expected);
      expect(b.block.valueFlow.feesCollected.coins).toBe(expected);
    }
  });

  it('starts masterchain blocks at the aligned max of the previous block and the shard blocks it registers', () => {
    for (const [seqno, b] of mc) {
      const prev = mc.get(seqno - 1);
      if (!prev) continue;
      const shards = listShards(b.block.extra.custom?.shardHashes ?? new Map());
      let end = prev.block.info.endLt;
      for (const s of shards) if (s.descr.regMcSeqno === seqno && s.descr.endLt > end) end = s.descr.endLt;
      expect(b.block.info.startLt).toBe(alignStartLt(end));
    }
  });

  it('registers a shard block with the ShardDescr McShardHash::from_block gives it', () => {
    let checked = 0;
    for (const [seqno, b] of mc) {
      const prevMc = mc.get(seqno - 1);
      if (!prevMc) continue;
      const before = listShards(prevMc.block.extra.custom?.shardHashes ?? new Map());
      for (const s of listShards(b.block.extra.custom?.shardHashes ?? new Map())) {
        if (s.descr.regMcSeqno !== seqno) continue;
        const sb = byRoot.get(s.descr.rootHash.toString('hex'));
        if (!sb) continue;
        const i = sb.block.info;
        if (i.prevRef.kind !== 'prev_blk_info') continue;
        const prevTop = before.find((x) =>
          x.descr.rootHash.equals((i.prevRef as { prev: { rootHash: Buffer } }).prev.rootHash),
        );
        if (!prevTop) continue; // a chain of several blocks: fees are summed over it
        const d = descrFromBlock(
          s.shard,
          {
            seqNo: i.seqNo,
            startLt: i.startLt,
            endLt: i.endLt,
            rootHash: sb.rootHash,
            fileHash: sb.fileHash,
            beforeSplit: i.beforeSplit,
            wantSplit: i.wantSplit,
            wantMerge: i.wantMerge,
            genCatchainSeqno: i.genCatchainSeqno,
            minRefMcSeqno: i.minRefMcSeqno,
            genUtime: i.genUtime,
            feesCollected: sb.block.valueFlow.feesCollected,
            fundsCreated: sb.block.valueFlow.created,
          },
          seqno,
        );
        // update_one_shard may have scheduled a split and moved the catchain on; the rest is from_block's.
        d.splitMergeAt = s.descr.splitMergeAt;
        d.nextCatchainSeqno = s.descr.nextCatchainSeqno;
        const cell = (x: typeof d) => beginCell().store(storeShardDescr(x)).endCell().hash().toString('hex');
        expect(cell(d)).toBe(cell(s.descr));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('adds the workchain in masterchain block 1 as ShardConfig::new_workchain and update_one_shard do', () => {
    const b1 = mc.get(1) as PackBlock;
    const [real] = listShards(b1.block.extra.custom?.shardHashes ?? new Map());
    if (!real) throw new Error('no workchain in mc block 1');
    const leaf = {
      workchain: 0,
      shard: MASTER_SHARD,
      descr: newWorkchainDescr(1, real.descr.rootHash, real.descr.fileHash),
    };
    // The network's basechain: min_split 1 (it split with no load), the default 100 s split delay and interval.
    const [got] = updateShards([leaf], {
      now: b1.block.info.genUtime,
      updateCc: false,
      workchains: new Map([
        [
          0,
          {
            kind: 'workchain',
            enabledSince: 0,
            monitorMinSplit: 0,
            minSplit: 1,
            maxSplit: 1,
            basic: 1,
            active: true,
            acceptMsgs: true,
            flags: 0,
            zerostateRootHash: real.descr.rootHash,
            zerostateFileHash: real.descr.fileHash,
            version: 0,
            format: { kind: 'wfmt_basic', vmVersion: -1, vmMode: 0n },
          },
        ],
      ]),
    });
    const cell = (x: typeof real.descr) => beginCell().store(storeShardDescr(x)).endCell().hash().toString('hex');
    expect(cell(got?.descr as typeof real.descr)).toBe(cell(real.descr));
  });
});
