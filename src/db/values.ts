// One mapping between PostgreSQL text values and JS values, used by both back ends, so a row reads the
// same from PGlite and from PostgreSQL: int8 is always a bigint (never a number that lost precision),
// bytea always a Buffer, numeric a string, json parsed, timestamps Dates. Parameters are normalised the
// same way before either driver sees them.

/** Parses one value in PostgreSQL's text output format. */
export type TextParser = (text: string) => unknown;

const identity: TextParser = (s) => s;
const parseInt32: TextParser = (s) => Number.parseInt(s, 10);
const parseFloat64: TextParser = (s) => Number.parseFloat(s);
const parseBool: TextParser = (s) => s === 't' || s === 'true';
const parseInt64: TextParser = (s) => BigInt(s);
const parseJson: TextParser = (s) => JSON.parse(s);

/** bytea in hex output (`\x00ff`, the default on both back ends) or the older escape output. */
export function parseBytea(s: string): Buffer {
  if (s.startsWith('\\x')) return Buffer.from(s.slice(2), 'hex');
  const out: number[] = [];
  for (let i = 0; i < s.length; ) {
    if (s[i] === '\\') {
      if (s[i + 1] === '\\') {
        out.push(0x5c);
        i += 2;
      } else {
        out.push(Number.parseInt(s.slice(i + 1, i + 4), 8));
        i += 4;
      }
    } else {
      out.push(s.charCodeAt(i));
      i += 1;
    }
  }
  return Buffer.from(out);
}

const TS = /^(\d{4,})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(\.\d+)?(?:([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?)?( BC)?$/;

/** timestamptz / timestamp text to a Date (timestamps without a zone are read as UTC). */
export function parseTimestamp(s: string): Date {
  if (s === 'infinity') return new Date(8.64e15);
  if (s === '-infinity') return new Date(-8.64e15);
  const m = TS.exec(s);
  if (!m || m[12]) return new Date(Number.NaN);
  const ms = m[7] ? Math.round(Number(`0${m[7]}`) * 1000) : 0;
  let t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms);
  if (m[8]) {
    const offset = (Number(m[9]) * 3600 + Number(m[10] ?? 0) * 60 + Number(m[11] ?? 0)) * 1000;
    t -= m[8] === '+' ? offset : -offset;
  }
  return new Date(t);
}

/**
 * A PostgreSQL array literal (`{1,NULL,"a \"b\""}`, nested `{{1,2},{3,4}}`, optional `[0:1]=` bounds)
 * to a JS array, each element through `element`.
 */
export function parseArray(text: string, element: TextParser): unknown[] {
  let i = 0;
  if (text[0] === '[') {
    i = text.indexOf('=') + 1;
  }
  const parseLevel = (): unknown[] => {
    if (text[i] !== '{') throw new Error(`array literal: expected '{' at ${i} in ${text.slice(0, 80)}`);
    i += 1;
    const out: unknown[] = [];
    if (text[i] === '}') {
      i += 1;
      return out;
    }
    for (;;) {
      if (text[i] === '{') {
        out.push(parseLevel());
      } else if (text[i] === '"') {
        i += 1;
        let v = '';
        while (text[i] !== '"') {
          if (text[i] === '\\') i += 1;
          if (i >= text.length) throw new Error('array literal: unterminated quoted element');
          v += text[i];
          i += 1;
        }
        i += 1;
        out.push(element(v));
      } else {
        let j = i;
        while (text[j] !== ',' && text[j] !== '}') j += 1;
        const raw = text.slice(i, j).trim();
        i = j;
        out.push(raw.toUpperCase() === 'NULL' ? null : element(raw));
      }
      if (text[i] === ',') {
        i += 1;
        continue;
      }
      if (text[i] === '}') {
        i += 1;
        return out;
      }
      throw new Error(`array literal: unexpected '${text[i]}' at ${i}`);
    }
  };
  return parseLevel();
}

const arrayOf =
  (element: TextParser): TextParser =>
  (s) =>
    parseArray(s, element);

/**
 * Text parsers by type OID, applied by both drivers. Types not listed (enums, composites, domains over
 * types not listed) come back as their text form on both. Domains report their base type's OID, so a
 * tonhash column reads as bpchar: a string.
 */
export const TEXT_PARSERS: Readonly<Record<number, TextParser>> = {
  16: parseBool,
  17: parseBytea,
  20: parseInt64,
  21: parseInt32,
  23: parseInt32,
  26: parseInt32,
  114: parseJson,
  700: parseFloat64,
  701: parseFloat64,
  1082: identity, // date
  1083: identity, // time
  1114: parseTimestamp,
  1184: parseTimestamp,
  1186: identity, // interval
  1266: identity, // timetz
  1700: identity, // numeric: exact decimal text
  2950: identity, // uuid
  3802: parseJson,
  // arrays
  199: arrayOf(parseJson),
  1000: arrayOf(parseBool),
  1001: arrayOf(parseBytea),
  1005: arrayOf(parseInt32),
  1007: arrayOf(parseInt32),
  1009: arrayOf(identity),
  1014: arrayOf(identity),
  1015: arrayOf(identity),
  1016: arrayOf(parseInt64),
  1021: arrayOf(parseFloat64),
  1022: arrayOf(parseFloat64),
  1028: arrayOf(parseInt32),
  1115: arrayOf(parseTimestamp),
  1182: arrayOf(identity),
  1183: arrayOf(identity),
  1185: arrayOf(parseTimestamp),
  1187: arrayOf(identity),
  1231: arrayOf(identity),
  1270: arrayOf(identity),
  2951: arrayOf(identity),
  3807: arrayOf(parseJson),
};

/** JSON text with 64-bit values as decimal strings (toncenter's convention for extra currencies). */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * A query parameter as both drivers accept it identically: bigint as decimal text, any Uint8Array as a
 * Buffer, plain objects as JSON text (for json/jsonb parameters), arrays element by element (for
 * `= ANY($1::bigint[])`), undefined as NULL.
 */
export function normalizeParam(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return v;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (Array.isArray(v)) return v.map(normalizeParam);
  if (isPlainObject(v)) return toJsonText(v);
  return v;
}
