// block.tlb:29-31
//   hml_short$0 {m:#} {n:#} len:(Unary ~n) {n <= m} s:(n * Bit) = HmLabel ~n m;
//   hml_long$10 {m:#} n:(#<= m) s:(n * Bit) = HmLabel ~n m;
//   hml_same$11 {m:#} v:Bit n:(#<= m) = HmLabel ~n m;
import type { Builder, Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';

/** Bits needed for `#<= m`: ceil(log2(m + 1)). */
export function lenBits(m: number): number {
  return m === 0 ? 0 : 32 - Math.clz32(m);
}

/** Reads a label of at most `m` bits; returns its length and its bits as an unsigned integer. */
export function loadHmLabel(s: Slice, m: number): { len: number; bits: bigint } {
  if (!s.loadBit()) {
    let len = 0;
    while (s.loadBit()) len++;
    if (len > m) throw new CodecError(`HmLabel: hml_short length ${len} exceeds ${m}`);
    return { len, bits: len === 0 ? 0n : s.loadUintBig(len) };
  }
  if (!s.loadBit()) {
    const len = s.loadUint(lenBits(m));
    if (len > m) throw new CodecError(`HmLabel: hml_long length ${len} exceeds ${m}`);
    return { len, bits: len === 0 ? 0n : s.loadUintBig(len) };
  }
  const v = s.loadBit();
  const len = s.loadUint(lenBits(m));
  if (len > m) throw new CodecError(`HmLabel: hml_same length ${len} exceeds ${m}`);
  return { len, bits: v && len > 0 ? (1n << BigInt(len)) - 1n : 0n };
}

/**
 * Writes a label the way the node does: the shortest of the three forms, hml_short on ties, and
 * hml_same only for labels longer than one bit (vm/dict.cpp's rule; @ton/core's Dictionary agrees).
 */
export function storeHmLabel(b: Builder, len: number, bits: bigint, m: number): void {
  const k = lenBits(m);
  if (len > 1) {
    const ones = (1n << BigInt(len)) - 1n;
    if ((bits === 0n || bits === ones) && k < 2 * len - 1) {
      b.storeUint(3, 2)
        .storeBit(bits !== 0n)
        .storeUint(len, k);
      return;
    }
  }
  if (k < len) {
    b.storeUint(2, 2).storeUint(len, k);
  } else {
    b.storeBit(false);
    for (let i = 0; i < len; i++) b.storeBit(true);
    b.storeBit(false);
  }
  if (len > 0) b.storeUint(bits, len);
}
