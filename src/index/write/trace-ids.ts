// Trace ids on a block's rows: the one UPDATE path for transactions.trace_id and the rows that copy it.
import type { Queryable } from '../../db/index.ts';

/**
 * Writes trace ids onto one masterchain block's rows: its transactions, their messages and the contract event rows
 * of those transactions. The trace assembler (traces/assemble.ts) writes the ids it assigns with it, and the writer
 * (write-unit.ts) keeps the ids when a block's rows are replaced.
 */
export async function applyTraceIds(
  tx: Queryable,
  mcSeqno: number,
  assigned: readonly { hash: string; lt: string; traceId: string }[],
): Promise<void> {
  if (assigned.length === 0) return;
  await tx.query(
    `UPDATE transactions t SET trace_id = u.trace_id
     FROM unnest($1::text[], $2::bigint[], $3::text[]) AS u(hash, lt, trace_id)
     WHERE t.hash = u.hash AND t.lt = u.lt`,
    [assigned.map((a) => a.hash), assigned.map((a) => a.lt), assigned.map((a) => a.traceId)],
  );
  await tx.query(
    `UPDATE messages m SET trace_id = t.trace_id FROM transactions t
     WHERE m.mc_seqno = $1 AND t.mc_block_seqno = $1 AND m.tx_hash = t.hash AND m.tx_lt = t.lt`,
    [mcSeqno],
  );
  for (const table of ['jetton_transfers', 'jetton_burns', 'jetton_mints', 'nft_transfers']) {
    await tx.query(
      `UPDATE ${table} e SET trace_id = t.trace_id FROM transactions t
       WHERE e.mc_seqno = $1 AND t.mc_block_seqno = $1 AND e.tx_hash = t.hash AND e.tx_lt = t.lt`,
      [mcSeqno],
    );
  }
}
