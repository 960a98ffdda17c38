// Ports before anything else (issue 24): `tongate up`, `serve` and `devnet` as real child processes, each given a
// port this test holds open. Each must exit 2 with a line naming the port and the option that moves it, and must
// not have created its --data folder; `up` within 5 s (the bound, far above what the check takes).
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTongate } from '../helpers/cli.ts';
import { freePort } from '../helpers/devnet-chain.ts';

let root: string;
const held: Server[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tongate-ports-'));
});
afterAll(async () => {
  for (const s of held) await new Promise((r) => s.close(r));
  await rm(root, { recursive: true, force: true });
});

/** A port on 127.0.0.1 that this process listens on until the end of the file. */
async function hold(port = 0): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve());
  });
  held.push(s);
  const a = s.address();
  return typeof a === 'object' && a ? a.port : 0;
}

/** Two adjacent ports, both held (a devnet's liteserver port and its config port = liteserver port + 1). */
async function holdPair(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await hold();
    if (first >= 65535) continue;
    try {
      await hold(first + 1);
      return first;
    } catch {}
  }
  throw new Error('no two adjacent free ports');
}

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** Runs `tongate <args>` to its end; the time is measured from the spawn to the exit. */
async function run(args: string[]): Promise<{ code: number | null; err: string; ms: number }> {
  const started = Date.now();
  const child = startTongate(args, {});
  const code = await child.exited;
  return { code, err: child.err.join('\n'), ms: Date.now() - started };
}

describe('a port in use', () => {
  it('up: the HTTP port busy exits 2 within 5 s and creates nothing in --data', async () => {
    const port = await hold();
    const data = join(root, 'up-http');
    const r = await run(['up', '--data', data, '--port', String(port), '--lite-port', '0']);
    expect(r.code, r.err).toBe(2);
    expect(r.ms).toBeLessThan(5000);
    expect(r.err).toContain(
      `port ${port} on 127.0.0.1 (the HTTP API) is already in use; pick another with --port or PORT`,
    );
    expect(r.err.split('\n').filter((l) => l.trim() !== '')).toHaveLength(1);
    expect(await exists(data)).toBe(false);
  });

  it("up: the devnet's liteserver port or its config port (lite port + 1) busy exits 2, naming --lite-port", async () => {
    const lite = await hold();
    const data = join(root, 'up-lite');
    const r = await run(['up', '--data', data, '--port', '0', '--lite-port', String(lite)]);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain(`port ${lite} on 127.0.0.1 (the devnet's liteserver) is already in use`);
    expect(r.err).toContain('--lite-port');
    expect(await exists(data)).toBe(false);

    const pair = await holdPair();
    // The liteserver port itself is free here: only its config port (pair + 1) is taken.
    await new Promise((r) => held.find((s) => (s.address() as { port: number }).port === pair)!.close(r));
    const r2 = await run(['up', '--data', data, '--port', '0', '--lite-port', String(pair)]);
    expect(r2.code, r2.err).toBe(2);
    expect(r2.err).toContain(`port ${pair + 1} on 127.0.0.1 (the devnet's config endpoint (--lite-port + 1))`);
    expect(r2.err).toContain('pick another with --lite-port');
    expect(await exists(data)).toBe(false);
  });

  it('up: the HTTP port equal to a devnet port exits 2 before binding anything', async () => {
    const data = join(root, 'up-same');
    const r = await run(['up', '--data', data, '--port', '40001', '--lite-port', '40000']);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain('would both listen on port 40001');
    expect(await exists(data)).toBe(false);
  });

  it('up: bad API options exit 2 before anything starts too', async () => {
    const data = join(root, 'up-options');
    const r = await run(['up', '--data', data, '--port', '0', '--lite-port', '0', '--tvm-threads', '999']);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain('--tvm-threads must be between 1 and 64');
    expect(await exists(data)).toBe(false);
  });

  it('up: a port taken after the check (the API cannot listen) stops the devnet and the indexer, exit 2', async () => {
    const port = await freePort();
    const data = join(root, 'up-late');
    const child = startTongate(['up', '--data', data, '--port', String(port), '--lite-port', '0'], {});
    try {
      // The devnet runs: the database, the indexer and then the API come next. Someone takes the API's port now.
      await child.waitFor(/"msg":"Started devnet"/, 120_000);
      await hold(port);
      expect(await child.exited, child.err.slice(-5).join('\n')).toBe(2);
      expect(child.err.join('\n')).toContain(`port ${port} on 127.0.0.1 is already in use; pick another with --port`);
    } finally {
      if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
      await child.exited;
    }
  }, 180_000);

  it('serve: the HTTP port busy exits 2 before opening the database', async () => {
    const port = await hold();
    const data = join(root, 'serve');
    const r = await run(['serve', '--data', data, '--port', String(port)]);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain(
      `port ${port} on 127.0.0.1 (the HTTP API) is already in use; pick another with --port or PORT`,
    );
    // Without DATABASE_URL serve would have opened PGlite in DATA/pg.
    expect(await exists(data)).toBe(false);
  });

  it('devnet: the liteserver or the HTTP port busy exits 2 before the genesis', async () => {
    const lite = await hold();
    const data = join(root, 'devnet');
    const r = await run(['devnet', '--data', data, '--lite-port', String(lite), '--http-port', '0']);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain(
      `port ${lite} on 127.0.0.1 (the liteserver) is already in use; pick another with --lite-port`,
    );
    expect(await exists(data)).toBe(false);

    const http = await hold();
    const r2 = await run(['devnet', '--data', data, '--lite-port', '0', '--http-port', String(http)]);
    expect(r2.code, r2.err).toBe(2);
    expect(r2.err).toContain(`port ${http} on 127.0.0.1 (the config and health endpoint) is already in use`);
    expect(r2.err).toContain('--http-port');
    expect(await exists(data)).toBe(false);
  });
});
