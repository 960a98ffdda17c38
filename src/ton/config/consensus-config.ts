// block.tlb:762-788
// consensus_config#d6 round_candidates:# { round_candidates >= 1 }
//   next_candidate_delay_ms:uint32 consensus_timeout_ms:uint32
//   fast_attempts:uint32 attempt_duration:uint32 catchain_max_deps:uint32
//   max_block_bytes:uint32 max_collated_bytes:uint32 = ConsensusConfig;
//
// consensus_config_new#d7 flags:(## 7) { flags = 0 } new_catchain_ids:Bool
//   round_candidates:(## 8) { round_candidates >= 1 }
//   next_candidate_delay_ms:uint32 consensus_timeout_ms:uint32
//   fast_attempts:uint32 attempt_duration:uint32 catchain_max_deps:uint32
//   max_block_bytes:uint32 max_collated_bytes:uint32 = ConsensusConfig;
//
// consensus_config_v3#d8 flags:(## 7) { flags = 0 } new_catchain_ids:Bool
//   round_candidates:(## 8) { round_candidates >= 1 }
//   next_candidate_delay_ms:uint32 consensus_timeout_ms:uint32
//   fast_attempts:uint32 attempt_duration:uint32 catchain_max_deps:uint32
//   max_block_bytes:uint32 max_collated_bytes:uint32
//   proto_version:uint16 = ConsensusConfig;
//
// consensus_config_v4#d9 flags:(## 6) { flags = 0 } use_quic:Bool new_catchain_ids:Bool
//   round_candidates:(## 8) { round_candidates >= 1 }
//   next_candidate_delay_ms:uint32 consensus_timeout_ms:uint32
//   fast_attempts:uint32 attempt_duration:uint32 catchain_max_deps:uint32
//   max_block_bytes:uint32 max_collated_bytes:uint32
//   proto_version:uint16 catchain_max_blocks_coeff:uint32 = ConsensusConfig;
//
// _ ConsensusConfig = ConfigParam 29;
import type { Builder, Slice } from '@ton/core';
import { check, loadTag } from './codec-helpers.ts';

/** The eight fields every constructor shares, from round_candidates to max_collated_bytes. */
type ConsensusTimings = {
  roundCandidates: number;
  nextCandidateDelayMs: number;
  consensusTimeoutMs: number;
  fastAttempts: number;
  attemptDuration: number;
  catchainMaxDeps: number;
  maxBlockBytes: number;
  maxCollatedBytes: number;
};

export type ConsensusConfig =
  | ({ kind: 'consensus_config' } & ConsensusTimings)
  | ({ kind: 'consensus_config_new'; flags: number; newCatchainIds: boolean } & ConsensusTimings)
  | ({ kind: 'consensus_config_v3'; flags: number; newCatchainIds: boolean } & ConsensusTimings & {
        protoVersion: number;
      })
  | ({ kind: 'consensus_config_v4'; flags: number; useQuic: boolean; newCatchainIds: boolean } & ConsensusTimings & {
        protoVersion: number;
        catchainMaxBlocksCoeff: number;
      });

const T = 'ConsensusConfig';

/** round_candidates is `#` (32 bits) in the first constructor and `## 8` in the later ones. */
function loadTimings(slice: Slice, roundCandidatesBits: number): ConsensusTimings {
  const roundCandidates = slice.loadUint(roundCandidatesBits);
  check(roundCandidates >= 1, T, 'round_candidates >= 1', roundCandidates);
  return {
    roundCandidates,
    nextCandidateDelayMs: slice.loadUint(32),
    consensusTimeoutMs: slice.loadUint(32),
    fastAttempts: slice.loadUint(32),
    attemptDuration: slice.loadUint(32),
    catchainMaxDeps: slice.loadUint(32),
    maxBlockBytes: slice.loadUint(32),
    maxCollatedBytes: slice.loadUint(32),
  };
}

function storeTimings(b: Builder, v: ConsensusTimings, roundCandidatesBits: number): void {
  b.storeUint(v.roundCandidates, roundCandidatesBits);
  b.storeUint(v.nextCandidateDelayMs, 32);
  b.storeUint(v.consensusTimeoutMs, 32);
  b.storeUint(v.fastAttempts, 32);
  b.storeUint(v.attemptDuration, 32);
  b.storeUint(v.catchainMaxDeps, 32);
  b.storeUint(v.maxBlockBytes, 32);
  b.storeUint(v.maxCollatedBytes, 32);
}

export function loadConsensusConfig(slice: Slice): ConsensusConfig {
  const tag = loadTag(slice, 8, [0xd6, 0xd7, 0xd8, 0xd9], T);
  if (tag === 0xd6) return { kind: 'consensus_config', ...loadTimings(slice, 32) };
  if (tag === 0xd9) {
    const flags = slice.loadUint(6);
    check(flags === 0, T, 'flags = 0', flags);
    const useQuic = slice.loadBit();
    const newCatchainIds = slice.loadBit();
    const timings = loadTimings(slice, 8);
    const protoVersion = slice.loadUint(16);
    const catchainMaxBlocksCoeff = slice.loadUint(32);
    return {
      kind: 'consensus_config_v4',
      flags,
      useQuic,
      newCatchainIds,
      ...timings,
      protoVersion,
      catchainMaxBlocksCoeff,
    };
  }
  const flags = slice.loadUint(7);
  check(flags === 0, T, 'flags = 0', flags);
  const newCatchainIds = slice.loadBit();
  const timings = loadTimings(slice, 8);
  if (tag === 0xd7) return { kind: 'consensus_config_new', flags, newCatchainIds, ...timings };
  return { kind: 'consensus_config_v3', flags, newCatchainIds, ...timings, protoVersion: slice.loadUint(16) };
}

export function storeConsensusConfig(value: ConsensusConfig): (b: Builder) => void {
  return (b) => {
    switch (value.kind) {
      case 'consensus_config':
        b.storeUint(0xd6, 8);
        storeTimings(b, value, 32);
        return;
      case 'consensus_config_new':
        b.storeUint(0xd7, 8);
        b.storeUint(value.flags, 7);
        b.storeBit(value.newCatchainIds);
        storeTimings(b, value, 8);
        return;
      case 'consensus_config_v3':
        b.storeUint(0xd8, 8);
        b.storeUint(value.flags, 7);
        b.storeBit(value.newCatchainIds);
        storeTimings(b, value, 8);
        b.storeUint(value.protoVersion, 16);
        return;
      case 'consensus_config_v4':
        b.storeUint(0xd9, 8);
        b.storeUint(value.flags, 6);
        b.storeBit(value.useQuic);
        b.storeBit(value.newCatchainIds);
        storeTimings(b, value, 8);
        b.storeUint(value.protoVersion, 16);
        b.storeUint(value.catchainMaxBlocksCoeff, 32);
        return;
    }
  };
}
