// block.tlb:304-313
//   update_hashes#72 {X:Type} old_hash:bits256 new_hash:bits256
//     = HASH_UPDATE X;
//   ...
//   acc_trans#5 account_addr:bits256
//               transactions:(HashmapAug 64 ^Transaction CurrencyCollection)
//               state_update:^(HASH_UPDATE Account)
//             = AccountBlock;
//
//   _ (HashmapAugE 256 AccountBlock CurrencyCollection) = ShardAccountBlocks;
import {
  type Builder,
  beginCell,
  type Cell,
  type CurrencyCollection,
  type HashUpdate,
  type Slice,
  storeHashUpdate,
} from '@ton/core';
import {
  type AugDict,
  type AugDictCodec,
  loadHashmapAug,
  loadHashmapAugE,
  storeHashmapAug,
  storeHashmapAugE,
} from '../dict/index.ts';
import { decoding, expectHash, expectTag, loadWhole } from './codec-util.ts';
import { addCurrencies, loadCurrencies, storeCurrencies, zeroCurrencies } from './currency.ts';

export type AccountBlock = {
  accountAddr: Buffer;
  /**
   * Keyed by lt; each value is the `^Transaction` cell as it arrived (its hash is the transaction hash;
   * src/ton/message decodes it), each extra the transaction's total_fees.
   */
  transactions: AugDict<Cell, CurrencyCollection>;
  stateUpdate: HashUpdate;
};

/** Keyed by account address (256 bits); the extra of every node is the total fees of its subtree. */
export type ShardAccountBlocks = AugDict<AccountBlock, CurrencyCollection>;

/** Aug for `HashmapAug 64 ^Transaction CurrencyCollection`: fork extras are summed fees. */
export const accountTransactionsCodec: AugDictCodec<Cell, CurrencyCollection> = {
  loadValue: (s) => s.loadRef(),
  storeValue: (c) => (b) => {
    b.storeRef(c);
  },
  loadExtra: loadCurrencies,
  storeExtra: storeCurrencies,
  combine: addCurrencies,
  empty: zeroCurrencies,
};

function loadHashUpdateTlb(s: Slice): HashUpdate {
  return decoding('HASH_UPDATE', () => {
    expectTag(s, 'HASH_UPDATE', 0x72, 8);
    return { oldHash: s.loadBuffer(32), newHash: s.loadBuffer(32) };
  });
}

export function loadAccountBlock(s: Slice): AccountBlock {
  return decoding('AccountBlock', () => {
    expectTag(s, 'AccountBlock', 0x5, 4);
    const accountAddr = s.loadBuffer(32);
    // The transactions root edge sits inline, before state_update's ref. With one transaction that edge is
    // a leaf, and the dict reader requires a leaf's slice to end after its value; so the edge is handed over
    // alone: the remaining bits and every remaining ref but the last (which is state_update).
    const edge = beginCell().storeBits(s.loadBits(s.remainingBits));
    while (s.remainingRefs > 1) edge.storeRef(s.loadRef());
    const transactions = loadHashmapAug(edge.endCell().beginParse(), 64, accountTransactionsCodec);
    const stateUpdate = loadWhole('HASH_UPDATE', s.loadRef(), loadHashUpdateTlb);
    return { accountAddr, transactions, stateUpdate };
  });
}

export function storeAccountBlock(v: AccountBlock): (b: Builder) => void {
  expectHash('AccountBlock', 'account_addr', v.accountAddr);
  return (b) => {
    b.storeUint(0x5, 4)
      .storeBuffer(v.accountAddr)
      .store(storeHashmapAug(v.transactions.entries, 64, accountTransactionsCodec))
      .storeRef(beginCell().store(storeHashUpdate(v.stateUpdate)));
  };
}

/** The node's Aug_ShardAccountBlocks: a fork's extra is the sum of its children's fees. */
export const shardAccountBlocksCodec: AugDictCodec<AccountBlock, CurrencyCollection> = {
  loadValue: loadAccountBlock,
  storeValue: storeAccountBlock,
  loadExtra: loadCurrencies,
  storeExtra: storeCurrencies,
  combine: addCurrencies,
  empty: zeroCurrencies,
};

export function loadShardAccountBlocks(s: Slice): ShardAccountBlocks {
  return decoding('ShardAccountBlocks', () => loadHashmapAugE(s, 256, shardAccountBlocksCodec));
}

export function storeShardAccountBlocks(v: ShardAccountBlocks): (b: Builder) => void {
  return storeHashmapAugE(v.entries, 256, shardAccountBlocksCodec);
}
