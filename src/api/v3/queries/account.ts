// The account_states columns v3's account reads select (render/account.ts turns the rows into JSON).

/** The columns every account renderer reads; `data_boc` is selected as NULL when BoCs are not wanted. */
export const ACCOUNT_STATE_COLUMNS = `account, hash, balance, balance_extra_currencies, account_status, frozen_hash,
  last_trans_hash, last_trans_lt, data_hash, code_hash, code_boc`;
