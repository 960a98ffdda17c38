// block.tlb:714-726
// gas_prices#dd gas_price:uint64 gas_limit:uint64 gas_credit:uint64
//   block_gas_limit:uint64 freeze_due_limit:uint64 delete_due_limit:uint64
//   = GasLimitsPrices;
//
// gas_prices_ext#de gas_price:uint64 gas_limit:uint64 special_gas_limit:uint64 gas_credit:uint64
//   block_gas_limit:uint64 freeze_due_limit:uint64 delete_due_limit:uint64
//   = GasLimitsPrices;
//
// gas_flat_pfx#d1 flat_gas_limit:uint64 flat_gas_price:uint64 other:GasLimitsPrices
//   = GasLimitsPrices;
//
// config_mc_gas_prices#_ GasLimitsPrices = ConfigParam 20;
// config_gas_prices#_ GasLimitsPrices = ConfigParam 21;
import type { Builder, Slice } from '@ton/core';
import { loadTag } from './codec-helpers.ts';

export type GasLimitsPrices =
  | {
      kind: 'gas_prices';
      gasPrice: bigint;
      gasLimit: bigint;
      gasCredit: bigint;
      blockGasLimit: bigint;
      freezeDueLimit: bigint;
      deleteDueLimit: bigint;
    }
  | {
      kind: 'gas_prices_ext';
      gasPrice: bigint;
      gasLimit: bigint;
      specialGasLimit: bigint;
      gasCredit: bigint;
      blockGasLimit: bigint;
      freezeDueLimit: bigint;
      deleteDueLimit: bigint;
    }
  | { kind: 'gas_flat_pfx'; flatGasLimit: bigint; flatGasPrice: bigint; other: GasLimitsPrices };

export function loadGasLimitsPrices(slice: Slice): GasLimitsPrices {
  const tag = loadTag(slice, 8, [0xdd, 0xde, 0xd1], 'GasLimitsPrices');
  if (tag === 0xd1) {
    const flatGasLimit = slice.loadUintBig(64);
    const flatGasPrice = slice.loadUintBig(64);
    return { kind: 'gas_flat_pfx', flatGasLimit, flatGasPrice, other: loadGasLimitsPrices(slice) };
  }
  const gasPrice = slice.loadUintBig(64);
  const gasLimit = slice.loadUintBig(64);
  if (tag === 0xde) {
    return {
      kind: 'gas_prices_ext',
      gasPrice,
      gasLimit,
      specialGasLimit: slice.loadUintBig(64),
      gasCredit: slice.loadUintBig(64),
      blockGasLimit: slice.loadUintBig(64),
      freezeDueLimit: slice.loadUintBig(64),
      deleteDueLimit: slice.loadUintBig(64),
    };
  }
  return {
    kind: 'gas_prices',
    gasPrice,
    gasLimit,
    gasCredit: slice.loadUintBig(64),
    blockGasLimit: slice.loadUintBig(64),
    freezeDueLimit: slice.loadUintBig(64),
    deleteDueLimit: slice.loadUintBig(64),
  };
}

export function storeGasLimitsPrices(value: GasLimitsPrices): (b: Builder) => void {
  return (b) => {
    switch (value.kind) {
      case 'gas_flat_pfx':
        b.storeUint(0xd1, 8);
        b.storeUint(value.flatGasLimit, 64);
        b.storeUint(value.flatGasPrice, 64);
        b.store(storeGasLimitsPrices(value.other));
        return;
      case 'gas_prices_ext':
        b.storeUint(0xde, 8);
        b.storeUint(value.gasPrice, 64);
        b.storeUint(value.gasLimit, 64);
        b.storeUint(value.specialGasLimit, 64);
        break;
      case 'gas_prices':
        b.storeUint(0xdd, 8);
        b.storeUint(value.gasPrice, 64);
        b.storeUint(value.gasLimit, 64);
        break;
    }
    b.storeUint(value.gasCredit, 64);
    b.storeUint(value.blockGasLimit, 64);
    b.storeUint(value.freezeDueLimit, 64);
    b.storeUint(value.deleteDueLimit, 64);
  };
}
