// One error model for both APIs. Handlers throw HttpError (or any TongateError, mapped here); each API's
// plugin renders it in its own body shape (v2: {ok:false,error,code}; v3: {error}), so the status and the
// message are decided once. Unexpected errors become 500 with a short message, never a stack trace.
import { ERROR_CODES, type ErrorCode, isTongateError } from '../common/index.ts';

export class HttpError extends Error {
  readonly status: number;
  /** Extra response headers (Retry-After on 429). */
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, opts: { headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'HttpError';
    this.status = status;
    this.headers = opts.headers ?? {};
  }
}

export interface ErrorMapping {
  status: number;
  message: string;
  /** true for errors the client did not cause (logged at error level). */
  internal: boolean;
  headers: Record<string, string>;
}

/** Fastify's own request errors (bad JSON, body too large, wrong content type) keep their 4xx status. */
function fastifyClientError(e: unknown): { status: number; message: string } | null {
  if (!(e instanceof Error)) return null;
  const err = e as Error & { statusCode?: number; code?: string; validation?: unknown };
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, message: 'request body is too large' };
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return { status: 415, message: 'unsupported content type: send application/json' };
    }
    if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return { status: 400, message: 'empty JSON body' };
    return { status: err.statusCode, message: err.message };
  }
  return null;
}

/**
 * Status and message for any thrown value. `statusFor` lets an API move TongateError codes (v2 answers
 * liteserver errors with 500 as toncenter's C++ server does; v3 answers input errors with 422).
 */
export function mapError(e: unknown, statusFor: (code: string, fallback: number) => number): ErrorMapping {
  if (e instanceof HttpError) {
    return { status: e.status, message: e.message, internal: e.status >= 500, headers: e.headers };
  }
  const client = fastifyClientError(e);
  if (client) return { ...client, internal: false, headers: {} };
  if (isTongateError(e)) {
    const status = statusFor(e.code, ERROR_CODES[e.code as ErrorCode]?.status ?? 500);
    return { status, message: e.message.split('\n')[0] ?? e.code, internal: status >= 500, headers: {} };
  }
  return { status: 500, message: 'internal server error', internal: true, headers: {} };
}
