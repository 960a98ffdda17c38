// One archive package's index (`archive.<id>.index/`, node-db.md §2.3–2.4): the ASCII layout keys that say which
// pack files the package has, file offsets, block handles and the per-shard "ltdb" lists behind lookups by seqno,
// lt and unixtime. Readers mirror validator/db/archive-slice.cpp (before_query, choose_package, add_handle,
// get_block_common); the `*Op` writers produce exactly the records the node writes, for fixtures and tests.
import { type BlockIdExt, sameBlockId } from '../ton/index.ts';
import { type FileKind, fileIndexKey } from './fileref.ts';
import { type BlockHandle, blockHandleKey, decodeBlockHandle, encodeBlockHandle } from './handle.ts';
import type { KvOp, KvReader } from './kv/types.ts';
import { shardPrefix } from './layout.ts';
import { NodeDbFormatError, TL, TlReader, TlWriter } from './tl.ts';

type KvPut = Extract<KvOp, { type: 'put' }>;

const MASTERCHAIN = -1;
const WHOLE_SHARD = 0x8000000000000000n;

// ---------------------------------------------------------------------------------------------------------------
// Layout keys

/** Where one pack file of a shard-separated package sits: its slice's first masterchain seqno and shard prefix. */
export interface PackInfo {
  seqno: number;
  workchain: number;
  shard: bigint;
}

/**
 * The layout keys of a package index. Reading of §2.3, checked against archive-slice.cpp: index `i` of
 * `status.<i>`, `version.<i>` and `info.<i>` counts **pack files**, not 100-seqno slices. Without
 * `shard_split_depth` there is one pack per slice, so pack i is slice i (seqno = package id + i·slice_size) and
 * no `info.<i>` is written. With it (shard-separated, every index created since May 2025) the node appends a pack
 * whenever a (slice, shard prefix) pair is first written, so i is creation order and `info.<i>` names the pair.
 * `status.<i>` is pack i's committed size (bytes after the 4-byte header).
 */
export type SliceLayout =
  | { kind: 'unsliced'; committedSize: number }
  | {
      kind: 'sliced';
      slices: number;
      sliceSize: number;
      sizes: number[];
      /** `version.<i>`; an absent key reads as 0, as the node reads it (packages older than versioning). */
      versions: number[];
      /** Present exactly when the package is shard-separated (the node tests the key's presence). */
      shardSplitDepth?: number;
      /** `info.<i>` per pack when shard-separated; all undefined otherwise. */
      info: Array<PackInfo | undefined>;
    };

const ascii = (s: string) => Buffer.from(s, 'latin1');

function decimal(value: Buffer, what: string): number {
  const s = value.toString('latin1');
  if (!/^\d{1,15}$/.test(s))
    throw new NodeDbFormatError(`${what}: expected an ASCII decimal, got ${JSON.stringify(s)}`);
  return Number(s);
}

async function getDecimal(kv: KvReader, key: string, required: true): Promise<number>;
async function getDecimal(kv: KvReader, key: string, required: false): Promise<number | undefined>;
async function getDecimal(kv: KvReader, key: string, required: boolean): Promise<number | undefined> {
  const v = await kv.get(ascii(key));
  if (v === null) {
    if (required) throw new NodeDbFormatError(`${kv.path}: layout key '${key}' is missing`);
    return undefined;
  }
  return decimal(v, `${kv.path}: layout key '${key}'`);
}

/** `info.<i>` value, written by the node as `%u.%d:%016llx` (always with ':', even after #1867 renamed packs). */
export function formatPackInfo(p: PackInfo): string {
  return `${p.seqno}.${p.workchain}:${p.shard.toString(16).padStart(16, '0')}`;
}

export function parsePackInfo(s: string, what = 'info'): PackInfo {
  const m = /^(\d{1,10})\.(-?\d{1,10}):([0-9a-fA-F]{1,16})$/.exec(s);
  if (!m) throw new NodeDbFormatError(`${what}: expected '<seqno>.<wc>:<shard16hex>', got ${JSON.stringify(s)}`);
  return { seqno: Number(m[1]), workchain: Number(m[2]), shard: BigInt(`0x${m[3]}`) };
}

/** The layout, or null for an index the node has not initialised yet (no `status` key). */
export async function readSliceLayout(kv: KvReader): Promise<SliceLayout | null> {
  const status = await kv.get(ascii('status'));
  if (status === null) return null;
  if (status.toString('latin1') !== 'sliced') {
    return { kind: 'unsliced', committedSize: decimal(status, `${kv.path}: layout key 'status'`) };
  }
  const slices = await getDecimal(kv, 'slices', true);
  const sliceSize = await getDecimal(kv, 'slice_size', true);
  if (sliceSize === 0) throw new NodeDbFormatError(`${kv.path}: layout key 'slice_size' is 0`);
  const shardSplitDepth = await getDecimal(kv, 'shard_split_depth', false);
  if (shardSplitDepth !== undefined && shardSplitDepth > 60) {
    throw new NodeDbFormatError(`${kv.path}: shard_split_depth ${shardSplitDepth} is over 60`);
  }
  const sizes: number[] = [];
  const versions: number[] = [];
  const info: Array<PackInfo | undefined> = [];
  for (let i = 0; i < slices; i++) {
    sizes.push(await getDecimal(kv, `status.${i}`, true));
    versions.push((await getDecimal(kv, `version.${i}`, false)) ?? 0);
    if (shardSplitDepth === undefined) {
      info.push(undefined);
      continue;
    }
    const v = await kv.get(ascii(`info.${i}`));
    if (v === null) throw new NodeDbFormatError(`${kv.path}: layout key 'info.${i}' is missing (shard-separated)`);
    info.push(parsePackInfo(v.toString('latin1'), `${kv.path}: layout key 'info.${i}'`));
  }
  const layout: SliceLayout = { kind: 'sliced', slices, sliceSize, sizes, versions, info };
  if (shardSplitDepth !== undefined) layout.shardSplitDepth = shardSplitDepth;
  return layout;
}

/** The puts that store `layout` as the node does. */
export function sliceLayoutOps(layout: SliceLayout): KvOp[] {
  const put = (key: string, value: string): KvOp => ({ type: 'put', key: ascii(key), value: ascii(value) });
  if (layout.kind === 'unsliced') return [put('status', String(layout.committedSize))];
  const { slices, sizes, versions, info, shardSplitDepth } = layout;
  if (sizes.length !== slices || versions.length !== slices || info.length !== slices) {
    throw new RangeError(
      `slice layout: ${slices} slices but ${sizes.length} sizes, ${versions.length} versions, ${info.length} info`,
    );
  }
  const ops = [put('status', 'sliced'), put('slices', String(slices)), put('slice_size', String(layout.sliceSize))];
  if (shardSplitDepth !== undefined) ops.push(put('shard_split_depth', String(shardSplitDepth)));
  for (let i = 0; i < slices; i++) {
    ops.push(put(`status.${i}`, String(sizes[i])), put(`version.${i}`, String(versions[i])));
    const p = info[i];
    if (shardSplitDepth !== undefined) {
      if (!p) throw new RangeError(`slice layout: shard-separated but info[${i}] is missing`);
      ops.push(put(`info.${i}`, formatPackInfo(p)));
    } else if (p) {
      throw new RangeError(`slice layout: info[${i}] given but shardSplitDepth is not`);
    }
  }
  return ops;
}

/** One pack file of a package, resolved from the layout (the node's PackageInfo). */
export interface SlicePack extends PackInfo {
  /** Index of the `status.<i>` key (0 for an unsliced package). */
  idx: number;
  committedSize: number;
  version: number;
}

/** The packs of package `archiveId` as the node derives them in before_query. */
export function slicePacks(archiveId: number, layout: SliceLayout): SlicePack[] {
  if (layout.kind === 'unsliced') {
    return [
      {
        idx: 0,
        seqno: archiveId,
        workchain: MASTERCHAIN,
        shard: WHOLE_SHARD,
        committedSize: layout.committedSize,
        version: 0,
      },
    ];
  }
  return layout.sizes.map((committedSize, idx) => {
    const where = layout.info[idx] ?? {
      seqno: archiveId + layout.sliceSize * idx,
      workchain: MASTERCHAIN,
      shard: WHOLE_SHARD,
    };
    return { idx, ...where, committedSize, version: layout.versions[idx] ?? 0 };
  });
}

/**
 * The pack that holds a block whose masterchain ref seqno (its own seqno for a masterchain block) is `mcSeqno`
 * (archive-slice.cpp choose_package); null when the package has no such pack (yet).
 */
export function choosePack(
  archiveId: number,
  layout: SliceLayout,
  mcSeqno: number,
  workchain: number,
  shard: bigint,
): SlicePack | null {
  const packs = slicePacks(archiveId, layout);
  if (layout.kind === 'unsliced') return packs[0]!;
  if (mcSeqno < archiveId) return null;
  const sliceStart = mcSeqno - ((mcSeqno - archiveId) % layout.sliceSize);
  let wc = MASTERCHAIN;
  let prefix = WHOLE_SHARD;
  if (layout.shardSplitDepth !== undefined && workchain !== MASTERCHAIN) {
    wc = workchain;
    prefix = shardPrefix(shard, layout.shardSplitDepth);
  }
  return packs.find((p) => p.seqno === sliceStart && p.workchain === wc && p.shard === prefix) ?? null;
}

// ---------------------------------------------------------------------------------------------------------------
// File offsets and handles

/** Offset (counted after the pack header) of a block, proof or proof-link file; null when not in this package. */
export async function fileOffset(kv: KvReader, kind: FileKind, id: BlockIdExt): Promise<number | null> {
  const key = fileIndexKey(kind, id);
  const v = await kv.get(key);
  return v === null ? null : decimal(v, `${kv.path}: file offset ${key.toString('latin1')} (${kind})`);
}

export function fileOffsetOp(kind: FileKind, id: BlockIdExt, offset: number): KvPut {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`file offset: ${offset} is not a size`);
  return { type: 'put', key: fileIndexKey(kind, id), value: ascii(String(offset)) };
}

/** The stored handle of `id`; throws if the stored value names another block. */
export async function readHandle(kv: KvReader, id: BlockIdExt): Promise<BlockHandle | null> {
  const v = await kv.get(blockHandleKey(id));
  if (v === null) return null;
  const h = decodeBlockHandle(v);
  if (!sameBlockId(h.id, id)) {
    throw new NodeDbFormatError(`${kv.path}: handle stored for ${showId(id)} is for ${showId(h.id)}`);
  }
  return h;
}

export function handleOp(handle: BlockHandle): KvPut {
  return { type: 'put', key: blockHandleKey(handle.id), value: encodeBlockHandle(handle) };
}

function showId(id: { workchain: number; shard: bigint; seqno: number }): string {
  return `(${id.workchain},${id.shard.toString(16).padStart(16, '0')},${id.seqno})`;
}

// ---------------------------------------------------------------------------------------------------------------
// ltdb: per shard, the blocks of this package in seqno (and lt) order

/** One `db.lt.el.value`: a block with its lt (the block's end_lt, as handles store it) and gen_utime. */
export interface LtdbEntry {
  id: BlockIdExt;
  lt: bigint;
  ts: number;
}

/** `db.lt.desc.value`: entries have idx in [firstIdx, lastIdx); the last* fields are those of entry lastIdx − 1. */
export interface LtdbDesc {
  firstIdx: number;
  lastIdx: number;
  lastSeqno: number;
  lastLt: bigint;
  lastTs: number;
}

export interface LtdbShard {
  workchain: number;
  shard: bigint;
}

export function ltDescKey(workchain: number, shard: bigint): Buffer {
  return new TlWriter().u32(TL.ltDescKey).i32(workchain).shard(shard).done();
}

export function ltElKey(workchain: number, shard: bigint, idx: number): Buffer {
  return new TlWriter().u32(TL.ltElKey).i32(workchain).shard(shard).i32(idx).done();
}

const LT_STATUS_KEY = new TlWriter().u32(TL.ltStatusKey).done();
const ltShardKey = (idx: number) => new TlWriter().u32(TL.ltShardKey).i32(idx).done();

function encodeDesc(d: LtdbDesc): Buffer {
  return new TlWriter()
    .u32(TL.ltDescValue)
    .i32(d.firstIdx)
    .i32(d.lastIdx)
    .u32(d.lastSeqno)
    .i64(d.lastLt)
    .u32(d.lastTs)
    .done();
}

function decodeDesc(v: Buffer, what: string): LtdbDesc {
  const r = new TlReader(v, what).expect(TL.ltDescValue);
  const d = {
    firstIdx: r.i32(),
    lastIdx: r.i32(),
    lastSeqno: r.u32(),
    lastLt: BigInt.asUintN(64, r.i64()),
    lastTs: r.u32(),
  };
  r.end();
  if (d.firstIdx < 0 || d.lastIdx < d.firstIdx) {
    throw new NodeDbFormatError(`${what}: bad index range [${d.firstIdx}, ${d.lastIdx})`);
  }
  return d;
}

function encodeEl(e: LtdbEntry): Buffer {
  return new TlWriter().u32(TL.ltElValue).blockId(e.id).i64(e.lt).u32(e.ts).done();
}

function decodeEl(v: Buffer, what: string): LtdbEntry {
  const r = new TlReader(v, what).expect(TL.ltElValue);
  const e = { id: r.blockId(), lt: BigInt.asUintN(64, r.i64()), ts: r.u32() };
  r.end();
  return e;
}

export async function readLtdbDesc(kv: KvReader, workchain: number, shard: bigint): Promise<LtdbDesc | null> {
  const v = await kv.get(ltDescKey(workchain, shard));
  return v === null ? null : decodeDesc(v, `${kv.path}: ltdb desc ${workchain}:${hex16(shard)}`);
}

async function readEl(kv: KvReader, workchain: number, shard: bigint, idx: number): Promise<LtdbEntry> {
  const what = `${kv.path}: ltdb entry ${workchain}:${hex16(shard)} #${idx}`;
  const v = await kv.get(ltElKey(workchain, shard, idx));
  // the node CHECKs this too: an entry inside [first, last) must exist
  if (v === null) throw new NodeDbFormatError(`${what}: missing though the desc lists it`);
  return decodeEl(v, what);
}

const hex16 = (shard: bigint) => shard.toString(16).padStart(16, '0');

/**
 * The ops that append `entry` to its shard's list (archive-slice.cpp add_handle): nothing unless both its seqno
 * and its lt exceed the shard's last ones (so an out-of-order block gets no entry), and nothing for seqno 0.
 * A new shard is also added to the `db.lt.shard` list. The ops read the current state: write them before
 * computing the next append. The node writes the block's handle in the same batch (add `handleOp`).
 */
export async function ltdbAppendOps(kv: KvReader, entry: LtdbEntry): Promise<KvOp[]> {
  const { workchain, shard, seqno } = entry.id;
  if (seqno === 0) return [];
  const existing = await readLtdbDesc(kv, workchain, shard);
  const desc = existing ?? { firstIdx: 1, lastIdx: 1, lastSeqno: 0, lastLt: 0n, lastTs: 0 };
  if (seqno <= desc.lastSeqno || entry.lt <= desc.lastLt) return [];
  const ops: KvOp[] = [
    { type: 'put', key: ltElKey(workchain, shard, desc.lastIdx), value: encodeEl(entry) },
    {
      type: 'put',
      key: ltDescKey(workchain, shard),
      value: encodeDesc({
        firstIdx: desc.firstIdx,
        lastIdx: desc.lastIdx + 1,
        lastSeqno: seqno,
        lastLt: entry.lt,
        lastTs: entry.ts,
      }),
    },
  ];
  if (!existing) {
    const total = await readShardCount(kv);
    ops.push(
      {
        type: 'put',
        key: LT_STATUS_KEY,
        value: new TlWriter()
          .u32(TL.ltStatusValue)
          .i32(total + 1)
          .done(),
      },
      {
        type: 'put',
        key: ltShardKey(total),
        value: new TlWriter().u32(TL.ltShardValue).i32(workchain).shard(shard).done(),
      },
    );
  }
  return ops;
}

async function readShardCount(kv: KvReader): Promise<number> {
  const v = await kv.get(LT_STATUS_KEY);
  if (v === null) return 0;
  const r = new TlReader(v, `${kv.path}: db.lt.status.value`).expect(TL.ltStatusValue);
  const n = r.i32();
  r.end();
  if (n < 0) throw new NodeDbFormatError(`${kv.path}: db.lt.status.value total_shards is ${n}`);
  return n;
}

/** The shards that have an ltdb list in this package, in the order they were added. */
export async function ltdbShards(kv: KvReader): Promise<LtdbShard[]> {
  const n = await readShardCount(kv);
  const keys = Array.from({ length: n }, (_, i) => ltShardKey(i));
  const values = await kv.multiGet(keys);
  return values.map((v, i) => {
    const what = `${kv.path}: db.lt.shard.value #${i}`;
    if (v === null) throw new NodeDbFormatError(`${what}: missing (total_shards is ${n})`);
    const r = new TlReader(v, what).expect(TL.ltShardValue);
    const s = { workchain: r.i32(), shard: r.shard() };
    r.end();
    return s;
  });
}

/** Every entry of one shard's list (exactly that shard, no prefix matching), in idx order. */
export async function ltdbEntries(kv: KvReader, workchain: number, shard: bigint): Promise<LtdbEntry[]> {
  const desc = await readLtdbDesc(kv, workchain, shard);
  if (!desc) return [];
  const idxs = Array.from({ length: desc.lastIdx - desc.firstIdx }, (_, i) => desc.firstIdx + i);
  const values = await kv.multiGet(idxs.map((i) => ltElKey(workchain, shard, i)));
  return values.map((v, k) => {
    const what = `${kv.path}: ltdb entry ${workchain}:${hex16(shard)} #${idxs[k]}`;
    if (v === null) throw new NodeDbFormatError(`${what}: missing though the desc lists it`);
    return decodeEl(v, what);
  });
}

const cmp = <T extends number | bigint>(a: T, b: T): number => (a > b ? 1 : a === b ? 0 : -1);

/**
 * archive-slice.cpp get_block_common. `prefix` is an account prefix (a 64-bit point, e.g. a shard id or the top
 * of an address): the lists of the shards containing it are tried from the shortest prefix (0 bits) down, stopping
 * at the first missing one after a hit, so a lookup on a parent shard also reaches its children after a split.
 * Each list is binary-searched; an exact hit returns at once. Otherwise the candidate is the lowest-seqno entry
 * above the value over all lists, returned (when `exact` is off) once the entry just below it is known, or at the end.
 */
async function lookup(
  kv: KvReader,
  workchain: number,
  prefix: bigint,
  valueOfDesc: (d: LtdbDesc) => number | bigint,
  valueOfEntry: (e: LtdbEntry) => number | bigint,
  value: number | bigint,
  exact: boolean,
): Promise<LtdbEntry | null> {
  let found = false;
  let best: LtdbEntry | null = null;
  let below = 0;
  for (let len = 0; len <= 60; len++) {
    // ton-shard.h shard_prefix(account, len): the shard of `len` bits containing the point
    const shard = shardPrefix(prefix, len);
    const desc = await readLtdbDesc(kv, workchain, shard);
    if (!desc) {
      if (found) break;
      continue;
    }
    found = true;
    if (cmp(value, valueOfDesc(desc)) > 0) continue;
    let l = desc.firstIdx - 1;
    let r = desc.lastIdx;
    let right: LtdbEntry | null = null;
    let left: LtdbEntry | null = null;
    while (r - l > 1) {
      const x = Math.floor((r + l) / 2);
      const e = await readEl(kv, workchain, shard, x);
      const c = cmp(value, valueOfEntry(e));
      if (c < 0) {
        right = e;
        r = x;
      } else if (c > 0) {
        left = e;
        l = x;
      } else {
        return e;
      }
    }
    if (right && (!best || best.id.seqno > right.id.seqno)) best = right;
    if (left && below < left.id.seqno) below = left.id.seqno;
    if (best && below + 1 === best.id.seqno) return exact ? null : best;
  }
  return exact ? null : best;
}

/** The block of the shard chain containing `prefix` with exactly this seqno (null if this package has none). */
export function lookupBySeqno(
  kv: KvReader,
  workchain: number,
  prefix: bigint,
  seqno: number,
): Promise<LtdbEntry | null> {
  return lookup(
    kv,
    workchain,
    prefix,
    (d) => d.lastSeqno,
    (e) => e.id.seqno,
    seqno,
    true,
  );
}

/**
 * The first block (lowest seqno) whose stored lt, the block's end_lt, is >= `lt`: the block whose lt range holds
 * `lt`, else the next one. Null when every block of this package ends before `lt`.
 */
export function lookupByLt(kv: KvReader, workchain: number, prefix: bigint, lt: bigint): Promise<LtdbEntry | null> {
  return lookup(
    kv,
    workchain,
    prefix,
    (d) => d.lastLt,
    (e) => e.lt,
    BigInt.asUintN(64, lt),
    false,
  );
}

/** The first block (lowest seqno) with gen_utime >= `utime`; null when every block of this package is older. */
export function lookupByUtime(
  kv: KvReader,
  workchain: number,
  prefix: bigint,
  utime: number,
): Promise<LtdbEntry | null> {
  return lookup(
    kv,
    workchain,
    prefix,
    (d) => d.lastTs,
    (e) => e.ts,
    utime,
    false,
  );
}
