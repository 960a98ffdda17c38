export {
  CORE_PART,
  DECODER_VERSION,
  deleteUnitRows,
  indexedSeqnos,
  type UnitRows,
  type WriteOptions,
  writeUnit,
} from './write-unit.ts';
