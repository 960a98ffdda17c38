// The liteServer.error codes the reference node answers with (ton-libs.md §2.5; td::Status codes of
// validator/impl/liteserver.cpp and the validator's ErrorCode enum).
import { LiteServerError } from '../../common/index.ts';

/** Semantic errors: bad arguments, inconsistent data (fatal_error's default code). */
export const LITE_BAD_REQUEST = -400;
/** "not in db" / "not ready": the node does not hold what the query needs (ErrorCode::notready). */
export const LITE_NOT_FOUND = 651;
/** Unknown function (ErrorCode::protoviolation, "unknown query"). */
export const LITE_UNKNOWN_QUERY = 621;
/** The query's deadline passed (LiteQuery::alarm). */
export const LITE_TIMEOUT = -503;

export function badRequest(message: string): LiteServerError {
  return new LiteServerError(LITE_BAD_REQUEST, message);
}

export function notFound(message: string): LiteServerError {
  return new LiteServerError(LITE_NOT_FOUND, message);
}
