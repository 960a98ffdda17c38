// Actions into the database: a trace's rows are replaced as a whole (re-classification is idempotent), then the trace
// is marked classified. One COPY per table, so a block's traces cost a handful of round trips.
import { pgJson, type Queryable } from '../../db/index.ts';
import type { Action } from './types.ts';

const ACTION_COLUMNS = [
  'trace_id',
  'action_id',
  'type',
  'start_lt',
  'end_lt',
  'start_utime',
  'end_utime',
  'tx_hashes',
  'success',
  'source',
  'source_secondary',
  'destination',
  'destination_secondary',
  'asset',
  'asset_secondary',
  'asset2',
  'asset2_secondary',
  'opcode',
  'value',
  'amount',
  'details',
  'trace_end_lt',
  'trace_end_utime',
  'trace_external_hash',
  'trace_external_hash_norm',
  'trace_mc_seqno_end',
  'mc_seqno_end',
  'parent_action_id',
  'ancestor_type',
] as const;

export async function writeActions(
  tx: Queryable,
  classified: readonly { traceId: string; state: 'ok' | 'failed' | 'broken'; actions: readonly Action[] }[],
): Promise<number> {
  if (classified.length === 0) return 0;
  const ids = classified.map((c) => c.traceId);
  // Several classify jobs (other processes, a rederive) may reach the same trace: the first to lock its row
  // writes, the next waits and then replaces those rows. Locked in one order, so batches never deadlock.
  await tx.query('SELECT 1 FROM traces WHERE trace_id = ANY($1::text[]) ORDER BY trace_id FOR UPDATE', [ids]);
  await tx.query('DELETE FROM action_accounts WHERE trace_id = ANY($1::text[])', [ids]);
  await tx.query('DELETE FROM actions WHERE trace_id = ANY($1::text[])', [ids]);
  // One row per (trace, action id): two drafts can only share an id by a matcher bug; keep the first.
  const seen = new Set<string>();
  const all = classified
    .flatMap((c) => c.actions)
    .filter((a) => {
      const k = `${a.traceId}/${a.actionId}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  await tx.copyFrom(
    'actions',
    ACTION_COLUMNS,
    all.map((a) => [
      a.traceId,
      a.actionId,
      a.type,
      a.startLt,
      a.endLt,
      a.startUtime,
      a.endUtime,
      a.txHashes,
      a.success,
      a.source ?? null,
      a.sourceSecondary ?? null,
      a.destination ?? null,
      a.destinationSecondary ?? null,
      a.asset ?? null,
      a.assetSecondary ?? null,
      a.asset2 ?? null,
      a.asset2Secondary ?? null,
      a.opcode === null || a.opcode === undefined ? null : a.opcode >>> 0,
      a.value ?? null,
      a.amount ?? null,
      pgJson(a.details),
      a.traceEndLt,
      a.traceEndUtime,
      a.traceExternalHash,
      a.traceExternalHashNorm,
      a.traceMcSeqnoEnd,
      a.mcSeqnoEnd > 0 ? a.mcSeqnoEnd : null,
      a.parentActionId,
      a.ancestorType,
    ]),
  );
  await tx.copyFrom(
    'action_accounts',
    ['action_id', 'trace_id', 'account', 'trace_end_lt', 'trace_end_utime', 'action_end_lt', 'action_end_utime'],
    all.flatMap((a) =>
      a.accounts.map((account) => [a.actionId, a.traceId, account, a.traceEndLt, a.traceEndUtime, a.endLt, a.endUtime]),
    ),
  );
  for (const state of ['ok', 'failed', 'broken'] as const) {
    const these = classified.filter((c) => c.state === state).map((c) => c.traceId);
    if (these.length === 0) continue;
    await tx.query(
      `UPDATE traces SET classification_state = $2::trace_classification_state WHERE trace_id = ANY($1::text[])`,
      [these, state],
    );
  }
  return all.length;
}
