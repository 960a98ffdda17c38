// The actions columns v3's action reads select, and the participants of a page of actions (render/action.ts turns the
// rows into JSON).
import type { SqlQuery } from '../sql-query.ts';

/** The action columns renderers read, from `actions A` (arrays of domains read as text[]: the driver parses those). */
export const ACTION_COLUMNS = `A.trace_id, A.action_id, A.type, A.start_lt, A.end_lt, A.start_utime, A.end_utime,
  A.tx_hashes::text[] AS tx_hashes, A.success, A.source, A.source_secondary, A.destination, A.destination_secondary,
  A.asset, A.asset_secondary, A.asset2, A.asset2_secondary, A.details, A.trace_end_lt, A.trace_end_utime,
  A.trace_external_hash, A.trace_external_hash_norm, A.trace_mc_seqno_end`;

/** Participants of the given actions (action_accounts), sorted, keyed by `trace_id/action_id`. */
export function actionAccountsQuery(actionIds: readonly string[]): SqlQuery {
  return {
    sql: `SELECT trace_id, action_id, array_agg(account::text ORDER BY account) AS accounts FROM action_accounts
      WHERE action_id = ANY($1::text[]) GROUP BY trace_id, action_id`,
    params: [[...new Set(actionIds)]],
  };
}
