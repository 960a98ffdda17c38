import { beginCell, Cell, CellType, loadCurrencyCollection } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors } from '../../../test/support/vectors.ts';
import { addPrunableCurrencies, loadPrunableCurrencies, storePrunableCurrencies } from './currencies.ts';
import { isPruned } from './pruned.ts';
import { loadShardState } from './shard-state.ts';
import { cellOf, realStates } from './vectors.test-util.ts';

function prunedBranch(): Cell {
  // pruned_branch: type 1, level mask 1, one hash and one depth.
  const bits = beginCell()
    .storeUint(1, 8)
    .storeUint(1, 8)
    .storeBuffer(Buffer.alloc(32, 7))
    .storeUint(3, 16)
    .endCell().bits;
  return new Cell({ exotic: true, bits });
}

describe('CurrencyCollection with a pruned extra-currency dictionary', () => {
  it('keeps the pruned dictionary (where @ton/core reads it as empty) and writes it back', () => {
    const cell = beginCell().storeCoins(12n).storeBit(true).storeRef(prunedBranch()).endCell();
    expect(loadCurrencyCollection(cell.beginParse()).other).toBeUndefined();
    const v = loadPrunableCurrencies(cell.beginParse());
    expect(v.coins).toBe(12n);
    expect(v.otherPruned?.type).toBe(CellType.PrunedBranch);
    expect(cellOf(storePrunableCurrencies(v)).hash()).toEqual(cell.hash());
  });

  it('refuses to add when either side’s extra currencies are unknown', () => {
    const v = loadPrunableCurrencies(
      beginCell().storeCoins(1n).storeBit(true).storeRef(prunedBranch()).endCell().beginParse(),
    );
    expect(() => addPrunableCurrencies(v, { coins: 2n })).toThrow(/CurrencyCollection: cannot add/);
    expect(addPrunableCurrencies({ coins: 1n }, { coins: 2n }).coins).toBe(3n);
  });
});

describe.skipIf(!hasVectors)('CurrencyCollection in real proofs', () => {
  it('state totals whose extra currencies a proof pruned re-encode exactly', () => {
    let found = 0;
    for (const st of realStates()) {
      const s = loadShardState(st.cell.beginParse());
      if (s.kind !== 'shard_state' || isPruned(s.r1)) continue;
      for (const cc of [s.r1.totalBalance, s.r1.totalValidatorFees]) {
        if (!cc.otherPruned) continue;
        expect(cellOf(storePrunableCurrencies(cc)).refs[0]!.hash()).toEqual(cc.otherPruned.hash());
        found++;
      }
    }
    expect(found).toBeGreaterThan(0);
  });
});
