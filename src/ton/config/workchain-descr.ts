// block.tlb:654-687
// wfmt_basic#1 vm_version:int32 vm_mode:uint64 = WorkchainFormat 1;
// wfmt_ext#0 min_addr_len:(## 12) max_addr_len:(## 12) addr_len_step:(## 12)
//   { min_addr_len >= 64 } { min_addr_len <= max_addr_len }
//   { max_addr_len <= 1023 } { addr_len_step <= 1023 }
//   workchain_type_id:(## 32) { workchain_type_id >= 1 }
//   = WorkchainFormat 0;
//
// wc_split_merge_timings#0
//   split_merge_delay:uint32 split_merge_interval:uint32
//   min_split_merge_interval:uint32 max_split_merge_delay:uint32
//   = WcSplitMergeTimings;
//
// workchain#a6 enabled_since:uint32 monitor_min_split:(## 8)
//   min_split:(## 8) max_split:(## 8) { monitor_min_split <= min_split }
//   { min_split <= max_split } { max_split <= 60 }
//   basic:(## 1) active:Bool accept_msgs:Bool flags:(## 13) { flags = 0 }
//   zerostate_root_hash:bits256 zerostate_file_hash:bits256
//   version:uint32 format:(WorkchainFormat basic)
//   = WorkchainDescr;
//
// workchain_v2#a7 enabled_since:uint32 monitor_min_split:(## 8)
//   min_split:(## 8) max_split:(## 8) { monitor_min_split <= min_split }
//   { min_split <= max_split } { max_split <= 60 }
//   basic:(## 1) active:Bool accept_msgs:Bool flags:(## 13) { flags = 0 }
//   zerostate_root_hash:bits256 zerostate_file_hash:bits256
//   version:uint32 format:(WorkchainFormat basic)
//   split_merge_timings:WcSplitMergeTimings
//   persistent_state_split_depth:(## 8) { persistent_state_split_depth <= 63 }
//   = WorkchainDescr;
//
// _ workchains:(HashmapE 32 WorkchainDescr) = ConfigParam 12;
import { type Builder, Dictionary, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { check, dictToMap, loadTag, mapToDict, storeBits256, strictValue } from './codec-helpers.ts';

export type WorkchainFormat =
  | { kind: 'wfmt_basic'; vmVersion: number; vmMode: bigint }
  | { kind: 'wfmt_ext'; minAddrLen: number; maxAddrLen: number; addrLenStep: number; workchainTypeId: number };

/** `basic` is the WorkchainFormat parameter: the descriptor's `basic` bit selects the constructor. */
export function loadWorkchainFormat(slice: Slice, basic: number): WorkchainFormat {
  const T = `WorkchainFormat ${basic}`;
  if (basic === 1) {
    loadTag(slice, 4, [0x1], T);
    return { kind: 'wfmt_basic', vmVersion: slice.loadInt(32), vmMode: slice.loadUintBig(64) };
  }
  loadTag(slice, 4, [0x0], T);
  const minAddrLen = slice.loadUint(12);
  const maxAddrLen = slice.loadUint(12);
  const addrLenStep = slice.loadUint(12);
  check(minAddrLen >= 64, T, 'min_addr_len >= 64', minAddrLen);
  check(minAddrLen <= maxAddrLen, T, 'min_addr_len <= max_addr_len', `${minAddrLen} > ${maxAddrLen}`);
  check(maxAddrLen <= 1023, T, 'max_addr_len <= 1023', maxAddrLen);
  check(addrLenStep <= 1023, T, 'addr_len_step <= 1023', addrLenStep);
  const workchainTypeId = slice.loadUint(32);
  check(workchainTypeId >= 1, T, 'workchain_type_id >= 1', workchainTypeId);
  return { kind: 'wfmt_ext', minAddrLen, maxAddrLen, addrLenStep, workchainTypeId };
}

export function storeWorkchainFormat(value: WorkchainFormat): (b: Builder) => void {
  return (b) => {
    if (value.kind === 'wfmt_basic') {
      b.storeUint(0x1, 4);
      b.storeInt(value.vmVersion, 32);
      b.storeUint(value.vmMode, 64);
    } else {
      b.storeUint(0x0, 4);
      b.storeUint(value.minAddrLen, 12);
      b.storeUint(value.maxAddrLen, 12);
      b.storeUint(value.addrLenStep, 12);
      b.storeUint(value.workchainTypeId, 32);
    }
  };
}

export type WcSplitMergeTimings = {
  splitMergeDelay: number;
  splitMergeInterval: number;
  minSplitMergeInterval: number;
  maxSplitMergeDelay: number;
};

export function loadWcSplitMergeTimings(slice: Slice): WcSplitMergeTimings {
  loadTag(slice, 4, [0x0], 'WcSplitMergeTimings');
  return {
    splitMergeDelay: slice.loadUint(32),
    splitMergeInterval: slice.loadUint(32),
    minSplitMergeInterval: slice.loadUint(32),
    maxSplitMergeDelay: slice.loadUint(32),
  };
}

export function storeWcSplitMergeTimings(value: WcSplitMergeTimings): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x0, 4);
    b.storeUint(value.splitMergeDelay, 32);
    b.storeUint(value.splitMergeInterval, 32);
    b.storeUint(value.minSplitMergeInterval, 32);
    b.storeUint(value.maxSplitMergeDelay, 32);
  };
}

type WorkchainDescrCommon = {
  enabledSince: number;
  monitorMinSplit: number;
  minSplit: number;
  maxSplit: number;
  basic: number;
  active: boolean;
  acceptMsgs: boolean;
  flags: number;
  zerostateRootHash: Buffer;
  zerostateFileHash: Buffer;
  version: number;
  format: WorkchainFormat;
};

export type WorkchainDescr =
  | ({ kind: 'workchain' } & WorkchainDescrCommon)
  | ({ kind: 'workchain_v2' } & WorkchainDescrCommon & {
        splitMergeTimings: WcSplitMergeTimings;
        persistentStateSplitDepth: number;
      });

export function loadWorkchainDescr(slice: Slice): WorkchainDescr {
  const T = 'WorkchainDescr';
  const tag = loadTag(slice, 8, [0xa6, 0xa7], T);
  const enabledSince = slice.loadUint(32);
  const monitorMinSplit = slice.loadUint(8);
  const minSplit = slice.loadUint(8);
  const maxSplit = slice.loadUint(8);
  check(monitorMinSplit <= minSplit, T, 'monitor_min_split <= min_split', `${monitorMinSplit} > ${minSplit}`);
  check(minSplit <= maxSplit, T, 'min_split <= max_split', `${minSplit} > ${maxSplit}`);
  check(maxSplit <= 60, T, 'max_split <= 60', maxSplit);
  const basic = slice.loadUint(1);
  const active = slice.loadBit();
  const acceptMsgs = slice.loadBit();
  const flags = slice.loadUint(13);
  check(flags === 0, T, 'flags = 0', flags);
  const common: WorkchainDescrCommon = {
    enabledSince,
    monitorMinSplit,
    minSplit,
    maxSplit,
    basic,
    active,
    acceptMsgs,
    flags,
    zerostateRootHash: slice.loadBuffer(32),
    zerostateFileHash: slice.loadBuffer(32),
    version: slice.loadUint(32),
    format: loadWorkchainFormat(slice, basic),
  };
  if (tag === 0xa6) return { kind: 'workchain', ...common };
  const splitMergeTimings = loadWcSplitMergeTimings(slice);
  const persistentStateSplitDepth = slice.loadUint(8);
  check(persistentStateSplitDepth <= 63, T, 'persistent_state_split_depth <= 63', persistentStateSplitDepth);
  return { kind: 'workchain_v2', ...common, splitMergeTimings, persistentStateSplitDepth };
}

export function storeWorkchainDescr(value: WorkchainDescr): (b: Builder) => void {
  return (b) => {
    if ((value.basic === 1) !== (value.format.kind === 'wfmt_basic')) {
      throw new CodecError(`WorkchainDescr: basic=${value.basic} does not match format ${value.format.kind}`);
    }
    b.storeUint(value.kind === 'workchain' ? 0xa6 : 0xa7, 8);
    b.storeUint(value.enabledSince, 32);
    b.storeUint(value.monitorMinSplit, 8);
    b.storeUint(value.minSplit, 8);
    b.storeUint(value.maxSplit, 8);
    b.storeUint(value.basic, 1);
    b.storeBit(value.active);
    b.storeBit(value.acceptMsgs);
    b.storeUint(value.flags, 13);
    storeBits256(b, value.zerostateRootHash, 'WorkchainDescr', 'zerostate_root_hash');
    storeBits256(b, value.zerostateFileHash, 'WorkchainDescr', 'zerostate_file_hash');
    b.storeUint(value.version, 32);
    b.store(storeWorkchainFormat(value.format));
    if (value.kind === 'workchain_v2') {
      b.store(storeWcSplitMergeTimings(value.splitMergeTimings));
      b.storeUint(value.persistentStateSplitDepth, 8);
    }
  };
}

const workchainDescrValue = strictValue('WorkchainDescr', loadWorkchainDescr, storeWorkchainDescr);

/** Workchain id (int32) -> descriptor. */
export type ConfigParam12 = { workchains: Map<number, WorkchainDescr> };

export function loadConfigParam12(slice: Slice): ConfigParam12 {
  return { workchains: dictToMap(Dictionary.load(Dictionary.Keys.Int(32), workchainDescrValue, slice)) };
}

export function storeConfigParam12(value: ConfigParam12): (b: Builder) => void {
  return (b) => {
    b.storeDict(mapToDict(value.workchains, Dictionary.Keys.Int(32), workchainDescrValue));
  };
}
