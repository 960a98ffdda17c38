// The standard NFT codes tonweb ships: token-contract's editable collection and its simple item (nft_item_simple).
// Their storage and messages are the reference TEP-62 layouts that nft.ts already writes (contracts.md §4), so this
// module supplies the codes, the StateInit and address derivation with them, the editable collection's extra op
// (change_content#4), and a mint body in tonweb's shape (off-chain individual content: the URI tail as bytes).
import { type Address, type Builder, beginCell, type Cell, contractAddress, type StateInit } from '@ton/core';
import {
  type NftCollectionData,
  nftItemAddress,
  nftItemInitCell,
  nftItemStateInit,
  type RoyaltyParams,
  storeNftCollectionData,
  storeNftDeployItem,
  storeRoyaltyParams,
} from './nft.ts';
import { snakeText } from './payload.ts';
import { standardCodes } from './standard-codes.ts';

/** Ops of the editable collection beyond nft.ts's NFT_OP (only its owner may send them, error 401). */
export const STANDARD_NFT_OP = { changeContent: 0x00000004 } as const;

/** tonweb writes royalty as numerator / 1000. */
export const STANDARD_ROYALTY_BASE = 1000;

/** The collection's StateInit with tonweb's collection code and, as item code, tonweb's simple item. */
export function standardNftCollectionStateInit(
  v: Omit<NftCollectionData, 'nftItemCode' | 'nextItemIndex'> & { nextItemIndex?: bigint },
): StateInit {
  const codes = standardCodes();
  const data = beginCell()
    .store(storeNftCollectionData({ ...v, nextItemIndex: v.nextItemIndex ?? 0n, nftItemCode: codes.nftItem }))
    .endCell();
  return { code: codes.nftCollection, data };
}

export function standardNftCollectionAddress(init: StateInit): Address {
  return contractAddress(0, init);
}

/** An item's StateInit (index:uint64 ‖ collection) with the simple item code. */
export function standardNftItemStateInit(collection: Address, itemIndex: bigint): StateInit {
  return nftItemStateInit(collection, itemIndex, standardCodes().nftItem);
}

/** The item address the collection's get_nft_address_by_index derives. */
export function standardNftItemAddress(collection: Address, itemIndex: bigint): Address {
  return nftItemAddress(collection, itemIndex, standardCodes().nftItem);
}

/**
 * deploy_item#00000001 for one item: `amount` goes to the item (keep it above the item's 0.05 TON storage reserve),
 * its content is `owner ^individual`, the individual content the URI tail that get_nft_content appends to the
 * collection's common prefix.
 */
export function standardNftMintBody(v: {
  queryId: bigint;
  itemIndex: bigint;
  amount: bigint;
  owner: Address;
  uriTail: string;
}): Cell {
  const content = nftItemInitCell({ owner: v.owner, individualContent: snakeText(v.uriTail) });
  return beginCell()
    .store(storeNftDeployItem({ queryId: v.queryId, itemIndex: v.itemIndex, amount: v.amount, content }))
    .endCell();
}

/** change_content#00000004 query_id:uint64 content:^[collection_content common_content] royalty:^RoyaltyParams */
export function storeStandardNftChangeContent(v: {
  queryId: bigint;
  collectionContent: Cell;
  commonContent: Cell;
  royaltyParams: RoyaltyParams;
}) {
  return (b: Builder) => {
    b.storeUint(STANDARD_NFT_OP.changeContent, 32)
      .storeUint(v.queryId, 64)
      .storeRef(beginCell().storeRef(v.collectionContent).storeRef(v.commonContent))
      .storeRef(beginCell().store(storeRoyaltyParams(v.royaltyParams)));
  };
}
