// Grows a small index into a big one inside PostgreSQL: every row of the index tables is copied `copies` times
// by INSERT ... SELECT with fresh keys (hashes, accounts, lts, seqnos, times), so a devnet index of a few
// thousand rows stands in for a large one when a planner's choice or a query's latency depends on table size
// (test/api/v3-explain.test.ts, bench/v3.ts). Copy g of a row gets:
//   hashes     base64 sha256 of (old value || ':' || g): new per copy, equal wherever the old ones were equal,
//              so the joins of copy g (a transaction, its messages, their contents, its account states) still meet;
//   accounts   workchain kept, hex part the sha256 of (old address || ':' || g % accounts): each original account
//              becomes `accounts` synthetic ones, each holding copies/accounts copies of its transactions;
//   seqnos     old + g * seqnoStride, lts old + g * ltStride (strides above the index's largest seqno and lt, so
//              copies never collide and copy g sorts after copy g-1);
//   times      old + g * timeStride, the index's time span: the copies follow each other in time like a longer
//              history, as dense in blocks and transactions per second as the original (not thousands of copies
//              crowded into the same seconds, which a time-window query would have to sort through).
// NULLs stay NULL (every expression of a NULL is NULL). Columns not named here are copied as they are.
import type { Queryable } from '../../src/db/index.ts';

/** The strides and the account fan-out a copy's keys are made with. */
interface Keys {
  readonly seq: string;
  readonly lt: string;
  readonly acc: string;
  readonly time: string;
}
/** An expression of the copy number `g` over the old row; `null` leaves the column to its default. */
type KeyExpr = ((k: Keys) => string) | null;

const H =
  (col: string): KeyExpr =>
  () =>
    `encode(sha256(convert_to(${col} || ':' || g, 'UTF8')), 'base64')`;
const A =
  (col: string): KeyExpr =>
  (k) =>
    `split_part(${col}, ':', 1) || ':' || upper(encode(sha256(convert_to(${col} || ':' || (g % ${k.acc}), 'UTF8')), 'hex'))`;
const SEQ =
  (col: string): KeyExpr =>
  (k) =>
    `${col} + g * ${k.seq}`;
const LT =
  (col: string): KeyExpr =>
  (k) =>
    `${col} + g * ${k.lt}`;
const TIME =
  (col: string): KeyExpr =>
  (k) =>
    `${col} + g * ${k.time}`;

/** The new keys per table; the order is the insert order. */
const NEW_KEYS: Record<string, Record<string, KeyExpr>> = {
  blocks: {
    seqno: SEQ('seqno'),
    root_hash: H('root_hash'),
    file_hash: H('file_hash'),
    mc_block_seqno: SEQ('mc_block_seqno'),
    gen_utime: TIME('gen_utime'),
    start_lt: LT('start_lt'),
    end_lt: LT('end_lt'),
  },
  shard_state: { mc_seqno: SEQ('mc_seqno'), seqno: SEQ('seqno') },
  transactions: {
    account: A('account'),
    hash: H('hash'),
    lt: LT('lt'),
    block_seqno: SEQ('block_seqno'),
    mc_block_seqno: SEQ('mc_block_seqno'),
    trace_id: H('trace_id'),
    prev_trans_hash: H('prev_trans_hash'),
    prev_trans_lt: LT('prev_trans_lt'),
    now: TIME('now'),
    account_state_hash_before: H('account_state_hash_before'),
    account_state_hash_after: H('account_state_hash_after'),
  },
  messages: {
    tx_hash: H('tx_hash'),
    tx_lt: LT('tx_lt'),
    mc_seqno: SEQ('mc_seqno'),
    msg_hash: H('msg_hash'),
    msg_hash_norm: H('msg_hash_norm'),
    trace_id: H('trace_id'),
    source: A('source'),
    destination: A('destination'),
    created_lt: LT('created_lt'),
    created_at: TIME('created_at'),
    body_hash: H('body_hash'),
    init_state_hash: H('init_state_hash'),
  },
  account_states: { hash: H('hash'), account: A('account'), frozen_hash: H('frozen_hash') },
  message_contents: { hash: H('hash') },
  // One row per account: only the first `accounts` copies are new accounts (g % accounts repeats after that).
  // The balance moves by g nanotons so that copies do not tie (a tie group is read whole by ORDER BY balance,
  // account, which no real index has thousands of).
  latest_account_states: {
    id: null,
    account: A('account'),
    account_friendly: () => 'NULL',
    hash: H('hash'),
    balance: () => 'balance + g',
    timestamp: TIME('timestamp'),
    last_trans_hash: H('last_trans_hash'),
    last_trans_lt: LT('last_trans_lt'),
    frozen_hash: H('frozen_hash'),
  },
};

export const REPLICATED_TABLES = Object.keys(NEW_KEYS);

export interface ReplicateOptions {
  /** Copies made of every row (the originals stay): the tables end up copies + 1 times their size. */
  copies: number;
  /** Synthetic accounts each original account becomes (default 2000). */
  accounts?: number;
  /** Also copy latest_account_states (default false: the v3 blockchain endpoints do not read it). */
  latestAccountStates?: boolean;
  /** ANALYZE the database at the end (default true). */
  analyze?: boolean;
  /**
   * Drop each table's secondary indexes before its INSERT and build them again after (default false): for copies
   * of millions of rows, one sorted build per index is much faster than millions of random B-tree inserts.
   * Indexes behind constraints (the primary keys) stay.
   */
  rebuildIndexes?: boolean;
  /** Called after each table's INSERT. */
  onTable?: (table: string, rowsAdded: number, ms: number) => void;
}

export interface ReplicateResult {
  rowsAdded: Record<string, number>;
  seqnoStride: number;
  ltStride: bigint;
  timeStride: number;
}

/** The smallest power of ten above `n` (copies' seqnos and lts stay readable: copy g is old + g * 10^k). */
function strideAbove(n: bigint): bigint {
  let s = 10n;
  while (s <= n) s *= 10n;
  return s;
}

/** Copies every row of the index tables `copies` times with new keys, then (by default) ANALYZE. */
export async function replicateIndex(db: Queryable, opts: ReplicateOptions): Promise<ReplicateResult> {
  const accounts = opts.accounts ?? 2000;
  if (!Number.isInteger(opts.copies) || opts.copies < 1) throw new Error(`replicateIndex: copies ${opts.copies}`);
  if (!Number.isInteger(accounts) || accounts < 1) throw new Error(`replicateIndex: accounts ${accounts}`);
  const max = (
    await db.query<{ seqno: string; lt: string; span: string }>(
      `SELECT (SELECT coalesce(max(seqno), 0) FROM blocks) AS seqno,
        (SELECT coalesce(max(gen_utime) - min(gen_utime), 0) FROM blocks) AS span,
        greatest((SELECT coalesce(max(end_lt), 0) FROM blocks), (SELECT coalesce(max(lt), 0) FROM transactions),
          (SELECT coalesce(max(created_lt), 0) FROM messages)) AS lt`,
    )
  ).rows[0]!;
  const seqnoStride = strideAbove(BigInt(max.seqno));
  const ltStride = strideAbove(BigInt(max.lt));
  // Every time column (transactions.now, messages.created_at, ...) lies within the blocks' gen_utime span.
  const timeStride = Number(max.span) + 1;
  // seqnos are int4 columns: the last copy's must still fit.
  if ((BigInt(opts.copies) + 1n) * seqnoStride > 0x7fffffffn) {
    throw new Error(
      `replicateIndex: ${opts.copies} copies of seqnos up to ${max.seqno} overflow int4 (stride ${seqnoStride})`,
    );
  }
  const rowsAdded: Record<string, number> = {};
  for (const [table, keys] of Object.entries(NEW_KEYS)) {
    if (table === 'latest_account_states' && !opts.latestAccountStates) continue;
    const cols = (
      await db.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = 'public'
         ORDER BY ordinal_position`,
        [table],
      )
    ).rows.map((r) => r.column_name);
    // Each stride becomes a parameter the first time an expression of this table uses it.
    const params: unknown[] = [table === 'latest_account_states' ? Math.min(opts.copies, accounts) : opts.copies];
    const slots = new Map<string, string>();
    const slot = (name: string, value: unknown, type: string) => {
      let s = slots.get(name);
      if (!s) {
        params.push(value);
        s = `$${params.length}::${type}`;
        slots.set(name, s);
      }
      return s;
    };
    const k: Keys = {
      get seq() {
        return slot('seq', Number(seqnoStride), 'int4');
      },
      get lt() {
        return slot('lt', ltStride, 'int8');
      },
      get acc() {
        return slot('acc', accounts, 'int4');
      },
      get time() {
        return slot('time', timeStride, 'int8');
      },
    };
    const kept = cols.filter((c) => keys[c] !== null);
    const exprs = kept.map((c) => keys[c]?.(k) ?? c);
    const t0 = performance.now();
    const indexes = opts.rebuildIndexes
      ? (
          await db.query<{ name: string; def: string }>(
            `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
             WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
            [table],
          )
        ).rows
      : [];
    // Names and definitions come from the catalog (pg_get_indexdef), already quoted where needed.
    for (const i of indexes) await db.query(`DROP INDEX ${i.name}`);
    const r = await db.query(
      `INSERT INTO ${table} (${kept.join(', ')}) SELECT ${exprs.join(', ')} FROM ${table}, generate_series(1, $1::int4) g`,
      params,
    );
    for (const i of indexes) await db.query(i.def);
    rowsAdded[table] = r.rowCount;
    opts.onTable?.(table, r.rowCount, performance.now() - t0);
  }
  if (opts.analyze ?? true) await db.query('ANALYZE');
  return { rowsAdded, seqnoStride: Number(seqnoStride), ltStride, timeStride };
}
