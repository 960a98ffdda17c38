// --block-interval 0: the node bootstraps the shard layout and the wallet deploys, then stays idle; an external
// message makes it produce the blocks that carry it and deliver its internal messages, then it idles again.
import { randomBytes } from 'node:crypto';
import { Address, internal, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletTransferMessage } from '../../src/devnet/node/index.ts';
import {
  type BlockIdLike,
  type Devnet,
  signingWallet,
  stackInt,
  startDevnet,
  tlcId,
  verifiedAccountState,
} from '../helpers/devnet-node.ts';
import { until } from '../helpers/until.ts';

let d: Devnet;

beforeAll(async () => {
  d = await startDevnet({ seed: 'node-on-demand', blockIntervalMs: 0 });
});

afterAll(async () => {
  await d?.close();
});

/** Resolves with the head once two reads 400 ms apart see the same masterchain seqno. */
async function idleHead(): Promise<number> {
  return until('an idle node', async () => {
    const a = d.node.info().head.seqno;
    await new Promise((r) => setTimeout(r, 400));
    const b = d.node.info().head.seqno;
    return a === b && a > 0 ? b : null;
  });
}

describe('devnet node with blockIntervalMs 0', () => {
  it('produces blocks only for work: the bootstrap, then an external message and its delivery', async () => {
    const idle = await idleHead();
    // The layout is in place and the genesis wallets are deployed before it idles.
    expect(
      d.node
        .info()
        .shardTops.map((s) => s.shard)
        .sort((a, b) => (a < b ? -1 : 1)),
    ).toEqual([0x4000000000000000n, 0xc000000000000000n]);
    const head = (await d.lite.client.getMasterchainInfo()).last as BlockIdLike;
    for (const e of d.wallets) {
      const w = await signingWallet(e);
      const r = await d.lite.client.runMethod(w.address, 'seqno', Buffer.alloc(0), tlcId(head));
      expect(stackInt(r.result)).toBe(1n);
    }

    const w = await signingWallet(d.wallets.find((x) => x.version === 'v5r1')!);
    const to = new Address(0, randomBytes(32));
    const msg = walletTransferMessage(w, {
      seqno: 1,
      messages: [internal({ to, value: toNano('4'), bounce: false })],
      validUntil: Math.floor(Date.now() / 1000) + 600,
      deploy: false,
    });
    expect((await d.lite.client.sendMessage(msg.toBoc())).status).toBe(1);
    const funded = await until('the transfer', async () => {
      const s = await verifiedAccountState(d.lite, to, (await d.lite.client.getMasterchainInfo()).last as BlockIdLike);
      return s.exists ? s : null;
    });
    expect(funded.balance).toBe(toNano('4'));
    const after = await idleHead();
    expect(after).toBeGreaterThan(idle);
  });
});
