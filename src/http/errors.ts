// One error model for both APIs. Handlers throw HttpError (or any TongateError, mapped here); each API's
// plugin renders it in its own body shape (v2: {ok:false,error,code}; v3: {error}), so the status and the
// message are decided once. Unexpected errors become 500 with a short message, never a stack trace.
import { ERROR_CODES, type ErrorCode, isTongateError } from '../common/index.ts';

export class HttpError extends Error {
  readonly status: number;
  /** Extra response headers (Retry-After on 429). */
  readonly headers: Record<string, string>;
  /**
   * A 5xx the server answers by design (overload, a limiter that cannot count): logged by whoever noticed the state
   * once, not as a failed request per answer.
   */
  readonly expected: boolean;
  constructor(
    status: number,
    message: string,
    opts: { headers?: Record<string, string>; cause?: unknown; expected?: boolean } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'HttpError';
    this.status = status;
    this.headers = opts.headers ?? {};
    this.expected = opts.expected ?? false;
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

/** Longest message an error body carries: messages quote input, and a body must not echo a large request. */
export const MAX_ERROR_MESSAGE = 300;

/** The text of an internal failure the client is not told about (it is logged with the request id instead). */
export const INTERNAL_MESSAGE = 'internal server error';

function capped(message: string): string {
  return message.length <= MAX_ERROR_MESSAGE ? message : `${message.slice(0, MAX_ERROR_MESSAGE - 3)}...`;
}

/** Database failures other than a timeout say nothing about the server to the client (SQL, table names, values). */
function hidden(code: string): boolean {
  return code.startsWith('TG_DB_') && code !== 'TG_DB_TIMEOUT';
}

/**
 * Status and message for any thrown value. `statusFor` lets an API move TongateError codes (v2 answers
 * liteserver errors with 500 as toncenter's C++ server does; v3 answers input errors with 422). Messages are cut
 * to MAX_ERROR_MESSAGE characters.
 */
export function mapError(e: unknown, statusFor: (code: string, fallback: number) => number): ErrorMapping {
  if (e instanceof HttpError) {
    return {
      status: e.status,
      message: capped(e.message),
      internal: e.status >= 500 && !e.expected,
      headers: e.headers,
    };
  }
  const client = fastifyClientError(e);
  if (client) return { ...client, message: capped(client.message), internal: false, headers: {} };
  if (isTongateError(e)) {
    const def: { status: number; answer?: boolean } | undefined = ERROR_CODES[e.code as ErrorCode];
    const status = statusFor(e.code, def?.status ?? 500);
    const message = hidden(e.code) ? INTERNAL_MESSAGE : capped(e.message.split('\n')[0] ?? e.code);
    // A code marked as an answer (a liteserver's refusal) is passed on, even as a 5xx (v2 answers it 500 like
    // toncenter), but it is not our failure and is not logged as one (the request line has its status).
    const internal = status >= 500 && def?.answer !== true;
    return { status, message, internal, headers: {} };
  }
  return { status: 500, message: INTERNAL_MESSAGE, internal: true, headers: {} };
}
