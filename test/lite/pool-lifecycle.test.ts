// close() must leave nothing behind: no socket, no timer, no reconnect.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createLitePool } from '../../src/lite/index.ts';
import {
  createTestChain,
  POOL_POLL,
  startBlackhole,
  startTestLiteServer,
  type TestLiteServer,
} from '../helpers/lite-pool.ts';
import { until } from '../helpers/until.ts';
import { hasVectors } from '../helpers/vectors.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');

describe.skipIf(!hasVectors)('lite pool lifecycle', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('a process that used the pool through failures exits by itself after close()', async () => {
    const chain = createTestChain();
    const good = await startTestLiteServer(chain);
    const killed = await startTestLiteServer(chain);
    const hung = await startTestLiteServer(chain);
    const blackhole = await startBlackhole();
    for (const s of [good, killed, hung, blackhole]) cleanup.push(() => s.close());
    const endpoints = [good.endpoint, killed.endpoint, hung.endpoint, blackhole.endpoint].map((e) => ({
      id: e.id,
      host: e.host,
      port: e.port,
      key: e.publicKey.toString('hex'),
    }));
    endpoints.push({ id: 'refused', host: '127.0.0.1', port: 1, key: good.endpoint.publicKey.toString('hex') });

    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'pool-exit-child.ts')], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, POOL_EXIT_SERVERS: JSON.stringify(endpoints) },
    });
    cleanup.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); // only if this test failed
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    child.stdout.on('data', (d) => {
      out += d;
      if (out === 'ready\n') {
        hung.fault = 'hang';
        void killed.close().then(() => child.stdin.write('go\n'));
      }
    });
    const code = await exited;
    expect(err).toBe('');
    expect(out).toBe('ready\nclosed\n');
    expect(code).toBe(0);
    // The servers were up the whole time: the child's connections ended because the pool closed them.
    await until('server-side connections closed', () => good.connectionCount() === 0, POOL_POLL);
  }, 45_000);

  it('after close() no probe and no reconnect reaches any server', async () => {
    const chain = createTestChain();
    const alive = await startTestLiteServer(chain);
    cleanup.push(() => alive.close());
    let dead: TestLiteServer = await startTestLiteServer(chain);
    const pool = createLitePool({
      servers: [alive.endpoint, dead.endpoint],
      healthIntervalMs: 10,
      reconnectMinMs: 10,
      reconnectMaxMs: 10,
    });
    await pool.ready({ timeoutMs: 30_000 });
    await dead.close();
    await until('dead server noticed', () => pool.health()[1]!.state === 'down', POOL_POLL);
    await until('probes running', () => alive.callCount('liteServer.getMasterchainInfo') >= 3, POOL_POLL);

    await pool.close();
    // Bring the dead address back: a reconnect timer that survived close() would now connect to it.
    dead = await startTestLiteServer(chain, { keys: dead.keys, port: dead.endpoint.port });
    cleanup.push(() => dead.close());
    await until('pool connection gone', () => alive.connectionCount() === 0, POOL_POLL);
    const probes = alive.callCount('liteServer.getMasterchainInfo');
    await new Promise((r) => setTimeout(r, 200)); // twenty health intervals and twenty reconnect periods
    expect(alive.callCount('liteServer.getMasterchainInfo')).toBe(probes);
    expect(dead.connectionCount()).toBe(0);
    expect(dead.callCount('liteServer.getMasterchainInfo')).toBe(0);
  });
});
