// Small pieces every v3 renderer shares: toncenter's encodings of 64-bit numbers (JSON strings) and shard ids, and
// the per-request switches (X-No-Address-Book, X-No-Metadata) that queries/enrichment.ts honours.
import type { FastifyRequest } from 'fastify';
import { oneParam, type Query } from '../params.ts';

/** A 64-bit column (bigint from the driver) as toncenter's JSON string; null stays null. */
export function str(v: unknown): string | null {
  return v === null || v === undefined ? null : String(v);
}

/** A column toncenter prints as a JSON number (int32/uint32 fields read from bigint columns). */
export function num(v: unknown): number | null {
  return v === null || v === undefined ? null : Number(v);
}

/**
 * toncenter's ShardId: fmt "%X" of the unsigned 64-bit id, no padding (ton-index-go models/types.go), so the
 * masterchain is "8000000000000000" and a deep basechain shard such as 0x0800… prints as "800000000000000".
 */
export function shardHex(shard: unknown): string {
  return BigInt.asUintN(64, BigInt(shard as bigint))
    .toString(16)
    .toUpperCase();
}

export interface BlockIdJson {
  workchain: number;
  shard: string;
  seqno: number;
}

export function blockIdJson(workchain: unknown, shard: unknown, seqno: unknown): BlockIdJson {
  // Go zero values when a column is NULL (toncenter's BlockId is a value, never null).
  return { workchain: Number(workchain ?? 0), shard: shardHex(shard ?? 0), seqno: Number(seqno ?? 0) };
}

/** strconv.ParseBool's spellings: X-No-Address-Book and X-No-Metadata take these; anything else is ignored. */
function goBool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/** A per-request switch given as a header or its query twin (v3-api.md §2.3). */
export function requestFlag(req: FastifyRequest, header: string, query: string): boolean {
  const h = req.headers[header];
  return goBool((Array.isArray(h) ? h[0] : h) ?? oneParam(req.query as Query, query)) ?? false;
}
