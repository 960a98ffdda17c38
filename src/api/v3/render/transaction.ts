// Transaction rows as v3 JSON (v3-api.md §4.2, ton-index-go models.Transaction and parse.ScanTransaction):
// the flattened phase columns folded back into `description`, each phase present only when its defining
// column is set and its optional fields omitted when NULL; block_ref, in_msg/out_msgs (out_msgs by
// created_lt), account_state_before/after looked up by hash (only `hash` filled when the row is missing).
import type { Row } from '../sql-query.ts';
import { blockIdJson, num, str } from './values.ts';

/** Fields present only when set (Go's omitempty on pointers): NULL columns drop their key. */
function compact(o: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(o)) if (o[k] === null || o[k] === undefined) delete o[k];
  return o;
}

function msgSize(cells: unknown, bits: unknown) {
  return cells === null || cells === undefined ? null : { cells: str(cells), bits: str(bits) };
}

function nonEmpty(m: unknown): unknown {
  return m && typeof m === 'object' && Object.keys(m).length > 0 ? m : null;
}

export function descriptionJson(r: Row): Record<string, unknown> {
  const d: Record<string, unknown> = compact({
    type: r.descr,
    aborted: r.aborted,
    destroyed: r.destroyed,
    credit_first: r.credit_first,
    is_tock: r.is_tock,
    installed: r.installed,
  });
  if (r.storage_status_change !== null) {
    d.storage_ph = compact({
      storage_fees_collected: str(r.storage_fees_collected),
      storage_fees_due: str(r.storage_fees_due),
      status_change: r.storage_status_change,
    });
  }
  if (r.credit_due_fees_collected !== null || r.credit !== null || r.credit_extra_currencies !== null) {
    d.credit_ph = compact({
      due_fees_collected: str(r.credit_due_fees_collected),
      credit: str(r.credit),
      credit_extra_currencies: nonEmpty(r.credit_extra_currencies),
    });
  }
  if (r.compute_skipped !== null) {
    // toncenter also swaps gas_fees and gas_used when fees < used, to repair rows its old worker wrote
    // swapped. Our writer never swapped them, and the swap would corrupt free-gas transactions (special
    // masterchain accounts pay 0 for the gas they use), so the columns are reported as stored.
    d.compute_ph = compact({
      skipped: r.compute_skipped,
      reason: r.skipped_reason,
      success: r.compute_success,
      msg_state_used: r.compute_msg_state_used,
      account_activated: r.compute_account_activated,
      gas_fees: str(r.compute_gas_fees),
      gas_used: str(r.compute_gas_used),
      gas_limit: str(r.compute_gas_limit),
      gas_credit: str(r.compute_gas_credit),
      mode: num(r.compute_mode),
      exit_code: num(r.compute_exit_code),
      exit_arg: num(r.compute_exit_arg),
      vm_steps: num(r.compute_vm_steps),
      vm_init_state_hash: r.compute_vm_init_state_hash,
      vm_final_state_hash: r.compute_vm_final_state_hash,
    });
  }
  if (r.action_success !== null) {
    d.action = compact({
      success: r.action_success,
      valid: r.action_valid,
      no_funds: r.action_no_funds,
      status_change: r.action_status_change,
      total_fwd_fees: str(r.action_total_fwd_fees),
      total_action_fees: str(r.action_total_action_fees),
      result_code: num(r.action_result_code),
      result_arg: num(r.action_result_arg),
      tot_actions: num(r.action_tot_actions),
      spec_actions: num(r.action_spec_actions),
      skipped_actions: num(r.action_skipped_actions),
      msgs_created: num(r.action_msgs_created),
      action_list_hash: r.action_action_list_hash,
      tot_msg_size: msgSize(r.action_tot_msg_size_cells, r.action_tot_msg_size_bits),
    });
  }
  if (r.bounce !== null) {
    d.bounce = compact({
      type: r.bounce,
      msg_size: msgSize(r.bounce_msg_size_cells, r.bounce_msg_size_bits),
      req_fwd_fees: str(r.bounce_req_fwd_fees),
      msg_fees: str(r.bounce_msg_fees),
      fwd_fees: str(r.bounce_fwd_fees),
    });
  }
  if (r.split_info_cur_shard_pfx_len !== null) {
    d.split_info = compact({
      cur_shard_pfx_len: num(r.split_info_cur_shard_pfx_len),
      acc_split_depth: num(r.split_info_acc_split_depth),
      this_addr: r.split_info_this_addr,
      sibling_addr: r.split_info_sibling_addr,
    });
  }
  return d;
}

/** AccountState: every key present, null when the state row is missing (only the hash is known then). */
export function accountStateJson(hash: unknown, s: Row | undefined): Record<string, unknown> {
  return {
    hash,
    balance: str(s?.balance),
    extra_currencies: s?.balance_extra_currencies ?? null,
    account_status: s?.account_status ?? null,
    frozen_hash: s?.frozen_hash ?? null,
    data_hash: s?.data_hash ?? null,
    code_hash: s?.code_hash ?? null,
  };
}

export interface TransactionParts {
  inMsg: Record<string, unknown> | null;
  /** Already sorted by created_lt. */
  outMsgs: Record<string, unknown>[];
  states: ReadonlyMap<string, Row>;
}

export function transactionJson(r: Row, parts: TransactionParts): Record<string, unknown> {
  const out: Record<string, unknown> = {
    account: r.account,
    hash: r.hash,
    lt: str(r.lt),
    now: num(r.now),
    mc_block_seqno: r.mc_block_seqno,
  };
  // trace_id is omitted while traces are not assembled (toncenter: omitempty).
  if (r.trace_id) out.trace_id = r.trace_id;
  Object.assign(out, {
    prev_trans_hash: r.prev_trans_hash,
    prev_trans_lt: str(r.prev_trans_lt),
    orig_status: r.orig_status,
    end_status: r.end_status,
    total_fees: str(r.total_fees),
    total_fees_extra_currencies: r.total_fees_extra_currencies ?? null,
    description: descriptionJson(r),
    block_ref: blockIdJson(r.block_workchain, r.block_shard, r.block_seqno),
    in_msg: parts.inMsg,
    out_msgs: parts.outMsgs,
    account_state_before: accountStateJson(
      r.account_state_hash_before,
      parts.states.get(r.account_state_hash_before as string),
    ),
    account_state_after: accountStateJson(
      r.account_state_hash_after,
      parts.states.get(r.account_state_hash_after as string),
    ),
    // Rows in the index are committed by a masterchain block: never emulated, always finalized (§11.20).
    emulated: false,
    finality: 'finalized',
  });
  return out;
}
