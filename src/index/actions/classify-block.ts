// Classification of stored traces: those that became final in a masterchain block (the per-block job), or any set of
// stored traces (rederive). Reads trees and interfaces, runs the matchers, replaces the traces' actions in one
// transaction per batch. A trace whose matchers throw is marked `failed` and logged; the others still land.

import type { Log } from '../../common/logger.ts';
import type { Database } from '../../db/index.ts';
import { classifyTrace } from './classify.ts';
import { interfacesOf, loadInterfaces, traceRequests } from './interfaces.ts';
import { loadTraceInputs, type StoredTrace } from './load.ts';
import type { Action, Matcher } from './types.ts';
import { writeActions } from './write.ts';

export interface ClassifyResult {
  traces: number;
  actions: number;
  failed: number;
}

export interface ClassifyDeps {
  db: Database;
  log?: Log;
  matchers?: readonly Matcher[];
  /** Traces per read-classify-write round (default 500). */
  batch?: number;
}

const SWEEP_LIMIT = 200;
const TRACE_SELECT =
  'SELECT trace_id, external_hash, external_hash_norm, mc_seqno_end, end_lt::text AS end_lt, end_utime, state FROM traces';

/** Classifies the given stored traces (final ones: no pending edge). */
export async function classifyStored(traces: readonly StoredTrace[], deps: ClassifyDeps): Promise<ClassifyResult> {
  const result: ClassifyResult = { traces: 0, actions: 0, failed: 0 };
  const size = deps.batch ?? 500;
  for (let i = 0; i < traces.length; i += size) {
    const part = traces.slice(i, i + size);
    const inputs = await loadTraceInputs(deps.db, part);
    const wanted = traceRequests(inputs, deps.matchers);
    const interfaces = interfacesOf(await loadInterfaces(deps.db, wanted.addresses, wanted.accountData));
    const byId = new Map(inputs.map((t) => [t.traceId, t]));
    const out: { traceId: string; state: 'ok' | 'failed' | 'broken'; actions: Action[] }[] = [];
    for (const t of part) {
      const input = byId.get(t.trace_id);
      if (!input) {
        deps.log?.('warn', 'Trace rows do not form one tree; not classified', { traceId: t.trace_id });
        out.push({ traceId: t.trace_id, state: 'failed', actions: [] });
        continue;
      }
      try {
        const actions = classifyTrace(input, interfaces, { matchers: deps.matchers });
        out.push({ traceId: t.trace_id, state: input.broken ? 'broken' : 'ok', actions });
      } catch (e) {
        deps.log?.('error', 'Trace classification failed', { traceId: t.trace_id, error: (e as Error).message });
        out.push({ traceId: t.trace_id, state: 'failed', actions: [] });
      }
    }
    const landed = part.flatMap((t) => (t.external_hash_norm ? [t.external_hash_norm] : []));
    const written = await deps.db.transaction(async (tx) => {
      const n = await writeActions(tx, out);
      // The emulated (pending) traces of these external messages are replaced by the classified ones.
      if (landed.length > 0) await tx.query('DELETE FROM pending_traces WHERE trace_key = ANY($1::text[])', [landed]);
      return n;
    });
    result.traces += part.length;
    result.actions += written;
    result.failed += out.filter((o) => o.state === 'failed').length;
  }
  return result;
}

/** Classifies the traces that became final in masterchain block `mcSeqno` (the classify job). */
export async function classifyMcBlock(
  mcSeqno: number,
  deps: ClassifyDeps,
): Promise<ClassifyResult & { mcSeqno: number }> {
  const r = await deps.db.query<StoredTrace & Record<string, unknown>>(
    `${TRACE_SELECT} WHERE mc_seqno_end = $1 AND pending_edges_ = 0 ORDER BY trace_id`,
    [mcSeqno],
  );
  const res = await classifyStored(r.rows, deps);
  // Also final traces of earlier blocks left unclassified (their job was lost with an in-process queue or a Redis
  // restart, or failed for good): each block's job sweeps them, so nothing stays unclassified.
  for (;;) {
    const left = await deps.db.query<StoredTrace & Record<string, unknown>>(
      `${TRACE_SELECT} WHERE classification_state = 'unclassified' AND state <> 'pending' AND mc_seqno_end < $1
         AND pending_edges_ = 0 ORDER BY mc_seqno_end LIMIT $2`,
      [mcSeqno, SWEEP_LIMIT],
    );
    if (left.rows.length === 0) break;
    const more = await classifyStored(left.rows, deps);
    res.traces += more.traces;
    res.actions += more.actions;
    res.failed += more.failed;
    // Failed ones are marked failed, so the loop always shrinks what is left.
  }
  deps.log?.('debug', 'Classified traces of masterchain block', { mcSeqno, ...res });
  return { mcSeqno, ...res };
}

/** Re-classifies every final trace that ended in [from, to] (tongate index rederive --family actions). */
export async function reclassifyRange(
  from: number,
  to: number,
  deps: ClassifyDeps & { onProgress?: (done: number, total: number) => void; signal?: AbortSignal },
): Promise<ClassifyResult> {
  const total: ClassifyResult = { traces: 0, actions: 0, failed: 0 };
  for (let seqno = from; seqno <= to && !deps.signal?.aborted; seqno++) {
    const r = await classifyMcBlock(seqno, deps);
    total.traces += r.traces;
    total.actions += r.actions;
    total.failed += r.failed;
    deps.onProgress?.(seqno - from + 1, to - from + 1);
  }
  return total;
}
