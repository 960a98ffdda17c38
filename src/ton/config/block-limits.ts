// block.tlb:728-738
// param_limits#c3 underload:# soft_limit:# { underload <= soft_limit }
//   hard_limit:# { soft_limit <= hard_limit } = ParamLimits;
// imported_msg_queue_limits#d3 max_bytes:# max_msgs:# = ImportedMsgQueueLimits;
// block_limits#5d bytes:ParamLimits gas:ParamLimits lt_delta:ParamLimits
//   = BlockLimits;
// block_limits_v2#5e bytes:ParamLimits gas:ParamLimits lt_delta:ParamLimits
//   collated_data:ParamLimits imported_msg_queue:ImportedMsgQueueLimits
//   = BlockLimits;
//
// config_mc_block_limits#_ BlockLimits = ConfigParam 22;
// config_block_limits#_ BlockLimits = ConfigParam 23;
import type { Builder, Slice } from '@ton/core';
import { check, loadTag } from './codec-helpers.ts';

export type ParamLimits = { underload: number; softLimit: number; hardLimit: number };

export function loadParamLimits(slice: Slice): ParamLimits {
  const T = 'ParamLimits';
  loadTag(slice, 8, [0xc3], T);
  const underload = slice.loadUint(32);
  const softLimit = slice.loadUint(32);
  check(underload <= softLimit, T, 'underload <= soft_limit', `${underload} > ${softLimit}`);
  const hardLimit = slice.loadUint(32);
  check(softLimit <= hardLimit, T, 'soft_limit <= hard_limit', `${softLimit} > ${hardLimit}`);
  return { underload, softLimit, hardLimit };
}

export function storeParamLimits(value: ParamLimits): (b: Builder) => void {
  return (b) => {
    b.storeUint(0xc3, 8);
    b.storeUint(value.underload, 32);
    b.storeUint(value.softLimit, 32);
    b.storeUint(value.hardLimit, 32);
  };
}

export type ImportedMsgQueueLimits = { maxBytes: number; maxMsgs: number };

export function loadImportedMsgQueueLimits(slice: Slice): ImportedMsgQueueLimits {
  loadTag(slice, 8, [0xd3], 'ImportedMsgQueueLimits');
  return { maxBytes: slice.loadUint(32), maxMsgs: slice.loadUint(32) };
}

export function storeImportedMsgQueueLimits(value: ImportedMsgQueueLimits): (b: Builder) => void {
  return (b) => {
    b.storeUint(0xd3, 8);
    b.storeUint(value.maxBytes, 32);
    b.storeUint(value.maxMsgs, 32);
  };
}

export type BlockLimits =
  | { kind: 'block_limits'; bytes: ParamLimits; gas: ParamLimits; ltDelta: ParamLimits }
  | {
      kind: 'block_limits_v2';
      bytes: ParamLimits;
      gas: ParamLimits;
      ltDelta: ParamLimits;
      collatedData: ParamLimits;
      importedMsgQueue: ImportedMsgQueueLimits;
    };

export function loadBlockLimits(slice: Slice): BlockLimits {
  const tag = loadTag(slice, 8, [0x5d, 0x5e], 'BlockLimits');
  const bytes = loadParamLimits(slice);
  const gas = loadParamLimits(slice);
  const ltDelta = loadParamLimits(slice);
  if (tag === 0x5d) return { kind: 'block_limits', bytes, gas, ltDelta };
  const collatedData = loadParamLimits(slice);
  const importedMsgQueue = loadImportedMsgQueueLimits(slice);
  return { kind: 'block_limits_v2', bytes, gas, ltDelta, collatedData, importedMsgQueue };
}

export function storeBlockLimits(value: BlockLimits): (b: Builder) => void {
  return (b) => {
    b.storeUint(value.kind === 'block_limits' ? 0x5d : 0x5e, 8);
    b.store(storeParamLimits(value.bytes));
    b.store(storeParamLimits(value.gas));
    b.store(storeParamLimits(value.ltDelta));
    if (value.kind === 'block_limits_v2') {
      b.store(storeParamLimits(value.collatedData));
      b.store(storeImportedMsgQueueLimits(value.importedMsgQueue));
    }
  };
}
