// Servers that break the ADNL framing itself (not just lite_api): unsolicited packets, bad checksums, absurd
// lengths, answers to queries never asked. Each of these kills a process that uses ton-lite-client's own
// engine (ton-libs.md §1.5); through the pool they cost no request and leave the process running.
import { afterEach, describe, expect, it } from 'vitest';
import { createLitePool, type LitePool } from '../../src/lite/index.ts';
import {
  createTestChain,
  POOL_POLL,
  type RogueMode,
  startRogueAdnlServer,
  startTestLiteServer,
} from '../helpers/lite-pool.ts';
import { until } from '../helpers/until.ts';
import { hasVectors } from '../helpers/vectors.ts';

function failures(pool: LitePool, server: string): Record<string, number> {
  const fam = pool.metrics().counters.find((c) => c.name === 'tongate_lite_attempt_failures_total')!;
  const out: Record<string, number> = {};
  for (const s of fam.samples) if (s.labels.server === server) out[s.labels.kind!] = s.value;
  return out;
}

describe.skipIf(!hasVectors)('lite pool against rogue ADNL servers', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it.each<[RogueMode, string]>([
    ['unsolicited', 'transport'],
    ['bad-checksum', 'transport'],
    ['oversize', 'transport'],
    ['wrong-query-id', 'timeout'],
  ])(
    '%s: every request is answered by the healthy server and the rogue one leaves the rotation',
    async (mode, kind) => {
      const chain = createTestChain();
      const good = await startTestLiteServer(chain);
      cleanup.push(() => good.close());
      const rogue = await startRogueAdnlServer(chain, mode);
      cleanup.push(() => rogue.close());
      const pool = createLitePool({
        servers: [rogue.endpoint, good.endpoint],
        attemptTimeoutMs: 1000,
        healthIntervalMs: 600_000,
        reconnectMinMs: 600_000, // one failure is enough to look at; no reconnect during the test
      });
      cleanup.push(() => pool.close());
      await pool.ready({ timeoutMs: 30_000 });
      await until('both in rotation', () => pool.health().every((h) => h.inRotation), POOL_POLL);
      expect((await pool.getMasterchainInfo()).last.seqno).toBe(chain.head); // the rogue answers well at first

      rogue.misbehave = true;
      for (let i = 0; i < 20; i++) expect((await pool.getMasterchainInfo()).last.seqno).toBe(chain.head);
      expect(failures(pool, rogue.endpoint.id)[kind]).toBe(1);
      expect(pool.health().find((h) => h.id === rogue.endpoint.id)!.inRotation).toBe(false);
    },
  );

  it('does not serve cached answers: every getAllShardsInfo call reaches a server', async () => {
    // ton-lite-client's LiteClient caches shard lists (and headers, accounts) by seqno alone (no hash), so a
    // long-lived client keeps serving a reset devnet's old data. The pool builds a fresh one per attempt.
    const chain = createTestChain();
    const a = await startTestLiteServer(chain);
    cleanup.push(() => a.close());
    const pool = createLitePool({ servers: [a.endpoint], healthIntervalMs: 600_000 });
    cleanup.push(() => pool.close());
    await pool.ready({ timeoutMs: 30_000 });
    for (let i = 0; i < 3; i++) await pool.getAllShardsInfo(chain.block);
    expect(a.callCount('liteServer.getAllShardsInfo')).toBe(3);
  });
});
