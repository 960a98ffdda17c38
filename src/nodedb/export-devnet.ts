// `tongate devnet export-node-db`: the devnet's blocks (and, unless told otherwise, the shard state after every
// block) written as a TON node's on-disk tree through NodeDbWriter, so that everything that reads a node
// (`--node-db`) can be run against a chain we control. A marker file at the root of the tree records what was
// exported, so a later run can extend the tree with the blocks the devnet made since, and refuses anything else.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Cell } from '@ton/core';
import {
  type DevnetStore,
  type DevnetStoreReader,
  openDevnetStore,
  openDevnetStoreReader,
} from '../devnet/store/index.ts';
import { type BlockIdExt, cellsFromBoc, listBlockTransactions, loadBlockCell } from '../ton/index.ts';
import { readdirOrEmpty } from './fs-util.ts';
import type { ArchiveGeneration } from './layout.ts';
import { type NodeDbWriter, openNodeDbWriter, type WriterBlock } from './writer.ts';

export const EXPORT_MARKER_FILE = 'tongate-export.json';
const MARKER_FORMAT = 'tongate-node-db-export';
const MARKER_VERSION = 1;
export const ARCHIVE_GENERATIONS: readonly ArchiveGeneration[] = [
  'unsliced',
  'sliced',
  'shard-split-colon',
  'shard-split',
];
/** Deepest shard-prefix split of workchain packs we write (the node's shard_split_depth is at most 60). */
export const MAX_SPLIT_DEPTH = 60;

/** The export cannot start as asked (a non-empty --out, a different devnet, settings that differ, a gap). */
export class ExportRefusedError extends Error {
  override readonly name = 'ExportRefusedError';
}

export interface ExportProgress {
  /** Masterchain blocks written so far in this run, and their transactions (shard blocks' included). */
  blocks: number;
  transactions: number;
  total: number;
  mcSeqno: number;
}

export interface ExportDevnetOptions {
  /**
   * The devnet store folder (`<data>/devnet`), or a store already open in this process. A folder is opened with
   * the lock-free file reader for blocks and, for states, with openDevnetStore, which takes the store's LevelDB
   * LOCK: stop the devnet first, or export with `states: false`.
   */
  store: string | DevnetStore;
  out: string;
  /** Archive generation of the packs (default 'shard-split'; an extension keeps the tree's). */
  generation?: ArchiveGeneration;
  /** Shard-prefix bits separating workchain packs (default 0; an extension keeps the tree's). */
  splitDepth?: number;
  /** Write celldb with every block's shard state (default true; an extension keeps the tree's). */
  states?: boolean;
  /** First masterchain seqno (default 1, or the one after the tree's last when extending). */
  from?: number;
  /** Last masterchain seqno (default: the devnet's head). */
  to?: number;
  onProgress?: (p: ExportProgress) => void;
  /** Stops after the masterchain block being written; the tree stays complete up to it and can be extended. */
  signal?: AbortSignal;
}

export interface ExportDevnetResult {
  /** The masterchain range written by this run; `to` < `from` when there was nothing new. */
  from: number;
  to: number;
  /** Blocks written by this run (masterchain and shard). */
  blocks: number;
  transactions: number;
  /** The whole tree's range after this run. */
  tree: { from: number; to: number };
  generation: ArchiveGeneration;
  splitDepth: number;
  states: boolean;
  extended: boolean;
  /** True when the run stopped early on `signal`. */
  stopped: boolean;
}

interface IdJson {
  workchain: number;
  shard: string;
  seqno: number;
  rootHash: string;
  fileHash: string;
}

/** What the marker file holds; `status` stays 'writing' if a run died, and such a tree is not extended. */
export interface ExportMarker {
  format: typeof MARKER_FORMAT;
  version: number;
  status: 'writing' | 'complete';
  zeroState: IdJson;
  generation: ArchiveGeneration;
  splitDepth: number;
  states: boolean;
  from: number;
  /** Last masterchain seqno written (from − 1 before the first). */
  to: number;
}

const idJson = (id: BlockIdExt): IdJson => ({
  workchain: id.workchain,
  shard: id.shard.toString(16).padStart(16, '0'),
  seqno: id.seqno,
  rootHash: id.rootHash.toString('hex'),
  fileHash: id.fileHash.toString('hex'),
});

const sameIdJson = (a: IdJson, b: IdJson) =>
  a.workchain === b.workchain &&
  a.shard === b.shard &&
  a.seqno === b.seqno &&
  a.rootHash === b.rootHash &&
  a.fileHash === b.fileHash;

/** Reads the marker of a previous export; null when there is none. Throws on a marker it cannot trust. */
export async function readExportMarker(out: string): Promise<ExportMarker | null> {
  const path = join(out, EXPORT_MARKER_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let m: Partial<ExportMarker>;
  try {
    m = JSON.parse(text) as Partial<ExportMarker>;
  } catch (e) {
    throw new ExportRefusedError(`${path}: not JSON (${(e as Error).message})`);
  }
  if (m.format !== MARKER_FORMAT || m.version !== MARKER_VERSION) {
    throw new ExportRefusedError(
      `${path}: expected format ${MARKER_FORMAT} version ${MARKER_VERSION}, got ${String(m.format)} version ${String(m.version)}`,
    );
  }
  if (
    (m.status !== 'writing' && m.status !== 'complete') ||
    !ARCHIVE_GENERATIONS.includes(m.generation as ArchiveGeneration) ||
    !Number.isInteger(m.splitDepth) ||
    typeof m.states !== 'boolean' ||
    !Number.isInteger(m.from) ||
    !Number.isInteger(m.to) ||
    typeof m.zeroState !== 'object'
  ) {
    throw new ExportRefusedError(`${path}: a field is missing or malformed`);
  }
  return m as ExportMarker;
}

async function writeMarker(out: string, m: ExportMarker): Promise<void> {
  const path = join(out, EXPORT_MARKER_FILE);
  await mkdir(out, { recursive: true });
  await writeFile(`${path}.tmp`, `${JSON.stringify(m, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}

/** The devnet's blocks and states, from an open store or from a folder (see ExportDevnetOptions.store). */
interface DevnetInput {
  reader: Pick<DevnetStoreReader, 'manifest' | 'blockFile'>;
  head: number;
  zeroState: BlockIdExt;
  stateRoot: ((id: BlockIdExt) => Promise<Cell | null>) | null;
  close(): Promise<void>;
}

async function openInput(store: string | DevnetStore, states: boolean): Promise<DevnetInput> {
  if (typeof store !== 'string') {
    const meta = await store.meta();
    if (!meta) throw new ExportRefusedError(`devnet store ${store.dir}: no genesis yet`);
    return {
      reader: store,
      head: store.head()?.mcSeqno ?? 0,
      zeroState: meta.mcZeroState,
      stateRoot: states ? (id) => store.stateRoot(id) : null,
      close: async () => {},
    };
  }
  // The reader first: it checks that the folder is a devnet store without creating anything in it.
  const reader = await openDevnetStoreReader(store);
  try {
    const meta = await reader.meta();
    const head = await reader.head();
    if (!meta || !head) throw new ExportRefusedError(`${store}: no devnet store here (no genesis, no head.json)`);
    let full: DevnetStore | null = null;
    if (states) {
      try {
        full = await openDevnetStore(store);
      } catch (e) {
        if ((e as { code?: string }).code === 'TG_DEVNET_STORE_LOCKED') {
          throw new ExportRefusedError(
            `${store}: the devnet is running (its store is locked); stop it first, or export blocks only with --no-states`,
          );
        }
        throw e;
      }
    }
    const stateStore = full;
    return {
      reader,
      // The store (when open) is the truth; head.json may lag it by a step after a crash.
      head: stateStore?.head()?.mcSeqno ?? head.mcSeqno,
      zeroState: meta.mcZeroState,
      stateRoot: stateStore ? (id) => stateStore.stateRoot(id) : null,
      close: async () => {
        await stateStore?.close();
        await reader.close();
      },
    };
  } catch (e) {
    await reader.close();
    throw e;
  }
}

/** Exports (or extends an export of) a devnet as a node-format tree. */
export async function exportDevnetNodeDb(opts: ExportDevnetOptions): Promise<ExportDevnetResult> {
  if (opts.splitDepth !== undefined && !(Number.isInteger(opts.splitDepth) && opts.splitDepth >= 0)) {
    throw new ExportRefusedError(`split depth must be a whole number, got ${opts.splitDepth}`);
  }
  if (opts.splitDepth !== undefined && opts.splitDepth > MAX_SPLIT_DEPTH) {
    throw new ExportRefusedError(`split depth must be at most ${MAX_SPLIT_DEPTH}, got ${opts.splitDepth}`);
  }
  const previous = await readExportMarker(opts.out);
  if (!previous) {
    const entries = await readdirOrEmpty(opts.out);
    if (entries.length > 0) {
      throw new ExportRefusedError(
        `${opts.out} is not empty and holds no previous export (${EXPORT_MARKER_FILE}); give an empty or new folder`,
      );
    }
  } else {
    if (previous.status !== 'complete') {
      throw new ExportRefusedError(
        `${opts.out}: a previous export stopped in the middle of a block (its ${EXPORT_MARKER_FILE} says 'writing'); delete the folder and export again`,
      );
    }
    const differs = (name: string, want: unknown, have: unknown) => {
      if (want !== undefined && want !== have) {
        throw new ExportRefusedError(
          `${opts.out} was exported with ${name} ${String(have)}; an extension must keep it (asked for ${String(want)})`,
        );
      }
    };
    differs('generation', opts.generation, previous.generation);
    differs('split depth', opts.splitDepth, previous.splitDepth);
    differs('states', opts.states, previous.states);
  }
  const generation = previous?.generation ?? opts.generation ?? 'shard-split';
  const splitDepth = previous?.splitDepth ?? opts.splitDepth ?? 0;
  const states = previous?.states ?? opts.states ?? true;

  const input = await openInput(opts.store, states);
  let writer: NodeDbWriter | undefined;
  try {
    if (previous && !sameIdJson(previous.zeroState, idJson(input.zeroState))) {
      throw new ExportRefusedError(
        `${opts.out} is an export of another devnet (zero state ${previous.zeroState.rootHash.slice(0, 16)}…, this one ${input.zeroState.rootHash.toString('hex').slice(0, 16)}…)`,
      );
    }
    const from = previous ? previous.to + 1 : (opts.from ?? 1);
    if (previous && opts.from !== undefined && opts.from !== from) {
      throw new ExportRefusedError(
        `${opts.out} holds masterchain blocks ${previous.from}..${previous.to}; an extension starts at ${from}, not ${opts.from}`,
      );
    }
    if (from < 1) throw new ExportRefusedError(`the first masterchain seqno is 1 (0 is the zero state), got ${from}`);
    const to = opts.to ?? input.head;
    if (to > input.head) {
      throw new ExportRefusedError(`the devnet's newest masterchain block is ${input.head}; cannot export up to ${to}`);
    }
    if (to < from && !(previous && opts.to === undefined)) {
      throw new ExportRefusedError(`nothing to export: the range ${from}..${to} is empty`);
    }
    const tree = { from: previous?.from ?? from, to: previous?.to ?? from - 1 };
    const result: ExportDevnetResult = {
      from,
      to: from - 1,
      blocks: 0,
      transactions: 0,
      tree,
      generation,
      splitDepth,
      states,
      extended: previous !== null,
      stopped: false,
    };
    if (to < from) return result;

    const marker: ExportMarker = {
      format: MARKER_FORMAT,
      version: MARKER_VERSION,
      status: 'writing',
      zeroState: idJson(input.zeroState),
      generation,
      splitDepth,
      states,
      from: tree.from,
      to: tree.to,
    };
    await writeMarker(opts.out, marker);
    writer = await openNodeDbWriter({
      root: opts.out,
      generation,
      splitDepth,
      cellDb: states ? 'merge' : 'none',
      resume: previous !== null,
    });

    const load = async (id: BlockIdExt, what: string): Promise<WriterBlock> => {
      const bytes = await input.reader.blockFile(id);
      if (!bytes)
        throw new Error(`devnet store: no file for ${what} ${id.workchain}:${id.shard.toString(16)}:${id.seqno}`);
      const root = cellsFromBoc(bytes)[0] as Cell;
      result.transactions += listBlockTransactions(loadBlockCell(root)).length;
      if (!input.stateRoot) return { id, bytes, root };
      const state = await input.stateRoot(id);
      if (!state)
        throw new Error(`devnet store: no state for ${what} ${id.workchain}:${id.shard.toString(16)}:${id.seqno}`);
      return { id, bytes, root, state };
    };
    for (let n = from; n <= to; n++) {
      if (opts.signal?.aborted) {
        result.stopped = true;
        break;
      }
      const m = await input.reader.manifest(n);
      if (!m) throw new Error(`devnet store: no manifest for masterchain block ${n}`);
      const shardBlocks: WriterBlock[] = [];
      for (const e of m.shardBlocks) if (!e.zeroState) shardBlocks.push(await load(e.id, 'shard block'));
      await writer.append({ mc: await load(m.mcBlock.id, 'masterchain block'), shardBlocks });
      result.to = n;
      result.blocks += shardBlocks.length + 1;
      opts.onProgress?.({ blocks: n - from + 1, transactions: result.transactions, total: to - from + 1, mcSeqno: n });
    }
    await writer.flushIndexes();
    await writer.close();
    writer = undefined;
    tree.to = result.to;
    await writeMarker(opts.out, { ...marker, status: 'complete', to: tree.to });
    return result;
  } finally {
    // A failure leaves the marker at 'writing': the tree may hold part of a step and is not extended.
    await writer?.close().catch(() => {});
    await input.close();
  }
}
