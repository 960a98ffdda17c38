// block.tlb:814-821
// misbehaviour_punishment_config_v1#01
//   default_flat_fine:Grams default_proportional_fine:uint32
//   severity_flat_mult:uint16 severity_proportional_mult:uint16
//   unpunishable_interval:uint16
//   long_interval:uint16 long_flat_mult:uint16 long_proportional_mult:uint16
//   medium_interval:uint16 medium_flat_mult:uint16 medium_proportional_mult:uint16
//    = MisbehaviourPunishmentConfig;
// _ MisbehaviourPunishmentConfig = ConfigParam 40;
import type { Builder, Slice } from '@ton/core';
import { loadTag } from './codec-helpers.ts';

export type MisbehaviourPunishmentConfig = {
  defaultFlatFine: bigint;
  defaultProportionalFine: number;
  severityFlatMult: number;
  severityProportionalMult: number;
  unpunishableInterval: number;
  longInterval: number;
  longFlatMult: number;
  longProportionalMult: number;
  mediumInterval: number;
  mediumFlatMult: number;
  mediumProportionalMult: number;
};

export function loadMisbehaviourPunishmentConfig(slice: Slice): MisbehaviourPunishmentConfig {
  loadTag(slice, 8, [0x01], 'MisbehaviourPunishmentConfig');
  return {
    defaultFlatFine: slice.loadCoins(),
    defaultProportionalFine: slice.loadUint(32),
    severityFlatMult: slice.loadUint(16),
    severityProportionalMult: slice.loadUint(16),
    unpunishableInterval: slice.loadUint(16),
    longInterval: slice.loadUint(16),
    longFlatMult: slice.loadUint(16),
    longProportionalMult: slice.loadUint(16),
    mediumInterval: slice.loadUint(16),
    mediumFlatMult: slice.loadUint(16),
    mediumProportionalMult: slice.loadUint(16),
  };
}

export function storeMisbehaviourPunishmentConfig(value: MisbehaviourPunishmentConfig): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x01, 8);
    b.storeCoins(value.defaultFlatFine);
    b.storeUint(value.defaultProportionalFine, 32);
    b.storeUint(value.severityFlatMult, 16);
    b.storeUint(value.severityProportionalMult, 16);
    b.storeUint(value.unpunishableInterval, 16);
    b.storeUint(value.longInterval, 16);
    b.storeUint(value.longFlatMult, 16);
    b.storeUint(value.longProportionalMult, 16);
    b.storeUint(value.mediumInterval, 16);
    b.storeUint(value.mediumFlatMult, 16);
    b.storeUint(value.mediumProportionalMult, 16);
  };
}
