// What a get-method's argument stack may hold before it is handed to the emulator. TVM tuples hold at most 255
// elements (a TUPLE instruction's limit), and the emulator reads the VmStack cell recursively: a stack whose cell
// tree is much deeper than 256 levels (about 330 flat entries, or fewer nested tuples) crashes the emulator's WASM
// instead of failing cleanly, and a tuple of thousands of elements exceeds a cell's maximum depth of 1024. Both are
// a client's mistake, so they are refused here with a message naming the limit, before any state is read.
import { serializeTuple, type TupleItem } from '@ton/core';
import { InputError } from '../../common/errors.ts';

/** A TVM tuple's maximum length. */
export const MAX_TUPLE_ITEMS = 255;
/** Deepest serialized VmStack (in cells) the emulator is given; measured safe on @ton/sandbox's WASM build. */
export const MAX_STACK_CELL_DEPTH = 256;

function checkTuples(items: readonly TupleItem[], path: string): void {
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (it.type !== 'tuple') continue;
    if (it.items.length > MAX_TUPLE_ITEMS) {
      throw new InputError(
        `${path}[${i}]: a tuple of ${it.items.length} elements; TVM tuples hold at most ${MAX_TUPLE_ITEMS}`,
      );
    }
    checkTuples(it.items, `${path}[${i}]`);
  }
}

/** Throws InputError when `stack` cannot be passed to the TVM (tuple too long, stack too deep). */
export function checkTvmStack(stack: readonly TupleItem[], path = 'stack'): void {
  checkTuples(stack, path);
  const depth = serializeTuple([...stack]).depth();
  if (depth > MAX_STACK_CELL_DEPTH) {
    throw new InputError(
      `${path}: ${stack.length} entries nest ${depth} cells deep once serialized; the TVM is given at most ${MAX_STACK_CELL_DEPTH} (pass fewer entries or flatter tuples)`,
    );
  }
}
