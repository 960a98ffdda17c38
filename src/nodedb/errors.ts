// The errors a node-db reader hands to its callers (node-db.md §5.2 "Lessons": tell "not yet visible" from "gone for
// good"). They are IndexErrors so the indexer's retry rules apply unchanged: only NodeDbNotYetVisibleError is
// retryable (TG_INDEX_NOT_READY); the others are permanent (TG_INDEX_SOURCE). `kind` tells them apart without
// instanceof (it survives serialisation in `details.nodeDb`).
import { IndexError, type TongateErrorOptions } from '../common/index.ts';

export type NodeDbErrorKind = 'not-yet-visible' | 'pruned' | 'corrupt' | 'unsupported';

function withKind(kind: NodeDbErrorKind, opts: TongateErrorOptions): TongateErrorOptions {
  return { ...opts, details: { nodeDb: kind, ...opts.details } };
}

/** The node has not written the data yet, or the reader's view of an index lags the node's (retry later). */
export class NodeDbNotYetVisibleError extends IndexError {
  readonly kind = 'not-yet-visible' as const;
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_INDEX_NOT_READY', message, withKind('not-yet-visible', opts));
  }
}

/** The node garbage-collected the block, package or state (archive-ttl, state-ttl): it will not come back. */
export class NodeDbPrunedError extends IndexError {
  readonly kind = 'pruned' as const;
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_INDEX_SOURCE', message, withKind('pruned', opts));
  }
}

/** Bytes on disk contradict themselves: a hash or magic mismatch, an index pointing at the wrong entry. */
export class NodeDbCorruptError extends IndexError {
  readonly kind = 'corrupt' as const;
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_INDEX_SOURCE', message, withKind('corrupt', opts));
  }
}

/** Not a node database, or one this build cannot read (RocksDB format, codec, merge operator, missing addon). */
export class NodeDbUnsupportedError extends IndexError {
  readonly kind = 'unsupported' as const;
  constructor(message: string, opts: TongateErrorOptions = {}) {
    super('TG_INDEX_SOURCE', message, withKind('unsupported', opts));
  }
}
