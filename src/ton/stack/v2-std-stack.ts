// block.tlb:903-918 (the values a stack entry stands for)
// vm_stk_null#00 = VmStackValue;
// vm_stk_tinyint#01 value:int64 = VmStackValue;
// vm_stk_int#0201_ value:int257 = VmStackValue;
// vm_stk_nan#02ff = VmStackValue;
// vm_stk_cell#03 cell:^Cell = VmStackValue;
// vm_stk_slice#04 _:VmCellSlice = VmStackValue;
// vm_stk_builder#05 cell:^Cell = VmStackValue;
// vm_stk_cont#06 cont:VmCont = VmStackValue;
// vm_stk_tuple#07 len:(## 16) data:(VmTuple len) = VmStackValue;
//
// tonlib_api.tl:168-179 (the JSON form: toncenter v2 runGetMethodStd, and the elements of legacy tuples/lists)
// tvm.slice bytes:bytes = tvm.Slice;
// tvm.cell bytes:bytes = tvm.Cell;
// tvm.numberDecimal number:string = tvm.Number;
// tvm.tuple elements:vector<tvm.StackEntry> = tvm.Tuple;
// tvm.list elements:vector<tvm.StackEntry> = tvm.List;
// tvm.stackEntrySlice slice:tvm.slice = tvm.StackEntry;
// tvm.stackEntryCell cell:tvm.cell = tvm.StackEntry;
// tvm.stackEntryNumber number:tvm.Number = tvm.StackEntry;
// tvm.stackEntryTuple tuple:tvm.Tuple = tvm.StackEntry;
// tvm.stackEntryList list:tvm.List = tvm.StackEntry;
// tvm.stackEntryUnsupported = tvm.StackEntry;
//
// Mapping as tonlib does it (to_tonlib_api / from_tonlib_api_impl in tonlib/tonlib/TonlibClient.cpp):
// a null, and a tuple that is a chain of pairs ending in null ([a, [b, [c, null]]]), become a tvm.list of the
// heads; an empty list is null. Numbers are decimal ("NaN" for NaN). A slice is re-serialised as a cell holding
// its remaining bits and refs. Builders and continuations have no JSON form (tvm.stackEntryUnsupported).

import type { TupleItem } from '@ton/core';
import { CodecError, InputError } from '../../common/errors.ts';
import { describeValue, formatBocBase64, parseBocBase64 } from './boc-base64.ts';
import { parseTvmInt } from './tvm-int.ts';

export interface TvmCell {
  '@type': 'tvm.cell';
  bytes: string;
}
export interface TvmSlice {
  '@type': 'tvm.slice';
  bytes: string;
}
export interface TvmNumberDecimal {
  '@type': 'tvm.numberDecimal';
  number: string;
}
export interface TvmTuple {
  '@type': 'tvm.tuple';
  elements: TvmStackEntry[];
}
export interface TvmList {
  '@type': 'tvm.list';
  elements: TvmStackEntry[];
}
export type TvmStackEntry =
  | { '@type': 'tvm.stackEntrySlice'; slice: TvmSlice }
  | { '@type': 'tvm.stackEntryCell'; cell: TvmCell }
  | { '@type': 'tvm.stackEntryNumber'; number: TvmNumberDecimal }
  | { '@type': 'tvm.stackEntryTuple'; tuple: TvmTuple }
  | { '@type': 'tvm.stackEntryList'; list: TvmList }
  | { '@type': 'tvm.stackEntryUnsupported' };

/** tonlib's limits (TonlibClient.cpp): at most 8000 entries per stack (per top-level entry on input), depth 1024. */
const MAX_ENTRIES = 8000;
const MAX_DEPTH = 1024;

/** The heads of a TVM list (null, or pairs whose second item is again a list), or undefined if `item` is not one. */
export function listElements(item: TupleItem): TupleItem[] | undefined {
  const heads: TupleItem[] = [];
  let node = item;
  while (node.type === 'tuple') {
    if (node.items.length !== 2) return undefined;
    heads.push(node.items[0]!);
    node = node.items[1]!;
  }
  return node.type === 'null' ? heads : undefined;
}

/** Builds a TVM list from its heads: [a, [b, [c, null]]]; no heads is null. */
export function makeList(heads: TupleItem[]): TupleItem {
  let tail: TupleItem = { type: 'null' };
  for (let i = heads.length - 1; i >= 0; i--) tail = { type: 'tuple', items: [heads[i]!, tail] };
  return tail;
}

interface Budget {
  left: number;
}

function toEntry(item: TupleItem, budget: Budget, depth: number): TvmStackEntry {
  if (--budget.left <= 0) throw new CodecError(`TVM stack: more than ${MAX_ENTRIES - 1} entries (tonlib's limit)`);
  if (depth > MAX_DEPTH) throw new CodecError(`TVM stack: nested deeper than ${MAX_DEPTH} (tonlib's limit)`);
  switch (item.type) {
    case 'int':
      return {
        '@type': 'tvm.stackEntryNumber',
        number: { '@type': 'tvm.numberDecimal', number: item.value.toString() },
      };
    case 'nan':
      return { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: 'NaN' } };
    case 'cell':
      return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: formatBocBase64(item.cell) } };
    case 'slice':
      return { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: formatBocBase64(item.cell) } };
    case 'builder':
      return { '@type': 'tvm.stackEntryUnsupported' };
    case 'null':
    case 'tuple': {
      const heads = listElements(item);
      if (heads) {
        return {
          '@type': 'tvm.stackEntryList',
          list: { '@type': 'tvm.list', elements: heads.map((h) => toEntry(h, budget, depth + 1)) },
        };
      }
      const items = item.type === 'tuple' ? item.items : [];
      return {
        '@type': 'tvm.stackEntryTuple',
        tuple: { '@type': 'tvm.tuple', elements: items.map((e) => toEntry(e, budget, depth + 1)) },
      };
    }
  }
}

/** One stack value as a tonlib typed entry. */
export function toTvmStackEntry(item: TupleItem): TvmStackEntry {
  return toEntry(item, { left: MAX_ENTRIES }, 0);
}

/** A whole stack (bottom first, as @ton/core's parseTuple returns it) in the runGetMethodStd form. */
export function toV2StdStack(items: readonly TupleItem[]): TvmStackEntry[] {
  const budget = { left: MAX_ENTRIES };
  return items.map((item) => toEntry(item, budget, 0));
}

function objectField(o: Record<string, unknown>, key: string, path: string, type: string): Record<string, unknown> {
  const v = o[key];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new InputError(`${path}.${key}: expected a ${type} object, got ${describeValue(v)}`);
  }
  // tonlib ignores the inner @type; Python clients send "tvm.Cell"/"tvm.Slice", so compare case-insensitively.
  const t = (v as Record<string, unknown>)['@type'];
  if (t !== undefined && (typeof t !== 'string' || t.toLowerCase() !== type.toLowerCase())) {
    throw new InputError(`${path}.${key}: expected @type '${type}', got ${describeValue(t)}`);
  }
  return v as Record<string, unknown>;
}

function elementsOf(o: Record<string, unknown>, path: string): unknown[] {
  const els = o.elements;
  if (!Array.isArray(els)) throw new InputError(`${path}.elements: expected an array, got ${describeValue(els)}`);
  return els;
}

function parseEntry(json: unknown, path: string, budget: Budget, depth: number): TupleItem {
  if (budget.left-- <= 0) throw new InputError(`${path}: more than ${MAX_ENTRIES} nested entries (tonlib's limit)`);
  if (depth > MAX_DEPTH) throw new InputError(`${path}: nested deeper than ${MAX_DEPTH} (tonlib's limit)`);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new InputError(`${path}: expected a tvm.StackEntry object, got ${describeValue(json)}`);
  }
  const o = json as Record<string, unknown>;
  switch (o['@type']) {
    case 'tvm.stackEntryNumber': {
      const n = objectField(o, 'number', path, 'tvm.numberDecimal');
      return parseTvmInt(n.number, `${path}.number.number`, true);
    }
    case 'tvm.stackEntryCell':
      return {
        type: 'cell',
        cell: parseBocBase64(objectField(o, 'cell', path, 'tvm.cell').bytes, `${path}.cell.bytes`),
      };
    case 'tvm.stackEntrySlice':
      return {
        type: 'slice',
        cell: parseBocBase64(objectField(o, 'slice', path, 'tvm.slice').bytes, `${path}.slice.bytes`),
      };
    case 'tvm.stackEntryTuple': {
      const t = objectField(o, 'tuple', path, 'tvm.tuple');
      const items = elementsOf(t, `${path}.tuple`).map((e, i) =>
        parseEntry(e, `${path}.tuple.elements[${i}]`, budget, depth + 1),
      );
      return { type: 'tuple', items };
    }
    case 'tvm.stackEntryList': {
      const l = objectField(o, 'list', path, 'tvm.list');
      return makeList(
        elementsOf(l, `${path}.list`).map((e, i) => parseEntry(e, `${path}.list.elements[${i}]`, budget, depth + 1)),
      );
    }
    case 'tvm.stackEntryUnsupported':
      throw new InputError(`${path}: tvm.stackEntryUnsupported cannot be sent to a contract`);
    default:
      throw new InputError(
        `${path}.@type: expected tvm.stackEntryNumber|Cell|Slice|Tuple|List, got ${describeValue(o['@type'])}`,
      );
  }
}

/** One tonlib typed entry back to a stack value; `path` locates it in error messages. */
export function parseTvmStackEntry(json: unknown, path = 'stack entry'): TupleItem {
  return parseEntry(json, path, { left: MAX_ENTRIES }, 0);
}

/** A runGetMethodStd request stack (bottom first). */
export function parseV2StdStack(json: unknown): TupleItem[] {
  if (!Array.isArray(json))
    throw new InputError(`stack: expected an array of tvm.StackEntry, got ${describeValue(json)}`);
  return json.map((e, i) => parseEntry(e, `stack[${i}]`, { left: MAX_ENTRIES }, 0));
}
