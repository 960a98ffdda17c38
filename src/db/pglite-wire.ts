// The messages between pglite-thread.ts (the driver the process uses) and pglite-worker.ts (the thread that owns the
// PGlite instance), and what does not survive a structured clone as is: errors keep only name and message there,
// so their fields (SQLSTATE `code`, `detail`, `constraint` ...) travel as plain values, and a Buffer arrives as a
// plain Uint8Array, so bytea values are made Buffers again.
import { asBuffer } from '../common/thread-bytes.ts';
import type { AlarmShared } from './pglite-timeout.ts';

/** A transaction's number in the PGlite thread; 0 for statements outside any transaction. */
export type TxId = number;

export type ToPglite =
  | { id: number; op: 'query'; tx: TxId; sql: string; params: readonly unknown[] }
  | { id: number; op: 'exec'; tx: TxId; script: string }
  /** Starts COPY number `copy`, fed by the 'chunk' messages that name it, up to its 'chunks-end'. */
  | { id: number; op: 'copy'; tx: TxId; target: string; copy: number }
  | { id: number; op: 'chunk'; copy: number; chunk: Uint8Array }
  | { id: number; op: 'chunks-end'; copy: number; error?: WireError }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: TxId; commit: boolean }
  | { id: number; op: 'close' };

export type FromPglite =
  | { type: 'opened' }
  | { type: 'open-failed'; error: WireError }
  | { type: 'alarm'; shared: AlarmShared }
  | { type: 'reply'; id: number; ok: true; value?: unknown }
  | { type: 'reply'; id: number; ok: false; error: WireError };

export interface WireError {
  name: string;
  message: string;
  /** The error's own string and number fields: code, detail, hint, position, table, column, constraint ... */
  fields: Record<string, string | number>;
}

export function errorToWire(e: unknown): WireError {
  const err = e instanceof Error ? e : new Error(String(e));
  const fields: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(err)) if (typeof v === 'string' || typeof v === 'number') fields[k] = v;
  return { name: err.name, message: err.message, fields };
}

export function errorFromWire(w: WireError): Error {
  const e = new Error(w.message);
  e.name = w.name;
  return Object.assign(e, w.fields);
}

/** bytea values (and bytea[] elements) arrive as Uint8Array: values.ts promises a Buffer. No copy. */
export function restoreBuffers(rows: Record<string, unknown>[]): void {
  for (const row of rows) {
    for (const k in row) {
      const v = row[k];
      if (v instanceof Uint8Array || Array.isArray(v)) row[k] = restoreValue(v);
    }
  }
}

function restoreValue(v: unknown): unknown {
  if (v instanceof Uint8Array) return Buffer.isBuffer(v) ? v : asBuffer(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x instanceof Uint8Array || Array.isArray(x)) v[i] = restoreValue(x);
    }
  }
  return v;
}
