// block.tlb:342-348
//   tr_phase_action$_ success:Bool valid:Bool no_funds:Bool
//     status_change:AccStatusChange
//     total_fwd_fees:(Maybe Grams) total_action_fees:(Maybe Grams)
//     result_code:int32 result_arg:(Maybe int32) tot_actions:uint16
//     spec_actions:uint16 skipped_actions:uint16 msgs_created:uint16
//     action_list_hash:bits256 tot_msg_size:StorageUsed
//     = TrActionPhase;
import type { Builder, Slice } from '@ton/core';
import { loadStorageUsed, type StorageUsed, storeStorageUsed } from './storage-used.ts';
import { type AccStatusChange, loadAccStatusChange, storeAccStatusChange } from './tr-storage-phase.ts';
import { decoding, loadBits256, loadGrams, storeBits256, storeGrams } from './util.ts';

export interface TrActionPhase {
  success: boolean;
  valid: boolean;
  noFunds: boolean;
  statusChange: AccStatusChange;
  totalFwdFees: bigint | null;
  totalActionFees: bigint | null;
  resultCode: number;
  resultArg: number | null;
  totActions: number;
  specActions: number;
  skippedActions: number;
  msgsCreated: number;
  actionListHash: Buffer;
  totMsgSize: StorageUsed;
}

const T = 'TrActionPhase';

export function loadTrActionPhase(s: Slice): TrActionPhase {
  return decoding(T, () => {
    const success = s.loadBit();
    const valid = s.loadBit();
    const noFunds = s.loadBit();
    const statusChange = loadAccStatusChange(s);
    const totalFwdFees = s.loadBit() ? loadGrams(s, T, 'total_fwd_fees') : null;
    const totalActionFees = s.loadBit() ? loadGrams(s, T, 'total_action_fees') : null;
    const resultCode = s.loadInt(32);
    const resultArg = s.loadBit() ? s.loadInt(32) : null;
    const totActions = s.loadUint(16);
    const specActions = s.loadUint(16);
    const skippedActions = s.loadUint(16);
    const msgsCreated = s.loadUint(16);
    const actionListHash = loadBits256(s, T, 'action_list_hash');
    const totMsgSize = loadStorageUsed(s);
    return {
      success,
      valid,
      noFunds,
      statusChange,
      totalFwdFees,
      totalActionFees,
      resultCode,
      resultArg,
      totActions,
      specActions,
      skippedActions,
      msgsCreated,
      actionListHash,
      totMsgSize,
    };
  });
}

function storeMaybeGrams(b: Builder, v: bigint | null, field: string): void {
  if (v === null) b.storeBit(false);
  else {
    b.storeBit(true);
    storeGrams(b, v, T, field);
  }
}

export function storeTrActionPhase(v: TrActionPhase): (b: Builder) => void {
  return (b) => {
    b.storeBit(v.success).storeBit(v.valid).storeBit(v.noFunds).store(storeAccStatusChange(v.statusChange));
    storeMaybeGrams(b, v.totalFwdFees, 'total_fwd_fees');
    storeMaybeGrams(b, v.totalActionFees, 'total_action_fees');
    b.storeInt(v.resultCode, 32).storeMaybeInt(v.resultArg, 32);
    b.storeUint(v.totActions, 16)
      .storeUint(v.specActions, 16)
      .storeUint(v.skippedActions, 16)
      .storeUint(v.msgsCreated, 16);
    storeBits256(b, v.actionListHash, T, 'action_list_hash');
    b.store(storeStorageUsed(v.totMsgSize));
  };
}
