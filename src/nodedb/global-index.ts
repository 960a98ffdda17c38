// The global index (`files/globalindex/`, node-db.md §2.5): the list of archive, key and temp packages and, for
// each, the first block of every shard it holds and whether it was garbage-collected. Readers mirror
// validator/db/archive-manager.cpp (load_package, get_package_id, get_file_desc_by_*, get_next_file_desc).
import type { KvOp, KvReader } from './kv/types.ts';
import { shardPrefix } from './layout.ts';
import { NodeDbFormatError, TL, TlReader, TlWriter } from './tl.ts';

type KvPut = Extract<KvOp, { type: 'put' }>;

const MASTERCHAIN = -1;
const WHOLE_SHARD = 0x8000000000000000n;

/** `db.files.index.value`: package ids by kind (archive ids are first masterchain seqnos). */
export interface GlobalIndex {
  packages: number[];
  keyPackages: number[];
  tempPackages: number[];
}

/** `db.files.package.firstBlock`: the first block of a shard in a package; `lt` is its end_lt (the handle's lt). */
export interface FirstBlock {
  workchain: number;
  shard: bigint;
  seqno: number;
  unixtime: number;
  lt: bigint;
}

/** `db.files.package.value`. `deleted`: the package was garbage-collected (archive-ttl); its files are gone. */
export interface PackageInfo {
  id: number;
  key: boolean;
  temp: boolean;
  firstBlocks: FirstBlock[];
  deleted: boolean;
}

/** `db.files.index.key`: the 4 bytes `02 05 C4 7D`. */
export const GLOBAL_INDEX_KEY = new TlWriter().u32(TL.filesIndexKey).done();

export function packageKey(id: number, key: boolean, temp: boolean): Buffer {
  return new TlWriter().u32(TL.filesPackageKey).i32(id).bool(key).bool(temp).done();
}

function intVector(r: TlReader): number[] {
  const n = r.u32();
  // each item is 4 bytes: refuse a count the value cannot hold before allocating
  if (n * 4 > r.buf.length - r.offset) {
    throw new NodeDbFormatError(`${r.what}: vector of ${n} ints does not fit in ${r.buf.length - r.offset} bytes`);
  }
  return Array.from({ length: n }, () => r.i32());
}

function writeIntVector(w: TlWriter, v: readonly number[]): TlWriter {
  w.u32(v.length);
  for (const x of v) w.i32(x);
  return w;
}

/** The package lists, or null when the node never wrote them (an empty database). */
export async function readGlobalIndex(kv: KvReader): Promise<GlobalIndex | null> {
  const v = await kv.get(GLOBAL_INDEX_KEY);
  if (v === null) return null;
  const r = new TlReader(v, `${kv.path}: db.files.index.value`).expect(TL.filesIndexValue);
  const index = { packages: intVector(r), keyPackages: intVector(r), tempPackages: intVector(r) };
  r.end();
  return index;
}

export function globalIndexOps(index: GlobalIndex): KvOp[] {
  const w = new TlWriter().u32(TL.filesIndexValue);
  writeIntVector(w, index.packages);
  writeIntVector(w, index.keyPackages);
  writeIntVector(w, index.tempPackages);
  return [{ type: 'put', key: GLOBAL_INDEX_KEY, value: w.done() }];
}

export function decodePackageInfo(v: Buffer, what = 'db.files.package.value'): PackageInfo {
  const r = new TlReader(v, what).expect(TL.filesPackageValue);
  const id = r.i32();
  const key = r.bool();
  const temp = r.bool();
  const n = r.u32();
  // firstBlock is bare: 28 bytes each (wc, shard, seqno, unixtime, lt)
  if (n * 28 > r.buf.length - r.offset) {
    throw new NodeDbFormatError(`${what}: ${n} first blocks do not fit in ${r.buf.length - r.offset} bytes`);
  }
  const firstBlocks = Array.from({ length: n }, () => ({
    workchain: r.i32(),
    shard: r.shard(),
    seqno: r.u32(),
    unixtime: r.u32(),
    lt: BigInt.asUintN(64, r.i64()),
  }));
  const deleted = r.bool();
  r.end();
  return { id, key, temp, firstBlocks, deleted };
}

export async function readPackage(kv: KvReader, id: number, key: boolean, temp: boolean): Promise<PackageInfo | null> {
  const v = await kv.get(packageKey(id, key, temp));
  if (v === null) return null;
  const what = `${kv.path}: db.files.package.value ${temp ? 'temp ' : key ? 'key ' : ''}${id}`;
  const info = decodePackageInfo(v, what);
  if (info.id !== id || info.key !== key || info.temp !== temp) {
    throw new NodeDbFormatError(`${what}: the value is for package ${info.id} (key ${info.key}, temp ${info.temp})`);
  }
  return info;
}

/** The infos of every package the index lists (archive, then key, then temp); a listed id without one throws. */
export async function readPackages(kv: KvReader, index: GlobalIndex): Promise<PackageInfo[]> {
  const wanted = [
    ...index.packages.map((id) => ({ id, key: false, temp: false })),
    ...index.keyPackages.map((id) => ({ id, key: true, temp: false })),
    ...index.tempPackages.map((id) => ({ id, key: false, temp: true })),
  ];
  const out: PackageInfo[] = [];
  for (const w of wanted) {
    const info = await readPackage(kv, w.id, w.key, w.temp);
    // the node CHECKs this at start-up (load_package)
    if (!info) throw new NodeDbFormatError(`${kv.path}: package ${w.id} is listed but has no db.files.package.value`);
    out.push(info);
  }
  return out;
}

export function packageOp(info: PackageInfo): KvPut {
  const w = new TlWriter().u32(TL.filesPackageValue).i32(info.id).bool(info.key).bool(info.temp);
  w.u32(info.firstBlocks.length);
  for (const f of info.firstBlocks) w.i32(f.workchain).shard(f.shard).u32(f.seqno).u32(f.unixtime).i64(f.lt);
  w.bool(info.deleted);
  return { type: 'put', key: packageKey(info.id, info.key, info.temp), value: w.done() };
}

/** Archive packages the node would load: listed as archive packages and not deleted. */
function liveArchives(index: GlobalIndex | null, packages: readonly PackageInfo[]): PackageInfo[] {
  const listed = index ? new Set(index.packages) : null;
  return packages.filter((p) => !p.key && !p.temp && !p.deleted && (!listed || listed.has(p.id)));
}

/**
 * The archive package that holds masterchain block `mcSeqno`: the largest non-deleted archive id <= it
 * (get_package_id). Ids listed in `index` but absent from `packages` are skipped, as the node skips a package
 * it cannot open. Null when there is none.
 */
export function packageFor(index: GlobalIndex, packages: readonly PackageInfo[], mcSeqno: number): number | null {
  let best: number | null = null;
  for (const p of liveArchives(index, packages)) if (p.id <= mcSeqno && (best === null || p.id > best)) best = p.id;
  return best;
}

export type PackageLookup = { seqno: number } | { lt: bigint } | { utime: number };

/**
 * The archive packages to search, in order, for a block lookup on the shard chain containing account prefix
 * `prefix` (archive-manager.cpp get_block_by_*): the package whose first block of a containing shard is the last
 * at or before the value, then (for lt and utime, whose answer can be the next package's first block) the next
 * package holding such a shard. Empty when no package can hold it.
 */
export function lookupPackages(
  packages: readonly PackageInfo[],
  workchain: number,
  prefix: bigint,
  by: PackageLookup,
): number[] {
  const live = liveArchives(null, packages);
  const shardsOf = (len: number) => (workchain === MASTERCHAIN ? WHOLE_SHARD : shardPrefix(prefix, len));
  const maxLen = workchain === MASTERCHAIN ? 0 : 60;
  const keyOf = (f: FirstBlock): number | bigint => ('seqno' in by ? f.seqno : 'lt' in by ? f.lt : f.unixtime);
  const value = 'seqno' in by ? by.seqno : 'lt' in by ? by.lt : by.utime;
  const firstOf = (p: PackageInfo, shard: bigint) =>
    p.firstBlocks.find((f) => f.workchain === workchain && f.shard === shard);

  // FileMap::get_file_desc_by_*: among packages with a first block for `shard`, the one whose value is the
  // largest <= `value` (ties: the larger id, which the node's map keeps as it loads packages in id order)
  const descBy = (shard: bigint): PackageInfo | null => {
    let best: { p: PackageInfo; v: number | bigint } | null = null;
    for (const p of live) {
      const f = firstOf(p, shard);
      if (!f) continue;
      const v = keyOf(f);
      if (v > value) continue;
      if (!best || v > best.v || (v === best.v && p.id > best.p.id)) best = { p, v };
    }
    return best?.p ?? null;
  };
  let first: PackageInfo | null = null;
  for (let len = 0; len <= maxLen; len++) {
    const d = descBy(shardsOf(len));
    if (d && (!first || first.id < d.id)) first = d;
    else if (first && (!d || d.id < first.id)) break;
  }
  if ('seqno' in by) return first ? [first.id] : [];

  // get_next_file_desc: the next package (after `first`, or the first one) holding a containing shard
  const nextBy = (shard: bigint): PackageInfo | null => {
    let best: PackageInfo | null = null;
    for (const p of live) {
      if (!firstOf(p, shard) || (first && p.id <= first.id)) continue;
      if (!best || p.id < best.id) best = p;
    }
    return best;
  };
  let next: PackageInfo | null = null;
  for (let len = 0; len <= maxLen; len++) {
    const d = nextBy(shardsOf(len));
    if (d && (!next || d.id < next.id)) next = d;
    else if (next && (!d || next.id < d.id)) break;
  }
  return [first, next].filter((p): p is PackageInfo => p !== null).map((p) => p.id);
}
