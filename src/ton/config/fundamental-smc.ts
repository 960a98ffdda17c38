// block.tlb:802
// _ fundamental_smc_addr:(HashmapE 256 True) = ConfigParam 31;
import type { Builder, Slice } from '@ton/core';
import { loadKeySet, storeKeySet } from './codec-helpers.ts';

/** Masterchain account ids (256-bit keys, ascending) of the fundamental smart contracts. */
export type ConfigParam31 = { fundamentalSmcAddr: bigint[] };

export function loadConfigParam31(slice: Slice): ConfigParam31 {
  return { fundamentalSmcAddr: loadKeySet(slice, 256) };
}

export function storeConfigParam31(value: ConfigParam31): (b: Builder) => void {
  return storeKeySet(value.fundamentalSmcAddr, 256);
}
