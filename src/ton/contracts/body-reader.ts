// What every body parser shares. Parsers are total: a malformed or hostile body gives null, never a throw,
// because bodies come from anyone. Loaders below throw inside `readBody`, which turns any throw into null.
// contracts.md §0: MsgAddress accepts addr_none (null) wherever the schema says MsgAddress; Either Cell ^Cell
// is one bit, then the rest of the slice (0) or the next ref (1).
import { Address, beginCell, type Cell, type Slice } from '@ton/core';
import { ControlFlowError } from '../../common/errors.ts';

/** Thrown by loaders on a layout they refuse; never escapes `readBody` / `readCell` (no stack trace: see its base). */
class BodyLayoutError extends ControlFlowError {}

export function refuse(what: string): never {
  throw new BodyLayoutError(what);
}

/** `load` over the body after its 32-bit opcode, or null if the opcode differs or the layout does not parse. */
export function readBody<T>(body: Cell, op: number, load: (s: Slice) => T): T | null {
  try {
    const s = body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== op >>> 0) return null;
    return load(s);
  } catch {
    return null;
  }
}

/** `load` over a whole cell (bodies without an opcode, nested values), null on any failure. */
export function readCell<T>(cell: Cell, load: (s: Slice) => T): T | null {
  try {
    return load(cell.beginParse());
  } catch {
    return null;
  }
}

/**
 * MsgAddress: addr_none$00 -> null; addr_std$10 -> Address, an anycast rewrite prefix applied to the hash
 * (as the node does when it routes); addr_extern and addr_var are refused (no jetton, NFT or DNS body uses them).
 */
export function loadMsgAddress(s: Slice): Address | null {
  const tag = s.loadUint(2);
  if (tag === 0) return null;
  if (tag !== 2) refuse(`MsgAddress: expected addr_none or addr_std, got tag ${tag}`);
  let prefix: { depth: number; bits: bigint } | null = null;
  if (s.loadBit()) {
    const depth = s.loadUint(5);
    if (depth < 1 || depth > 30) refuse(`Anycast: depth ${depth} out of 1..30`);
    prefix = { depth, bits: s.loadUintBig(depth) };
  }
  const workchain = s.loadInt(8);
  const hash = s.loadBuffer(32);
  if (prefix) {
    const keep = (1n << BigInt(256 - prefix.depth)) - 1n;
    const v = (prefix.bits << BigInt(256 - prefix.depth)) | (BigInt(`0x${hash.toString('hex')}`) & keep);
    return new Address(workchain, Buffer.from(v.toString(16).padStart(64, '0'), 'hex'));
  }
  return new Address(workchain, hash);
}

/** MsgAddressInt: like loadMsgAddress, but addr_none is refused. */
export function loadMsgAddressInt(s: Slice): Address {
  return loadMsgAddress(s) ?? refuse('MsgAddressInt: got addr_none');
}

/** The rest of a slice (bits and refs) as its own cell; consumes it. */
export function loadRest(s: Slice): Cell {
  const b = beginCell().storeBits(s.loadBits(s.remainingBits));
  while (s.remainingRefs > 0) b.storeRef(s.loadRef());
  return b.endCell();
}

/** `Either Cell ^Cell`: where the value was (`inRef`) and the value itself (inline: the rest of the slice). */
export interface EitherCell {
  inRef: boolean;
  cell: Cell;
}

/**
 * Either Cell ^Cell. A body that ends before the Either bit counts as an empty inline payload: the reference
 * v1 wallet forwards whatever is left, so such transfers go through on chain.
 */
export function loadEitherCell(s: Slice): EitherCell {
  if (s.remainingBits === 0) return { inRef: false, cell: loadRest(s) };
  if (s.loadBit()) return { inRef: true, cell: s.loadRef() };
  return { inRef: false, cell: loadRest(s) };
}

/** A payload as events and rows keep it: the ref, or the inline rest; an empty inline rest is no payload. */
export function payloadCell(p: EitherCell): Cell | null {
  if (p.inRef) return p.cell;
  return p.cell.bits.length === 0 && p.cell.refs.length === 0 ? null : p.cell;
}

/** `Maybe ^Cell` that may be cut off: a body ending before the Maybe bit has none (contracts ignore it). */
export function loadMaybeRefOrEnd(s: Slice): Cell | null {
  return s.remainingBits === 0 ? null : s.loadMaybeRef();
}
