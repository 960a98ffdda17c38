// Small helpers shared by the block codec files: error wrapping and fully-consumed refs.
import type { Cell, Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';

/**
 * Runs a decoder and turns the plain `Error`s @ton/core throws (cell underflow, "Invalid data") into a
 * CodecError naming the TL-B type. A CodecError from a nested type keeps its message (which names the
 * innermost type that failed); each enclosing type is prepended to `details.path`, so a failure deep in a
 * block reads e.g. path ['Block', 'BlockExtra', 'InMsgDescr', 'InMsg', 'MsgEnvelope'].
 */
export function decoding<T>(type: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const err =
      e instanceof CodecError
        ? e
        : new CodecError(`${type}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    const path = Array.isArray(err.details.path) ? (err.details.path as string[]) : [];
    if (path[0] !== type) err.details.path = [type, ...path];
    throw err;
  }
}

/** Decodes a whole referenced cell as `type` and requires that nothing is left unread. */
export function loadWhole<T>(type: string, cell: Cell, load: (s: Slice) => T): T {
  return decoding(type, () => {
    if (cell.isExotic) throw new CodecError(`${type}: expected an ordinary cell, got exotic cell type ${cell.type}`);
    const s = cell.beginParse();
    const value = load(s);
    if (s.remainingBits !== 0 || s.remainingRefs !== 0) {
      throw new CodecError(
        `${type}: expected the cell to end, got ${s.remainingBits} bits and ${s.remainingRefs} refs left over`,
      );
    }
    return value;
  });
}

/** Reads a constructor tag of `bits` bits and throws a CodecError unless it equals `tag`. */
export function expectTag(s: Slice, type: string, tag: number, bits: number): void {
  if (s.remainingBits < bits) {
    throw new CodecError(`${type}: expected tag 0x${tag.toString(16)}, got only ${s.remainingBits} bits`);
  }
  const got = s.loadUint(bits);
  if (got !== tag) throw new CodecError(`${type}: expected tag 0x${tag.toString(16)}, got 0x${got.toString(16)}`);
}

export function expectHash(type: string, field: string, b: Buffer): void {
  if (b.length !== 32) throw new CodecError(`${type}: expected ${field} of 32 bytes, got ${b.length}`);
}
