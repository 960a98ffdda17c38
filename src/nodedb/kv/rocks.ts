// RocksDB through the in-repo addon (native/tonrocks): a TON node's indexes, state db and celldb as KvWriters.
// The addon is optional (built at npm install when librocksdb-dev is there, see scripts/build-native.mjs);
// without it openRocks throws NodeDbUnavailableError and node-db sources read blocks from pack files only.
//
// Modes (node-db.md §6.3): 'readonly' for folders that no longer change (reads the folder as it was at the
// open, writes nothing into it); 'secondary' for folders the node still writes (sees new writes after
// catchUp(), keeps its own files in secondaryDir); 'primary' for our own fixtures and tests (takes the LOCK).
// A secondary's view changes only in catchUp(), so reads between two catch-ups see one state of the folder.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRocksCompat, type RocksOptionsInfo, type RocksProblem, readRocksOptions } from './options.ts';
import type { KvOp, KvRange, KvWriter } from './types.ts';

/** The native addon is not built or does not load; `reason` says how to build it. */
export class NodeDbUnavailableError extends Error {
  override readonly name = 'NodeDbUnavailableError';
}

/** RocksDB refused an open, read or write; the message names the operation, folder and RocksDB's status. */
export class RocksDbError extends Error {
  override readonly name = 'RocksDbError';
}

export type RocksMode = 'primary' | 'secondary' | 'readonly';
/** Codec names as the addon spells them (an OPTIONS file says kSnappyCompression etc.; see options.ts). */
export type RocksCompression = 'none' | 'snappy' | 'zlib' | 'bzip2' | 'lz4' | 'lz4hc' | 'xpress' | 'zstd';

declare const handleBrand: unique symbol;
/** An open database inside the addon (a tagged N-API external). */
export type TonRocksHandle = { readonly [handleBrand]: true };

/** The addon's functions (native/tonrocks/tonrocks.c); all synchronous, all throw Error on failure. */
export interface TonRocksAddon {
  open(
    path: string,
    opts: {
      mode: RocksMode;
      secondaryPath?: string;
      mergeOperator?: boolean;
      createIfMissing?: boolean;
      manualWalFlush?: boolean;
      compression?: RocksCompression;
    },
  ): TonRocksHandle;
  get(h: TonRocksHandle, key: Buffer): Buffer | null;
  multiGet(h: TonRocksHandle, keys: readonly Buffer[]): Array<Buffer | null>;
  /** limit < 0: no limit. */
  range(h: TonRocksHandle, gte: Buffer | null, lt: Buffer | null, limit: number): Array<[Buffer, Buffer]>;
  /** Op kinds: 0 put, 1 merge, 2 delete. */
  write(h: TonRocksHandle, ops: ReadonlyArray<readonly [0 | 1 | 2, Buffer, Buffer | null]>, sync: boolean): void;
  flushWal(h: TonRocksHandle, sync: boolean): void;
  flushMemtable(h: TonRocksHandle): void;
  catchUp(h: TonRocksHandle): void;
  close(h: TonRocksHandle): void;
  /** The loaded RocksDB library's version, e.g. "7.8.3". */
  version(): string;
  /** The codecs this RocksDB build can read and write. */
  supportedCompressions(): RocksCompression[];
}

export type RocksAddonStatus =
  | { ok: true; addon: TonRocksAddon; version: string; compressions: RocksCompression[]; path: string }
  | { ok: false; reason: string };

/** native/tonrocks/build/Release/tonrocks.node, from this file's place in src/nodedb/kv/. */
export const ROCKS_ADDON_PATH = fileURLToPath(
  new URL('../../../native/tonrocks/build/Release/tonrocks.node', import.meta.url),
);

const BUILD_HINT =
  'build it with `npm run build:native` (needs librocksdb-dev: apt-get install librocksdb-dev, or TONGATE_ROCKSDB_DIR)';

let cached: RocksAddonStatus | undefined;

/** Loads the addon once; never throws. */
export function loadRocksAddon(): RocksAddonStatus {
  if (cached) return cached;
  try {
    const addon = createRequire(import.meta.url)(ROCKS_ADDON_PATH) as TonRocksAddon;
    const compressions = addon.supportedCompressions();
    cached = { ok: true, addon, version: addon.version(), compressions, path: ROCKS_ADDON_PATH };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'MODULE_NOT_FOUND'
        ? `the native RocksDB addon is not built (no ${ROCKS_ADDON_PATH})`
        : `the native RocksDB addon at ${ROCKS_ADDON_PATH} does not load: ${(e as Error).message}`;
    cached = { ok: false, reason: `${why}; ${BUILD_HINT}` };
  }
  return cached;
}

export interface OpenRocksOptions {
  mode: RocksMode;
  /** A secondary's own folder (its LOG and replay state); default: a fresh temporary folder removed at close. */
  secondaryDir?: string;
  /** Register celldb's refcount merge operator ("MergeOperatorAddCellRefcnt", node-db.md §3.2). */
  cellRefcountMerge?: boolean;
  /** Primary: create the database when the folder has none. */
  createIfMissing?: boolean;
  /** Primary: keep WAL writes in memory until flushWal(), as the node's archive indexes do. */
  manualWalFlush?: boolean;
  /** Primary: table compression (default 'none', so that any RocksDB build can read our fixtures). */
  compression?: RocksCompression;
}

/** A KvWriter over one RocksDB folder; writes need mode 'primary'. */
export interface RocksKv extends KvWriter {
  readonly mode: RocksMode;
  /** Primary: writes the memtable to a table file (tests use it to spread a key over several layers). */
  flushMemtable(): Promise<void>;
}

const OP_KIND = { put: 0, merge: 1, del: 2 } as const;

export async function openRocks(path: string, opts: OpenRocksOptions): Promise<RocksKv> {
  const status = loadRocksAddon();
  if (!status.ok) throw new NodeDbUnavailableError(`cannot open ${path}: ${status.reason}`);
  const { addon } = status;

  let secondaryDir: string | undefined;
  let ownSecondaryDir = false;
  if (opts.mode === 'secondary') {
    if (opts.secondaryDir) {
      secondaryDir = opts.secondaryDir;
      await mkdir(secondaryDir, { recursive: true });
    } else {
      secondaryDir = await mkdtemp(join(tmpdir(), 'tongate-rocks-secondary-'));
      ownSecondaryDir = true;
    }
  }

  const call = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      throw new RocksDbError((e as Error).message, { cause: e });
    }
  };

  let h: TonRocksHandle;
  try {
    h = call(() =>
      addon.open(path, {
        mode: opts.mode,
        secondaryPath: secondaryDir,
        mergeOperator: opts.cellRefcountMerge ?? false,
        createIfMissing: opts.createIfMissing ?? false,
        manualWalFlush: opts.manualWalFlush ?? false,
        compression: opts.compression ?? 'none',
      }),
    );
  } catch (e) {
    if (ownSecondaryDir && secondaryDir) await rm(secondaryDir, { recursive: true, force: true });
    throw e;
  }

  let closed = false;
  const writable = (op: string) => {
    if (opts.mode !== 'primary') {
      throw new RocksDbError(`${op}: ${path} is open as ${opts.mode}; only a primary writes`);
    }
  };

  return {
    path,
    mode: opts.mode,
    async get(key) {
      return call(() => addon.get(h, key));
    },
    async multiGet(keys) {
      return call(() => addon.multiGet(h, keys));
    },
    async range(r: KvRange) {
      const limit = r.limit ?? -1;
      if (!Number.isSafeInteger(limit)) throw new RangeError(`range limit must be an integer, got ${r.limit}`);
      return call(() => addon.range(h, r.gte ?? null, r.lt ?? null, limit));
    },
    async catchUp() {
      call(() => addon.catchUp(h));
    },
    async write(ops: readonly KvOp[], wopts?: { sync?: boolean }) {
      writable('write');
      const native = ops.map((op) => [OP_KIND[op.type], op.key, op.type === 'del' ? null : op.value] as const);
      call(() => addon.write(h, native, wopts?.sync ?? false));
    },
    async flushWal(sync = false) {
      writable('flushWal');
      call(() => addon.flushWal(h, sync));
    },
    async flushMemtable() {
      writable('flushMemtable');
      call(() => addon.flushMemtable(h));
    },
    async close() {
      if (closed) return;
      closed = true;
      call(() => addon.close(h));
      if (ownSecondaryDir && secondaryDir) await rm(secondaryDir, { recursive: true, force: true });
    },
  };
}

/**
 * Reads a folder's OPTIONS file and checks it against the loaded addon (version, codecs, merge operator,
 * comparator). Returns the problems, an unbuilt addon among them (fatal: nothing reads the folder then); throws
 * only when the folder has no OPTIONS.
 */
export async function rocksPreflight(dir: string): Promise<{ options: RocksOptionsInfo; problems: RocksProblem[] }> {
  const options = await readRocksOptions(dir);
  const status = loadRocksAddon();
  if (!status.ok) return { options, problems: [{ fatal: true, message: `${dir}: ${status.reason}` }] };
  return { options, problems: checkRocksCompat(options, status.version, { compressions: status.compressions }) };
}
