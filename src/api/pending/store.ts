// pending_traces (schema/0007) writes: one row per external message (a resend replaces it), and the sweep of rows
// whose trace never landed. Rows whose trace landed are dropped by the classifier (index/actions classifyStored).
import type { Queryable } from '../../db/index.ts';
import type { PendingTraceRow } from './pending-row.ts';

/**
 * Stores the row unless its trace already landed and was classified (the emulation lost the race with the chain);
 * returns whether it stored it.
 */
export async function writePendingTrace(db: Queryable, row: PendingTraceRow, expiresAt: Date): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO pending_traces (trace_key, ext_msg_hash, accounts, tx_in_msg_hashes, trace, actions, emulated_at, expires_at)
     SELECT $1::text, $2::text, $3::text[], $4::text[], $5::jsonb, $6::jsonb, now(), $7
      WHERE NOT EXISTS (SELECT 1 FROM traces WHERE external_hash_norm = $1::text AND classification_state <> 'unclassified')
     ON CONFLICT (trace_key) DO UPDATE SET ext_msg_hash = EXCLUDED.ext_msg_hash, accounts = EXCLUDED.accounts,
       tx_in_msg_hashes = EXCLUDED.tx_in_msg_hashes, trace = EXCLUDED.trace, actions = EXCLUDED.actions,
       emulated_at = EXCLUDED.emulated_at, expires_at = EXCLUDED.expires_at`,
    [
      row.traceKey,
      row.extMsgHash,
      row.accounts,
      row.txInMsgHashes,
      JSON.stringify(row.trace),
      JSON.stringify(row.actions),
      expiresAt.toISOString(),
    ],
  );
  return r.rowCount > 0;
}

/** Drops the rows that expired before `now`; returns how many. */
export async function deleteExpiredPendingTraces(db: Queryable, now: Date): Promise<number> {
  return (await deleteExpiredPendingTraceKeys(db, now)).length;
}

/**
 * Deletes the rows past their expiry and returns the keys of those whose trace never landed (no trace in the index
 * starts with their message): the emulations that turned out wrong, which streams retract (trace_invalidated).
 */
export async function deleteExpiredPendingTraceKeys(db: Queryable, now: Date): Promise<string[]> {
  const r = await db.query<{ trace_key: string }>(
    `WITH gone AS (DELETE FROM pending_traces WHERE expires_at < $1 RETURNING trace_key)
     SELECT G.trace_key FROM gone G
     WHERE NOT EXISTS (SELECT 1 FROM traces E WHERE E.external_hash_norm = G.trace_key)`,
    [now.toISOString()],
  );
  return r.rows.map((x) => String(x.trace_key));
}
