import { beginCell, Cell, CellType } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors } from '../../../test/helpers/vectors.ts';
import { loadBlockInfo, shardIdOf } from '../block/block-info.ts';
import { isPruned, type Prunable } from './pruned.ts';
import {
  loadShardState,
  loadShardStateUnsplit,
  type ShardState,
  type ShardStateUnsplit,
  storeShardState,
  storeShardStateUnsplit,
} from './shard-state.ts';
import { realStates } from './vectors.test-util.ts';

function present<T>(v: Prunable<T>, what: string): T {
  if (isPruned(v)) throw new Error(`${what} is pruned`);
  return v;
}

function unsplit(s: ShardState): ShardStateUnsplit {
  if (s.kind !== 'shard_state') throw new Error('expected shard_state');
  return s;
}

describe.skipIf(!hasVectors)('ShardState on real states (proofs and block state_updates)', () => {
  const states = hasVectors ? realStates() : [];

  it('finds every state the vectors hold', () => {
    // 4 config proofs + 3 liteserver proofs + both sides of 13 blocks' state_update.
    expect(states.length).toBe(33);
  });

  it.each(states.map((s) => [s.label, s] as const))('%s decodes and re-encodes to the same hashes', (_, st) => {
    const decoded = loadShardState(st.cell.beginParse());
    const again = beginCell().store(storeShardState(decoded)).endCell();
    // The representation hash covers the pruned cells too; the level-0 hash is the state's real hash.
    expect(again.hash().toString('hex')).toBe(st.cell.hash().toString('hex'));
    expect(again.hash(0).toString('hex')).toBe(st.cell.hash(0).toString('hex'));
    if (st.expectedHash) expect(again.hash(0).toString('hex')).toBe(st.expectedHash.toString('hex'));
    if (st.expectedReprHash) expect(again.hash().toString('hex')).toBe(st.expectedReprHash.toString('hex'));
  });

  it('the state after each block carries that block header’s seqno, shard, time, lt and master ref', () => {
    let checked = 0;
    for (const st of states) {
      if (!st.block || st.side !== 'new') continue;
      const info = loadBlockInfo(st.block.blockRoot.refs[0]!.beginParse());
      const s = unsplit(loadShardState(st.cell.beginParse()));
      expect(s.seqNo).toBe(st.block.seqno);
      expect(s.shardId.workchainId).toBe(st.block.workchain);
      expect(shardIdOf(s.shardId)).toBe(st.block.shard);
      expect(s.genUtime).toBe(info.genUtime);
      expect(s.genLt).toBe(info.endLt);
      expect(s.minRefMcSeqno).toBe(info.minRefMcSeqno);
      expect(s.vertSeqNo).toBe(info.vertSeqNo);
      expect(s.globalId).toBe(-239);
      expect(s.custom === null).toBe(info.notMaster);
      const r1 = present(s.r1, 'r1');
      if (info.masterRef)
        expect(r1.masterRef?.master.rootHash.toString('hex')).toBe(info.masterRef.master.rootHash.toString('hex'));
      else expect(r1.masterRef).toBeNull();
      checked++;
    }
    expect(checked).toBe(13);
  });

  it('the state before each block is its parent’s (two halves of a split_state after a merge)', () => {
    let merged = 0;
    for (const st of states) {
      if (!st.block || st.side !== 'old') continue;
      const info = loadBlockInfo(st.block.blockRoot.refs[0]!.beginParse());
      const s = loadShardState(st.cell.beginParse());
      if (info.prevRef.kind === 'prev_blk_info') {
        expect(unsplit(s).seqNo).toBe(info.prevRef.prev.seqNo);
        continue;
      }
      if (s.kind !== 'split_state') throw new Error(`${st.label}: expected split_state after a merge`);
      // A block that changed nothing (tongo block-4) leaves both halves pruned in its update.
      if (!isPruned(s.left)) expect(s.left.seqNo).toBe(info.prevRef.prev1.seqNo);
      if (!isPruned(s.right)) expect(s.right.seqNo).toBe(info.prevRef.prev2.seqNo);
      merged++;
    }
    expect(merged).toBe(2);
  });

  it('block 0:c000000000000000:13516764 merges the two parents its source names', () => {
    const st = states.find((s) => s.label.includes('13516764') && s.side === 'old')!;
    const s = loadShardState(st.cell.beginParse());
    if (s.kind !== 'split_state') throw new Error('expected split_state');
    // tongo ton/testdata raw-13516764.bin: parents 0:a000000000000000:13516763 and 0:e000000000000000:13516699.
    const parents = (st.block!.json.expected as { parents: Array<{ shard: string; seqno: number }> }).parents;
    const halves = [present(s.left, 'left'), present(s.right, 'right')];
    expect(halves.map((h) => [shardIdOf(h.shardId).toString(16), h.seqNo])).toEqual(
      parents.map((p) => [p.shard, p.seqno]),
    );
  });

  it('config proofs are of the masterchain block their source names', () => {
    const want: Record<string, [number, number]> = {
      'config/config_proof_mainnet_33651872.json': [33651872, -239],
      'config/config_proof_mainnet_65466080.json': [65466080, -239],
      'config/config_proof_testnet_4324374.json': [4324374, -3],
      'liteserver/get_config_all_tongo.json config_proof': [26309435, -239],
    };
    for (const [label, [seqno, globalId]] of Object.entries(want)) {
      const st = states.find((s) => s.label === label)!;
      const s = loadShardStateUnsplit(st.cell.beginParse());
      expect([s.seqNo, s.globalId, s.shardId.workchainId, shardIdOf(s.shardId)]).toEqual([
        seqno,
        globalId,
        -1,
        0x8000000000000000n,
      ]);
      expect(isPruned(s.accounts)).toBe(true);
    }
  });

  it('keeps pruned refs as pruned, with the hash of what was left out', () => {
    const st = states.find((s) => s.label === 'config/config_proof_mainnet_33651872.json')!;
    const s = loadShardStateUnsplit(st.cell.beginParse());
    if (!isPruned(s.outMsgQueueInfo)) throw new Error('expected a pruned out_msg_queue_info');
    const ref = st.cell.refs[0]!;
    expect(ref.type).toBe(CellType.PrunedBranch);
    expect(s.outMsgQueueInfo.hash.toString('hex')).toBe(ref.hash(0).toString('hex'));
  });
});

describe('ShardState negative cases', () => {
  const minimal = (): ShardStateUnsplit => ({
    kind: 'shard_state',
    globalId: -239,
    shardId: { workchainId: 0, shardPrefixBits: 0, shardPrefix: 0n },
    seqNo: 1,
    vertSeqNo: 0,
    genUtime: 2,
    genLt: 3n,
    minRefMcSeqno: 4,
    outMsgQueueInfo: { outQueue: { root: null, extra: 0n }, procInfo: null, extra: null },
    beforeSplit: false,
    accounts: { root: null, extra: { splitDepth: 0, balance: { coins: 0n } } },
    r1: {
      overloadHistory: 0n,
      underloadHistory: 0n,
      totalBalance: { coins: 5n },
      totalValidatorFees: { coins: 0n },
      libraries: null,
      masterRef: null,
    },
    custom: null,
  });

  it('round-trips a state built from values', () => {
    const cell = beginCell().store(storeShardStateUnsplit(minimal())).endCell();
    const back = loadShardStateUnsplit(cell.beginParse());
    expect(beginCell().store(storeShardStateUnsplit(back)).endCell().hash()).toEqual(cell.hash());
    expect(present(back.r1, 'r1').totalBalance.coins).toBe(5n);
  });

  it('throws CodecError naming ShardState on an unknown tag', () => {
    const cell = beginCell().storeUint(0x9023afe3, 32).endCell();
    expect(() => loadShardState(cell.beginParse())).toThrow(
      /ShardState: expected tag 0x9023afe2 or 0x5f327da5, got 0x9023afe3/,
    );
    expect(() => loadShardStateUnsplit(cell.beginParse())).toThrow(/ShardStateUnsplit: expected tag 0x9023afe2/);
  });

  it('throws CodecError on a tampered shard ident and on a truncated state', () => {
    const good = beginCell().store(storeShardStateUnsplit(minimal())).endCell();
    const bits = good.beginParse();
    // Flip the shard_ident$00 tag (the two bits after tag and global_id).
    const tampered = beginCell().storeUint(0x9023afe2, 32).storeInt(-239, 32).storeUint(0b01, 2);
    bits.skip(66);
    tampered.storeSlice(bits);
    expect(() => loadShardState(tampered.endCell().beginParse())).toThrow(/ShardIdent: expected tag/);
    const truncated = beginCell().storeUint(0x9023afe2, 32).storeInt(-239, 32).endCell();
    expect(() => loadShardState(truncated.beginParse())).toThrowError(
      expect.objectContaining({ code: 'TG_CODEC_INVALID', message: expect.stringMatching(/^ShardIdent|^ShardState/) }),
    );
  });

  it('refuses an exotic cell that is not a pruned branch where a state half is expected', () => {
    const lib = new Cell({
      exotic: true,
      bits: beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32)).endCell().bits,
    });
    const split = beginCell().storeUint(0x5f327da5, 32).storeRef(lib).storeRef(lib).endCell();
    expect(() => loadShardState(split.beginParse())).toThrow(/ShardStateUnsplit: expected an ordinary or pruned cell/);
  });
});
