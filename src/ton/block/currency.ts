// block.tlb:121-124 (the shape this file sums; load/store are @ton/core's)
//   extra_currencies$_ dict:(HashmapE 32 (VarUInteger 32)) = ExtraCurrencyCollection;
//   currencies$_ grams:Grams other:ExtraCurrencyCollection = CurrencyCollection;
import {
  type Builder,
  type CurrencyCollection,
  Dictionary,
  loadCurrencyCollection,
  type Slice,
  storeCurrencyCollection,
} from '@ton/core';
import { decoding } from './codec-util.ts';

/** @ton/core's loader, with its plain errors turned into a CodecError naming CurrencyCollection. */
export function loadCurrencies(s: Slice): CurrencyCollection {
  return decoding('CurrencyCollection', () => loadCurrencyCollection(s));
}

export function storeCurrencies(c: CurrencyCollection): (b: Builder) => void {
  return storeCurrencyCollection(c);
}

export function zeroCurrencies(): CurrencyCollection {
  return { coins: 0n };
}

/**
 * a + b as the node's CurrencyCollection::add_values does it: grams summed, extra currencies merged
 * key by key with their amounts summed (the augmentation of every fork of a CurrencyCollection dict).
 */
export function addCurrencies(a: CurrencyCollection, b: CurrencyCollection): CurrencyCollection {
  const coins = a.coins + b.coins;
  const aOther = a.other && a.other.size > 0 ? a.other : undefined;
  const bOther = b.other && b.other.size > 0 ? b.other : undefined;
  if (!aOther && !bOther) return { coins };
  const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
  for (const [k, v] of aOther ?? []) other.set(k, v);
  for (const [k, v] of bOther ?? []) other.set(k, (other.get(k) ?? 0n) + v);
  return { coins, other };
}
