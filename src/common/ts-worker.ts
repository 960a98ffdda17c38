// Worker threads whose entry is one of our modules. Run from the sources (tsx, tests), the entry is TypeScript and the
// worker registers tsx's loader before importing it: `--import tsx` in execArgv would be the natural way, but Node 20
// ignores --import for worker threads (checked on 20.20). Run from the compiled dist/ (scripts/build.mjs), the entry
// is the compiled .js beside the caller and the worker imports it directly, without tsx.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx)
  .then((tsx) => { tsx.register(); return import(workerData.entry); })
  .catch((e) => setImmediate(() => { throw e; }));
`;

let tsxApi: string | null = null;

/** tsx's ESM registration API (the `import` condition of `tsx/esm/api`; require.resolve would give the CJS one). */
function tsxApiUrl(): string {
  if (tsxApi !== null) return tsxApi;
  const pkgPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const rel = pkg.exports['./esm/api']?.import.default;
  if (rel === undefined) throw new Error(`tsx at ${pkgPath} has no ESM register API (./esm/api)`);
  tsxApi = pathToFileURL(join(dirname(pkgPath), rel)).href;
  return tsxApi;
}

/**
 * The worker entry to start for `source`, the URL of a .ts module (e.g. ./worker.ts beside the caller), given the
 * caller's import.meta.url `from`: the compiled .js twin when the caller is compiled JavaScript, else `source` itself.
 */
export function workerEntry(source: URL, from: string): string {
  return from.endsWith('.js') ? source.href.replace(/\.ts$/, '.js') : source.href;
}

/**
 * Starts a worker thread running the module `entry` (a file URL from workerEntry), with `data` as its workerData:
 * a compiled .js entry directly, a .ts one through tsx's loader.
 */
export function startTsWorker(
  entry: string,
  data: Record<string, unknown>,
  opts: Omit<WorkerOptions, 'eval' | 'workerData'> = {},
): Worker {
  if (!entry.endsWith('.ts')) return new Worker(new URL(entry), { ...opts, workerData: { ...data } });
  // The bootstrap is CommonJS: a process started with --input-type=module (node -e with imports) would hand that
  // flag down to the worker, which would then read the bootstrap as a module.
  const execArgv = opts.execArgv ?? process.execArgv.filter((a) => !a.startsWith('--input-type'));
  return new Worker(BOOTSTRAP, { ...opts, execArgv, eval: true, workerData: { ...data, tsx: tsxApiUrl(), entry } });
}
