// The one COPY-text encoder. Both back ends receive exactly these bytes: PostgreSQL through
// pg-copy-streams (`COPY … FROM STDIN`), PGlite as a Blob (`COPY … FROM '/dev/blob'`).
//
// COPY text format (PostgreSQL docs, "COPY", File Formats → Text Format): one line per row, columns
// separated by a tab, each value as copy-field.ts writes it, written by copy-writer.ts into one buffer.
import { CopyTextWriter } from './copy-writer.ts';

export { encodeCopyField, PgComposite, PgJson, pgComposite, pgJson, toPgText } from './copy-field.ts';

/**
 * Rows already encoded as COPY text (encodeCopyText), e.g. by a decode thread: copyFrom sends the bytes as they
 * are. `width` is the column count they were encoded for, checked against the COPY's columns. `decoded` is how
 * many rows the decoder produced before duplicates were dropped (what checkpoints record; `count` by default).
 */
export class EncodedCopy {
  readonly decoded: number;

  constructor(
    readonly text: Buffer,
    readonly count: number,
    readonly width: number,
    decoded?: number,
  ) {
    this.decoded = decoded ?? count;
  }
}

export interface EncodeOptions {
  /** Yield a chunk once it holds at least this many bytes (default 1 MiB). Chunks end on row boundaries. */
  chunkBytes?: number;
  /** Called once at the end with the number of rows encoded. */
  onRows?: (count: number) => void;
}

/**
 * COPY text for a stream of rows, in chunks that each end at a row boundary. Every row must have
 * `width` values; a row of another width fails before any byte of it is produced.
 */
export async function* encodeCopyRows(
  rows: Iterable<readonly unknown[]> | AsyncIterable<readonly unknown[]>,
  width: number,
  opts: EncodeOptions = {},
): AsyncGenerator<Buffer> {
  const limit = opts.chunkBytes ?? 1 << 20;
  const w = new CopyTextWriter();
  for await (const row of rows) {
    w.row(row, width);
    if (w.length >= limit) yield w.take();
  }
  if (w.length > 0) yield w.take();
  opts.onRows?.(w.rows);
}

/** Rows as one COPY text buffer, checked as encodeCopyRows checks them. */
export function encodeCopyText(rows: readonly (readonly unknown[])[], width: number): EncodedCopy {
  const w = new CopyTextWriter();
  for (const row of rows) w.row(row, width);
  return new EncodedCopy(w.take(), rows.length, width);
}
