// The traces columns v3's trace reads select, and the transactions of a page of traces (render/trace.ts turns the
// rows into JSON).
import type { SqlQuery } from '../sql-query.ts';
import { TRANSACTION_COLUMNS } from './transaction.ts';

/** The trace columns renderers read, from `traces E`. */
export const TRACE_COLUMNS = `E.trace_id, E.external_hash, E.mc_seqno_start, E.mc_seqno_end, E.start_lt, E.start_utime,
  E.end_lt, E.end_utime, E.state, E.edges_, E.nodes_, E.pending_edges_, E.classification_state`;

/** The transactions of the given traces in (lt, account) order: the order transactions_order lists. */
export function traceTransactionsQuery(traceIds: readonly string[]): SqlQuery {
  return {
    sql: `SELECT ${TRANSACTION_COLUMNS} FROM transactions T WHERE T.trace_id = ANY($1::text[])
      ORDER BY T.trace_id, T.lt, T.account`,
    params: [[...traceIds]],
  };
}
