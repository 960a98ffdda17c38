// block.tlb:842-844
// precompiled_smc#b0 gas_usage:uint64 = PrecompiledSmc;
// precompiled_contracts_config#c0 list:(HashmapE 256 PrecompiledSmc) = PrecompiledContractsConfig;
// _ PrecompiledContractsConfig = ConfigParam 45;
import { type Builder, Dictionary, type Slice } from '@ton/core';
import { dictToMap, loadTag, mapToDict, strictValue } from './codec-helpers.ts';

export type PrecompiledSmc = { gasUsage: bigint };

export function loadPrecompiledSmc(slice: Slice): PrecompiledSmc {
  loadTag(slice, 8, [0xb0], 'PrecompiledSmc');
  return { gasUsage: slice.loadUintBig(64) };
}

export function storePrecompiledSmc(value: PrecompiledSmc): (b: Builder) => void {
  return (b) => {
    b.storeUint(0xb0, 8);
    b.storeUint(value.gasUsage, 64);
  };
}

const precompiledSmcValue = strictValue('PrecompiledSmc', loadPrecompiledSmc, storePrecompiledSmc);

/** `list` is keyed by the contract's code hash (256-bit key). */
export type PrecompiledContractsConfig = { list: Map<bigint, PrecompiledSmc> };

export function loadPrecompiledContractsConfig(slice: Slice): PrecompiledContractsConfig {
  loadTag(slice, 8, [0xc0], 'PrecompiledContractsConfig');
  return { list: dictToMap(Dictionary.load(Dictionary.Keys.BigUint(256), precompiledSmcValue, slice)) };
}

export function storePrecompiledContractsConfig(value: PrecompiledContractsConfig): (b: Builder) => void {
  return (b) => {
    b.storeUint(0xc0, 8);
    b.storeDict(mapToDict(value.list, Dictionary.Keys.BigUint(256), precompiledSmcValue));
  };
}
