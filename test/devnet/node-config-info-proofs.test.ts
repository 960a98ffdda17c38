// Proofs that tonlib reads with block::ConfigInfo::extract_config (found by the ton-http-api oracle,
// test/oracles/http.test.ts): it looks up the zero state in the masterchain state's prev_blocks for every state
// but the zero state, and with mode needPrevBlocks also the 15 blocks before and every 100th block below (c7
// PREVBLOCKS of get-methods). Pruned, those cells made tonlib refuse the node's config proofs and backward
// proof links ("virtualization error while unpacking block state header and configuration: prunned branch").
import type { Cell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockStateHash, parseBoc, verifyBlockProof, verifyMerkleProof } from '../../src/ton/index.ts';
import { type BlockIdLike, type Devnet, startDevnet, tlId } from '../helpers/devnet-node.ts';
import { dictLeaf } from '../helpers/dict-leaf.ts';

let d: Devnet;

beforeAll(async () => {
  d = await startDevnet({ seed: 'node-config-info-proofs', blockIntervalMs: 40 });
  await d.node.waitMasterchainSeqno(24);
});

afterAll(async () => {
  await d?.close();
});

/** prev_blocks (OldMcBlocksInfo) of a virtual masterchain state: ^McStateExtra → ^[ flags validator_info prev_blocks … ]. */
function prevBlocksRoot(state: Cell): Cell {
  const extra = (state.refs[3] as Cell).beginParse();
  expect(extra.loadUint(16)).toBe(0xcc26);
  if (extra.loadBit()) extra.loadRef(); // shard_hashes
  extra.loadBuffer(32); // config_addr
  extra.loadRef(); // config
  const r1 = extra.loadRef().beginParse();
  r1.skip(16 + 32 + 32 + 1); // flags, validator_info
  expect(r1.loadBit()).toBe(true);
  return r1.loadRef();
}

/** The seqno of each prev_blocks entry reachable in the proof (a pruned cell on the way throws). */
function entry(root: Cell, seqno: number): number {
  const leaf = dictLeaf(root, BigInt(seqno), 32);
  if (!leaf) throw new Error(`no prev_blocks entry ${seqno}`);
  leaf.skip(1 + 64 + 1); // KeyMaxLt extra, then KeyExtBlkRef.key
  leaf.skip(64); // ExtBlkRef.end_lt
  return leaf.loadUint(32);
}

describe('proofs tonlib reads as block::ConfigInfo', () => {
  it('getConfigParams with needPrevBlocks keeps the zero state, the 15 previous blocks and every 100th', async () => {
    const head = (await d.lite.client.getMasterchainInfo()).last as BlockIdLike;
    const cfg = await d.lite.ask<{ mode: number; stateProof: Buffer; configProof: Buffer }>({
      _: 'liteServer.getConfigParams',
      mode: 128,
      id: tlId(head),
      paramList: [8],
    });
    // the node reads the state as ConfigInfo, which adds needCapabilities to the mode it answers
    expect(cfg.mode).toBe(128 | 512);
    const block = verifyBlockProof(parseBoc(cfg.stateProof)[0] as Cell, head.rootHash);
    const root = prevBlocksRoot(verifyMerkleProof(parseBoc(cfg.configProof)[0] as Cell, blockStateHash(block)));
    expect(entry(root, 0)).toBe(0);
    for (let s = head.seqno - 1; s >= Math.max(0, head.seqno - 15); s--) expect(entry(root, s)).toBe(s);
  });

  it('a backward proof link keeps the zero state entry of the source state', async () => {
    const head = (await d.lite.client.getMasterchainInfo()).last as BlockIdLike;
    const target = (await d.lite.client.lookupBlockByID({ workchain: -1, shard: '-9223372036854775808', seqno: 5 }))
      .id as BlockIdLike;
    const proof = await d.lite.ask<{
      steps: Array<{ _: string; from: BlockIdLike; proof: Buffer; stateProof: Buffer }>;
    }>({ _: 'liteServer.getBlockProof', mode: 1, knownBlock: tlId(head), targetBlock: tlId(target) });
    const back = proof.steps.filter((s) => s._ === 'liteServer.blockLinkBack');
    expect(back.length).toBeGreaterThan(0);
    for (const step of back) {
      const block = verifyBlockProof(parseBoc(step.proof)[0] as Cell, step.from.rootHash);
      const root = prevBlocksRoot(verifyMerkleProof(parseBoc(step.stateProof)[0] as Cell, blockStateHash(block)));
      expect(entry(root, 0)).toBe(0);
    }
  });
});
