// The answers of v3's v2-style methods (v3-api.md §3.11), shaped as toncenter's ton-index-go writes them (models
// V2AddressInformation, V2WalletInformation, V2EstimateFeeResult; keys in its struct order). Each is built either
// from our index (latest_account_states, toncenter's default) or, with use_v2, from our v2 answer the way
// toncenter's proxy reads ton-http-api's JSON: empty strings ("" code, data, frozen_hash) become null, the
// status is v2's state word ("uninitialized" rather than "uninit").
import type { FeesV2, QueryFeesV2, rawFullAccountStateV2, walletInformationV2 } from '../../v2/shared.ts';
import type { WalletFields } from '../wallet-state.ts';
import type { AccountStateRow } from './account.ts';

/** toncenter's last_transaction_hash of an account the index has never seen (32 zero bytes). */
export const ZERO_HASH = Buffer.alloc(32).toString('base64');

export interface AddressInformationJson {
  balance: string;
  code: string | null;
  data: string | null;
  last_transaction_lt: string;
  last_transaction_hash: string;
  frozen_hash: string | null;
  status: string;
}

export interface WalletInformationJson {
  balance: string;
  wallet_type?: string;
  seqno?: number;
  wallet_id?: number;
  last_transaction_lt: string;
  last_transaction_hash: string;
  status: string;
}

export interface EstimatedFeeJson {
  in_fwd_fee: number;
  storage_fee: number;
  gas_fee: number;
  fwd_fee: number;
}

export interface EstimateFeeJson {
  source_fees: EstimatedFeeJson;
  destination_fees: EstimatedFeeJson[];
}

/**
 * An account the index does not hold: toncenter answers it as an empty uninit account rather than 404 (an address
 * that never received anything is a valid, empty account).
 */
export function unknownAccountInformation(): AddressInformationJson {
  return {
    balance: '0',
    code: null,
    data: null,
    last_transaction_lt: '0',
    last_transaction_hash: ZERO_HASH,
    frozen_hash: null,
    status: 'uninit',
  };
}

/**
 * /addressInformation from the row. toncenter's converter never copies frozen_hash (always null); ours gives a
 * frozen account's hash, as the use_v2 answer does for the same account.
 */
export function addressInformationFromRow(r: AccountStateRow): AddressInformationJson {
  return {
    balance: String(r.balance),
    code: r.code_boc,
    data: r.data_boc,
    last_transaction_lt: String(r.last_trans_lt),
    last_transaction_hash: r.last_trans_hash,
    frozen_hash: r.frozen_hash,
    status: r.account_status,
  };
}

const orNull = (s: string): string | null => (s === '' ? null : s);

/** /addressInformation?use_v2=true from our v2 getAddressInformation answer. */
export function addressInformationFromV2(v2: ReturnType<typeof rawFullAccountStateV2>): AddressInformationJson {
  return {
    balance: v2.balance,
    code: orNull(v2.code),
    data: orNull(v2.data),
    last_transaction_lt: v2.last_transaction_id.lt,
    last_transaction_hash: v2.last_transaction_id.hash,
    frozen_hash: orNull(v2.frozen_hash),
    status: v2.state,
  };
}

/** /walletInformation for an account the index does not hold (as /addressInformation's empty account). */
export function unknownWalletInformation(): WalletInformationJson {
  return { balance: '0', last_transaction_lt: '0', last_transaction_hash: ZERO_HASH, status: 'uninit' };
}

/**
 * /walletInformation from the row and its parsed wallet fields; null when toncenter answers 409 "not a wallet":
 * neither one of the 11 wallet codes nor an uninit account (where a wallet may yet be deployed).
 */
export function walletInformationFromRow(
  r: AccountStateRow,
  wallet: WalletFields | null,
): WalletInformationJson | null {
  if (wallet === null && r.account_status !== 'uninit') return null;
  return {
    balance: String(r.balance),
    ...(wallet ? { wallet_type: wallet.walletType, seqno: wallet.seqno } : {}),
    ...(wallet?.walletId !== undefined ? { wallet_id: wallet.walletId } : {}),
    last_transaction_lt: String(r.last_trans_lt),
    last_transaction_hash: r.last_trans_hash,
    status: r.account_status,
  };
}

/** /walletInformation?use_v2=true from our v2 getWalletInformation answer; null for toncenter's 409. */
export function walletInformationFromV2(v2: ReturnType<typeof walletInformationV2>): WalletInformationJson | null {
  if (!v2.wallet && v2.account_state !== 'uninitialized') return null;
  // The wallet fields are present only for recognised wallets (and wallet_id only for layouts that have one).
  const { wallet_type, seqno, wallet_id } = v2 as Record<string, unknown>;
  return {
    balance: v2.balance,
    ...(typeof wallet_type === 'string' && wallet_type !== '' ? { wallet_type } : {}),
    ...(typeof seqno === 'number' ? { seqno } : {}),
    ...(typeof wallet_id === 'number' ? { wallet_id } : {}),
    last_transaction_lt: v2.last_transaction_id.lt,
    last_transaction_hash: v2.last_transaction_id.hash,
    status: v2.account_state,
  };
}

function feeJson(f: FeesV2): EstimatedFeeJson {
  return { in_fwd_fee: f.in_fwd_fee, storage_fee: f.storage_fee, gas_fee: f.gas_fee, fwd_fee: f.fwd_fee };
}

/** /estimateFee: v2's query.fees without the tonlib "@type" tags. */
export function estimateFeeJson(fees: QueryFeesV2): EstimateFeeJson {
  return { source_fees: feeJson(fees.source_fees), destination_fees: fees.destination_fees.map(feeJson) };
}
