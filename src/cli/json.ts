// Plain JSON for decoded chain objects: what operators read and scripts parse. Big numbers become
// decimal strings (64-bit lts and coins overflow JSON numbers), hashes and byte strings hex, addresses
// raw `wc:hex`, cells their hash (plus the BoC for small ones, so they can be fed back).
import { Address, Cell, Dictionary } from '@ton/core';

const INLINE_BOC_MAX = 1024;

export function toJsonValue(v: unknown, depth = 0): unknown {
  if (depth > 200) return '[too deep]';
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'function') return undefined;
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  if (v instanceof Address) return v.toRawString();
  if (v instanceof Cell) {
    const out: Record<string, unknown> = { cell_hash: v.hash().toString('hex') };
    if (v.isExotic) out.exotic = v.type;
    if (!v.isExotic) {
      const boc = v.toBoc();
      if (boc.length <= INLINE_BOC_MAX) out.boc = boc.toString('base64');
    }
    return out;
  }
  if (v instanceof Dictionary) {
    const out: Record<string, unknown> = {};
    for (const k of v.keys()) out[String(toJsonValue(k, depth + 1))] = toJsonValue(v.get(k), depth + 1);
    return out;
  }
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, val] of v) out[String(toJsonValue(k, depth + 1))] = toJsonValue(val, depth + 1);
    return out;
  }
  if (Array.isArray(v)) return v.map((x) => toJsonValue(x, depth + 1));
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) {
      const j = toJsonValue(val, depth + 1);
      if (j !== undefined) out[k] = j;
    }
    return out;
  }
  return String(v);
}

export function toJsonText(v: unknown): string {
  return JSON.stringify(toJsonValue(v), null, 2);
}
