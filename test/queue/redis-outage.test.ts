// Issue 24: Redis outages under `tongate work` and `tongate walk tail`, run as real child processes against a
// running devnet (one block a second), PostgreSQL and a private redis-server that the test kills (SIGKILL) and
// starts again empty. The reconnect backoff is shortened through TONGATE_REDIS_BACKOFF (100 ms doubling to a
// 1 s cap, the "still down" reminder every 4 s instead of every minute), so a 15 s outage spans every backoff
// step and several reminders. Shown: each process logs a handful of lines through the outage (not a line per
// attempt), both recover when Redis is back (blocks produced meanwhile get queued and indexed), SIGTERM during
// an outage ends both cleanly within the grace period, and with Redis down at start both exit 75 in under 10 s.
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Child, startTongate } from '../helpers/cli.ts';
import { createScratch, type Scratch } from '../helpers/database.ts';
import { type DevnetChain, startDevnetChain } from '../helpers/devnet-chain.ts';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.ts';

const OUTAGE_MS = 15_000;
/** onShutdownSignal's grace period: after it a process exits with 75 whatever it was doing. */
const GRACE_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let chain: DevnetChain;
let pg: Scratch;
let redis: RedisServer;
let env: Record<string, string>;
const children: Child[] = [];

function start(args: string[], extraEnv: Record<string, string> = {}): Child {
  const c = startTongate([...args, '--devnet-store', chain.info.devnetDir, '--decode-threads', '0', '--no-decoders'], {
    ...env,
    ...extraEnv,
  });
  children.push(c);
  dumpOnFailure(c);
  return c;
}

/** What `c` said last, when the current test fails (a hang otherwise shows only a timeout). */
function dumpOnFailure(c: Child): void {
  onTestFailed(() => {
    const args = c.proc.spawnargs.slice(2, 4).join(' ');
    console.error(`--- tongate ${args} (exit ${c.proc.exitCode}):\n${c.err.slice(-40).join('\n')}`);
  });
}

const msgOf = (line: string) => {
  try {
    return String((JSON.parse(line) as { msg?: unknown }).msg);
  } catch {
    return line;
  }
};
const count = (lines: string[], msg: string) => lines.filter((l) => msgOf(l) === msg).length;
const indexedSeqnos = (lines: string[]) =>
  lines
    .filter((l) => msgOf(l) === 'Indexed masterchain block')
    .map((l) => Number((JSON.parse(l) as { mcSeqno: number }).mcSeqno));

/** Resolves once `c` logged `msg` at or after line `from` of its stderr. */
async function logged(c: Child, msg: string, from: number, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!c.err.slice(from).some((l) => msgOf(l) === msg)) {
    if (c.proc.exitCode !== null) throw new Error(`exited (${c.proc.exitCode}) before logging '${msg}'`);
    if (Date.now() > end) throw new Error(`timed out waiting for '${msg}'`);
    await sleep(50);
  }
}

beforeAll(async () => {
  chain = await startDevnetChain({ seed: 'redis-outage', steps: 0, blockIntervalMs: 1000 });
  pg = await createScratch('postgres');
  redis = await startRedisServer();
  env = {
    DATABASE_URL: pg.config.kind === 'postgres' ? pg.config.url : '',
    REDIS_URL: redis.url,
    TONGATE_REDIS_BACKOFF: '100,1000,4000',
  };
}, 120_000);

afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  await redis?.kill();
  await chain?.node.stop();
  await pg?.cleanup();
});

describe('Redis outages under work and walk tail', () => {
  let work: Child;
  let tail: Child;

  it('logs a few lines through a 15 s outage (not one per attempt) and both recover when Redis is back', async () => {
    work = start(['work']);
    await work.waitFor(/"msg":"Started worker"/, 90_000);
    tail = start(['walk', 'tail']);
    await tail.waitFor(/"msg":"Started following the masterchain head"/, 90_000);
    await logged(work, 'Indexed masterchain block', 0);

    const before = Math.max(...indexedSeqnos(work.err));
    const w0 = work.err.length;
    const t0 = tail.err.length;
    const killedAt = Date.now();
    await redis.kill();
    await logged(work, 'Lost the connection to Redis, reconnecting', w0, 10_000);
    await logged(tail, 'Lost the connection to Redis, reconnecting', t0, 10_000);
    await sleep(OUTAGE_MS - (Date.now() - killedAt));
    const duringWork = work.err.slice(w0);
    const duringTail = tail.err.slice(t0);
    await redis.start();
    const w1 = work.err.length;

    // Back: one line each, then the blocks the devnet produced meanwhile are queued by tail (on the new, empty
    // Redis) and indexed by work.
    await logged(work, 'Reconnected to Redis', w0, 30_000);
    await logged(tail, 'Reconnected to Redis', t0, 30_000);
    const end = Date.now() + 60_000;
    while (!indexedSeqnos(work.err.slice(w1)).some((s) => s >= before + 3)) {
      if (Date.now() > end) throw new Error(`no block after ${before} indexed after Redis came back`);
      await sleep(200);
    }

    // What each said while Redis was away (soft: every count is reported, and the next test starts from here).
    for (const [name, lines] of [
      ['work', duringWork],
      ['walk tail', duringTail],
    ] as const) {
      const said = `${name} during the outage:\n${lines.join('\n')}`;
      expect.soft(lines.length, said).toBeLessThan(20);
      expect.soft(count(lines, 'Lost the connection to Redis, reconnecting'), said).toBe(1);
      // The reminder, every 4 s here (every minute by default): one line per period, not per attempt.
      expect.soft(count(lines, 'Redis is still unreachable, reconnecting'), said).toBeGreaterThanOrEqual(2);
      expect.soft(count(lines, 'Redis is still unreachable, reconnecting'), said).toBeLessThanOrEqual(4);
      expect.soft(count(lines, 'Reconnected to Redis'), said).toBe(0);
    }
    expect(work.proc.exitCode).toBeNull();
    expect(tail.proc.exitCode).toBeNull();
  }, 180_000);

  it('SIGTERM while Redis is down ends both within the grace period, cleanly (exit 0)', async () => {
    dumpOnFailure(work);
    dumpOnFailure(tail);
    expect(redis.running).toBe(true);
    await logged(work, 'Reconnected to Redis', 0, 30_000);
    await logged(tail, 'Reconnected to Redis', 0, 30_000);
    const w0 = work.err.length;
    const t0 = tail.err.length;
    await redis.kill();
    await logged(work, 'Lost the connection to Redis, reconnecting', w0, 10_000);
    await logged(tail, 'Lost the connection to Redis, reconnecting', t0, 10_000);
    await sleep(2000);
    const signalled = Date.now();
    work.proc.kill('SIGTERM');
    tail.proc.kill('SIGTERM');
    const took = async (c: Child) => {
      const code = await c.exited;
      return { code, ms: Date.now() - signalled };
    };
    const [w, t] = await Promise.all([took(work), took(tail)]);
    // 0, not the 75 of the grace timer: each stopped on its own.
    expect(w.code, work.err.slice(-10).join('\n')).toBe(0);
    expect(t.code, tail.err.slice(-10).join('\n')).toBe(0);
    expect(w.ms).toBeLessThan(GRACE_MS);
    expect(t.ms).toBeLessThan(GRACE_MS);
    expect(count(work.err, 'Stopped worker')).toBe(1);
  }, 90_000);

  it('Redis down at start: one line and exit 75 in under 10 s', async () => {
    expect(redis.running).toBe(false);
    const t0 = Date.now();
    const runs = [start(['work']), start(['walk', 'tail'])];
    const results = await Promise.all(runs.map(async (c) => ({ code: await c.exited, ms: Date.now() - t0, c })));
    for (const { code, ms, c } of results) {
      expect(code, c.err.join('\n')).toBe(75);
      expect(ms).toBeLessThan(10_000);
      expect(c.err, c.err.join('\n')).toHaveLength(1);
      expect(c.err[0]).toMatch(
        /^tongate (work|walk tail): cannot reach Redis redis:\/\/127\.0\.0\.1:\d+.*ECONNREFUSED/,
      );
    }
  }, 60_000);
});
