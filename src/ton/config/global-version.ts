// block.tlb:637-640
// capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion;
// _ GlobalVersion = ConfigParam 8;  // all zero if absent
// _ mandatory_params:(Hashmap 32 True) = ConfigParam 9;
// _ critical_params:(Hashmap 32 True) = ConfigParam 10;
import { type Builder, Dictionary, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { loadTag, unitValue } from './codec-helpers.ts';

export type GlobalVersion = { version: number; capabilities: bigint };

export function loadGlobalVersion(slice: Slice): GlobalVersion {
  loadTag(slice, 8, [0xc4], 'GlobalVersion');
  return { version: slice.loadUint(32), capabilities: slice.loadUintBig(64) };
}

export function storeGlobalVersion(value: GlobalVersion): (b: Builder) => void {
  return (b) => {
    b.storeUint(0xc4, 8);
    b.storeUint(value.version, 32);
    b.storeUint(value.capabilities, 64);
  };
}

// Param ids are int32 (the ConfigParams dictionary keys), so these sets hold signed ids (-1000, -1001...).
function loadParamIdSet(slice: Slice): number[] {
  // Hashmap (not HashmapE): the param cell is the root node itself.
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), unitValue, slice);
  return dict.keys().sort((a, b) => a - b);
}

function storeParamIdSet(ids: readonly number[], type: string): (b: Builder) => void {
  return (b) => {
    if (ids.length === 0) throw new CodecError(`${type}: a Hashmap 32 True cannot be empty`);
    const dict = Dictionary.empty(Dictionary.Keys.Int(32), unitValue);
    for (const id of ids) dict.set(id, true);
    dict.storeDirect(b);
  };
}

export type ConfigParam9 = { mandatoryParams: number[] };
export type ConfigParam10 = { criticalParams: number[] };

export function loadConfigParam9(slice: Slice): ConfigParam9 {
  return { mandatoryParams: loadParamIdSet(slice) };
}
export function storeConfigParam9(value: ConfigParam9): (b: Builder) => void {
  return storeParamIdSet(value.mandatoryParams, 'ConfigParam9');
}

export function loadConfigParam10(slice: Slice): ConfigParam10 {
  return { criticalParams: loadParamIdSet(slice) };
}
export function storeConfigParam10(value: ConfigParam10): (b: Builder) => void {
  return storeParamIdSet(value.criticalParams, 'ConfigParam10');
}
