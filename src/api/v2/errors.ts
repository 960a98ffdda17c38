// How v2 words its errors (toncenter 2.1): the HTTP status of our error codes and tonlib's text for liteserver
// errors. v3's legacy methods answer their errors the same way.
import { isTongateError } from '../../common/index.ts';
import { type ErrorMapping, mapError } from '../../http/errors.ts';
import { BodyParseError } from '../../http/input-guard.ts';

/** v2's status for our error codes: liteserver errors are 500 with the liteserver's message (2.1). */
export function v2Status(code: string, fallback: number): number {
  if (code === 'TG_INPUT_INVALID' || code === 'TG_CODEC_INVALID') return 422;
  if (code === 'TG_LITE_SERVER_ERROR' || code === 'TG_PROOF_INVALID' || code === 'TG_ADNL_PROTOCOL') return 500;
  if (code === 'TG_LITE_TIMEOUT') return 504;
  if (code === 'TG_LITE_NO_SERVERS') return 542;
  return fallback;
}

/** tonlib's names for the node's error codes (TonlibError::LiteServer): its messages read "LITE_SERVER_<NAME>: …". */
const LITE_CODE_NAMES: Record<number, string> = {
  601: 'FAILURE',
  602: 'ERROR',
  603: 'WARNING',
  621: 'PROTOVIOLATION',
  651: 'NOTREADY',
  652: 'TIMEOUT',
  653: 'CANCELLED',
};

/** A liteserver's error as tonlib words it (toncenter passes tonlib's text on), without our server's address. */
function liteErrorText(err: unknown): string | undefined {
  if (!isTongateError(err) || err.code !== 'TG_LITE_SERVER_ERROR') return undefined;
  const code = Number(err.details.liteCode);
  const text = err.details.liteMessage;
  if (typeof text !== 'string') return undefined;
  return `LITE_SERVER_${LITE_CODE_NAMES[code] ?? 'UNKNOWN'}: ${text}`;
}

/** Status and message of an error as v2 answers it (v3's legacy methods pass them on the same way). */
export function describeV2Error(err: unknown): ErrorMapping {
  // toncenter's C++ server answers a body it cannot parse with 422 "failed to parse post request: …".
  if (err instanceof BodyParseError) {
    return { ...mapError(err, v2Status), status: 422, message: `failed to parse post request: ${err.message}` };
  }
  const m = mapError(err, v2Status);
  return { ...m, message: liteErrorText(err) ?? m.message };
}
