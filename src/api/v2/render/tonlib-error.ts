// Liteserver refusals worded as toncenter shows them: tonlib turns a liteServer.error into
// "LITE_SERVER_<NAME>: <message>" (tonlib/TonlibError.h LiteServer, names from common/errorcode.h) and the 2.1 server
// answers it with HTTP 500, e.g. "LITE_SERVER_UNKNOWN: cannot apply external message to current state : ...".
// Other errors pass through to the plugin's mapping (timeouts 504, no servers 542).
import { LiteServerError } from '../../../common/index.ts';
import { HttpError } from '../../../http/errors.ts';

const NAMES: Record<number, string> = {
  601: 'FAILURE',
  602: 'ERROR',
  603: 'WARNING',
  621: 'PROTOVIOLATION',
  651: 'NOTREADY',
  652: 'TIMEOUT',
  653: 'CANCELLED',
};

export function tonlibError(e: unknown): unknown {
  if (!(e instanceof LiteServerError)) return e;
  const text = typeof e.details.liteMessage === 'string' ? e.details.liteMessage : e.message;
  return new HttpError(500, `LITE_SERVER_${NAMES[e.liteCode] ?? 'UNKNOWN'}: ${text}`, { cause: e });
}

/** Runs `fn`, rewording liteserver refusals the way tonlib does. */
export async function asTonlib<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw tonlibError(e);
  }
}
