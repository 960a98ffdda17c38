// PGlite: PostgreSQL in WASM, one connection, opened inside the PGlite thread (pglite-worker.ts; the rest of the
// process reaches it through pglite-thread.ts). Every statement and transaction runs one at a time (PGlite queues
// them itself). COPY reads a Blob at '/dev/blob'; the encoder's chunks are grouped into Blobs of at most
// BLOB_BYTES, each one COPY statement, all inside one transaction so the copy is atomic as a single COPY is on
// PostgreSQL. PostgreSQL's timeouts (statement_timeout, as v3's read() sets with SET LOCAL) interrupt statements as
// on a server through pglite-timeout.ts; without it PGlite ignores them.
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { type Driver, type DriverResult, type DriverSession, rolledBackAtCommit } from './driver.ts';
import { type AlarmShared, pgliteTimeouts } from './pglite-timeout.ts';
import { TEXT_PARSERS } from './values.ts';

const BLOB_BYTES = 32 << 20;

function sessionOf(target: PGlite | Transaction): DriverSession {
  return {
    async query(sql, params): Promise<DriverResult> {
      const r = await target.query<Record<string, unknown>>(sql, params as unknown[]);
      return { rows: r.rows, rowCount: r.rowCount ?? r.affectedRows ?? 0 };
    },
    async exec(script) {
      await target.exec(script);
    },
    async copyIn(copyTarget, chunks) {
      let parts: Buffer[] = [];
      let size = 0;
      const flush = async () => {
        if (parts.length === 0) return;
        const blob = new Blob(parts);
        parts = [];
        size = 0;
        await target.query(`COPY ${copyTarget} FROM '/dev/blob'`, [], { blob });
      };
      for await (const chunk of chunks) {
        parts.push(chunk);
        size += chunk.length;
        if (size >= BLOB_BYTES) await flush();
      }
      await flush();
    },
  };
}

/**
 * Ends the transaction with ROLLBACK, tried a second time when the first one fails (a pending cancel is consumed by
 * the statement it lands on), so the session is out of any transaction block afterwards.
 */
async function rollback(tx: Transaction): Promise<void> {
  try {
    await tx.rollback();
  } catch {
    await tx.rollback();
  }
}

/**
 * Opens the PGlite database in `dir` (which exists and which the caller has locked) in this thread. `onAlarm` gets
 * what the thread watching its statement timeouts needs (pglite-alarm.ts).
 */
export async function openPgliteDriver(dir: string, onAlarm: (shared: AlarmShared) => void): Promise<Driver> {
  const timeouts = pgliteTimeouts(onAlarm);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dir, { parsers: TEXT_PARSERS, extensions: { tongateTimeouts: timeouts.extension } });
  } catch (e) {
    await timeouts.close();
    throw e;
  }
  const direct = sessionOf(pglite);
  const transaction = async <T>(fn: (s: DriverSession) => Promise<T>): Promise<T> => {
    let fnDone = false;
    try {
      return await pglite.transaction(async (tx) => {
        // The transaction ends here, not in PGlite's wrapper: a COMMIT or ROLLBACK that fails (a cancel raised in
        // the last moments of a timed-out statement lands on the next one) must not leave the session inside an
        // aborted transaction block, where every later statement of every caller would fail (25P02).
        let out: T;
        try {
          out = await fn(sessionOf(tx));
        } catch (e) {
          await rollback(tx);
          throw e;
        }
        fnDone = true;
        let tag: string | undefined;
        try {
          tag = (await tx.exec('COMMIT'))[0]?.command;
        } catch (e) {
          await rollback(tx);
          throw e;
        }
        // PGlite answers COMMIT of a transaction in which a statement had failed with the tag ROLLBACK.
        if (tag === 'ROLLBACK') throw rolledBackAtCommit();
        // Ended: PGlite's own COMMIT after this finds no transaction (a warning, no error).
        return out;
      });
    } catch (e) {
      // After fn returned, only COMMIT can fail: with a deferred constraint's SQLSTATE, or, when a
      // statement had failed inside, with PGlite's own "rolled back" error, worded here as on PostgreSQL.
      const sqlstate = (e as { code?: unknown }).code;
      if (fnDone && (typeof sqlstate !== 'string' || sqlstate === '' || sqlstate === '25P02')) {
        throw rolledBackAtCommit();
      }
      throw e;
    }
  };
  return {
    where: `PGlite at ${dir}`,
    direct: {
      query: direct.query,
      exec: direct.exec,
      // Several COPY statements are atomic only together in one transaction.
      copyIn: (copyTarget, chunks) => transaction((s) => s.copyIn(copyTarget, chunks)),
    },
    transaction,
    async close() {
      // Before the instance goes: no signal may reach a closed PostgreSQL.
      await timeouts.close();
      await pglite.close();
    },
  };
}
