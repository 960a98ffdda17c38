// One masterchain block (or declared unit) -> the database, in one transaction: an advisory lock on the
// (part, seqno) so two workers on the same block wait for each other, the checkpoint check (skip when it is
// there), deletion of any rows a crashed attempt could not have left (none can: the checkpoint commits with
// them; the delete is what makes an explicit re-run replace rows), COPY of the rows, insert-if-absent for the
// content-addressed tables, the latest_account_states upsert that only moves forward in last_trans_lt, and
// the checkpoint itself.
import type { Database, Queryable } from '../../db/index.ts';
import {
  ACCOUNT_STATE_COLUMNS,
  BLOCK_COLUMNS,
  LATEST_ACCOUNT_STATE_COLUMNS,
  MESSAGE_COLUMNS,
  MESSAGE_CONTENT_COLUMNS,
  type Row,
  SHARD_STATE_COLUMNS,
  TRANSACTION_COLUMNS,
} from '../decode/columns.ts';
import { rowCount, type TableRows, type UnitRows } from '../decode/unit-rows.ts';
import { copyThroughStage } from './stage.ts';
import { applyTraceIds } from './trace-ids.ts';
import { deleteContractEvents, writeContractRows } from './write-contracts.ts';

export const CORE_PART = 'core';
/** Raised when decoding changes what a row holds, so blocks written by older code can be found and redone. */
export const DECODER_VERSION = 1;

export interface WriteOptions {
  /** Replace the rows even when a checkpoint exists (a re-run after a decoder fix). Default: skip. */
  replace?: boolean;
}

/** Dedupe by the first column (content-addressed tables); sorted so concurrent writers lock in one order. */
export function uniqueByKey(rows: Row[]): Row[] {
  const m = new Map<string, Row>();
  for (const r of rows) m.set(String(r[0]), r);
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

const LATEST_UPDATE = `ON CONFLICT (account) DO UPDATE SET ${LATEST_ACCOUNT_STATE_COLUMNS.filter((c) => c !== 'account')
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(', ')} WHERE latest_account_states.last_trans_lt < EXCLUDED.last_trans_lt`;

/** Writes one unit; returns false (and writes nothing) when its checkpoint was already there. */
const unique = (t: TableRows): TableRows => (Array.isArray(t) ? uniqueByKey(t) : t);

export async function writeUnit(db: Database, rows: UnitRows, opts: WriteOptions = {}): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), $2)', [CORE_PART, rows.mcSeqno]);
    const existing = await tx.query('SELECT 1 FROM index_checkpoints WHERE part = $1 AND mc_seqno = $2', [
      CORE_PART,
      rows.mcSeqno,
    ]);
    if (existing.rowCount > 0 && !opts.replace) return false;
    // A replaced block keeps its assembled trace ids (assembly ran once over it, in order; it does not run again).
    const traceIds =
      existing.rowCount > 0
        ? (
            await tx.query<{ hash: string; lt: string; trace_id: string }>(
              'SELECT hash, lt::text AS lt, trace_id FROM transactions WHERE mc_block_seqno = $1 AND trace_id IS NOT NULL',
              [rows.mcSeqno],
            )
          ).rows.map((r) => ({ hash: r.hash, lt: r.lt, traceId: r.trace_id }))
        : [];
    await deleteUnitRows(tx, rows.mcSeqno);
    // Without a checkpoint the unit has no rows (they commit together): only a replace has events to delete.
    if (existing.rowCount > 0) await deleteContractEvents(tx, rows.mcSeqno);
    await tx.copyFrom('blocks', BLOCK_COLUMNS, rows.blocks);
    await tx.copyFrom('shard_state', SHARD_STATE_COLUMNS, rows.shardState);
    await tx.copyFrom('transactions', TRANSACTION_COLUMNS, rows.transactions);
    await tx.copyFrom('messages', MESSAGE_COLUMNS, rows.messages);
    await copyThroughStage(
      tx,
      'message_contents',
      MESSAGE_CONTENT_COLUMNS,
      unique(rows.messageContents),
      'ON CONFLICT (hash) DO NOTHING',
    );
    await copyThroughStage(
      tx,
      'account_states',
      ACCOUNT_STATE_COLUMNS,
      unique(rows.accountStates),
      'ON CONFLICT (hash) DO NOTHING',
    );
    await copyThroughStage(
      tx,
      'latest_account_states',
      LATEST_ACCOUNT_STATE_COLUMNS,
      unique(rows.latestAccountStates),
      LATEST_UPDATE,
    );
    // The checkpoint's row counts stay the core tables' (equal whether or not the decoders ran).
    if (rows.contracts) await writeContractRows(tx, rows.contracts);
    await applyTraceIds(tx, rows.mcSeqno, traceIds);
    const counts = {
      blocks: rowCount(rows.blocks),
      shard_state: rowCount(rows.shardState),
      transactions: rowCount(rows.transactions),
      messages: rowCount(rows.messages),
      message_contents: rowCount(rows.messageContents),
      account_states: rowCount(rows.accountStates),
    };
    await tx.query(
      `INSERT INTO index_checkpoints (part, mc_seqno, mc_root_hash, decoder_version, row_counts) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (part, mc_seqno) DO UPDATE SET mc_root_hash = EXCLUDED.mc_root_hash,
         decoder_version = EXCLUDED.decoder_version, row_counts = EXCLUDED.row_counts, indexed_at = now()`,
      [CORE_PART, rows.mcSeqno, rows.mcRootHash, DECODER_VERSION, counts],
    );
    return true;
  });
}

/** Deletes what one masterchain block wrote (not the content-addressed rows, which others may share). */
export async function deleteUnitRows(tx: Queryable, mcSeqno: number): Promise<void> {
  await tx.query(
    `DELETE FROM messages m USING transactions t
     WHERE t.mc_block_seqno = $1 AND m.tx_hash = t.hash AND m.tx_lt = t.lt`,
    [mcSeqno],
  );
  await tx.query('DELETE FROM transactions WHERE mc_block_seqno = $1', [mcSeqno]);
  await tx.query('DELETE FROM blocks WHERE mc_block_seqno = $1', [mcSeqno]);
  await tx.query('DELETE FROM shard_state WHERE mc_seqno = $1', [mcSeqno]);
}

/** Checkpointed masterchain seqnos in [from, to], ascending (the planner's gap finder reads this). */
export async function indexedSeqnos(db: Queryable, from: number, to: number): Promise<number[]> {
  const r = await db.query<{ mc_seqno: number }>(
    'SELECT mc_seqno FROM index_checkpoints WHERE part = $1 AND mc_seqno BETWEEN $2 AND $3 ORDER BY mc_seqno',
    [CORE_PART, from, to],
  );
  return r.rows.map((x) => Number(x.mc_seqno));
}
