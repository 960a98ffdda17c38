// block.tlb:324-325
//   tr_phase_credit$_ due_fees_collected:(Maybe Grams)
//     credit:CurrencyCollection = TrCreditPhase;
import {
  type Builder,
  type CurrencyCollection,
  loadCurrencyCollection,
  type Slice,
  storeCurrencyCollection,
} from '@ton/core';
import { decoding, loadGrams, storeGrams } from './util.ts';

export interface TrCreditPhase {
  dueFeesCollected: bigint | null;
  credit: CurrencyCollection;
}

const T = 'TrCreditPhase';

export function loadTrCreditPhase(s: Slice): TrCreditPhase {
  return decoding(T, () => {
    const dueFeesCollected = s.loadBit() ? loadGrams(s, T, 'due_fees_collected') : null;
    return { dueFeesCollected, credit: loadCurrencyCollection(s) };
  });
}

export function storeTrCreditPhase(v: TrCreditPhase): (b: Builder) => void {
  return (b) => {
    if (v.dueFeesCollected === null) b.storeBit(false);
    else {
      b.storeBit(true);
      storeGrams(b, v.dueFeesCollected, T, 'due_fees_collected');
    }
    b.store(storeCurrencyCollection(v.credit));
  };
}
