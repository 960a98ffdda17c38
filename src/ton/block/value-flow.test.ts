import { beginCell, type CurrencyCollection, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { CodecError } from '../../common/errors.ts';
import { loadValueFlow, storeValueFlow, type ValueFlow } from './value-flow.ts';

const cc = (coins: bigint, extra?: [number, bigint]): CurrencyCollection => {
  if (!extra) return { coins };
  const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
  other.set(extra[0], extra[1]);
  return { coins, other };
};
const ccHand = (c: CurrencyCollection) => (b: ReturnType<typeof beginCell>) => {
  b.storeCoins(c.coins);
  if (c.other) b.storeDict(c.other);
  else b.storeBit(false);
};

describe('ValueFlow', () => {
  // No block in the vectors carries value_flow_v2 (masterchain blocks that burn fees do); its layout is
  // checked against a cell written by hand from block.tlb:498-509.
  it('value_flow_v2: burned sits after fees_collected, in the root cell', () => {
    const v: ValueFlow = {
      kind: 'value_flow_v2',
      fromPrevBlk: cc(1n, [239, 5n]),
      toNextBlk: cc(2n),
      imported: cc(3n),
      exported: cc(4n),
      feesCollected: cc(5n),
      burned: cc(6n),
      feesImported: cc(7n),
      recovered: cc(8n),
      created: cc(9n),
      minted: cc(10n),
    };
    const hand = beginCell()
      .storeUint(0x3ebf98b7, 32)
      .storeRef(
        beginCell()
          .store(ccHand(v.fromPrevBlk))
          .store(ccHand(v.toNextBlk))
          .store(ccHand(v.imported))
          .store(ccHand(v.exported)),
      )
      .store(ccHand(v.feesCollected))
      .store(ccHand(v.burned))
      .storeRef(
        beginCell()
          .store(ccHand(v.feesImported))
          .store(ccHand(v.recovered))
          .store(ccHand(v.created))
          .store(ccHand(v.minted)),
      )
      .endCell();
    expect(beginCell().store(storeValueFlow(v)).endCell().equals(hand)).toBe(true);
    const back = loadValueFlow(hand.beginParse());
    expect(back.kind).toBe('value_flow_v2');
    if (back.kind !== 'value_flow_v2') return;
    expect(back.burned.coins).toBe(6n);
    expect(back.feesImported.coins).toBe(7n);
    expect(back.fromPrevBlk.other?.get(239)).toBe(5n);
  });

  it('value_flow (v1) has no burned field', () => {
    const v: ValueFlow = {
      kind: 'value_flow',
      fromPrevBlk: cc(1n),
      toNextBlk: cc(2n),
      imported: cc(3n),
      exported: cc(4n),
      feesCollected: cc(5n),
      feesImported: cc(7n),
      recovered: cc(8n),
      created: cc(9n),
      minted: cc(10n),
    };
    const cell = beginCell().store(storeValueFlow(v)).endCell();
    expect(cell.beginParse().loadUint(32)).toBe(0xb8e48dfb);
    expect(cell.bits.length).toBe(32 + 4 + 8 + 1); // tag + fees_collected (len nibble, 1 byte, empty dict)
    expect(loadValueFlow(cell.beginParse())).toMatchObject({ kind: 'value_flow', feesCollected: { coins: 5n } });
  });

  it('rejects an unknown tag and a truncated sub-cell', () => {
    const bad = beginCell().storeUint(0xb8e48dfa, 32).endCell();
    expect(() => loadValueFlow(bad.beginParse())).toThrow(CodecError);
    expect(() => loadValueFlow(bad.beginParse())).toThrow(
      'ValueFlow: expected tag 0xb8e48dfb or 0x3ebf98b7, got 0xb8e48dfa',
    );
    const short = beginCell()
      .storeUint(0xb8e48dfb, 32)
      .storeRef(beginCell().storeCoins(1n).storeBit(false))
      .storeCoins(0n)
      .storeBit(false)
      .storeRef(beginCell())
      .endCell();
    expect(() => loadValueFlow(short.beginParse())).toThrow(/^CurrencyCollection: /);
  });
});
