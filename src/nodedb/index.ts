// A TON node's on-disk database, read in place (NodeDb) and written in the node's format (NodeDbWriter, for tests
// and the devnet export). The parts below (packs, indexes, celldb, RocksDB) are importable from their own files.
export {
  NodeDbCorruptError,
  type NodeDbErrorKind,
  NodeDbNotYetVisibleError,
  NodeDbPrunedError,
  NodeDbUnsupportedError,
} from './errors.ts';
export type { BlockHandle } from './handle.ts';
export { HANDLE_FLAGS } from './handle.ts';
export { loadRocksAddon, NodeDbUnavailableError } from './kv/rocks.ts';
export type { ArchiveGeneration } from './layout.ts';
export {
  type NodeDb,
  type NodeDbCoverage,
  type NodeDbLog,
  type NodeDbLookup,
  type NodeDbOptions,
  type NodeDbTailOptions,
  type NodeDbTip,
  openNodeDb,
} from './node-db.ts';
export {
  type KvOpener,
  type NodeDbWriter,
  type NodeDbWriterOptions,
  openNodeDbWriter,
  type WriterBlock,
  type WriterStep,
} from './writer.ts';
