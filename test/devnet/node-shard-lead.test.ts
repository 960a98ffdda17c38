// --shard-lead-ms: each step's shard blocks are shown (lookupBlock by seqno, getBlock) before the masterchain block
// that commits them is published, as a network's shard blocks are signed and seen before the masterchain takes them;
// the masterchain block then commits exactly those blocks. Asked over the liteserver's ADNL socket with
// ton-lite-client, as the streaming feed's `confirmed` level asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlockIdLike, type Devnet, fetchBlock, startDevnet, tlcId } from '../helpers/devnet-node.ts';

let d: Devnet;

beforeAll(async () => {
  d = await startDevnet({ seed: 'node-shard-lead', blockIntervalMs: 600, shardLeadMs: 300 });
});

afterAll(async () => {
  await d?.close();
});

describe('devnet node with shardLeadMs', () => {
  it('shows the next shard block before the masterchain block that commits it, and commits that block', async () => {
    const shard = BigInt.asIntN(64, 0x4000000000000000n).toString();
    let seen: { id: BlockIdLike; mcSeqno: number } | null = null;
    for (let tries = 0; tries < 200 && !seen; tries++) {
      const before = (await d.lite.client.getMasterchainInfo()).last as BlockIdLike;
      const shards = await d.lite.client.getAllShardsInfo(tlcId(before));
      const top = shards.shards[0]?.[shard];
      let found: BlockIdLike | null = null;
      // (The first blocks set the layout up: the shard may not be listed yet.)
      if (top !== undefined)
        try {
          found = (await d.lite.client.lookupBlockByID({ workchain: 0, shard, seqno: top + 1 })).id as BlockIdLike;
        } catch {
          found = null;
        }
      if (!found) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      // Read before the masterchain moved on: the block is shown, not committed. Its bytes are served too (file and
      // root hash checked).
      const { block } = await fetchBlock(d.lite, found);
      const after = (await d.lite.client.getMasterchainInfo()).last as BlockIdLike;
      if (after.seqno !== before.seqno) continue;
      expect(block.info.seqNo).toBe((top ?? 0) + 1);
      seen = { id: found, mcSeqno: before.seqno };
    }
    expect(seen, 'a shard block shown before its masterchain block').not.toBeNull();
    // The next masterchain block commits that very block.
    await d.node.waitMasterchainSeqno(seen!.mcSeqno + 1);
    const next = await d.lite.client.lookupBlockByID({
      workchain: -1,
      shard: '-9223372036854775808',
      seqno: seen!.mcSeqno + 1,
    });
    const committed = await d.lite.client.getAllShardsInfo(tlcId(next.id as BlockIdLike));
    expect(committed.shards[0]?.[shard]).toBe(seen!.id.seqno);
    const header = await d.lite.client.lookupBlockByID({ workchain: 0, shard, seqno: seen!.id.seqno });
    expect(Buffer.from((header.id as BlockIdLike).rootHash).equals(Buffer.from(seen!.id.rootHash))).toBe(true);
  });
});
