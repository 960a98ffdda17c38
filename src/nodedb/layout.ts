import { join } from 'node:path';
import { readdirOrEmpty } from './fs-util.ts';

/**
 * How a slice index lays out its packs:
 * - `unsliced`: one `archive.<packageId>.pack` for the whole package (index key `status` = a size);
 * - `sliced`: one pack per 100 masterchain seqnos holding masterchain and shard blocks (the ton4j vectors);
 * - `shard-split-colon`: sliced, workchain blocks in `archive.<slice>.<wc>:<prefix>.pack` (June 2024 – Nov 2025);
 * - `shard-split`: the same with `_` (current).
 */
export type ArchiveGeneration = 'unsliced' | 'sliced' | 'shard-split-colon' | 'shard-split';

/** A new archive package starts at every multiple of this masterchain seqno (and at every key block). */
export const PACKAGE_SPAN = 20000;
/** Masterchain seqnos per slice (the node writes `slice_size` = 100). */
export const SLICE_SIZE = 100;
/** Seqnos per `archNNNN` folder. */
const FOLDER_SPAN = 100000;
const MASTERCHAIN = -1;
const SHARD_BITS = 64n;
const U64 = (1n << SHARD_BITS) - 1n;

/** `arch%04d` of seqno / 100,000: the folder of the package index or pack file that starts at `seqno`. */
export function packageFolder(seqno: number): string {
  checkSeqno(seqno, 'packageFolder');
  return `arch${String(Math.floor(seqno / FOLDER_SPAN)).padStart(4, '0')}`;
}

/** `archive.%05d` (PackageId::name): longer numbers print in full. */
function archiveName(seqno: number): string {
  return `archive.${String(seqno).padStart(5, '0')}`;
}

function packagesDir(root: string): string {
  return join(root, 'archive', 'packages');
}

/** A package's index (RocksDB): `<root>/archive/packages/archNNNN/archive.%05d.index`, NNNN from the package id. */
export function indexDir(root: string, packageId: number): string {
  return join(packagesDir(root), packageFolder(packageId), `${archiveName(packageId)}.index`);
}

/** The first masterchain seqno of the slice that holds masterchain seqno `mcSeqno` (counted from the package id). */
export function sliceStart(packageId: number, mcSeqno: number, sliceSize = SLICE_SIZE): number {
  checkSeqno(packageId, 'sliceStart packageId');
  checkSeqno(mcSeqno, 'sliceStart mcSeqno');
  if (!Number.isInteger(sliceSize) || sliceSize <= 0) throw new RangeError(`sliceStart: bad slice size ${sliceSize}`);
  if (mcSeqno < packageId) {
    throw new RangeError(`sliceStart: masterchain seqno ${mcSeqno} is before package ${packageId}`);
  }
  return mcSeqno - ((mcSeqno - packageId) % sliceSize);
}

/**
 * The shard prefix that names a workchain pack: the shard cut to its first `depth` bits, then the tag bit
 * (ton::shard_prefix). A shard shorter than `depth` keeps its own tag bit as a prefix bit, so the whole workchain
 * at depth 2 files under a000000000000000 (archive-slice.cpp sets the shard's low bit first only to pass
 * shard_prefix's depth check; the cut clears that bit again).
 */
export function shardPrefix(shard: bigint, depth: number): bigint {
  if (!Number.isInteger(depth) || depth < 0 || depth > 63) throw new RangeError(`shardPrefix: bad depth ${depth}`);
  const tag = 1n << BigInt(63 - depth);
  return (BigInt.asUintN(64, shard) & (U64 ^ (tag - 1n))) | tag;
}

export interface PackLocation {
  generation: ArchiveGeneration;
  packageId: number;
  /** The slice's first masterchain seqno (see sliceStart); not used by `unsliced`. */
  sliceStart?: number;
  /** The block's workchain (-1 = masterchain). Needed by the shard-split generations. */
  workchain?: number;
  /** The block's shard; needed for workchain blocks in the shard-split generations. */
  shard?: bigint;
  /** The slice index's `shard_split_depth`; needed for workchain blocks in the shard-split generations. */
  splitDepth?: number;
}

/** The file name (no folder) of the pack a block's files are in. */
export function packFileName(loc: PackLocation): string {
  if (loc.generation === 'unsliced') return `${archiveName(loc.packageId)}.pack`;
  const start = required(loc.sliceStart, 'sliceStart', loc.generation);
  if (start < loc.packageId) throw new RangeError(`packPath: slice ${start} is before package ${loc.packageId}`);
  if (loc.generation === 'sliced') return `${archiveName(start)}.pack`;
  const workchain = required(loc.workchain, 'workchain', loc.generation);
  if (workchain === MASTERCHAIN) return `${archiveName(start)}.pack`;
  const shard = required(loc.shard, 'shard', loc.generation);
  const depth = required(loc.splitDepth, 'splitDepth', loc.generation);
  const sep = loc.generation === 'shard-split-colon' ? ':' : '_';
  return `${archiveName(start)}.${workchain}${sep}${hex16(shardPrefix(shard, depth))}.pack`;
}

/** The path of the pack a block's files are in; its folder is that of the pack's own first seqno. */
export function packPath(root: string, loc: PackLocation): string {
  const seqno = loc.generation === 'unsliced' ? loc.packageId : required(loc.sliceStart, 'sliceStart', loc.generation);
  return join(packagesDir(root), packageFolder(seqno), packFileName(loc));
}

export interface PackFileName {
  /** The package id (unsliced) or the slice's first masterchain seqno. */
  seqno: number;
  /** Present for a workchain pack of the shard-split generations. */
  workchain?: number;
  prefix?: bigint;
  separator?: ':' | '_';
}

const PACK_RE = /^archive\.(\d{5,10})(?:\.(-?\d{1,10})([:_])([0-9a-f]{16}))?\.pack$/;

/** Parses an archive pack's file name; null for anything else (key/temp packs, `.new` files, non-canonical names). */
export function parsePackFileName(fileName: string): PackFileName | null {
  const m = PACK_RE.exec(fileName);
  if (!m) return null;
  const seqno = Number(m[1]);
  if (seqno >= 2 ** 32 || archiveName(seqno) !== `archive.${m[1]}`) return null;
  if (m[2] === undefined) return { seqno };
  const workchain = Number(m[2]);
  if (String(workchain) !== m[2] || workchain < -(2 ** 31) || workchain >= 2 ** 31) return null;
  return { seqno, workchain, prefix: BigInt(`0x${m[4]}`), separator: m[3] as ':' | '_' };
}

const INDEX_RE = /^archive\.(\d{5,10})\.index$/;

/**
 * The archive package ids present under `<root>/archive/packages`, sorted. Index folders name them; a pack with
 * no index (such as a copied slice) adds a package only where the index folders say nothing: when no known package
 * is at or before it, when its seqno is a multiple of PACKAGE_SPAN, or when it is not a whole number of slices after
 * the package before it (a key-block package). Key and temp packages are not archive packages.
 */
export async function listPackages(root: string): Promise<number[]> {
  const folders = await readdirOrEmpty(packagesDir(root));
  const indexIds = new Set<number>();
  const packSeqnos = new Set<number>();
  for (const folder of folders.filter((f) => /^arch\d{4}$/.test(f)).sort()) {
    for (const name of await readdirOrEmpty(join(packagesDir(root), folder))) {
      const idx = INDEX_RE.exec(name);
      if (idx && archiveName(Number(idx[1])) === `archive.${idx[1]}`) indexIds.add(Number(idx[1]));
      const pack = parsePackFileName(name);
      if (pack) packSeqnos.add(pack.seqno);
    }
  }
  const ids = [...indexIds].sort((a, b) => a - b);
  for (const s of [...packSeqnos].sort((a, b) => a - b)) {
    if (indexIds.has(s)) continue;
    const before = ids.filter((id) => id <= s).at(-1);
    if (before === undefined || s % PACKAGE_SPAN === 0 || (s - before) % SLICE_SIZE !== 0) {
      ids.push(s);
      ids.sort((a, b) => a - b);
    }
  }
  return ids;
}

/** `files/globalindex`: the RocksDB list of packages and their first blocks (§2.5). */
export function globalIndexDir(root: string): string {
  return join(root, 'files', 'globalindex');
}

/** `state`: the node's small service records (§4.3). */
export function stateDbDir(root: string): string {
  return join(root, 'state');
}

/** `celldb`: the cells of retained shard states (§3). */
export function cellDbDir(root: string): string {
  return join(root, 'celldb');
}

function hex16(v: bigint): string {
  return v.toString(16).padStart(16, '0');
}

function required<T>(v: T | undefined, field: string, generation: ArchiveGeneration): T {
  if (v === undefined) throw new RangeError(`packPath: ${generation} needs ${field}`);
  return v;
}

function checkSeqno(v: number, what: string): void {
  if (!Number.isInteger(v) || v < 0 || v >= 2 ** 32) throw new RangeError(`${what}: bad seqno ${v}`);
}
