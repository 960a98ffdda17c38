// block.tlb:696-706
// _ validators_elected_for:uint32 elections_start_before:uint32
//   elections_end_before:uint32 stake_held_for:uint32
//   = ConfigParam 15;
//
// _ max_validators:(## 16) max_main_validators:(## 16) min_validators:(## 16)
//   { max_validators >= max_main_validators }
//   { max_main_validators >= min_validators }
//   { min_validators >= 1 }
//   = ConfigParam 16;
//
// _ min_stake:Grams max_stake:Grams min_total_stake:Grams max_stake_factor:uint32 = ConfigParam 17;
import type { Builder, Slice } from '@ton/core';
import { check } from './codec-helpers.ts';

export type ConfigParam15 = {
  validatorsElectedFor: number;
  electionsStartBefore: number;
  electionsEndBefore: number;
  stakeHeldFor: number;
};

export function loadConfigParam15(slice: Slice): ConfigParam15 {
  return {
    validatorsElectedFor: slice.loadUint(32),
    electionsStartBefore: slice.loadUint(32),
    electionsEndBefore: slice.loadUint(32),
    stakeHeldFor: slice.loadUint(32),
  };
}

export function storeConfigParam15(value: ConfigParam15): (b: Builder) => void {
  return (b) => {
    b.storeUint(value.validatorsElectedFor, 32);
    b.storeUint(value.electionsStartBefore, 32);
    b.storeUint(value.electionsEndBefore, 32);
    b.storeUint(value.stakeHeldFor, 32);
  };
}

export type ConfigParam16 = { maxValidators: number; maxMainValidators: number; minValidators: number };

export function loadConfigParam16(slice: Slice): ConfigParam16 {
  const T = 'ConfigParam16';
  const maxValidators = slice.loadUint(16);
  const maxMainValidators = slice.loadUint(16);
  const minValidators = slice.loadUint(16);
  check(maxValidators >= maxMainValidators, T, 'max_validators >= max_main_validators', maxValidators);
  check(maxMainValidators >= minValidators, T, 'max_main_validators >= min_validators', maxMainValidators);
  check(minValidators >= 1, T, 'min_validators >= 1', minValidators);
  return { maxValidators, maxMainValidators, minValidators };
}

export function storeConfigParam16(value: ConfigParam16): (b: Builder) => void {
  return (b) => {
    b.storeUint(value.maxValidators, 16);
    b.storeUint(value.maxMainValidators, 16);
    b.storeUint(value.minValidators, 16);
  };
}

export type ConfigParam17 = { minStake: bigint; maxStake: bigint; minTotalStake: bigint; maxStakeFactor: number };

export function loadConfigParam17(slice: Slice): ConfigParam17 {
  return {
    minStake: slice.loadCoins(),
    maxStake: slice.loadCoins(),
    minTotalStake: slice.loadCoins(),
    maxStakeFactor: slice.loadUint(32),
  };
}

export function storeConfigParam17(value: ConfigParam17): (b: Builder) => void {
  return (b) => {
    b.storeCoins(value.minStake);
    b.storeCoins(value.maxStake);
    b.storeCoins(value.minTotalStake);
    b.storeUint(value.maxStakeFactor, 32);
  };
}
