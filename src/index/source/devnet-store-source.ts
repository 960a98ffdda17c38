// The devnet store source: the node's file layer read directly (src/devnet/store/LAYOUT.md, "Reading the file
// layer"): head.json for the head, manifests for masterchain blocks, block files checked against their file
// hash. The file layer holds no shard states, so account states come from a liteserver source when one is
// given (`fallback`), else from each block's own state update (hashes, balances and statuses exact; code and
// data BoCs only where the update carries them: `complete: false`).
import { IndexError } from '../../common/index.ts';
import { type DevnetStoreReader, openDevnetStoreReader } from '../../devnet/store/index.ts';
import { type BlockIdExt, loadBlockCell } from '../../ton/index.ts';
import { blockKey, checkedBlock } from './ids.ts';
import { statesFromStateUpdate } from './state-update.ts';
import type { BlockSource, FetchedBlock } from './types.ts';

export interface DevnetStoreSourceOptions {
  /** Where account states come from when given (e.g. createLiteSource over the node's liteserver). */
  fallback?: BlockSource;
}

export async function createDevnetStoreSource(dir: string, opts: DevnetStoreSourceOptions = {}): Promise<BlockSource> {
  const reader: DevnetStoreReader = await openDevnetStoreReader(dir);
  const read = async (id: BlockIdExt): Promise<FetchedBlock> => {
    const bytes = id.seqno === 0 ? await reader.zeroStateFile(id) : await reader.blockFile(id);
    if (!bytes) {
      throw new IndexError('TG_INDEX_NOT_READY', `devnet store ${dir}: no file for block ${blockKey(id)}`, {
        details: { block: blockKey(id) },
      });
    }
    return checkedBlock(id, bytes);
  };
  return {
    name: 'devnet-store',
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
      const b = await read(id);
      return statesFromStateUpdate(loadBlockCell(b.root), addresses);
    },
    async close() {
      await reader.close();
    },
  };
}
