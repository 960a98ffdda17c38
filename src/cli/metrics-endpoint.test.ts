import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type HealthSource, serveMetrics } from '../app.ts';
import { createMetricsRegistry } from '../common/index.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function serve(health?: HealthSource): Promise<string> {
  const s = await serveMetrics(createMetricsRegistry(), 0, '127.0.0.1', health);
  servers.push(s);
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('the metrics listener', () => {
  it('answers /healthz with the source, its head and its coverage (bigints decimal, buffers hex)', async () => {
    const url = await serve({
      name: 'node-db',
      head: async () => 42,
      coverage: async () => ({ blocks: { from: 1, to: 42 }, lt: 2n ** 64n, hash: Buffer.from([0xab, 0x01]) }),
    });
    const r = await fetch(`${url}/healthz`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(await r.json()).toEqual({
      ok: true,
      source: {
        name: 'node-db',
        head: 42,
        coverage: { blocks: { from: 1, to: 42 }, lt: '18446744073709551616', hash: 'ab01' },
      },
    });
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    const other = await fetch(`${url}/nothing`);
    expect(other.status).toBe(404);
    expect(await other.text()).toContain('GET /healthz');
  });

  it('answers 503 with the error when the source cannot tell its head', async () => {
    const url = await serve({
      name: 'lite',
      head: async () => {
        throw new Error('no liteserver answered\nsecond line');
      },
    });
    const r = await fetch(`${url}/healthz`);
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({
      ok: false,
      source: { name: 'lite', head: null, error: 'no liteserver answered' },
    });
  });

  it('has no /healthz without a source to report on', async () => {
    const url = await serve();
    expect((await fetch(`${url}/healthz`)).status).toBe(404);
  });
});
