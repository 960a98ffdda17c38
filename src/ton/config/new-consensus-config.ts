// block.tlb:790-800
// simplex_config#21 flags:(## 7) use_quic:Bool
//   target_rate_ms:uint32 slots_per_leader_window:(## 32) { slots_per_leader_window >= 1 }
//   first_block_timeout_ms:uint32 max_leader_window_desync:uint32 = NewConsensusConfig;
// simplex_config_v2#22
//   flags:(## 5)
//   protocol_version:(## 2)
//   use_quic:Bool
//   slots_per_leader_window:(## 32) { slots_per_leader_window >= 1 }
//   noncritical_params:(HashmapE 8 uint32) = NewConsensusConfig;
// new_consensus_config_all#10 mc:(Maybe ^NewConsensusConfig) shard:(Maybe ^NewConsensusConfig) = NewConsensusConfigAll;
// _ NewConsensusConfigAll = ConfigParam 30;
import { type Builder, beginCell, Dictionary, type Slice } from '@ton/core';
import { check, dictToMap, expectEnd, loadTag, mapToDict, uint32Value } from './codec-helpers.ts';

export type NewConsensusConfig =
  | {
      kind: 'simplex_config';
      flags: number;
      useQuic: boolean;
      targetRateMs: number;
      slotsPerLeaderWindow: number;
      firstBlockTimeoutMs: number;
      maxLeaderWindowDesync: number;
    }
  | {
      kind: 'simplex_config_v2';
      flags: number;
      protocolVersion: number;
      useQuic: boolean;
      slotsPerLeaderWindow: number;
      /** uint8 parameter id -> value. */
      noncriticalParams: Map<number, number>;
    };

export function loadNewConsensusConfig(slice: Slice): NewConsensusConfig {
  const T = 'NewConsensusConfig';
  const tag = loadTag(slice, 8, [0x21, 0x22], T);
  if (tag === 0x21) {
    const flags = slice.loadUint(7);
    const useQuic = slice.loadBit();
    const targetRateMs = slice.loadUint(32);
    const slotsPerLeaderWindow = slice.loadUint(32);
    check(slotsPerLeaderWindow >= 1, T, 'slots_per_leader_window >= 1', slotsPerLeaderWindow);
    return {
      kind: 'simplex_config',
      flags,
      useQuic,
      targetRateMs,
      slotsPerLeaderWindow,
      firstBlockTimeoutMs: slice.loadUint(32),
      maxLeaderWindowDesync: slice.loadUint(32),
    };
  }
  const flags = slice.loadUint(5);
  const protocolVersion = slice.loadUint(2);
  const useQuic = slice.loadBit();
  const slotsPerLeaderWindow = slice.loadUint(32);
  check(slotsPerLeaderWindow >= 1, T, 'slots_per_leader_window >= 1', slotsPerLeaderWindow);
  const noncriticalParams = dictToMap(Dictionary.load(Dictionary.Keys.Uint(8), uint32Value, slice));
  return { kind: 'simplex_config_v2', flags, protocolVersion, useQuic, slotsPerLeaderWindow, noncriticalParams };
}

export function storeNewConsensusConfig(value: NewConsensusConfig): (b: Builder) => void {
  return (b) => {
    if (value.kind === 'simplex_config') {
      b.storeUint(0x21, 8);
      b.storeUint(value.flags, 7);
      b.storeBit(value.useQuic);
      b.storeUint(value.targetRateMs, 32);
      b.storeUint(value.slotsPerLeaderWindow, 32);
      b.storeUint(value.firstBlockTimeoutMs, 32);
      b.storeUint(value.maxLeaderWindowDesync, 32);
    } else {
      b.storeUint(0x22, 8);
      b.storeUint(value.flags, 5);
      b.storeUint(value.protocolVersion, 2);
      b.storeBit(value.useQuic);
      b.storeUint(value.slotsPerLeaderWindow, 32);
      b.storeDict(mapToDict(value.noncriticalParams, Dictionary.Keys.Uint(8), uint32Value));
    }
  };
}

export type NewConsensusConfigAll = { mc: NewConsensusConfig | null; shard: NewConsensusConfig | null };

function loadMaybeConfigRef(slice: Slice): NewConsensusConfig | null {
  const ref = slice.loadMaybeRef();
  if (ref === null) return null;
  const s = ref.beginParse();
  const v = loadNewConsensusConfig(s);
  expectEnd(s, 'NewConsensusConfig');
  return v;
}

function storeMaybeConfigRef(b: Builder, value: NewConsensusConfig | null): void {
  b.storeMaybeRef(value === null ? null : beginCell().store(storeNewConsensusConfig(value)).endCell());
}

export function loadNewConsensusConfigAll(slice: Slice): NewConsensusConfigAll {
  loadTag(slice, 8, [0x10], 'NewConsensusConfigAll');
  return { mc: loadMaybeConfigRef(slice), shard: loadMaybeConfigRef(slice) };
}

export function storeNewConsensusConfigAll(value: NewConsensusConfigAll): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x10, 8);
    storeMaybeConfigRef(b, value.mc);
    storeMaybeConfigRef(b, value.shard);
  };
}
