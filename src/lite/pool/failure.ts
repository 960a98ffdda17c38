// What one failed attempt means for the pool: whether another server may do better, and whether the server
// that failed should leave the rotation.
import {
  AdnlError,
  CodecError,
  LiteServerError,
  LiteTimeoutError,
  ProofError,
  RETRYABLE_LITE_CODES,
} from '../../common/index.ts';

export type FailureKind =
  /** socket closed, handshake refused, not connected: the server leaves the rotation until it reconnects */
  | 'transport'
  /** no answer within the attempt's deadline: the server leaves the rotation until a probe succeeds */
  | 'timeout'
  /** the answer does not decode or its proof/hash is wrong: same as timeout */
  | 'bad_answer'
  /** "not in db" (651) and friends: this server has no such history; an archive server may */
  | 'history_miss'
  /** overloaded / timed out inside the server (-503, 652, 429 ...): another server may answer */
  | 'server_busy'
  /** a real answer every server would give (-400 bad request, 621 unknown query ...): no retry */
  | 'server_error'
  /** anything else (caller bugs, bad input): passed through untouched */
  | 'caller';

const HISTORY_MISS =
  /not in db|not found in db|block is not applied|cannot load (block|state|proof)|no such block|ltdb/i;

export function isHistoryMiss(e: LiteServerError): boolean {
  return e.liteCode === 651 || HISTORY_MISS.test(String(e.details.liteMessage ?? e.message));
}

export function classifyFailure(e: unknown): FailureKind {
  if (e instanceof LiteTimeoutError) return 'timeout';
  if (e instanceof AdnlError) return 'transport';
  if (e instanceof CodecError || e instanceof ProofError) return 'bad_answer';
  if (e instanceof LiteServerError) {
    if (isHistoryMiss(e)) return 'history_miss';
    return RETRYABLE_LITE_CODES.has(e.liteCode) ? 'server_busy' : 'server_error';
  }
  return 'caller';
}

/** Failures after which the same request may go to another server. */
export function isRetryable(kind: FailureKind): boolean {
  return kind !== 'server_error' && kind !== 'caller';
}

/** Failures that say something is wrong with the server itself (not with the request). */
export function penalizesServer(kind: FailureKind): boolean {
  return kind === 'transport' || kind === 'timeout' || kind === 'bad_answer';
}
