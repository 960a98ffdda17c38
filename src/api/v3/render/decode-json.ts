// Parsed message-body values as the JSON /decode answers (v3-api.md §3.10, §7.8). toncenter's decoder (ton-marker)
// prints TL-B values with its JSON printer: every integer as a decimal string, bit strings as upper-case hex, nested
// constructors as objects tagged "@type", cells as base64 BoCs that are themselves decoded when they can be. Our
// parsers give camelCase TypeScript values; this walks them into that form: keys in snake_case (the TL-B field
// names), `kind` / @ton/core `type` discriminators as "@type" with ton-marker's constructor names, addresses raw.
// The protocol readers of src/ton/marker already give TL-B names and constructors (MarkerRecord): kept as they are.
import { Address, Cell, Dictionary, type DictionaryKeyTypes, ExternalAddress } from '@ton/core';
import { MarkerRecord } from '../../../ton/marker/index.ts';

export type Json = string | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Renders a cell: its decoded body when it has one (and the depth allows), else its base64 BoC. */
export type CellRenderer = (cell: Cell) => Json;

/** @ton/core discriminators -> ton-marker's TL-B constructor names (OutAction, CommonMsgInfoRelaxed, LibRef). */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  sendMsg: 'action_send_msg',
  setCode: 'action_set_code',
  reserve: 'action_reserve_currency',
  changeLibrary: 'action_change_library',
  internal: 'int_msg_info',
  'external-in': 'ext_in_msg_info',
  'external-out': 'ext_out_msg_info',
  ref: 'libref_ref',
  hash: 'libref_hash',
};

/** Field names where @ton/core's name is not the TL-B one snake_cased. */
const KEY_NAMES: Readonly<Record<string, string>> = {
  forwardFee: 'fwd_fee',
  libRef: 'libref',
  coins: 'grams',
};

export function snakeCase(key: string): string {
  return KEY_NAMES[key] ?? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Raw upper-case form, as every v3 address (schema/README.md). */
export function rawAddress(a: Address): string {
  return a.toRawString().toUpperCase();
}

export function hexUpper(b: Uint8Array): string {
  return Buffer.from(b).toString('hex').toUpperCase();
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function dictionaryJson(d: Dictionary<DictionaryKeyTypes, unknown>, cell: CellRenderer): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of d) {
    const key = Address.isAddress(k) ? rawAddress(k) : Buffer.isBuffer(k) ? hexUpper(k) : String(k);
    out[key] = valueJson(v, cell);
  }
  return out;
}

/** An object's fields, tag first: `kind` (our parsers) or a known @ton/core `type` becomes "@type". */
export function objectJson(o: Record<string, unknown>, cell: CellRenderer): JsonObject {
  const out: JsonObject = {};
  const tag = typeof o.kind === 'string' ? o.kind : typeof o.type === 'string' ? TYPE_NAMES[o.type] : undefined;
  if (tag !== undefined) out['@type'] = tag;
  for (const [k, v] of Object.entries(o)) {
    if (k === 'kind' || (k === 'type' && tag !== undefined)) continue;
    out[snakeCase(k)] = valueJson(v, cell);
  }
  return out;
}

/** A record read by src/ton/marker: "@type" (for a named constructor), then its fields under their TL-B names. */
export function markerJson(
  name: string | null,
  fields: Readonly<Record<string, unknown>>,
  cell: CellRenderer,
): JsonObject {
  const out: JsonObject = name === null ? {} : { '@type': name };
  for (const [k, v] of Object.entries(fields)) out[k] = valueJson(v, cell);
  return out;
}

/** Any value a body parser gives, as JSON. Integers are strings, as ton-marker prints them. */
export function valueJson(v: unknown, cell: CellRenderer): Json {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return hexUpper(v);
  if (Address.isAddress(v)) return rawAddress(v);
  if (ExternalAddress.isAddress(v)) return v.toString();
  if (v instanceof Cell) return cell(v);
  if (v instanceof MarkerRecord) return markerJson(v.name, v.fields, cell);
  if (v instanceof Dictionary) return dictionaryJson(v as Dictionary<DictionaryKeyTypes, unknown>, cell);
  if (Array.isArray(v)) return v.map((x) => valueJson(x, cell));
  // Either Cell ^Cell (our EitherCell): the payload itself, wherever it was stored.
  if (isPlainObject(v) && typeof v.inRef === 'boolean' && v.cell instanceof Cell && Object.keys(v).length === 2) {
    return cell(v.cell);
  }
  if (isPlainObject(v)) return objectJson(v, cell);
  // Nothing else comes out of the parsers; a stray class instance is shown by name rather than walked.
  return `<${(v as object).constructor?.name ?? 'object'}>`;
}
