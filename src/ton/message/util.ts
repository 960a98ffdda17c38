// Small helpers shared by the message and transaction codecs: error wrapping, VarUInteger with the
// node's minimality rule, whole-cell refs and fixed-size hashes.
import type { Builder, Cell, Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';

/**
 * Runs a decoder and turns the plain `Error`s @ton/core throws (cell underflow, bad address) into a
 * CodecError naming the TL-B type; a CodecError from a nested type passes through unchanged, so the
 * message names the innermost type that failed.
 */
export function decoding<T>(type: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof CodecError) throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new CodecError(`${type}: ${why}`, { cause: e });
  }
}

/** Bits of the length prefix of VarUInteger n: `len:(#< n)`. */
function varLenBits(n: number): number {
  return 32 - Math.clz32(n - 1);
}

/**
 * VarUInteger n (block.tlb:112). The node's validator (block.cpp VarUInteger::validate_skip) rejects a
 * value whose first byte is zero, so a non-minimal length is not chain data: we reject it too, which
 * also makes storeVarUInteger(loadVarUInteger(x)) bit-exact.
 */
export function loadVarUInteger(s: Slice, n: number, type: string, field: string): bigint {
  const lb = varLenBits(n);
  if (s.remainingBits < lb) {
    throw new CodecError(`${type}: ${field}: expected a VarUInteger ${n} length, got only ${s.remainingBits} bits`);
  }
  const len = s.loadUint(lb);
  if (len >= n) throw new CodecError(`${type}: ${field}: VarUInteger ${n} length must be < ${n}, got ${len}`);
  if (len === 0) return 0n;
  if (s.remainingBits < len * 8) {
    throw new CodecError(`${type}: ${field}: expected ${len * 8} value bits, got only ${s.remainingBits}`);
  }
  const value = s.loadUintBig(len * 8);
  if (value >> BigInt(len * 8 - 8) === 0n) {
    throw new CodecError(`${type}: ${field}: VarUInteger ${n} is not minimally encoded (${len} bytes, first is 0)`);
  }
  return value;
}

export function storeVarUInteger(b: Builder, value: bigint, n: number, type: string, field: string): void {
  if (value < 0n || value >> BigInt((n - 1) * 8) !== 0n) {
    throw new CodecError(`${type}: ${field}: ${value} does not fit VarUInteger ${n}`);
  }
  b.storeVarUint(value, varLenBits(n));
}

/** Grams = VarUInteger 16 (block.tlb:116). */
export function loadGrams(s: Slice, type: string, field: string): bigint {
  return loadVarUInteger(s, 16, type, field);
}

export function storeGrams(b: Builder, value: bigint, type: string, field: string): void {
  storeVarUInteger(b, value, 16, type, field);
}

/** Reads a `^X` reference that must be an ordinary cell (a pruned branch cannot be decoded). */
export function loadRefCell(s: Slice, type: string, field: string): Cell {
  if (s.remainingRefs < 1) throw new CodecError(`${type}: ${field}: expected a reference, none left`);
  const c = s.loadRef();
  if (c.isExotic) {
    throw new CodecError(`${type}: ${field}: expected an ordinary cell, got exotic cell type ${c.type} (pruned?)`);
  }
  return c;
}

/** Decodes a whole referenced cell as `type`, requiring nothing left unread. */
export function loadWhole<T>(type: string, cell: Cell, load: (s: Slice) => T): T {
  return decoding(type, () => {
    const s = cell.beginParse();
    const value = load(s);
    endOf(s, type);
    return value;
  });
}

export function endOf(s: Slice, type: string): void {
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) {
    throw new CodecError(
      `${type}: expected the cell to end, got ${s.remainingBits} bits and ${s.remainingRefs} refs left`,
    );
  }
}

export function loadBits256(s: Slice, type: string, field: string): Buffer {
  if (s.remainingBits < 256) throw new CodecError(`${type}: ${field}: expected 256 bits, got only ${s.remainingBits}`);
  return s.loadBuffer(32);
}

export function storeBits256(b: Builder, value: Buffer, type: string, field: string): void {
  if (value.length !== 32) throw new CodecError(`${type}: ${field}: expected 32 bytes, got ${value.length}`);
  b.storeBuffer(value);
}
