// Small shared pieces for the config param codecs: constructor tags, TL-B constraints, strict
// dictionary values. Local to src/ton/config/ (no other folder exports these).
import { type Builder, Dictionary, type DictionaryValue, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';

function hexTag(tag: number, bits: number): string {
  return `0x${tag.toString(16).padStart(Math.ceil(bits / 4), '0')}`;
}

/** Reads a `bits`-wide constructor tag and checks it is one of `expected`. */
export function loadTag(s: Slice, bits: number, expected: readonly number[], type: string): number {
  if (s.remainingBits < bits) {
    throw new CodecError(`${type}: expected a ${bits}-bit tag, only ${s.remainingBits} bits left`);
  }
  const tag = s.loadUint(bits);
  if (!expected.includes(tag)) {
    const want = expected.map((t) => hexTag(t, bits)).join(' or ');
    throw new CodecError(`${type}: expected tag ${want}, got ${hexTag(tag, bits)}`);
  }
  return tag;
}

/** A `{ ... }` constraint of the TL-B declaration; the node's generated validators reject data breaking it. */
export function check(ok: boolean, type: string, constraint: string, got: unknown): void {
  if (!ok) throw new CodecError(`${type}: constraint ${constraint} violated (got ${String(got)})`);
}

/** The value must end exactly where the TL-B type ends, else re-encoding would not give the same cell. */
export function expectEnd(s: Slice, type: string): void {
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) {
    throw new CodecError(`${type}: expected end of cell, got ${s.remainingBits} bits and ${s.remainingRefs} refs left`);
  }
}

export function loadBits256(s: Slice): Buffer {
  return s.loadBuffer(32);
}

export function storeBits256(b: Builder, value: Buffer, type: string, field: string): void {
  if (value.length !== 32) throw new CodecError(`${type}: ${field} must be 32 bytes, got ${value.length}`);
  b.storeBuffer(value);
}

/**
 * A dictionary value codec whose leaf must hold exactly the value: @ton/core's parser does not check
 * what is left in a leaf, and a leaf with extra data would not re-encode to the same cell.
 */
export function strictValue<V>(
  type: string,
  load: (s: Slice) => V,
  store: (v: V) => (b: Builder) => void,
): DictionaryValue<V> {
  return {
    serialize: (v, b) => {
      b.store(store(v));
    },
    parse: (s) => {
      const v = load(s);
      expectEnd(s, type);
      return v;
    },
  };
}

/** `True` / `Unit`: a value of zero bits, used by the set-like dictionaries (params 9, 10, 31, 44). */
export const unitValue: DictionaryValue<true> = strictValue(
  'True',
  () => true,
  () => () => {},
);

/** `^Cell` leaf value (the ConfigParams dictionary itself). */
export const cellRefValue = strictValue(
  '^Cell',
  (s) => s.loadRef(),
  (c) => (b) => {
    b.storeRef(c);
  },
);

export const uint32Value = strictValue(
  'uint32',
  (s) => s.loadUint(32),
  (v: number) => (b) => {
    b.storeUint(v, 32);
  },
);

export const bits256Value = strictValue(
  'uint256',
  (s) => s.loadBuffer(32),
  (v: Buffer) => (b) => {
    storeBits256(b, v, 'uint256', 'value');
  },
);

/** Keys of a `HashmapE n True` as a sorted list (unsigned keys). */
export function loadKeySet(s: Slice, keyBits: number): bigint[] {
  const dict = Dictionary.load(Dictionary.Keys.BigUint(keyBits), unitValue, s);
  return dict.keys().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function storeKeySet(keys: readonly bigint[], keyBits: number): (b: Builder) => void {
  return (b) => {
    const dict = Dictionary.empty(Dictionary.Keys.BigUint(keyBits), unitValue);
    for (const k of keys) dict.set(k, true);
    b.storeDict(dict);
  };
}

/** A `HashmapE n V` / `Hashmap n V` as a JS Map in key order. */
export function dictToMap<K extends number | bigint, V>(dict: Dictionary<K, V>): Map<K, V> {
  const keys = dict.keys().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(keys.map((k) => [k, dict.get(k) as V]));
}

export function mapToDict<K extends number | bigint, V>(
  map: ReadonlyMap<K, V>,
  key: Parameters<typeof Dictionary.empty<K, V>>[0],
  value: DictionaryValue<V>,
): Dictionary<K, V> {
  const dict = Dictionary.empty<K, V>(key, value);
  for (const [k, v] of map) dict.set(k, v);
  return dict;
}
