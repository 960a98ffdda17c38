// Driver errors to DbError, by SQLSTATE class (PostgreSQL docs, Appendix A) or by socket error code.
// Retryable: the server could not be reached or dropped us, a lock race, a timeout. Not retryable: the
// statement or its data is wrong (constraint, syntax, bad value) or the session was refused.
import { DbError, type DbErrorCode, isTongateError } from '../common/index.ts';

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ECONNABORTED',
]);

/** node-postgres reports these without a code when a socket closes or a pool cannot connect in time. */
const CONNECTION_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection ended unexpectedly/i,
];

/** Which DbError code an SQLSTATE maps to. */
export function codeForSqlState(sqlstate: string): DbErrorCode {
  const cls = sqlstate.slice(0, 2);
  if (cls === '08' || cls === '53' || cls === '58') return 'TG_DB_UNAVAILABLE';
  if (sqlstate === '57P01' || sqlstate === '57P02' || sqlstate === '57P03' || sqlstate === '57P05') {
    return 'TG_DB_UNAVAILABLE';
  }
  if (sqlstate === '57014') return 'TG_DB_TIMEOUT';
  if (cls === '40' || sqlstate === '55P03') return 'TG_DB_CONFLICT';
  if (cls === '28' || sqlstate === '3D000') return 'TG_DB_OPEN';
  if (cls === '23') return 'TG_DB_CONSTRAINT';
  return 'TG_DB_QUERY';
}

interface DriverErrorShape {
  message?: unknown;
  code?: unknown;
  detail?: unknown;
  hint?: unknown;
  position?: unknown;
  table?: unknown;
  column?: unknown;
  constraint?: unknown;
  schema?: unknown;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * Wraps any error a driver threw. `where` names the database (no password), `what` the operation
 * ("query", "COPY into transactions"); `sql` goes into details only (its first 300 characters).
 */
export function toDbError(e: unknown, ctx: { where: string; what: string; sql?: string }): Error {
  if (isTongateError(e)) return e;
  if (!(e instanceof Error)) return new DbError('TG_DB_QUERY', `${ctx.what} failed: ${String(e)}`);
  const err = e as Error & DriverErrorShape;
  const message = (str(err.message) ?? 'unknown error').split('\n')[0]!;
  const code = str(err.code);
  const details: Record<string, unknown> = { database: ctx.where };
  if (ctx.sql !== undefined) details.sql = ctx.sql.slice(0, 300);
  // EPIPE has the shape of a SQLSTATE (five capitals), so socket errno codes are recognised first.
  if (code !== undefined && !SOCKET_CODES.has(code) && /^[0-9A-Z]{5}$/.test(code)) {
    details.sqlstate = code;
    for (const key of ['detail', 'hint', 'position', 'table', 'column', 'constraint', 'schema'] as const) {
      const v = str(err[key]);
      if (v !== undefined) details[key] = v;
    }
    const dbCode = codeForSqlState(code);
    // Session-level failures name the database; statement-level ones name the operation.
    const head = dbCode === 'TG_DB_UNAVAILABLE' || dbCode === 'TG_DB_OPEN' ? ctx.where : `${ctx.what} failed`;
    return new DbError(dbCode, `${head}: ${message} (SQLSTATE ${code})`, { cause: e, details });
  }
  if ((code !== undefined && SOCKET_CODES.has(code)) || CONNECTION_MESSAGES.some((re) => re.test(message))) {
    if (code !== undefined) details.errno = code;
    return new DbError('TG_DB_UNAVAILABLE', `cannot reach ${ctx.where}: ${message}`, { cause: e, details });
  }
  return new DbError('TG_DB_QUERY', `${ctx.what} failed: ${message}`, { cause: e, details });
}
