// Typed wrappers of the devnet's governed jetton (contracts/jetton-governed, the stablecoin's interface: TEP-74 +
// TEP-89 + mint 0x642b7d07, two-step admin hand-over, call_to, set_status): admin message writers, storage and
// StateInit builders, the wallet address derivation, and getter readers. The TEP-74 core messages (transfer,
// internal_transfer, burn, ...) are the ones in jetton.ts. Layouts: shared/specs/contracts.md §2.
import {
  type Address,
  type Builder,
  beginCell,
  Cell,
  contractAddress,
  type StateInit,
  type TupleItem,
  TupleReader,
} from '@ton/core';
import { JETTON_OP } from '../../ton/index.ts';
import { JETTON_GOVERNED_MINTER_CODE_BOC } from './jetton-governed-minter.compiled.ts';
import { JETTON_GOVERNED_WALLET_CODE_BOC } from './jetton-governed-wallet.compiled.ts';
import { snakeText } from './payload.ts';

export const JETTON_GOVERNED_MINTER_CODE: Cell = Cell.fromBase64(JETTON_GOVERNED_MINTER_CODE_BOC);
export const JETTON_GOVERNED_WALLET_CODE: Cell = Cell.fromBase64(JETTON_GOVERNED_WALLET_CODE_BOC);

/** The governed minter's admin ops: JETTON_OP's v2 numbers. */
export const GOVERNED_JETTON_OP = {
  mint: JETTON_OP.mint,
  changeAdmin: JETTON_OP.changeAdmin,
  claimAdmin: JETTON_OP.claimAdmin,
  callTo: JETTON_OP.callTo,
  setStatus: JETTON_OP.setStatus,
  changeMetadataUri: JETTON_OP.changeMetadataUri,
  upgrade: JETTON_OP.upgrade,
  topUp: JETTON_OP.topUp,
} as const;

/** Exit codes of contracts/jetton-governed (the stablecoin reference's numbers). */
export const GOVERNED_JETTON_ERROR = {
  contractLocked: 45,
  balanceError: 47,
  notEnoughGas: 48,
  invalidMessage: 49,
  invalidOp: 72,
  notOwner: 73,
  notValidWallet: 74,
  wrongWorkchain: 333,
  wrongOp: 0xffff,
} as const;

/** Wallet status bits (get_status): the owner cannot send, the wallet cannot receive. */
export const GOVERNED_STATUS = { cannotSend: 1, cannotReceive: 2 } as const;

/** The decimals the governed minter advertises in its content (the stablecoin's "6"). */
export const GOVERNED_JETTON_DECIMALS = 6;

/** mint#642b7d07 query_id to_address:MsgAddressInt ton_amount:Coins master_msg:^InternalTransfer */
export interface GovernedMint {
  queryId: bigint;
  toAddress: Address;
  tonAmount: bigint;
  /** An internal_transfer body (storeJettonInternalTransfer). */
  masterMsg: Cell;
}

export function storeGovernedMint(v: GovernedMint) {
  return (b: Builder) => {
    b.storeUint(GOVERNED_JETTON_OP.mint, 32)
      .storeUint(v.queryId, 64)
      .storeAddress(v.toAddress)
      .storeCoins(v.tonAmount)
      .storeRef(v.masterMsg);
  };
}

/** change_admin#6501f354 query_id new_admin_address:MsgAddress (sets next_admin; the new admin claims). */
export function storeGovernedChangeAdmin(v: { queryId: bigint; newAdmin: Address | null }) {
  return (b: Builder) => {
    b.storeUint(GOVERNED_JETTON_OP.changeAdmin, 32).storeUint(v.queryId, 64).storeAddress(v.newAdmin);
  };
}

/** claim_admin#fb88e119 query_id */
export function storeGovernedClaimAdmin(v: { queryId: bigint }) {
  return (b: Builder) => {
    b.storeUint(GOVERNED_JETTON_OP.claimAdmin, 32).storeUint(v.queryId, 64);
  };
}

/**
 * call_to#235caf52 query_id to_address:MsgAddressInt ton_amount:Coins master_msg:^(transfer | burn | set_status):
 * the master sends master_msg to the wallet of `toAddress` (the holder) with `tonAmount`.
 */
export interface GovernedCallTo {
  queryId: bigint;
  toAddress: Address;
  tonAmount: bigint;
  masterMsg: Cell;
}

export function storeGovernedCallTo(v: GovernedCallTo) {
  return (b: Builder) => {
    b.storeUint(GOVERNED_JETTON_OP.callTo, 32)
      .storeUint(v.queryId, 64)
      .storeAddress(v.toAddress)
      .storeCoins(v.tonAmount)
      .storeRef(v.masterMsg);
  };
}

/** set_status#eed236d3 query_id status:uint4 (master -> wallet, inside call_to) */
export function storeGovernedSetStatus(v: { queryId: bigint; status: number }) {
  return (b: Builder) => {
    b.storeUint(GOVERNED_JETTON_OP.setStatus, 32).storeUint(v.queryId, 64).storeUint(v.status, 4);
  };
}

/** change_metadata_uri#cb862902 query_id metadata: the rest of the body (snake bytes) becomes metadata_uri. */
export function storeGovernedChangeMetadataUri(v: { queryId: bigint; uri: string }) {
  return (b: Builder) => {
    b.storeUint(GOVERNED_JETTON_OP.changeMetadataUri, 32).storeUint(v.queryId, 64).storeStringTail(v.uri);
  };
}

/** upgrade#2508d66a query_id new_data:^Cell new_code:^Cell */
export function storeGovernedUpgrade(v: { queryId: bigint; newData: Cell; newCode: Cell }) {
  return (b: Builder) => {
    b.storeUint(GOVERNED_JETTON_OP.upgrade, 32).storeUint(v.queryId, 64).storeRef(v.newData).storeRef(v.newCode);
  };
}

/** top_up#d372158c query_id (minter and wallets) */
export function storeGovernedTopUp(v: { queryId: bigint }) {
  return (b: Builder) => {
    b.storeUint(GOVERNED_JETTON_OP.topUp, 32).storeUint(v.queryId, 64);
  };
}

/** Minter storage: total_supply:Coins admin:MsgAddress next_admin:MsgAddress wallet_code:^Cell metadata_uri:^Cell */
export interface GovernedMinterData {
  totalSupply: bigint;
  adminAddress: Address | null;
  nextAdminAddress: Address | null;
  jettonWalletCode: Cell;
  /** The metadata URI as snake bytes without a prefix. */
  metadataUri: Cell;
}

export function storeGovernedMinterData(v: GovernedMinterData) {
  return (b: Builder) => {
    b.storeCoins(v.totalSupply)
      .storeAddress(v.adminAddress)
      .storeAddress(v.nextAdminAddress)
      .storeRef(v.jettonWalletCode)
      .storeRef(v.metadataUri);
  };
}

/** Wallet storage: status:uint4 balance:Coins owner:MsgAddressInt master:MsgAddressInt */
export interface GovernedWalletData {
  status: number;
  balance: bigint;
  ownerAddress: Address;
  jettonMasterAddress: Address;
}

export function storeGovernedWalletData(v: GovernedWalletData) {
  return (b: Builder) => {
    b.storeUint(v.status, 4).storeCoins(v.balance).storeAddress(v.ownerAddress).storeAddress(v.jettonMasterAddress);
  };
}

/** A new governed minter's StateInit (zero supply, no pending admin) with our wallet code. */
export function governedMinterStateInit(v: {
  adminAddress: Address | null;
  metadataUri: string;
  jettonWalletCode?: Cell;
}): StateInit {
  const data = beginCell()
    .store(
      storeGovernedMinterData({
        totalSupply: 0n,
        adminAddress: v.adminAddress,
        nextAdminAddress: null,
        jettonWalletCode: v.jettonWalletCode ?? JETTON_GOVERNED_WALLET_CODE,
        metadataUri: snakeText(v.metadataUri),
      }),
    )
    .endCell();
  return { code: JETTON_GOVERNED_MINTER_CODE, data };
}

export function governedWalletStateInit(
  jettonMasterAddress: Address,
  ownerAddress: Address,
  jettonWalletCode: Cell = JETTON_GOVERNED_WALLET_CODE,
): StateInit {
  const data = beginCell()
    .store(storeGovernedWalletData({ status: 0, balance: 0n, ownerAddress, jettonMasterAddress }))
    .endCell();
  return { code: jettonWalletCode, data };
}

/** The holder's wallet address as the minter's get_wallet_address derives it (basechain). */
export function governedWalletAddress(
  jettonMasterAddress: Address,
  ownerAddress: Address,
  jettonWalletCode: Cell = JETTON_GOVERNED_WALLET_CODE,
): Address {
  return contractAddress(0, governedWalletStateInit(jettonMasterAddress, ownerAddress, jettonWalletCode));
}

/** get_status() -> int (GOVERNED_STATUS bits) */
export function readGovernedStatus(stack: TupleItem[]): number {
  return new TupleReader(stack).readNumber();
}

/** get_next_admin_address() -> slice (addr_none when no hand-over is pending) */
export function readNextAdminAddress(stack: TupleItem[]): Address | null {
  return new TupleReader(stack).readAddressOpt();
}
