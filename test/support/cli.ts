// Runs the CLI as users do: a real child process through bin/tongate.js.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function tongate(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'tongate.js'), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
