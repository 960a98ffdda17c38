import { beginCell, Cell, CellType, loadCurrencyCollection } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors } from '../../../test/helpers/vectors.ts';
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
  it('state totals (pruned extra currencies or not) re-encode to their bits and refs in the state cell', () => {
    let found = 0;
    let checked = 0;
    for (const st of realStates()) {
      const s = loadShardState(st.cell.beginParse());
      if (s.kind !== 'shard_state' || isPruned(s.r1)) continue;
      // The original ^[ overload_history:uint64 underload_history:uint64 total_balance:CurrencyCollection
      // total_validator_fees:CurrencyCollection … ] cell (the state's third ref), cut field by field:
      // currencies$_ grams:(VarUInteger 16: len:(#< 16) value:(len * 8 bits)) other:(HashmapE 32 …: $0 | $1 ^root).
      const r1 = st.cell.refs[2]!.beginParse();
      r1.skip(128);
      for (const cc of [s.r1.totalBalance, s.r1.totalValidatorFees]) {
        const start = r1.clone();
        r1.skip(r1.loadUint(4) * 8);
        const refs = r1.loadBit() ? [r1.loadRef()] : [];
        const bits = start.loadBits(start.remainingBits - r1.remainingBits);
        const again = cellOf(storePrunableCurrencies(cc));
        expect(again.bits.equals(bits), st.label).toBe(true);
        expect(again.refs.map((c) => c.hash().toString('hex'))).toEqual(refs.map((c) => c.hash().toString('hex')));
        expect(again.refs.map((c) => c.type)).toEqual(refs.map((c) => c.type));
        checked++;
        if (!cc.otherPruned) continue;
        expect(refs[0]!.level()).toBeGreaterThan(0); // a proof pruned (part of) the dictionary
        found++;
      }
    }
    expect(found).toBeGreaterThan(0);
    expect(checked).toBeGreaterThan(found);
  });
});
