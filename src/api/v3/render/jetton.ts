// jetton_masters, jetton_wallets, jetton_transfers and jetton_burns rows as v3 JSON (v3-api.md §3.4, ton-index-go
// models/jetton.go): keys in toncenter's order, addresses raw, numeric columns and lts as strings, transaction_now a
// number, nullable columns JSON null; decoded_* payloads through the message-body decoder (render/payload.ts).
import type { Row } from '../sql-query.ts';
import { decodedPayload } from './payload.ts';
import { num, str } from './values.ts';

export function jettonMasterJson(r: Row): Record<string, unknown> {
  return {
    address: r.address,
    total_supply: str(r.total_supply),
    mintable: r.mintable,
    admin_address: r.admin_address ?? null,
    jetton_content: r.jetton_content ?? null,
    jetton_wallet_code_hash: r.jetton_wallet_code_hash,
    code_hash: r.code_hash,
    data_hash: r.data_hash,
    last_transaction_lt: str(r.last_transaction_lt),
  };
}

/**
 * mintless_info only for a mintless wallet that has not claimed and whose airdrop amount is known (toncenter's
 * rule); custom_payload_api_uri null when the master has no mintless_jetton_masters row.
 */
function mintlessInfo(r: Row): Record<string, unknown> | undefined {
  if (r.mintless_is_claimed !== false || r.mintless_amount === null || r.mintless_amount === undefined) return;
  return {
    amount: str(r.mintless_amount),
    start_from: num(r.mintless_start_from),
    expire_at: num(r.mintless_expire_at),
    custom_payload_api_uri: r.custom_payload_api_uri ?? null,
  };
}

export function jettonWalletJson(r: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {
    address: r.address,
    balance: str(r.balance),
    owner: r.owner,
    jetton: r.jetton,
    last_transaction_lt: str(r.last_transaction_lt),
    code_hash: r.code_hash ?? null,
    data_hash: r.data_hash ?? null,
  };
  const mintless = mintlessInfo(r);
  if (mintless) out.mintless_info = mintless;
  return out;
}

export function jettonTransferJson(r: Row): Record<string, unknown> {
  return {
    query_id: str(r.query_id),
    source: r.source ?? null,
    destination: r.destination ?? null,
    amount: str(r.amount),
    source_wallet: r.jetton_wallet_address,
    jetton_master: r.jetton_master_address ?? null,
    transaction_hash: r.tx_hash,
    transaction_lt: str(r.tx_lt),
    transaction_now: num(r.tx_now),
    transaction_aborted: r.tx_aborted,
    response_destination: r.response_destination ?? null,
    custom_payload: r.custom_payload ?? null,
    decoded_custom_payload: decodedPayload(r.custom_payload),
    forward_ton_amount: str(r.forward_ton_amount),
    forward_payload: r.forward_payload ?? null,
    decoded_forward_payload: decodedPayload(r.forward_payload),
    trace_id: r.trace_id ?? null,
  };
}

export function jettonBurnJson(r: Row): Record<string, unknown> {
  return {
    query_id: str(r.query_id),
    owner: r.owner ?? null,
    jetton_wallet: r.jetton_wallet_address,
    jetton_master: r.jetton_master_address ?? null,
    transaction_hash: r.tx_hash,
    transaction_lt: str(r.tx_lt),
    transaction_now: num(r.tx_now),
    transaction_aborted: r.tx_aborted,
    amount: str(r.amount),
    response_destination: r.response_destination ?? null,
    custom_payload: r.custom_payload ?? null,
    decoded_custom_payload: decodedPayload(r.custom_payload),
    trace_id: r.trace_id ?? null,
  };
}

/** The addresses toncenter puts in the address_book and metadata of each list (ton-index-go crud_jettons.go). */
export const jettonAddresses = {
  master: (r: Row) => [r.address, r.admin_address],
  wallet: (r: Row) => [r.address, r.owner, r.jetton],
  transfer: (r: Row) => [
    r.source,
    r.destination,
    r.jetton_wallet_address,
    r.jetton_master_address,
    r.response_destination,
  ],
  burn: (r: Row) => [r.owner, r.jetton_wallet_address, r.jetton_master_address, r.response_destination],
} satisfies Record<string, (r: Row) => unknown[]>;
