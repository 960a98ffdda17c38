// The transactions columns v3's transaction reads select, the messages and account states a page of them refers to,
// and the read that loads those and renders the page (render/transaction.ts turns the rows into JSON).
import type { FastifyRequest } from 'fastify';
import type { Queryable, Row } from '../../../db/index.ts';
import { messageJson } from '../render/message.ts';
import { transactionJson } from '../render/transaction.ts';
import type { SqlQuery } from '../sql-query.ts';
import { addressBookFor } from './enrichment.ts';
import { MESSAGE_COLUMNS, MESSAGE_CONTENT_JOINS } from './message.ts';

/** The transaction columns renderers read, from `transactions T`. */
export const TRANSACTION_COLUMNS = `T.account, T.hash, T.lt, T.block_workchain, T.block_shard, T.block_seqno,
  T.mc_block_seqno, T.trace_id, T.prev_trans_hash, T.prev_trans_lt, T.now, T.orig_status, T.end_status,
  T.total_fees, T.total_fees_extra_currencies, T.account_state_hash_before, T.account_state_hash_after, T.descr,
  T.aborted, T.destroyed, T.credit_first, T.is_tock, T.installed, T.storage_fees_collected, T.storage_fees_due,
  T.storage_status_change, T.credit_due_fees_collected, T.credit, T.credit_extra_currencies, T.compute_skipped,
  T.skipped_reason, T.compute_success, T.compute_msg_state_used, T.compute_account_activated, T.compute_gas_fees,
  T.compute_gas_used, T.compute_gas_limit, T.compute_gas_credit, T.compute_mode, T.compute_exit_code,
  T.compute_exit_arg, T.compute_vm_steps, T.compute_vm_init_state_hash, T.compute_vm_final_state_hash,
  T.action_success, T.action_valid, T.action_no_funds, T.action_status_change, T.action_total_fwd_fees,
  T.action_total_action_fees, T.action_result_code, T.action_result_arg, T.action_tot_actions,
  T.action_spec_actions, T.action_skipped_actions, T.action_msgs_created, T.action_action_list_hash,
  T.action_tot_msg_size_cells, T.action_tot_msg_size_bits, T.bounce, T.bounce_msg_size_cells,
  T.bounce_msg_size_bits, T.bounce_req_fwd_fees, T.bounce_msg_fees, T.bounce_fwd_fees,
  T.split_info_cur_shard_pfx_len, T.split_info_acc_split_depth, T.split_info_this_addr, T.split_info_sibling_addr`;

/** The account states a page of transactions refers to (account_states by primary key). */
export function accountStatesQuery(hashes: readonly string[]): SqlQuery {
  return {
    sql: `SELECT S.hash, S.balance, S.balance_extra_currencies, S.account_status, S.frozen_hash, S.data_hash,
      S.code_hash FROM account_states S WHERE S.hash = ANY($1)`,
    params: [[...new Set(hashes)]],
  };
}

/** Every message of the given transactions (messages primary key), with body and StateInit. */
export function transactionMessagesQuery(txHashes: readonly string[]): SqlQuery {
  return {
    sql: `SELECT M.tx_hash, M.tx_lt, M.direction, ${MESSAGE_COLUMNS} FROM messages M ${MESSAGE_CONTENT_JOINS}
      WHERE M.tx_hash = ANY($1)`,
    params: [[...new Set(txHashes)]],
  };
}

function compareCreatedLt(a: Row, b: Row): number {
  // toncenter sorts out_msgs by created_lt, messages without one first.
  if (a.created_lt === null || b.created_lt === null) return a.created_lt === null ? -1 : 1;
  const x = BigInt(a.created_lt as bigint);
  const y = BigInt(b.created_lt as bigint);
  return x < y ? -1 : x > y ? 1 : String(a.msg_hash).localeCompare(String(b.msg_hash));
}

/** Transaction rows -> the TransactionsResponse: messages, account states and the address book loaded by key. */
export async function renderTransactions(
  req: FastifyRequest,
  q: Queryable,
  rows: Row[],
  testnet: boolean,
): Promise<{ transactions: Record<string, unknown>[]; address_book: Record<string, unknown> }> {
  if (rows.length === 0) return { transactions: [], address_book: {} };
  const mq = transactionMessagesQuery(rows.map((r) => r.hash as string));
  const sq = accountStatesQuery(
    rows.flatMap((r) => [r.account_state_hash_before, r.account_state_hash_after]) as string[],
  );
  const msgs = (await q.query(mq.sql, mq.params)).rows;
  const states = new Map((await q.query(sq.sql, sq.params)).rows.map((s) => [s.hash as string, s]));
  const byTx = new Map<string, Row[]>();
  for (const m of msgs) {
    const key = `${m.tx_hash}:${m.tx_lt}`;
    const list = byTx.get(key);
    if (list) list.push(m);
    else byTx.set(key, [m]);
  }
  const addresses: unknown[] = [];
  const transactions = rows.map((r) => {
    const own = byTx.get(`${r.hash}:${r.lt}`) ?? [];
    const inRow = own.find((m) => m.direction === 'in');
    const outRows = own.filter((m) => m.direction === 'out').sort(compareCreatedLt);
    addresses.push(r.account, inRow?.source, ...outRows.map((m) => m.destination));
    return transactionJson(r, {
      inMsg: inRow ? messageJson(inRow) : null,
      outMsgs: outRows.map((m) => messageJson(m)),
      states,
    });
  });
  return { transactions, address_book: await addressBookFor(req, q, addresses as string[], testnet) };
}
