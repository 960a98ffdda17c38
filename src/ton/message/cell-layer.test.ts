// The message decoders over the lazy cell layer keep what they gave before it: on every message of the vector
// blocks, a StateInit's cell (now the cell it was read from, or the inline bits and refs as a lazy cell) equals
// the one re-stored from its fields with @ton/core's Builder, an inline body equals @ton/core's asCell() copy, and
// snake strings read by whole bytes equal a one-bit-at-a-time reading.
import { beginCell, type Slice } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVectors } from '../../../test/helpers/vectors.ts';
import { listBlockTransactions, loadBlockCell } from '../block/index.ts';
import { readCellTable, rootsOf } from '../cell/index.ts';
import { readSnakeBytes } from './comment.ts';
import { storeStateInit } from './state-init.ts';
import { transactionFromCell } from './transaction.ts';

/** The snake reading as it was: bit by bit, following the first reference. */
function snakeBitByBit(s: Slice): Buffer | null {
  const bits: boolean[] = [];
  let cur: Slice | null = s.clone();
  try {
    while (cur) {
      const n = cur.remainingBits;
      for (let i = 0; i < n; i++) bits.push(cur.loadBit());
      cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
    }
  } catch {
    return null;
  }
  if (bits.length % 8 !== 0) return null;
  const out = Buffer.alloc(bits.length / 8);
  bits.forEach((b, i) => {
    if (b) out[i >> 3] = (out[i >> 3] as number) | (0x80 >> (i % 8));
  });
  return out;
}

describe.skipIf(!hasVectors)('messages over the cell layer, on every message of the vector blocks', () => {
  it('gives StateInit cells, inline bodies and snake strings as before', () => {
    let inits = 0;
    let inlineBodies = 0;
    let snakes = 0;
    for (const { data } of loadVectors<{ boc_base64: string }>('blocks')) {
      const root = rootsOf(readCellTable(Buffer.from(data.boc_base64, 'base64')))[0]!;
      for (const t of listBlockTransactions(loadBlockCell(root))) {
        const tx = transactionFromCell(t.cell);
        for (const m of [tx.inMsg, ...tx.outMsgs]) {
          if (!m) continue;
          if (m.init) {
            const rebuilt = beginCell().store(storeStateInit(m.init)).endCell();
            expect(m.initCell?.hash()).toEqual(rebuilt.hash());
            inits++;
          }
          if (!m.bodyInRef) {
            // What @ton/core's asCell() builds: the same bits and refs through a Builder.
            const b = beginCell().storeBits(m.body.bits);
            for (const r of m.body.refs) b.storeRef(r);
            const copy = b.endCell();
            expect(m.body.hash()).toEqual(copy.hash());
            expect(m.body.toBoc()).toEqual(copy.toBoc());
            inlineBodies++;
          }
          if (!m.body.isExotic) {
            const s = m.body.beginParse();
            if (s.remainingBits >= 32) s.loadUint(32);
            expect(readSnakeBytes(s)).toEqual(snakeBitByBit(s));
            snakes++;
          }
        }
      }
    }
    expect(inits).toBeGreaterThan(10);
    expect(inlineBodies).toBeGreaterThan(100);
    expect(snakes).toBeGreaterThan(1000);
  });
});
