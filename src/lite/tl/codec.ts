// Runtime TL codec for lite_api: walks the generated schema table. Decoding takes bytes from peers, so every
// failure is a CodecError (never a RangeError or TypeError) and nothing is allocated from an unchecked length.
// Encoding is strict: a field that does not match its type, or a flagged field whose presence disagrees with
// its bit, is an error rather than silently dropped (the bug of ton-lite-client's generated codecs).
import { CodecError } from '../../common/index.ts';
import { TL_BUILTIN_IDS, TL_SCHEMA, type TlObject, type TlObjectByName } from './schema.generated.ts';
import type { TlConstructorSchema, TlFieldSchema, TlTypeRef } from './schema-types.ts';

const BOOL_TRUE = TL_BUILTIN_IDS.boolTrue;
const BOOL_FALSE = TL_BUILTIN_IDS.boolFalse;
const VECTOR = TL_BUILTIN_IDS.vector;
/** `bytes` carry a 3-byte length at most. */
const MAX_BYTES = 0xffffff;
const INT64_MIN = -(1n << 63n);
const UINT64_END = 1n << 64n;

const byName = new Map<string, TlConstructorSchema>();
const byId = new Map<number, TlConstructorSchema>();
const typeMembers = new Map<string, Map<number, TlConstructorSchema>>();
for (const c of TL_SCHEMA) {
  byName.set(c.name, c);
  byId.set(c.id, c);
  if (c.kind === 'type') {
    const m = typeMembers.get(c.type) ?? new Map<number, TlConstructorSchema>();
    typeMembers.set(c.type, m);
    m.set(c.id, c);
  }
}

/** The schema entry of a constructor or function, by TL name (undefined if lite_api.tl has no such name). */
export function tlConstructor(name: string): TlConstructorSchema | undefined {
  return byName.get(name);
}

/** Constructor id of a lite_api constructor/function or TL built-in (`boolTrue`, `vector`, ...). */
export function tlConstructorId(name: string): number {
  const c = byName.get(name);
  if (c) return c.id;
  if (Object.hasOwn(TL_BUILTIN_IDS, name)) return TL_BUILTIN_IDS[name as keyof typeof TL_BUILTIN_IDS];
  throw new CodecError(`tlConstructorId: expected a constructor name from lite_api.tl, got '${name}'`);
}

// ---------------------------------------------------------------------------------------------------------------
// Encoding

class Writer {
  private readonly chunks: Buffer[] = [];
  private cur = Buffer.allocUnsafe(256);
  private pos = 0;
  length = 0;

  private room(n: number): void {
    if (this.pos + n <= this.cur.length) return;
    this.flush();
    this.cur = Buffer.allocUnsafe(Math.max(256, n));
  }
  private flush(): void {
    if (this.pos > 0) this.chunks.push(this.cur.subarray(0, this.pos));
    this.cur = this.cur.subarray(this.pos);
    this.pos = 0;
  }
  u32(v: number): void {
    this.room(4);
    this.cur.writeUInt32LE(v, this.pos);
    this.pos += 4;
    this.length += 4;
  }
  i32(v: number): void {
    this.room(4);
    this.cur.writeInt32LE(v, this.pos);
    this.pos += 4;
    this.length += 4;
  }
  i64(v: bigint): void {
    this.room(8);
    this.cur.writeBigUInt64LE(BigInt.asUintN(64, v), this.pos);
    this.pos += 8;
    this.length += 8;
  }
  f64(v: number): void {
    this.room(8);
    this.cur.writeDoubleLE(v, this.pos);
    this.pos += 8;
    this.length += 8;
  }
  raw(b: Uint8Array): void {
    if (b.length <= 64) {
      this.room(b.length);
      this.cur.set(b, this.pos);
      this.pos += b.length;
    } else {
      // large payloads (proofs, BoCs) are referenced, not copied, until the final concat
      this.flush();
      this.chunks.push(Buffer.from(b.buffer, b.byteOffset, b.length));
    }
    this.length += b.length;
  }
  zeros(n: number): void {
    this.room(n);
    this.cur.fill(0, this.pos, this.pos + n);
    this.pos += n;
    this.length += n;
  }
  finish(): Buffer {
    this.flush();
    // a single chunk is always our own scratch buffer (an id or length prefix precedes any referenced payload)
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.length);
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'bigint') return `bigint ${v}`;
  if (typeof v === 'number') return `number ${v}`;
  if (typeof v === 'string') return `string '${v.length > 40 ? `${v.slice(0, 40)}...` : v}'`;
  if (v instanceof Uint8Array) return `${v.length}-byte buffer`;
  if (Array.isArray(v)) return `array of ${v.length}`;
  if (typeof v === 'object') {
    const tag = (v as { _?: unknown })._;
    return typeof tag === 'string' ? `object '${tag}'` : 'object';
  }
  return typeof v;
}

function bad(path: string, expected: string, got: unknown): CodecError {
  return new CodecError(`TL encode ${path}: expected ${expected}, got ${describe(got)}`, { details: { path } });
}

function encodeBytes(w: Writer, b: Uint8Array, path: string): void {
  const n = b.length;
  if (n > MAX_BYTES) throw bad(path, `at most ${MAX_BYTES} bytes`, b);
  let head: number;
  if (n < 254) {
    w.raw(Uint8Array.of(n));
    head = 1;
  } else {
    w.raw(Uint8Array.of(254, n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff));
    head = 4;
  }
  w.raw(b);
  const pad = (4 - ((head + n) % 4)) % 4;
  if (pad) w.zeros(pad);
}

function encodeValue(w: Writer, ref: TlTypeRef, v: unknown, path: string): void {
  switch (ref) {
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff)
        throw bad(path, 'int (32-bit signed integer)', v);
      w.i32(v);
      return;
    case '#':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff)
        throw bad(path, '# (32-bit unsigned integer)', v);
      w.u32(v);
      return;
    case 'long':
      // the wire holds 64 bits: accept the signed form TL declares and the unsigned form TON ids use (shards)
      if (typeof v !== 'bigint' || v < INT64_MIN || v >= UINT64_END) throw bad(path, 'long (64-bit bigint)', v);
      w.i64(v);
      return;
    case 'double':
      if (typeof v !== 'number') throw bad(path, 'double (number)', v);
      w.f64(v);
      return;
    case 'int128':
    case 'int256': {
      const size = ref === 'int128' ? 16 : 32;
      if (!(v instanceof Uint8Array) || v.length !== size) throw bad(path, `${ref} (${size}-byte Buffer)`, v);
      w.raw(v);
      return;
    }
    case 'bytes':
      if (!(v instanceof Uint8Array)) throw bad(path, 'bytes (Buffer)', v);
      encodeBytes(w, v, path);
      return;
    case 'string':
      if (typeof v !== 'string') throw bad(path, 'string', v);
      encodeBytes(w, Buffer.from(v, 'utf8'), path);
      return;
    case 'Bool':
      if (typeof v !== 'boolean') throw bad(path, 'Bool (boolean)', v);
      w.u32(v ? BOOL_TRUE : BOOL_FALSE);
      return;
    case 'true':
      // only reachable under a flag, where encodeFields handles it (it occupies no bytes)
      throw bad(path, 'a flagged true field', v);
  }
  if ('vector' in ref) {
    if (!Array.isArray(v)) throw bad(path, 'vector (array)', v);
    if (ref.boxed) w.u32(VECTOR);
    w.u32(v.length);
    for (let i = 0; i < v.length; i++) encodeValue(w, ref.vector, v[i], `${path}[${i}]`);
    return;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array)
    throw bad(path, 'bare' in ref ? ref.bare : ref.boxed, v);
  const tag = (v as { _?: unknown })._;
  if ('bare' in ref) {
    if (tag !== undefined && tag !== ref.bare) throw bad(`${path}._`, `'${ref.bare}' (a bare field)`, tag);
    encodeFields(w, byName.get(ref.bare)!, v as Record<string, unknown>, path);
    return;
  }
  const members = typeMembers.get(ref.boxed)!;
  const c = typeof tag === 'string' ? byName.get(tag) : undefined;
  if (!c || !members.has(c.id)) {
    const names = [...members.values()].map((m) => `'${m.name}'`).join(' or ');
    throw bad(`${path}._`, `${names} (constructor of ${ref.boxed})`, tag);
  }
  w.u32(c.id);
  encodeFields(w, c, v as Record<string, unknown>, path);
}

function encodeFields(w: Writer, c: TlConstructorSchema, obj: Record<string, unknown>, path: string): void {
  for (const key of Object.keys(obj)) {
    if (key !== '_' && !c.fields.some((f) => f.name === key) && obj[key] !== undefined)
      throw new CodecError(`TL encode ${path}: '${c.name}' has no field '${key}' (fields: ${fieldList(c)})`, {
        details: { path },
      });
  }
  for (const f of c.fields) {
    const v = obj[f.name];
    const fp = `${path}.${f.name}`;
    if (f.flag) {
      const flags = obj[f.flag.field] as number; // already validated: flag fields precede their users
      const set = ((flags >>> f.flag.bit) & 1) === 1;
      if (f.type === 'true') {
        if (typeof v !== 'boolean') throw bad(fp, `boolean (${f.flag.field} bit ${f.flag.bit} is ${+set})`, v);
        if (v !== set) throw bad(fp, `${set} to match ${f.flag.field} bit ${f.flag.bit}`, v);
        continue;
      }
      if (!set) {
        if (v !== undefined) throw bad(fp, `no value (${f.flag.field} bit ${f.flag.bit} is clear)`, v);
        continue;
      }
      if (v === undefined) throw bad(fp, `a value (${f.flag.field} bit ${f.flag.bit} is set)`, v);
    }
    encodeValue(w, f.type, v, fp);
  }
}

function fieldList(c: TlConstructorSchema): string {
  return c.fields.length ? c.fields.map((f) => f.name).join(', ') : 'none';
}

function lookupForEncode(obj: unknown, where: string): TlConstructorSchema {
  const tag = typeof obj === 'object' && obj !== null ? (obj as { _?: unknown })._ : undefined;
  const c = typeof tag === 'string' ? byName.get(tag) : undefined;
  if (!c) throw bad(`${where}._`, 'the name of a lite_api.tl constructor', tag ?? obj);
  return c;
}

/** Boxed encoding: constructor id, then the fields. */
export function encodeTl(obj: TlObject): Buffer {
  const c = lookupForEncode(obj, 'object');
  const w = new Writer();
  w.u32(c.id);
  encodeFields(w, c, obj as unknown as Record<string, unknown>, c.name);
  return w.finish();
}

/** Bare encoding (fields only, no id) of a constructor; `name` is needed when `obj` carries no `_` tag. */
export function encodeTlBare<N extends keyof TlObjectByName>(
  obj: TlObjectByName[N] | Omit<TlObjectByName[N], '_'>,
  name?: N,
): Buffer {
  const tag = (obj as { _?: unknown })._;
  const c = lookupForEncode({ _: name ?? tag }, 'object');
  if (tag !== undefined && tag !== c.name) throw bad('object._', `'${c.name}'`, tag);
  const w = new Writer();
  encodeFields(w, c, obj as Record<string, unknown>, c.name);
  return w.finish();
}

// ---------------------------------------------------------------------------------------------------------------
// Decoding

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}
  need(n: number, path: string, what: string): void {
    if (this.buf.length - this.pos < n)
      throw new CodecError(
        `TL decode ${path}: expected ${n} bytes for ${what} at offset ${this.pos}, only ${this.buf.length - this.pos} left`,
        { details: { path, offset: this.pos } },
      );
  }
  u32(path: string, what = '#'): number {
    this.need(4, path, what);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
}

function decodeFail(r: Reader, path: string, msg: string, at = r.pos): CodecError {
  return new CodecError(`TL decode ${path}: ${msg} at offset ${at}`, { details: { path, offset: at } });
}

function decodeBytes(r: Reader, path: string): Buffer {
  const start = r.pos;
  r.need(1, path, 'a bytes length');
  const first = r.buf[r.pos]!;
  let n: number;
  let head: number;
  if (first < 254) {
    n = first;
    head = 1;
  } else if (first === 254) {
    r.need(4, path, 'a long bytes length');
    n = r.buf.readUIntLE(r.pos + 1, 3);
    head = 4;
  } else throw decodeFail(r, path, 'bad bytes length prefix 0xff (TL allows < 0xfe or 0xfe + 3-byte length)');
  const total = head + n + ((4 - ((head + n) % 4)) % 4);
  if (r.buf.length - start < total)
    throw decodeFail(r, path, `bytes of length ${n} need ${total} bytes, only ${r.buf.length - start} left`, start);
  // copy: the caller's packet buffer may be reused, and a small slice must not pin a 16 MiB packet
  const out = Buffer.from(r.buf.subarray(start + head, start + head + n));
  r.pos = start + total;
  return out;
}

/** Fewest bytes one value of a type can occupy: bounds vector counts before any allocation. */
const minSizeCache = new Map<string, number>();
function minSize(ref: TlTypeRef): number {
  switch (ref) {
    case 'int':
    case '#':
    case 'Bool':
    case 'bytes':
    case 'string':
      return 4;
    case 'long':
    case 'double':
      return 8;
    case 'int128':
      return 16;
    case 'int256':
      return 32;
    case 'true':
      return 0;
  }
  if ('vector' in ref) return ref.boxed ? 8 : 4;
  if ('boxed' in ref) return 4;
  const cached = minSizeCache.get(ref.bare);
  if (cached !== undefined) return cached;
  let n = 0;
  for (const f of byName.get(ref.bare)!.fields) if (!f.flag) n += minSize(f.type);
  minSizeCache.set(ref.bare, n);
  return n;
}

function decodeValue(r: Reader, ref: TlTypeRef, path: string): unknown {
  switch (ref) {
    case 'int': {
      r.need(4, path, 'int');
      const v = r.buf.readInt32LE(r.pos);
      r.pos += 4;
      return v;
    }
    case '#':
      return r.u32(path);
    case 'long': {
      r.need(8, path, 'long');
      const v = r.buf.readBigInt64LE(r.pos);
      r.pos += 8;
      return v;
    }
    case 'double': {
      r.need(8, path, 'double');
      const v = r.buf.readDoubleLE(r.pos);
      r.pos += 8;
      return v;
    }
    case 'int128':
    case 'int256': {
      const size = ref === 'int128' ? 16 : 32;
      r.need(size, path, ref);
      const v = Buffer.from(r.buf.subarray(r.pos, r.pos + size));
      r.pos += size;
      return v;
    }
    case 'bytes':
      return decodeBytes(r, path);
    case 'string':
      return decodeBytes(r, path).toString('utf8');
    case 'Bool': {
      const at = r.pos;
      const v = r.u32(path, 'Bool');
      if (v === BOOL_TRUE) return true;
      if (v === BOOL_FALSE) return false;
      throw decodeFail(
        r,
        path,
        `expected Bool (0x997275b5 or 0xbc799737), got 0x${v.toString(16).padStart(8, '0')}`,
        at,
      );
    }
    case 'true':
      throw decodeFail(r, path, 'unflagged true field');
  }
  if ('vector' in ref) {
    if (ref.boxed) {
      const at = r.pos;
      const id = r.u32(path, 'the vector id');
      if (id !== VECTOR) throw decodeFail(r, path, `expected vector id 0x1cb5c415, got 0x${id.toString(16)}`, at);
    }
    const at = r.pos;
    const count = r.u32(path, 'a vector count');
    const each = Math.max(1, minSize(ref.vector));
    if (count > (r.buf.length - r.pos) / each)
      throw decodeFail(r, path, `vector count ${count} cannot fit in the ${r.buf.length - r.pos} bytes left`, at);
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) out.push(decodeValue(r, ref.vector, `${path}[${i}]`));
    return out;
  }
  if ('bare' in ref) return decodeFields(r, byName.get(ref.bare)!, path);
  const at = r.pos;
  const id = r.u32(path, `the constructor id of ${ref.boxed}`);
  const c = typeMembers.get(ref.boxed)!.get(id);
  if (!c) {
    const other = byId.get(id);
    const seen = other ? `'${other.name}' (0x${hex(id)})` : `unknown id 0x${hex(id)}`;
    throw decodeFail(r, path, `expected a constructor of ${ref.boxed}, got ${seen}`, at);
  }
  return decodeFields(r, c, path);
}

function decodeField(r: Reader, f: TlFieldSchema, out: Record<string, unknown>, path: string): void {
  if (f.flag) {
    const set = (((out[f.flag.field] as number) >>> f.flag.bit) & 1) === 1;
    if (f.type === 'true') {
      out[f.name] = set;
      return;
    }
    if (!set) return;
  }
  out[f.name] = decodeValue(r, f.type, `${path}.${f.name}`);
}

function decodeFields(r: Reader, c: TlConstructorSchema, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = { _: c.name };
  for (const f of c.fields) decodeField(r, f, out, path);
  return out;
}

function hex(id: number): string {
  return id.toString(16).padStart(8, '0');
}

function toBuffer(buf: Uint8Array): Buffer {
  return Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.length);
}

function decodeBoxed(r: Reader): TlObject {
  const at = r.pos;
  const id = r.u32('object', 'a constructor id');
  const c = byId.get(id);
  if (!c) throw decodeFail(r, 'object', `unknown constructor id 0x${hex(id)} (not in lite_api.tl)`, at);
  return decodeFields(r, c, c.name) as unknown as TlObject;
}

/** Decodes one boxed object that must fill `buf` exactly. */
export function decodeTl(buf: Uint8Array): TlObject {
  const r = new Reader(toBuffer(buf));
  const value = decodeBoxed(r);
  if (r.pos !== r.buf.length) throw decodeFail(r, value._, `${r.buf.length - r.pos} trailing bytes after the object`);
  return value;
}

/**
 * Decodes one boxed object from the start of `buf` and returns the bytes after it: for prefixes such as
 * `liteServer.waitMasterchainSeqno` or `liteServer.queryPrefix` that are followed by the real query.
 */
export function decodeTlPrefix(buf: Uint8Array): { value: TlObject; rest: Buffer } {
  const r = new Reader(toBuffer(buf));
  const value = decodeBoxed(r);
  return { value, rest: r.buf.subarray(r.pos) };
}

/** Decodes the bare form (fields only) of constructor `name`; `buf` must hold exactly that. */
export function decodeTlBare<N extends keyof TlObjectByName>(name: N, buf: Uint8Array): TlObjectByName[N] {
  const c = byName.get(name);
  if (!c) throw new CodecError(`TL decode: expected a constructor name from lite_api.tl, got '${name}'`);
  const r = new Reader(toBuffer(buf));
  const value = decodeFields(r, c, c.name);
  if (r.pos !== r.buf.length) throw decodeFail(r, c.name, `${r.buf.length - r.pos} trailing bytes after the object`);
  return value as unknown as TlObjectByName[N];
}
