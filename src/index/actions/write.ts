// Actions into the database: a trace's rows are replaced as a whole (re-classification is idempotent), then the trace
// is marked classified. One statement per table over arrays, so a block's traces cost a handful of round trips.
import type { Queryable } from '../../db/index.ts';
import type { Action } from './types.ts';

const s = (v: bigint | number | null | undefined) => (v === null || v === undefined ? null : v.toString());

/** Postgres array literal of text values (for text[][]-free transport of per-row arrays). */
function pgArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

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
  if (all.length > 0) {
    const cols: [string, string, (a: Action) => unknown][] = [
      ['trace_id', 'text', (a) => a.traceId],
      ['action_id', 'text', (a) => a.actionId],
      ['type', 'text', (a) => a.type],
      ['start_lt', 'bigint', (a) => s(a.startLt)],
      ['end_lt', 'bigint', (a) => s(a.endLt)],
      ['start_utime', 'bigint', (a) => s(a.startUtime)],
      ['end_utime', 'bigint', (a) => s(a.endUtime)],
      ['tx_hashes', 'text', (a) => pgArray(a.txHashes)],
      ['success', 'boolean', (a) => a.success],
      ['source', 'text', (a) => a.source ?? null],
      ['source_secondary', 'text', (a) => a.sourceSecondary ?? null],
      ['destination', 'text', (a) => a.destination ?? null],
      ['destination_secondary', 'text', (a) => a.destinationSecondary ?? null],
      ['asset', 'text', (a) => a.asset ?? null],
      ['asset_secondary', 'text', (a) => a.assetSecondary ?? null],
      ['asset2', 'text', (a) => a.asset2 ?? null],
      ['asset2_secondary', 'text', (a) => a.asset2Secondary ?? null],
      ['opcode', 'bigint', (a) => (a.opcode === null || a.opcode === undefined ? null : String(a.opcode >>> 0))],
      ['value', 'numeric', (a) => s(a.value)],
      ['amount', 'numeric', (a) => s(a.amount)],
      ['details', 'text', (a) => JSON.stringify(a.details)],
      ['trace_end_lt', 'bigint', (a) => s(a.traceEndLt)],
      ['trace_end_utime', 'int', (a) => a.traceEndUtime],
      ['trace_external_hash', 'text', (a) => a.traceExternalHash],
      ['trace_external_hash_norm', 'text', (a) => a.traceExternalHashNorm],
      ['trace_mc_seqno_end', 'int', (a) => a.traceMcSeqnoEnd],
      ['mc_seqno_end', 'int', (a) => (a.mcSeqnoEnd > 0 ? a.mcSeqnoEnd : null)],
      ['parent_action_id', 'text', (a) => a.parentActionId],
      ['ancestor_type', 'text', (a) => pgArray(a.ancestorType)],
    ];
    const select = cols
      .map(([name], i) =>
        name === 'tx_hashes' || name === 'ancestor_type'
          ? `u.c${i}::text[]`
          : name === 'details'
            ? `u.c${i}::jsonb`
            : `u.c${i}`,
      )
      .join(', ');
    const unnest = cols.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
    const aliases = cols.map((_, i) => `c${i}`).join(', ');
    await tx.query(
      `INSERT INTO actions (${cols.map(([n]) => n).join(', ')})
       SELECT ${select} FROM unnest(${unnest}) AS u(${aliases})`,
      cols.map(([, , get]) => all.map(get)),
    );
    const acc = all.flatMap((a) => a.accounts.map((account) => ({ a, account })));
    if (acc.length > 0) {
      await tx.query(
        `INSERT INTO action_accounts (action_id, trace_id, account, trace_end_lt, trace_end_utime, action_end_lt, action_end_utime)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::int[], $6::bigint[], $7::bigint[])
         ON CONFLICT DO NOTHING`,
        [
          acc.map((x) => x.a.actionId),
          acc.map((x) => x.a.traceId),
          acc.map((x) => x.account),
          acc.map((x) => s(x.a.traceEndLt)),
          acc.map((x) => x.a.traceEndUtime),
          acc.map((x) => s(x.a.endLt)),
          acc.map((x) => s(x.a.endUtime)),
        ],
      );
    }
  }
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
