// A private redis-server for tests that stop and restart Redis under running processes (never the shared one
// other test files use): `--save '' --appendonly no`, so a restart loses every key, as the worst case does.
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './devnet-chain.ts';

export interface RedisServer {
  port: number;
  url: string;
  /** Kills the server (SIGKILL: no goodbye to the clients) and waits for it to be gone. */
  kill(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  start(): Promise<void>;
  readonly running: boolean;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let proc: ChildProcess | undefined;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return proc !== undefined && proc.exitCode === null && proc.signalCode === null;
    },
    async start() {
      const p = spawn(
        'redis-server',
        ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      proc = p;
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('redis-server did not start within 10 s')), 10_000);
        let out = '';
        p.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('Ready to accept connections')) {
            clearTimeout(t);
            resolve();
          }
        });
        p.once('exit', (code) => {
          clearTimeout(t);
          reject(new Error(`redis-server exited with ${code}: ${out.slice(-500)}`));
        });
      });
    },
    async kill() {
      const p = proc;
      if (!p || p.exitCode !== null || p.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => p.once('exit', () => resolve()));
      p.kill('SIGKILL');
      await gone;
    },
  };
  await server.start();
  return server;
}
