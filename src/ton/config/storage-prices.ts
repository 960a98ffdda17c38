// block.tlb:708-712
// _#cc utime_since:uint32 bit_price_ps:uint64 cell_price_ps:uint64
//   mc_bit_price_ps:uint64 mc_cell_price_ps:uint64 = StoragePrices;
// _ (Hashmap 32 StoragePrices) = ConfigParam 18;
//
// _ global_id:int32 = ConfigParam 19;
import { type Builder, Dictionary, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { dictToMap, loadTag, mapToDict, strictValue } from './codec-helpers.ts';

export type StoragePrices = {
  utimeSince: number;
  bitPricePs: bigint;
  cellPricePs: bigint;
  mcBitPricePs: bigint;
  mcCellPricePs: bigint;
};

export function loadStoragePrices(slice: Slice): StoragePrices {
  loadTag(slice, 8, [0xcc], 'StoragePrices');
  return {
    utimeSince: slice.loadUint(32),
    bitPricePs: slice.loadUintBig(64),
    cellPricePs: slice.loadUintBig(64),
    mcBitPricePs: slice.loadUintBig(64),
    mcCellPricePs: slice.loadUintBig(64),
  };
}

export function storeStoragePrices(value: StoragePrices): (b: Builder) => void {
  return (b) => {
    b.storeUint(0xcc, 8);
    b.storeUint(value.utimeSince, 32);
    b.storeUint(value.bitPricePs, 64);
    b.storeUint(value.cellPricePs, 64);
    b.storeUint(value.mcBitPricePs, 64);
    b.storeUint(value.mcCellPricePs, 64);
  };
}

const storagePricesValue = strictValue('StoragePrices', loadStoragePrices, storeStoragePrices);

/** The anonymous Hashmap of param 18; on mainnet the uint32 key equals the entry's utime_since. */
export type ConfigParam18 = { storagePrices: Map<number, StoragePrices> };

export function loadConfigParam18(slice: Slice): ConfigParam18 {
  // Hashmap (not HashmapE): the param cell is the root node itself.
  return { storagePrices: dictToMap(Dictionary.loadDirect(Dictionary.Keys.Uint(32), storagePricesValue, slice)) };
}

export function storeConfigParam18(value: ConfigParam18): (b: Builder) => void {
  return (b) => {
    if (value.storagePrices.size === 0)
      throw new CodecError('ConfigParam18: a Hashmap 32 StoragePrices cannot be empty');
    mapToDict(value.storagePrices, Dictionary.Keys.Uint(32), storagePricesValue).storeDirect(b);
  };
}

export type ConfigParam19 = { globalId: number };

export function loadConfigParam19(slice: Slice): ConfigParam19 {
  return { globalId: slice.loadInt(32) };
}

export function storeConfigParam19(value: ConfigParam19): (b: Builder) => void {
  return (b) => {
    b.storeInt(value.globalId, 32);
  };
}
