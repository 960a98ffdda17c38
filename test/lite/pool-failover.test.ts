// The pool in front of several real liteservers (our AdnlServer on loopback) while they fail in every way the
// pool must absorb: killed mid-run, lagging, answering garbage, hanging. No request may fail while one healthy
// server is left; with none left the pool must say so at once.
import { afterEach, describe, expect, it } from 'vitest';
import { LiteServerError, LiteTimeoutError, NoLiteServersError } from '../../src/common/index.ts';
import { createLitePool, type LitePool, type LitePoolOptions } from '../../src/lite/index.ts';
import {
  createTestChain,
  POOL_POLL,
  startBlackhole,
  startTestLiteServer,
  type TestChain,
  type TestLiteServer,
} from '../helpers/lite-pool.ts';
import { until } from '../helpers/until.ts';
import { hasVectors } from '../helpers/vectors.ts';

function failuresOf(pool: LitePool, server: string, kind: string): number {
  const fam = pool.metrics().counters.find((c) => c.name === 'tongate_lite_attempt_failures_total');
  return fam?.samples.find((s) => s.labels.server === server && s.labels.kind === kind)?.value ?? 0;
}

function requestsOf(pool: LitePool, method: string, outcome: string): number {
  const fam = pool.metrics().counters.find((c) => c.name === 'tongate_lite_requests_total');
  return (
    fam?.samples
      .filter((s) => s.labels.method === method && s.labels.outcome === outcome)
      .reduce((a, s) => a + s.value, 0) ?? 0
  );
}

/** Runs `total` requests, `concurrency` at a time, calling `at(i)` before request i is issued. */
async function runLoop(
  total: number,
  concurrency: number,
  req: (i: number) => Promise<void>,
  at: (i: number) => Promise<void>,
) {
  let next = 0;
  const errors: unknown[] = [];
  async function worker() {
    while (next < total) {
      const i = next++;
      await at(i);
      try {
        await req(i);
      } catch (e) {
        errors.push(e);
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return errors;
}

describe.skipIf(!hasVectors)('lite pool failover (real ADNL servers on loopback)', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function servers(chain: TestChain, n: number): Promise<TestLiteServer[]> {
    const list: TestLiteServer[] = [];
    for (let i = 0; i < n; i++) {
      const s = await startTestLiteServer(chain);
      cleanup.push(() => s.close());
      list.push(s);
    }
    return list;
  }

  function pool(o: LitePoolOptions): LitePool {
    const p = createLitePool(o);
    cleanup.push(() => p.close());
    return p;
  }

  it('keeps answering while servers are killed, answer garbage and hang (failures found by requests alone)', async () => {
    const chain = createTestChain();
    const [a, b, killed, garbage, hung] = await servers(chain, 5);
    // Healthy servers are not probed again (only failing ones are): every fault below must be discovered, and
    // survived, by requests.
    const p = pool({
      servers: [a!, b!, killed!, garbage!, hung!].map((s) => s.endpoint),
      requestTimeoutMs: 10_000,
      attemptTimeoutMs: 1000,
      maxAttempts: 4,
      healthIntervalMs: 600_000,
    });
    await p.ready({ timeoutMs: 30_000 });
    await until('all five servers in rotation', () => p.health().every((h) => h.inRotation), POOL_POLL);

    const errors = await runLoop(
      200,
      4,
      async (i) => {
        const info = await p.getMasterchainInfo();
        expect(info.last.seqno).toBe(chain.head);
        if (i % 10 === 0) expect(await p.getTime()).toBeGreaterThan(1_600_000_000);
      },
      async (i) => {
        if (i === 20) {
          garbage!.fault = 'garbage';
          hung!.fault = 'hang';
          await killed!.close();
        }
      },
    );
    expect(errors).toEqual([]);

    // Round robin sent work to each faulty server after the faults began, and each failure moved on.
    expect(failuresOf(p, garbage!.endpoint.id, 'bad_answer')).toBeGreaterThanOrEqual(1);
    expect(failuresOf(p, hung!.endpoint.id, 'timeout')).toBeGreaterThanOrEqual(1);
    const h = new Map(p.health().map((x) => [x.id, x]));
    expect(h.get(killed!.endpoint.id)!.state).toBe('down');
    expect(h.get(garbage!.endpoint.id)!.inRotation).toBe(false);
    expect(h.get(hung!.endpoint.id)!.inRotation).toBe(false);
    expect(h.get(a!.endpoint.id)!.inRotation).toBe(true);
    expect(h.get(b!.endpoint.id)!.inRotation).toBe(true);
    expect(requestsOf(p, 'getMasterchainInfo', 'ok')).toBe(200);
  });

  it('keeps answering through all four faults with health probes running, and excludes the lagging server', async () => {
    const chain = createTestChain();
    const [a, b, killed, lagging, garbage, hung] = await servers(chain, 6);
    const blackhole = await startBlackhole();
    cleanup.push(() => blackhole.close());
    const p = pool({
      servers: [a!, b!, killed!, lagging!, garbage!, hung!].map((s) => s.endpoint).concat(blackhole.endpoint),
      requestTimeoutMs: 10_000,
      attemptTimeoutMs: 1000,
      probeTimeoutMs: 1000,
      connectTimeoutMs: 1000,
      maxAttempts: 4,
      healthIntervalMs: 20,
      lagThreshold: 3,
    });
    await p.ready({ timeoutMs: 30_000 });
    await until('six ADNL servers in rotation', () => p.health().filter((h) => h.inRotation).length === 6, POOL_POLL);

    const seqnos = new Set<number>();
    const errors = await runLoop(
      200,
      4,
      async (i) => {
        seqnos.add((await p.getMasterchainInfo()).last.seqno);
        if (i % 20 === 0) {
          const blk = await p.getBlock(chain.block);
          expect(blk.data.equals(chain.block.data)).toBe(true);
        }
      },
      async (i) => {
        if (i === 30) {
          lagging!.lag = 10;
          garbage!.fault = 'garbage';
          hung!.fault = 'hang';
          await killed!.close();
        }
        if (i % 25 === 0) await new Promise((r) => setTimeout(r, 25)); // let probes run between bursts
      },
    );
    expect(errors).toEqual([]);
    // The lagging server's own head is a legitimate answer until a probe excludes it; nothing else ever is.
    expect([...seqnos].every((s) => s === chain.head || s === chain.head - 10)).toBe(true);

    await until(
      'lagging server excluded',
      () => p.health().find((x) => x.id === lagging!.endpoint.id)!.inRotation === false,
      POOL_POLL,
    );
    const h = new Map(p.health().map((x) => [x.id, x]));
    expect(h.get(lagging!.endpoint.id)!.lagBlocks).toBe(10);
    expect(h.get(lagging!.endpoint.id)!.healthy).toBe(true);
    for (const s of [killed!, garbage!, hung!]) expect(h.get(s.endpoint.id)!.inRotation).toBe(false);
    expect(h.get(blackhole.endpoint.id)!.state).toBe('down');
    expect(h.get(a!.endpoint.id)!.inRotation).toBe(true);
    expect(h.get(b!.endpoint.id)!.inRotation).toBe(true);
    // After the exclusion every answer comes from a server at the head.
    for (let i = 0; i < 20; i++) expect((await p.getMasterchainInfo()).last.seqno).toBe(chain.head);
  });

  it('fails at once with NoLiteServersError when every server is down, without waiting for any timeout', async () => {
    const chain = createTestChain();
    const list = await servers(chain, 3);
    // A request timeout far beyond the test's own: waiting for it would fail the test by timeout.
    const p = pool({ servers: list.map((s) => s.endpoint), requestTimeoutMs: 600_000, healthIntervalMs: 600_000 });
    await p.ready({ timeoutMs: 30_000 });
    expect((await p.getMasterchainInfo()).last.seqno).toBe(chain.head);

    for (const s of list) await s.close();
    // Immediately: the request may meet closed sessions (transport failures) or already-down servers.
    const e1 = await p.getMasterchainInfo().catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(NoLiteServersError);

    await until('all servers down', () => p.health().every((h) => h.state === 'down'), POOL_POLL);
    const e2 = await p.getTime().catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(NoLiteServersError);
    expect((e2 as Error).message).toMatch(/no liteserver in rotation/);
    for (const s of list) expect((e2 as Error).message).toContain(s.endpoint.id);
    await expect(p.ready()).rejects.toBeInstanceOf(NoLiteServersError);
  });

  it('turns a hung only server into LiteTimeoutError, then excludes it (NoLiteServersError)', async () => {
    const chain = createTestChain();
    const [only] = await servers(chain, 1);
    const p = pool({
      servers: [only!.endpoint],
      requestTimeoutMs: 1000,
      probeTimeoutMs: 3000,
      healthIntervalMs: 600_000,
    });
    await p.ready({ timeoutMs: 30_000 });
    only!.fault = 'hang';
    const e = await p.getMasterchainInfo().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LiteTimeoutError);
    expect((e as Error).message).toMatch(/no liteserver answered in time/);
    const e2 = await p.getMasterchainInfo().catch((x: unknown) => x);
    expect(e2).toBeInstanceOf(NoLiteServersError);
    expect((e2 as Error).message).toContain('failing');
  });

  it('a hung server next to a healthy one costs no request', async () => {
    const chain = createTestChain();
    const [good, hung] = await servers(chain, 2);
    const p = pool({
      servers: [good!.endpoint, hung!.endpoint],
      requestTimeoutMs: 5000,
      attemptTimeoutMs: 1000,
      probeTimeoutMs: 3000,
      healthIntervalMs: 600_000,
    });
    await p.ready({ timeoutMs: 30_000 });
    await until('both in rotation', () => p.health().every((h) => h.inRotation), POOL_POLL);
    hung!.fault = 'hang';
    for (let i = 0; i < 10; i++) expect(await p.getTime()).toBeGreaterThan(0);
    expect(failuresOf(p, hung!.endpoint.id, 'timeout')).toBe(1);
  });

  it('does not retry a real error answer (-400) that any server would give', async () => {
    const chain = createTestChain();
    const list = await servers(chain, 3);
    for (const s of list) s.fault = 'bad-request';
    const p = pool({ servers: list.map((s) => s.endpoint), maxAttempts: 3, healthIntervalMs: 600_000 });
    // Probes get -400 too, so nothing is in rotation: check the no-retry rule through a pinned server instead.
    await until('sessions open', () => p.health().every((h) => h.state === 'up'), POOL_POLL);
    expect(p.health().every((h) => !h.inRotation)).toBe(true);
    await expect(p.getTime()).rejects.toBeInstanceOf(NoLiteServersError);

    for (const s of list) s.fault = 'none';
    const p2 = pool({ servers: list.map((s) => s.endpoint), maxAttempts: 3, healthIntervalMs: 600_000 });
    await p2.ready({ timeoutMs: 30_000 });
    await until('all in rotation', () => p2.health().every((h) => h.inRotation), POOL_POLL);
    for (const s of list) s.fault = 'bad-request';
    const before = list.reduce((n, s) => n + s.callCount('liteServer.getTime'), 0);
    const e = await p2.getTime().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LiteServerError);
    expect((e as LiteServerError).liteCode).toBe(-400);
    expect(list.reduce((n, s) => n + s.callCount('liteServer.getTime'), 0) - before).toBe(1);
    // A bad request says nothing about the server: it stays in rotation.
    expect(p2.health().every((h) => h.inRotation)).toBe(true);
  });

  it('survives a server whose key is not a valid ed25519 point and one that never completes the handshake', async () => {
    const chain = createTestChain();
    const [good] = await servers(chain, 1);
    const blackhole = await startBlackhole();
    cleanup.push(() => blackhole.close());
    // y = 2^255 - 1 is not a point on the curve: ton-lite-client's ADNL client dies of it (unhandled rejection).
    const badKey = Buffer.alloc(32, 0xff);
    badKey[31] = 0x7f;
    const p = pool({
      servers: [
        { id: 'bad-key', host: '127.0.0.1', port: good!.endpoint.port, publicKey: badKey },
        blackhole.endpoint,
        good!.endpoint,
      ],
      connectTimeoutMs: 1000,
      healthIntervalMs: 600_000,
    });
    await p.ready({ timeoutMs: 30_000 });
    for (let i = 0; i < 10; i++) expect((await p.getMasterchainInfo()).last.seqno).toBe(chain.head);
    await until(
      'bad key and blackhole down',
      () => p.health().filter((h) => h.state === 'down').length === 2,
      POOL_POLL,
    );
    const h = new Map(p.health().map((x) => [x.id, x]));
    expect(h.get('bad-key')!.lastError).toBeTruthy();
    expect(h.get(blackhole.endpoint.id)!.lastError).toMatch(/handshake|connect|closed/i);
  });

  it('ready() with only a blackhole fails with NoLiteServersError once the connect attempt gives up', async () => {
    const blackhole = await startBlackhole();
    cleanup.push(() => blackhole.close());
    const p = pool({ servers: [blackhole.endpoint], connectTimeoutMs: 150, requestTimeoutMs: 60_000 });
    const e = await p.ready().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NoLiteServersError);
    await expect(p.getTime()).rejects.toBeInstanceOf(NoLiteServersError);
    expect(p.health()[0]!.lastError).toBeTruthy();
  });
});
