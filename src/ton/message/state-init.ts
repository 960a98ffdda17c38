// block.tlb:142-146
//   tick_tock$_ tick:Bool tock:Bool = TickTock;
//   _ fixed_prefix_length:(Maybe (## 5)) special:(Maybe TickTock)
//     code:(Maybe ^Cell) data:(Maybe ^Cell)
//     library:(Maybe ^Cell) = StateInit;
//
// The StateInit carried by a message. Code, data and library stay raw cells (the library root is not
// decoded as a dictionary) so that re-storing them is bit-exact whatever they contain.
import type { Builder, Cell, Slice } from '@ton/core';
import { decoding } from './util.ts';

export interface TickTock {
  tick: boolean;
  tock: boolean;
}

export interface StateInit {
  /** 0..31; was `split_depth` in older schemas (same bits). */
  fixedPrefixLength: number | null;
  special: TickTock | null;
  code: Cell | null;
  data: Cell | null;
  library: Cell | null;
}

export function loadStateInit(s: Slice): StateInit {
  return decoding('StateInit', () => {
    const fixedPrefixLength = s.loadBit() ? s.loadUint(5) : null;
    const special = s.loadBit() ? { tick: s.loadBit(), tock: s.loadBit() } : null;
    const code = s.loadMaybeRef();
    const data = s.loadMaybeRef();
    const library = s.loadMaybeRef();
    return { fixedPrefixLength, special, code, data, library };
  });
}

export function storeStateInit(v: StateInit): (b: Builder) => void {
  return (b) => {
    b.storeMaybeUint(v.fixedPrefixLength, 5);
    if (v.special) b.storeBit(true).storeBit(v.special.tick).storeBit(v.special.tock);
    else b.storeBit(false);
    b.storeMaybeRef(v.code).storeMaybeRef(v.data).storeMaybeRef(v.library);
  };
}
