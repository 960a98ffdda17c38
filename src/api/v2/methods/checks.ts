// Parameter checks the block, transaction and config methods share, worded as toncenter 2.1 words them
// (ton-http-api-cpp's ValidateRequest).
import { HttpError } from '../../../http/errors.ts';
import type { V2Params } from '../params.ts';

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;

/** A request that parsed but breaks a rule, worded like ton-http-api-cpp's ValidateRequest (422). */
export function invalid(message: string): HttpError {
  return new HttpError(422, `failed to validate request: ${message}`);
}

/** An int32 parameter (toncenter parses them as int32). */
export function optInt32(p: V2Params, name: string): number | undefined {
  return p.optInt(name, INT32_MIN, INT32_MAX);
}

export function int32(p: V2Params, name: string): number {
  return p.int(name, INT32_MIN, INT32_MAX);
}

/** A signed int64 parameter (lt, created_lt, after_lt in toncenter are int64). */
export function optInt64(p: V2Params, name: string): bigint | undefined {
  return p.optBigInt(name, -(1n << 63n), (1n << 63n) - 1n);
}

/** `seqno` of a block: required or not, and "seqno should be positive" when given. */
export function seqnoParam(p: V2Params, name: string, required: true): number;
export function seqnoParam(p: V2Params, name: string, required: false): number | undefined;
export function seqnoParam(p: V2Params, name: string, required: boolean): number | undefined {
  const n = required ? int32(p, name) : optInt32(p, name);
  if (n !== undefined && n <= 0) throw invalid(`${name} should be positive`);
  return n;
}
