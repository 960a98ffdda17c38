// Readers of TL-B values as toncenter's body decoder (ton-marker) prints them: a record is its constructor name and
// its fields by their TL-B names, in order; numbers stay bigints, bit strings Buffers, addresses @ton/core's, cells
// Cells (the renderer turns them into JSON). Each reader throws when the slice does not hold its value, so a body
// that does not parse as one constructor can be tried as the next with the same tag, as ton-marker tries them.
import { type Address, beginCell, type Cell, Dictionary, type DictionaryValue, type Slice } from '@ton/core';
import { ControlFlowError } from '../../common/errors.ts';

/** A TL-B record: its constructor name ("@type"; null for an anonymous `_` constructor) and its fields. */
export class MarkerRecord {
  constructor(
    readonly name: string | null,
    readonly fields: Readonly<Record<string, unknown>>,
  ) {}
}

export type Read<T = unknown> = (s: Slice) => T;

/**
 * Fields in TL-B order: [name, reader]. A field named `_` is anonymous (`_:Record` or `^[ ... ]`): its fields are
 * shown in the enclosing record.
 */
export type Fields = readonly (readonly [string, Read])[];

/** A layout that does not fit (the next constructor is tried): no stack trace, see its base. */
class MarkerReadError extends ControlFlowError {}

export function fail(why: string): never {
  throw new MarkerReadError(why);
}

/** The fields of `spec` read in order, anonymous ones merged. */
export function fields(spec: Fields): Read<Record<string, unknown>> {
  return (s) => {
    const out: Record<string, unknown> = {};
    for (const [name, read] of spec) {
      const v = read(s);
      if (name !== '_') out[name] = v;
      else if (v instanceof MarkerRecord) Object.assign(out, v.fields);
      else if (typeof v === 'object' && v !== null) Object.assign(out, v);
      else fail('anonymous field is not a record');
    }
    return out;
  };
}

/** A record of a named constructor (`name#_ ...` or a tag-less type's only constructor). */
export const record =
  (name: string | null, spec: Fields): Read<MarkerRecord> =>
  (s) =>
    new MarkerRecord(name, fields(spec)(s));

/** One of several constructors chosen by a prefix of `bits` bits: [prefix, name, fields]. */
export function tagged(bits: number, cases: readonly (readonly [number, string, Fields])[]): Read<MarkerRecord> {
  return (s) => {
    const prefix = s.loadUint(bits);
    const c = cases.find(([p]) => p === prefix);
    if (!c) fail(`no constructor with prefix ${prefix}`);
    return new MarkerRecord(c[1], fields(c[2])(s));
  };
}

export const uint =
  (bits: number): Read<bigint> =>
  (s) =>
    s.loadUintBig(bits);
export const int =
  (bits: number): Read<bigint> =>
  (s) =>
    s.loadIntBig(bits);
/** bitsN (N a multiple of 8), shown as hex. */
export const bits =
  (n: number): Read<Buffer> =>
  (s) =>
    s.loadBuffer(n / 8);
export const bool: Read<boolean> = (s) => s.loadBit();
/** Coins, Grams, VarUInteger 16. */
export const coins: Read<bigint> = (s) => s.loadCoins();
export const queryId = uint(64);
/** MsgAddress: an internal or external address, or null for addr_none. */
export const address: Read<unknown> = (s) => s.loadAddressAny();
/** MsgAddressInt: an internal address only. */
export const addressInt: Read<Address> = (s) => s.loadAddress();

/** ^X: the referenced cell read whole as X (data left over in it fails the read, as ton-marker's checks do). */
export const ref =
  <T>(read: Read<T>): Read<T> =>
  (s) =>
    whole(s.loadRef(), read);

export function whole<T>(cell: Cell, read: Read<T>): T {
  if (cell.isExotic) fail('exotic cell');
  const inner = cell.beginParse();
  const v = read(inner);
  if (inner.remainingBits > 0 || inner.remainingRefs > 0) fail('extra data in cell');
  return v;
}

/** ^Cell. */
export const cell: Read<Cell> = (s) => s.loadRef();
/** Cell or Any in place: the rest of the slice, bits and references, as a cell. */
export const rest: Read<Cell> = (s) => {
  const b = beginCell().storeBits(s.loadBits(s.remainingBits));
  while (s.remainingRefs > 0) b.storeRef(s.loadRef());
  return b.endCell();
};

/** Maybe X: null for nothing. */
export const maybe =
  <T>(read: Read<T>): Read<T | null> =>
  (s) =>
    s.loadBit() ? read(s) : null;
/** (Maybe ^Cell). */
export const maybeCell = maybe(cell);
/** Either X Y: the value of whichever is stored. */
export const either =
  <L, R>(left: Read<L>, right: Read<R>): Read<L | R> =>
  (s) =>
    s.loadBit() ? right(s) : left(s);
/** (Either Cell ^Cell): the payload wherever it was stored. */
export const eitherCell = either(rest, cell);

/** (HashmapE 267 X) keyed by addresses. */
export function addressMap<T>(value: Read<T>): Read<Dictionary<Address, T>> {
  const v: DictionaryValue<T> = {
    serialize: () => fail('read only'),
    parse: (s) => value(s),
  };
  return (s) => s.loadDict(Dictionary.Keys.Address(), v);
}

/** A constructor of a body: its name, its tag, and the reader of what follows the tag. */
export interface MarkerConstructor {
  name: string;
  /** Unsigned 32-bit tag. */
  op: number;
  read: Read<Record<string, unknown>>;
}

export const body = (name: string, op: number, spec: Fields): MarkerConstructor => ({
  name,
  op: op >>> 0,
  read: fields(spec),
});

/** `name#tag query_id:uint64`, the body of many notifications. */
export const queryOnly = (name: string, op: number): MarkerConstructor => body(name, op, [['query_id', queryId]]);
