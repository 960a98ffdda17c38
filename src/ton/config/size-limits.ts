// block.tlb:823-836
// size_limits_config#01 max_msg_bits:uint32 max_msg_cells:uint32 max_library_cells:uint32 max_vm_data_depth:uint16
//   max_ext_msg_size:uint32 max_ext_msg_depth:uint16 = SizeLimitsConfig;
// size_limits_config_v2#02 max_msg_bits:uint32 max_msg_cells:uint32 max_library_cells:uint32 max_vm_data_depth:uint16
//   max_ext_msg_size:uint32 max_ext_msg_depth:uint16 max_acc_state_cells:uint32 max_mc_acc_state_cells:uint32
//   max_acc_public_libraries:uint32 defer_out_queue_size_limit:uint32 max_msg_extra_currencies:uint32
//   max_acc_fixed_prefix_length:uint8 acc_state_cells_for_storage_dict:uint32
//   max_transaction_library_loads:(Maybe uint32) = SizeLimitsConfig;
// size_limits_config_v3#03 max_msg_bits:uint32 max_msg_cells:uint32 max_library_cells:uint32 max_vm_data_depth:uint16
//   max_ext_msg_size:uint32 max_ext_msg_depth:uint16 max_acc_state_cells:uint32 max_mc_acc_state_cells:uint32
//   max_acc_public_libraries:uint32 defer_out_queue_size_limit:uint32 max_msg_extra_currencies:uint32
//   max_acc_fixed_prefix_length:uint8 acc_state_cells_for_storage_dict:uint32
//   max_transaction_library_loads:(Maybe uint32)
//   max_total_msg_bits:uint32 max_total_msg_cells:uint32 = SizeLimitsConfig;
// _ SizeLimitsConfig = ConfigParam 43;
import type { Builder, Slice } from '@ton/core';
import { loadTag } from './codec-helpers.ts';

type SizeLimitsV1 = {
  maxMsgBits: number;
  maxMsgCells: number;
  maxLibraryCells: number;
  maxVmDataDepth: number;
  maxExtMsgSize: number;
  maxExtMsgDepth: number;
};

type SizeLimitsV2 = SizeLimitsV1 & {
  maxAccStateCells: number;
  maxMcAccStateCells: number;
  maxAccPublicLibraries: number;
  deferOutQueueSizeLimit: number;
  maxMsgExtraCurrencies: number;
  maxAccFixedPrefixLength: number;
  accStateCellsForStorageDict: number;
  maxTransactionLibraryLoads: number | null;
};

export type SizeLimitsConfig =
  | ({ kind: 'size_limits_config' } & SizeLimitsV1)
  | ({ kind: 'size_limits_config_v2' } & SizeLimitsV2)
  | ({ kind: 'size_limits_config_v3' } & SizeLimitsV2 & { maxTotalMsgBits: number; maxTotalMsgCells: number });

export function loadSizeLimitsConfig(slice: Slice): SizeLimitsConfig {
  const tag = loadTag(slice, 8, [0x01, 0x02, 0x03], 'SizeLimitsConfig');
  const v1: SizeLimitsV1 = {
    maxMsgBits: slice.loadUint(32),
    maxMsgCells: slice.loadUint(32),
    maxLibraryCells: slice.loadUint(32),
    maxVmDataDepth: slice.loadUint(16),
    maxExtMsgSize: slice.loadUint(32),
    maxExtMsgDepth: slice.loadUint(16),
  };
  if (tag === 0x01) return { kind: 'size_limits_config', ...v1 };
  const v2: SizeLimitsV2 = {
    ...v1,
    maxAccStateCells: slice.loadUint(32),
    maxMcAccStateCells: slice.loadUint(32),
    maxAccPublicLibraries: slice.loadUint(32),
    deferOutQueueSizeLimit: slice.loadUint(32),
    maxMsgExtraCurrencies: slice.loadUint(32),
    maxAccFixedPrefixLength: slice.loadUint(8),
    accStateCellsForStorageDict: slice.loadUint(32),
    maxTransactionLibraryLoads: slice.loadMaybeUint(32),
  };
  if (tag === 0x02) return { kind: 'size_limits_config_v2', ...v2 };
  return {
    kind: 'size_limits_config_v3',
    ...v2,
    maxTotalMsgBits: slice.loadUint(32),
    maxTotalMsgCells: slice.loadUint(32),
  };
}

export function storeSizeLimitsConfig(value: SizeLimitsConfig): (b: Builder) => void {
  return (b) => {
    const tag = value.kind === 'size_limits_config' ? 0x01 : value.kind === 'size_limits_config_v2' ? 0x02 : 0x03;
    b.storeUint(tag, 8);
    b.storeUint(value.maxMsgBits, 32);
    b.storeUint(value.maxMsgCells, 32);
    b.storeUint(value.maxLibraryCells, 32);
    b.storeUint(value.maxVmDataDepth, 16);
    b.storeUint(value.maxExtMsgSize, 32);
    b.storeUint(value.maxExtMsgDepth, 16);
    if (value.kind === 'size_limits_config') return;
    b.storeUint(value.maxAccStateCells, 32);
    b.storeUint(value.maxMcAccStateCells, 32);
    b.storeUint(value.maxAccPublicLibraries, 32);
    b.storeUint(value.deferOutQueueSizeLimit, 32);
    b.storeUint(value.maxMsgExtraCurrencies, 32);
    b.storeUint(value.maxAccFixedPrefixLength, 8);
    b.storeUint(value.accStateCellsForStorageDict, 32);
    b.storeMaybeUint(value.maxTransactionLibraryLoads, 32);
    if (value.kind === 'size_limits_config_v3') {
      b.storeUint(value.maxTotalMsgBits, 32);
      b.storeUint(value.maxTotalMsgCells, 32);
    }
  };
}
