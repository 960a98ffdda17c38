#!/usr/bin/env node
// Runs the JavaScript that npm ci compiled into dist/ (scripts/build.mjs) when it was compiled from exactly the
// sources here now; otherwise the TypeScript sources through tsx's loader, compiled on every start (slower, never
// stale). "Exactly": dist/build-stamp.json lists the path, mtime and size of every compiled source and build input,
// and each must still match (one stat a file, a few ms; `npm run bench:cli` shows it). So a checkout whose src/
// changed after the build, a failed or interrupted build, or no build at all runs the sources, as does
// TONGATE_FROM_SOURCE=1. `npm run build` compiles again.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The stamp format scripts/build.mjs writes (STAMP_FORMAT there). */
const STAMP_FORMAT = 1;

/** dist/cli/main.js's URL if dist/ is up to date with the sources, else null. */
function compiledMain() {
  const fromSource = process.env.TONGATE_FROM_SOURCE;
  if (fromSource !== undefined && fromSource !== '' && fromSource !== '0') return null;
  const root = fileURLToPath(new URL('..', import.meta.url)); // ends with the separator
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(`${root}dist/build-stamp.json`, 'utf8'));
  } catch {
    return null;
  }
  if (stamp?.format !== STAMP_FORMAT || !Array.isArray(stamp.inputs)) return null;
  for (const [path, mtimeMs, size] of stamp.inputs) {
    const s = statSync(root + path, { throwIfNoEntry: false });
    if (s === undefined || s.mtimeMs !== mtimeMs || s.size !== size) return null;
  }
  return pathToFileURL(`${root}dist/cli/main.js`).href;
}

const compiled = compiledMain();
let main;
if (compiled !== null) {
  ({ main } = await import(compiled));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
