// Where the RocksDB headers and library are, for binding.gyp (`node rocksdb-config.mjs <what>`) and for
// scripts/build-native.mjs. TONGATE_ROCKSDB_DIR (with include/ and lib/) wins over the system's copy: production
// builds against a RocksDB at least as new as the node's (docs: node-db.md §6.3).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SYSTEM_INCLUDES = ['/usr/include', '/usr/local/include'];

/**
 * The RocksDB to build against: TONGATE_ROCKSDB_DIR/include, then the system folders; null without `rocksdb/c.h`.
 * @returns {{ include: string; libDir: string | null; custom: boolean; version: [number, number, number] | null } | null}
 */
export function findRocksDb(env = process.env) {
  const custom = env.TONGATE_ROCKSDB_DIR ? resolve(env.TONGATE_ROCKSDB_DIR) : null;
  if (custom && existsSync(join(custom, 'include', 'rocksdb', 'c.h'))) {
    const include = join(custom, 'include');
    const libDir = ['lib', 'lib64'].map((d) => join(custom, d)).find((d) => existsSync(d)) ?? null;
    return { include, libDir, custom: true, version: headerVersion(include) };
  }
  for (const include of SYSTEM_INCLUDES) {
    if (existsSync(join(include, 'rocksdb', 'c.h'))) {
      return { include, libDir: null, custom: false, version: headerVersion(include) };
    }
  }
  return null;
}

/** ROCKSDB_MAJOR/MINOR/PATCH from rocksdb/version.h (a C++ header, so C code cannot include it). */
function headerVersion(include) {
  const file = join(include, 'rocksdb', 'version.h');
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const part = (name) => {
    const m = new RegExp(`^#define ROCKSDB_${name}\\s+(\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  };
  const v = [part('MAJOR'), part('MINOR'), part('PATCH')];
  return v.every((x) => x !== null) ? v : null;
}

/** Linker arguments: the system's shared library, or the custom one (shared with an rpath, else static). */
function libs(found) {
  if (!found.custom || !found.libDir) return ['-lrocksdb'];
  const dir = found.libDir;
  if (existsSync(join(dir, 'librocksdb.so'))) return [`-L${dir}`, `-Wl,-rpath,${dir}`, '-lrocksdb'];
  // a static RocksDB brings its C++ runtime needs; codec libraries it was built with go in TONGATE_ROCKSDB_LIBS
  const extra = (process.env.TONGATE_ROCKSDB_LIBS ?? '').split(/\s+/).filter(Boolean);
  return [join(dir, 'librocksdb.a'), ...extra, '-lpthread', '-ldl'];
}

/** What binding.gyp asks for, printed one item per line (gyp's `<!@(...)` splits on whitespace). */
function query(what) {
  const found = findRocksDb();
  if (!found) throw new Error('rocksdb/c.h not found (install librocksdb-dev or set TONGATE_ROCKSDB_DIR)');
  switch (what) {
    case 'include':
      // the compiler already searches the system folders; naming them with -I would reorder system headers
      return SYSTEM_INCLUDES.includes(found.include) ? [] : [found.include];
    case 'libs':
      return libs(found);
    case 'defines':
      return found.version
        ? ['MAJOR', 'MINOR', 'PATCH'].map((p, i) => `TONROCKS_ROCKSDB_${p}=${found.version[i]}`)
        : [];
    default:
      throw new Error(`rocksdb-config: unknown query '${what}' (include, libs, defines)`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${query(process.argv[2] ?? '').join('\n')}\n`);
}
