// Bulk backfill (issue 23, item 4): load a range of history into the indexing tables without their secondary
// indexes, then build each of those indexes once, instead of maintaining ~130 B-trees row by row.
//
// Three phases, each safe to cut at any point (kill -9 included) and to run again:
//   drop     under the bulk lock, one transaction records every secondary index of BULK_TABLES (exact
//            pg_get_indexdef text, tablespace, comment; for a partitioned table also its partitions' indexes) in
//            bulk_load_indexes (schema/0008) unless a record is already there (then this is a resume and the current
//            catalog is NOT snapshotted again: it lacks what was dropped). Then each recorded index is dropped
//            (DROP INDEX CONCURRENTLY; a partitioned one with a plain DROP under a short lock_timeout, retried) and
//            flagged dropped.
//   load     the caller's ordinary backfill (the queue, the per-block writer with its checkpoints: re-running a
//            range writes nothing twice). Primary keys and unique indexes stay (ON CONFLICT needs them), and so do
//            the few secondary indexes the writer, the trace assembler and the classifier read by per block
//            (BULK_KEEP_INDEXES), so the load stays linear. Tail, workers and the APIs keep running: lookups by key and
//            by the kept indexes stay fast; filters the dropped indexes served scan (and on large tables run into
//            v3's query timeout) until the rebuild ends.
//   rebuild  under the bulk lock, each recorded index in build order: kept when it exists and is valid, dropped
//            first when a cut build left it invalid, else built (CREATE INDEX CONCURRENTLY IF NOT EXISTS; for a
//            partitioned table its partitions' indexes first, then CREATE INDEX on the parent, which attaches them)
//            with its comment, and its row deleted. The record is empty exactly when every index is back.
// The bulk lock is a transaction-level advisory lock held by an idle transaction on a connection of its own (an
// idle READ COMMITTED transaction holds no snapshot, so the concurrent builds do not wait for it): two bulk loads
// never drop or build at the same time, and a killed process's lock goes with its connection. Loads may overlap:
// whichever finishes first builds the indexes, and the other finds nothing left to build.
// PostgreSQL only: PGlite is one connection in one process, where the builds would stop everything else; there the
// ordinary backfill is the way (openBulkIndexes refuses it with a ConfigError).
import { performance } from 'node:perf_hooks';
import { ConfigError, type DatabaseConfig, DbError } from '../../common/index.ts';
import type { Log } from '../../common/logger.ts';
import { createDatabase, type Queryable } from '../../db/index.ts';
import { CORE_TABLES } from '../decode/columns.ts';

/** The tables the indexing pipeline writes (core, contract decoders, traces, actions), in rebuild order. */
export const BULK_TABLES: readonly string[] = [
  ...CORE_TABLES,
  'contract_methods',
  'jetton_masters',
  'jetton_wallets',
  'jetton_transfers',
  'jetton_burns',
  'jetton_mints',
  'nft_collections',
  'nft_items',
  'nft_transfers',
  'dns_entries',
  'multisig',
  'multisig_orders',
  'vesting_contracts',
  'vesting_whitelist',
  'getgems_nft_sales',
  'getgems_nft_auctions',
  'traces',
  'trace_pending_edges',
  'actions',
  'action_accounts',
];

const EVENTS_BY_BLOCK =
  "the trace assembler sets a block's event rows' trace_id by mc_seqno (and a re-run deletes them)";

/**
 * Secondary indexes of BULK_TABLES that stay during a bulk load, and why: the pipeline reads by them once per block
 * (or per trace), so without them every block would scan a growing table. Everything else that is not a primary
 * key, unique or constraint index serves only the APIs and is dropped. An index added for the writer's own
 * per-block queries must be listed here (test/walk/bulk-backfill.test.ts checks that each name exists).
 */
export const BULK_KEEP_INDEXES: Readonly<Record<string, string>> = {
  blocks_index_2: "the writer deletes a masterchain block's blocks rows by mc_block_seqno before writing them",
  transactions_index_8:
    "the writer deletes, and the trace assembler reads, a masterchain block's transactions by mc_block_seqno",
  transactions_index_7: "the classifier loads a trace's transactions by trace_id",
  messages_index_5: "the classifier loads a trace's messages by trace_id",
  jetton_transfers_index_mc_seqno: EVENTS_BY_BLOCK,
  jetton_burns_index_mc_seqno: EVENTS_BY_BLOCK,
  jetton_mints_index_mc_seqno: EVENTS_BY_BLOCK,
  nft_transfers_index_mc_seqno: EVENTS_BY_BLOCK,
  trace_index_2a: 'the classify job selects the traces that became final in its block by mc_seqno_end',
  traces_index_unclassified_final: "the classify job's sweep and the unclassified-traces metric (partial, small)",
  action_accounts_index_2: "the classifier replaces a trace's action_accounts by trace_id",
};

/** 'tgbulk01' in ASCII: the advisory lock of the drop and rebuild phases. */
export const BULK_LOCK_KEY = 0x746762756c6b3031n;

/** One row of bulk_load_indexes. */
export interface RecordedIndex {
  name: string;
  table: string;
  /** pg_get_indexdef() text when recorded. */
  definition: string;
  /** An index of a partitioned table (relkind I). */
  partitioned: boolean;
  /** The recorded table's index this one belongs to (itself, or the partitioned index it was attached to). */
  top: string;
  tablespace: string | null;
  comment: string | null;
  order: number;
  dropped: boolean;
}

export interface DropReport {
  /** Indexes in the record (partition indexes included). */
  recorded: number;
  /** Dropped by this call. */
  dropped: number;
  /** A record was already there: an earlier bulk load is being resumed. */
  resumed: boolean;
  /** Stopped by the signal before every recorded index was dropped. */
  interrupted: boolean;
  seconds: number;
}

export interface RestoreReport {
  /** Built by this call. */
  built: number;
  /** Found already built and valid (a cut run had built them, or they were never dropped). */
  kept: number;
  /** Still recorded (not built): non-zero only when interrupted. */
  left: number;
  interrupted: boolean;
  seconds: number;
}

export interface BulkOptions {
  log?: Log;
  /** Stops between two indexes (the record keeps what is left). */
  signal?: AbortSignal;
  /** lock_timeout of the plain DROP/CREATE INDEX statements on partitioned tables, retried (default 2000 ms). */
  lockTimeoutMs?: number;
}

/** A control session over one PostgreSQL database: its own two connections (the lock holder and the DDL). */
export interface BulkIndexes {
  /** What the record holds, in build order; empty when no bulk load is pending. */
  pending(): Promise<RecordedIndex[]>;
  /** Records (or resumes) and drops the secondary indexes of BULK_TABLES. */
  dropSecondaryIndexes(): Promise<DropReport>;
  /** Builds every recorded index and clears the record. */
  restoreSecondaryIndexes(): Promise<RestoreReport>;
  close(): Promise<void>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

const seconds = (t0: number) => Math.round(performance.now() - t0) / 1000;

const DEFINITION = /^CREATE INDEX ("(?:[^"]|"")+"|[^\s"]+) ON (ONLY )?/;

/**
 * The statement that builds a recorded index again: CONCURRENTLY (a plain table or a partition: writers go on) or,
 * for a partitioned table, a plain CREATE INDEX without ONLY (PostgreSQL cannot build those concurrently; it
 * attaches the partitions' indexes built before it and builds only those missing, e.g. of a partition added
 * during the load). IF NOT EXISTS either way.
 */
export function buildStatement(r: Pick<RecordedIndex, 'definition' | 'partitioned'>): string {
  const m = DEFINITION.exec(r.definition);
  if (!m) throw new DbError('TG_DB_USAGE', `bulk load: cannot rebuild from an unexpected definition: ${r.definition}`);
  const rest = r.definition.slice(m[0].length);
  return r.partitioned
    ? `CREATE INDEX IF NOT EXISTS ${m[1]} ON ${rest}`
    : `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${m[1]} ON ${rest}`;
}

const RECORD_TABLE = 'bulk_load_indexes';

type RecordRow = {
  index_name: string;
  table_name: string;
  definition: string;
  partitioned: boolean;
  top_index: string;
  tablespace: string | null;
  comment: string | null;
  build_order: number;
  dropped: boolean;
};

const toRecorded = (r: RecordRow): RecordedIndex => ({
  name: r.index_name,
  table: r.table_name,
  definition: r.definition,
  partitioned: r.partitioned,
  top: r.top_index,
  tablespace: r.tablespace,
  comment: r.comment,
  order: Number(r.build_order),
  dropped: r.dropped,
});

/**
 * What a bulk load left to build, in build order; empty when none is pending (or the database predates 0008).
 * Any Queryable: the walker warns with it, `tongate db indexes` shows it.
 */
export async function pendingBulkIndexes(db: Queryable): Promise<RecordedIndex[]> {
  const exists = await db.query<{ t: string | null }>(`SELECT to_regclass('public.${RECORD_TABLE}')::text AS t`);
  if (exists.rows[0]?.t == null) return [];
  const r = await db.query<RecordRow>(
    `SELECT index_name, table_name, definition, partitioned, top_index, tablespace, comment, build_order, dropped
     FROM ${RECORD_TABLE} ORDER BY build_order, index_name`,
  );
  return r.rows.map(toRecorded);
}

/** The secondary indexes a bulk load drops, as the catalog has them now, in build order. */
export async function secondaryIndexes(db: Queryable): Promise<RecordedIndex[]> {
  const r = await db.query<{
    index_name: string;
    table_name: string;
    definition: string;
    partitioned: boolean;
    top_index: string;
    top_table: string;
    depth: number;
    tablespace: string | null;
    comment: string | null;
  }>(
    `WITH RECURSIVE top AS (
       SELECT i.oid, i.relname AS name, t.relname AS table_name
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       WHERE t.relnamespace = 'public'::regnamespace AND t.relkind IN ('r', 'p') AND t.relname = ANY($1::text[])
         AND NOT x.indisunique AND NOT x.indisprimary AND NOT x.indisexclusion
         AND x.indisvalid AND x.indisready AND x.indislive
         AND NOT (i.relname = ANY($2::text[]))
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.oid)
         AND NOT EXISTS (SELECT 1 FROM pg_inherits h WHERE h.inhrelid = i.oid)
     ), tree AS (
       SELECT oid, name AS top_index, table_name AS top_table, 0 AS depth FROM top
       UNION ALL
       SELECT h.inhrelid, tree.top_index, tree.top_table, tree.depth + 1
       FROM pg_inherits h JOIN tree ON h.inhparent = tree.oid
     )
     SELECT c.relname AS index_name, t.relname AS table_name, pg_get_indexdef(c.oid) AS definition,
            c.relkind = 'I' AS partitioned, tree.top_index, tree.top_table, tree.depth,
            ts.spcname AS tablespace, obj_description(c.oid, 'pg_class') AS comment
     FROM tree JOIN pg_class c ON c.oid = tree.oid
     JOIN pg_index x ON x.indexrelid = c.oid JOIN pg_class t ON t.oid = x.indrelid
     LEFT JOIN pg_tablespace ts ON ts.oid = c.reltablespace`,
    [BULK_TABLES, Object.keys(BULK_KEEP_INDEXES)],
  );
  const rank = (t: string) => BULK_TABLES.indexOf(t);
  // A table's indexes together, in BULK_TABLES order; within a partitioned index, the deepest partitions first.
  const rows = [...r.rows].sort(
    (a, b) =>
      rank(a.top_table) - rank(b.top_table) ||
      (a.top_index < b.top_index ? -1 : a.top_index > b.top_index ? 1 : 0) ||
      Number(b.depth) - Number(a.depth) ||
      (a.index_name < b.index_name ? -1 : a.index_name > b.index_name ? 1 : 0),
  );
  return rows.map((x, i) => ({
    name: x.index_name,
    table: x.table_name,
    definition: x.definition,
    partitioned: x.partitioned,
    top: x.top_index,
    tablespace: x.tablespace,
    comment: x.comment,
    order: i + 1,
    dropped: false,
  }));
}

type IndexState = { valid: boolean; definition: string; partitioned: boolean } | undefined;

async function indexState(db: Queryable, name: string): Promise<IndexState> {
  const r = await db.query<{ valid: boolean; definition: string; partitioned: boolean }>(
    `SELECT x.indisvalid AND x.indisready AS valid, pg_get_indexdef(c.oid) AS definition, c.relkind = 'I' AS partitioned
     FROM pg_class c JOIN pg_index x ON x.indexrelid = c.oid
     WHERE c.relnamespace = 'public'::regnamespace AND c.relname = $1`,
    [name],
  );
  return r.rows[0];
}

/** Opens the control session. PostgreSQL only: PGlite is refused with a ConfigError. */
export async function openBulkIndexes(config: DatabaseConfig, opts: BulkOptions = {}): Promise<BulkIndexes> {
  if (config.kind !== 'postgres') {
    throw new ConfigError(
      'a bulk backfill needs PostgreSQL (DATABASE_URL or --database-url): the embedded PGlite database is one connection, where index builds would stop tail and the APIs; use a plain backfill there',
    );
  }
  const log: Log = opts.log ?? (() => {});
  const lockTimeoutMs = opts.lockTimeoutMs ?? 2000;
  // Two connections: one held by the lock's transaction, so every other statement runs on the other, in order, with
  // the session settings set just before it (the pool has no third connection to hand out).
  const db = await createDatabase({
    ...config,
    poolSize: 2,
    applicationName: `${config.applicationName ?? 'tongate'}-bulk-indexes`,
  });

  /** Runs one DDL statement with its session settings (statement_timeout off: index builds take long). */
  const ddl = async (sql: string, settings: { lockTimeoutMs?: number; tablespace?: string | null } = {}) => {
    await db.exec(
      `SET statement_timeout = 0; SET lock_timeout = ${Math.max(0, Math.floor(settings.lockTimeoutMs ?? 0))}; ` +
        `SET default_tablespace = ${quoteLiteral(settings.tablespace ?? '')}`,
    );
    await db.query(sql);
  };

  /** A plain DDL statement that takes an exclusive lock: a short lock_timeout, retried, so readers never queue long. */
  const ddlRetryingLocks = async (sql: string, what: string, tablespace?: string | null) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await ddl(sql, { lockTimeoutMs, tablespace });
        return;
      } catch (e) {
        if (!(e instanceof DbError) || e.code !== 'TG_DB_CONFLICT' || opts.signal?.aborted) throw e;
        if (attempt === 1) log('warn', 'Waited for a table lock, retrying', { statement: what, lockTimeoutMs });
        await sleep(Math.min(10_000, 250 * attempt), opts.signal);
      }
    }
  };

  /** Runs fn while holding the bulk lock; `check` throws once the lock's connection is gone. */
  const withLock = async <T>(fn: (check: () => void) => Promise<T>): Promise<T> => {
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let locked!: () => void;
    const acquired = new Promise<void>((r) => {
      locked = r;
    });
    let lost: unknown;
    const holder = db.transaction(async (tx) => {
      // Without parameters, so over the simple query protocol: an extended-protocol statement leaves its unnamed
      // portal (and the portal's snapshot) open until the transaction's next statement, and the concurrent index
      // builds would wait for that snapshot, i.e. for this transaction, forever.
      // Idle on purpose for as long as the phase takes: a server-wide idle timeout must not end it.
      await tx.query('SET LOCAL idle_in_transaction_session_timeout = 0');
      const got = await tx.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(${BULK_LOCK_KEY}) AS ok`);
      if (!got.rows[0]?.ok) {
        log('info', 'Waited for another bulk load to finish dropping or building indexes');
        await tx.query(`SELECT pg_advisory_xact_lock(${BULK_LOCK_KEY})`);
      }
      locked();
      await released;
    });
    const ended = holder.then(
      () => {},
      (e) => {
        lost = e;
      },
    );
    await Promise.race([acquired, ended]);
    if (lost !== undefined) throw lost;
    const check = () => {
      if (lost !== undefined) {
        throw new DbError(
          'TG_DB_UNAVAILABLE',
          `bulk load: lost the connection holding the bulk lock: ${String(lost)}`,
          {
            cause: lost,
          },
        );
      }
    };
    try {
      return await fn(check);
    } finally {
      release();
      await ended;
    }
  };

  const pending = () => pendingBulkIndexes(db);

  /** The index's state now; refuses one that exists under the recorded name with another definition. */
  const sameDefinition = async (r: RecordedIndex): Promise<IndexState> => {
    const state = await indexState(db, r.name);
    if (state && state.definition !== r.definition) {
      throw new DbError(
        'TG_DB_QUERY',
        `bulk load: index ${r.name} exists with another definition than the one recorded (${state.definition}; recorded: ${r.definition}); drop or rename it, then run again`,
      );
    }
    return state;
  };

  return {
    pending,

    async dropSecondaryIndexes() {
      const t0 = performance.now();
      return withLock(async (check) => {
        const { resumed } = await db.transaction(async (tx) => {
          const n = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${RECORD_TABLE}`);
          if ((n.rows[0]?.n ?? 0) > 0) return { resumed: true };
          const now = await secondaryIndexes(tx);
          for (const r of now) {
            await tx.query(
              `INSERT INTO ${RECORD_TABLE} (index_name, table_name, definition, partitioned, top_index, tablespace,
                 comment, build_order) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
              [r.name, r.table, r.definition, r.partitioned, r.top, r.tablespace, r.comment, r.order],
            );
          }
          return { resumed: false };
        });
        const record = await pending();
        const todo = record.filter((r) => !r.dropped && r.top === r.name);
        log('info', resumed ? 'Resumed a bulk load' : 'Recorded secondary indexes for a bulk load', {
          recorded: record.length,
          toDrop: todo.length,
          tables: [...new Set(record.map((r) => r.table))].length,
        });
        let dropped = 0;
        for (const r of todo) {
          if (opts.signal?.aborted) break;
          check();
          await sameDefinition(r);
          const target = `public.${quoteIdent(r.name)}`;
          // A partitioned index cannot be dropped concurrently; dropping it drops its partitions' indexes too.
          if (r.partitioned) await ddlRetryingLocks(`DROP INDEX IF EXISTS ${target}`, `drop ${r.name}`);
          else await ddl(`DROP INDEX CONCURRENTLY IF EXISTS ${target}`);
          await db.query(`UPDATE ${RECORD_TABLE} SET dropped = true WHERE top_index = $1`, [r.name]);
          dropped += 1;
        }
        const report: DropReport = {
          recorded: record.length,
          dropped,
          resumed,
          interrupted: dropped < todo.length,
          seconds: seconds(t0),
        };
        log('info', 'Dropped secondary indexes', { ...report });
        return report;
      });
    },

    async restoreSecondaryIndexes() {
      const t0 = performance.now();
      return withLock(async (check) => {
        const todo = await pending();
        const report: RestoreReport = { built: 0, kept: 0, left: todo.length, interrupted: false, seconds: 0 };
        if (todo.length === 0) return { ...report, seconds: seconds(t0) };
        log('info', 'Started rebuilding secondary indexes', { indexes: todo.length });
        let n = 0;
        for (const r of todo) {
          if (opts.signal?.aborted) {
            report.interrupted = true;
            break;
          }
          check();
          n += 1;
          const state = await sameDefinition(r);
          if (state?.valid) {
            report.kept += 1;
          } else {
            const target = `public.${quoteIdent(r.name)}`;
            // Left invalid by a build that was cut (or being built by a killed process's session still running):
            // drop it (waiting for that build), then build it here.
            if (state) {
              if (r.partitioned) await ddlRetryingLocks(`DROP INDEX IF EXISTS ${target}`, `drop invalid ${r.name}`);
              else await ddl(`DROP INDEX CONCURRENTLY IF EXISTS ${target}`);
            }
            const t = performance.now();
            if (r.partitioned) await ddlRetryingLocks(buildStatement(r), `build ${r.name}`, r.tablespace);
            else await ddl(buildStatement(r), { tablespace: r.tablespace });
            if (r.comment !== null) await ddl(`COMMENT ON INDEX ${target} IS ${quoteLiteral(r.comment)}`);
            report.built += 1;
            log('info', 'Built index', { index: r.name, table: r.table, n, of: todo.length, seconds: seconds(t) });
          }
          await db.query(`DELETE FROM ${RECORD_TABLE} WHERE index_name = $1`, [r.name]);
          report.left -= 1;
        }
        report.seconds = seconds(t0);
        log('info', report.interrupted ? 'Stopped rebuilding secondary indexes' : 'Rebuilt secondary indexes', {
          ...report,
        });
        return report;
      });
    },

    close: () => db.close(),
  };
}

/** Drops the secondary indexes of BULK_TABLES (recording them first), through a control session of its own. */
export async function dropSecondaryIndexes(config: DatabaseConfig, opts: BulkOptions = {}): Promise<DropReport> {
  const s = await openBulkIndexes(config, opts);
  try {
    return await s.dropSecondaryIndexes();
  } finally {
    await s.close();
  }
}

/** Builds every index a bulk load recorded and clears the record, through a control session of its own. */
export async function restoreSecondaryIndexes(config: DatabaseConfig, opts: BulkOptions = {}): Promise<RestoreReport> {
  const s = await openBulkIndexes(config, opts);
  try {
    return await s.restoreSecondaryIndexes();
  } finally {
    await s.close();
  }
}

export interface BulkBackfillReport<T> {
  /** What `load` returned; undefined when it did not run (the drop phase was interrupted). */
  result: T | undefined;
  drop: DropReport;
  /** Absent when the indexes were left dropped (load not run, failed, or `restoreAfter` said no). */
  restore?: RestoreReport;
  /** Indexes still recorded (dropped) at the end: 0 when the bulk load is complete. */
  pending: number;
  seconds: { drop: number; load: number; restore: number };
}

/**
 * The whole bulk backfill around the caller's ordinary backfill: drop (or resume), `load()`, rebuild. When `load`
 * throws or `restoreAfter(result)` is false the indexes stay dropped and recorded, so running the same thing again
 * (or restoreSecondaryIndexes) finishes. `database` must be PostgreSQL; the load itself uses the caller's own
 * connections (e.g. the queue's workers).
 */
export async function bulkBackfill<T>(
  opts: BulkOptions & {
    database: DatabaseConfig;
    load: () => Promise<T>;
    restoreAfter?: (result: T) => boolean;
  },
): Promise<BulkBackfillReport<T>> {
  const log: Log = opts.log ?? (() => {});
  const s = await openBulkIndexes(opts.database, opts);
  try {
    const drop = await s.dropSecondaryIndexes();
    const secs = { drop: drop.seconds, load: 0, restore: 0 };
    if (drop.interrupted) return { result: undefined, drop, pending: (await s.pending()).length, seconds: secs };
    log('info', 'Started loading with secondary indexes dropped', { dropped: drop.recorded });
    const t0 = performance.now();
    const result = await opts.load();
    secs.load = seconds(t0);
    if (opts.restoreAfter && !opts.restoreAfter(result)) {
      return { result, drop, pending: (await s.pending()).length, seconds: secs };
    }
    const restore = await s.restoreSecondaryIndexes();
    secs.restore = restore.seconds;
    return { result, drop, restore, pending: restore.left, seconds: secs };
  } finally {
    await s.close();
  }
}
