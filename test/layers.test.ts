// The layer rules of .dependency-cruiser.cjs (issue 22), run by `npm test`: the tree keeps them (no import cycle in
// src/ or workers/, no import of a layer above or beside), and the rules do catch what they forbid (a probe tree with
// an upward import, a cycle, and an allowed import of the devnet's store).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

/** depcruise's verdicts ("error <rule>: <from> → <to>") on `paths` under `cwd`, and its exit code. */
async function cruise(cwd: string, paths: string[]): Promise<{ code: number; errors: string[] }> {
  const run = promisify(execFile);
  try {
    const r = await run(DEPCRUISE, ['--config', CONFIG, '--output-type', 'err', ...paths], { cwd });
    return { code: 0, errors: r.stdout.split('\n').filter((l) => /^\s*error /.test(l)) };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    const out = `${err.stdout ?? ''}\n${err.stderr ?? ''}`;
    return { code: err.code ?? 1, errors: out.split('\n').filter((l) => /^\s*error /.test(l)) };
  }
}

describe('layer rules (dependency-cruiser)', () => {
  const probes: string[] = [];
  afterAll(async () => {
    for (const p of probes) await rm(p, { recursive: true, force: true });
  });

  it('src/ and workers/ keep them: no cycle, no upward or sideways import', async () => {
    const r = await cruise(ROOT, ['src', 'workers']);
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
  }, 120_000);

  it('catch an upward import and a cycle, and let a part import the devnet store below it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tongate-layers-'));
    probes.push(dir);
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true },
        include: ['src'],
      }),
      'src/ton/cell.ts': "import { route } from '../api/v3/route.ts';\nexport const cell = route;\n",
      'src/api/v3/route.ts': 'export const route = 1;\n',
      'src/index/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'src/index/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
      'src/index/source.ts': "import { store } from '../devnet/store/store.ts';\nexport const source = store;\n",
      'src/devnet/store/store.ts': 'export const store = 1;\n',
    };
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), text);
    }
    const r = await cruise(dir, ['src']);
    expect(r.code).not.toBe(0);
    expect(r.errors.some((l) => l.includes('layer-ton') && l.includes('src/ton/cell.ts'))).toBe(true);
    expect(r.errors.some((l) => l.includes('no-circular') && l.includes('src/index/'))).toBe(true);
    expect(r.errors.filter((l) => l.includes('source.ts'))).toEqual([]);
  }, 120_000);
});
