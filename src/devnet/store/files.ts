// The file layer (LAYOUT.md §Files): immutable block files, one manifest per masterchain seqno, head.json and
// meta.json, each written to a temp name, fsync'd and renamed, so any process can read them without the
// LevelDB LOCK and never sees a half-written file under its final name.
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { StoreError } from '../../common/errors.ts';
import type { BlockIdExt } from '../../ton/index.ts';
import type { DevnetHead, DevnetMeta, FileEntry, StepManifest, StoredBlock } from './types.ts';

export const LAYOUT_VERSION = 1;
export const FILES_DIR = 'files';
export const DB_DIR = 'db';
export const HEAD_FILE = 'head.json';
export const META_FILE = 'meta.json';
export const TMP_MARK = '.tmp-';
/** Files per folder: block files and manifests are grouped by seqno / BUCKET. */
export const BUCKET = 10_000;

const U64 = (1n << 64n) - 1n;

export function shardHex(shard: bigint): string {
  return (shard & U64).toString(16).padStart(16, '0');
}

export function bucketOf(seqno: number): string {
  return String(Math.floor(seqno / BUCKET));
}

/** Relative to `files/`: blocks/<wc>_<shard>/<bucket>/<seqno>_<fileHash>.boc; zero states in zerostates/. */
export function blockFilePath(id: BlockIdExt): string {
  const fh = id.fileHash.toString('hex');
  if (id.seqno === 0) return `zerostates/${id.workchain}_${shardHex(id.shard)}_${fh}.boc`;
  return `blocks/${id.workchain}_${shardHex(id.shard)}/${bucketOf(id.seqno)}/${id.seqno}_${fh}.boc`;
}

export function manifestPath(mcSeqno: number): string {
  return `manifests/${bucketOf(mcSeqno)}/${mcSeqno}.json`;
}

// ---- JSON forms --------------------------------------------------------------------------------------------

interface IdJson {
  workchain: number;
  shard: string;
  seqno: number;
  rootHash: string;
  fileHash: string;
}

interface EntryJson extends IdJson {
  startLt: string;
  endLt: string;
  genUtime: number;
  mcSeqno: number;
  keyBlock: boolean;
  zeroState: boolean;
  file: string;
}

interface ManifestJson {
  format: 'tongate-devnet-manifest';
  layout: number;
  mcSeqno: number;
  mcBlock: EntryJson;
  shardBlocks: EntryJson[];
  shardTops: EntryJson[];
}

interface HeadJson extends Omit<ManifestJson, 'format'> {
  format: 'tongate-devnet-head';
  lastKeyBlock: IdJson;
}

interface MetaJson {
  format: 'tongate-devnet-meta';
  layout: number;
  seed: string;
  globalId: number;
  shardLayout: string[];
  genesisUtime: number;
  extra: Record<string, string | number | boolean>;
  mcZeroState: IdJson;
  wcZeroStates: IdJson[];
}

export function idToJson(id: BlockIdExt): IdJson {
  return {
    workchain: id.workchain,
    shard: shardHex(id.shard),
    seqno: id.seqno,
    rootHash: id.rootHash.toString('hex'),
    fileHash: id.fileHash.toString('hex'),
  };
}

export function entryOf(b: StoredBlock): FileEntry {
  return { ...b, file: blockFilePath(b.id) };
}

function entryToJson(e: FileEntry): EntryJson {
  return {
    ...idToJson(e.id),
    startLt: e.startLt.toString(),
    endLt: e.endLt.toString(),
    genUtime: e.genUtime,
    mcSeqno: e.mcSeqno,
    keyBlock: e.keyBlock,
    zeroState: e.zeroState,
    file: e.file,
  };
}

class Json {
  constructor(
    private readonly where: string,
    private readonly v: unknown,
  ) {}

  private fail(what: string): never {
    throw new StoreError('TG_DEVNET_STORE_CORRUPT', `${this.where}: ${what}`);
  }

  obj(): Record<string, unknown> {
    if (typeof this.v !== 'object' || this.v === null || Array.isArray(this.v)) this.fail('expected an object');
    return this.v as Record<string, unknown>;
  }

  field(name: string): Json {
    return new Json(`${this.where}.${name}`, this.obj()[name]);
  }

  int(): number {
    if (typeof this.v !== 'number' || !Number.isSafeInteger(this.v))
      this.fail(`expected an integer, got ${String(this.v)}`);
    return this.v as number;
  }

  str(): string {
    if (typeof this.v !== 'string') this.fail(`expected a string, got ${typeof this.v}`);
    return this.v as string;
  }

  bool(): boolean {
    if (typeof this.v !== 'boolean') this.fail(`expected a boolean, got ${typeof this.v}`);
    return this.v as boolean;
  }

  hex(bytes: number): Buffer {
    const s = this.str();
    if (s.length !== bytes * 2 || !/^[0-9a-f]*$/.test(s)) this.fail(`expected ${bytes} bytes of lowercase hex`);
    return Buffer.from(s, 'hex');
  }

  bigint(): bigint {
    const s = this.str();
    if (!/^(0|[1-9][0-9]*)$/.test(s)) this.fail(`expected a decimal integer string, got ${s}`);
    return BigInt(s);
  }

  array(): Json[] {
    if (!Array.isArray(this.v)) this.fail('expected an array');
    return (this.v as unknown[]).map((x, i) => new Json(`${this.where}[${i}]`, x));
  }
}

function idFromJson(j: Json): BlockIdExt {
  return {
    workchain: j.field('workchain').int(),
    shard: BigInt(`0x${j.field('shard').hex(8).toString('hex')}`),
    seqno: j.field('seqno').int(),
    rootHash: j.field('rootHash').hex(32),
    fileHash: j.field('fileHash').hex(32),
  };
}

function entryFromJson(j: Json): FileEntry {
  return {
    id: idFromJson(j),
    startLt: j.field('startLt').bigint(),
    endLt: j.field('endLt').bigint(),
    genUtime: j.field('genUtime').int(),
    mcSeqno: j.field('mcSeqno').int(),
    keyBlock: j.field('keyBlock').bool(),
    zeroState: j.field('zeroState').bool(),
    file: j.field('file').str(),
  };
}

function parseJson(text: string, where: string): Json {
  try {
    return new Json(where, JSON.parse(text));
  } catch (e) {
    throw new StoreError('TG_DEVNET_STORE_CORRUPT', `${where}: not JSON: ${(e as Error).message}`, { cause: e });
  }
}

function checkFormat(j: Json, format: string, where: string): void {
  const f = j.field('format').str();
  if (f !== format) throw new StoreError('TG_DEVNET_STORE_CORRUPT', `${where}: expected format ${format}, got ${f}`);
  const layout = j.field('layout').int();
  if (layout > LAYOUT_VERSION) {
    throw new StoreError(
      'TG_DEVNET_STORE_CORRUPT',
      `${where}: written by store layout ${layout}; this build reads layout ${LAYOUT_VERSION} (upgrade tongate)`,
    );
  }
  if (layout !== LAYOUT_VERSION) {
    throw new StoreError('TG_DEVNET_STORE_CORRUPT', `${where}: unknown store layout ${layout}`);
  }
}

export function encodeManifest(m: StepManifest): string {
  const j: ManifestJson = {
    format: 'tongate-devnet-manifest',
    layout: LAYOUT_VERSION,
    mcSeqno: m.mcSeqno,
    mcBlock: entryToJson(m.mcBlock),
    shardBlocks: m.shardBlocks.map(entryToJson),
    shardTops: m.shardTops.map(entryToJson),
  };
  return `${JSON.stringify(j, null, 1)}\n`;
}

export function decodeManifest(text: string, where: string): StepManifest {
  const j = parseJson(text, where);
  checkFormat(j, 'tongate-devnet-manifest', where);
  return {
    mcSeqno: j.field('mcSeqno').int(),
    mcBlock: entryFromJson(j.field('mcBlock')),
    shardBlocks: j.field('shardBlocks').array().map(entryFromJson),
    shardTops: j.field('shardTops').array().map(entryFromJson),
  };
}

export function encodeHead(h: DevnetHead): string {
  const j: HeadJson = {
    format: 'tongate-devnet-head',
    layout: LAYOUT_VERSION,
    mcSeqno: h.mcSeqno,
    mcBlock: entryToJson(h.mcBlock),
    shardBlocks: h.shardBlocks.map(entryToJson),
    shardTops: h.shardTops.map(entryToJson),
    lastKeyBlock: idToJson(h.lastKeyBlock),
  };
  return `${JSON.stringify(j, null, 1)}\n`;
}

export function decodeHead(text: string, where: string): DevnetHead {
  const j = parseJson(text, where);
  checkFormat(j, 'tongate-devnet-head', where);
  return {
    mcSeqno: j.field('mcSeqno').int(),
    mcBlock: entryFromJson(j.field('mcBlock')),
    shardBlocks: j.field('shardBlocks').array().map(entryFromJson),
    shardTops: j.field('shardTops').array().map(entryFromJson),
    lastKeyBlock: idFromJson(j.field('lastKeyBlock')),
  };
}

export function encodeMeta(m: DevnetMeta): string {
  const j: MetaJson = {
    format: 'tongate-devnet-meta',
    layout: LAYOUT_VERSION,
    seed: m.seed,
    globalId: m.globalId,
    shardLayout: m.shardLayout.map(shardHex),
    genesisUtime: m.genesisUtime,
    extra: { ...(m.extra ?? {}) },
    mcZeroState: idToJson(m.mcZeroState),
    wcZeroStates: m.wcZeroStates.map(idToJson),
  };
  return `${JSON.stringify(j, null, 1)}\n`;
}

export function decodeMeta(text: string, where: string): DevnetMeta {
  const j = parseJson(text, where);
  checkFormat(j, 'tongate-devnet-meta', where);
  const extraObj = j.field('extra').obj();
  const extra: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(extraObj)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') extra[k] = v;
    else throw new StoreError('TG_DEVNET_STORE_CORRUPT', `${where}.extra.${k}: expected a string, number or boolean`);
  }
  return {
    seed: j.field('seed').str(),
    globalId: j.field('globalId').int(),
    shardLayout: j
      .field('shardLayout')
      .array()
      .map((x) => BigInt(`0x${x.hex(8).toString('hex')}`)),
    genesisUtime: j.field('genesisUtime').int(),
    extra,
    mcZeroState: idFromJson(j.field('mcZeroState')),
    wcZeroStates: j.field('wcZeroStates').array().map(idFromJson),
  };
}

// ---- durable writes ----------------------------------------------------------------------------------------

let tmpCounter = 0;

/**
 * Writes `data` under `path` atomically: temp name in the same folder, fsync, rename. The folder must exist.
 * Returns the folder, which the caller fsyncs (once per batch of renames) when `sync` is on.
 */
export async function writeFileAtomic(path: string, data: Buffer | string, sync: boolean): Promise<string> {
  const tmp = `${path}${TMP_MARK}${process.pid}-${++tmpCounter}`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(data);
    if (sync) await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  return dirname(path);
}

/** fsync a folder so the renames in it survive a power loss (a no-op where folders cannot be opened). */
export async function syncDir(dir: string): Promise<void> {
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw e;
  } finally {
    await fh?.close();
  }
}

export async function readIfExists(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

export async function unlinkIfExists(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

export function filesRoot(dir: string): string {
  return join(dir, FILES_DIR);
}
