// What a back end provides to database.ts. Drivers move SQL and bytes; they do not map errors, encode
// values or check usage: database.ts does that once for both.

export interface DriverResult {
  rows: Record<string, unknown>[];
  rowCount: number;
}

export interface DriverSession {
  /** One statement with $n parameters (already normalised by values.ts). */
  query(sql: string, params: readonly unknown[]): Promise<DriverResult>;
  /** A script of statements without parameters (simple query protocol). */
  exec(script: string): Promise<void>;
  /** `COPY <target> FROM …` in text format, fed with `chunks` (each ends at a row boundary). */
  copyIn(target: string, chunks: AsyncIterable<Buffer>): Promise<void>;
}

export interface Driver {
  /** Names the database in error messages, without a password. */
  readonly where: string;
  /** Statements outside a transaction. */
  readonly direct: DriverSession;
  /** BEGIN, fn on one connection, COMMIT; ROLLBACK (and rethrow) if fn throws. */
  transaction<T>(fn: (s: DriverSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * COMMIT of a transaction in which a statement failed (and fn caught the error) rolls back instead.
 * PostgreSQL reports that only through the command tag; both drivers turn it into this error.
 */
export function rolledBackAtCommit(): Error {
  const e = new Error(
    'the transaction was rolled back at COMMIT because a statement in it had failed (an error was caught inside the callback)',
  ) as Error & { code: string };
  e.code = '25P02';
  return e;
}
