// The BlockSource a decode thread sees: every call goes to the main thread, which owns the real source (its
// connections, its files, its caches), except what the thread can do itself. Block bytes come over as they are
// and are parsed here, once (checkedBlock: file hash, then the root hash of the one parse). When the real source
// reads account states from a block's own state update (statesFromBlocks), they are read here from the block this
// thread parsed, instead of the main thread parsing it again.
import { Lru } from '../../common/index.ts';
import { asBuffer } from '../../common/thread-bytes.ts';
import {
  type AccountStateAfter,
  type BlockIdExt,
  blockKey,
  checkedBlock,
  type FetchedBlock,
  statesFromNewState,
  stateUpdateNewSide,
} from '../../ton/index.ts';
import type { BlockSource, DeclaredUnit } from '../source/types.ts';
import {
  declaredFromWire,
  idFromWire,
  type SourceCall,
  stateFromWire,
  type WireFetched,
  type WireState,
} from './wire.ts';

/** Blocks parsed here whose states may still be asked for (as the devnet store source keeps them). */
const BLOCKS_KEPT = 64;

export function createProxySource(
  name: string,
  statesFromBlocks: boolean,
  ask: (request: SourceCall) => Promise<unknown>,
): BlockSource {
  const parsed = new Lru<string, FetchedBlock>(statesFromBlocks ? BLOCKS_KEPT : 0);
  const key = (id: BlockIdExt) => `${blockKey(id)}:${id.rootHash.toString('hex')}`;
  const fetched = (w: WireFetched): FetchedBlock => {
    const id = idFromWire(w.id);
    const f = checkedBlock(id, asBuffer(w.bytes));
    if (statesFromBlocks && id.seqno !== 0) parsed.set(key(id), f);
    return f;
  };
  const block = async (id: BlockIdExt) => fetched((await ask({ call: 'block', id })) as WireFetched);
  return {
    name,
    async head() {
      return (await ask({ call: 'head' })) as number;
    },
    async mcBlock(seqno) {
      const w = (await ask({ call: 'mcBlock', seqno })) as WireFetched | null;
      return w ? fetched(w) : null;
    },
    block,
    async accountStates(id, addresses): Promise<AccountStateAfter[]> {
      if (statesFromBlocks) {
        const k = key(id);
        const f = parsed.get(k) ?? (await block(id));
        parsed.delete(k);
        return statesFromNewState(stateUpdateNewSide(f.root), id.workchain, addresses);
      }
      const states = (await ask({ call: 'accountStates', id, addresses: [...addresses] })) as WireState[];
      return states.map(stateFromWire);
    },
    async declaredUnit(mcSeqno): Promise<DeclaredUnit | null> {
      return declaredFromWire((await ask({ call: 'declaredUnit', mcSeqno })) as DeclaredUnit | null);
    },
    async close() {},
  };
}
