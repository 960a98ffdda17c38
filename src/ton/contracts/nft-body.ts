// NFT (TEP-62), royalty (TEP-66), editable and SBT (TEP-85) bodies, contracts.md §4.1: their loaders and the
// NFT_BODIES table `parseKnownBody` dispatches on. The event an NFT item's inbound transfer yields is in
// src/index/decode/contracts/events/nft.ts.
import { type Address, type Cell, Dictionary, type Slice } from '@ton/core';
import { bodyParser, loadQueryOnly } from './body-parser.ts';
import { type EitherCell, loadEitherCell, loadMsgAddress, refuse } from './body-reader.ts';
import { NFT_OP } from './nft.ts';

// transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
//     custom_payload:(Maybe ^Cell) forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell) = InternalMsgBody;
export interface NftTransfer {
  queryId: bigint;
  newOwner: Address | null;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardAmount: bigint;
  forwardPayload: EitherCell;
}

export function loadNftTransfer(s: Slice): NftTransfer {
  return {
    queryId: s.loadUintBig(64),
    newOwner: loadMsgAddress(s),
    responseDestination: loadMsgAddress(s),
    customPayload: s.loadMaybeRef(),
    forwardAmount: s.loadCoins(),
    forwardPayload: loadEitherCell(s),
  };
}

// ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell) = InternalMsgBody;
export interface NftOwnershipAssigned {
  queryId: bigint;
  prevOwner: Address | null;
  forwardPayload: EitherCell;
}

export function loadNftOwnershipAssigned(s: Slice): NftOwnershipAssigned {
  return { queryId: s.loadUintBig(64), prevOwner: loadMsgAddress(s), forwardPayload: loadEitherCell(s) };
}

// report_static_data#8b771735 query_id:uint64 index:uint256 collection:MsgAddress = InternalMsgBody;
export interface NftReportStaticData {
  queryId: bigint;
  index: bigint;
  collection: Address | null;
}

export function loadNftReportStaticData(s: Slice): NftReportStaticData {
  return { queryId: s.loadUintBig(64), index: s.loadUintBig(256), collection: loadMsgAddress(s) };
}

/** The item content a collection deploys with: ^[owner:MsgAddress individual:^Cell]. */
export interface NftDeployContent {
  owner: Address | null;
  individualContent: Cell;
}

function loadDeployContent(c: Cell): NftDeployContent {
  const s = c.beginParse();
  return { owner: loadMsgAddress(s), individualContent: s.loadRef() };
}

// deploy_item#00000001 query_id:uint64 item_index:uint64 amount:Coins content:^[owner:MsgAddress individual:^Cell]
export interface NftDeployItem {
  queryId: bigint;
  itemIndex: bigint;
  amount: bigint;
  content: NftDeployContent;
}

export function loadNftDeployItem(s: Slice): NftDeployItem {
  return {
    queryId: s.loadUintBig(64),
    itemIndex: s.loadUintBig(64),
    amount: s.loadCoins(),
    content: loadDeployContent(s.loadRef()),
  };
}

// batch_deploy#00000002 query_id:uint64 deploy_list:^(HashmapE 64 [amount:Coins content:^[owner individual]])
// (the ref is the dictionary's root; entries in key order)
export interface NftBatchDeploy {
  queryId: bigint;
  deployList: Array<{ itemIndex: bigint; amount: bigint; content: NftDeployContent }>;
}

const deployEntry = {
  serialize: () => refuse('read only'),
  parse: (s: Slice) => ({ amount: s.loadCoins(), content: loadDeployContent(s.loadRef()) }),
};

export function loadNftBatchDeploy(s: Slice): NftBatchDeploy {
  const queryId = s.loadUintBig(64);
  const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(64), deployEntry, s.loadRef());
  const deployList = [...dict]
    .map(([itemIndex, v]) => ({ itemIndex, ...v }))
    .sort((a, b) => (a.itemIndex < b.itemIndex ? -1 : a.itemIndex > b.itemIndex ? 1 : 0));
  return { queryId, deployList };
}

// change_owner#00000003 query_id:uint64 new_owner:MsgAddress -- the NFT collection op; the v1 jetton minter's
// change_admin#00000003 has the same layout, so one entry serves both.
export interface ChangeOwner {
  queryId: bigint;
  newOwner: Address | null;
}

export function loadChangeOwner(s: Slice): ChangeOwner {
  return { queryId: s.loadUintBig(64), newOwner: loadMsgAddress(s) };
}

// royalty_params#_ numerator:uint16 denominator:uint16 destination:MsgAddress
export interface RoyaltyParams {
  numerator: number;
  denominator: number;
  destination: Address | null;
}

export function loadRoyaltyParams(s: Slice): RoyaltyParams {
  return { numerator: s.loadUint(16), denominator: s.loadUint(16), destination: loadMsgAddress(s) };
}

// change_content#00000004 query_id:uint64 content:^Cell royalty:^RoyaltyParams (editable collection: 2 refs).
export interface NftChangeContent {
  queryId: bigint;
  content: Cell;
  royalty: RoyaltyParams;
}

export function loadNftChangeContent(s: Slice): NftChangeContent {
  if (s.remainingRefs !== 2) refuse('nft change_content: expected 2 refs');
  return { queryId: s.loadUintBig(64), content: s.loadRef(), royalty: loadRoyaltyParams(s.loadRef().beginParse()) };
}

// change_content#00000004 query_id:uint64 content:^Cell (v1 jetton minter: 1 ref).
export interface JettonChangeContent {
  queryId: bigint;
  content: Cell;
}

export function loadJettonChangeContent(s: Slice): JettonChangeContent {
  if (s.remainingRefs !== 1) refuse('jetton change_content: expected 1 ref');
  return { queryId: s.loadUintBig(64), content: s.loadRef() };
}

// report_royalty_params#a8cb00ad query_id:uint64 numerator:uint16 denominator:uint16 destination:MsgAddress
export interface NftReportRoyaltyParams extends RoyaltyParams {
  queryId: bigint;
}

export function loadNftReportRoyaltyParams(s: Slice): NftReportRoyaltyParams {
  return { queryId: s.loadUintBig(64), ...loadRoyaltyParams(s) };
}

// edit_content#1a0b9d51 query_id:uint64 content:^Cell
export interface NftEditContent {
  queryId: bigint;
  content: Cell;
}

export function loadNftEditContent(s: Slice): NftEditContent {
  return { queryId: s.loadUintBig(64), content: s.loadRef() };
}

// transfer_editorship#1c04412a query_id:uint64 new_editor:MsgAddress response_destination:MsgAddress
//     custom_payload:(Maybe ^Cell) forward_amount:Coins forward_payload:(Either Cell ^Cell)
export interface NftTransferEditorship {
  queryId: bigint;
  newEditor: Address | null;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardAmount: bigint;
  forwardPayload: EitherCell;
}

export function loadNftTransferEditorship(s: Slice): NftTransferEditorship {
  return {
    queryId: s.loadUintBig(64),
    newEditor: loadMsgAddress(s),
    responseDestination: loadMsgAddress(s),
    customPayload: s.loadMaybeRef(),
    forwardAmount: s.loadCoins(),
    forwardPayload: loadEitherCell(s),
  };
}

// editorship_assigned#511a4463 query_id:uint64 prev_editor:MsgAddress forward_payload:(Either Cell ^Cell)
export interface NftEditorshipAssigned {
  queryId: bigint;
  prevEditor: Address | null;
  forwardPayload: EitherCell;
}

export function loadNftEditorshipAssigned(s: Slice): NftEditorshipAssigned {
  return { queryId: s.loadUintBig(64), prevEditor: loadMsgAddress(s), forwardPayload: loadEitherCell(s) };
}

// prove_ownership#04ded148 query_id:uint64 dest:MsgAddress forward_payload:^Cell with_content:Bool
// request_owner#d0c3bfea   (same layout)
export interface SbtProveOwnership {
  queryId: bigint;
  dest: Address | null;
  forwardPayload: Cell;
  withContent: boolean;
}

export function loadSbtProveOwnership(s: Slice): SbtProveOwnership {
  return { queryId: s.loadUintBig(64), dest: loadMsgAddress(s), forwardPayload: s.loadRef(), withContent: s.loadBit() };
}

// ownership_proof#0524c7ae query_id:uint64 item_id:uint256 owner:MsgAddress data:^Cell revoked_at:uint64
//     content:(Maybe ^Cell)
export interface SbtOwnershipProof {
  queryId: bigint;
  itemId: bigint;
  owner: Address | null;
  data: Cell;
  revokedAt: bigint;
  content: Cell | null;
}

export function loadSbtOwnershipProof(s: Slice): SbtOwnershipProof {
  return {
    queryId: s.loadUintBig(64),
    itemId: s.loadUintBig(256),
    owner: loadMsgAddress(s),
    data: s.loadRef(),
    revokedAt: s.loadUintBig(64),
    content: s.loadMaybeRef(),
  };
}

// owner_info#0dd607e3 query_id:uint64 item_id:uint256 initiator:MsgAddress owner:MsgAddress data:^Cell
//     revoked_at:uint64 content:(Maybe ^Cell)
export interface SbtOwnerInfo {
  queryId: bigint;
  itemId: bigint;
  initiator: Address | null;
  owner: Address | null;
  data: Cell;
  revokedAt: bigint;
  content: Cell | null;
}

export function loadSbtOwnerInfo(s: Slice): SbtOwnerInfo {
  return {
    queryId: s.loadUintBig(64),
    itemId: s.loadUintBig(256),
    initiator: loadMsgAddress(s),
    owner: loadMsgAddress(s),
    data: s.loadRef(),
    revokedAt: s.loadUintBig(64),
    content: s.loadMaybeRef(),
  };
}

export const NFT_BODIES = [
  bodyParser('nft_transfer', NFT_OP.transfer, loadNftTransfer),
  bodyParser('nft_ownership_assigned', NFT_OP.ownershipAssigned, loadNftOwnershipAssigned),
  bodyParser('get_static_data', NFT_OP.getStaticData, loadQueryOnly),
  bodyParser('report_static_data', NFT_OP.reportStaticData, loadNftReportStaticData),
  bodyParser('nft_deploy_item', NFT_OP.deployItem, loadNftDeployItem),
  bodyParser('nft_batch_deploy', NFT_OP.batchDeploy, loadNftBatchDeploy),
  bodyParser('change_owner', NFT_OP.changeOwner, loadChangeOwner),
  bodyParser('nft_change_content', NFT_OP.changeContent, loadNftChangeContent),
  bodyParser('jetton_change_content', NFT_OP.changeContent, loadJettonChangeContent),
  bodyParser('get_royalty_params', NFT_OP.getRoyaltyParams, loadQueryOnly),
  bodyParser('report_royalty_params', NFT_OP.reportRoyaltyParams, loadNftReportRoyaltyParams),
  bodyParser('nft_edit_content', NFT_OP.editContent, loadNftEditContent),
  bodyParser('nft_transfer_editorship', NFT_OP.transferEditorship, loadNftTransferEditorship),
  bodyParser('nft_editorship_assigned', NFT_OP.editorshipAssigned, loadNftEditorshipAssigned),
  bodyParser('prove_ownership', NFT_OP.proveOwnership, loadSbtProveOwnership),
  bodyParser('ownership_proof', NFT_OP.ownershipProof, loadSbtOwnershipProof),
  bodyParser('sbt_request_owner', NFT_OP.requestOwner, loadSbtProveOwnership),
  bodyParser('sbt_owner_info', NFT_OP.ownerInfo, loadSbtOwnerInfo),
  bodyParser('sbt_destroy', NFT_OP.destroy, loadQueryOnly),
  bodyParser('sbt_revoke', NFT_OP.revoke, loadQueryOnly),
  bodyParser('sbt_take_excess', NFT_OP.takeExcess, loadQueryOnly),
  bodyParser('sbt_ownership_proof_bounced', NFT_OP.ownershipProofBounced, loadQueryOnly),
] as const;
