// block.tlb:121-124
//   extra_currencies$_ dict:(HashmapE 32 (VarUInteger 32))
//                    = ExtraCurrencyCollection;
//   currencies$_ grams:Grams other:ExtraCurrencyCollection
//              = CurrencyCollection;
//
// @ton/core's CurrencyCollection, plus one case it cannot hold: in a proof the extra-currency dictionary
// (of a state's total balance, of a fork's DepthBalanceInfo) may be pruned, and @ton/core would read it
// as empty. Then the dictionary is kept as it arrived, in `otherPruned`, and written back as is.
import { type Builder, type Cell, type CurrencyCollection, type Slice, storeCurrencyCollection } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { decoding } from '../block/codec-util.ts';
import { addCurrencies, loadCurrencies } from '../block/currency.ts';

export interface PrunableCurrencyCollection extends CurrencyCollection {
  /** The extra-currency dictionary's root when a proof pruned all or part of it (`other` is then unset). */
  otherPruned?: Cell;
}

export function loadPrunableCurrencies(s: Slice): PrunableCurrencyCollection {
  return decoding('CurrencyCollection', () => {
    // A pruned cell anywhere below the root makes the root's level non-zero.
    const root = s.remainingRefs > 0 && s.remainingBits >= 5 ? peekExtraRoot(s) : null;
    if (root === null || root.level() === 0) return loadCurrencies(s);
    const coins = s.loadCoins();
    s.loadBit();
    return { coins, otherPruned: s.loadRef() };
  });
}

/** The extra-currency root ref that follows the Grams at the start of `s`, if the flag bit says there is one. */
function peekExtraRoot(s: Slice): Cell | null {
  const probe = s.clone();
  probe.loadCoins();
  return probe.loadBit() ? probe.loadRef() : null;
}

export function storePrunableCurrencies(v: PrunableCurrencyCollection): (b: Builder) => void {
  if (v.otherPruned === undefined) return storeCurrencyCollection(v);
  const root = v.otherPruned;
  if (v.other && v.other.size > 0) {
    throw new CodecError('CurrencyCollection: expected either `other` or `otherPruned`, got both');
  }
  return (b) => {
    b.storeCoins(v.coins).storeBit(true).storeRef(root);
  };
}

/** a + b (CurrencyCollection::add_values); impossible when a proof pruned either side's extra currencies. */
export function addPrunableCurrencies(
  a: PrunableCurrencyCollection,
  b: PrunableCurrencyCollection,
): PrunableCurrencyCollection {
  if (a.otherPruned !== undefined || b.otherPruned !== undefined) {
    throw new CodecError('CurrencyCollection: cannot add, an extra-currency dictionary is a pruned branch');
  }
  return addCurrencies(a, b);
}
