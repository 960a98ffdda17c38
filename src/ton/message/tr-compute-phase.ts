// block.tlb:327-340
//   tr_phase_compute_skipped$0 reason:ComputeSkipReason
//     = TrComputePhase;
//   tr_phase_compute_vm$1 success:Bool msg_state_used:Bool
//     account_activated:Bool gas_fees:Grams
//     ^[ gas_used:(VarUInteger 7)
//     gas_limit:(VarUInteger 7) gas_credit:(Maybe (VarUInteger 3))
//     mode:int8 exit_code:int32 exit_arg:(Maybe int32)
//     vm_steps:uint32
//     vm_init_state_hash:bits256 vm_final_state_hash:bits256 ]
//     = TrComputePhase;
//   cskip_no_state$00 = ComputeSkipReason;
//   cskip_bad_state$01 = ComputeSkipReason;
//   cskip_no_gas$10 = ComputeSkipReason;
//   cskip_suspended$110 = ComputeSkipReason;
import { type Builder, beginCell, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import {
  decoding,
  loadBits256,
  loadGrams,
  loadRefCell,
  loadVarUInteger,
  loadWhole,
  storeBits256,
  storeGrams,
  storeVarUInteger,
} from './util.ts';

/** Field-less constructors: the union is of the constructor names themselves. */
export type ComputeSkipReason = 'cskip_no_state' | 'cskip_bad_state' | 'cskip_no_gas' | 'cskip_suspended';

export interface TrComputePhaseSkipped {
  kind: 'tr_phase_compute_skipped';
  reason: ComputeSkipReason;
}

export interface TrComputePhaseVm {
  kind: 'tr_phase_compute_vm';
  success: boolean;
  msgStateUsed: boolean;
  accountActivated: boolean;
  gasFees: bigint;
  gasUsed: bigint;
  gasLimit: bigint;
  gasCredit: bigint | null;
  mode: number;
  exitCode: number;
  exitArg: number | null;
  vmSteps: number;
  vmInitStateHash: Buffer;
  vmFinalStateHash: Buffer;
}

export type TrComputePhase = TrComputePhaseSkipped | TrComputePhaseVm;

const T = 'TrComputePhase';

export function loadComputeSkipReason(s: Slice): ComputeSkipReason {
  return decoding('ComputeSkipReason', () => {
    const t = s.loadUint(2);
    if (t === 0) return 'cskip_no_state';
    if (t === 1) return 'cskip_bad_state';
    if (t === 2) return 'cskip_no_gas';
    if (!s.loadBit()) return 'cskip_suspended';
    throw new CodecError('ComputeSkipReason: expected tag $00, $01, $10 or $110, got $111');
  });
}

export function storeComputeSkipReason(v: ComputeSkipReason): (b: Builder) => void {
  return (b) => {
    if (v === 'cskip_no_state') b.storeUint(0, 2);
    else if (v === 'cskip_bad_state') b.storeUint(1, 2);
    else if (v === 'cskip_no_gas') b.storeUint(2, 2);
    else if (v === 'cskip_suspended') b.storeUint(6, 3);
    else throw new CodecError(`ComputeSkipReason: unknown constructor ${String(v)}`);
  };
}

export function loadTrComputePhase(s: Slice): TrComputePhase {
  return decoding(T, () => {
    if (!s.loadBit()) return { kind: 'tr_phase_compute_skipped', reason: loadComputeSkipReason(s) };
    const success = s.loadBit();
    const msgStateUsed = s.loadBit();
    const accountActivated = s.loadBit();
    const gasFees = loadGrams(s, T, 'gas_fees');
    const r = loadWhole(T, loadRefCell(s, T, '^[ gas_used … ]'), (c) => {
      const gasUsed = loadVarUInteger(c, 7, T, 'gas_used');
      const gasLimit = loadVarUInteger(c, 7, T, 'gas_limit');
      const gasCredit = c.loadBit() ? loadVarUInteger(c, 3, T, 'gas_credit') : null;
      const mode = c.loadInt(8);
      const exitCode = c.loadInt(32);
      const exitArg = c.loadBit() ? c.loadInt(32) : null;
      const vmSteps = c.loadUint(32);
      const vmInitStateHash = loadBits256(c, T, 'vm_init_state_hash');
      const vmFinalStateHash = loadBits256(c, T, 'vm_final_state_hash');
      return { gasUsed, gasLimit, gasCredit, mode, exitCode, exitArg, vmSteps, vmInitStateHash, vmFinalStateHash };
    });
    return { kind: 'tr_phase_compute_vm', success, msgStateUsed, accountActivated, gasFees, ...r };
  });
}

export function storeTrComputePhase(v: TrComputePhase): (b: Builder) => void {
  return (b) => {
    if (v.kind === 'tr_phase_compute_skipped') {
      b.storeBit(false).store(storeComputeSkipReason(v.reason));
      return;
    }
    b.storeBit(true).storeBit(v.success).storeBit(v.msgStateUsed).storeBit(v.accountActivated);
    storeGrams(b, v.gasFees, T, 'gas_fees');
    const c = beginCell();
    storeVarUInteger(c, v.gasUsed, 7, T, 'gas_used');
    storeVarUInteger(c, v.gasLimit, 7, T, 'gas_limit');
    if (v.gasCredit === null) c.storeBit(false);
    else {
      c.storeBit(true);
      storeVarUInteger(c, v.gasCredit, 3, T, 'gas_credit');
    }
    c.storeInt(v.mode, 8).storeInt(v.exitCode, 32).storeMaybeInt(v.exitArg, 32).storeUint(v.vmSteps, 32);
    storeBits256(c, v.vmInitStateHash, T, 'vm_init_state_hash');
    storeBits256(c, v.vmFinalStateHash, T, 'vm_final_state_hash');
    b.storeRef(c);
  };
}
