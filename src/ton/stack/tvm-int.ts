// block.tlb:904-906
// vm_stk_tinyint#01 value:int64 = VmStackValue;
// vm_stk_int#0201_ value:int257 = VmStackValue;
// vm_stk_nan#02ff = VmStackValue;
//
// TVM integers in the JSON stack forms: 257-bit signed, with NaN as a separate stack value.
// Text input follows td::string_to_int256 (crypto/common/refint.cpp), which toncenter uses for every stack number:
// "-0x" + hex, "0x" + hex, or decimal with an optional leading "-". JSON numbers are accepted when they are exact
// (safe) integers, as toncenter reads them as int64.

import type { TupleItemInt, TupleItemNaN } from '@ton/core';
import { InputError } from '../../common/errors.ts';
import { describeValue } from './boc-base64.ts';

export const TVM_INT_MIN = -(1n << 256n);
export const TVM_INT_MAX = (1n << 256n) - 1n;

const DEC_RE = /^-?[0-9]+$/;
const HEX_RE = /^-?0x[0-9a-fA-F]+$/;

/**
 * Longest number text read. A 257-bit integer needs at most 81 characters ("-0x" + 64 hex digits needs 67, "-" + 78
 * decimal digits 79); the rest is room for leading zeros (fixed-width encoders pad). Longer text is refused before it
 * is parsed: BigInt's decimal conversions are quadratic, and a megabyte of digits would hold the event loop for
 * seconds and come back in the error message.
 */
export const TVM_INT_MAX_TEXT = 128;

/**
 * Parses a stack number given as text or a JSON integer. `allowNaN` accepts the text "NaN" (how tonlib prints a
 * NaN); toncenter itself rejects it on input, tongate accepts it so its own output parses back.
 */
export function parseTvmInt(value: unknown, what: string, allowNaN = false): TupleItemInt | TupleItemNaN {
  let v: bigint;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new InputError(`${what}: expected an integer, got ${value} (send large numbers as strings)`);
    }
    v = BigInt(value);
  } else if (typeof value === 'string') {
    if (allowNaN && value === 'NaN') return { type: 'nan' };
    if (value.length > TVM_INT_MAX_TEXT) {
      throw new InputError(
        `${what}: a number of ${value.length} characters ('${value.slice(0, 20)}...') does not fit a 257-bit signed TVM integer (at most ${TVM_INT_MAX_TEXT} characters)`,
      );
    }
    if (HEX_RE.test(value)) {
      const neg = value.startsWith('-');
      const abs = BigInt(value.slice(neg ? 1 : 0));
      v = neg ? -abs : abs;
    } else if (DEC_RE.test(value)) {
      v = BigInt(value);
    } else {
      throw new InputError(`${what}: expected a decimal, 0x-hex or -0x-hex integer, got '${value.slice(0, 80)}'`);
    }
  } else {
    throw new InputError(`${what}: expected an integer or a numeric string, got ${describeValue(value)}`);
  }
  if (v < TVM_INT_MIN || v > TVM_INT_MAX) {
    throw new InputError(`${what}: ${formatTvmIntHex(v)} does not fit a 257-bit signed TVM integer`);
  }
  return { type: 'int', value: v };
}

/** The legacy runGetMethod form: lower-case hex with 0x, "-0x" for negatives ("0x0", "-0x1f"). */
export function formatTvmIntHex(v: bigint): string {
  return v < 0n ? `-0x${(-v).toString(16)}` : `0x${v.toString(16)}`;
}
