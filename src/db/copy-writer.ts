// COPY text written straight into one growing Buffer: the bytes encodeCopyRow's lines would give, without a string
// per line, a joined string of the whole table and its UTF-8 copy. Decode threads encode every row of a block this
// way (encoding was a sixth of a decode thread's time, most of it building, joining and copying strings).
//
// Plain values take a fast path: null, numbers, bigints, booleans, strings that need no escaping (one regex test,
// also catching NUL) and bytes (bytea hex). Anything else, and any string that needs escaping or is refused, goes
// through encodeCopyField itself, so the rules and the errors are that function's.
import { DbError } from '../common/index.ts';
import { encodeCopyField } from './copy-field.ts';

/** A string that encodeCopyField would change (escapes) or refuse (NUL). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this looks for (PostgreSQL cannot store it).
const SPECIAL = /[\\\n\r\t\u0000]/;

const NULL_FIELD = 0x5c4e; // \N
const TAB = 0x09;
const NEWLINE = 0x0a;

// Buffer's own per-encoding writers, which buf.write(s, at, encoding) reaches after checking its arguments and
// looking the encoding up (a third of this writer's time on short fields). They are not in Node's typings but are
// on Buffer.prototype in the Node versions we support; buf.write is used where they are missing.
interface EncodingWriters {
  utf8Write?(s: string, at: number): number;
  latin1Write?(s: string, at: number): number;
}
const proto = Buffer.prototype as unknown as EncodingWriters;
const utf8Write: (b: Buffer, s: string, at: number) => number =
  typeof proto.utf8Write === 'function'
    ? (b, s, at) => (b as unknown as Required<EncodingWriters>).utf8Write(s, at)
    : (b, s, at) => b.write(s, at, 'utf8');
const latin1Write: (b: Buffer, s: string, at: number) => number =
  typeof proto.latin1Write === 'function'
    ? (b, s, at) => (b as unknown as Required<EncodingWriters>).latin1Write(s, at)
    : (b, s, at) => b.write(s, at, 'latin1');

export class CopyTextWriter {
  private out: Buffer;
  private at = 0;
  /** Rows written since the start (the row number in errors). */
  rows = 0;

  constructor(initialBytes = 1 << 16) {
    this.out = Buffer.allocUnsafe(initialBytes);
  }

  /** Bytes written and not yet taken. */
  get length(): number {
    return this.at;
  }

  /** Appends one row as a COPY text line, after checking it has `width` values; errors name the row. */
  row(row: readonly unknown[], width: number): void {
    const i = this.rows;
    if (!Array.isArray(row) || row.length !== width) {
      throw new DbError(
        'TG_DB_ENCODE',
        `row ${i} has ${Array.isArray(row) ? row.length : 'no'} values, expected ${width} (one per column)`,
        { details: { row: i } },
      );
    }
    const start = this.at;
    try {
      for (let c = 0; c < width; c++) {
        if (c > 0) this.byte(TAB);
        this.field(row[c]);
      }
      this.byte(NEWLINE);
    } catch (e) {
      this.at = start;
      if (e instanceof DbError) {
        throw new DbError('TG_DB_ENCODE', `row ${i}: ${e.message}`, { details: { row: i, ...e.details } });
      }
      throw e;
    }
    this.rows = i + 1;
  }

  /** The bytes written so far (a copy that owns its memory), and a fresh start for the next ones. */
  take(): Buffer {
    const bytes = Buffer.from(this.out.subarray(0, this.at));
    this.at = 0;
    return bytes;
  }

  private field(v: unknown): void {
    if (v === null || v === undefined) this.nullField();
    else if (typeof v === 'string' && !SPECIAL.test(v)) this.text(v);
    else if (typeof v === 'bigint') this.ascii(v.toString());
    else if (typeof v === 'number' && Number.isFinite(v)) this.ascii(String(v));
    else if (typeof v === 'boolean') this.byte(v ? 0x74 : 0x66);
    else if (v instanceof Uint8Array) this.bytea(v);
    else this.text(encodeCopyField(v));
  }

  private nullField(): void {
    this.room(2);
    this.out.writeUInt16BE(NULL_FIELD, this.at);
    this.at += 2;
  }

  /** bytea input text `\x<hex>`, its backslash escaped for COPY: `\\x<hex>`. */
  private bytea(v: Uint8Array): void {
    this.ascii('\\\\x');
    this.ascii(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex'));
  }

  private byte(b: number): void {
    this.room(1);
    this.out[this.at++] = b;
  }

  private ascii(s: string): void {
    this.room(s.length);
    this.at += latin1Write(this.out, s, this.at);
  }

  private text(s: string): void {
    this.room(s.length * 3);
    this.at += utf8Write(this.out, s, this.at);
  }

  private room(n: number): void {
    if (this.at + n <= this.out.length) return;
    let size = this.out.length * 2;
    while (size < this.at + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.out.copy(next, 0, 0, this.at);
    this.out = next;
  }
}
