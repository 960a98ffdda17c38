// Parameters of a v2 call, wherever they came from (GET query, POST JSON body, JSON-RPC params), read the
// way toncenter 2.1 reads them (v2-api.md §2): integers as JSON numbers or decimal strings, shard as signed
// 64-bit decimal, hashes in base64/base64url/hex, booleans in every spelling. A bad value is 422 with a
// message naming the parameter; a missing required one says so.
import { HttpError } from '../../http/errors.ts';

export class V2Params {
  readonly values: Record<string, unknown>;
  readonly source: 'get' | 'post';
  /** Set when the answer came from the response cache (toncenter appends ":c" to @extra). */
  cached = false;
  constructor(values: Record<string, unknown>, source: 'get' | 'post') {
    this.values = values;
    this.source = source;
  }

  fail(message: string): HttpError {
    return new HttpError(422, `failed to parse ${this.source} request: ${message}`);
  }

  /** The raw value (last one of a repeated query key); undefined when absent or empty. */
  raw(name: string): unknown {
    const v = this.values[name];
    const x = Array.isArray(v) && this.source === 'get' ? v[v.length - 1] : v;
    return x === '' || x === null ? undefined : x;
  }

  optString(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'string' && typeof v !== 'number') throw this.fail(`${name} must be a string`);
    return String(v);
  }

  string(name: string): string {
    const v = this.optString(name);
    if (v === undefined) throw this.fail(`${name} is required`);
    return v;
  }

  /** A decimal integer in [min, max] (JSON number or string; GET: decimal digits only). */
  optBigInt(name: string, min: bigint, max: bigint): bigint | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    let n: bigint | undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v);
    else if (typeof v === 'string' && /^-?\d{1,40}$/.test(v)) n = BigInt(v);
    if (n === undefined) throw this.fail(`${name} must be an integer, got '${String(v).slice(0, 40)}'`);
    if (n < min || n > max) throw this.fail(`${name} is out of range: ${n}`);
    return n;
  }

  optInt(name: string, min = -0x80000000, max = 0xffffffff): number | undefined {
    const n = this.optBigInt(name, BigInt(min), BigInt(max));
    return n === undefined ? undefined : Number(n);
  }

  int(name: string, min?: number, max?: number): number {
    const n = this.optInt(name, min, max);
    if (n === undefined) throw this.fail(`${name} is required`);
    return n;
  }

  /** Shard id: signed 64-bit decimal, as toncenter v2 takes it. */
  shard(name = 'shard'): bigint {
    const n = this.optBigInt(name, -(1n << 63n), (1n << 63n) - 1n);
    if (n === undefined) throw this.fail(`${name} is required`);
    return n;
  }

  /** Unsigned 64-bit (lt). */
  optLt(name: string): bigint | undefined {
    return this.optBigInt(name, 0n, (1n << 64n) - 1n);
  }

  optBool(name: string): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v === 'boolean') return v;
    if (typeof v === 'number') return v !== 0;
    const s = String(v).toLowerCase();
    if (['y', 'yes', 't', 'true', 'on', '1'].includes(s)) return true;
    if (['n', 'no', 'f', 'false', 'off', '0'].includes(s)) return false;
    throw this.fail(`${name} must be a boolean, got '${s.slice(0, 20)}'`);
  }

  /** A 32-byte hash: 44-char base64 (std, then url-safe), 43-char unpadded base64url or 64 hex digits. */
  optHash(name: string): Buffer | undefined {
    const v = this.optString(name);
    if (v === undefined) return undefined;
    let b: Buffer | undefined;
    if (/^[0-9a-fA-F]{64}$/.test(v)) b = Buffer.from(v, 'hex');
    else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(v)) b = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (b === undefined || b.length !== 32) throw this.fail(`invalid hash: '${v.slice(0, 80)}'`);
    return b;
  }

  hash(name: string): Buffer {
    const h = this.optHash(name);
    if (h === undefined) throw this.fail(`${name} is required`);
    return h;
  }

  /** All values of a parameter (repeated GET keys or a JSON array). */
  list(name: string): string[] {
    const v = this.values[name];
    if (v === undefined || v === null || v === '') return [];
    const arr = Array.isArray(v) ? v : [v];
    return arr.map(String).filter((s) => s !== '');
  }
}
