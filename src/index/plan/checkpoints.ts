// What is indexed, read from index_checkpoints (schema/0002): the checkpoint row is written in the same
// transaction as a block's rows, so it is the authority on which masterchain blocks are done.
import type { Queryable } from '../../db/index.ts';
import { CORE_PART, indexedSeqnos } from '../write/index.ts';

/** Checkpointed masterchain seqnos within [from, to], ascending (the writer's own reader). */
export const checkpointedSeqnos: (db: Queryable, from: number, to: number) => Promise<number[]> = indexedSeqnos;

/** Seqnos within [from, to] that have no checkpoint, ascending. */
export async function findGaps(db: Queryable, from: number, to: number, part = CORE_PART): Promise<number[]> {
  if (to < from) return [];
  const r = await db.query<{ s: number }>(
    `SELECT s FROM generate_series($2::integer, $3::integer) AS s
     WHERE NOT EXISTS (SELECT 1 FROM index_checkpoints c WHERE c.part = $1 AND c.mc_seqno = s)
     ORDER BY s`,
    [part, from, to],
  );
  return r.rows.map((x) => Number(x.s));
}

/** The first seqno at or after `from` without a checkpoint (`from` itself when it has none). */
export async function firstGapFrom(db: Queryable, from: number, part = CORE_PART): Promise<number> {
  const r = await db.query<{ s: number | null }>(
    `SELECT CASE
       WHEN NOT EXISTS (SELECT 1 FROM index_checkpoints WHERE part = $1 AND mc_seqno = $2::integer) THEN $2::integer
       ELSE (SELECT min(c.mc_seqno) + 1 FROM index_checkpoints c
             WHERE c.part = $1 AND c.mc_seqno >= $2::integer
               AND NOT EXISTS (SELECT 1 FROM index_checkpoints d WHERE d.part = $1 AND d.mc_seqno = c.mc_seqno + 1))
     END AS s`,
    [part, from],
  );
  const s = r.rows[0]?.s;
  return s === null || s === undefined ? from : Number(s);
}

/** Lowest and highest checkpointed seqno, or null when nothing is indexed. */
export async function checkpointBounds(db: Queryable, part = CORE_PART): Promise<{ min: number; max: number } | null> {
  const r = await db.query<{ min: number | null; max: number | null }>(
    'SELECT min(mc_seqno) AS min, max(mc_seqno) AS max FROM index_checkpoints WHERE part = $1',
    [part],
  );
  const row = r.rows[0];
  return row?.min == null || row.max == null ? null : { min: Number(row.min), max: Number(row.max) };
}

export interface RangeProgress {
  /** Checkpointed blocks in the range. */
  blocks: number;
  /** Transactions those blocks committed (their row_counts). */
  transactions: number;
}

export async function rangeProgress(db: Queryable, from: number, to: number, part = CORE_PART): Promise<RangeProgress> {
  const r = await db.query<{ blocks: string | number; transactions: string | number | null }>(
    `SELECT count(*) AS blocks, coalesce(sum((row_counts->>'transactions')::bigint), 0) AS transactions
     FROM index_checkpoints WHERE part = $1 AND mc_seqno BETWEEN $2 AND $3`,
    [part, from, to],
  );
  const row = r.rows[0];
  return { blocks: Number(row?.blocks ?? 0), transactions: Number(row?.transactions ?? 0) };
}

/**
 * Folds index_checkpoints into indexed_ranges (contiguous runs), replacing the part's rows. Only the
 * planner calls this; an advisory lock keeps two planners from interleaving.
 */
export async function refreshIndexedRanges(
  db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> },
  part = CORE_PART,
): Promise<Array<{ first: number; last: number }>> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('tongate.indexed_ranges'), hashtext($1))", [part]);
    await tx.query('DELETE FROM indexed_ranges WHERE part = $1', [part]);
    const r = await tx.query<{ first: number; last: number }>(
      `INSERT INTO indexed_ranges (part, first_mc_seqno, last_mc_seqno)
       SELECT $1, min(mc_seqno), max(mc_seqno)
       FROM (SELECT mc_seqno, mc_seqno - row_number() OVER (ORDER BY mc_seqno) AS run
             FROM index_checkpoints WHERE part = $1) runs
       GROUP BY run
       RETURNING first_mc_seqno AS first, last_mc_seqno AS last`,
      [part],
    );
    return r.rows.map((x) => ({ first: Number(x.first), last: Number(x.last) })).sort((a, b) => a.first - b.first);
  });
}
