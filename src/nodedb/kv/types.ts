// The key-value contract every node-database part is read through. A TON node keeps its indexes, its state
// db and celldb in RocksDB; tongate reads them through the in-repo addon (kv/rocks.ts) and tests parts over
// an in-memory store (kv/memory.ts). Keys compare bytewise, as RocksDB's default comparator does.

/** One write of a batch. `merge` hands `value` to the database's merge operator (celldb's refcount deltas). */
export type KvOp =
  | { type: 'put'; key: Buffer; value: Buffer }
  | { type: 'merge'; key: Buffer; value: Buffer }
  | { type: 'del'; key: Buffer };

export interface KvRange {
  /** Inclusive lower bound. */
  gte?: Buffer;
  /** Exclusive upper bound. */
  lt?: Buffer;
  /** Most entries returned (default: all). */
  limit?: number;
}

export interface KvReader {
  /** What was opened, for messages. */
  readonly path: string;
  get(key: Buffer): Promise<Buffer | null>;
  multiGet(keys: readonly Buffer[]): Promise<Array<Buffer | null>>;
  /** Entries with gte <= key < lt, in bytewise key order. */
  range(range: KvRange): Promise<Array<[Buffer, Buffer]>>;
  /** See what the writing process committed since the open (a secondary's catch-up); a no-op where nothing can change. */
  catchUp(): Promise<void>;
  close(): Promise<void>;
}

export interface KvWriter extends KvReader {
  /** Applies the ops as one atomic batch; `sync` makes it durable before returning (the node syncs celldb and state db). */
  write(ops: readonly KvOp[], opts?: { sync?: boolean }): Promise<void>;
  /** Flushes the write-ahead log buffer (the node's indexes use manual_wal_flush: readers see writes only after this). */
  flushWal(sync?: boolean): Promise<void>;
}

/**
 * A merge operator: folds operands (oldest first) into the existing value (null when the key has none).
 * Returns null to mean "no value".
 */
export type MergeFn = (existing: Buffer | null, operands: readonly Buffer[]) => Buffer | null;
