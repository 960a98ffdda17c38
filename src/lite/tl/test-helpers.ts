// Test-only helpers for the TL codec tests: deterministic sample values for every constructor (all flag
// combinations), a wire-size oracle computed from the TL rules, and readers for ton-lite-client's old generated
// schema (an independent source of ids and byte layouts). Not exported from index.ts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sharedPath } from '../../../test/helpers/vectors.ts';
import { TL_SCHEMA } from './schema.generated.ts';
import type { TlConstructorSchema, TlTypeRef } from './schema-types.ts';

export type Value = Record<string, unknown>;

const byName = new Map(TL_SCHEMA.map((c) => [c.name, c]));

/** lite_api.tl in the shared folder (beside the repo, or beside $TONGATE_VECTORS). */
export function schemaPath(): string {
  return sharedPath('ton-schema', 'lite_api.tl');
}

export { rng } from '../../../test/helpers/rng.ts';

export interface SampleOptions {
  /** Flagged ints never 0: ton-lite-client's encoders drop falsy flagged values (its known bug). */
  nonFalsyFlagged?: boolean;
  /** Keep bytes small (for exhaustive truncation tests). */
  small?: boolean;
}

// both length forms (< 254: 1-byte length; >= 254: 0xfe + 3 bytes) and every padding remainder
const BYTE_LENGTHS = [0, 1, 2, 3, 4, 5, 31, 252, 253, 254, 255, 256, 1021];
const STRINGS = ['', 'a', 'not in db', 'héllo wörld', 'ошибка', '🙂 emoji', 'x'.repeat(300)];

function sampleValue(ref: TlTypeRef, r: () => number, o: SampleOptions, flagged: boolean): unknown {
  switch (ref) {
    case 'int': {
      const pick = r() % 5;
      let v = pick === 0 ? 0 : pick === 1 ? -1 : pick === 2 ? 0x7fffffff : pick === 3 ? -0x80000000 : r() | 0;
      if (v === 0 && flagged && o.nonFalsyFlagged) v = 7;
      return v;
    }
    case '#':
      return r() % 3 === 0 ? 0 : r();
    case 'long': {
      const pick = r() % 5;
      if (pick === 0) return 0n;
      if (pick === 1) return -(1n << 63n);
      if (pick === 2) return (1n << 63n) - 1n;
      return BigInt.asIntN(64, (BigInt(r()) << 32n) | BigInt(r()));
    }
    case 'double':
      return (r() / 7) * (r() % 2 ? 1 : -1);
    case 'int128':
    case 'int256':
      return bytes(ref === 'int128' ? 16 : 32, r);
    case 'bytes': {
      const lens = o.small ? BYTE_LENGTHS.slice(0, 7) : BYTE_LENGTHS;
      return bytes(lens[r() % lens.length]!, r);
    }
    case 'string':
      return STRINGS[r() % (o.small ? 4 : STRINGS.length)]!;
    case 'Bool':
      return r() % 2 === 0;
    case 'true':
      throw new Error('true is only sampled under a flag');
  }
  if ('vector' in ref) {
    const n = r() % 4;
    return Array.from({ length: n }, () => sampleValue(ref.vector, r, o, false));
  }
  if ('bare' in ref) return sampleObject(byName.get(ref.bare)!, r, o, randomFlags(byName.get(ref.bare)!, r));
  const members = TL_SCHEMA.filter((c) => c.kind === 'type' && c.type === ref.boxed);
  const c = members[r() % members.length]!;
  return sampleObject(c, r, o, randomFlags(c, r));
}

function bytes(n: number, r: () => number): Buffer {
  const b = Buffer.alloc(n, r() & 0xff);
  for (let i = 0; i < Math.min(n, 40); i++) b[i] = r() & 0xff;
  return b;
}

/** Flag bits (per `#` field) that the constructor's flagged fields use. */
export function usedBits(c: TlConstructorSchema): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const f of c.fields) {
    if (!f.flag) continue;
    const bits = m.get(f.flag.field) ?? [];
    if (!bits.includes(f.flag.bit)) bits.push(f.flag.bit);
    m.set(f.flag.field, bits);
  }
  return m;
}

function randomFlags(c: TlConstructorSchema, r: () => number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [field, bits] of usedBits(c)) {
    let v = 0;
    for (const b of bits) if (r() % 2) v |= 1 << b;
    out[field] = v >>> 0;
  }
  return out;
}

/**
 * Every combination of the flag bits a constructor uses (one `#` field at a time; lite_api has one per
 * constructor), each also once with an unused high bit set to show unused bits survive.
 */
export function flagCombos(c: TlConstructorSchema): Array<Record<string, number>> {
  const used = [...usedBits(c)];
  if (used.length === 0) return [{}];
  if (used.length > 1) throw new Error(`${c.name}: more than one flags field`);
  const [field, bits] = used[0]!;
  const combos: Array<Record<string, number>> = [];
  for (let mask = 0; mask < 1 << bits.length; mask++) {
    let v = 0;
    bits.forEach((b, i) => {
      if (mask & (1 << i)) v |= 1 << b;
    });
    combos.push({ [field]: v >>> 0 });
  }
  const unused = [30, 29, 28, 27].find((b) => !bits.includes(b))!;
  combos.push({ [field]: (combos[combos.length - 1]![field]! | (1 << unused)) >>> 0 });
  return combos;
}

/** A sample object of constructor `c` (with `_` on it and on every nested object), flags forced by `flags`. */
export function sampleObject(
  c: TlConstructorSchema,
  r: () => number,
  o: SampleOptions,
  flags: Record<string, number> = {},
): Value {
  const out: Value = { _: c.name };
  for (const f of c.fields) {
    if (f.flag) {
      const set = (((out[f.flag.field] as number) >>> f.flag.bit) & 1) === 1;
      if (f.type === 'true') out[f.name] = set;
      else if (set) out[f.name] = sampleValue(f.type, r, o, true);
      continue;
    }
    out[f.name] = f.name in flags ? flags[f.name] : sampleValue(f.type, r, o, false);
  }
  return out;
}

/**
 * Bytes a value must take on the wire, from the TL rules alone: int/# 4, long 8, int256 32, bytes 1- or 4-byte
 * length + data padded to 4, Bool 4, `?true` 0, vector 4 + items, boxed 4 + fields.
 */
export function wireSize(ref: TlTypeRef, v: unknown): number {
  switch (ref) {
    case 'int':
    case '#':
    case 'Bool':
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
    case 'bytes':
    case 'string': {
      const n = typeof v === 'string' ? Buffer.byteLength(v) : (v as Buffer).length;
      const raw = (n < 254 ? 1 : 4) + n;
      return Math.ceil(raw / 4) * 4;
    }
  }
  if ('vector' in ref)
    return (ref.boxed ? 8 : 4) + (v as unknown[]).reduce<number>((s, x) => s + wireSize(ref.vector, x), 0);
  const obj = v as Value;
  const c = byName.get('bare' in ref ? ref.bare : (obj._ as string))!;
  return ('boxed' in ref ? 4 : 0) + objectSize(c, obj);
}

export function objectSize(c: TlConstructorSchema, obj: Value): number {
  let n = 0;
  for (const f of c.fields) if (obj[f.name] !== undefined) n += wireSize(f.type, obj[f.name]);
  return n;
}

// ---------------------------------------------------------------------------------------------------------------
// ton-lite-client's generated schema (dist/schema.js, generated by ton-tl from an old lite_api.tl)

const requireHere = createRequire(import.meta.url);
const schemaJsPath = requireHere.resolve('ton-lite-client/dist/schema.js');

export interface TheirConstructor {
  /** TL name (their objects' `kind`). */
  kind: string;
  /** Field names in order, as their decoder returns them (camelCase like ours). */
  fields: string[];
  /** Constructor id as their encoders write it. */
  id?: number;
  /** Key in their `Codecs` table. */
  codecKey: string;
  isFunction: boolean;
}

/** Reads constructor names, field lists and ids out of the text of ton-lite-client/dist/schema.js. */
export function readTheirSchema(): Map<string, TheirConstructor> {
  const text = readFileSync(schemaJsPath, 'utf8');
  const codecsAt = text.indexOf('exports.Codecs = {');
  const functionsText = text.slice(0, codecsAt);
  const codecsText = text.slice(codecsAt);
  const out = new Map<string, TheirConstructor>();
  // bare codecs: `    key: {\n        encode: ... return { kind: 'name', a, b };`
  const blocks = codecsText.split(/\n {4}(?=\w+: \{\n)/);
  for (const block of blocks) {
    const key = /^(\w+): \{/.exec(block)?.[1];
    const ret = /return \{ kind: '([^']+)'((?:, \w+)*),? \};/.exec(block);
    if (!key || !ret || /const kind = /.test(block)) continue;
    const fields = ret[2]
      ? ret[2]
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
    out.set(ret[1]!, { kind: ret[1]!, fields, codecKey: key, isFunction: false });
  }
  // boxed type codecs write `if (kind === 'name') { encoder.writeInt32(id);`
  for (const m of codecsText.matchAll(/kind === '([^']+)'\) \{\s*encoder\.writeInt32\((-?\d+)\);/g)) {
    const c = out.get(m[1]!);
    if (c) c.id = Number(m[2]) >>> 0;
  }
  // functions: `encodeRequest: (src, encoder) => { encoder.writeInt32(id); exports.Codecs.key.encode(...)`
  for (const m of functionsText.matchAll(/encoder\.writeInt32\((-?\d+)\); exports\.Codecs\.(\w+)\.encode/g)) {
    const c = [...out.values()].find((x) => x.codecKey === m[2]);
    if (c) {
      c.id = Number(m[1]) >>> 0;
      c.isFunction = true;
    }
  }
  return out;
}

export interface TheirWriter {
  build(): Buffer;
}
export interface TheirCodec {
  encode(src: unknown, w: TheirWriter): void;
  decode(r: unknown): unknown;
}
export interface TheirModule {
  Codecs: Record<string, TheirCodec>;
  Functions: Record<string, { encodeRequest(src: unknown, w: TheirWriter): void }>;
  newWriter(): TheirWriter;
  /** Their reader mutates the buffer it reads (readInt64 clears the sign bit in place): always pass a copy. */
  newReader(buf: Buffer): unknown;
}

/** ton-lite-client's Codecs/Functions with the ton-tl buffers it is built on (resolved from ton-lite-client). */
export function loadTheirModule(): TheirModule {
  const schema = requireHere(schemaJsPath) as Pick<TheirModule, 'Codecs' | 'Functions'>;
  const tl = createRequire(schemaJsPath)('ton-tl') as {
    TLWriteBuffer: new () => TheirWriter;
    TLReadBuffer: new (b: Buffer) => unknown;
  };
  return {
    Codecs: schema.Codecs,
    Functions: schema.Functions,
    newWriter: () => new tl.TLWriteBuffer(),
    newReader: (b) => new tl.TLReadBuffer(Buffer.from(b)),
  };
}

/** Our value -> ton-lite-client's: `_` -> `kind`, long -> decimal string, absent flagged fields omitted. */
export function toTheirs(ref: TlTypeRef, v: unknown): unknown {
  if (ref === 'long') return (v as bigint).toString();
  if (typeof ref === 'string') return v;
  if ('vector' in ref) return (v as unknown[]).map((x) => toTheirs(ref.vector, x));
  const obj = v as Value;
  const c = byName.get('bare' in ref ? ref.bare : (obj._ as string))!;
  return toTheirsObject(c, obj);
}

export function toTheirsObject(c: TlConstructorSchema, obj: Value): Value {
  const out: Value = { kind: c.name };
  for (const f of c.fields) if (obj[f.name] !== undefined) out[f.name] = toTheirs(f.type, obj[f.name]);
  return out;
}

/** ton-lite-client's value -> ours: `kind` -> `_`, decimal string -> bigint, null flagged fields removed. */
export function fromTheirs(ref: TlTypeRef, v: unknown): unknown {
  if (ref === 'long') return BigInt(v as string);
  if (typeof ref === 'string') return v;
  if ('vector' in ref) return (v as unknown[]).map((x) => fromTheirs(ref.vector, x));
  const obj = v as Value;
  const c = byName.get(obj.kind as string)!;
  return fromTheirsObject(c, obj);
}

export function fromTheirsObject(c: TlConstructorSchema, obj: Value): Value {
  const out: Value = { _: c.name };
  for (const f of c.fields) {
    const x = obj[f.name];
    if (f.flag && x === null) continue;
    out[f.name] = fromTheirs(f.type, x);
  }
  return out;
}
