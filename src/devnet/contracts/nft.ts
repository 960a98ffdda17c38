// Typed wrappers of the devnet's NFT contracts (contracts/nft, TEP-62 + TEP-66 royalty, reference collection ops):
// message body writers with TL-B field names, storage and StateInit builders, the item address derivation, and
// readers of the getters' stacks. Layouts: shared/specs/contracts.md §4.
import {
  type Address,
  type Builder,
  beginCell,
  type Cell,
  contractAddress,
  Dictionary,
  type DictionaryValue,
  type StateInit,
  type TupleItem,
  TupleReader,
} from '@ton/core';
import { NFT_OP } from '../../ton/index.ts';
import { NFT_COLLECTION_CODE, NFT_ITEM_CODE } from './codes.ts';
import { type EitherCellRef, storeEitherCellRef } from './payload.ts';

/** Exit codes of contracts/nft (the reference's numbers). */
export const NFT_ERROR = {
  notFromOwner: 401,
  notEnoughBalance: 402,
  invalidItemIndex: 402,
  notFromCollection: 405,
  batchTooLarge: 399,
  invalidPayload: 708,
  wrongWorkchain: 333,
  wrongOp: 0xffff,
} as const;

/** transfer#5fcc3d14 */
export interface NftTransfer {
  queryId: bigint;
  newOwner: Address;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardAmount: bigint;
  forwardPayload: EitherCellRef;
}

export function storeNftTransfer(v: NftTransfer) {
  return (b: Builder) => {
    b.storeUint(NFT_OP.transfer, 32)
      .storeUint(v.queryId, 64)
      .storeAddress(v.newOwner)
      .storeAddress(v.responseDestination)
      .storeMaybeRef(v.customPayload)
      .storeCoins(v.forwardAmount)
      .store(storeEitherCellRef(v.forwardPayload));
  };
}

/** ownership_assigned#05138d91 */
export interface NftOwnershipAssigned {
  queryId: bigint;
  prevOwner: Address | null;
  forwardPayload: EitherCellRef;
}

export function storeNftOwnershipAssigned(v: NftOwnershipAssigned) {
  return (b: Builder) => {
    b.storeUint(NFT_OP.ownershipAssigned, 32)
      .storeUint(v.queryId, 64)
      .storeAddress(v.prevOwner)
      .store(storeEitherCellRef(v.forwardPayload));
  };
}

/** get_static_data#2fcb26a2 */
export function storeNftGetStaticData(v: { queryId: bigint }) {
  return (b: Builder) => {
    b.storeUint(NFT_OP.getStaticData, 32).storeUint(v.queryId, 64);
  };
}

/** report_static_data#8b771735 */
export interface NftReportStaticData {
  queryId: bigint;
  index: bigint;
  collection: Address | null;
}

export function storeNftReportStaticData(v: NftReportStaticData) {
  return (b: Builder) => {
    b.storeUint(NFT_OP.reportStaticData, 32)
      .storeUint(v.queryId, 64)
      .storeUint(v.index, 256)
      .storeAddress(v.collection);
  };
}

/** The item's init message from its collection (no opcode): owner:MsgAddress content:^Cell. */
export interface NftItemInit {
  owner: Address;
  individualContent: Cell;
}

export function storeNftItemInit(v: NftItemInit) {
  return (b: Builder) => {
    b.storeAddress(v.owner).storeRef(v.individualContent);
  };
}

/** deploy_item#00000001 query_id item_index:uint64 amount:Coins content:^[owner individual] */
export interface NftDeployItem {
  queryId: bigint;
  itemIndex: bigint;
  amount: bigint;
  content: Cell;
}

export function storeNftDeployItem(v: NftDeployItem) {
  return (b: Builder) => {
    b.storeUint(NFT_OP.deployItem, 32)
      .storeUint(v.queryId, 64)
      .storeUint(v.itemIndex, 64)
      .storeCoins(v.amount)
      .storeRef(v.content);
  };
}

/** One value of batch_deploy's list: amount:Coins content:^[owner individual]. */
export interface NftBatchDeployEntry {
  amount: bigint;
  content: Cell;
}

const batchEntryValue: DictionaryValue<NftBatchDeployEntry> = {
  serialize: (v, b) => {
    b.storeCoins(v.amount).storeRef(v.content);
  },
  parse: (s) => ({ amount: s.loadCoins(), content: s.loadRef() }),
};

/**
 * batch_deploy#00000002 query_id deploy_list:^(HashmapE 64 ...). Real bodies (vector nft_collection_batch_mint)
 * store the list as a HashmapE (a 1 bit, then the root as a ref); collections read only the ref.
 */
export interface NftBatchDeploy {
  queryId: bigint;
  deployList: Map<bigint, NftBatchDeployEntry>;
}

export function storeNftBatchDeploy(v: NftBatchDeploy) {
  return (b: Builder) => {
    const dict = Dictionary.empty(Dictionary.Keys.BigUint(64), batchEntryValue);
    for (const [index, entry] of v.deployList) dict.set(index, entry);
    b.storeUint(NFT_OP.batchDeploy, 32).storeUint(v.queryId, 64).storeDict(dict);
  };
}

/** change_owner#00000003 */
export interface NftChangeOwner {
  queryId: bigint;
  newOwner: Address | null;
}

export function storeNftChangeOwner(v: NftChangeOwner) {
  return (b: Builder) => {
    b.storeUint(NFT_OP.changeOwner, 32).storeUint(v.queryId, 64).storeAddress(v.newOwner);
  };
}

/** get_royalty_params#693d3950 */
export function storeNftGetRoyaltyParams(v: { queryId: bigint }) {
  return (b: Builder) => {
    b.storeUint(NFT_OP.getRoyaltyParams, 32).storeUint(v.queryId, 64);
  };
}

/** TEP-66 royalty: numerator:uint16 denominator:uint16 destination:MsgAddress (share = numerator / denominator). */
export interface RoyaltyParams {
  numerator: number;
  denominator: number;
  destination: Address;
}

export function storeRoyaltyParams(v: RoyaltyParams) {
  return (b: Builder) => {
    b.storeUint(v.numerator, 16).storeUint(v.denominator, 16).storeAddress(v.destination);
  };
}

/** report_royalty_params#a8cb00ad */
export function storeNftReportRoyaltyParams(v: { queryId: bigint } & RoyaltyParams) {
  return (b: Builder) => {
    b.storeUint(NFT_OP.reportRoyaltyParams, 32).storeUint(v.queryId, 64).store(storeRoyaltyParams(v));
  };
}

/**
 * Collection storage: owner:MsgAddress next_item_index:uint64 ^[collection_content:^Cell common_content:^Cell]
 * item_code:^Cell royalty:^RoyaltyParams
 */
export interface NftCollectionData {
  ownerAddress: Address | null;
  nextItemIndex: bigint;
  /** TEP-64 content of the collection itself. */
  collectionContent: Cell;
  /** Snake bytes prepended to every item's individual content (the common URI prefix). */
  commonContent: Cell;
  nftItemCode: Cell;
  royaltyParams: RoyaltyParams;
}

export function storeNftCollectionData(v: NftCollectionData) {
  return (b: Builder) => {
    b.storeAddress(v.ownerAddress)
      .storeUint(v.nextItemIndex, 64)
      .storeRef(beginCell().storeRef(v.collectionContent).storeRef(v.commonContent).endCell())
      .storeRef(v.nftItemCode)
      .storeRef(beginCell().store(storeRoyaltyParams(v.royaltyParams)).endCell());
  };
}

export function nftCollectionStateInit(
  v: Omit<NftCollectionData, 'nftItemCode' | 'nextItemIndex'> & { nextItemIndex?: bigint; nftItemCode?: Cell },
): StateInit {
  const data = beginCell()
    .store(
      storeNftCollectionData({
        ...v,
        nextItemIndex: v.nextItemIndex ?? 0n,
        nftItemCode: v.nftItemCode ?? NFT_ITEM_CODE,
      }),
    )
    .endCell();
  return { code: NFT_COLLECTION_CODE, data };
}

/** An item's StateInit: its code and index:uint64 ‖ collection address. */
export function nftItemStateInit(collection: Address, itemIndex: bigint, nftItemCode: Cell = NFT_ITEM_CODE): StateInit {
  return { code: nftItemCode, data: beginCell().storeUint(itemIndex, 64).storeAddress(collection).endCell() };
}

/** The item address as the collection's get_nft_address_by_index derives it (basechain). */
export function nftItemAddress(collection: Address, itemIndex: bigint, nftItemCode: Cell = NFT_ITEM_CODE): Address {
  return contractAddress(0, nftItemStateInit(collection, itemIndex, nftItemCode));
}

/** get_nft_data() */
export interface NftDataResult {
  init: boolean;
  index: bigint;
  collectionAddress: Address | null;
  ownerAddress: Address | null;
  individualContent: Cell;
}

export function readNftData(stack: TupleItem[]): NftDataResult {
  const r = new TupleReader(stack);
  return {
    init: r.readBoolean(),
    index: r.readBigNumber(),
    collectionAddress: r.readAddressOpt(),
    ownerAddress: r.readAddressOpt(),
    individualContent: r.readCell(),
  };
}

/** get_collection_data() */
export interface NftCollectionDataResult {
  nextItemIndex: bigint;
  collectionContent: Cell;
  ownerAddress: Address | null;
}

export function readNftCollectionData(stack: TupleItem[]): NftCollectionDataResult {
  const r = new TupleReader(stack);
  return { nextItemIndex: r.readBigNumber(), collectionContent: r.readCell(), ownerAddress: r.readAddressOpt() };
}

/** get_nft_address_by_index(index) -> slice */
export function readNftAddressByIndex(stack: TupleItem[]): Address {
  return new TupleReader(stack).readAddress();
}

/** royalty_params() */
export function readRoyaltyParams(stack: TupleItem[]): RoyaltyParams {
  const r = new TupleReader(stack);
  return { numerator: r.readNumber(), denominator: r.readNumber(), destination: r.readAddress() };
}

/** get_nft_content(index, individual_content) -> cell */
export function readNftContent(stack: TupleItem[]): Cell {
  return new TupleReader(stack).readCell();
}

export function getNftAddressByIndexArgs(index: bigint): TupleItem[] {
  return [{ type: 'int', value: index }];
}

export function getNftContentArgs(index: bigint, individualContent: Cell): TupleItem[] {
  return [
    { type: 'int', value: index },
    { type: 'cell', cell: individualContent },
  ];
}

/** The `content` ref of deploy_item / batch_deploy: the item's init message body. */
export function nftItemInitCell(v: NftItemInit): Cell {
  return beginCell().store(storeNftItemInit(v)).endCell();
}
