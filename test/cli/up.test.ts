// `tongate up` as users run it (what `npm start` runs): one child process with a devnet, its activity, tail
// indexing into the embedded PGlite and both APIs. Checked over real HTTP; a SIGTERM stops it cleanly and a
// second run continues the same chain and index.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody } from '../helpers/api-fixture.ts';
import { type Child, startTongate, tongate } from '../helpers/cli.ts';
import { type UntilOptions, until } from '../helpers/until.ts';

let data: string;
const children: Child[] = [];

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'tongate-up-'));
});
afterAll(async () => {
  for (const c of children) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  await rm(data, { recursive: true, force: true });
});

const getJson = async (url: string) => {
  const r = await fetch(url);
  return { status: r.status, body: (await r.json()) as JsonBody };
};

/** The service polled as a client would, every 250 ms for up to 2 min (a refused connection means not yet). */
const POLL: UntilOptions = { timeoutMs: 120_000, stepMs: 250, ignoreErrors: true };

/** Kills a child that a failed assertion left running, so the next run can open the data folder. */
async function stopped(child: Child): Promise<void> {
  if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
  await child.exited;
}

async function up(): Promise<{ child: Child; base: string }> {
  const child = startTongate(['up', '--data', data, '--port', '0', '--lite-port', '0', '--block-interval', '200'], {});
  children.push(child);
  const line = await child.waitFor(/^\s+v3\s+http:\/\/127\.0\.0\.1:\d+\/api\/v3/, 180_000);
  const port = /127\.0\.0\.1:(\d+)/.exec(line)?.[1];
  return { child, base: `http://127.0.0.1:${port}` };
}

describe('tongate up', () => {
  it('prints help and refuses bad usage with exit 2', () => {
    const help = tongate('up', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('--port');
    expect(help.out).toContain('TONGATE_DATA');
    const bad = tongate('up', '--port', 'eighty');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('port must be a number');
  });

  let firstHead = 0;
  it('runs devnet, activity, tail indexing and both APIs; stops cleanly on SIGTERM', async () => {
    const { child, base } = await up();
    try {
      // The index follows the chain and the activity lands transactions in it.
      const txs = await until(
        'indexed transactions',
        async () => {
          const r = await getJson(`${base}/api/v3/transactions?limit=5`);
          return r.status === 200 && r.body.transactions.length > 0 ? r.body.transactions : undefined;
        },
        POLL,
      );
      expect(txs[0].hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      const health = await until(
        'index within 3 blocks of the head',
        async () => {
          const h = await getJson(`${base}/healthz`);
          return h.body.index?.lag_blocks <= 3 ? h.body : undefined;
        },
        POLL,
      );
      expect(health.ok).toBe(true);
      expect(health.index.first_mc_seqno).toBe(1);
      // Trace assembly and classification follow the index (issue 24): their lags sit next to the index's.
      expect(health.index.assembly_lag_blocks).toBeGreaterThanOrEqual(0);
      expect(health.index.classification_lag_blocks).toBeGreaterThanOrEqual(0);
      const v2 = await getJson(`${base}/api/v2/getMasterchainInfo`);
      expect(v2.status).toBe(200);
      firstHead = v2.body.result.last.seqno;
      const v3 = await getJson(`${base}/api/v3/masterchainInfo`);
      expect(v3.body.first.seqno).toBe(1);
      expect(v3.body.last.seqno).toBeGreaterThan(1);
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(/^tongate_index_indexed_mc_seqno \d+$/m);
      expect(metrics).toMatch(/^tongate_index_rows_total\{kind="transactions"\} [1-9]\d*$/m);
      expect(metrics).toMatch(/^tongate_traces_assembly_lag_blocks \d+$/m);
      expect(metrics).toMatch(/^tongate_traces_assembly_stalled 0$/m);

      child.proc.kill('SIGTERM');
      expect(await child.exited, child.err.slice(-10).join('\n')).toBe(0);
    } finally {
      await stopped(child);
    }
  }, 300_000);

  it('continues the same chain and index on a second run', async () => {
    const { child, base } = await up();
    try {
      const v2 = await until(
        'devnet past the first run',
        async () => {
          const r = await getJson(`${base}/api/v2/getMasterchainInfo`);
          return r.body.result?.last.seqno > firstHead ? r.body.result : undefined;
        },
        POLL,
      );
      expect(v2.last.seqno).toBeGreaterThan(firstHead);
      const v3 = await until(
        'index past the first run',
        async () => {
          const r = await getJson(`${base}/api/v3/masterchainInfo`);
          return r.body.last?.seqno > firstHead ? r.body : undefined;
        },
        POLL,
      );
      expect(v3.first.seqno).toBe(1);
      child.proc.kill('SIGTERM');
      expect(await child.exited).toBe(0);
    } finally {
      await stopped(child);
    }
  }, 300_000);
});
