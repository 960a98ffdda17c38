// The stack of toncenter v3 `POST /api/v3/runGetMethod`: entries {"type", "value"}.
//
// ton-index-go (index/proxy.go, GetV2RunGetMethod + DecodeStackEntry) forwards the call to v2 runGetMethod and
// rewrites the legacy result, so the output follows the legacy form's quirks:
//   number        {"type": "num", "value": "0x1f"}            lower-case hex, "-0x1f" when negative
//   cell          {"type": "cell", "value": <base64 BoC>}
//   slice         {"type": "cell", ...} at the top level (legacy turns slices into cells), {"type": "slice", ...} nested
//   tuple, list   {"type": "tuple"|"list", "value": [<entries>]}   (null is an empty list)
// NaN and builders make the v3 server answer 501 ("failed to decode api/v2 stack"); here they throw CodecError.
//
// Input: {"type": "num", "value": <integer or numeric string>}, {"type": "cell"|"slice", "value": <base64 BoC>}
// (sent on as ["num", v], ["tvm.Cell", v], ["tvm.Slice", v]). tongate also reads "tuple"/"list" entries so that
// its own output parses back; toncenter answers those with 500 "unsupported stack parameter type".

import type { TupleItem } from '@ton/core';
import { CodecError, InputError } from '../../common/errors.ts';
import { describeValue, parseBocBase64 } from './boc-base64.ts';
import { formatTvmIntHex, parseTvmInt } from './tvm-int.ts';
import { toV2LegacyStack, type V2LegacyStackEntry } from './v2-legacy-stack.ts';
import { makeList, type TvmStackEntry } from './v2-std-stack.ts';

export type V3StackEntry =
  | { type: 'num'; value: string }
  | { type: 'cell'; value: string }
  | { type: 'slice'; value: string }
  | { type: 'tuple'; value: V3StackEntry[] }
  | { type: 'list'; value: V3StackEntry[] };

function fromTyped(e: TvmStackEntry, path: string): V3StackEntry {
  switch (e['@type']) {
    case 'tvm.stackEntryNumber': {
      const n = e.number.number;
      if (n === 'NaN') throw new CodecError(`${path}: NaN has no v3 form (toncenter answers 501)`);
      return { type: 'num', value: formatTvmIntHex(BigInt(n)) };
    }
    case 'tvm.stackEntryCell':
      return { type: 'cell', value: e.cell.bytes };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', value: e.slice.bytes };
    case 'tvm.stackEntryTuple':
      return { type: 'tuple', value: e.tuple.elements.map((x, i) => fromTyped(x, `${path}[${i}]`)) };
    case 'tvm.stackEntryList':
      return { type: 'list', value: e.list.elements.map((x, i) => fromTyped(x, `${path}[${i}]`)) };
    case 'tvm.stackEntryUnsupported':
      throw new CodecError(`${path}: builders and continuations have no v3 form (toncenter answers 501)`);
  }
}

function fromLegacy(entry: V2LegacyStackEntry, path: string): V3StackEntry {
  switch (entry[0]) {
    case 'num':
      return { type: 'num', value: entry[1] };
    case 'cell':
      return { type: 'cell', value: entry[1].bytes };
    case 'tuple':
      return { type: 'tuple', value: entry[1].elements.map((x, j) => fromTyped(x, `${path}[${j}]`)) };
    case 'list':
      return { type: 'list', value: entry[1].elements.map((x, j) => fromTyped(x, `${path}[${j}]`)) };
    case 'unsupported':
      throw new CodecError(`${path}: builders and continuations have no v3 form (toncenter answers 501)`);
  }
}

/** A get-method result stack (bottom first) in the v3 form. */
export function toV3Stack(items: readonly TupleItem[]): V3StackEntry[] {
  const nan = items.findIndex((item) => item.type === 'nan');
  if (nan >= 0) throw new CodecError(`stack[${nan}]: NaN has no v3 form (toncenter answers 501)`);
  return toV2LegacyStack(items).map((entry, i) => fromLegacy(entry, `stack[${i}]`));
}

function parseEntry(json: unknown, path: string, depth: number): TupleItem {
  if (depth > 1024) throw new InputError(`${path}: nested deeper than 1024`);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new InputError(`${path}: expected {"type", "value"}, got ${describeValue(json)}`);
  }
  const { type, value } = json as Record<string, unknown>;
  switch (type) {
    case 'num':
      return parseTvmInt(value, `${path}.value`);
    case 'cell':
      return { type: 'cell', cell: parseBocBase64(value, `${path}.value`) };
    case 'slice':
      return { type: 'slice', cell: parseBocBase64(value, `${path}.value`) };
    case 'tuple':
    case 'list': {
      if (!Array.isArray(value))
        throw new InputError(`${path}.value: expected an array of entries, got ${describeValue(value)}`);
      const items = value.map((v, i) => parseEntry(v, `${path}.value[${i}]`, depth + 1));
      return type === 'tuple' ? { type: 'tuple', items } : makeList(items);
    }
    default:
      throw new InputError(
        `${path}.type: unsupported stack parameter type: ${describeValue(type)} (expected num, cell or slice)`,
      );
  }
}

/** A v3 runGetMethod request stack (bottom first). */
export function parseV3Stack(json: unknown): TupleItem[] {
  if (!Array.isArray(json))
    throw new InputError(`stack: expected an array of {type, value}, got ${describeValue(json)}`);
  return json.map((e, i) => parseEntry(e, `stack[${i}]`, 0));
}
