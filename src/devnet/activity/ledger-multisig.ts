// The ledger of the multisig v2 family: what the activity deployed and did, i.e. what get_multisig_data and
// get_order_data should show (and the multisig / multisig_orders rows should hold) after its steps.
import type { Address } from '@ton/core';

export interface LedgerMultisigOrder {
  /** The step that proposed it. */
  step: number;
  seqno: bigint;
  address: Address;
  /** The signer that proposed it (its proposal is its approval). */
  proposer: Address;
  expirationDate: number;
  /** Signer indices that approved, in the order they did (the proposer's first). */
  approvals: number[];
  /** Bit i set = signer i approved (get_order_data's approvals_mask). */
  approvalsMask: bigint;
  /** sent_for_execution: the threshold was reached and the payment arrived. */
  executed: boolean;
  /** The order's one action: a send_message paying `value` to `receiver`. */
  payment: { receiver: Address; value: bigint; comment: string };
}

export interface LedgerMultisig {
  step: number;
  address: Address;
  /** Index order (signer i = signers[i]). */
  signers: Address[];
  proposers: Address[];
  threshold: number;
  nextOrderSeqno: bigint;
  orders: LedgerMultisigOrder[];
}
