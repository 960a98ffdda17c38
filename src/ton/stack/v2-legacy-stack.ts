// The legacy stack of toncenter v2 `runGetMethod`: each entry is a 2-element array [type, value].
//
// Output (ton-http-api-cpp 2.1, Convert<LegacyStackEntry> in src/converters/runmethod.hpp, fed by tonlib):
//   number      ["num", "0x1f"]  lower-case hex, "-0x1f" when negative
//   cell, slice ["cell", {"bytes": <base64 BoC>, "object": <cell object>}]  (slices too, for backward compatibility)
//   tuple       ["tuple", {"@type": "tvm.tuple", "elements": [<tonlib typed entries>]}]
//   list, null  ["list", {"@type": "tvm.list", "elements": [<tonlib typed entries>]}]
//   builder     ["unsupported", ""]
// Inside tuples and lists the elements are tonlib typed entries (decimal numbers, slices stay slices).
//
// Input (LegacyTvmStackEntryParse in the same file): ["num"|"number"|"int"|"integer", <int64 or string>],
// ["tvm.Cell"|"tvm.Slice", <base64 BoC>], ["cell"|"slice", {"bytes": <base64 BoC>, "object"?: ...}],
// ["tuple"|"tvm.Tuple", {"@type": "tvm.tuple", "elements": [...]}], ["list"|"tvm.List", {...}].
// Also read, for clients written against older servers: ["cell"|"slice", "<JSON cell object>"] (Python 2.0),
// ["null"], ["builder", {"bytes"}] and ["tvm.Builder", <base64 BoC>] (what @ton/ton's TonClient reads and sends).

import type { Cell, TupleItem } from '@ton/core';
import { CodecError, InputError } from '../../common/errors.ts';
import { describeValue, formatBocBase64, parseBocBase64 } from './boc-base64.ts';
import { formatTvmIntHex, parseTvmInt } from './tvm-int.ts';
import { type CellDataPadding, parseV2CellObject, toV2CellObject, type V2CellObject } from './v2-cell-object.ts';
import {
  makeList,
  parseTvmStackEntry,
  type TvmList,
  type TvmStackEntry,
  type TvmTuple,
  toV2StdStack,
} from './v2-std-stack.ts';

export interface V2LegacyCell {
  bytes: string;
  object: V2CellObject;
}

export type V2LegacyStackEntry =
  | ['num', string]
  | ['cell', V2LegacyCell]
  | ['tuple', TvmTuple]
  | ['list', TvmList]
  | ['unsupported', ''];

export interface V2LegacyStackOptions {
  /** How the last byte of `object.data.b64` is padded; default 'completion-tag' (toncenter 2.1). */
  cellDataPadding?: CellDataPadding;
}

function toLegacyEntry(item: TupleItem, typed: TvmStackEntry, i: number, padding: CellDataPadding): V2LegacyStackEntry {
  switch (item.type) {
    case 'int':
      return ['num', formatTvmIntHex(item.value)];
    case 'nan':
      // toncenter 2.1 converts the decimal "NaN" back with td::string_to_int256, which fails; there is no output.
      throw new CodecError(`runGetMethod stack[${i}]: NaN has no legacy form (toncenter cannot render it)`);
    case 'cell':
    case 'slice': {
      // The BoC is already in the typed entry; reuse it.
      const bytes =
        typed['@type'] === 'tvm.stackEntryCell'
          ? typed.cell.bytes
          : typed['@type'] === 'tvm.stackEntrySlice'
            ? typed.slice.bytes
            : formatBocBase64(item.cell);
      return ['cell', { bytes, object: toV2CellObject(item.cell, padding) }];
    }
    case 'builder':
      return ['unsupported', ''];
    case 'null':
    case 'tuple':
      if (typed['@type'] === 'tvm.stackEntryList') return ['list', typed.list];
      if (typed['@type'] === 'tvm.stackEntryTuple') return ['tuple', typed.tuple];
      throw new CodecError(`runGetMethod stack[${i}]: unexpected typed entry ${typed['@type']}`);
  }
}

/** A get-method result stack (bottom first) in the legacy runGetMethod form. */
export function toV2LegacyStack(items: readonly TupleItem[], opts: V2LegacyStackOptions = {}): V2LegacyStackEntry[] {
  const padding = opts.cellDataPadding ?? 'completion-tag';
  // The typed form carries tonlib's size and depth limits and the tuple/list split; reuse it for nested values.
  const typed = toV2StdStack(items);
  return items.map((item, i) => toLegacyEntry(item, typed[i]!, i, padding));
}

const NUM_TYPES = new Set(['num', 'number', 'int', 'integer']);

function legacyCell(value: unknown, path: string): Cell {
  if (typeof value === 'string') {
    // Python 2.0 input: the cell object JSON-encoded in a string.
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new InputError(`${path}: expected {"bytes": <base64 BoC>} (use tvm.Cell/tvm.Slice for a bare base64 BoC)`);
    }
    return parseV2CellObject(parsed, path);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`${path}: expected an object with field bytes, got ${describeValue(value)}`);
  }
  return parseBocBase64((value as Record<string, unknown>).bytes, `${path}.bytes`);
}

function typedContainer(value: unknown, path: string, type: 'tvm.tuple' | 'tvm.list'): unknown[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`${path}: expected {"@type": "${type}", "elements": [...]}, got ${describeValue(value)}`);
  }
  const o = value as Record<string, unknown>;
  if (o['@type'] !== undefined && o['@type'] !== type) {
    throw new InputError(`${path}.@type: expected '${type}', got ${describeValue(o['@type'])}`);
  }
  if (!Array.isArray(o.elements))
    throw new InputError(`${path}.elements: expected an array, got ${describeValue(o.elements)}`);
  return o.elements;
}

/** One legacy entry back to a stack value; `path` locates it in error messages. */
export function parseV2LegacyStackEntry(json: unknown, path = 'stack entry'): TupleItem {
  if (!Array.isArray(json)) throw new InputError(`${path}: expected a [type, value] array, got ${describeValue(json)}`);
  const [type, value] = json;
  if (typeof type !== 'string')
    throw new InputError(`${path}[0]: expected the entry type as a string, got ${describeValue(type)}`);
  if (type === 'null' && json.length <= 2) return { type: 'null' };
  if (json.length !== 2) throw new InputError(`${path}: expected 2 elements in stack entry, got ${json.length}`);
  if (NUM_TYPES.has(type)) return parseTvmInt(value, `${path}[1]`);
  switch (type) {
    case 'tvm.Cell':
      return { type: 'cell', cell: parseBocBase64(value, `${path}[1]`) };
    case 'tvm.Slice':
      return { type: 'slice', cell: parseBocBase64(value, `${path}[1]`) };
    case 'tvm.Builder':
      return { type: 'builder', cell: parseBocBase64(value, `${path}[1]`) };
    case 'cell':
      return { type: 'cell', cell: legacyCell(value, `${path}[1]`) };
    case 'slice':
      return { type: 'slice', cell: legacyCell(value, `${path}[1]`) };
    case 'builder':
      return { type: 'builder', cell: legacyCell(value, `${path}[1]`) };
    case 'tuple':
    case 'tvm.Tuple':
      return {
        type: 'tuple',
        items: typedContainer(value, `${path}[1]`, 'tvm.tuple').map((e, i) =>
          parseTvmStackEntry(e, `${path}[1].elements[${i}]`),
        ),
      };
    case 'list':
    case 'tvm.List':
      return makeList(
        typedContainer(value, `${path}[1]`, 'tvm.list').map((e, i) =>
          parseTvmStackEntry(e, `${path}[1].elements[${i}]`),
        ),
      );
    default:
      // toncenter answers this one with HTTP 542 rather than 422.
      throw new InputError(`${path}: unsupported stack entry type: ${type.slice(0, 40)}`, {
        details: { toncenterStatus: 542 },
      });
  }
}

/** A runGetMethod request stack (bottom first). */
export function parseV2LegacyStack(json: unknown): TupleItem[] {
  if (!Array.isArray(json))
    throw new InputError(`stack: expected an array of [type, value] entries, got ${describeValue(json)}`);
  return json.map((e, i) => parseV2LegacyStackEntry(e, `stack[${i}]`));
}
