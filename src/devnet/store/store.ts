// The devnet node's store: classic-level for everything (one batch per step), plus the file layer for readers
// in other processes. LAYOUT.md is the contract for keys, values, files, write order and crash rules.
import { createHash } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Address, type Cell } from '@ton/core';
import { ClassicLevel } from 'classic-level';
import { StoreError } from '../../common/errors.ts';
import { type BlockIdExt, lowerBit, parseBoc, shardContains, shardIntersects } from '../../ton/index.ts';
import { type BlockFacts, readBlockFacts, readZeroStateFacts, type ZeroStateFacts } from './block-facts.ts';
import { CellStore, cellKey, encodeCell } from './cell-store.ts';
import {
  bucketOf,
  DB_DIR,
  decodeHead,
  decodeManifest,
  decodeMeta,
  encodeHead,
  encodeManifest,
  encodeMeta,
  entryOf,
  filesRoot,
  HEAD_FILE,
  LAYOUT_VERSION,
  META_FILE,
  manifestPath,
  readIfExists,
  shardHex,
  syncDir,
  TMP_MARK,
  unlinkIfExists,
  writeFileAtomic,
} from './files.ts';
import {
  accountKeyBytes,
  blockKeyBytes,
  decodeBlockRecord,
  encodeAccountRecord,
  encodeBlockRecord,
  encodeLocation,
  parseBlockKey,
  prefixEnd,
  sameId,
  shardPrefix,
  single,
  T_ACCOUNT,
  T_BLOCK,
  T_CELL,
  T_FILE,
  T_HEAD,
  T_LAYOUT,
  T_LT,
  T_MANIFEST,
  T_MESSAGE,
  T_META,
  T_QUEUE,
  T_SHARD,
  T_STATE,
  T_TX,
  T_UTIME,
  T_ZEROSTATE,
  tableKey,
  u32,
  u64,
} from './keys.ts';
import type {
  AccountInput,
  DevnetHead,
  DevnetMeta,
  DevnetStore,
  DevnetStoreOptions,
  FileEntry,
  GenesisInput,
  MessageTransaction,
  QueuedExternal,
  StepBlockInput,
  StepInput,
  StepManifest,
  StoredAccount,
  StoredBlock,
  StoredTransaction,
  TransactionLocation,
} from './types.ts';

type Db = ClassicLevel<Buffer, Buffer>;
type BatchOp = { type: 'put'; key: Buffer; value: Buffer } | { type: 'del'; key: Buffer };

const U64 = (1n << 64n) - 1n;
const LAYOUT_FORMAT = 'tongate-devnet-store';
const DIRECTION = { in: 0, out: 1, inNormalized: 2 } as const;

interface ShardLast {
  workchain: number;
  shard: bigint;
  seqno: number;
  endLt: bigint;
  genUtime: number;
  zeroState: boolean;
}

function rejected(message: string, details: Record<string, unknown> = {}): StoreError {
  return new StoreError('TG_DEVNET_STORE_REJECTED', message, { details });
}

function corrupt(message: string, details: Record<string, unknown> = {}): StoreError {
  return new StoreError('TG_DEVNET_STORE_CORRUPT', message, { details });
}

export function idString(id: { workchain: number; shard: bigint; seqno: number }): string {
  return `(${id.workchain},${shardHex(id.shard)},${id.seqno})`;
}

function shardKeyString(workchain: number, shard: bigint): string {
  return `${workchain}:${shardHex(shard)}`;
}

function sha256(b: Buffer): Buffer {
  return createHash('sha256').update(b).digest();
}

function readShardAccount(input: AccountInput): { lastTransHash: Buffer; lastTransLt: bigint } {
  const c = input.shardAccount;
  if (c.isExotic || c.refs.length !== 1 || c.bits.length !== 320) {
    throw rejected(
      `account ${input.address.toRawString()}: expected a ShardAccount cell (1 ref, 320 bits), got ${c.refs.length} refs, ${c.bits.length} bits`,
    );
  }
  const s = c.beginParse();
  return { lastTransHash: s.loadBuffer(32), lastTransLt: s.loadUintBig(64) };
}

/** Opens (creating if needed) the store in `dir`: LevelDB in `dir/db`, the file layer in `dir/files`. */
export async function openDevnetStore(dir: string, opts: DevnetStoreOptions = {}): Promise<DevnetStore> {
  await mkdir(join(dir, DB_DIR), { recursive: true });
  await mkdir(filesRoot(dir), { recursive: true });
  const db: Db = new ClassicLevel<Buffer, Buffer>(join(dir, DB_DIR), {
    keyEncoding: 'buffer',
    valueEncoding: 'buffer',
  });
  try {
    await db.open();
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause;
    if (cause?.code === 'LEVEL_LOCKED') {
      throw new StoreError(
        'TG_DEVNET_STORE_LOCKED',
        `devnet store ${dir}: another process has it open (LevelDB LOCK); other processes read it with openDevnetStoreReader`,
        { cause: e },
      );
    }
    throw new StoreError(
      'TG_DEVNET_STORE_CORRUPT',
      `devnet store ${dir}: LevelDB failed to open: ${(e as Error).message}`,
      {
        cause: e,
      },
    );
  }
  const store = new LevelDevnetStore(dir, db, opts);
  try {
    await store.init();
  } catch (e) {
    await db.close();
    throw e;
  }
  return store;
}

class LevelDevnetStore implements DevnetStore {
  private readonly cells: CellStore;
  private readonly sync: boolean;
  private readonly files: string;
  private current: DevnetHead | null = null;
  private readonly shards = new Map<string, ShardLast>();
  private nextQueueId = 1n;
  private readonly inFlight = new Set<bigint>();
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly onPhase: DevnetStoreOptions['onCommitPhase'];

  constructor(
    readonly dir: string,
    private readonly db: Db,
    opts: DevnetStoreOptions,
  ) {
    this.sync = opts.sync ?? true;
    this.onPhase = opts.onCommitPhase;
    this.files = filesRoot(dir);
    this.cells = new CellStore(db, {
      cacheSize: opts.cellCacheSize ?? 100_000,
      knownSize: opts.knownCellsSize ?? 250_000,
    });
  }

  // ---- open ------------------------------------------------------------------------------------------------

  async init(): Promise<void> {
    await this.checkLayout();
    const h = await this.db.get(single(T_HEAD));
    this.current = h === undefined ? null : decodeHead(h.toString('utf8'), `${this.dir}: head record`);
    if (this.current) await this.verifyHead(this.current);
    await this.loadShards();
    const lastQ = await this.db
      .keys({ gte: single(T_QUEUE), lt: prefixEnd(single(T_QUEUE)), reverse: true, limit: 1 })
      .all();
    if (lastQ[0]) this.nextQueueId = lastQ[0].readBigUInt64BE(1) + 1n;
    await this.reconcileFiles();
  }

  private async checkLayout(): Promise<void> {
    const v = await this.db.get(single(T_LAYOUT));
    if (v === undefined) {
      const any = await this.db.keys({ limit: 1 }).all();
      if (any.length > 0)
        throw corrupt(`devnet store ${this.dir}: data without a layout record (not a tongate devnet store?)`);
      const rec = JSON.stringify({ format: LAYOUT_FORMAT, layout: LAYOUT_VERSION });
      await this.db.put(single(T_LAYOUT), Buffer.from(rec), { sync: this.sync });
      return;
    }
    let parsed: { format?: unknown; layout?: unknown };
    try {
      parsed = JSON.parse(v.toString('utf8'));
    } catch {
      throw corrupt(`devnet store ${this.dir}: layout record is not JSON`);
    }
    if (parsed.format !== LAYOUT_FORMAT) {
      throw corrupt(
        `devnet store ${this.dir}: layout record names format ${String(parsed.format)}, expected ${LAYOUT_FORMAT}`,
      );
    }
    if (typeof parsed.layout !== 'number' || parsed.layout > LAYOUT_VERSION) {
      throw corrupt(
        `devnet store ${this.dir}: written by store layout ${String(parsed.layout)}; this build reads layout ${LAYOUT_VERSION} (upgrade tongate or use another data directory)`,
        { layout: parsed.layout },
      );
    }
    if (parsed.layout !== LAYOUT_VERSION) {
      throw corrupt(`devnet store ${this.dir}: store layout ${parsed.layout} is not readable by this build`);
    }
  }

  /** Every block the head names must be complete: record, file (hashes checked), state root cell, manifest. */
  private async verifyHead(head: DevnetHead): Promise<void> {
    const problem = (e: FileEntry, what: string) =>
      corrupt(
        `devnet store ${this.dir}: head (mc seqno ${head.mcSeqno}) names ${idString(e.id)} but ${what}; the store is corrupt`,
        { mcSeqno: head.mcSeqno, block: idString(e.id) },
      );
    for (const e of [head.mcBlock, ...head.shardTops]) {
      const rec = await this.record(e.id.workchain, e.id.shard, e.id.seqno);
      if (!rec || !sameId(rec.id, e.id)) throw problem(e, 'its block record is missing or differs');
      const bytes = await this.db.get(tableKey(T_FILE, this.keyOf(e.id)));
      if (!bytes) throw problem(e, 'its file bytes are missing');
      if (!sha256(bytes).equals(e.id.fileHash)) throw problem(e, 'its file bytes do not hash to its file hash');
      const root = parseBoc(bytes)[0];
      const rootHash = e.id.seqno === 0 ? root?.hash(0) : root?.hash();
      if (!rootHash?.equals(e.id.rootHash)) throw problem(e, 'its file does not have its root hash');
      const stateHash = await this.db.get(tableKey(T_STATE, this.keyOf(e.id)));
      if (!stateHash || !(await this.cells.has(stateHash))) throw problem(e, 'its state root cell is missing');
    }
    if ((await this.db.get(tableKey(T_MANIFEST, u32(head.mcSeqno)))) === undefined) {
      throw corrupt(
        `devnet store ${this.dir}: head mc seqno ${head.mcSeqno} has no manifest record; the store is corrupt`,
      );
    }
  }

  private async loadShards(): Promise<void> {
    const keys = await this.db.keys({ gte: single(T_SHARD), lt: prefixEnd(single(T_SHARD)) }).all();
    for (const k of keys) {
      const workchain = k.readInt32BE(1);
      const shard = k.readBigUInt64BE(5);
      const p = tableKey(T_LT, shardPrefix(workchain, shard));
      const last = await this.db.iterator({ gte: p, lt: prefixEnd(p), reverse: true, limit: 1 }).all();
      const seqno = last[0] ? last[0][1].readUInt32BE(0) : 0;
      const rec = await this.record(workchain, shard, seqno);
      if (!rec)
        throw corrupt(`devnet store ${this.dir}: shard ${shardKeyString(workchain, shard)} has no block ${seqno}`);
      this.shards.set(shardKeyString(workchain, shard), {
        workchain,
        shard,
        seqno,
        endLt: rec.endLt,
        genUtime: rec.genUtime,
        zeroState: rec.zeroState,
      });
    }
  }

  /**
   * Brings the file layer in line with the database (the source of truth): rewrites a head.json, manifests,
   * block files and meta.json that a crash left behind, and removes files of a step that never committed.
   */
  private async reconcileFiles(): Promise<void> {
    const headPath = join(this.files, HEAD_FILE);
    const raw = await readIfExists(headPath);
    let fileHead: DevnetHead | null = null;
    if (raw) {
      try {
        fileHead = decodeHead(raw.toString('utf8'), headPath);
      } catch {
        fileHead = null; // never written half (atomic rename); rewritten below from the database
      }
    }
    const dbSeqno = this.current?.mcSeqno ?? -1;
    if (fileHead && fileHead.mcSeqno > dbSeqno) {
      throw corrupt(
        `devnet store ${this.dir}: head.json says mc seqno ${fileHead.mcSeqno} but the database head is ${dbSeqno < 0 ? 'empty' : dbSeqno}: the database lost committed steps`,
        { fileHead: fileHead.mcSeqno, dbHead: dbSeqno },
      );
    }
    const dirs = new Set<string>();
    if (this.current) {
      const from = fileHead ? fileHead.mcSeqno + 1 : 0;
      const range = { gte: tableKey(T_MANIFEST, u32(from)), lte: tableKey(T_MANIFEST, u32(dbSeqno)) };
      for await (const [k, m] of this.db.iterator(range)) {
        const s = k.readUInt32BE(1);
        const manifest = decodeManifest(m.toString('utf8'), `manifest record ${s}`);
        for (const e of [manifest.mcBlock, ...manifest.shardBlocks]) {
          const path = join(this.files, e.file);
          const existing = await readIfExists(path);
          if (existing && sha256(existing).equals(e.id.fileHash)) continue;
          const bytes = await this.db.get(tableKey(T_FILE, this.keyOf(e.id)));
          if (!bytes) throw corrupt(`devnet store ${this.dir}: file bytes of ${idString(e.id)} are missing`);
          await mkdir(dirname(path), { recursive: true });
          dirs.add(await writeFileAtomic(path, bytes, this.sync));
        }
        const mpath = join(this.files, manifestPath(s));
        await mkdir(dirname(mpath), { recursive: true });
        dirs.add(await writeFileAtomic(mpath, m, this.sync));
      }
      const metaPath = join(this.files, META_FILE);
      const meta = await this.db.get(single(T_META));
      if (meta && !(await readIfExists(metaPath))?.equals(meta))
        dirs.add(await writeFileAtomic(metaPath, meta, this.sync));
    } else {
      await unlinkIfExists(join(this.files, META_FILE));
    }
    await this.removeUncommitted(dbSeqno);
    for (const d of dirs) if (this.sync) await syncDir(d);
    if (this.current && fileHead?.mcSeqno !== dbSeqno) {
      const d = await writeFileAtomic(headPath, encodeHead(this.current), this.sync);
      if (this.sync) await syncDir(d);
    }
  }

  /** Deletes manifests above the database head, block files above each shard's last block, and temp files. */
  private async removeUncommitted(dbSeqno: number): Promise<void> {
    const list = async (d: string): Promise<string[]> => {
      try {
        return await readdir(d);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw e;
      }
    };
    for (const name of await list(this.files)) {
      if (name.includes(TMP_MARK)) await unlinkIfExists(join(this.files, name));
    }
    for (const name of await list(join(this.files, 'zerostates'))) {
      if (name.includes(TMP_MARK) || dbSeqno < 0) await unlinkIfExists(join(this.files, 'zerostates', name));
    }
    const minBucket = Number(bucketOf(Math.max(dbSeqno, 0)));
    const manifests = join(this.files, 'manifests');
    for (const b of await list(manifests)) {
      if (!(Number(b) >= minBucket)) continue;
      for (const name of await list(join(manifests, b))) {
        const seqno = Number.parseInt(name, 10);
        if (name.includes(TMP_MARK) || !(seqno <= dbSeqno)) await unlinkIfExists(join(manifests, b, name));
      }
    }
    const blocks = join(this.files, 'blocks');
    for (const shardDir of await list(blocks)) {
      const last = this.shards.get(shardDir.replace('_', ':'))?.seqno ?? 0;
      const lastBucket = Number(bucketOf(last));
      for (const b of await list(join(blocks, shardDir))) {
        if (!(Number(b) >= lastBucket)) continue;
        for (const name of await list(join(blocks, shardDir, b))) {
          const seqno = Number.parseInt(name, 10);
          if (name.includes(TMP_MARK) || !(seqno <= last)) await unlinkIfExists(join(blocks, shardDir, b, name));
        }
      }
    }
  }

  // ---- writes ----------------------------------------------------------------------------------------------

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(rejected(`devnet store ${this.dir} is closed`));
    const run = this.tail.then(fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private keyOf(id: { workchain: number; shard: bigint; seqno: number }): Buffer {
    return blockKeyBytes(id.workchain, id.shard, id.seqno);
  }

  commitGenesis(g: GenesisInput): Promise<DevnetHead> {
    return this.exclusive(async () => {
      if (this.current || (await this.db.get(single(T_META)))) {
        throw rejected(`devnet store ${this.dir} already has a genesis`);
      }
      const mc = readZeroStateFacts(g.mcZeroState.boc);
      if (mc.id.workchain !== -1)
        throw rejected(`genesis: the masterchain zero state is for workchain ${mc.id.workchain}`);
      const wcs = g.wcZeroStates.map((z) => readZeroStateFacts(z.boc));
      const seen = new Set<string>();
      for (const z of [mc, ...wcs]) {
        const k = shardKeyString(z.id.workchain, z.id.shard);
        if (seen.has(k)) throw rejected(`genesis: two zero states for shard ${k}`);
        seen.add(k);
        if (z !== mc && z.id.workchain === -1) throw rejected('genesis: a workchain zero state is for the masterchain');
      }
      const entry = (z: ZeroStateFacts): FileEntry =>
        entryOf({
          id: z.id,
          startLt: z.genLt,
          endLt: z.genLt,
          genUtime: z.genUtime,
          mcSeqno: 0,
          keyBlock: false,
          zeroState: true,
        });
      const mcEntry = entry(mc);
      const wcEntries = wcs.map(entry);
      const meta: DevnetMeta = {
        ...g.meta,
        shardLayout: [...g.meta.shardLayout],
        mcZeroState: mc.id,
        wcZeroStates: wcs.map((z) => z.id),
      };
      const manifest: StepManifest = { mcSeqno: 0, mcBlock: mcEntry, shardBlocks: wcEntries, shardTops: wcEntries };
      const head: DevnetHead = { ...manifest, lastKeyBlock: mc.id };

      const ops: BatchOp[] = [];
      const pending = new Map<string, Cell>();
      const inputs = [g.mcZeroState, ...g.wcZeroStates];
      const facts = [mc, ...wcs];
      const entries = [mcEntry, ...wcEntries];
      for (let i = 0; i < facts.length; i++) {
        const z = facts[i]!;
        const key = this.keyOf(z.id);
        ops.push({ type: 'put', key: tableKey(T_ZEROSTATE, key), value: encodeBlockRecord(entries[i]!) });
        ops.push({ type: 'put', key: tableKey(T_FILE, key), value: inputs[i]!.boc });
        ops.push({ type: 'put', key: tableKey(T_STATE, key), value: z.root.hash() });
        ops.push({
          type: 'put',
          key: tableKey(T_SHARD, shardPrefix(z.id.workchain, z.id.shard)),
          value: Buffer.alloc(0),
        });
        this.accountOps(ops, inputs[i]!.accounts ?? [], z.id.workchain, key);
      }
      const accountCells = inputs.flatMap((z) => (z.accounts ?? []).map((a) => a.shardAccount));
      await this.cells.collectMissing([...facts.map((z) => z.root), ...accountCells], pending);
      for (const [h, c] of pending) ops.push({ type: 'put', key: cellKey(h), value: encodeCell(c) });
      const metaText = Buffer.from(encodeMeta(meta));
      const manifestText = Buffer.from(encodeManifest(manifest));
      ops.push({ type: 'put', key: single(T_META), value: metaText });
      ops.push({ type: 'put', key: tableKey(T_MANIFEST, u32(0)), value: manifestText });
      ops.push({ type: 'put', key: single(T_HEAD), value: Buffer.from(encodeHead(head)) });

      const dirs = new Set<string>();
      for (let i = 0; i < facts.length; i++) dirs.add(await this.writeFile(entries[i]!.file, inputs[i]!.boc));
      dirs.add(await this.writeFile(META_FILE, metaText));
      dirs.add(await this.writeFile(manifestPath(0), manifestText));
      await this.commit(ops, dirs, head, () => {
        this.cells.markStored(pending.keys(), [...facts.map((z) => z.root), ...accountCells]);
        for (const z of facts) {
          this.shards.set(shardKeyString(z.id.workchain, z.id.shard), {
            workchain: z.id.workchain,
            shard: z.id.shard,
            seqno: 0,
            endLt: z.genLt,
            genUtime: z.genUtime,
            zeroState: true,
          });
        }
      });
      return head;
    });
  }

  commitStep(step: StepInput): Promise<DevnetHead> {
    return this.exclusive(async () => {
      const prev = this.current;
      const mc = readBlockFacts(step.mcBlock.boc);
      if (mc.id.workchain !== -1) throw rejected(`step: mcBlock ${idString(mc.id)} is not a masterchain block`);
      const mcSeqno = mc.id.seqno;
      if (prev && mcSeqno <= prev.mcSeqno) {
        throw rejected(`step: mc seqno ${mcSeqno} does not follow the head ${prev.mcSeqno}`, { mcSeqno });
      }
      const shardInputs = step.shardBlocks.map((input) => ({ input, facts: readBlockFacts(input.boc) }));
      for (const { facts } of shardInputs) {
        if (facts.id.workchain === -1) throw rejected(`step: shard block ${idString(facts.id)} is a masterchain block`);
      }
      // Checked and applied in seqno order (a split's parent before its children, a shard's blocks oldest
      // first); the manifest keeps the caller's order.
      const sorted = [...shardInputs].sort((a, b) => a.facts.id.seqno - b.facts.id.seqno);
      const all: Array<{ input: StepBlockInput; facts: BlockFacts }> = [...sorted, { input: step.mcBlock, facts: mc }];

      const lasts = new Map(this.shards);
      const entries: FileEntry[] = [];
      const ops: BatchOp[] = [];
      const newShards: string[] = [];
      for (const { input, facts } of all) {
        const { id, info } = facts;
        const where = `step ${mcSeqno}: block ${idString(id)}`;
        if (!input.state.hash(0).equals(facts.newStateHash)) {
          throw rejected(
            `${where}: state hash ${input.state.hash(0).toString('hex')} differs from the block's state_update new hash ${facts.newStateHash.toString('hex')}`,
          );
        }
        const sk = shardKeyString(id.workchain, id.shard);
        const last = lasts.get(sk);
        if (last) {
          if (id.seqno <= last.seqno) throw rejected(`${where}: shard already has block ${last.seqno}`);
          if (!last.zeroState && info.endLt <= last.endLt) {
            throw rejected(`${where}: end_lt ${info.endLt} is not above the previous block's ${last.endLt}`);
          }
          if (!last.zeroState && info.genUtime < last.genUtime) {
            throw rejected(`${where}: gen_utime ${info.genUtime} is below the previous block's ${last.genUtime}`);
          }
        } else {
          newShards.push(sk);
        }
        if (await this.db.get(tableKey(T_BLOCK, this.keyOf(id)))) throw rejected(`${where}: already stored`);
        lasts.set(sk, {
          workchain: id.workchain,
          shard: id.shard,
          seqno: id.seqno,
          endLt: info.endLt,
          genUtime: info.genUtime,
          zeroState: false,
        });
        const stored: StoredBlock = {
          id,
          startLt: info.startLt,
          endLt: info.endLt,
          genUtime: info.genUtime,
          mcSeqno,
          keyBlock: info.keyBlock,
          zeroState: false,
        };
        entries.push(entryOf(stored));
        this.blockOps(ops, facts, input, stored);
      }
      const mcEntry = entries.at(-1)!;
      const entryOfFacts = new Map(all.map(({ facts }, i) => [facts, entries[i]!] as const));
      const shardEntries = shardInputs.map(({ facts }) => entryOfFacts.get(facts)!);

      // Tops: a new block replaces every top it overlaps (its own shard's, a split parent's, merged children's).
      let tops = [...(prev?.shardTops ?? [])];
      for (const e of entries.slice(0, -1)) {
        tops = tops.filter((t) => t.id.workchain !== e.id.workchain || !shardIntersects(t.id.shard, e.id.shard));
        tops.push(e);
      }
      tops.sort(
        (a, b) => a.id.workchain - b.id.workchain || (a.id.shard < b.id.shard ? -1 : a.id.shard > b.id.shard ? 1 : 0),
      );
      const manifest: StepManifest = { mcSeqno, mcBlock: mcEntry, shardBlocks: shardEntries, shardTops: tops };
      const head: DevnetHead = {
        ...manifest,
        lastKeyBlock: mc.info.keyBlock || !prev ? mc.id : prev.lastKeyBlock,
      };

      const pending = new Map<string, Cell>();
      const roots = all.flatMap(({ input }) => [input.state, ...(input.accounts ?? []).map((a) => a.shardAccount)]);
      await this.cells.collectMissing(roots, pending);
      for (const [h, c] of pending) ops.push({ type: 'put', key: cellKey(h), value: encodeCell(c) });
      for (const sk of new Set(newShards)) {
        const l = lasts.get(sk)!;
        ops.push({ type: 'put', key: tableKey(T_SHARD, shardPrefix(l.workchain, l.shard)), value: Buffer.alloc(0) });
      }
      for (const id of step.ackExternals ?? []) ops.push({ type: 'del', key: tableKey(T_QUEUE, u64(id)) });
      const manifestText = Buffer.from(encodeManifest(manifest));
      ops.push({ type: 'put', key: tableKey(T_MANIFEST, u32(mcSeqno)), value: manifestText });
      ops.push({ type: 'put', key: single(T_HEAD), value: Buffer.from(encodeHead(head)) });

      const dirs = new Set<string>();
      for (let i = 0; i < all.length; i++) dirs.add(await this.writeFile(entries[i]!.file, all[i]!.input.boc));
      dirs.add(await this.writeFile(manifestPath(mcSeqno), manifestText));
      await this.commit(ops, dirs, head, () => {
        this.cells.markStored(pending.keys(), roots);
        for (const [k, v] of lasts) this.shards.set(k, v);
        for (const id of step.ackExternals ?? []) this.inFlight.delete(id);
      });
      return head;
    });
  }

  private blockOps(ops: BatchOp[], facts: BlockFacts, input: StepBlockInput, stored: StoredBlock): void {
    const { id } = facts;
    const key = this.keyOf(id);
    const sp = shardPrefix(id.workchain, id.shard);
    ops.push({ type: 'put', key: tableKey(T_BLOCK, key), value: encodeBlockRecord(stored) });
    ops.push({ type: 'put', key: tableKey(T_FILE, key), value: input.boc });
    ops.push({ type: 'put', key: tableKey(T_STATE, key), value: input.state.hash() });
    ops.push({ type: 'put', key: tableKey(T_LT, sp, u64(stored.endLt)), value: u32(id.seqno) });
    ops.push({ type: 'put', key: tableKey(T_UTIME, sp, u32(stored.genUtime), u32(id.seqno)), value: Buffer.alloc(0) });
    for (const tx of facts.transactions) {
      const acc = accountKeyBytes(id.workchain, tx.account);
      const loc = encodeLocation(key, tx.hash);
      const boc = tx.cell.toBoc({ idx: false, crc32: false });
      ops.push({ type: 'put', key: tableKey(T_TX, acc, u64(tx.lt)), value: Buffer.concat([loc, boc]) });
      for (const m of tx.messages) {
        const dir = m.direction === 'out' ? DIRECTION.out : m.normalized ? DIRECTION.inNormalized : DIRECTION.in;
        ops.push({ type: 'put', key: tableKey(T_MESSAGE, m.hash, acc, u64(tx.lt), Buffer.from([dir])), value: loc });
      }
    }
    this.accountOps(ops, input.accounts ?? [], id.workchain, key);
  }

  private accountOps(ops: BatchOp[], accounts: readonly AccountInput[], workchain: number, blockKey: Buffer): void {
    for (const a of accounts) {
      if (a.address.workChain !== workchain) {
        throw rejected(`account ${a.address.toRawString()} is not in workchain ${workchain} of its block`);
      }
      const { lastTransHash, lastTransLt } = readShardAccount(a);
      ops.push({
        type: 'put',
        key: tableKey(T_ACCOUNT, accountKeyBytes(workchain, a.address.hash)),
        value: encodeAccountRecord(a.shardAccount.hash(), blockKey, lastTransLt, lastTransHash),
      });
    }
  }

  private async writeFile(rel: string, data: Buffer): Promise<string> {
    const path = join(this.files, rel);
    const created = await mkdir(dirname(path), { recursive: true });
    const d = await writeFileAtomic(path, data, this.sync);
    // A new folder's own entry lives in its parent: sync that too.
    if (created !== undefined && this.sync) await syncDir(dirname(created));
    return d;
  }

  /**
   * Files are in place; sync their folders, write the one batch, update memory (`applied`), then head.json.
   * A failure after the batch leaves head.json behind the database, which the next open repairs.
   */
  private async commit(ops: BatchOp[], dirs: Set<string>, head: DevnetHead, applied: () => void): Promise<void> {
    if (this.sync) for (const d of dirs) await syncDir(d);
    this.onPhase?.('files-written');
    await this.db.batch(ops, { sync: this.sync });
    this.current = head;
    applied();
    this.onPhase?.('batch-written');
    const d = await writeFileAtomic(join(this.files, HEAD_FILE), encodeHead(head), this.sync);
    if (this.sync) await syncDir(d);
  }

  // ---- reads -----------------------------------------------------------------------------------------------

  head(): DevnetHead | null {
    return this.current;
  }

  async meta(): Promise<DevnetMeta | null> {
    const v = await this.db.get(single(T_META));
    return v === undefined ? null : decodeMeta(v.toString('utf8'), `${this.dir}: meta record`);
  }

  async manifest(mcSeqno: number): Promise<StepManifest | null> {
    if (!Number.isInteger(mcSeqno) || mcSeqno < 0 || mcSeqno > 0xffffffff) return null;
    const v = await this.db.get(tableKey(T_MANIFEST, u32(mcSeqno)));
    return v === undefined ? null : decodeManifest(v.toString('utf8'), `${this.dir}: manifest record ${mcSeqno}`);
  }

  async mcShardBlocks(mcSeqno: number): Promise<BlockIdExt[] | null> {
    return (await this.manifest(mcSeqno))?.shardBlocks.map((e) => e.id) ?? null;
  }

  /** The record of block (or, at seqno 0, zero state) `(workchain, shard, seqno)`. */
  private async record(workchain: number, shard: bigint, seqno: number): Promise<StoredBlock | null> {
    if (!Number.isInteger(seqno) || seqno < 0 || seqno > 0xffffffff) return null;
    const table = seqno === 0 ? T_ZEROSTATE : T_BLOCK;
    const v = await this.db.get(tableKey(table, blockKeyBytes(workchain, shard, seqno)));
    return v === undefined ? null : decodeBlockRecord(workchain, shard & U64, seqno, v);
  }

  async blockById(id: BlockIdExt): Promise<StoredBlock | null> {
    const rec = await this.record(id.workchain, id.shard, id.seqno);
    return rec && sameId(rec.id, id) ? rec : null;
  }

  /** Known shards of `workchain` that contain the account prefix `point`, shortest prefix first. */
  private candidates(workchain: number, point: bigint): ShardLast[] {
    return [...this.shards.values()]
      .filter((s) => s.workchain === workchain && shardContains(s.shard, point))
      .sort((a, b) => (lowerBit(b.shard) > lowerBit(a.shard) ? 1 : lowerBit(b.shard) < lowerBit(a.shard) ? -1 : 0));
  }

  async blockBySeqno(workchain: number, shard: bigint, seqno: number): Promise<StoredBlock | null> {
    for (const c of this.candidates(workchain, shard)) {
      const rec = await this.record(c.workchain, c.shard, seqno);
      if (rec) return rec;
    }
    return null;
  }

  async blockIdBySeqno(workchain: number, shard: bigint, seqno: number): Promise<BlockIdExt | null> {
    return (await this.blockBySeqno(workchain, shard, seqno))?.id ?? null;
  }

  /** The first block of each candidate shard at or after `from` in `table`; the lowest seqno wins (as ltdb). */
  private async firstAtOrAfter(
    workchain: number,
    point: bigint,
    table: number,
    from: Buffer,
  ): Promise<StoredBlock | null> {
    let best: StoredBlock | null = null;
    for (const c of this.candidates(workchain, point)) {
      const p = tableKey(table, shardPrefix(c.workchain, c.shard));
      const hit = await this.db.iterator({ gte: Buffer.concat([p, from]), lt: prefixEnd(p), limit: 1 }).all();
      if (!hit[0]) continue;
      const [k, v] = hit[0];
      const seqno = table === T_LT ? v.readUInt32BE(0) : k.readUInt32BE(k.length - 4);
      if (best && best.id.seqno <= seqno) continue;
      const rec = await this.record(c.workchain, c.shard, seqno);
      if (!rec)
        throw corrupt(`devnet store ${this.dir}: index names ${idString({ ...c, seqno })} but it has no record`);
      best = rec;
    }
    return best;
  }

  blockByLt(workchain: number, shard: bigint, lt: bigint): Promise<StoredBlock | null> {
    return this.firstAtOrAfter(workchain, shard, T_LT, u64(lt < 0n ? 0n : lt > U64 ? U64 : lt));
  }

  blockByUtime(workchain: number, shard: bigint, utime: number): Promise<StoredBlock | null> {
    return this.firstAtOrAfter(workchain, shard, T_UTIME, u32(Math.max(0, Math.min(utime, 0xffffffff))));
  }

  async blockFile(id: BlockIdExt): Promise<Buffer | null> {
    if (id.seqno === 0 || !(await this.blockById(id))) return null;
    return (await this.db.get(tableKey(T_FILE, this.keyOf(id)))) ?? null;
  }

  async zeroStateFile(id: BlockIdExt): Promise<Buffer | null> {
    if (id.seqno !== 0 || !(await this.blockById(id))) return null;
    return (await this.db.get(tableKey(T_FILE, this.keyOf(id)))) ?? null;
  }

  async stateRoot(id: BlockIdExt): Promise<Cell | null> {
    if (!(await this.blockById(id))) return null;
    const h = await this.db.get(tableKey(T_STATE, this.keyOf(id)));
    if (!h) throw corrupt(`devnet store ${this.dir}: block ${idString(id)} has no state record`);
    const cell = await this.cells.load(h);
    if (!cell) throw corrupt(`devnet store ${this.dir}: state root cell of ${idString(id)} is missing`);
    return cell;
  }

  loadCell(hash: Buffer): Promise<Cell | null> {
    return this.cells.load(hash);
  }

  private async idAt(blockKey: Buffer): Promise<BlockIdExt> {
    const { workchain, shard, seqno } = parseBlockKey(blockKey);
    const rec = await this.record(workchain, shard, seqno);
    if (!rec)
      throw corrupt(
        `devnet store ${this.dir}: an index names ${idString({ workchain, shard, seqno })} but it has no record`,
      );
    return rec.id;
  }

  async account(address: Address): Promise<StoredAccount | null> {
    const v = await this.db.get(tableKey(T_ACCOUNT, accountKeyBytes(address.workChain, address.hash)));
    if (!v) return null;
    const shardAccount = await this.cells.load(v.subarray(0, 32));
    if (!shardAccount) throw corrupt(`devnet store ${this.dir}: account ${address.toRawString()}: its cell is missing`);
    return {
      address,
      shardAccount,
      account: shardAccount.refs[0]!,
      block: await this.idAt(v.subarray(32, 48)),
      lastTransLt: v.readBigUInt64BE(48),
      lastTransHash: Buffer.from(v.subarray(56, 88)),
    };
  }

  private async txFrom(
    address: Address,
    lt: bigint,
    v: Buffer,
    ids: Map<string, BlockIdExt>,
  ): Promise<StoredTransaction> {
    const bk = v.subarray(0, 16);
    const k = bk.toString('latin1');
    let block = ids.get(k);
    if (!block) {
      block = await this.idAt(bk);
      ids.set(k, block);
    }
    const hash = Buffer.from(v.subarray(16, 48));
    const cell = parseBoc(v.subarray(48))[0]!;
    if (!cell.hash().equals(hash))
      throw corrupt(`devnet store ${this.dir}: transaction ${address.toRawString()}:${lt} does not hash to its index`);
    return { account: address, lt, hash, block, cell };
  }

  async accountTransactions(address: Address, fromLt: bigint = U64, limit = 16): Promise<StoredTransaction[]> {
    if (limit <= 0 || fromLt < 0n) return [];
    const p = tableKey(T_TX, accountKeyBytes(address.workChain, address.hash));
    const rows = await this.db
      .iterator({ gte: p, lte: Buffer.concat([p, u64(fromLt > U64 ? U64 : fromLt)]), reverse: true, limit })
      .all();
    const ids = new Map<string, BlockIdExt>();
    const out: StoredTransaction[] = [];
    for (const [k, v] of rows) out.push(await this.txFrom(address, k.readBigUInt64BE(k.length - 8), v, ids));
    return out;
  }

  async transaction(address: Address, lt: bigint): Promise<StoredTransaction | null> {
    if (lt < 0n || lt > U64) return null;
    const v = await this.db.get(tableKey(T_TX, accountKeyBytes(address.workChain, address.hash), u64(lt)));
    return v ? this.txFrom(address, lt, v, new Map()) : null;
  }

  async transactionLocation(address: Address, lt: bigint): Promise<TransactionLocation | null> {
    if (lt < 0n || lt > U64) return null;
    const v = await this.db.get(tableKey(T_TX, accountKeyBytes(address.workChain, address.hash), u64(lt)));
    if (!v) return null;
    return { account: address, lt, hash: Buffer.from(v.subarray(16, 48)), block: await this.idAt(v.subarray(0, 16)) };
  }

  async messageTransactions(hash: Buffer): Promise<MessageTransaction[]> {
    if (hash.length !== 32) return [];
    const p = tableKey(T_MESSAGE, hash);
    const rows = await this.db.iterator({ gte: p, lt: prefixEnd(p) }).all();
    const ids = new Map<string, BlockIdExt>();
    const out: MessageTransaction[] = [];
    for (const [k, v] of rows) {
      const workchain = k.readInt32BE(33);
      const account = new Address(workchain, Buffer.from(k.subarray(37, 69)));
      const dir = k[77]!;
      const bk = v.subarray(0, 16);
      const kk = bk.toString('latin1');
      let block = ids.get(kk);
      if (!block) {
        block = await this.idAt(bk);
        ids.set(kk, block);
      }
      out.push({
        account,
        lt: k.readBigUInt64BE(69),
        hash: Buffer.from(v.subarray(16, 48)),
        block,
        direction: dir === DIRECTION.out ? 'out' : 'in',
        normalized: dir === DIRECTION.inNormalized,
      });
    }
    return out;
  }

  // ---- external message queue --------------------------------------------------------------------------------

  async enqueueExternal(boc: Buffer): Promise<bigint> {
    if (this.closed) throw rejected(`devnet store ${this.dir} is closed`);
    let roots: Cell[];
    try {
      roots = parseBoc(boc);
    } catch (e) {
      throw rejected(`external message: not a BoC: ${(e as Error).message}`);
    }
    if (roots.length !== 1) throw rejected(`external message: expected one root, got ${roots.length}`);
    const id = this.nextQueueId++;
    await this.db.put(tableKey(T_QUEUE, u64(id)), boc, { sync: this.sync });
    return id;
  }

  async takeExternals(limit = Number.MAX_SAFE_INTEGER): Promise<QueuedExternal[]> {
    const out: QueuedExternal[] = [];
    if (limit <= 0) return out;
    const p = single(T_QUEUE);
    for await (const [k, v] of this.db.iterator({ gte: p, lt: prefixEnd(p) })) {
      const id = k.readBigUInt64BE(1);
      if (this.inFlight.has(id)) continue;
      out.push({ id, boc: v });
      if (out.length >= limit) break;
    }
    for (const m of out) this.inFlight.add(m.id);
    return out;
  }

  async ackExternals(ids: readonly bigint[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.batch(
      ids.map((id) => ({ type: 'del' as const, key: tableKey(T_QUEUE, u64(id)) })),
      { sync: this.sync },
    );
    for (const id of ids) this.inFlight.delete(id);
  }

  async countCells(): Promise<number> {
    let n = 0;
    const p = single(T_CELL);
    for await (const _ of this.db.keys({ gte: p, lt: prefixEnd(p) })) n++;
    return n;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    await this.db.close();
  }
}
