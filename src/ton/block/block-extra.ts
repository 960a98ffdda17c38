// block.tlb:479-484
//   block_extra in_msg_descr:^InMsgDescr
//     out_msg_descr:^OutMsgDescr
//     account_blocks:^ShardAccountBlocks
//     rand_seed:bits256
//     created_by:bits256
//     custom:(Maybe ^McBlockExtra) = BlockExtra;
// The declaration has no explicit tag, so TL-B derives it: crc32 of the normalised line = 0x4a33f6fd
// (what every real block carries, and the tag the node's generated block-auto.cpp checks).
import { type Builder, beginCell, type Slice } from '@ton/core';
import { loadShardAccountBlocks, type ShardAccountBlocks, storeShardAccountBlocks } from './account-block.ts';
import { decoding, expectHash, expectTag, loadWhole } from './codec-util.ts';
import { type InMsgDescr, loadInMsgDescr, storeInMsgDescr } from './in-msg.ts';
import { loadMcBlockExtra, type McBlockExtra, storeMcBlockExtra } from './mc-block-extra.ts';
import { loadOutMsgDescr, type OutMsgDescr, storeOutMsgDescr } from './out-msg.ts';

export type BlockExtra = {
  inMsgDescr: InMsgDescr;
  outMsgDescr: OutMsgDescr;
  accountBlocks: ShardAccountBlocks;
  randSeed: Buffer;
  createdBy: Buffer;
  /** Present on masterchain blocks only. */
  custom: McBlockExtra | null;
};

const BLOCK_EXTRA_TAG = 0x4a33f6fd;

export function loadBlockExtra(s: Slice): BlockExtra {
  return decoding('BlockExtra', () => {
    expectTag(s, 'BlockExtra', BLOCK_EXTRA_TAG, 32);
    // The message descriptions are read when first asked for: the indexer reads a block's transactions through
    // account_blocks and never these two, which were 8% of decoding a block (bench/codec).
    const inCell = s.loadRef();
    const outCell = s.loadRef();
    let inMsgDescr: InMsgDescr | undefined;
    let outMsgDescr: OutMsgDescr | undefined;
    const accountBlocks = loadWhole('ShardAccountBlocks', s.loadRef(), loadShardAccountBlocks);
    const randSeed = s.loadBuffer(32);
    const createdBy = s.loadBuffer(32);
    const customCell = s.loadMaybeRef();
    const custom = customCell ? loadWhole('McBlockExtra', customCell, loadMcBlockExtra) : null;
    return {
      get inMsgDescr() {
        inMsgDescr ??= loadWhole('InMsgDescr', inCell, loadInMsgDescr);
        return inMsgDescr;
      },
      get outMsgDescr() {
        outMsgDescr ??= loadWhole('OutMsgDescr', outCell, loadOutMsgDescr);
        return outMsgDescr;
      },
      accountBlocks,
      randSeed,
      createdBy,
      custom,
    };
  });
}

export function storeBlockExtra(v: BlockExtra): (b: Builder) => void {
  expectHash('BlockExtra', 'rand_seed', v.randSeed);
  expectHash('BlockExtra', 'created_by', v.createdBy);
  return (b) => {
    b.storeUint(BLOCK_EXTRA_TAG, 32)
      .storeRef(beginCell().store(storeInMsgDescr(v.inMsgDescr)))
      .storeRef(beginCell().store(storeOutMsgDescr(v.outMsgDescr)))
      .storeRef(beginCell().store(storeShardAccountBlocks(v.accountBlocks)))
      .storeBuffer(v.randSeed)
      .storeBuffer(v.createdBy)
      .storeMaybeRef(v.custom ? beginCell().store(storeMcBlockExtra(v.custom)) : null);
  };
}
