// The compiled CLI (scripts/build.mjs -> dist/, run by bin/tongate.js): it prints exactly what the tsx fallback
// prints, it is never run once a source differs from what was compiled, and it needs no tsx, in worker threads
// either. Everything happens in a copy of the checkout in a temporary folder (sources, bin/, the build script;
// node_modules linked package by package), so the real dist/ is neither read nor written and sources can be
// changed freely. Which path ran is told by a marker written into the compiled dist/cli/main.js only.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../helpers/vectors.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SPAWN_TIMEOUT_MS = 120_000;
const MARKER = 'COMPILED-MARKER';
const SUMMARY = 'self-hostable TON blockchain access';

let copy = '';
let blockFile = '';

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function node(args: string[], env: Record<string, string> = {}): Run {
  const r = spawnSync(process.execPath, args, {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, TONGATE_FROM_SOURCE: '', ...env },
    timeout: SPAWN_TIMEOUT_MS,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
/** bin/tongate.js of the copy: as it chooses, or (fromSource) through tsx. */
const tongate = (args: string[], fromSource = false) =>
  node([join(copy, 'bin', 'tongate.js'), ...args], fromSource ? { TONGATE_FROM_SOURCE: '1' } : {});
const build = () => node([join(copy, 'scripts', 'build.mjs')]);
const check = () => node([join(copy, 'scripts', 'build.mjs'), '--check']);

/** Puts the marker into the compiled root summary (dist/ only: the sources and the stamp stay as they are). */
function markCompiled(): void {
  const main = join(copy, 'dist', 'cli', 'main.js');
  const text = readFileSync(main, 'utf8');
  expect(text).toContain(SUMMARY);
  writeFileSync(main, text.replace(SUMMARY, `${MARKER} ${SUMMARY}`));
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'tongate-compiled-'));
  const notTest = (p: string) => !p.endsWith('.test.ts');
  for (const d of ['src', 'workers', 'bin']) cpSync(join(ROOT, d), join(copy, d), { recursive: true, filter: notTest });
  mkdirSync(join(copy, 'scripts'));
  cpSync(join(ROOT, 'scripts', 'build.mjs'), join(copy, 'scripts', 'build.mjs'));
  for (const f of ['package.json', 'tsconfig.json']) cpSync(join(ROOT, f), join(copy, f));
  // every package linked on its own, so that tsx alone can be taken away
  mkdirSync(join(copy, 'node_modules'));
  for (const e of readdirSync(join(ROOT, 'node_modules'))) {
    symlinkSync(join(ROOT, 'node_modules', e), join(copy, 'node_modules', e));
  }
  if (hasVectors) {
    const v = loadVector<{ boc_base64: string }>('blocks', 'mainnet_0_c000000000000000_13516764.json');
    blockFile = join(copy, 'block.boc');
    writeFileSync(blockFile, Buffer.from(v.boc_base64, 'base64'));
  }
  const b = build();
  expect(b.code, b.err).toBe(0);
}, 300_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('the compiled CLI', () => {
  it('is run when dist/ is up to date, and the tsx fallback when TONGATE_FROM_SOURCE=1', () => {
    expect(check().code).toBe(0);
    markCompiled();
    const compiled = tongate(['--help']);
    expect(compiled.code, compiled.err).toBe(0);
    expect(compiled.out).toContain(MARKER);
    const source = tongate(['--help'], true);
    expect(source.code, source.err).toBe(0);
    expect(source.out).toContain(SUMMARY);
    expect(source.out).not.toContain(MARKER);
    expect(build().code).toBe(0); // an unmarked dist/ for the next tests
  });

  it('prints the same as the tsx fallback: help, usage errors and exit codes', () => {
    expect(check().code).toBe(0);
    for (const args of [
      [],
      ['--help'],
      ['decode', '--help'],
      ['walk', '--help'],
      ['walk', 'backfill', '--help'],
      ['db', 'migrate', '--help'],
      ['devnet', 'faucet', '--help'],
      ['frobnicate'],
      ['decode', '--bogus', 'x'],
      ['decode', 'not a boc!!'],
      ['keys'],
    ]) {
      const compiled = tongate(args);
      const source = tongate(args, true);
      expect(compiled, `tongate ${args.join(' ')}`).toEqual(source);
    }
  });

  it.skipIf(!hasVectors)('decodes a real block to the same JSON as the tsx fallback', () => {
    const compiled = tongate(['decode', blockFile]);
    expect(compiled.code, compiled.err).toBe(0);
    expect(JSON.parse(compiled.out).type).toBe('block');
    expect(compiled).toEqual(tongate(['decode', blockFile], true));
  });

  it('loads no package for --help', () => {
    const script = `
      import { createRequire } from 'node:module';
      const { main } = await import(${JSON.stringify(pathToFileURL(join(copy, 'dist', 'cli', 'main.js')).href)});
      if ((await main(['--help'])) !== 0) process.exit(1);
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      process.stderr.write(JSON.stringify(loaded.filter((f) => f.includes('node_modules'))));
    `;
    const r = node(['--input-type=module', '-e', script]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Usage: tongate <command>');
    expect(JSON.parse(r.err)).toEqual([]);
  });

  it('is never run once a source differs from what was compiled', () => {
    expect(check().code).toBe(0);
    markCompiled();
    expect(tongate(['--help']).out).toContain(MARKER);
    const clean = tongate(['--help'], true);

    // a source edited after the build: bigger
    const file = join(copy, 'src', 'cli', 'decode.ts');
    const original = readFileSync(file);
    appendFileSync(file, '\n// edited after the build\n');
    let r = tongate(['--help']);
    expect(r).toEqual(clean);
    const c = check();
    expect(c.code).toBe(1);
    expect(c.out).toContain('src/cli/decode.ts changed after the build');
    // the same bytes again, but written after the build (its mtime differs from the stamp's)
    writeFileSync(file, original);
    r = tongate(['--help']);
    expect(r).toEqual(clean);
    expect(check().code).toBe(1);

    // rebuilt: compiled again; then a compiled source removed
    expect(build().code).toBe(0);
    markCompiled();
    expect(tongate(['--help']).out).toContain(MARKER);
    const gone = join(copy, 'src', 'cli', 'json.ts');
    const kept = readFileSync(gone);
    rmSync(gone);
    expect(tongate(['--help'])).toEqual(clean);
    expect(check().out).toContain('src/cli/json.ts is gone');
    writeFileSync(gone, kept);

    // no stamp (a build that failed or was interrupted), or one of another format
    expect(build().code).toBe(0);
    markCompiled();
    const stampFile = join(copy, 'dist', 'build-stamp.json');
    const stamp = readFileSync(stampFile, 'utf8');
    writeFileSync(stampFile, stamp.replace('"format":1', '"format":999'));
    expect(tongate(['--help'])).toEqual(clean);
    rmSync(stampFile);
    expect(tongate(['--help'])).toEqual(clean);
    writeFileSync(stampFile, stamp);
    expect(tongate(['--help']).out).toContain(MARKER);
    expect(build().code).toBe(0);
  });

  it('needs no tsx: the CLI and its worker threads (TVM, decode pool) run from dist/', () => {
    expect(check().code).toBe(0);
    const tsx = join(copy, 'node_modules', 'tsx');
    const away = join(copy, 'node_modules', '.tsx-away');
    renameSync(tsx, away);
    try {
      // the fallback cannot run now: what runs below is dist/ alone
      expect(tongate(['--help'], true).code).not.toBe(0);
      const help = tongate(['--help']);
      expect(help.code, help.err).toBe(0);
      expect(help.out).toContain('Usage: tongate <command>');
      if (hasVectors) {
        const d = tongate(['decode', blockFile]);
        expect(d.code, d.err).toBe(0);
      }
      const dist = pathToFileURL(join(copy, 'dist', 'x')).href.slice(0, -1);
      const script = `
        const { createTvmRunner } = await import('${dist}tvm/index.js');
        const tvm = await createTvmRunner({ threads: 1 });
        await tvm.close();
        const { createDecodePool } = await import('${dist}index/decode-pool/index.js');
        const pool = createDecodePool({ source: { name: 'compiled-test' }, threads: 1 });
        await pool.ready();
        await pool.close();
        console.log('workers started');
      `;
      const w = node(['--input-type=module', '-e', script]);
      expect(w.err).toBe('');
      expect(w.out.trim()).toBe('workers started');
      expect(w.code).toBe(0);
    } finally {
      renameSync(away, tsx);
    }
  });
});
