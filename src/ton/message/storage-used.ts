// block.tlb:265
//   storage_used$_ cells:(VarUInteger 7) bits:(VarUInteger 7) = StorageUsed;
import type { Builder, Slice } from '@ton/core';
import { loadVarUInteger, storeVarUInteger } from './util.ts';

export interface StorageUsed {
  cells: bigint;
  bits: bigint;
}

const T = 'StorageUsed';

export function loadStorageUsed(s: Slice): StorageUsed {
  return { cells: loadVarUInteger(s, 7, T, 'cells'), bits: loadVarUInteger(s, 7, T, 'bits') };
}

export function storeStorageUsed(v: StorageUsed): (b: Builder) => void {
  return (b) => {
    storeVarUInteger(b, v.cells, 7, T, 'cells');
    storeVarUInteger(b, v.bits, 7, T, 'bits');
  };
}
