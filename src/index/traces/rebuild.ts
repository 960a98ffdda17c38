// Assembling traces again from scratch, over everything indexed: for an index whose blocks were not all there when
// assembly went by (an older range backfilled after tailing from the head), or after an assembler fix. Clears every
// trace, in-flight edge, action and trace id, restarts the watermark at the lowest indexed block (or `from`) and
// assembles forward until the first block that is not indexed. Heavy on a large index (it rewrites every
// transaction's trace_id): an operator's explicit step, `tongate index rederive --family traces`.
import type { Database } from '../../db/index.ts';
import { CORE_PART } from '../write/write-unit.ts';
import { type AssembleOptions, assembleTraces, traceAssemblyState } from './assemble.ts';

export interface RebuildResult {
  /** First and last masterchain seqno assembled (null when nothing is indexed). */
  from: number | null;
  to: number | null;
  /** The first block not indexed where assembly stopped, if it stopped before the highest indexed one. */
  stoppedAt: number | null;
}

export async function rebuildTraces(
  db: Database,
  opts: AssembleOptions & {
    from?: number;
    signal?: AbortSignal;
    onProgress?: (done: number, total: number) => void;
  } = {},
): Promise<RebuildResult> {
  const bounds = await db.query<{ lo: number | null; hi: number | null }>(
    'SELECT min(mc_seqno) AS lo, max(mc_seqno) AS hi FROM index_checkpoints WHERE part = $1',
    [CORE_PART],
  );
  const lo = bounds.rows[0]?.lo;
  const hi = bounds.rows[0]?.hi;
  if (lo === null || lo === undefined || hi === null || hi === undefined)
    return { from: null, to: null, stoppedAt: null };
  const start = Math.max(opts.from ?? Number(lo), Number(lo));
  await db.transaction(async (tx) => {
    // Taken first, so no worker's assembler runs meanwhile (theirs skip a locked row).
    await tx.query('SELECT 1 FROM trace_assembly WHERE id = 1 FOR UPDATE');
    for (const t of ['action_accounts', 'actions', 'traces', 'trace_pending_edges']) await tx.query(`DELETE FROM ${t}`);
    for (const t of ['transactions', 'messages', 'jetton_transfers', 'jetton_burns', 'jetton_mints', 'nft_transfers']) {
      await tx.query(`UPDATE ${t} SET trace_id = NULL WHERE trace_id IS NOT NULL`);
    }
    await tx.query(
      `INSERT INTO trace_assembly (id, first_mc_seqno, next_mc_seqno) VALUES (1, $1, $1)
       ON CONFLICT (id) DO UPDATE SET first_mc_seqno = $1, next_mc_seqno = $1, updated_at = now()`,
      [start],
    );
  });
  const total = Number(hi) - start + 1;
  for (;;) {
    if (opts.signal?.aborted) break;
    const done = await assembleTraces(db, { ...opts, maxBlocks: 500 });
    const st = await traceAssemblyState(db);
    opts.onProgress?.(Math.min(total, (st?.nextMcSeqno ?? start) - start), total);
    if (done.length < 500) break;
  }
  const st = await traceAssemblyState(db);
  const next = st?.nextMcSeqno ?? start;
  return { from: start, to: next - 1, stoppedAt: next <= Number(hi) ? next : null };
}
