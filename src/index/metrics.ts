// Prometheus metrics of the indexer (issue 5): what is indexed, how far behind the head, rows per second
// (rate() of the row counters), queue depth and failures. Counters move as jobs finish in this process;
// the gauges read the shared truth (checkpoints in the database, the queue, the source's head) at scrape
// time, so any one process of a many-worker deployment reports the whole index correctly.
import { Counter, Gauge, Histogram, type Registry } from '../common/index.ts';
import type { Queryable } from '../db/index.ts';
import type { JobQueue } from '../queue/index.ts';
import type { IndexResult } from './index-mc-block.ts';
import { checkpointBounds } from './plan/checkpoints.ts';
import { INDEX_MC_BLOCK } from './plan/jobs.ts';

export interface IndexMetrics {
  /** A job of this process finished (indexed or skipped) after `seconds`. */
  indexed(result: IndexResult, seconds: number): void;
  failed(final: boolean): void;
  /** The newest head seen by a tail planner (saves a source round trip per scrape). */
  head(seqno: number): void;
  /** A classify job of this process finished. */
  classified(result: { traces: number; actions: number; failed: number }): void;
}

export function createIndexMetrics(
  registry: Registry,
  opts: { db?: Queryable; queue?: JobQueue; head?: () => Promise<number | null> } = {},
): IndexMetrics {
  const registers = [registry];
  let knownHead: number | null = null;
  let lastIndexed: number | null = null;
  const readIndexed = async () => {
    if (!opts.db) return lastIndexed;
    const b = await checkpointBounds(opts.db).catch(() => null);
    return b ? b.max : lastIndexed;
  };
  const readHead = async () => (opts.head ? await opts.head().catch(() => knownHead) : knownHead) ?? knownHead;

  new Gauge({
    name: 'tongate_index_indexed_mc_seqno',
    help: 'Highest masterchain seqno whose rows are committed (checkpoint)',
    registers,
    async collect() {
      const v = await readIndexed();
      if (v !== null) this.set(v);
    },
  });
  new Gauge({
    name: 'tongate_index_head_mc_seqno',
    help: "The block source's masterchain head",
    registers,
    async collect() {
      const v = await readHead();
      if (v !== null) this.set(v);
    },
  });
  new Gauge({
    name: 'tongate_index_lag_blocks',
    help: 'Masterchain blocks between the head and the highest indexed block',
    registers,
    async collect() {
      const [h, i] = await Promise.all([readHead(), readIndexed()]);
      if (h !== null && i !== null) this.set(Math.max(0, h - i));
    },
  });
  if (opts.db) {
    const db = opts.db;
    new Gauge({
      name: 'tongate_traces_assembled_mc_seqno',
      help: 'Highest masterchain seqno the trace assembler has gone through (its watermark minus one)',
      registers,
      async collect() {
        const r = await db.query<{ n: number }>('SELECT next_mc_seqno - 1 AS n FROM trace_assembly').catch(() => null);
        const v = r?.rows[0];
        if (v) this.set(Number(v.n));
      },
    });
    new Gauge({
      name: 'tongate_traces_unclassified',
      help: 'Final traces (no message in flight) the classifier has not run over yet',
      registers,
      async collect() {
        const r = await db
          .query<{ n: number }>(
            `SELECT count(*)::int AS n FROM traces
             WHERE classification_state = 'unclassified' AND state <> 'pending' AND pending_edges_ = 0`,
          )
          .catch(() => null);
        if (r?.rows[0]) this.set(Number(r.rows[0].n));
      },
    });
  }
  if (opts.queue) {
    const queue = opts.queue;
    new Gauge({
      name: 'tongate_index_queue_jobs',
      help: 'index-mc-block jobs in the queue by state',
      labelNames: ['state'],
      registers,
      async collect() {
        const c = await queue.counts(INDEX_MC_BLOCK).catch(() => null);
        if (!c) return;
        for (const [state, n] of Object.entries(c)) this.set({ state }, n);
      },
    });
  }
  const rows = new Counter({
    name: 'tongate_index_rows_total',
    help: 'Rows written by this process, by kind (rate() gives rows per second)',
    labelNames: ['kind'],
    registers,
  });
  const blocks = new Counter({
    name: 'tongate_index_mc_blocks_total',
    help: 'Masterchain block jobs finished by this process (indexed, or skipped because already indexed)',
    labelNames: ['result'],
    registers,
  });
  const failures = new Counter({
    name: 'tongate_index_failures_total',
    help: 'Failed masterchain block jobs in this process; final="true" when no attempt is left',
    labelNames: ['final'],
    registers,
  });
  const classifyFailures = new Counter({
    name: 'tongate_classify_failed_traces_total',
    help: 'Traces this process could not classify (marked failed; the worker log says why)',
    registers,
  });
  const seconds = new Histogram({
    name: 'tongate_index_mc_block_seconds',
    help: 'Time to index one masterchain block with its shard blocks (fetch, decode, commit)',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  return {
    indexed(r, s) {
      blocks.inc({ result: r.skipped ? 'skipped' : 'indexed' });
      if (!r.skipped) {
        rows.inc({ kind: 'blocks' }, r.blocks);
        rows.inc({ kind: 'transactions' }, r.transactions);
        rows.inc({ kind: 'messages' }, r.messages);
        seconds.observe(s);
      }
      lastIndexed = Math.max(lastIndexed ?? 0, r.mcSeqno);
    },
    failed(final) {
      failures.inc({ final: String(final) });
    },
    head(seqno) {
      knownHead = seqno;
    },
    classified(r) {
      rows.inc({ kind: 'traces' }, r.traces);
      rows.inc({ kind: 'actions' }, r.actions);
      if (r.failed > 0) classifyFailures.inc(r.failed);
    },
  };
}
