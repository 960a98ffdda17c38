// block.tlb:315-322
//   tr_phase_storage$_ storage_fees_collected:Grams
//     storage_fees_due:(Maybe Grams)
//     status_change:AccStatusChange
//     = TrStoragePhase;
//   acst_unchanged$0 = AccStatusChange;  // x -> x
//   acst_frozen$10 = AccStatusChange;    // init -> frozen
//   acst_deleted$11 = AccStatusChange;   // frozen -> deleted
import type { Builder, Slice } from '@ton/core';
import { decoding, loadGrams, storeGrams } from './util.ts';

/** Field-less constructors: the union is of the constructor names themselves. */
export type AccStatusChange = 'acst_unchanged' | 'acst_frozen' | 'acst_deleted';

export interface TrStoragePhase {
  storageFeesCollected: bigint;
  storageFeesDue: bigint | null;
  statusChange: AccStatusChange;
}

const T = 'TrStoragePhase';

export function loadAccStatusChange(s: Slice): AccStatusChange {
  return decoding('AccStatusChange', () => {
    if (!s.loadBit()) return 'acst_unchanged';
    return s.loadBit() ? 'acst_deleted' : 'acst_frozen';
  });
}

export function storeAccStatusChange(v: AccStatusChange): (b: Builder) => void {
  return (b) => {
    if (v === 'acst_unchanged') b.storeBit(false);
    else b.storeBit(true).storeBit(v === 'acst_deleted');
  };
}

export function loadTrStoragePhase(s: Slice): TrStoragePhase {
  return decoding(T, () => {
    const storageFeesCollected = loadGrams(s, T, 'storage_fees_collected');
    const storageFeesDue = s.loadBit() ? loadGrams(s, T, 'storage_fees_due') : null;
    return { storageFeesCollected, storageFeesDue, statusChange: loadAccStatusChange(s) };
  });
}

export function storeTrStoragePhase(v: TrStoragePhase): (b: Builder) => void {
  return (b) => {
    storeGrams(b, v.storageFeesCollected, T, 'storage_fees_collected');
    if (v.storageFeesDue === null) b.storeBit(false);
    else {
      b.storeBit(true);
      storeGrams(b, v.storageFeesDue, T, 'storage_fees_due');
    }
    b.store(storeAccStatusChange(v.statusChange));
  };
}
