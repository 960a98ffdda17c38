// Request pieces the blockchain endpoints share, parsed as toncenter parses them (v3-api.md §2.6, §2.9):
// int32 filters, the utime and lt windows, the in/out direction. Every parser throws a 422 naming the
// parameter, through params.ts.
import { intParam, invalid, ltParam, oneParam, type Query, required } from '../params.ts';

const INT32 = { min: -0x80000000, max: 0x7fffffff } as const;

/** An int32 query parameter (workchain, seqno, mc_seqno), or undefined. */
export function int32Param(q: Query, name: string): number | undefined {
  return intParam(q, name, INT32);
}

/**
 * A required masterchain seqno. toncenter reads it with QueryInt, so a missing or malformed value becomes 0
 * and the lookup answers 404; the OpenAPI document marks it required, so we say so with a 422 instead.
 */
export function requiredSeqno(q: Query, name = 'seqno'): number {
  required(q, name);
  return int32Param(q, name) as number;
}

/**
 * shard as toncenter's ShardIdConverter reads it: hex first (optional 0x, 1-16 digits, so the unpadded
 * "800000000000000" we print reads back), then signed decimal; -> the signed 64-bit id blocks.shard stores.
 */
export function shardParam(q: Query, name = 'shard'): bigint | undefined {
  const v = oneParam(q, name);
  if (v === undefined) return undefined;
  const hex = v.startsWith('0x') ? v.slice(2) : v;
  if (/^[0-9a-fA-F]{1,16}$/.test(hex)) return BigInt.asIntN(64, BigInt(`0x${hex}`));
  if (/^-?\d{1,19}$/.test(v)) {
    const n = BigInt(v);
    if (n >= -(1n << 63n) && n < 1n << 63n) return n;
  }
  throw invalid(`invalid ${name}: '${v.slice(0, 40)}'`);
}

export interface Window {
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
}

/**
 * start_utime/end_utime (unix seconds, floats truncated as toncenter does) and start_lt/end_lt (unsigned).
 * A window whose start is past its end is refused (toncenter would answer an empty page; a 4xx names the
 * mistake instead, as the issue asks).
 */
export function windowParams(q: Query): Window {
  const w: Window = {
    startUtime: intParam(q, 'start_utime', { min: 0, truncate: true }),
    endUtime: intParam(q, 'end_utime', { min: 0, truncate: true }),
    startLt: ltParam(q, 'start_lt'),
    endLt: ltParam(q, 'end_lt'),
  };
  if (w.startUtime !== undefined && w.endUtime !== undefined && w.startUtime > w.endUtime) {
    throw invalid(`start_utime ${w.startUtime} is greater than end_utime ${w.endUtime}`);
  }
  if (w.startLt !== undefined && w.endLt !== undefined && w.startLt > w.endLt) {
    throw invalid(`start_lt ${w.startLt} is greater than end_lt ${w.endLt}`);
  }
  return w;
}

export function hasUtime(w: Window | undefined): boolean {
  return w?.startUtime !== undefined || w?.endUtime !== undefined;
}

export type Direction = 'in' | 'out';

/** direction=in|out, toncenter's message for anything else (validateDirection in ton-index-go). */
export function directionParam(q: Query): Direction | undefined {
  const v = oneParam(q, 'direction');
  if (v === undefined) return undefined;
  if (v !== 'in' && v !== 'out') throw invalid('direction should be one of: in, out');
  return v;
}
