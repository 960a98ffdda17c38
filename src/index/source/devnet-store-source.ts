// The devnet store source: the node's file layer read directly (src/devnet/store/LAYOUT.md, "Reading the file
// layer"): head.json for the head, manifests for masterchain blocks, block files checked against their file
// hash. The file layer holds no shard states, so account states come from a liteserver source when one is
// given (`fallback`), else from each block's own state update (hashes, balances and statuses exact; code and
// data BoCs only where the update carries them: `complete: false`).
import { IndexError, Lru } from '../../common/index.ts';
import { type DevnetStoreReader, openDevnetStoreReader } from '../../devnet/store/index.ts';
import {
  type BlockIdExt,
  blockKey,
  type FetchedBlock,
  fileCheckedBlock,
  statesFromNewState,
  stateUpdateNewSide,
} from '../../ton/index.ts';
import type { BlockSource } from './types.ts';

export interface DevnetStoreSourceOptions {
  /** Where account states come from when given (e.g. createLiteSource over the node's liteserver). */
  fallback?: BlockSource;
}

/** Blocks read recently whose state updates accountStates may still ask for (bounded: it keeps cells alive). */
const BLOCKS_KEPT = 64;

export async function createDevnetStoreSource(dir: string, opts: DevnetStoreSourceOptions = {}): Promise<BlockSource> {
  const reader: DevnetStoreReader = await openDevnetStoreReader(dir);
  // The processor asks for a block's account states right after decoding the block it read: keep the blocks read
  // here (their root is parsed once, when first read), so accountStates neither reads nor parses one again.
  const recent = new Lru<string, FetchedBlock>(opts.fallback ? 0 : BLOCKS_KEPT);
  const sideKey = (id: BlockIdExt) => `${blockKey(id)}:${id.rootHash.toString('hex')}`;
  const read = async (id: BlockIdExt): Promise<FetchedBlock> => {
    const bytes = id.seqno === 0 ? await reader.zeroStateFile(id) : await reader.blockFile(id);
    if (!bytes) {
      throw new IndexError('TG_INDEX_NOT_READY', `devnet store ${dir}: no file for block ${blockKey(id)}`, {
        details: { block: blockKey(id) },
      });
    }
    // File hash now; the parse and root check when the root is first read (here, or in a decode thread).
    const fetched = fileCheckedBlock(id, bytes);
    if (id.seqno !== 0) recent.set(sideKey(id), fetched);
    return fetched;
  };
  return {
    name: 'devnet-store',
    ...(opts.fallback ? {} : { statesFromBlocks: true as const }),
    async head() {
      return (await reader.head())?.mcSeqno ?? -1;
    },
    async mcBlock(seqno) {
      const m = await reader.manifest(seqno);
      if (!m) return null;
      return read(m.mcBlock.id);
    },
    block: read,
    async accountStates(id, addresses) {
      if (opts.fallback) return opts.fallback.accountStates(id, addresses);
      const key = sideKey(id);
      const fetched = recent.get(key) ?? (await read(id));
      recent.delete(key);
      return statesFromNewState(stateUpdateNewSide(fetched.root), id.workchain, addresses);
    },
    async close() {
      await reader.close();
    },
  };
}
