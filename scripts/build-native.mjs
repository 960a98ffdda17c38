// Builds the optional native RocksDB addon (native/tonrocks → native/tonrocks/build/Release/tonrocks.node).
// Runs as npm's postinstall and as `npm run build:native`. It never fails the install: without RocksDB's headers
// or a working node-gyp, tongate still reads blocks from pack files, so this prints why and exits 0.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRocksDb } from '../native/tonrocks/rocksdb-config.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const addonDir = join(root, 'native', 'tonrocks');
const output = join(addonDir, 'build', 'Release', 'tonrocks.node');
const say = (line) => console.log(`tongate: ${line}`);

function main() {
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

  const gyp = nodeGyp();
  if (!gyp) {
    say('native RocksDB addon not built: node-gyp not found (it comes with npm; run npm run build:native)');
    return;
  }
  const args = [gyp, 'rebuild', '--loglevel=warn'];
  // build against the headers of the node that runs us (distro packages put them in /usr/include/node), so
  // node-gyp does not try to download them
  const nodeDir = [resolve(dirname(process.execPath), '..'), '/usr'].find((d) =>
    existsSync(join(d, 'include', 'node', 'node_api.h')),
  );
  if (nodeDir && !process.env.npm_config_nodedir) args.push(`--nodedir=${nodeDir}`);

  const version = found.version ? found.version.join('.') : 'unknown version';
  say(`building the native RocksDB addon against ${found.include} (RocksDB ${version})`);
  const run = spawnSync(process.execPath, args, { cwd: addonDir, stdio: 'inherit', env: process.env });
  if (run.error || run.status !== 0) {
    const why = run.error ? run.error.message : `node-gyp exited with ${run.status ?? run.signal}`;
    say(
      `native RocksDB addon not built: ${why} (see the output above); node-db sources will read blocks from pack files only`,
    );
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

try {
  main();
} catch (e) {
  say(`native RocksDB addon not built: ${e instanceof Error ? e.message : String(e)}`);
}
process.exit(0);
