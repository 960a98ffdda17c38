// Compiles the TypeScript that the CLI runs (src/, and workers/ that src imports) to JavaScript in dist/, so
// bin/tongate.js starts without compiling anything. Runs as `npm run build` and from npm's postinstall, after the
// native addon; postinstall calls it only if this file is there (the Dockerfile's build stage runs npm ci with
// scripts/build-native.mjs alone, and its image runs the sources).
//
// Layout: src/X.ts -> dist/X.js and workers/X.ts -> dist/workers/X.js, so URLs relative to a module
// (`new URL('../../schema/', import.meta.url)`, the native addon under native/) resolve to the same files from dist/ as
// from src/. Every relative import is rewritten to the .js file it becomes in that layout; packages and node: builtins
// are left as they are (nothing is bundled). Test files and test-only helpers are not compiled, and a compiled file
// that imports one fails the build.
//
// The compiler is esbuild, the one tsx runs the sources through (a dependency of tsx, so it is there with
// `npm ci --omit=dev` too); type checking is `npm run typecheck`'s job. The last thing written is dist/build-stamp.json:
// the path, mtime and size of every input, which bin/tongate.js compares with the files before it runs dist/ (any
// difference: it runs the sources through tsx instead). A failed or interrupted build leaves no stamp.
//
// Usage: node scripts/build.mjs [--out DIR] [--postinstall | --check]
//   --out DIR      write to DIR instead of dist/ (bin/tongate.js only ever runs dist/)
//   --postinstall  never fail: print why dist/ was not built and exit 0 (bin/tongate.js then runs the sources)
//   --check        compile nothing; exit 0 if the output is up to date with the sources, else say why and exit 1
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Folders compiled, and where their files go under the output folder. */
const TREES = [
  { dir: 'src', out: '' },
  { dir: 'workers', out: 'workers' },
];
/** Inputs that are not compiled but shape the output. */
const BUILD_INPUTS = ['tsconfig.json', 'scripts/build.mjs'];
/** Test files and test-only helpers (as in .dockerignore): not compiled. */
const TEST_FILE = /(\.test\.ts|\.test-util\.ts|^test-[a-z-]+\.ts)$/;
/** dist/build-stamp.json's format; bin/tongate.js runs dist/ only for this one. */
export const STAMP_FORMAT = 1;
export const STAMP_FILE = 'build-stamp.json';

const say = (line) => console.log(`tongate: ${line}`);

function usage(msg) {
  if (msg) console.error(`scripts/build.mjs: ${msg}`);
  console.error('Usage: node scripts/build.mjs [--out DIR] [--postinstall | --check]');
  process.exit(msg ? 2 : 0);
}

/** The .ts files of `dir` (repo-relative, / separated) that are compiled, sorted. */
function sourcesIn(dir) {
  const found = [];
  const walk = (rel) => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !TEST_FILE.test(e.name)) {
        found.push(p);
      }
    }
  };
  if (existsSync(join(root, dir))) walk(dir);
  return found.sort();
}

/** [path, mtimeMs, size] of each input: what bin/tongate.js checks. */
function fingerprint(files) {
  return files.map((f) => {
    const s = statSync(join(root, f));
    return [f, s.mtimeMs, s.size];
  });
}

/** Why the build in `out` is not what bin/tongate.js would run (its check, with the reason); null if it is. */
export function staleReason(out = join(root, 'dist')) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(out, STAMP_FILE), 'utf8'));
  } catch {
    return `no ${STAMP_FILE} (not built, or the build failed or was interrupted)`;
  }
  if (stamp?.format !== STAMP_FORMAT || !Array.isArray(stamp.inputs)) return `${STAMP_FILE} is of another format`;
  for (const [path, mtimeMs, size] of stamp.inputs) {
    const s = statSync(join(root, path), { throwIfNoEntry: false });
    if (s === undefined) return `${path} is gone`;
    if (s.mtimeMs !== mtimeMs || s.size !== size) return `${path} changed after the build`;
  }
  return null;
}

/** esbuild, from tsx's own dependencies (it is not ours; tsx pins the version). */
function loadEsbuild() {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  return fromTsx('esbuild');
}

export async function build({ out = join(root, 'dist') } = {}) {
  const started = performance.now();
  for (const t of TREES) {
    if (t.out !== '' && existsSync(join(root, 'src', t.out))) {
      throw new Error(`src/${t.out} would collide with ${t.dir}/ in the output; change TREES in scripts/build.mjs`);
    }
  }
  const sources = TREES.flatMap((t) => sourcesIn(t.dir));
  if (!sources.some((f) => f === 'src/cli/main.ts')) throw new Error('src/cli/main.ts not found');
  // taken before esbuild reads the files: a file saved during the build then differs from the stamp
  const inputs = fingerprint([...sources, ...BUILD_INPUTS]);

  /** repo-relative source path -> output path relative to `out`, without extension */
  const outOf = new Map();
  for (const f of sources) {
    const t = TREES.find((x) => f.startsWith(`${x.dir}/`));
    outOf.set(
      f,
      join(t.out, f.slice(t.dir.length + 1, -'.ts'.length))
        .split(sep)
        .join('/'),
    );
  }
  const absToRel = (abs) => relative(root, abs).split(sep).join('/');

  const relink = {
    name: 'tongate-relink',
    setup(b) {
      // packages and builtins stay imports
      b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const from = absToRel(args.importer);
        const target = absToRel(resolve(dirname(args.importer), args.path));
        const targetOut = outOf.get(target);
        if (targetOut === undefined) {
          const why = !existsSync(join(root, target))
            ? 'no such file'
            : TEST_FILE.test(target.split('/').pop())
              ? 'a test-only file, not compiled'
              : 'not in src/ or workers/, not compiled';
          return { errors: [{ text: `${from} imports ${args.path}: ${target} is ${why}` }] };
        }
        let spec = relative(dirname(outOf.get(from)), targetOut)
          .split(sep)
          .join('/');
        if (!spec.startsWith('.')) spec = `./${spec}`;
        return { path: `${spec}.js`, external: true };
      });
    },
  };

  const esbuild = loadEsbuild();
  const tmp = `${out}.tmp-${process.pid}`; // git-ignored, as dist/ is
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  // generated code: keep `biome check .` (npm run lint; the root biome.json takes every file) out of it
  writeFileSync(join(tmp, 'biome.json'), '{ "root": false, "files": { "includes": ["!**"] } }\n');
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: sources.map((f) => ({ in: f, out: outOf.get(f) })),
      outdir: tmp,
      // bundle only so that the plugin sees (and rewrites) every import; every import is external
      bundle: true,
      plugins: [relink],
      format: 'esm',
      platform: 'node',
      target: 'node20',
      keepNames: true, // as tsx: function and class names as written
      tsconfig: join(root, 'tsconfig.json'),
      logLevel: 'silent',
      legalComments: 'inline',
    });
    if (result.warnings.length > 0) {
      const text = await esbuild.formatMessages(result.warnings, { kind: 'warning' });
      process.stderr.write(text.join(''));
    }
    const after = fingerprint(inputs.map((i) => i[0]));
    const changed = after.filter((a, i) => a[1] !== inputs[i][1] || a[2] !== inputs[i][2]).map((a) => a[0]);
    // the stamp is what makes dist/ runnable: written last, only when it describes what was compiled
    if (changed.length === 0) {
      writeFileSync(join(tmp, STAMP_FILE), `${JSON.stringify({ format: STAMP_FORMAT, inputs })}\n`);
    }
    // swap in the new tree: a CLI starting in between finds no stamp and runs the sources
    rmSync(out, { recursive: true, force: true });
    renameSync(tmp, out);
    return { files: sources.length, ms: Math.round(performance.now() - started), stale: changed };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (Array.isArray(e?.errors) && e.errors.length > 0) {
      const shown = e.errors.slice(0, 10).map((m) => ({ ...m, notes: [] }));
      const text = await esbuild.formatMessages(shown, { kind: 'error' });
      throw new Error(`compile failed:\n${text.join('').trimEnd()}`);
    }
    throw e;
  }
}

/** The command line (npm's postinstall calls it with ['--postinstall']). */
export async function main(args = process.argv.slice(2)) {
  let out;
  let postinstall = false;
  let check = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help' || a === '-h') usage();
    else if (a === '--postinstall') postinstall = true;
    else if (a === '--check') check = true;
    else if (a === '--out') {
      out = args[++i];
      if (!out) usage('--out needs a folder');
      out = resolve(out);
    } else usage(`unknown argument '${a}'`);
  }
  const shown = relative(process.cwd(), out ?? join(root, 'dist')) || '.';
  if (check) {
    const why = staleReason(out);
    if (why !== null) {
      say(`${shown}/ is not up to date: ${why}`);
      process.exit(1);
    }
    say(`${shown}/ is up to date with the sources`);
    return;
  }
  try {
    if (postinstall && !existsSync(join(root, 'src', 'cli', 'main.ts'))) {
      say('no sources (src/cli/main.ts) here: nothing to compile');
      return;
    }
    const r = await build(out ? { out } : {});
    if (r.stale.length > 0) {
      say(`compiled ${r.files} files to ${shown}/ in ${r.ms} ms, but ${r.stale.join(', ')} changed meanwhile;`);
      say('no build stamp written, so bin/tongate.js runs the sources until the next npm run build');
    } else {
      say(`compiled ${r.files} files to ${shown}/ in ${r.ms} ms`);
    }
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    if (!postinstall) {
      console.error(`scripts/build.mjs: ${why}`);
      process.exit(1);
    }
    say(`${shown}/ not built (${why}); bin/tongate.js runs the sources through tsx (slower start)`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
