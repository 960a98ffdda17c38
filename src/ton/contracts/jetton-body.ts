// Jetton (TEP-74, TEP-89, v1/v2/governed/mintless admin ops) bodies, contracts.md §2.2: their loaders and the
// JETTON_BODIES table `parseKnownBody` dispatches on. The events a jetton wallet's inbound message yields are in
// src/index/decode/contracts/events/jetton.ts.
import type { Address, Cell, Slice } from '@ton/core';
import { bodyParser, loadQueryOnly } from './body-parser.ts';
import {
  type EitherCell,
  loadEitherCell,
  loadMaybeRefOrEnd,
  loadMsgAddress,
  loadMsgAddressInt,
  loadRest,
  readBody,
  refuse,
} from './body-reader.ts';
import { JETTON_OP } from './jetton.ts';

// transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
//     response_destination:MsgAddress custom_payload:(Maybe ^Cell)
//     forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell) = InternalMsgBody;
export interface JettonTransfer {
  queryId: bigint;
  amount: bigint;
  destination: Address | null;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardTonAmount: bigint;
  forwardPayload: EitherCell;
}

export function loadJettonTransfer(s: Slice): JettonTransfer {
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    destination: loadMsgAddress(s),
    responseDestination: loadMsgAddress(s),
    customPayload: s.loadMaybeRef(),
    forwardTonAmount: s.loadCoins(),
    forwardPayload: loadEitherCell(s),
  };
}

// internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress
//     response_address:MsgAddress forward_ton_amount:(VarUInteger 16)
//     forward_payload:(Either Cell ^Cell) = InternalMsgBody;
export interface JettonInternalTransfer {
  queryId: bigint;
  amount: bigint;
  from: Address | null;
  responseAddress: Address | null;
  forwardTonAmount: bigint;
  forwardPayload: EitherCell;
}

export function loadJettonInternalTransfer(s: Slice): JettonInternalTransfer {
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    from: loadMsgAddress(s),
    responseAddress: loadMsgAddress(s),
    forwardTonAmount: s.loadCoins(),
    forwardPayload: loadEitherCell(s),
  };
}

// transfer_notification#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
//     forward_payload:(Either Cell ^Cell) = InternalMsgBody;
export interface JettonTransferNotification {
  queryId: bigint;
  amount: bigint;
  sender: Address | null;
  forwardPayload: EitherCell;
}

export function loadJettonTransferNotification(s: Slice): JettonTransferNotification {
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    sender: loadMsgAddress(s),
    forwardPayload: loadEitherCell(s),
  };
}

// burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress
//     custom_payload:(Maybe ^Cell) = InternalMsgBody;
// Wallets ignore custom_payload, so bodies that end before its bit are accepted on chain (anton issue #13).
export interface JettonBurn {
  queryId: bigint;
  amount: bigint;
  responseDestination: Address | null;
  customPayload: Cell | null;
}

export function loadJettonBurn(s: Slice): JettonBurn {
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    responseDestination: loadMsgAddress(s),
    customPayload: loadMaybeRefOrEnd(s),
  };
}

// burn_notification#7bdd97de query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
//     response_destination:MsgAddress = InternalMsgBody;
export interface JettonBurnNotification {
  queryId: bigint;
  amount: bigint;
  sender: Address | null;
  responseDestination: Address | null;
}

export function loadJettonBurnNotification(s: Slice): JettonBurnNotification {
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    sender: loadMsgAddress(s),
    responseDestination: loadMsgAddress(s),
  };
}

// provide_wallet_address#2c76b973 query_id:uint64 owner_address:MsgAddress include_address:Bool = InternalMsgBody;
export interface ProvideWalletAddress {
  queryId: bigint;
  ownerAddress: Address | null;
  includeAddress: boolean;
}

export function loadProvideWalletAddress(s: Slice): ProvideWalletAddress {
  return { queryId: s.loadUintBig(64), ownerAddress: loadMsgAddress(s), includeAddress: s.loadBit() };
}

// take_wallet_address#d1735400 query_id:uint64 wallet_address:MsgAddress owner_address:(Maybe ^MsgAddress)
export interface TakeWalletAddress {
  queryId: bigint;
  walletAddress: Address | null;
  ownerAddress: Address | null;
}

export function loadTakeWalletAddress(s: Slice): TakeWalletAddress {
  const queryId = s.loadUintBig(64);
  const walletAddress = loadMsgAddress(s);
  const ref = s.loadMaybeRef();
  return { queryId, walletAddress, ownerAddress: ref ? loadMsgAddress(ref.beginParse()) : null };
}

// mint#00000015 query_id:uint64 to_address:MsgAddress ton_amount:Coins master_msg:^Cell (v1; master_msg is an
// internal_transfer body by convention) and mint#642b7d07 ... master_msg:^InternalTransfer (v2, governed,
// mintless). `masterMsgParsed` is null when master_msg is not an internal_transfer.
export interface JettonMint {
  queryId: bigint;
  toAddress: Address | null;
  tonAmount: bigint;
  masterMsg: Cell;
  masterMsgParsed: JettonInternalTransfer | null;
}

export function loadJettonMint(s: Slice): JettonMint {
  const queryId = s.loadUintBig(64);
  const toAddress = loadMsgAddress(s);
  const tonAmount = s.loadCoins();
  const masterMsg = s.loadRef();
  return {
    queryId,
    toAddress,
    tonAmount,
    masterMsg,
    masterMsgParsed: readBody(masterMsg, JETTON_OP.internalTransfer, loadJettonInternalTransfer),
  };
}

// change_admin#6501f354 query_id:uint64 new_admin_address:MsgAddress
export interface JettonChangeAdmin {
  queryId: bigint;
  newAdminAddress: Address | null;
}

export function loadJettonChangeAdmin(s: Slice): JettonChangeAdmin {
  return { queryId: s.loadUintBig(64), newAdminAddress: loadMsgAddress(s) };
}

// change_metadata_uri#cb862902 query_id:uint64 metadata:Cell -- the rest of the body (bits and refs).
export interface JettonChangeMetadataUri {
  queryId: bigint;
  metadata: Cell;
}

export function loadJettonChangeMetadataUri(s: Slice): JettonChangeMetadataUri {
  return { queryId: s.loadUintBig(64), metadata: loadRest(s) };
}

// upgrade#2508d66a query_id:uint64 new_data:^Cell new_code:^Cell
export interface JettonUpgrade {
  queryId: bigint;
  newData: Cell;
  newCode: Cell;
}

export function loadJettonUpgrade(s: Slice): JettonUpgrade {
  return { queryId: s.loadUintBig(64), newData: s.loadRef(), newCode: s.loadRef() };
}

// set_status#eed236d3 query_id:uint64 status:uint4 (governed: master -> wallet)
export interface JettonSetStatus {
  queryId: bigint;
  status: number;
}

export function loadJettonSetStatus(s: Slice): JettonSetStatus {
  return { queryId: s.loadUintBig(64), status: s.loadUint(4) };
}

/** What a governed master forwards in call_to: transfer, burn or set_status. */
export type JettonCallToMessage =
  | ({ type: 'jetton_transfer' } & JettonTransfer)
  | ({ type: 'jetton_burn' } & JettonBurn)
  | ({ type: 'jetton_set_status' } & JettonSetStatus);

// call_to#235caf52 query_id:uint64 to_address:MsgAddressInt ton_amount:Coins master_msg:^(transfer | burn | set_status)
export interface JettonCallTo {
  queryId: bigint;
  toAddress: Address;
  tonAmount: bigint;
  masterMsg: Cell;
  masterMsgParsed: JettonCallToMessage | null;
}

function loadCallToMessage(c: Cell): JettonCallToMessage | null {
  const t = readBody(c, JETTON_OP.transfer, loadJettonTransfer);
  if (t) return { type: 'jetton_transfer', ...t };
  const b = readBody(c, JETTON_OP.burn, loadJettonBurn);
  if (b) return { type: 'jetton_burn', ...b };
  const st = readBody(c, JETTON_OP.setStatus, loadJettonSetStatus);
  return st ? { type: 'jetton_set_status', ...st } : null;
}

export function loadJettonCallTo(s: Slice): JettonCallTo {
  const queryId = s.loadUintBig(64);
  const toAddress = loadMsgAddressInt(s);
  const tonAmount = s.loadCoins();
  const masterMsg = s.loadRef();
  return { queryId, toAddress, tonAmount, masterMsg, masterMsgParsed: loadCallToMessage(masterMsg) };
}

// merkle_airdrop_claim#0df602d6 proof:^Cell = CustomPayload;  (mintless: carried in transfer.custom_payload)
export interface MerkleAirdropClaim {
  /** A MerkleProof exotic cell over the airdrop dictionary (HashMap 267 AirdropItem). */
  proof: Cell;
}

export function loadMerkleAirdropClaim(s: Slice): MerkleAirdropClaim {
  const proof = s.loadRef();
  if (!proof.isExotic) refuse('merkle_airdrop_claim: proof is not an exotic (Merkle proof) cell');
  return { proof };
}

/** A mintless claim from a transfer's custom_payload, or null when it carries none. */
export function airdropClaimOf(customPayload: Cell | null): MerkleAirdropClaim | null {
  return customPayload ? readBody(customPayload, JETTON_OP.merkleAirdropClaim, loadMerkleAirdropClaim) : null;
}

export const JETTON_BODIES = [
  bodyParser('jetton_transfer', JETTON_OP.transfer, loadJettonTransfer),
  bodyParser('jetton_internal_transfer', JETTON_OP.internalTransfer, loadJettonInternalTransfer),
  bodyParser('jetton_notify', JETTON_OP.transferNotification, loadJettonTransferNotification),
  bodyParser('excess', JETTON_OP.excesses, loadQueryOnly),
  bodyParser('jetton_burn', JETTON_OP.burn, loadJettonBurn),
  bodyParser('jetton_burn_notification', JETTON_OP.burnNotification, loadJettonBurnNotification),
  bodyParser('provide_wallet_address', JETTON_OP.provideWalletAddress, loadProvideWalletAddress),
  bodyParser('take_wallet_address', JETTON_OP.takeWalletAddress, loadTakeWalletAddress),
  bodyParser('minter_jetton_mint', JETTON_OP.mintV1, loadJettonMint),
  bodyParser('jetton_mint', JETTON_OP.mint, loadJettonMint),
  bodyParser('jetton_change_admin', JETTON_OP.changeAdmin, loadJettonChangeAdmin),
  bodyParser('jetton_claim_admin', JETTON_OP.claimAdmin, loadQueryOnly),
  bodyParser('jetton_drop_admin', JETTON_OP.dropAdmin, loadQueryOnly),
  bodyParser('jetton_change_metadata', JETTON_OP.changeMetadataUri, loadJettonChangeMetadataUri),
  bodyParser('jetton_upgrade', JETTON_OP.upgrade, loadJettonUpgrade),
  bodyParser('top_up', JETTON_OP.topUp, loadQueryOnly),
  bodyParser('jetton_call_to', JETTON_OP.callTo, loadJettonCallTo),
  bodyParser('jetton_set_status', JETTON_OP.setStatus, loadJettonSetStatus),
  bodyParser('merkle_airdrop_claim', JETTON_OP.merkleAirdropClaim, loadMerkleAirdropClaim),
] as const;
