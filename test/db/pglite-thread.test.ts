// PGlite in its own thread (src/db/pglite-thread.ts): a statement no longer holds the caller's event loop, and the
// thread keeps a process alive exactly while a call waits for it. What a query returns, its errors, COPY and
// transactions are the same on both back ends, which database.test.ts and statement-timeout.test.ts check.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/index.ts';
import { createScratch, type Scratch } from '../helpers/database.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('PGlite in its own thread', () => {
  let scratch: Scratch;
  let db: Database;
  beforeAll(async () => {
    scratch = await createScratch('pglite');
    db = await createDatabase(scratch.config);
  });
  afterAll(async () => {
    await db?.close();
    await scratch?.cleanup();
  });

  it("keeps the caller's event loop turning while a statement runs", async () => {
    // On the caller's thread a 1.5 s statement let no timer fire until it ended (0 ticks).
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      const r = await db.query<{ n: number }>('SELECT pg_sleep(1.5), 7 AS n');
      expect(r.rows[0]?.n).toBe(7);
    } finally {
      clearInterval(timer);
    }
    // ~150 possible; a handful proves the loop was free (a loaded machine delays timers, it does not stop them).
    expect(ticks).toBeGreaterThan(10);
  });

  it('reads bytea as a Buffer, bytea[] as Buffers, int8 as bigint through the thread', async () => {
    const r = await db.query<{ b: Buffer; bs: Buffer[]; n: bigint }>(
      "SELECT '\\x00ff'::bytea AS b, ARRAY['\\x01'::bytea, '\\x0203'::bytea] AS bs, 9007199254740993::int8 AS n",
    );
    const row = r.rows[0]!;
    expect(Buffer.isBuffer(row.b)).toBe(true);
    expect(row.b.toString('hex')).toBe('00ff');
    expect(row.bs.every((x) => Buffer.isBuffer(x))).toBe(true);
    expect(row.bs.map((x) => x.toString('hex'))).toEqual(['01', '0203']);
    expect(row.n).toBe(9007199254740993n);
  });
});

/** Runs `code` (an ES module importing the database) in a child process; its exit code and output. */
function runChild(code: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b) => {
      out += b;
    });
    child.stderr.on('data', (b) => {
      out += b;
    });
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (exitCode) => {
      clearTimeout(kill);
      resolve({ code: exitCode, out });
    });
  });
}

describe('the PGlite thread and the life of the process', () => {
  let scratch: Scratch;
  beforeAll(async () => {
    scratch = await createScratch('pglite');
  });
  afterAll(async () => {
    await scratch?.cleanup();
  });

  it('keeps the process alive while a query waits, and lets it exit when idle even if never closed', async () => {
    if (scratch.config.kind !== 'pglite') throw new Error('unreachable');
    const r = await runChild(`
      import { createDatabase } from './src/db/index.ts';
      const db = await createDatabase({ kind: 'pglite', dir: ${JSON.stringify(scratch.config.dir)} });
      const r = await db.query('SELECT pg_sleep(0.3), 42 AS n');
      console.log('answer', r.rows[0].n);
    `);
    expect(r.out).toContain('answer 42');
    expect(r.code).toBe(0);
  });
});
