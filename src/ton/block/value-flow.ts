// block.tlb:486-509
//   value_flow#b8e48dfb ^[ from_prev_blk:CurrencyCollection
//     to_next_blk:CurrencyCollection
//     imported:CurrencyCollection
//     exported:CurrencyCollection ]
//     fees_collected:CurrencyCollection
//     ^[
//     fees_imported:CurrencyCollection
//     recovered:CurrencyCollection
//     created:CurrencyCollection
//     minted:CurrencyCollection
//     ] = ValueFlow;
//
//   value_flow_v2#3ebf98b7 ^[ from_prev_blk:CurrencyCollection
//     to_next_blk:CurrencyCollection
//     imported:CurrencyCollection
//     exported:CurrencyCollection ]
//     fees_collected:CurrencyCollection
//     burned:CurrencyCollection
//     ^[
//     fees_imported:CurrencyCollection
//     recovered:CurrencyCollection
//     created:CurrencyCollection
//     minted:CurrencyCollection
//     ] = ValueFlow;
import { type Builder, beginCell, type CurrencyCollection, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { decoding, loadWhole } from './codec-util.ts';
import { loadCurrencies, storeCurrencies } from './currency.ts';

type ValueFlowCommon = {
  fromPrevBlk: CurrencyCollection;
  toNextBlk: CurrencyCollection;
  imported: CurrencyCollection;
  exported: CurrencyCollection;
  feesCollected: CurrencyCollection;
  feesImported: CurrencyCollection;
  recovered: CurrencyCollection;
  created: CurrencyCollection;
  minted: CurrencyCollection;
};

export type ValueFlow =
  | ({ kind: 'value_flow' } & ValueFlowCommon)
  | ({ kind: 'value_flow_v2'; burned: CurrencyCollection } & ValueFlowCommon);

const TAG_V1 = 0xb8e48dfb;
const TAG_V2 = 0x3ebf98b7;

export function loadValueFlow(s: Slice): ValueFlow {
  return decoding('ValueFlow', () => {
    const tag = s.loadUint(32);
    if (tag !== TAG_V1 && tag !== TAG_V2) {
      throw new CodecError(`ValueFlow: expected tag 0xb8e48dfb or 0x3ebf98b7, got 0x${tag.toString(16)}`);
    }
    const first = loadWhole('ValueFlow', s.loadRef(), (c) => ({
      fromPrevBlk: loadCurrencies(c),
      toNextBlk: loadCurrencies(c),
      imported: loadCurrencies(c),
      exported: loadCurrencies(c),
    }));
    const feesCollected = loadCurrencies(s);
    const burned = tag === TAG_V2 ? loadCurrencies(s) : null;
    const second = loadWhole('ValueFlow', s.loadRef(), (c) => ({
      feesImported: loadCurrencies(c),
      recovered: loadCurrencies(c),
      created: loadCurrencies(c),
      minted: loadCurrencies(c),
    }));
    const common = { ...first, feesCollected, ...second };
    return burned ? { kind: 'value_flow_v2', burned, ...common } : { kind: 'value_flow', ...common };
  });
}

export function storeValueFlow(v: ValueFlow): (b: Builder) => void {
  return (b) => {
    b.storeUint(v.kind === 'value_flow_v2' ? TAG_V2 : TAG_V1, 32);
    b.storeRef(
      beginCell()
        .store(storeCurrencies(v.fromPrevBlk))
        .store(storeCurrencies(v.toNextBlk))
        .store(storeCurrencies(v.imported))
        .store(storeCurrencies(v.exported)),
    );
    b.store(storeCurrencies(v.feesCollected));
    if (v.kind === 'value_flow_v2') b.store(storeCurrencies(v.burned));
    b.storeRef(
      beginCell()
        .store(storeCurrencies(v.feesImported))
        .store(storeCurrencies(v.recovered))
        .store(storeCurrencies(v.created))
        .store(storeCurrencies(v.minted)),
    );
  };
}
