// A reader of the store's file layer for other processes (issue 5's "devnet store" walker): no LevelDB, no
// LOCK, so it runs while the node writes. It trusts only what head.json says is committed.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { StoreError } from '../../common/errors.ts';
import type { BlockIdExt } from '../../ton/index.ts';
import {
  blockFilePath,
  decodeHead,
  decodeManifest,
  decodeMeta,
  filesRoot,
  HEAD_FILE,
  META_FILE,
  manifestPath,
  readIfExists,
} from './files.ts';
import type { DevnetHead, DevnetMeta, StepManifest } from './types.ts';

export interface DevnetStoreReader {
  readonly dir: string;
  /** The last committed step (re-read on every call), or null before genesis. */
  head(): Promise<DevnetHead | null>;
  /** What masterchain seqno `mcSeqno` committed; null above the committed head or for a seqno never used. */
  manifest(mcSeqno: number): Promise<StepManifest | null>;
  /** Block file bytes, checked against the id's file hash; null when absent. Zero states: zeroStateFile. */
  blockFile(id: BlockIdExt): Promise<Buffer | null>;
  zeroStateFile(id: BlockIdExt): Promise<Buffer | null>;
  meta(): Promise<DevnetMeta | null>;
  close(): Promise<void>;
}

/** Opens the file layer of the store in `dir` (the folder openDevnetStore was given). Never takes a lock. */
export async function openDevnetStoreReader(dir: string): Promise<DevnetStoreReader> {
  const root = filesRoot(dir);
  let lastHead = -1;

  const head = async (): Promise<DevnetHead | null> => {
    const path = join(root, HEAD_FILE);
    const raw = await readIfExists(path);
    if (!raw) return null;
    const h = decodeHead(raw.toString('utf8'), path);
    lastHead = h.mcSeqno;
    return h;
  };

  const checked = async (id: BlockIdExt): Promise<Buffer | null> => {
    const path = join(root, blockFilePath(id));
    const bytes = await readIfExists(path);
    if (!bytes) return null;
    if (!createHash('sha256').update(bytes).digest().equals(id.fileHash)) {
      throw new StoreError('TG_DEVNET_STORE_CORRUPT', `${path}: bytes do not hash to the file hash in its name`);
    }
    return bytes;
  };

  return {
    dir,
    head,
    async manifest(mcSeqno) {
      if (!Number.isInteger(mcSeqno) || mcSeqno < 0) return null;
      // A manifest above head.json may belong to a step that never commits: it is not read.
      if (mcSeqno > lastHead && ((await head())?.mcSeqno ?? -1) < mcSeqno) return null;
      const path = join(root, manifestPath(mcSeqno));
      const raw = await readIfExists(path);
      return raw ? decodeManifest(raw.toString('utf8'), path) : null;
    },
    blockFile: (id) => (id.seqno === 0 ? Promise.resolve(null) : checked(id)),
    zeroStateFile: (id) => (id.seqno === 0 ? checked(id) : Promise.resolve(null)),
    async meta() {
      const path = join(root, META_FILE);
      const raw = await readIfExists(path);
      return raw ? decodeMeta(raw.toString('utf8'), path) : null;
    },
    async close() {},
  };
}
