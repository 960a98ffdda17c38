// Worker threads whose entry is TypeScript: the worker registers tsx's loader before importing its entry. `--import
// tsx` in execArgv would be the natural way, but Node 20 ignores --import for worker threads (checked on 20.20).
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

/** Starts a worker thread running the TypeScript module `entry` (a file URL), with `data` as its workerData. */
export function startTsWorker(
  entry: string,
  data: Record<string, unknown>,
  opts: Omit<WorkerOptions, 'eval' | 'workerData'> = {},
): Worker {
  return new Worker(BOOTSTRAP, { ...opts, eval: true, workerData: { ...data, tsx: tsxApiUrl(), entry } });
}
