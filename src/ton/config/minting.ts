// block.tlb:634-635 (ExtraCurrencyCollection: block.tlb:121-122)
// _ mint_new_price:Grams mint_add_price:Grams = ConfigParam 6;
// _ to_mint:ExtraCurrencyCollection = ConfigParam 7;
// extra_currencies$_ dict:(HashmapE 32 (VarUInteger 32))
//                  = ExtraCurrencyCollection;
import { type Builder, Dictionary, type Slice } from '@ton/core';
import { dictToMap, mapToDict, strictValue } from './codec-helpers.ts';

export type ConfigParam6 = { mintNewPrice: bigint; mintAddPrice: bigint };

export function loadConfigParam6(slice: Slice): ConfigParam6 {
  return { mintNewPrice: slice.loadCoins(), mintAddPrice: slice.loadCoins() };
}

export function storeConfigParam6(value: ConfigParam6): (b: Builder) => void {
  return (b) => {
    b.storeCoins(value.mintNewPrice);
    b.storeCoins(value.mintAddPrice);
  };
}

/** ExtraCurrencyCollection: currency id -> amount. */
export type ExtraCurrencyCollection = Map<number, bigint>;

// VarUInteger 32: a 5-bit byte length, then the value.
const varUint32Value = strictValue(
  'VarUInteger 32',
  (s) => s.loadVarUintBig(5),
  (v: bigint) => (b) => {
    b.storeVarUint(v, 5);
  },
);

export function loadExtraCurrencyCollection(slice: Slice): ExtraCurrencyCollection {
  return dictToMap(Dictionary.load(Dictionary.Keys.Uint(32), varUint32Value, slice));
}

export function storeExtraCurrencyCollection(value: ExtraCurrencyCollection): (b: Builder) => void {
  return (b) => {
    b.storeDict(mapToDict(value, Dictionary.Keys.Uint(32), varUint32Value));
  };
}

export type ConfigParam7 = { toMint: ExtraCurrencyCollection };

export function loadConfigParam7(slice: Slice): ConfigParam7 {
  return { toMint: loadExtraCurrencyCollection(slice) };
}

export function storeConfigParam7(value: ConfigParam7): (b: Builder) => void {
  return storeExtraCurrencyCollection(value.toMint);
}
