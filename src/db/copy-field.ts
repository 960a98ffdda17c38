// One value of a row as COPY text (PostgreSQL docs, "COPY", File Formats → Text Format): NULL written as \N, and in
// data a backslash, newline, carriage return and tab written as \\, \n, \r, \t. Every other character passes
// through, so a data value can never be read as a delimiter, a NULL or the end-of-data marker `\.`.
import { DbError } from '../common/index.ts';
import { toJsonText } from './values.ts';

/** A composite-type value, e.g. one `blockid` (workchain, shard, seqno) of `blocks.prev_blocks`. */
export class PgComposite {
  constructor(readonly fields: readonly unknown[]) {}
}

/** A value for a json/jsonb column whose JS form is an array (plain objects are JSON already). */
export class PgJson {
  constructor(readonly value: unknown) {}
}

export const pgComposite = (...fields: unknown[]): PgComposite => new PgComposite(fields);
export const pgJson = (value: unknown): PgJson => new PgJson(value);

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function isEmpty(v: object): boolean {
  for (const _ in v) return false;
  return true;
}

function encodeError(message: string, value?: unknown): DbError {
  return new DbError('TG_DB_ENCODE', message, value === undefined ? {} : { details: { jsType: typeof value } });
}

/** Double-quoted element of an array or composite literal: `"` and `\` escaped with a backslash. */
function quoteElement(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * A JS value as PostgreSQL input text (before COPY escaping):
 * string as is; number (finite) and bigint in decimal; boolean t/f; Buffer/Uint8Array as bytea hex
 * (`\x…`); Date as ISO 8601 UTC; array as an array literal with every element quoted (NULL bare);
 * PgComposite as a row literal (NULL field empty, others quoted); plain object or PgJson as JSON with
 * bigints as decimal strings.
 */
export function toPgText(v: unknown): string {
  switch (typeof v) {
    case 'string':
      if (v.includes('\u0000')) throw encodeError('text contains a NUL character, which PostgreSQL cannot store', v);
      return v;
    case 'bigint':
      return v.toString();
    case 'number':
      if (!Number.isFinite(v)) throw encodeError(`number ${v} has no column representation here`, v);
      return String(v);
    case 'boolean':
      return v ? 't' : 'f';
    case 'object': {
      if (v === null) throw encodeError('NULL inside a value must be handled by the caller');
      if (v instanceof Uint8Array) return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
      if (v instanceof Date) {
        if (Number.isNaN(v.getTime())) throw encodeError('invalid Date', v);
        return v.toISOString();
      }
      if (Array.isArray(v)) {
        const items = v.map((e) =>
          e === null || e === undefined ? 'NULL' : Array.isArray(e) ? toPgText(e) : quoteElement(toPgText(e)),
        );
        return `{${items.join(',')}}`;
      }
      if (v instanceof PgComposite) {
        return `(${v.fields.map((f) => (f === null || f === undefined ? '' : quoteElement(toPgText(f)))).join(',')})`;
      }
      if (v instanceof PgJson) return toPgText(toJsonText(v.value));
      // An empty object (an account without extra currencies: nearly every row) skips JSON.stringify's replacer.
      if (isPlainObject(v)) return isEmpty(v) ? '{}' : toPgText(toJsonText(v));
      throw encodeError(`cannot encode an object of class ${v.constructor?.name ?? 'unknown'}`, v);
    }
    default:
      throw encodeError(`cannot encode a ${typeof v}`, v);
  }
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const NEEDS_ESCAPE = /[\\\n\r\t]/;

/** A character that keeps a string from going into COPY text as it is: one to escape, or NUL (toPgText refuses it). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this looks for (PostgreSQL cannot store it).
const ESCAPED_OR_REFUSED = /[\\\n\r\t\u0000]/;

/** One field of a COPY text row: \N for NULL, otherwise the input text with \ \n \r \t escaped. */
export function encodeCopyField(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  // Plain strings, numbers, bigints and booleans (nearly every field) skip toPgText and the escaping.
  if (typeof v === 'string' && !ESCAPED_OR_REFUSED.test(v)) return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  const text = toPgText(v);
  return NEEDS_ESCAPE.test(text) ? text.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c]!) : text;
}
