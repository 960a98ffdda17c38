export {
  CORE_PART,
  DECODER_VERSION,
  deleteUnitRows,
  indexedSeqnos,
  rowCount,
  type TableRows,
  type UnitRows,
  type UnitRowsOf,
  uniqueByKey,
  type WriteOptions,
  writeUnit,
} from './write-unit.ts';
