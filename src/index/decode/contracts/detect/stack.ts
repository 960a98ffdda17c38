// Getter results as ton-index-worker checks them (execute-smc.h, contracts.md §1.1): a result counts only if each
// of its first N entries has exactly the expected type; extra entries are allowed. Addresses come back as slices:
// a 2-bit `00` slice is addr_none, anything else must be an addr_std.
import { type Address, beginCell, type Cell, type TupleItem } from '@ton/core';

/** `cell?`: a cell or null (dictionaries that are null when empty). */
export type EntryKind = 'int' | 'slice' | 'cell' | 'cell?';

/** Whether the first entries of `stack` have the kinds of `shape` (NaN is not an int). */
export function hasShape(stack: readonly TupleItem[], shape: readonly EntryKind[]): boolean {
  if (stack.length < shape.length) return false;
  return shape.every((kind, i) => {
    const t = stack[i]!.type;
    return kind === 'cell?' ? t === 'cell' || t === 'null' : t === kind;
  });
}

export function intAt(stack: readonly TupleItem[], i: number): bigint {
  const e = stack[i];
  if (e?.type !== 'int') throw new Error(`stack entry ${i} is ${e?.type ?? 'missing'}, not an int`);
  return e.value;
}

/** The cell of a cell or slice entry, null for a null entry. */
export function cellAt(stack: readonly TupleItem[], i: number): Cell | null {
  const e = stack[i];
  if (e?.type === 'cell' || e?.type === 'slice') return e.cell;
  if (e?.type === 'null') return null;
  throw new Error(`stack entry ${i} is ${e?.type ?? 'missing'}, not a cell`);
}

/** An address slice: an Address, null for addr_none, undefined when it is neither (detection then fails). */
export function loadSliceAddress(slice: Cell): Address | null | undefined {
  try {
    const s = slice.beginParse();
    if (s.remainingBits === 2 && s.preloadUint(2) === 0) return null;
    return s.loadAddress();
  } catch {
    return undefined;
  }
}

/** The address in slice entry `i` (see loadSliceAddress). */
export function addressAt(stack: readonly TupleItem[], i: number): Address | null | undefined {
  const c = cellAt(stack, i);
  return c === null ? undefined : loadSliceAddress(c);
}

/** An address as a getter argument: an addr_std slice without anycast, as ton-index-worker builds it. */
export function addressArg(a: Address): TupleItem {
  return { type: 'slice', cell: beginCell().storeAddress(a).endCell() };
}

export function intArg(v: bigint): TupleItem {
  return { type: 'int', value: v };
}

export function cellArg(c: Cell): TupleItem {
  return { type: 'cell', cell: c };
}
