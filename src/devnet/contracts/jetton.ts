// Typed wrappers of the devnet's jetton contracts (contracts/jetton, TEP-74 + TEP-89, v1-family admin ops):
// message body writers with TL-B field names, storage and StateInit builders, the wallet address derivation,
// and readers of the getters' stacks. Layouts: shared/specs/contracts.md §2.
import {
  type Address,
  type Builder,
  beginCell,
  type Cell,
  contractAddress,
  type StateInit,
  type TupleItem,
  TupleReader,
} from '@ton/core';
import { JETTON_OP } from '../../ton/index.ts';
import { JETTON_MINTER_CODE, JETTON_WALLET_CODE } from './codes.ts';
import { type EitherCellRef, NO_PAYLOAD, storeEitherCellRef } from './payload.ts';

/** Exit codes of contracts/jetton (the v1 reference's numbers). */
export const JETTON_ERROR = {
  notOwner: 705,
  balanceError: 706,
  notFromMinterOrWallet: 707,
  invalidPayload: 708,
  notEnoughTon: 709,
  burnNotEnoughTon: 707,
  notFromAdmin: 73,
  notFromWallet: 74,
  notEnoughGasToDiscover: 75,
  wrongWorkchain: 333,
  wrongOp: 0xffff,
} as const;

/** transfer#0f8a7ea5 */
export interface JettonTransfer {
  queryId: bigint;
  amount: bigint;
  destination: Address;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardTonAmount: bigint;
  forwardPayload: EitherCellRef;
}

export function storeJettonTransfer(v: JettonTransfer) {
  return (b: Builder) => {
    b.storeUint(JETTON_OP.transfer, 32)
      .storeUint(v.queryId, 64)
      .storeCoins(v.amount)
      .storeAddress(v.destination)
      .storeAddress(v.responseDestination)
      .storeMaybeRef(v.customPayload)
      .storeCoins(v.forwardTonAmount)
      .store(storeEitherCellRef(v.forwardPayload));
  };
}

/** internal_transfer#178d4519 (also the master_msg of a mint) */
export interface JettonInternalTransfer {
  queryId: bigint;
  amount: bigint;
  from: Address | null;
  responseAddress: Address | null;
  forwardTonAmount: bigint;
  forwardPayload: EitherCellRef;
}

export function storeJettonInternalTransfer(v: JettonInternalTransfer) {
  return (b: Builder) => {
    b.storeUint(JETTON_OP.internalTransfer, 32)
      .storeUint(v.queryId, 64)
      .storeCoins(v.amount)
      .storeAddress(v.from)
      .storeAddress(v.responseAddress)
      .storeCoins(v.forwardTonAmount)
      .store(storeEitherCellRef(v.forwardPayload));
  };
}

/** transfer_notification#7362d09c */
export interface JettonTransferNotification {
  queryId: bigint;
  amount: bigint;
  sender: Address | null;
  forwardPayload: EitherCellRef;
}

export function storeJettonTransferNotification(v: JettonTransferNotification) {
  return (b: Builder) => {
    b.storeUint(JETTON_OP.transferNotification, 32)
      .storeUint(v.queryId, 64)
      .storeCoins(v.amount)
      .storeAddress(v.sender)
      .store(storeEitherCellRef(v.forwardPayload));
  };
}

/** excesses#d53276db (jettons and NFTs) */
export interface Excesses {
  queryId: bigint;
}

export function storeExcesses(v: Excesses) {
  return (b: Builder) => {
    b.storeUint(JETTON_OP.excesses, 32).storeUint(v.queryId, 64);
  };
}

/** burn#595f07bc */
export interface JettonBurn {
  queryId: bigint;
  amount: bigint;
  responseDestination: Address | null;
  customPayload: Cell | null;
}

export function storeJettonBurn(v: JettonBurn) {
  return (b: Builder) => {
    b.storeUint(JETTON_OP.burn, 32)
      .storeUint(v.queryId, 64)
      .storeCoins(v.amount)
      .storeAddress(v.responseDestination)
      .storeMaybeRef(v.customPayload);
  };
}

/** burn_notification#7bdd97de */
export interface JettonBurnNotification {
  queryId: bigint;
  amount: bigint;
  sender: Address;
  responseDestination: Address | null;
}

export function storeJettonBurnNotification(v: JettonBurnNotification) {
  return (b: Builder) => {
    b.storeUint(JETTON_OP.burnNotification, 32)
      .storeUint(v.queryId, 64)
      .storeCoins(v.amount)
      .storeAddress(v.sender)
      .storeAddress(v.responseDestination);
  };
}

/** provide_wallet_address#2c76b973 (TEP-89) */
export interface ProvideWalletAddress {
  queryId: bigint;
  ownerAddress: Address;
  includeAddress: boolean;
}

export function storeProvideWalletAddress(v: ProvideWalletAddress) {
  return (b: Builder) => {
    b.storeUint(JETTON_OP.provideWalletAddress, 32)
      .storeUint(v.queryId, 64)
      .storeAddress(v.ownerAddress)
      .storeBit(v.includeAddress);
  };
}

/** take_wallet_address#d1735400 (TEP-89) */
export interface TakeWalletAddress {
  queryId: bigint;
  walletAddress: Address | null;
  ownerAddress: Address | null;
}

export function storeTakeWalletAddress(v: TakeWalletAddress) {
  return (b: Builder) => {
    b.storeUint(JETTON_OP.takeWalletAddress, 32)
      .storeUint(v.queryId, 64)
      .storeAddress(v.walletAddress)
      .storeMaybeRef(v.ownerAddress ? beginCell().storeAddress(v.ownerAddress).endCell() : null);
  };
}

/** mint#00000015 query_id to_address ton_amount master_msg:^Cell (master_msg: an internal_transfer body) */
export interface JettonMint {
  queryId: bigint;
  toAddress: Address;
  tonAmount: bigint;
  masterMsg: Cell;
}

export function storeJettonMint(v: JettonMint) {
  return (b: Builder) => {
    b.storeUint(JETTON_OP.mintV1, 32)
      .storeUint(v.queryId, 64)
      .storeAddress(v.toAddress)
      .storeCoins(v.tonAmount)
      .storeRef(v.masterMsg);
  };
}

/** change_admin#00000003 */
export interface JettonChangeAdmin {
  queryId: bigint;
  newAdmin: Address | null;
}

export function storeJettonChangeAdmin(v: JettonChangeAdmin) {
  return (b: Builder) => {
    b.storeUint(JETTON_OP.changeAdminV1, 32).storeUint(v.queryId, 64).storeAddress(v.newAdmin);
  };
}

/** change_content#00000004 */
export interface JettonChangeContent {
  queryId: bigint;
  content: Cell;
}

export function storeJettonChangeContent(v: JettonChangeContent) {
  return (b: Builder) => {
    b.storeUint(JETTON_OP.changeContentV1, 32).storeUint(v.queryId, 64).storeRef(v.content);
  };
}

/** Minter storage: total_supply:Coins admin:MsgAddress content:^Cell wallet_code:^Cell */
export interface JettonMinterData {
  totalSupply: bigint;
  adminAddress: Address | null;
  content: Cell;
  jettonWalletCode: Cell;
}

export function storeJettonMinterData(v: JettonMinterData) {
  return (b: Builder) => {
    b.storeCoins(v.totalSupply).storeAddress(v.adminAddress).storeRef(v.content).storeRef(v.jettonWalletCode);
  };
}

/** Wallet storage: balance:Coins owner:MsgAddressInt master:MsgAddressInt wallet_code:^Cell */
export interface JettonWalletData {
  balance: bigint;
  ownerAddress: Address;
  jettonMasterAddress: Address;
  jettonWalletCode: Cell;
}

export function storeJettonWalletData(v: JettonWalletData) {
  return (b: Builder) => {
    b.storeCoins(v.balance)
      .storeAddress(v.ownerAddress)
      .storeAddress(v.jettonMasterAddress)
      .storeRef(v.jettonWalletCode);
  };
}

/** A new minter's StateInit (zero supply unless given) with our wallet code. */
export function jettonMinterStateInit(v: {
  adminAddress: Address | null;
  content: Cell;
  totalSupply?: bigint;
  jettonWalletCode?: Cell;
}): StateInit {
  const data = beginCell()
    .store(
      storeJettonMinterData({
        totalSupply: v.totalSupply ?? 0n,
        adminAddress: v.adminAddress,
        content: v.content,
        jettonWalletCode: v.jettonWalletCode ?? JETTON_WALLET_CODE,
      }),
    )
    .endCell();
  return { code: JETTON_MINTER_CODE, data };
}

export function jettonWalletStateInit(
  jettonMasterAddress: Address,
  ownerAddress: Address,
  jettonWalletCode: Cell = JETTON_WALLET_CODE,
): StateInit {
  const data = beginCell()
    .store(storeJettonWalletData({ balance: 0n, ownerAddress, jettonMasterAddress, jettonWalletCode }))
    .endCell();
  return { code: jettonWalletCode, data };
}

/** The owner's wallet address as the minter's get_wallet_address derives it (basechain). */
export function jettonWalletAddress(
  jettonMasterAddress: Address,
  ownerAddress: Address,
  jettonWalletCode: Cell = JETTON_WALLET_CODE,
): Address {
  return contractAddress(0, jettonWalletStateInit(jettonMasterAddress, ownerAddress, jettonWalletCode));
}

/** get_jetton_data() */
export interface JettonDataResult {
  totalSupply: bigint;
  mintable: boolean;
  adminAddress: Address | null;
  jettonContent: Cell;
  jettonWalletCode: Cell;
}

export function readJettonData(stack: TupleItem[]): JettonDataResult {
  const r = new TupleReader(stack);
  return {
    totalSupply: r.readBigNumber(),
    mintable: r.readBoolean(),
    adminAddress: r.readAddressOpt(),
    jettonContent: r.readCell(),
    jettonWalletCode: r.readCell(),
  };
}

/** get_wallet_data() */
export interface JettonWalletDataResult {
  balance: bigint;
  ownerAddress: Address;
  jettonMasterAddress: Address;
  jettonWalletCode: Cell;
}

export function readJettonWalletData(stack: TupleItem[]): JettonWalletDataResult {
  const r = new TupleReader(stack);
  return {
    balance: r.readBigNumber(),
    ownerAddress: r.readAddress(),
    jettonMasterAddress: r.readAddress(),
    jettonWalletCode: r.readCell(),
  };
}

/** Arguments of get_wallet_address(slice owner_address). */
export function getWalletAddressArgs(ownerAddress: Address): TupleItem[] {
  return [{ type: 'slice', cell: beginCell().storeAddress(ownerAddress).endCell() }];
}

/** get_wallet_address(owner) -> slice */
export function readJettonWalletAddress(stack: TupleItem[]): Address {
  return new TupleReader(stack).readAddress();
}

/** A transfer with the usual defaults: no custom payload, no forward payload. */
export function jettonTransfer(
  v: Pick<JettonTransfer, 'queryId' | 'amount' | 'destination' | 'responseDestination'> & Partial<JettonTransfer>,
): JettonTransfer {
  return { customPayload: null, forwardTonAmount: 0n, forwardPayload: NO_PAYLOAD, ...v };
}
