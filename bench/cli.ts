// bench/cli: how long the CLI takes to start, as ratios to `node -e 0` measured in the same run (machines are shared
// and noisy, so only the ratios mean anything). Each figure is the median of --runs fresh processes, the cases taking
// turns so that noise spreads over all of them (after one untimed round, so files are in the page cache):
//   node -e 0                              the floor: a Node process that does nothing;
//   tongate --help                         bin/tongate.js on the compiled dist/ (its freshness check included);
//   tongate decode <block>                 the same, decoding a real mainnet block BoC file to JSON;
//   the same two with TONGATE_FROM_SOURCE  the tsx fallback a checkout runs when dist/ is missing or stale;
//   freshness check                        bin/tongate.js's stamp check alone (read dist/build-stamp.json, stat
//                                          every input), in a fresh process.
// dist/ is compiled first (npm run build) when it is not up to date, so the compiled figures are of the sources here.
// Block: the first of blocks/ in the real-chain vectors ($TONGATE_VECTORS or ../shared/vectors), or --block FILE.
// Usage: node --import tsx bench/cli.ts [--runs N] [--block FILE.boc]
import { type SpawnSyncOptions, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'tongate.js');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    block: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: node --import tsx bench/cli.ts [--runs N] [--block FILE.boc]
Cold start of the tongate CLI (a fresh process each time, median of N runs, default 15): 'tongate --help' and
'tongate decode <block>' on the compiled dist/ and through the tsx fallback, and bin/tongate.js's freshness check,
each as a ratio to 'node -e 0' measured in the same run. Compiles dist/ first when it is not up to date. The block
is the first BoC of blocks/ in $TONGATE_VECTORS (or ../shared/vectors) unless --block names a BoC file.`);
  process.exit(0);
}
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('bench/cli: --runs must be a positive integer');
  process.exit(2);
}

// ---- the block to decode ----------------------------------------------------------------------------------------
const tmp = mkdtempSync(join(tmpdir(), 'tongate-bench-cli-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function blockFile(): { file: string; what: string } {
  if (values.block) return { file: resolve(values.block), what: values.block };
  const vectors = [process.env.TONGATE_VECTORS, join(ROOT, '..', 'shared', 'vectors')].find(
    (d) => d && existsSync(join(d, 'README.md')),
  );
  if (!vectors) {
    console.error('bench/cli: real-chain vectors not found (set TONGATE_VECTORS), and no --block FILE.boc given');
    process.exit(2);
  }
  const dir = join(vectors, 'blocks');
  const name = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()[0];
  if (!name) {
    console.error(`bench/cli: no block vectors in ${dir}`);
    process.exit(2);
  }
  const v = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { boc_base64: string };
  const file = join(tmp, 'block.boc');
  writeFileSync(file, Buffer.from(v.boc_base64, 'base64'));
  return { file, what: `blocks/${name}` };
}
const block = blockFile();

// ---- dist/ up to date -------------------------------------------------------------------------------------------
function node(args: string[], opts: SpawnSyncOptions = {}) {
  return spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', ...opts });
}
if (node(['scripts/build.mjs', '--check']).status !== 0) {
  console.log('bench/cli: dist/ is not up to date with the sources; compiling it (npm run build)');
  const b = node(['scripts/build.mjs'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}

// bin/tongate.js's check, alone (keep in step with compiledMain there)
const CHECK = `
const t0 = performance.now();
const { readFileSync, statSync } = await import('node:fs');
const root = ${JSON.stringify(`${ROOT}/`)};
const stamp = JSON.parse(readFileSync(root + 'dist/build-stamp.json', 'utf8'));
let fresh = true;
for (const [path, mtimeMs, size] of stamp.inputs) {
  const s = statSync(root + path, { throwIfNoEntry: false });
  if (s === undefined || s.mtimeMs !== mtimeMs || s.size !== size) fresh = false;
}
process.stdout.write(JSON.stringify({ ms: performance.now() - t0, files: stamp.inputs.length, fresh }));
`;

// ---- the cases ------------------------------------------------------------------------------------------------------
interface Case {
  name: string;
  args: string[];
  env?: Record<string, string>;
  /** runs of this case (the tsx fallback is slow: fewer) */
  runs: number;
  times: number[];
}
const fromSource = { TONGATE_FROM_SOURCE: '1' };
const fewer = Math.max(3, Math.ceil(runs / 3));
const cases: Case[] = [
  { name: 'node -e 0', args: ['-e', '0'], runs, times: [] },
  { name: 'tongate --help', args: [CLI, '--help'], runs, times: [] },
  { name: 'tongate decode', args: [CLI, 'decode', block.file], runs, times: [] },
  { name: 'tsx: --help', args: [CLI, '--help'], env: fromSource, runs: fewer, times: [] },
  { name: 'tsx: decode', args: [CLI, 'decode', block.file], env: fromSource, runs: fewer, times: [] },
];

function once(c: Case): number {
  const env = { ...process.env, ...c.env };
  if (!c.env) delete env.TONGATE_FROM_SOURCE;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, c.args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) {
    console.error(`bench/cli: '${c.name}' exited ${r.status ?? r.signal}: ${String(r.stderr).trim()}`);
    process.exit(1);
  }
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

console.log(`bench/cli: ${runs} runs each (tsx fallback ${fewer}), decoding ${block.what}`);
for (const c of cases) once(c); // untimed round
for (let i = 0; i < runs; i++) {
  for (const c of cases) if (i < c.runs) c.times.push(once(c));
}
const checks: number[] = [];
let checkFiles = 0;
for (let i = 0; i < runs; i++) {
  const r = node(['--input-type=module', '-e', CHECK]);
  const j = JSON.parse(String(r.stdout)) as { ms: number; files: number; fresh: boolean };
  if (!j.fresh) console.warn('bench/cli: dist/ went stale during the run (sources changed); figures may mix paths');
  checks.push(j.ms);
  checkFiles = j.files;
}

const base = median(cases[0]!.times);
const row = (name: string, ms: number, note = '') =>
  console.log(
    `  ${name.padEnd(16)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / base).toFixed(2).padStart(6)} x node -e 0${note}`,
  );
for (const c of cases) row(c.name, median(c.times), c === cases[0] ? '  (baseline)' : '');
const checkMs = median(checks);
console.log(
  `  freshness check  ${checkMs.toFixed(1).padStart(8)} ms  (${checkFiles} files stat'ed; part of tongate's)`,
);
const help = median(cases[1]!.times);
const decode = median(cases[2]!.times);
console.log(
  `bench/cli: tongate --help ${help.toFixed(0)} ms = ${(help / base).toFixed(2)} x node -e 0 (${base.toFixed(0)} ms); ` +
    `decode ${decode.toFixed(0)} ms = ${(decode / base).toFixed(2)} x; ` +
    `tsx fallback --help ${(median(cases[3]!.times) / base).toFixed(2)} x, decode ${(median(cases[4]!.times) / base).toFixed(2)} x`,
);
