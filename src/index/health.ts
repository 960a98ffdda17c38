// How far the stages after indexing trail it (issue 24), for /healthz and Prometheus: the trace assembler walks the
// indexed masterchain blocks strictly in order (trace_assembly's watermark), the classifier runs over the traces that
// became final. Both are read from the shared tables, so any process (API, walker, worker) reports the same.
//
// A hole in the indexed blocks stops the assembler for good (a backfill 1..58 and a tail started at 100: it waits
// at 59 until 59..99 are indexed), while the index itself looks current. That state makes the index unhealthy once
// the first block above the hole was indexed more than a grace period ago; within it, the hole is taken for blocks
// still in flight (workers index out of order).
import { Gauge, type Registry } from '../common/index.ts';
import type { Queryable } from '../db/index.ts';
import { CORE_PART } from './write/write-unit.ts';

/** Seconds a hole below indexed blocks may hold up assembly before the index counts as unhealthy. */
export const ASSEMBLY_STALL_GRACE_SECONDS = 60;

export interface AssemblyWait {
  /** The masterchain block the assembler needs next: not indexed. */
  mc_seqno: number;
  /** The lowest indexed block above it. */
  next_indexed_mc_seqno: number;
  /** Since that block was indexed (database clock). */
  seconds: number;
  /** Past the grace period: assembly will not move until the hole is indexed. */
  stalled: boolean;
  hint: string;
}

export interface PipelineHealth {
  first_mc_seqno: number | null;
  indexed_mc_seqno: number | null;
  /** Highest masterchain seqno the trace assembler went through; null before it started. */
  assembled_mc_seqno: number | null;
  /** Masterchain seqnos from the assembler's watermark up to the highest indexed one (0: caught up). */
  assembly_lag_blocks: number;
  /** Oldest masterchain block in which a final trace ended that the classifier has not run over; null: none. */
  oldest_unclassified_mc_seqno: number | null;
  /** Assembled masterchain blocks from that one on (0: every final trace is classified). */
  classification_lag_blocks: number;
  /** Present while the assembler waits on a block that is not indexed although later ones are. */
  assembly_waiting?: AssemblyWait;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Reads the pipeline's state: a few primary-key and partial-index lookups. */
export async function pipelineHealth(db: Queryable, opts: { graceSeconds?: number } = {}): Promise<PipelineHealth> {
  const grace = opts.graceSeconds ?? ASSEMBLY_STALL_GRACE_SECONDS;
  const bounds = (
    await db.query<{ min: number | null; max: number | null }>(
      'SELECT min(mc_seqno) AS min, max(mc_seqno) AS max FROM index_checkpoints WHERE part = $1',
      [CORE_PART],
    )
  ).rows[0];
  const first = num(bounds?.min);
  const indexed = num(bounds?.max);
  const mark = (await db.query<{ next_mc_seqno: number }>('SELECT next_mc_seqno FROM trace_assembly WHERE id = 1'))
    .rows[0];
  const next = num(mark?.next_mc_seqno);
  const assembled = next === null ? null : next - 1;
  const out: PipelineHealth = {
    first_mc_seqno: first,
    indexed_mc_seqno: indexed,
    assembled_mc_seqno: assembled,
    // Before the first assembly run every indexed block waits for it (it starts at the lowest one).
    assembly_lag_blocks: indexed === null || first === null ? 0 : Math.max(0, indexed - (assembled ?? first - 1)),
    oldest_unclassified_mc_seqno: null,
    classification_lag_blocks: 0,
  };
  if (next !== null && indexed !== null && indexed > next) {
    const here = await db.query('SELECT 1 FROM index_checkpoints WHERE part = $1 AND mc_seqno = $2', [CORE_PART, next]);
    if (here.rowCount === 0) {
      const above = (
        await db.query<{ mc_seqno: number; seconds: number }>(
          `SELECT mc_seqno, greatest(0, extract(epoch FROM now() - indexed_at))::float8 AS seconds
           FROM index_checkpoints WHERE part = $1 AND mc_seqno > $2 ORDER BY mc_seqno LIMIT 1`,
          [CORE_PART, next],
        )
      ).rows[0];
      if (above) {
        const nextIndexed = Number(above.mc_seqno);
        const seconds = Math.floor(Number(above.seconds));
        out.assembly_waiting = {
          mc_seqno: next,
          next_indexed_mc_seqno: nextIndexed,
          seconds,
          stalled: seconds >= grace,
          hint:
            `index ${next}..${nextIndexed - 1} (tongate walk backfill --from ${next} --to ${nextIndexed - 1}) so ` +
            'traces and actions continue, or assemble again from the lowest indexed block (tongate index rederive --family traces)',
        };
      }
    }
  }
  if (assembled !== null) {
    const r = await db.query<{ n: number | null }>(
      `SELECT min(mc_seqno_end) AS n FROM traces
       WHERE classification_state = 'unclassified' AND state <> 'pending' AND pending_edges_ = 0`,
    );
    const oldest = num(r.rows[0]?.n);
    out.oldest_unclassified_mc_seqno = oldest;
    out.classification_lag_blocks = oldest === null ? 0 : Math.max(0, assembled - oldest + 1);
  }
  return out;
}

/** True when the pipeline cannot move on by itself: assembly waits, past the grace period, on an unindexed block. */
export const pipelineStalled = (h: PipelineHealth): boolean => h.assembly_waiting?.stalled === true;

/**
 * Prometheus gauges of the same state, read at scrape time (one read per scrape): the assembly lag, whether assembly
 * is stalled on a hole, and the classification lag.
 */
export function registerPipelineGauges(registry: Registry, db: Queryable): void {
  // A scrape collects every gauge at once: they share one read, and the next scrape reads afresh.
  let pending: Promise<PipelineHealth | null> | null = null;
  const read = () => {
    pending ??= pipelineHealth(db)
      .catch(() => null)
      .finally(() => {
        pending = null;
      });
    return pending;
  };
  const registers = [registry];
  new Gauge({
    name: 'tongate_traces_assembly_lag_blocks',
    help: 'Indexed masterchain blocks the trace assembler has not gone through yet',
    registers,
    async collect() {
      const h = await read();
      if (h) this.set(h.assembly_lag_blocks);
    },
  });
  new Gauge({
    name: 'tongate_traces_assembly_stalled',
    help: '1 while trace assembly waits (past the grace period) on a masterchain block that is not indexed, else 0',
    registers,
    async collect() {
      const h = await read();
      if (h) this.set(pipelineStalled(h) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'tongate_actions_classification_lag_blocks',
    help: 'Assembled masterchain blocks from the oldest one with a final trace the classifier has not run over',
    registers,
    async collect() {
      const h = await read();
      if (h) this.set(h.classification_lag_blocks);
    },
  });
}
