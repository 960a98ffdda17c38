import { cellFromBase64, createContractMethodsCache } from '../../../ton/index.ts';
import { detectInterfaces } from '../interfaces.ts';
import type { Row } from '../sql-query.ts';
import type { WalletFields } from '../wallet-state.ts';

export interface AccountStateRow {
  account: string;
  hash: string;
  balance: bigint;
  balance_extra_currencies: Record<string, unknown> | null;
  account_status: string;
  frozen_hash: string | null;
  last_trans_hash: string;
  last_trans_lt: bigint;
  data_hash: string | null;
  code_hash: string | null;
  data_boc: string | null;
  code_boc: string | null;
}

export function asAccountStateRow(r: Row): AccountStateRow {
  return r as unknown as AccountStateRow;
}

/** {"<currency id>": "<amount>"}: amounts as strings whatever the JSON held. */
export function extraCurrencies(v: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, amount] of Object.entries(v ?? {})) out[k] = String(amount);
  return out;
}

const methodsByCode = createContractMethodsCache();

/** contract_methods for the row's code (null without code, or when the code has no method dictionary). */
function contractMethods(r: AccountStateRow): number[] | null {
  if (r.code_hash === null || r.code_boc === null) return null;
  const boc = r.code_boc;
  return methodsByCode.get(r.code_hash, () => {
    try {
      return cellFromBase64(boc);
    } catch {
      return null;
    }
  });
}

/** Interfaces of the row's code: exact code hash, else its get-method ids (interfaces.ts, as the address book). */
export function interfacesOf(r: AccountStateRow): string[] {
  return detectInterfaces(r.code_hash, contractMethods(r));
}

/** AccountStateFull. `includeBoc` false leaves out data_boc and code_boc (toncenter selects them as NULL). */
export function accountStateJson(r: AccountStateRow, includeBoc: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    address: r.account,
    account_state_hash: r.hash,
    balance: String(r.balance),
    extra_currencies: extraCurrencies(r.balance_extra_currencies),
    status: r.account_status,
  };
  if (r.frozen_hash !== null) out.frozen_hash = r.frozen_hash;
  out.last_transaction_hash = r.last_trans_hash;
  out.last_transaction_lt = String(r.last_trans_lt);
  if (r.data_hash !== null) out.data_hash = r.data_hash;
  if (r.code_hash !== null) out.code_hash = r.code_hash;
  if (includeBoc && r.data_boc !== null) out.data_boc = r.data_boc;
  if (includeBoc && r.code_boc !== null) out.code_boc = r.code_boc;
  out.contract_methods = contractMethods(r);
  out.interfaces = interfacesOf(r);
  return out;
}

/** WalletState: the wallet fields when `wallet` is set, else is_wallet false with the account fields only. */
export function walletStateJson(r: AccountStateRow, wallet: WalletFields | null): Record<string, unknown> {
  const out: Record<string, unknown> = { address: r.account, is_wallet: wallet !== null };
  if (wallet) {
    out.wallet_type = wallet.walletType;
    out.seqno = wallet.seqno;
    if (wallet.walletId !== undefined) out.wallet_id = wallet.walletId;
  }
  out.balance = String(r.balance);
  // omitempty in toncenter's WalletState: an empty map is left out (unlike AccountStateFull's).
  const extra = extraCurrencies(r.balance_extra_currencies);
  if (Object.keys(extra).length > 0) out.extra_currencies = extra;
  if (wallet?.isSignatureAllowed !== undefined) out.is_signature_allowed = wallet.isSignatureAllowed;
  out.status = r.account_status;
  if (r.code_hash !== null) out.code_hash = r.code_hash;
  out.last_transaction_hash = r.last_trans_hash;
  out.last_transaction_lt = String(r.last_trans_lt);
  return out;
}

/** AccountBalance. */
export function accountBalanceJson(r: { account: string; balance: bigint }): { account: string; balance: string } {
  return { account: r.account, balance: String(r.balance) };
}
