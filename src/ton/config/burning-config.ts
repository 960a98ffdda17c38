// block.tlb:629-632
// burning_config#01
//   blackhole_addr:(Maybe bits256)
//   fee_burn_num:# fee_burn_denom:# { fee_burn_num <= fee_burn_denom } { fee_burn_denom >= 1 } = BurningConfig;
// _ BurningConfig = ConfigParam 5;
import type { Builder, Slice } from '@ton/core';
import { check, loadTag, storeBits256 } from './codec-helpers.ts';

export type BurningConfig = {
  /** Masterchain account id whose incoming value is burnt; null when absent. */
  blackholeAddr: Buffer | null;
  feeBurnNum: number;
  feeBurnDenom: number;
};

export function loadBurningConfig(slice: Slice): BurningConfig {
  loadTag(slice, 8, [0x01], 'BurningConfig');
  const blackholeAddr = slice.loadBit() ? slice.loadBuffer(32) : null;
  const feeBurnNum = slice.loadUint(32);
  const feeBurnDenom = slice.loadUint(32);
  check(feeBurnNum <= feeBurnDenom, 'BurningConfig', 'fee_burn_num <= fee_burn_denom', `${feeBurnNum}/${feeBurnDenom}`);
  check(feeBurnDenom >= 1, 'BurningConfig', 'fee_burn_denom >= 1', feeBurnDenom);
  return { blackholeAddr, feeBurnNum, feeBurnDenom };
}

export function storeBurningConfig(value: BurningConfig): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x01, 8);
    if (value.blackholeAddr === null) {
      b.storeBit(false);
    } else {
      b.storeBit(true);
      storeBits256(b, value.blackholeAddr, 'BurningConfig', 'blackhole_addr');
    }
    b.storeUint(value.feeBurnNum, 32);
    b.storeUint(value.feeBurnDenom, 32);
  };
}
