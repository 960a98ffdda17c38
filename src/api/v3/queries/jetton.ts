// The jetton_masters, jetton_wallets, jetton_transfers and jetton_burns columns v3's jetton reads select
// (render/jetton.ts turns the rows into JSON).

export const JETTON_MASTER_COLUMNS = `J.id, J.address, J.total_supply, J.mintable, J.admin_address, J.jetton_content,
  J.jetton_wallet_code_hash, J.code_hash, J.data_hash, J.last_transaction_lt`;

/** The wallet columns with the airdrop API URIs of its mintless master (LEFT JOIN mintless_jetton_masters MJM). */
export const JETTON_WALLET_COLUMNS = `J.id, J.address, J.balance, J.owner, J.jetton, J.last_transaction_lt, J.code_hash,
  J.data_hash, J.mintless_is_claimed, J.mintless_amount, J.mintless_start_from, J.mintless_expire_at,
  MJM.custom_payload_api_uri`;

export const JETTON_TRANSFER_COLUMNS = `T.tx_hash, T.tx_lt, T.tx_now, T.tx_aborted, T.query_id, T.amount, T.source,
  T.destination, T.jetton_wallet_address, T.jetton_master_address, T.response_destination, T.custom_payload,
  T.forward_ton_amount, T.forward_payload, T.trace_id`;

export const JETTON_BURN_COLUMNS = `T.tx_hash, T.tx_lt, T.tx_now, T.tx_aborted, T.query_id, T.owner,
  T.jetton_wallet_address, T.jetton_master_address, T.amount, T.response_destination, T.custom_payload, T.trace_id`;
