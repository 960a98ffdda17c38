// COPY text written straight into one growing Buffer: one line per row, tab-separated fields, without a string
// per line, a joined string of the whole table and its UTF-8 copy. Decode threads encode every row of a block this
// way (encoding was a sixth of a decode thread's time, most of it building, joining and copying strings).
// Each field is encodeCopyField's text, so the rules and the errors are that function's.
import { DbError } from '../common/index.ts';
import { encodeCopyField } from './copy-field.ts';

const TAB = 0x09;
const NEWLINE = 0x0a;

// Buffer's own UTF-8 writer, which buf.write(s, at, 'utf8') reaches after checking its arguments and looking the
// encoding up (a third of this writer's time on short fields). It is not in Node's typings but is on
// Buffer.prototype in the Node versions we support; buf.write is used where it is missing.
interface Utf8Writer {
  utf8Write(s: string, at: number): number;
}
const utf8Write: (b: Buffer, s: string, at: number) => number =
  typeof (Buffer.prototype as unknown as Partial<Utf8Writer>).utf8Write === 'function'
    ? (b, s, at) => (b as unknown as Utf8Writer).utf8Write(s, at)
    : (b, s, at) => b.write(s, at, 'utf8');

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
        this.text(encodeCopyField(row[c]));
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

  private byte(b: number): void {
    this.room(1);
    this.out[this.at++] = b;
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
