// celldb: cell records and their refcount merge, the cell store, the list of stored states, the node-format writer
// and account states read out of a stored shard state.
export { readAccountStates } from './accounts.ts';
export {
  appendStateOps,
  CELLDB_VALUE_BYTES,
  type CellDbValue,
  DESC_ZERO_KEY,
  decodeCellDbValue,
  descKey,
  descKeyHash,
  encodeCellDbValue,
  LAST_DELETED_MC_SEQNO_KEY,
  listStoredStates,
  removeOldestStateOps,
  type StoredState,
  stateRootOf,
} from './desc.ts';
export {
  type CellRecordRef,
  cellRecordHash,
  cellRecordHashes,
  cellRefcountMerge,
  encodeCellRecord,
  encodeCellRecordBoc,
  type ParsedCellRecord,
  type PlainCellRecord,
  parseCellRecord,
  recordRefcount,
  refcountDelta,
  withRefcount,
} from './record.ts';
export { type CellStore, type CellStoreOptions, createCellStore, NodeDbMissingCellError } from './store.ts';
export { type CellDbWriteOptions, cellDbWriteOps } from './write.ts';
