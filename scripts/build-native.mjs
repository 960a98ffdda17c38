// Builds the optional native addons. Runs as npm's postinstall and as `npm run build:native`. It never fails the
// install: each addon has a TypeScript path that does the same work more slowly (or, for RocksDB, reads pack files
// only), so this prints why one was not built and exits 0.
//   native/tonhash  the cell reader and hasher of the indexer's hot path (src/ton/cell/native-hash.ts): needs a C
//                   compiler only (SHA-256 comes from the OpenSSL inside node, whose headers ship with node's)
//   native/tonrocks RocksDB for node-db sources (src/nodedb/kv/rocks.ts): needs librocksdb-dev too
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRocksDb } from '../native/tonrocks/rocksdb-config.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => console.log(`tongate: ${line}`);

/** node-gyp rebuild in `dir`; returns null on success, else why not. */
function gypBuild(dir) {
  const gyp = nodeGyp();
  if (!gyp) return 'node-gyp not found (it comes with npm; run npm run build:native)';
  const args = [gyp, 'rebuild', '--loglevel=warn'];
  // build against the headers of the node that runs us (distro packages put them in /usr/include/node), so
  // node-gyp does not try to download them
  const nodeDir = [resolve(dirname(process.execPath), '..'), '/usr'].find((d) =>
    existsSync(join(d, 'include', 'node', 'node_api.h')),
  );
  if (nodeDir && !process.env.npm_config_nodedir) args.push(`--nodedir=${nodeDir}`);
  const run = spawnSync(process.execPath, args, { cwd: dir, stdio: 'inherit', env: process.env });
  if (run.error || run.status !== 0) {
    return `${run.error ? run.error.message : `node-gyp exited with ${run.status ?? run.signal}`} (see the output above)`;
  }
  return null;
}

function buildTonHash() {
  const dir = join(root, 'native', 'tonhash');
  const output = join(dir, 'build', 'Release', 'tonhash.node');
  say('building the native cell hasher (native/tonhash)');
  const failed = gypBuild(dir);
  if (failed) {
    say(`native cell hasher not built: ${failed}; cells are read and hashed in TypeScript (slower)`);
    return;
  }
  try {
    const addon = createRequire(import.meta.url)(output);
    say(`native cell hasher built: ${output} (${addon.version()})`);
  } catch (e) {
    say(`native cell hasher built but does not load: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function buildTonRocks() {
  const dir = join(root, 'native', 'tonrocks');
  const output = join(dir, 'build', 'Release', 'tonrocks.node');
  const found = findRocksDb();
  if (!found) {
    say(
      'native RocksDB addon not built (librocksdb-dev not found): node-db sources will read blocks from pack files ' +
        'only; apt-get install librocksdb-dev and run npm run build:native',
    );
    return;
  }
  if (process.env.TONGATE_ROCKSDB_DIR && !found.custom) {
    say(`TONGATE_ROCKSDB_DIR=${process.env.TONGATE_ROCKSDB_DIR} has no include/rocksdb/c.h; using ${found.include}`);
  }
  const version = found.version ? found.version.join('.') : 'unknown version';
  say(`building the native RocksDB addon against ${found.include} (RocksDB ${version})`);
  const failed = gypBuild(dir);
  if (failed) {
    say(`native RocksDB addon not built: ${failed}; node-db sources will read blocks from pack files only`);
    return;
  }
  try {
    const addon = createRequire(import.meta.url)(output);
    say(`native RocksDB addon built: ${output} (RocksDB ${addon.version()})`);
  } catch (e) {
    say(`native RocksDB addon built but does not load: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** npm sets npm_config_node_gyp in lifecycle scripts; otherwise use the copy bundled with this node's npm. */
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp/bin/node-gyp.js'),
    '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
    '/usr/local/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  ];
  return candidates.find((c) => c && existsSync(c)) ?? null;
}

for (const build of [buildTonHash, buildTonRocks]) {
  try {
    build();
  } catch (e) {
    say(
      `${build === buildTonHash ? 'native cell hasher' : 'native RocksDB addon'} not built: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
process.exit(0);
