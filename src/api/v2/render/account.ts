// Account answers of toncenter v2 as the 2.1 (C++) server writes them (ton-http-api-cpp converters/accounts.hpp,
// schemas/v2.yaml): raw.fullAccountState (getAddressInformation), fullAccountState (getExtendedAddressInformation,
// tonlib's wallet detection), ext.accounts.walletInformation (getWalletInformation, detection by code hash, v2-api.md
// §8). int64 values are decimal strings, int32 values numbers, hashes and BoCs standard base64; balances never
// negative. Code and data BoCs are serialised as tonlib serialises them (src/ton/stack formatBocBase64).
import type { Cell } from '@ton/core';
import { formatBocBase64, formatFriendlyAddress, knownWalletCode, parseAddress } from '../../../ton/index.ts';
import type { AccountAt } from '../chain-reads.ts';
import { tonBlockIdExt } from './block.ts';
import { transactionIdJson } from './transaction.ts';

export interface ExtraCurrencyV2 {
  '@type': 'extraCurrency';
  id: number;
  amount: string;
}

export function extraCurrenciesV2(m: Map<number, bigint>): ExtraCurrencyV2[] {
  return [...m]
    .sort(([a], [b]) => a - b)
    .map(([id, amount]) => ({ '@type': 'extraCurrency', id, amount: amount.toString() }));
}

function boc(c: Cell | null): string {
  return c === null ? '' : formatBocBase64(c);
}

function hashB64(h: Buffer | null): string {
  return h === null ? '' : h.toString('base64');
}

/** getAddressInformation. */
export function rawFullAccountStateV2(a: AccountAt, suspended: boolean) {
  return {
    '@type': 'raw.fullAccountState' as const,
    balance: a.balance.toString(),
    extra_currencies: extraCurrenciesV2(a.extraCurrencies),
    code: boc(a.code),
    data: boc(a.data),
    last_transaction_id: transactionIdJson(a.lastTransLt, a.lastTransHash),
    block_id: tonBlockIdExt(a.block),
    frozen_hash: hashB64(a.frozenHash),
    sync_utime: a.syncUtime,
    state: a.status,
    suspended,
  };
}

/** The wallet fields C++ reads from data with signed fetches (DecodeWalletV1Data/V3Data/V5Data). */
function walletFields(kind: string, data: Cell): Record<string, unknown> | null {
  const s = data.beginParse();
  try {
    if (kind === 'seqno') return { seqno: s.loadInt(32) };
    if (kind === 'seqno_id') return { seqno: s.loadInt(32), wallet_id: s.loadInt(32) };
    if (kind === 'v5') {
      const isSignatureAllowed = s.loadBit();
      return { seqno: s.loadInt(32), wallet_id: s.loadInt(32), is_signature_allowed: isSignatureAllowed };
    }
  } catch {
    // Data too short for the layout its code implies: not a wallet we can read.
  }
  return null;
}

/** getWalletInformation: `wallet: false` (and no wallet fields) unless the code is one of v1r1…v5r1. */
export function walletInformationV2(a: AccountAt) {
  const base = {
    '@type': 'ext.accounts.walletInformation' as const,
    wallet: false,
    balance: a.balance.toString(),
    account_state: a.status,
    last_transaction_id: transactionIdJson(a.lastTransLt, a.lastTransHash),
  };
  const known = a.code ? knownWalletCode(a.code.hash()) : undefined;
  if (!known?.v2Type || a.data === null) return base;
  const fields = walletFields(known.data, a.data);
  if (fields === null) return base;
  return { ...base, wallet: true, wallet_type: known.v2Type, ...fields };
}

// tonlib's own wallet detection for getExtendedAddressInformation (AccountState::guess_type with the code hashes of
// smc-envelope/SmartContractCode.cpp): the legacy set only; v5 and everything else is raw.accountState.
const TONLIB_CODES = new Map<string, { type: string; revision: number; data: 'seqno_id' | 'id_only' }>([
  [
    'b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581',
    { type: 'wallet.v3.accountState', revision: 1, data: 'seqno_id' },
  ],
  [
    '84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599',
    { type: 'wallet.v3.accountState', revision: 2, data: 'seqno_id' },
  ],
  [
    'feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0',
    { type: 'wallet.v4.accountState', revision: 2, data: 'seqno_id' },
  ],
  [
    'd8cdbbb79f2c5caa677ac450770be0351be21e1250486de85cc52aa33dd16484',
    { type: 'wallet.highload.v1.accountState', revision: 1, data: 'seqno_id' },
  ],
  [
    '368c03972e5f4c24412b818652de1de2a2630d1c011609999dff745fb36849ad',
    { type: 'wallet.highload.v1.accountState', revision: 2, data: 'seqno_id' },
  ],
  [
    '8ceb45b3cd4b5cc60eaae1c13b9c092392677fe536b2e9b2d801b62eff931fe1',
    { type: 'wallet.highload.v2.accountState', revision: 1, data: 'id_only' },
  ],
  [
    '0b3a887aeacd2a7d40bb5550bc9253156a029065aefb6d6b583735d58da9d5be',
    { type: 'wallet.highload.v2.accountState', revision: 2, data: 'id_only' },
  ],
]);

function extendedState(a: AccountAt): { state: Record<string, unknown>; revision: number } {
  if (a.code === null) {
    return { state: { '@type': 'uninited.accountState', frozen_hash: hashB64(a.frozenHash) }, revision: 0 };
  }
  const raw = {
    state: { '@type': 'raw.accountState', code: boc(a.code), data: boc(a.data), frozen_hash: hashB64(a.frozenHash) },
    revision: 0,
  };
  const known = TONLIB_CODES.get(a.code.hash().toString('hex'));
  if (!known || a.data === null) return raw;
  // tonlib reads these as uint32 (static_cast<td::uint32> in to_wallet_*_accountState).
  const s = a.data.beginParse();
  try {
    if (known.data === 'id_only')
      return { state: { '@type': known.type, wallet_id: s.loadUint(32) }, revision: known.revision };
    const seqno = s.loadUint(32);
    return { state: { '@type': known.type, wallet_id: s.loadUint(32), seqno }, revision: known.revision };
  } catch {
    return raw;
  }
}

/**
 * getExtendedAddressInformation. `address` echoes the input as tonlib re-serialises it (user-friendly, url-safe,
 * the input's flags; a raw input is bounceable).
 */
export function fullAccountStateV2(a: AccountAt, addressText: string, testnet: boolean) {
  const p = parseAddress(addressText);
  const { state, revision } = extendedState(a);
  return {
    '@type': 'fullAccountState' as const,
    address: {
      '@type': 'accountAddress' as const,
      account_address: formatFriendlyAddress(p.address, {
        bounceable: p.bounceable,
        testOnly: p.testOnly || (p.givenType === 'raw_form' && testnet),
        urlSafe: true,
      }),
    },
    balance: a.balance.toString(),
    extra_currencies: extraCurrenciesV2(a.extraCurrencies),
    last_transaction_id: transactionIdJson(a.lastTransLt, a.lastTransHash),
    block_id: tonBlockIdExt(a.block),
    sync_utime: a.syncUtime,
    account_state: state,
    revision,
  };
}
