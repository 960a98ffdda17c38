// A preflight for opening someone else's RocksDB folder: every folder has a plain-text OPTIONS-NNNNNN file
// (INI-like) saying which RocksDB wrote it, the table format and the codecs new files get, and the merge operator
// and comparator it was opened with. Reading it first turns "Corruption: unknown table format" or "Snappy not
// supported in this build" deep inside an open into one clear sentence (node-db.md §6.1).
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { NodeDbFormatError } from '../tl.ts';

export interface RocksOptionsInfo {
  /** The OPTIONS file read (the newest in the folder). */
  file: string;
  /** The RocksDB that wrote it, e.g. "10.10.1". */
  rocksdbVersion: string;
  /** Block-based table format_version new table files get. */
  formatVersion?: number;
  /** Codec of new table files, as written (kNoCompression, kSnappyCompression, ...). */
  compression?: string;
  /** Codec of the last level, when set (kDisableCompressionOption = same as `compression`). */
  bottommostCompression?: string;
  /** Per-level codecs, when set (they override `compression`). */
  compressionPerLevel?: string[];
  /** Merge operator name; absent when the folder was opened without one ("nullptr"). */
  mergeOperator?: string;
  comparator?: string;
}

/** The minimum RocksDB that reads each table format_version (RocksDB's include/rocksdb/table.h). */
const FORMAT_MIN_READER: Record<number, string> = {
  0: '1.0.0',
  1: '1.0.0',
  2: '3.10.0',
  3: '5.15.0',
  4: '5.16.0',
  5: '6.6.0',
  6: '8.6.0',
  7: '10.4.0',
};
const NEWEST_KNOWN_FORMAT = 7;
/** RocksDB 11 dropped format_version 0 and 1. */
const FORMAT_0_1_LAST_READER_MAJOR = 10;

/** OPTIONS codec names → the addon's names (RocksCompression in rocks.ts). */
const COMPRESSION_NAMES: Record<string, string> = {
  kNoCompression: 'none',
  kSnappyCompression: 'snappy',
  kZlibCompression: 'zlib',
  kBZip2Compression: 'bzip2',
  kLZ4Compression: 'lz4',
  kLZ4HCCompression: 'lz4hc',
  kXpressCompression: 'xpress',
  kZSTD: 'zstd',
  kZSTDNotFinalCompression: 'zstd',
};

export const CELL_REFCOUNT_MERGE_OPERATOR = 'MergeOperatorAddCellRefcnt';
const BYTEWISE = 'leveldb.BytewiseComparator';

/** Parses an OPTIONS file's text (its default column family: TON's databases use no other). */
export function parseRocksOptions(text: string, file: string): RocksOptionsInfo {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      current = new Map();
      sections.set(header[1]!, current);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0 || !current) continue;
    current.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  const version = sections.get('Version')?.get('rocksdb_version');
  if (!version) throw new NodeDbFormatError(`${file}: not a RocksDB OPTIONS file (no [Version] rocksdb_version)`);

  const section = (prefix: string) =>
    sections.get(`${prefix} "default"`) ?? [...sections].find(([name]) => name.startsWith(`${prefix} `))?.[1];
  const cf = section('CFOptions');
  const table = section('TableOptions/BlockBasedTable');

  const info: RocksOptionsInfo = { file, rocksdbVersion: version };
  const fv = table?.get('format_version');
  if (fv !== undefined && /^\d+$/.test(fv)) info.formatVersion = Number(fv);
  const compression = cf?.get('compression');
  if (compression) info.compression = compression;
  const bottommost = cf?.get('bottommost_compression');
  if (bottommost) info.bottommostCompression = bottommost;
  const perLevel = cf?.get('compression_per_level');
  if (perLevel) info.compressionPerLevel = perLevel.split(':').filter(Boolean);
  const merge = customizableName(cf?.get('merge_operator'));
  if (merge) info.mergeOperator = merge;
  const comparator = customizableName(cf?.get('comparator'));
  if (comparator) info.comparator = comparator;
  return info;
}

/** "Name", or "{id=Name;...}" (how newer RocksDB writes configurable objects); undefined for nullptr/empty. */
function customizableName(v: string | undefined): string | undefined {
  if (!v || v === 'nullptr') return undefined;
  const id = /^\{.*?\bid=([^;}]*)/.exec(v);
  if (id) return id[1] || undefined;
  return v;
}

/** Reads the newest OPTIONS-* file of a RocksDB folder. */
export async function readRocksOptions(dir: string): Promise<RocksOptionsInfo> {
  // the writer replaces OPTIONS files as it reopens; a file can vanish between listing and reading
  for (let attempt = 0; ; attempt++) {
    const numbered = (await readdir(dir))
      .map((name) => ({ name, n: /^OPTIONS-(\d+)$/.exec(name)?.[1] }))
      .filter((f): f is { name: string; n: string } => f.n !== undefined)
      .sort((a, b) => Number(b.n) - Number(a.n));
    const newest = numbered[0];
    if (!newest) throw new NodeDbFormatError(`${dir}: no OPTIONS-* file, so not a RocksDB folder`);
    const file = join(dir, newest.name);
    try {
      return parseRocksOptions(await readFile(file, 'utf8'), file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 2) throw e;
    }
  }
}

export interface RocksBuildInfo {
  /** Codecs our RocksDB build has (addon names: none, snappy, ...); omitted: codecs are not checked. */
  compressions?: readonly string[];
  /** Merge operators we can register (default: celldb's). */
  mergeOperators?: readonly string[];
}

/** One finding of the OPTIONS preflight. */
export interface RocksProblem {
  /**
   * This build cannot read the folder: a table format_version it does not read, a codec it lacks or one the check
   * does not know, a comparator other than bytewise, a merge operator tongate does not provide. Not fatal: the
   * folder may well read (a newer major RocksDB writer with a readable format, an unknown build version), so
   * only worth a warning.
   */
  fatal: boolean;
  /** One sentence naming the folder, what it says and what this build has. */
  message: string;
}

/**
 * What could stop this RocksDB build (version `ourVersion`) from reading the folder described by `opts`; empty
 * when nothing is known to. Problems are returned, not thrown: the caller decides (refuse, or fall back to
 * pack files) by `fatal`.
 */
export function checkRocksCompat(
  opts: RocksOptionsInfo,
  ourVersion: string,
  ours: RocksBuildInfo = {},
): RocksProblem[] {
  const where = dirname(opts.file);
  const writer = `node RocksDB ${opts.rocksdbVersion}`;
  const problems: RocksProblem[] = [];
  const fatal = (message: string) => problems.push({ fatal: true, message });
  const warn = (message: string) => problems.push({ fatal: false, message });
  const our = parseVersion(ourVersion);
  const theirs = parseVersion(opts.rocksdbVersion);

  if (!our) {
    warn(`${where}: cannot tell this build's RocksDB version (${ourVersion}), so its compatibility is unknown`);
  } else {
    const fv = opts.formatVersion;
    if (fv !== undefined) {
      const min = FORMAT_MIN_READER[fv];
      if (min !== undefined && compareVersions(our, parseVersion(min)!) < 0) {
        fatal(
          `${where}: ${writer} writes table format_version ${fv}, which needs RocksDB >= ${min}; this build has ${ourVersion}`,
        );
      } else if (fv > NEWEST_KNOWN_FORMAT && theirs && compareVersions(our, theirs) < 0) {
        // whether this build reads it is not known (it may be newer than the check), so only a warning
        warn(
          `${where}: ${writer} writes table format_version ${fv}, newer than this check knows ` +
            `(${NEWEST_KNOWN_FORMAT} needs RocksDB >= ${FORMAT_MIN_READER[NEWEST_KNOWN_FORMAT]}); this build has ${ourVersion}`,
        );
      } else if (fv <= 1 && our[0] > FORMAT_0_1_LAST_READER_MAJOR) {
        fatal(
          `${where}: table format_version ${fv} is no longer readable by RocksDB >= 11; this build has ${ourVersion}`,
        );
      }
    }
    // RocksDB keeps old releases reading files of a few newer minor versions, not of newer major ones
    if (theirs && theirs[0] > our[0]) {
      warn(
        `${where}: ${writer} is a newer major release than this build's ${ourVersion}; RocksDB only promises that ` +
          `older releases read files of a few newer minor versions: build the addon against RocksDB >= ${theirs[0]} ` +
          '(TONGATE_ROCKSDB_DIR)',
      );
    }
  }

  if (ours.compressions) {
    const used = new Set<string>();
    if (opts.compression) used.add(opts.compression);
    if (opts.bottommostCompression && opts.bottommostCompression !== 'kDisableCompressionOption') {
      used.add(opts.bottommostCompression);
    }
    for (const c of opts.compressionPerLevel ?? []) used.add(c);
    for (const c of used) {
      const name = COMPRESSION_NAMES[c];
      if (name === undefined) {
        fatal(`${where}: ${writer} compresses tables with ${c}, a codec this check does not know`);
      } else if (!ours.compressions.includes(name)) {
        fatal(
          `${where}: ${writer} compresses tables with ${c}, which this RocksDB build lacks ` +
            `(it has: ${ours.compressions.join(', ')})`,
        );
      }
    }
  }

  const merges = ours.mergeOperators ?? [CELL_REFCOUNT_MERGE_OPERATOR];
  if (opts.mergeOperator && !merges.includes(opts.mergeOperator)) {
    fatal(
      `${where}: written with merge operator ${opts.mergeOperator}, which tongate does not provide ` +
        `(it has: ${merges.join(', ')}); keys with merge records cannot be read`,
    );
  }
  if (opts.comparator && opts.comparator !== BYTEWISE) {
    fatal(`${where}: keys are ordered by ${opts.comparator}; tongate reads only ${BYTEWISE} folders`);
  }
  return problems;
}

type Version = [number, number, number];

function parseVersion(v: string): Version | null {
  const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : null;
}

function compareVersions(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}
