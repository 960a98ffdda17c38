// block.tlb:282-285
//   acc_state_uninit$00 = AccountStatus;
//   acc_state_frozen$01 = AccountStatus;
//   acc_state_active$10 = AccountStatus;
//   acc_state_nonexist$11 = AccountStatus;
//
// Field-less constructors: the union is of the constructor names themselves.
import type { Builder, Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';

export type AccountStatus = 'acc_state_uninit' | 'acc_state_frozen' | 'acc_state_active' | 'acc_state_nonexist';

const BY_TAG: readonly AccountStatus[] = [
  'acc_state_uninit',
  'acc_state_frozen',
  'acc_state_active',
  'acc_state_nonexist',
];

export function loadAccountStatus(s: Slice): AccountStatus {
  if (s.remainingBits < 2) throw new CodecError(`AccountStatus: expected a 2-bit tag, got ${s.remainingBits} bits`);
  return BY_TAG[s.loadUint(2)]!;
}

export function storeAccountStatus(v: AccountStatus): (b: Builder) => void {
  const tag = BY_TAG.indexOf(v);
  if (tag < 0) throw new CodecError(`AccountStatus: unknown constructor ${String(v)}`);
  return (b) => {
    b.storeUint(tag, 2);
  };
}
