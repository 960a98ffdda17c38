// block.tlb:642-646
// cfg_vote_cfg#36 min_tot_rounds:(## 8) max_tot_rounds:(## 8) { min_tot_rounds <= max_tot_rounds }
//   min_wins:uint8 max_losses:uint8 min_store_sec:(## 32) max_store_sec:(## 32)
//   { min_store_sec <= max_store_sec } bit_price:uint32 cell_price:uint32 = ConfigProposalSetup;
// cfg_vote_setup#91 normal_params:^ConfigProposalSetup critical_params:^ConfigProposalSetup = ConfigVotingSetup;
// _ ConfigVotingSetup = ConfigParam 11;
import { type Builder, beginCell, type Slice } from '@ton/core';
import { check, expectEnd, loadTag } from './codec-helpers.ts';

export type ConfigProposalSetup = {
  minTotRounds: number;
  maxTotRounds: number;
  minWins: number;
  maxLosses: number;
  minStoreSec: number;
  maxStoreSec: number;
  bitPrice: number;
  cellPrice: number;
};

export function loadConfigProposalSetup(slice: Slice): ConfigProposalSetup {
  const T = 'ConfigProposalSetup';
  loadTag(slice, 8, [0x36], T);
  const minTotRounds = slice.loadUint(8);
  const maxTotRounds = slice.loadUint(8);
  check(minTotRounds <= maxTotRounds, T, 'min_tot_rounds <= max_tot_rounds', `${minTotRounds} > ${maxTotRounds}`);
  const minWins = slice.loadUint(8);
  const maxLosses = slice.loadUint(8);
  const minStoreSec = slice.loadUint(32);
  const maxStoreSec = slice.loadUint(32);
  check(minStoreSec <= maxStoreSec, T, 'min_store_sec <= max_store_sec', `${minStoreSec} > ${maxStoreSec}`);
  const bitPrice = slice.loadUint(32);
  const cellPrice = slice.loadUint(32);
  return { minTotRounds, maxTotRounds, minWins, maxLosses, minStoreSec, maxStoreSec, bitPrice, cellPrice };
}

export function storeConfigProposalSetup(value: ConfigProposalSetup): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x36, 8);
    b.storeUint(value.minTotRounds, 8);
    b.storeUint(value.maxTotRounds, 8);
    b.storeUint(value.minWins, 8);
    b.storeUint(value.maxLosses, 8);
    b.storeUint(value.minStoreSec, 32);
    b.storeUint(value.maxStoreSec, 32);
    b.storeUint(value.bitPrice, 32);
    b.storeUint(value.cellPrice, 32);
  };
}

export type ConfigVotingSetup = { normalParams: ConfigProposalSetup; criticalParams: ConfigProposalSetup };

function loadSetupRef(slice: Slice): ConfigProposalSetup {
  const s = slice.loadRef().beginParse();
  const v = loadConfigProposalSetup(s);
  expectEnd(s, 'ConfigProposalSetup');
  return v;
}

export function loadConfigVotingSetup(slice: Slice): ConfigVotingSetup {
  loadTag(slice, 8, [0x91], 'ConfigVotingSetup');
  return { normalParams: loadSetupRef(slice), criticalParams: loadSetupRef(slice) };
}

export function storeConfigVotingSetup(value: ConfigVotingSetup): (b: Builder) => void {
  return (b) => {
    b.storeUint(0x91, 8);
    b.storeRef(beginCell().store(storeConfigProposalSetup(value.normalParams)));
    b.storeRef(beginCell().store(storeConfigProposalSetup(value.criticalParams)));
  };
}
