// Query parameters of v3 as toncenter parses them (v3-api.md §2.3-2.9): addresses in any form normalised
// to raw upper-case, hashes in hex or base64(url) normalised to standard base64, shard as hex or signed
// decimal (render/filters.ts shardParam), opcode as hex or signed 32-bit decimal, limit/offset/sort, lt and utime windows. Every
// parser throws HttpError 422 with a message naming the parameter, so routes never see bad input.
import { HttpError } from '../../http/errors.ts';
import { normalizeAddressV3 } from '../../ton/address/index.ts';
import { MIN_LIMIT } from './limits.ts';

export type Query = Record<string, unknown>;

export function invalid(message: string): HttpError {
  return new HttpError(422, message);
}

/** All values of a parameter: repeated keys and comma-separated lists, empty strings dropped. */
export function listParam(q: Query, name: string): string[] {
  const v = q[name];
  const raw = v === undefined ? [] : Array.isArray(v) ? v : [v];
  return raw
    .flatMap((x) => String(x).split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The single value of a parameter, or undefined (empty = not given). */
export function oneParam(q: Query, name: string): string | undefined {
  const v = q[name];
  const x = Array.isArray(v) ? v[v.length - 1] : v;
  if (x === undefined || x === null) return undefined;
  const s = String(x).trim();
  return s === '' ? undefined : s;
}

export function required(q: Query, name: string): string {
  const v = oneParam(q, name);
  if (v === undefined) throw invalid(`${name} is required`);
  return v;
}

export function parseAddressParam(value: string, name: string): string {
  try {
    return normalizeAddressV3(value);
  } catch {
    throw invalid(`invalid address in ${name}: '${value.slice(0, 80)}'`);
  }
}

export function addressParam(q: Query, name: string): string | undefined {
  const v = oneParam(q, name);
  return v === undefined ? undefined : parseAddressParam(v, name);
}

export function addressListParam(q: Query, name: string): string[] {
  return listParam(q, name).map((v) => parseAddressParam(v, name));
}

/** 64 hex digits (optional 0x), or 44-char base64 / base64url, or 43-char unpadded base64url -> std base64. */
export function parseHash(value: string, name: string): string {
  let bytes: Buffer | undefined;
  const hex = value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value;
  if (/^[0-9a-fA-F]{64}$/.test(hex)) bytes = Buffer.from(hex, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value))
    bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes === undefined || bytes.length !== 32) throw invalid(`invalid hash in ${name}: '${value.slice(0, 80)}'`);
  return bytes.toString('base64');
}

export function hashParam(q: Query, name: string): string | undefined {
  const v = oneParam(q, name);
  return v === undefined ? undefined : parseHash(v, name);
}

export function hashListParam(q: Query, name: string): string[] {
  return listParam(q, name).map((v) => parseHash(v, name));
}

/**
 * An integer parameter. Fractions are refused (as for limit: truncating offset=1.7 hid a caller's bug) unless
 * `truncate` is set: toncenter truncates the fractional unix times clients compute (start_utime=1700000000.5).
 */
export function intParam(
  q: Query,
  name: string,
  opts: { min?: number; max?: number; truncate?: boolean } = {},
): number | undefined {
  const v = oneParam(q, name);
  if (v === undefined) return undefined;
  const form = opts.truncate ? /^-?\d{1,20}(\.\d{1,20})?$/ : /^-?\d{1,20}$/;
  if (!form.test(v)) throw invalid(`invalid ${name}: '${v.slice(0, 40)}' is not an integer`);
  const n = Math.trunc(Number(v));
  if (!Number.isSafeInteger(n)) throw invalid(`invalid ${name}: ${v} is out of range`);
  if (opts.min !== undefined && n < opts.min) throw invalid(`invalid ${name}: ${n} < ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) throw invalid(`invalid ${name}: ${n} > ${opts.max}`);
  return n;
}

/** Unsigned 64-bit (lt): decimal only. */
export function ltParam(q: Query, name: string): bigint | undefined {
  const v = oneParam(q, name);
  if (v === undefined) return undefined;
  if (!/^\d{1,20}$/.test(v) || BigInt(v) > (1n << 63n) - 1n)
    throw invalid(`invalid ${name}: '${v.slice(0, 40)}' is not an unsigned integer`);
  return BigInt(v);
}

export function boolParam(q: Query, name: string): boolean | undefined {
  const v = oneParam(q, name)?.toLowerCase();
  if (v === undefined) return undefined;
  if (['1', 'true', 't', 'yes', 'y'].includes(v)) return true;
  if (['0', 'false', 'f', 'no', 'n'].includes(v)) return false;
  throw invalid(`invalid ${name}: '${v.slice(0, 20)}' is not a boolean`);
}

/** Opcode: 0x-hex, bare hex (tried first, as toncenter does) or signed 32-bit decimal -> signed 32-bit. */
export function parseOpcode(value: string, name = 'opcode'): number {
  let n: number | undefined;
  if (/^0[xX][0-9a-fA-F]{1,8}$/.test(value) || /^[0-9a-fA-F]{1,8}$/.test(value)) {
    n = Number.parseInt(value.replace(/^0[xX]/, ''), 16);
  } else if (/^-\d{1,10}$/.test(value)) n = Number(value);
  if (n === undefined || n < -0x80000000 || n > 0xffffffff) throw invalid(`invalid ${name}: '${value.slice(0, 20)}'`);
  return n > 0x7fffffff ? n - 0x100000000 : n;
}

/** toncenter's "0x%08x" form of a stored signed 32-bit opcode. */
export function formatOpcode(op: number | null): string | null {
  if (op === null) return null;
  return `0x${(op >>> 0).toString(16).padStart(8, '0')}`;
}

export interface Page {
  limit: number;
  offset: number;
  sort: 'asc' | 'desc';
}

export function pageParams(
  q: Query,
  opts: { maxLimit: number; defaultLimit: number; defaultSort?: 'asc' | 'desc' },
): Page {
  const lim = oneParam(q, 'limit');
  let limit = opts.defaultLimit;
  if (lim !== undefined) {
    if (!/^-?\d+$/.test(lim)) throw invalid(`invalid limit: '${lim.slice(0, 20)}' is not an integer`);
    limit = Number(lim);
    // toncenter raises limit < 1 to 1; a limit of 0 or below is almost always a caller's bug, so it is
    // refused with the range instead (issue 6), like a limit above the maximum.
    if (limit < MIN_LIMIT) throw invalid(`limit is not allowed: ${limit} < ${MIN_LIMIT}`);
    if (limit > opts.maxLimit) throw invalid(`limit is not allowed: ${limit} > ${opts.maxLimit}`);
  }
  const offset = intParam(q, 'offset', { min: 0 }) ?? 0;
  const s = oneParam(q, 'sort')?.toLowerCase();
  let sort: 'asc' | 'desc' = opts.defaultSort ?? 'desc';
  if (s !== undefined) {
    if (s === 'asc' || s === 'a') sort = 'asc';
    else if (s === 'desc' || s === 'd') sort = 'desc';
    else throw invalid('wrong value for sort parameter');
  }
  return { limit, offset, sort };
}

/**
 * A WHERE clause built from parameters: each condition adds its values as $n placeholders, so no value is
 * ever spliced into SQL text (security rule).
 */
export class Where {
  readonly conditions: string[] = [];
  readonly params: unknown[] = [];
  /** Adds a value and returns its placeholder. */
  value(v: unknown): string {
    this.params.push(v);
    return `$${this.params.length}`;
  }
  add(condition: string): this {
    this.conditions.push(condition);
    return this;
  }
  sql(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }
}
