// One error model for every part (style guide §6.5): a stable code, a retryable flag that survives
// serialization, structured details for logs, and a message that says what was expected, what arrived
// and where. Compare errors by `code` wherever they may have crossed a process or queue boundary.

export const ERROR_CODES = {
  TG_CODEC_INVALID: { status: 400, doc: 'chain data does not match its TL-B type (tag, length, leftover bits)' },
  TG_CODEC_PRUNED: { status: 400, doc: 'a value needed for decoding sits in a pruned branch of a proof' },
  TG_PROOF_INVALID: { status: 502, doc: 'a Merkle proof or update does not prove what it claims' },
  TG_INPUT_INVALID: { status: 400, doc: 'user input (address, hash, BoC, stack entry) could not be parsed' },
  TG_ADNL_PROTOCOL: {
    status: 502,
    doc: 'an ADNL peer broke the protocol (handshake, checksum, packet size) or the socket closed',
  },
  TG_LITE_SERVER_ERROR: {
    status: 502,
    doc: 'a liteserver answered liteServer.error (the numeric code is in details.liteCode)',
    // The node's answer to what was asked (a block or account it does not have), not a failure of ours.
    answer: true,
  },
  TG_LITE_TIMEOUT: { status: 504, doc: 'no liteserver answered before the deadline' },
  TG_LITE_NO_SERVERS: { status: 503, doc: 'every liteserver is down, lagging or excluded' },
  TG_CONFIG_INVALID: { status: 500, doc: 'a configuration input (flags, env, TON global config) is invalid' },
  TG_DEVNET_TVM: {
    status: 503,
    doc: 'the devnet TVM runner could not run a call (worker crashed or did not start, queue full, closed, emulator refused the input)',
  },
  TG_DEVNET_STORE_CORRUPT: {
    status: 500,
    doc: 'the devnet store on disk is damaged or incomplete, or was written by a newer store layout',
  },
  TG_DEVNET_STORE_REJECTED: {
    status: 500,
    doc: 'the devnet store refused a write that would break its invariants (overwrite, non-monotonic block, state hash mismatch)',
  },
  TG_DEVNET_STORE_LOCKED: {
    status: 503,
    doc: 'another process holds the devnet store open (LevelDB LOCK); read it through the file-only reader instead',
  },
  TG_DEVNET_COLLATE: {
    status: 500,
    doc: 'the devnet collator refused its input (a previous block or masterchain reference that does not fit, an unusable config, a transaction the emulator could not run)',
  },
  TG_DB_UNAVAILABLE: {
    status: 503,
    doc: 'the database could not be reached or the connection was lost (SQLSTATE classes 08, 53, 57P0x, 58; socket errors); retryable',
  },
  TG_DB_OPEN: {
    status: 500,
    doc: 'the database refused the session or cannot be opened (bad password, missing database, unusable PGlite directory)',
  },
  TG_DB_LOCKED: {
    status: 503,
    doc: 'the PGlite directory is open in another process (or another instance in this one); retryable once it closes',
  },
  TG_DB_CONFLICT: {
    status: 503,
    doc: 'a transaction lost a race (serialization failure 40001, deadlock 40P01, lock not available 55P03); retryable',
  },
  TG_DB_TIMEOUT: { status: 504, doc: 'a statement ran past statement_timeout or was cancelled (57014); retryable' },
  TG_DB_CONSTRAINT: {
    status: 500,
    doc: 'a write broke a constraint (SQLSTATE class 23: unique, not-null, check, domain); not retryable',
  },
  TG_DB_QUERY: {
    status: 500,
    doc: 'any other SQL error (syntax, undefined object, bad input value, data exception); not retryable',
  },
  TG_DB_ENCODE: {
    status: 500,
    doc: 'a value cannot be written as COPY text (NUL in text, NaN, wrong row width, unsupported JS type)',
  },
  TG_DB_USAGE: {
    status: 500,
    doc: 'the Database API was misused (db.query inside db.transaction, a closed handle, a bad identifier)',
  },
  TG_MIGRATION_CHANGED: {
    status: 500,
    doc: 'an applied migration file no longer matches the checksum recorded when it was applied',
  },
  TG_MIGRATION_INVALID: {
    status: 500,
    doc: 'the migration set is unusable: bad file name, duplicate number, out-of-order file, or an applied version this build does not know',
  },
  TG_MIGRATION_FAILED: { status: 500, doc: 'a migration file failed; its transaction was rolled back' },
  TG_INDEX_NOT_READY: {
    status: 503,
    doc: 'a block the indexer needs is not available from its source yet (masterchain head below it, block not stored); retryable',
  },
  TG_INDEX_SOURCE: {
    status: 500,
    doc: 'a block source returned data that contradicts the chain (wrong hash, broken shard chain, missing parent); not retryable',
  },
  TG_QUEUE_UNAVAILABLE: {
    status: 503,
    doc: 'the job queue back end (Redis) could not be reached or the connection was lost; retryable',
  },
  TG_QUEUE_USAGE: {
    status: 500,
    doc: 'the job queue was misused (a bad job id or name, a closed queue, two processors for one job name)',
  },
} as const satisfies Record<string, { status: number; doc: string; answer?: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * An error thrown and caught as control flow (a decoder trying layouts one after another): it carries no stack
 * trace, whose capture cost more than the rest of the attempt (4% of an API server's CPU under v3 transaction reads,
 * where wallet request layouts are tried on every external body).
 */
export class ControlFlowError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

export interface TongateErrorOptions {
  retryable?: boolean;
  cause?: unknown;
  details?: Record<string, unknown>;
}

export class TongateError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, opts: TongateErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = opts.retryable ?? false;
    this.details = opts.details ?? {};
  }
}

/** Thrown by src/ton/ when chain data does not match its TL-B type. */
export class CodecError extends TongateError {
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_CODEC_INVALID', message, opts);
  }
}

/** Thrown by src/ton/proof (and proof-checking clients) when a proof does not hold. */
export class ProofError extends TongateError {
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_PROOF_INVALID', message, opts);
  }
}

/** Thrown when user-supplied text (address, hash, BoC, stack JSON) cannot be parsed. */
export class InputError extends TongateError {
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_INPUT_INVALID', message, opts);
  }
}

/** Thrown by src/adnl/ for transport failures: retryable on another connection. */
export class AdnlError extends TongateError {
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_ADNL_PROTOCOL', message, { retryable: true, ...opts });
  }
}

/**
 * A `liteServer.error` answer. `liteCode` is the node's code (651 not found, -400 bad request, 621 unknown
 * query, -503 timeout ...); codes that mean "this server cannot answer now" are retryable elsewhere.
 */
export class LiteServerError extends TongateError {
  readonly liteCode: number;
  constructor(liteCode: number, message: string, opts: TongateErrorOptions = {}) {
    super('TG_LITE_SERVER_ERROR', message, {
      retryable: RETRYABLE_LITE_CODES.has(liteCode),
      ...opts,
      details: { liteCode, ...opts.details },
    });
    this.liteCode = liteCode;
  }
}

/** Codes a node returns when another (or an archive) server may well answer the same query. */
export const RETRYABLE_LITE_CODES = new Set([651, 652, -503, 502, 228, 429]);

export class LiteTimeoutError extends TongateError {
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_LITE_TIMEOUT', message, { retryable: true, ...opts });
  }
}

export class NoLiteServersError extends TongateError {
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_LITE_NO_SERVERS', message, { retryable: true, ...opts });
  }
}

export class ConfigError extends TongateError {
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_CONFIG_INVALID', message, opts);
  }
}

/**
 * Thrown by src/tvm when a call could not be run at all (not when the TVM ran and failed: that is a
 * result). Crashes and a full queue are retryable; a closed runner or input the emulator refuses is not.
 */
export class TvmError extends TongateError {
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_DEVNET_TVM', message, opts);
  }
}

/** The codes src/devnet/store throws: a damaged store, a refused write, or a store locked by another process. */
export type StoreErrorCode = 'TG_DEVNET_STORE_CORRUPT' | 'TG_DEVNET_STORE_REJECTED' | 'TG_DEVNET_STORE_LOCKED';

/** Thrown by src/devnet/store. Only a locked store is retryable (the other process may exit). */
export class StoreError extends TongateError {
  constructor(code: StoreErrorCode, message: string, opts: TongateErrorOptions = {}) {
    super(code, message, { retryable: code === 'TG_DEVNET_STORE_LOCKED', ...opts });
  }
}

/** Thrown by src/devnet/chain when a block cannot be collated from the given inputs. */
export class CollateError extends TongateError {
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_DEVNET_COLLATE', message, opts);
  }
}

/** The codes src/db throws. Which one, and whether it is retryable, follows the SQLSTATE class (src/db/db-error.ts). */
export type DbErrorCode =
  | 'TG_DB_UNAVAILABLE'
  | 'TG_DB_OPEN'
  | 'TG_DB_LOCKED'
  | 'TG_DB_CONFLICT'
  | 'TG_DB_TIMEOUT'
  | 'TG_DB_CONSTRAINT'
  | 'TG_DB_QUERY'
  | 'TG_DB_ENCODE'
  | 'TG_DB_USAGE';

const RETRYABLE_DB_CODES: ReadonlySet<DbErrorCode> = new Set([
  'TG_DB_UNAVAILABLE',
  'TG_DB_LOCKED',
  'TG_DB_CONFLICT',
  'TG_DB_TIMEOUT',
]);

/**
 * Thrown by src/db. Retryable when another attempt may succeed (connection lost, server starting, lock
 * race, timeout); not when the statement itself is wrong (constraint violation, syntax, bad value).
 * `details.sqlstate` holds the server's SQLSTATE when there was one.
 */
export class DbError extends TongateError {
  constructor(code: DbErrorCode, message: string, opts: TongateErrorOptions = {}) {
    super(code, message, { retryable: RETRYABLE_DB_CODES.has(code), ...opts });
  }
}

export type MigrationErrorCode = 'TG_MIGRATION_CHANGED' | 'TG_MIGRATION_INVALID' | 'TG_MIGRATION_FAILED';

/** Thrown by src/db/migrate: never retryable (a lost connection during a migration surfaces as a DbError). */
export class MigrationError extends TongateError {
  constructor(code: MigrationErrorCode, message: string, opts: TongateErrorOptions = {}) {
    super(code, message, { ...opts, retryable: false });
  }
}

export type QueueErrorCode = 'TG_QUEUE_UNAVAILABLE' | 'TG_QUEUE_USAGE';

/** Thrown by src/queue. Only an unreachable back end is retryable. */
export class QueueError extends TongateError {
  constructor(code: QueueErrorCode, message: string, opts: TongateErrorOptions = {}) {
    super(code, message, { retryable: code === 'TG_QUEUE_UNAVAILABLE', ...opts });
  }
}

export function isTongateError(e: unknown): e is TongateError {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && 'retryable' in e;
}

export type IndexErrorCode = 'TG_INDEX_NOT_READY' | 'TG_INDEX_SOURCE';

/** Thrown by src/index. A block that is not available yet is retryable; contradictory source data is not. */
export class IndexError extends TongateError {
  constructor(code: IndexErrorCode, message: string, opts: TongateErrorOptions = {}) {
    super(code, message, { retryable: code === 'TG_INDEX_NOT_READY', ...opts });
  }
}
