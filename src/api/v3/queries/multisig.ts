// The multisig and multisig_orders columns v3's multisig reads select (render/multisig.ts turns the rows into JSON).

/** The columns renderers read, from `multisig M`; address arrays as text[] (both drivers parse that). */
export const MULTISIG_COLUMNS = `M.id, M.address, M.next_order_seqno::text AS next_order_seqno, M.threshold,
  M.signers::text[] AS signers, M.proposers::text[] AS proposers, M.last_transaction_lt, M.code_hash, M.data_hash`;

/** The columns renderers read, from `multisig_orders O`. */
export const ORDER_COLUMNS = `O.id, O.address, O.multisig_address, O.order_seqno::text AS order_seqno, O.threshold,
  O.sent_for_execution, O.approvals_mask::text AS approvals_mask, O.approvals_num, O.expiration_date, O.order_boc,
  O.signers::text[] AS signers, O.last_transaction_lt, O.code_hash, O.data_hash`;
