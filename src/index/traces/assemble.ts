// The trace assembler (v3-api.md §6.1): walks stored masterchain blocks strictly in order, after their core rows
// committed, and gives every transaction and message its trace_id. Internal messages sent and not yet received are
// pending edges (trace_pending_edges); a trace is complete when it has none left. Assembling in masterchain order
// over the database (not per worker, not in local files) makes the result independent of which worker indexed which
// block first and lets any worker, after a restart, continue from the watermark.
//
// Concurrency: one assembler at a time. A worker takes the watermark row with FOR UPDATE SKIP LOCKED; another that
// finds it taken returns at once. The holder looks for the next block once more after releasing the row, so a block
// committed while it held the row (whose worker found the row taken) is never left waiting.
import type { Database, Queryable } from '../../db/index.ts';
import { copyThroughStage } from '../write/stage.ts';
import { applyTraceIds } from '../write/trace-ids.ts';
import { CORE_PART } from '../write/write-unit.ts';

/** Sender of the messages a masterchain block creates itself (mint, recover, config ticks): roots, not orphans. */
const SYSTEM_ADDRESS = `-1:${'0'.repeat(64)}`;

type TxRow = {
  hash: string;
  lt: string;
  now: string;
  account: string;
};

type MsgRow = {
  tx_hash: string;
  tx_lt: string;
  msg_hash: string;
  msg_hash_norm: string | null;
  direction: 'in' | 'out';
  source: string | null;
  destination: string | null;
};

interface TraceRow {
  trace_id: string;
  external_hash: string | null;
  external_hash_norm: string | null;
  mc_seqno_start: number;
  mc_seqno_end: number;
  start_lt: bigint;
  start_utime: number;
  end_lt: bigint;
  end_utime: number;
  state: 'complete' | 'pending' | 'broken';
  pending_edges_: number;
  edges_: number;
  nodes_: number;
}

export interface AssembledBlock {
  mcSeqno: number;
  transactions: number;
  /** Traces that became final (no pending edge left) in this block: ready for the classifier. */
  finished: number;
}

const stallWarned = new Set<number>();

/** Blocks above the watermark are indexed but the watermark's block is not: say so once per stuck seqno. */
async function warnIfStalled(db: Queryable, next: number, log: AssembleOptions['log']): Promise<void> {
  if (!log || stallWarned.has(next)) return;
  const r = await db.query<{ n: number }>(
    'SELECT min(mc_seqno) AS n FROM index_checkpoints WHERE part = $1 AND mc_seqno > $2',
    [CORE_PART, next],
  );
  const above = r.rows[0]?.n;
  if (above === null || above === undefined) return;
  stallWarned.add(next);
  log('warn', 'Trace assembly waits for an unindexed masterchain block', {
    waitingFor: next,
    nextIndexed: Number(above),
    hint: `index ${next}..${Number(above) - 1} (tongate walk backfill) so traces and actions continue, or assemble again from the lowest indexed block (tongate index rederive --family traces)`,
  });
}

export interface AssembleOptions {
  log?: (level: 'debug' | 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
  /** Called after each block's assembly committed (e.g. to queue its classification). */
  onAssembled?: (block: AssembledBlock) => void | Promise<void>;
  /** Stop after this many blocks (default: as far as the indexed blocks go). */
  maxBlocks?: number;
}

const TRACE_COLUMNS = [
  'trace_id',
  'external_hash',
  'external_hash_norm',
  'mc_seqno_start',
  'mc_seqno_end',
  'start_lt',
  'start_utime',
  'end_lt',
  'end_utime',
  'state',
  'pending_edges_',
  'edges_',
  'nodes_',
] as const;

function traceOf(r: Record<string, unknown>): TraceRow {
  return {
    trace_id: String(r.trace_id),
    external_hash: (r.external_hash as string | null) ?? null,
    external_hash_norm: (r.external_hash_norm as string | null) ?? null,
    mc_seqno_start: Number(r.mc_seqno_start),
    mc_seqno_end: Number(r.mc_seqno_end),
    start_lt: BigInt(String(r.start_lt)),
    start_utime: Number(r.start_utime),
    end_lt: BigInt(String(r.end_lt)),
    end_utime: Number(r.end_utime),
    state: r.state as TraceRow['state'],
    pending_edges_: Number(r.pending_edges_),
    edges_: Number(r.edges_),
    nodes_: Number(r.nodes_),
  };
}

/**
 * Starts assembly at `mcSeqno` unless it already started (the walker calls this with its first block). Without it,
 * the first assembler run starts at the lowest indexed block.
 */
export async function startTraceAssembly(db: Queryable, mcSeqno: number): Promise<void> {
  await db.query(
    'INSERT INTO trace_assembly (id, first_mc_seqno, next_mc_seqno) VALUES (1, $1, $1) ON CONFLICT (id) DO NOTHING',
    [mcSeqno],
  );
}

async function nextIndexed(db: Queryable, seqno: number): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM index_checkpoints WHERE part = $1 AND mc_seqno = $2', [CORE_PART, seqno]);
  return r.rowCount > 0;
}

/** One masterchain block's assembly, inside the caller's transaction. */
async function assembleBlock(tx: Queryable, mcSeqno: number): Promise<AssembledBlock> {
  // The writer's lock on this block: a replace of its rows (writeUnit) and its assembly never interleave.
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), $2)', [CORE_PART, mcSeqno]);
  const txs = (
    await tx.query<TxRow>(
      'SELECT hash, lt::text AS lt, now::text AS now, account FROM transactions WHERE mc_block_seqno = $1',
      [mcSeqno],
    )
  ).rows.map((t) => ({ ...t, ltN: BigInt(t.lt), nowN: Number(t.now) }));
  // Logical-time order is causal order: a message's receiver always has a larger lt than its sender.
  txs.sort((a, b) =>
    a.ltN < b.ltN ? -1 : a.ltN > b.ltN ? 1 : a.account < b.account ? -1 : a.account > b.account ? 1 : 0,
  );
  const msgs = (
    await tx.query<MsgRow>(
      // Through the block's transactions (transactions_index_8, then messages' key): messages has no mc_seqno index.
      `SELECT m.tx_hash, m.tx_lt::text AS tx_lt, m.msg_hash, m.msg_hash_norm, m.direction, m.source, m.destination
       FROM transactions t JOIN messages m ON m.tx_hash = t.hash AND m.tx_lt = t.lt
       WHERE t.mc_block_seqno = $1`,
      [mcSeqno],
    )
  ).rows;
  const inOf = new Map<string, MsgRow>();
  const outOf = new Map<string, MsgRow[]>();
  for (const m of msgs) {
    const k = `${m.tx_hash}/${m.tx_lt}`;
    if (m.direction === 'in') inOf.set(k, m);
    else {
      const list = outOf.get(k);
      if (list) list.push(m);
      else outOf.set(k, [m]);
    }
  }
  // Edges from earlier blocks that this block's transactions receive.
  const wanted = txs.map((t) => inOf.get(`${t.hash}/${t.lt}`)).filter((m): m is MsgRow => !!m && m.source !== null);
  const edges = new Map<string, string>();
  if (wanted.length > 0) {
    const r = await tx.query<{ msg_hash: string; trace_id: string }>(
      'SELECT msg_hash, trace_id FROM trace_pending_edges WHERE msg_hash = ANY($1::text[])',
      [wanted.map((m) => m.msg_hash)],
    );
    for (const e of r.rows) edges.set(e.msg_hash, e.trace_id);
  }
  const traces = new Map<string, TraceRow>();
  const earlier = [...new Set(edges.values())];
  if (earlier.length > 0) {
    const r = await tx.query(`SELECT ${TRACE_COLUMNS.join(', ')} FROM traces WHERE trace_id = ANY($1::text[])`, [
      earlier,
    ]);
    for (const row of r.rows) traces.set(String(row.trace_id), traceOf(row));
  }
  const consumed: string[] = [];
  const created = new Map<string, string>();
  const assigned: { hash: string; lt: string; traceId: string }[] = [];
  const touched = new Set<string>();

  for (const t of txs) {
    const inMsg = inOf.get(`${t.hash}/${t.lt}`);
    let trace: TraceRow | undefined;
    const parentTrace =
      inMsg && inMsg.source !== null ? (created.get(inMsg.msg_hash) ?? edges.get(inMsg.msg_hash)) : undefined;
    if (parentTrace !== undefined) {
      trace = traces.get(parentTrace);
      if (!trace) throw new Error(`trace ${parentTrace} of a pending edge is missing from traces`);
      if (created.has(inMsg!.msg_hash)) created.delete(inMsg!.msg_hash);
      else consumed.push(inMsg!.msg_hash);
      trace.pending_edges_ -= 1;
      trace.edges_ += 1;
      if (trace.pending_edges_ < 0) trace.state = 'broken';
      trace.mc_seqno_end = mcSeqno;
      if (t.ltN > trace.end_lt) {
        trace.end_lt = t.ltN;
        trace.end_utime = t.nowN;
      }
    } else {
      // A root: an external message, a message the masterchain created itself, no message (tick-tock), or an
      // internal message whose sender was never assembled (indexing started mid-trace): broken.
      const orphan = inMsg !== undefined && inMsg.source !== null && inMsg.source !== SYSTEM_ADDRESS;
      trace = {
        trace_id: t.hash,
        external_hash: inMsg?.msg_hash ?? null,
        external_hash_norm: inMsg && inMsg.source === null ? inMsg.msg_hash_norm : null,
        mc_seqno_start: mcSeqno,
        mc_seqno_end: mcSeqno,
        start_lt: t.ltN,
        start_utime: t.nowN,
        end_lt: t.ltN,
        end_utime: t.nowN,
        state: orphan ? 'broken' : 'pending',
        pending_edges_: 0,
        edges_: inMsg ? 1 : 0,
        nodes_: 0,
      };
      traces.set(trace.trace_id, trace);
    }
    trace.nodes_ += 1;
    for (const m of outOf.get(`${t.hash}/${t.lt}`) ?? []) {
      if (m.destination === null) trace.edges_ += 1;
      else {
        trace.pending_edges_ += 1;
        created.set(m.msg_hash, trace.trace_id);
      }
    }
    assigned.push({ hash: t.hash, lt: t.lt, traceId: trace.trace_id });
    touched.add(trace.trace_id);
  }

  let finished = 0;
  const rows: TraceRow[] = [];
  for (const id of touched) {
    const tr = traces.get(id)!;
    if (tr.pending_edges_ === 0) {
      if (tr.state === 'pending') tr.state = 'complete';
      finished++;
    }
    rows.push(tr);
  }
  await writeTraces(tx, rows);
  if (consumed.length > 0) {
    await tx.query('DELETE FROM trace_pending_edges WHERE msg_hash = ANY($1::text[])', [consumed]);
  }
  if (created.size > 0) {
    await tx.query(
      `INSERT INTO trace_pending_edges (msg_hash, trace_id, mc_seqno)
       SELECT h, t, $3 FROM unnest($1::text[], $2::text[]) AS u(h, t) ON CONFLICT (msg_hash) DO NOTHING`,
      [[...created.keys()], [...created.values()], mcSeqno],
    );
  }
  await applyTraceIds(tx, mcSeqno, assigned);
  return { mcSeqno, transactions: txs.length, finished };
}

async function writeTraces(tx: Queryable, rows: TraceRow[]): Promise<void> {
  const update = TRACE_COLUMNS.filter((c) => c !== 'trace_id')
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(', ');
  await copyThroughStage(
    tx,
    'traces',
    TRACE_COLUMNS,
    rows.map((r) => TRACE_COLUMNS.map((c) => r[c])),
    `ON CONFLICT (trace_id) DO UPDATE SET ${update}`,
  );
}

/**
 * Assembles indexed masterchain blocks from the watermark on, in order, as far as they go. Returns what it did
 * (nothing when another assembler holds the watermark; that one picks up the blocks).
 */
export async function assembleTraces(db: Database, opts: AssembleOptions = {}): Promise<AssembledBlock[]> {
  const done: AssembledBlock[] = [];
  const limit = opts.maxBlocks ?? Number.POSITIVE_INFINITY;
  // Without a start the first run begins at the lowest indexed block.
  await db.query(
    `INSERT INTO trace_assembly (id, first_mc_seqno, next_mc_seqno)
     SELECT 1, min(mc_seqno), min(mc_seqno) FROM index_checkpoints WHERE part = $1 HAVING min(mc_seqno) IS NOT NULL
     ON CONFLICT (id) DO NOTHING`,
    [CORE_PART],
  );
  for (;;) {
    if (done.length >= limit) return done;
    const step = await db.transaction(async (tx) => {
      const w = await tx.query<{ first_mc_seqno: number; next_mc_seqno: number }>(
        'SELECT first_mc_seqno, next_mc_seqno FROM trace_assembly WHERE id = 1 FOR UPDATE SKIP LOCKED',
      );
      const row = w.rows[0];
      if (!row) return { busy: true as const };
      const next = Number(row.next_mc_seqno);
      if (!(await nextIndexed(tx, next))) return { busy: false as const, next, block: null };
      const block = await assembleBlock(tx, next);
      await tx.query('UPDATE trace_assembly SET next_mc_seqno = $1, updated_at = now() WHERE id = 1', [next + 1]);
      return { busy: false as const, next, block };
    });
    if (step.busy) return done;
    if (!step.block) {
      // Released the row: a block committed meanwhile (its worker found the row taken) must not wait for the next.
      if (await nextIndexed(db, step.next)) continue;
      await warnIfStalled(db, step.next, opts.log);
      return done;
    }
    done.push(step.block);
    await opts.onAssembled?.(step.block);
  }
}

/** The watermark: first assembled block and the next one to assemble (null before assembly started). */
export async function traceAssemblyState(db: Queryable): Promise<{ firstMcSeqno: number; nextMcSeqno: number } | null> {
  const r = await db.query<{ first_mc_seqno: number; next_mc_seqno: number }>(
    'SELECT first_mc_seqno, next_mc_seqno FROM trace_assembly WHERE id = 1',
  );
  const row = r.rows[0];
  return row ? { firstMcSeqno: Number(row.first_mc_seqno), nextMcSeqno: Number(row.next_mc_seqno) } : null;
}
