// Health watching: lag exclusion and re-admission, reconnection after a restart, recovery of a failing
// server, health() and metrics() shapes.
import { afterEach, describe, expect, it } from 'vitest';
import { NoLiteServersError } from '../../src/common/index.ts';
import { createLitePool, type LitePool, type LitePoolOptions } from '../../src/lite/index.ts';
import {
  createTestChain,
  POOL_POLL,
  startTestLiteServer,
  type TestChain,
  type TestLiteServer,
} from '../helpers/lite-pool.ts';
import { until } from '../helpers/until.ts';
import { hasVectors } from '../helpers/vectors.ts';

describe.skipIf(!hasVectors)('lite pool health', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function server(chain: TestChain, o: Parameters<typeof startTestLiteServer>[1] = {}): Promise<TestLiteServer> {
    const s = await startTestLiteServer(chain, o);
    cleanup.push(() => s.close());
    return s;
  }

  function pool(o: LitePoolOptions): LitePool {
    const p = createLitePool(o);
    cleanup.push(() => p.close());
    return p;
  }

  it('excludes a server more than lagThreshold blocks behind and re-admits it when it catches up', async () => {
    const chain = createTestChain();
    const head = await server(chain);
    const edge = await server(chain, { lag: 3 }); // exactly at the threshold: still in
    const behind = await server(chain, { lag: 10 });
    const p = pool({
      servers: [head, edge, behind].map((s) => s.endpoint),
      lagThreshold: 3,
      healthIntervalMs: 20,
    });
    await p.ready({ timeoutMs: 30_000 });
    await until('all probed', () => p.health().every((h) => h.mcSeqno !== null), POOL_POLL);
    let h = new Map(p.health().map((x) => [x.id, x]));
    expect(p.headSeqno()).toBe(chain.head);
    expect(h.get(edge.endpoint.id)).toMatchObject({ inRotation: true, lagBlocks: 3 });
    expect(h.get(behind.endpoint.id)).toMatchObject({ inRotation: false, healthy: true, lagBlocks: 10 });

    // While it is out, no request reaches it.
    const before = behind.callCount('liteServer.getTime');
    for (let i = 0; i < 12; i++) await p.getTime();
    expect(behind.callCount('liteServer.getTime')).toBe(before);

    behind.lag = 1;
    await until('re-admission', () => p.health().find((x) => x.id === behind.endpoint.id)!.inRotation, POOL_POLL);
    h = new Map(p.health().map((x) => [x.id, x]));
    expect(h.get(behind.endpoint.id)!.lagBlocks).toBe(1);
    const after = behind.callCount('liteServer.getTime');
    for (let i = 0; i < 12; i++) await p.getTime();
    expect(behind.callCount('liteServer.getTime')).toBeGreaterThan(after);

    // The head moves: a server that stops following falls out, the others follow.
    chain.head += 5;
    edge.lag = 8;
    await until('head advanced', () => p.headSeqno() === chain.head, POOL_POLL);
    await until('edge excluded', () => !p.health().find((x) => x.id === edge.endpoint.id)!.inRotation, POOL_POLL);
  });

  it('reconnects to a server restarted on the same address and takes it back', async () => {
    const chain = createTestChain();
    const stable = await server(chain);
    const flaky = await server(chain);
    const p = pool({
      servers: [stable, flaky].map((s) => s.endpoint),
      healthIntervalMs: 20,
      reconnectMinMs: 20,
      reconnectMaxMs: 100,
    });
    await p.ready({ timeoutMs: 30_000 });
    await until('both in', () => p.health().every((h) => h.inRotation), POOL_POLL);
    await flaky.close();
    await until('flaky down', () => p.health().find((x) => x.id === flaky.endpoint.id)!.state === 'down', POOL_POLL);
    for (let i = 0; i < 5; i++) await p.getTime(); // served by the stable one meanwhile

    const restarted = await server(chain, { keys: flaky.keys, port: flaky.endpoint.port });
    await until('flaky back', () => p.health().find((x) => x.id === flaky.endpoint.id)!.inRotation, POOL_POLL);
    const before = restarted.callCount('liteServer.getTime');
    for (let i = 0; i < 6; i++) await p.getTime();
    expect(restarted.callCount('liteServer.getTime')).toBeGreaterThan(before);
  });

  it('takes a failing server back once it answers probes again', async () => {
    const chain = createTestChain();
    const a = await server(chain);
    const b = await server(chain);
    const p = pool({
      servers: [a, b].map((s) => s.endpoint),
      attemptTimeoutMs: 1000,
      probeTimeoutMs: 1000,
      healthIntervalMs: 30,
    });
    await p.ready({ timeoutMs: 30_000 });
    await until('both in', () => p.health().every((h) => h.inRotation), POOL_POLL);
    b.fault = 'garbage';
    await until('b out', () => !p.health().find((x) => x.id === b.endpoint.id)!.inRotation, POOL_POLL);
    expect(p.health().find((x) => x.id === b.endpoint.id)!.lastError).toMatch(/does not decode/);
    b.fault = 'none';
    await until('b back', () => p.health().find((x) => x.id === b.endpoint.id)!.inRotation, POOL_POLL);
  });

  it('reports health and metrics in the documented shapes', async () => {
    const chain = createTestChain();
    const a = await server(chain);
    const p = pool({ servers: [a.endpoint], healthIntervalMs: 600_000, archive: [a.endpoint.id] });
    await p.ready({ timeoutMs: 30_000 });
    await p.getTime();
    await p.getMasterchainInfo();
    const [h] = p.health();
    expect(h).toEqual({
      id: a.endpoint.id,
      host: '127.0.0.1',
      port: a.endpoint.port,
      archive: true,
      state: 'up',
      healthy: true,
      inRotation: true,
      mcSeqno: chain.head,
      lagBlocks: 0,
      latencyMs: expect.any(Number),
      lastError: null,
    });
    const m = p.metrics();
    const req = m.counters.find((c) => c.name === 'tongate_lite_requests_total')!;
    expect(req.samples).toEqual(
      expect.arrayContaining([
        { labels: { method: 'getTime', outcome: 'ok' }, value: 1 },
        { labels: { method: 'getMasterchainInfo', outcome: 'ok' }, value: 1 },
      ]),
    );
    const hist = m.histograms.find((x) => x.name === 'tongate_lite_request_seconds')!;
    const getTime = hist.samples.find((s) => s.labels.method === 'getTime')!;
    expect(getTime.count).toBe(1);
    expect(getTime.counts.at(-1)).toBe(1); // cumulative: the last bound (10 s) holds it
    expect(getTime.buckets.length).toBe(getTime.counts.length);
    const seqno = m.gauges.find((g) => g.name === 'tongate_lite_server_mc_seqno')!;
    expect(seqno.samples).toEqual([{ labels: { server: a.endpoint.id }, value: chain.head }]);
    expect(m.gauges.find((g) => g.name === 'tongate_lite_head_mc_seqno')!.samples).toEqual([
      { labels: {}, value: chain.head },
    ]);
  });

  it('close() ends every session and fails later requests with NoLiteServersError', async () => {
    const chain = createTestChain();
    const a = await server(chain);
    const b = await server(chain);
    const p = createLitePool({ servers: [a, b].map((s) => s.endpoint), healthIntervalMs: 20 });
    await p.ready({ timeoutMs: 30_000 });
    await p.getTime();
    b.fault = 'hang';
    const pending = p.getTime({ timeoutMs: 60_000 }).catch((e: unknown) => e); // may be parked on the hung server
    await p.close();
    await p.close(); // idempotent
    expect(p.health().every((h) => h.state === 'closed' && !h.inRotation)).toBe(true);
    const late = await p.getTime().catch((e: unknown) => e);
    expect(late).toBeInstanceOf(NoLiteServersError);
    expect((late as Error).message).toMatch(/closed/);
    const settled = await pending;
    expect(typeof settled === 'number' || settled instanceof NoLiteServersError).toBe(true);
    // The servers see their connections go away.
    await until(
      'server-side connections closed',
      () => a.connectionCount() === 0 && b.connectionCount() === 0,
      POOL_POLL,
    );
  });
});
