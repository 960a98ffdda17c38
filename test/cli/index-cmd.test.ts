// `tongate index rederive|metadata` as users run them: a child process through bin/tongate.js on an embedded
// database, with usage errors (exit 2, one line) and a real run on a migrated but empty index.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function tongate(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'tongate.js'), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}

describe('tongate index', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tongate-index-cmd-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('explains itself with --help', async () => {
    const r = await tongate(['index', 'rederive', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--family/);
    expect(r.out).toMatch(/--from/);
    const m = await tongate(['index', 'metadata', '--help']);
    expect(m.code).toBe(0);
    expect(m.out).toMatch(/--rate/);
  }, 120_000);

  it('refuses a missing or unknown family, and a reversed range, with exit 2', async () => {
    const none = await tongate(['index', 'rederive', '--data', dir]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/--family is required/);
    const bad = await tongate(['index', 'rederive', '--family', 'jettons', '--data', dir]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown family 'jettons'/);
    const reversed = await tongate(['index', 'rederive', '--family', 'all', '--from', '9', '--to', '3', '--data', dir]);
    expect(reversed.code).toBe(2);
    expect(reversed.err).toMatch(/--from 9 is after --to 3/);
  }, 120_000);

  it('rederives an empty index to nothing and says so', async () => {
    const r = await tongate(['index', 'rederive', '--family', 'all', '--data', dir, '--no-progress']);
    expect(r.err).not.toMatch(/TypeError|at .*\.ts:/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Rederived jetton, nft, dns, multisig, vesting: 0 latest-state rows, 0 event rows/);
  }, 120_000);

  it('runs one metadata pass over an empty index', async () => {
    const r = await tongate(['index', 'metadata', '--once', '--data', dir]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Fetched 0 metadata documents/);
  }, 120_000);
});
