// multisig and multisig_orders rows as v3 Multisig and MultisigOrder objects (v3-api.md §3.7, toncenter's
// models.Multisig / models.MultisigOrder): seqnos and the approvals mask (256-bit) as decimal strings,
// threshold, approvals and expiry as JSON numbers, signer lists as raw addresses in index order.
import type { Row } from '../sql-query.ts';
import { num, str } from './values.ts';

function addresses(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((a): a is string => typeof a === 'string') : [];
}

/** MultisigOrder; `actions` are the parsed order (parse_actions) or empty. */
export function orderJson(r: Row, actions: unknown[] = []): Record<string, unknown> {
  return {
    address: r.address,
    multisig_address: r.multisig_address,
    order_seqno: str(r.order_seqno),
    threshold: num(r.threshold),
    sent_for_execution: r.sent_for_execution ?? null,
    approvals_mask: str(r.approvals_mask),
    approvals_num: num(r.approvals_num),
    expiration_date: num(r.expiration_date),
    order_boc: r.order_boc ?? null,
    signers: addresses(r.signers),
    last_transaction_lt: String(r.last_transaction_lt),
    code_hash: r.code_hash,
    data_hash: r.data_hash,
    actions,
  };
}

/** Multisig with the given orders (empty when include_orders is false or the wallet has none). */
export function multisigJson(r: Row, orders: Record<string, unknown>[]): Record<string, unknown> {
  return {
    address: r.address,
    next_order_seqno: str(r.next_order_seqno),
    threshold: num(r.threshold),
    signers: addresses(r.signers),
    proposers: addresses(r.proposers),
    last_transaction_lt: String(r.last_transaction_lt),
    code_hash: r.code_hash,
    data_hash: r.data_hash,
    orders,
  };
}

/** Addresses an order row puts in the address book: the order, its multisig and its signers. */
export function orderAddresses(r: Row): string[] {
  return addresses([r.address, r.multisig_address, ...addresses(r.signers)]);
}

/** Addresses a multisig row puts in the address book: the wallet, its signers and proposers. */
export function multisigAddresses(r: Row): string[] {
  return addresses([r.address, ...addresses(r.signers), ...addresses(r.proposers)]);
}
