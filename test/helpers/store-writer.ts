// Runs store-step-writer.ts in a child process (its own LevelDB handle and LOCK) and follows its output lines.
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');

export interface WriterProcess {
  child: ChildProcess;
  lines: string[];
  stderr: string[];
  /** Resolves with the first line (already seen or coming) that matches; rejects if the process ends first. */
  waitFor(match: (line: string) => boolean): Promise<string>;
  /** Exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
}

export function spawnWriter(storeDir: string, planPath: string, args: string[] = []): WriterProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(here, 'store-step-writer.ts'), storeDir, planPath, ...args],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const stderr: string[] = [];
  const waiters: Array<{ match: (l: string) => boolean; resolve: (l: string) => void; reject: (e: Error) => void }> =
    [];
  let ended = false;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.match(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | null>((res) => {
    child.on('exit', (code) => {
      ended = true;
      // Let the last stdout lines arrive before failing the waiters.
      setImmediate(() => {
        for (const w of waiters.splice(0)) {
          w.reject(new Error(`step writer exited (${code}) first; stderr: ${stderr.join('\n')}`));
        }
        res(code);
      });
    });
  });
  return {
    child,
    lines,
    stderr,
    exited,
    waitFor(match) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      if (ended) return Promise.reject(new Error(`step writer exited first; stderr: ${stderr.join('\n')}`));
      return new Promise((resolve, reject) => waiters.push({ match, resolve, reject }));
    },
    async kill() {
      if (!ended) child.kill('SIGKILL');
      await exited;
    },
  };
}
