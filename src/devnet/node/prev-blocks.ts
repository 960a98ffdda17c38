// c7 PREVBLOCKS for an emulation against masterchain block `mc` (ConfigInfo::get_prev_blocks_info): the last 16
// masterchain blocks up to `mc`, the last key block, and from global version 9 every 100th block (16 of them).

import { Lru } from '../../common/index.ts';
import { type BlockIdExt, MC_SHARD } from '../../ton/index.ts';
import type { PrevBlocksInfo } from '../../tvm/index.ts';
import { type ChainTop, viewMc } from '../chain/index.ts';
import type { DevnetStore } from '../store/index.ts';

export interface PrevBlocksSource {
  of(mc: ChainTop): Promise<PrevBlocksInfo>;
}

export function createPrevBlocksSource(store: DevnetStore, zeroState: BlockIdExt): PrevBlocksSource {
  const cache = new Lru<string, PrevBlocksInfo>(64);
  const ids = new Lru<number, BlockIdExt>(512);

  async function idAt(seqno: number): Promise<BlockIdExt> {
    const hit = ids.get(seqno);
    if (hit) return hit;
    const id = seqno === 0 ? zeroState : await store.blockIdBySeqno(-1, MC_SHARD, seqno);
    if (!id) throw new Error(`prev blocks: masterchain block ${seqno} is not in the store`);
    ids.set(seqno, id);
    return id;
  }

  async function of(mc: ChainTop): Promise<PrevBlocksInfo> {
    const key = mc.id.rootHash.toString('hex');
    const hit = cache.get(key);
    if (hit) return hit;
    const v = viewMc(mc);
    const seqno = mc.id.seqno;
    const lastMcBlocks: BlockIdExt[] = [mc.id];
    for (let s = seqno - 1; s >= 0 && lastMcBlocks.length < 16; s--) lastMcBlocks.push(await idAt(s));
    const lk = v.r1.afterKeyBlock ? null : v.r1.lastKeyBlock;
    const prevKeyBlock: BlockIdExt = v.r1.afterKeyBlock
      ? mc.id
      : lk
        ? { workchain: -1, shard: MC_SHARD, seqno: lk.seqNo, rootHash: lk.rootHash, fileHash: lk.fileHash }
        : zeroState;
    const info: PrevBlocksInfo = { lastMcBlocks, prevKeyBlock };
    if (v.config.globalVersion.version >= 9) {
      const list: BlockIdExt[] = [];
      for (let s = Math.floor(seqno / 100) * 100; list.length < 16; s -= 100) {
        list.push(s === seqno ? mc.id : await idAt(s));
        if (s < 100) break;
      }
      info.lastMcBlocks100 = list;
    }
    cache.set(key, info);
    return info;
  }

  return { of };
}
