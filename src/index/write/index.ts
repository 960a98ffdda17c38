export {
  CORE_PART,
  DECODER_VERSION,
  deleteUnitRows,
  indexedSeqnos,
  uniqueByKey,
  type WriteOptions,
  writeUnit,
} from './write-unit.ts';
