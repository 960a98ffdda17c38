// The CLI as users run it: `tongate <args>` as a real child process through bin/tongate.js.
// - tongate(...args): to completion, blocking this process (spawnSync);
// - runTongate(args, options): to completion without blocking this process (a devnet child keeps running
//   meanwhile), with the child's environment and a kill timeout of the caller's choosing;
// - startTongate(args, env): long-running (or the bare worker file), with its stdout and stderr collected line by
//   line, and a way to wait for a line.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(ROOT, 'bin', 'tongate.js');

/** What a finished run printed, and its exit code (null when killed by a signal). */
export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/** `tongate <args>` to completion, blocking: this process's environment, killed after 60 s. */
export function tongate(...args: string[]): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

export interface RunOptions {
  /** The child's whole environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** SIGKILLs the child after this long (default: never). */
  timeoutMs?: number;
}

/** `tongate <args>` to completion without blocking this process, run from the checkout's root. */
export function runTongate(args: string[], { env, timeoutMs }: RunOptions = {}): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}

export interface Child {
  proc: ChildProcess;
  out: string[];
  err: string[];
  exited: Promise<number | null>;
  /** Resolves with the first stdout/stderr line matching `re` (already seen or later); rejects on exit or timeout. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<string>;
}

/** `tongate <args>` as a child process; with `entry: 'worker'`, the bare worker file src/cli/bare-worker.ts. */
export function startTongate(
  args: string[],
  env: Record<string, string | undefined>,
  entry: 'cli' | 'worker' = 'cli',
): Child {
  const argv =
    entry === 'cli'
      ? [CLI, ...args]
      : ['--import', 'tsx', join(ROOT, 'src', 'cli', 'bare-worker.ts'), ...args.slice(1)];
  const proc = spawn(process.execPath, argv, {
    env: { ...process.env, DATABASE_URL: undefined, REDIS_URL: undefined, TONGATE_DATA: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exitedFlag = false;
  const waiters: Array<() => void> = [];
  const notify = () => {
    for (const w of waiters.splice(0)) w();
  };
  const c: Child = {
    proc,
    out: [],
    err: [],
    exited: new Promise((res) =>
      proc.once('exit', (code, signal) => {
        exitedFlag = true;
        notify();
        res(signal ? null : code);
      }),
    ),
    waitFor(re, timeoutMs = 120_000) {
      return new Promise((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re}`)), timeoutMs);
        const check = () => {
          const line = [...c.out, ...c.err].find((l) => re.test(l));
          if (line !== undefined) {
            clearTimeout(timer);
            return resolvePromise(line);
          }
          if (exitedFlag) {
            clearTimeout(timer);
            return reject(new Error(`process exited before ${re}:\n${c.err.slice(-20).join('\n')}`));
          }
          waiters.push(check);
        };
        check();
      });
    },
  };
  const collect = (sink: string[]) => {
    let buf = '';
    return (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      sink.push(...lines);
      if (lines.length) notify();
    };
  };
  proc.stdout?.on('data', collect(c.out));
  proc.stderr?.on('data', collect(c.err));
  return c;
}
