// block.tlb:751-760, 787
// catchain_config#c1 mc_catchain_lifetime:(## 32) { mc_catchain_lifetime >= 1 }
//   shard_catchain_lifetime:(## 32) { shard_catchain_lifetime >= 1 }
//   shard_validators_lifetime:(## 32) { shard_validators_lifetime >= 1 }
//   shard_validators_num:(## 32) { shard_validators_num >= 1 } = CatchainConfig;
//
// catchain_config_new#c2 flags:(## 7) { flags = 0 } shuffle_mc_validators:Bool
//   mc_catchain_lifetime:(## 32) { mc_catchain_lifetime >= 1 }
//   shard_catchain_lifetime:(## 32) { shard_catchain_lifetime >= 1 }
//   shard_validators_lifetime:(## 32) { shard_validators_lifetime >= 1 }
//   shard_validators_num:(## 32) { shard_validators_num >= 1 } = CatchainConfig;
//
// _ CatchainConfig = ConfigParam 28;
import type { Builder, Slice } from '@ton/core';
import { check, loadTag } from './codec-helpers.ts';

type CatchainLifetimes = {
  mcCatchainLifetime: number;
  shardCatchainLifetime: number;
  shardValidatorsLifetime: number;
  shardValidatorsNum: number;
};

export type CatchainConfig =
  | ({ kind: 'catchain_config' } & CatchainLifetimes)
  | ({ kind: 'catchain_config_new'; flags: number; shuffleMcValidators: boolean } & CatchainLifetimes);

function loadLifetimes(slice: Slice): CatchainLifetimes {
  const T = 'CatchainConfig';
  const v = {
    mcCatchainLifetime: slice.loadUint(32),
    shardCatchainLifetime: slice.loadUint(32),
    shardValidatorsLifetime: slice.loadUint(32),
    shardValidatorsNum: slice.loadUint(32),
  };
  check(v.mcCatchainLifetime >= 1, T, 'mc_catchain_lifetime >= 1', v.mcCatchainLifetime);
  check(v.shardCatchainLifetime >= 1, T, 'shard_catchain_lifetime >= 1', v.shardCatchainLifetime);
  check(v.shardValidatorsLifetime >= 1, T, 'shard_validators_lifetime >= 1', v.shardValidatorsLifetime);
  check(v.shardValidatorsNum >= 1, T, 'shard_validators_num >= 1', v.shardValidatorsNum);
  return v;
}

export function loadCatchainConfig(slice: Slice): CatchainConfig {
  const tag = loadTag(slice, 8, [0xc1, 0xc2], 'CatchainConfig');
  if (tag === 0xc1) return { kind: 'catchain_config', ...loadLifetimes(slice) };
  const flags = slice.loadUint(7);
  check(flags === 0, 'CatchainConfig', 'flags = 0', flags);
  const shuffleMcValidators = slice.loadBit();
  return { kind: 'catchain_config_new', flags, shuffleMcValidators, ...loadLifetimes(slice) };
}

export function storeCatchainConfig(value: CatchainConfig): (b: Builder) => void {
  return (b) => {
    if (value.kind === 'catchain_config') {
      b.storeUint(0xc1, 8);
    } else {
      b.storeUint(0xc2, 8);
      b.storeUint(value.flags, 7);
      b.storeBit(value.shuffleMcValidators);
    }
    b.storeUint(value.mcCatchainLifetime, 32);
    b.storeUint(value.shardCatchainLifetime, 32);
    b.storeUint(value.shardValidatorsLifetime, 32);
    b.storeUint(value.shardValidatorsNum, 32);
  };
}
