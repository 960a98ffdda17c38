// The "cell object" of the legacy runGetMethod stack (toncenter v2):
//   {"data": {"b64": <base64 of the data bytes>, "len": <data bits>}, "refs": [<cell objects>], "special": <bool>}
// It rides next to the BoC in ["cell", {"bytes", "object"}] output entries, and the Python 2.0 server accepted a
// JSON-encoded string of it as ["cell"|"slice", "<json>"] input.
//
// The last data byte differs between the two implementations when the bit length is not a multiple of 8:
// ton-http-api-cpp 2.1 (SerializeCell in src/converters/runmethod.hpp) copies the node's cell storage, which
// keeps the completion tag (a 1 bit after the data, crypto/vm/cells/DataCell.cpp since 2025-03), while
// Python 2.0 (tvm_valuetypes Cell.serialize_to_object) pads with zeros. Readers use `len` and ignore the rest.

import { BitString, beginCell, type Cell, CellType } from '@ton/core';
import { InputError } from '../../common/errors.ts';
import { describeValue } from './boc-base64.ts';

export interface V2CellObject {
  data: { b64: string; len: number };
  refs: V2CellObject[];
  special: boolean;
}

/** 'completion-tag': toncenter 2.1 (C++), the default; 'zeros': toncenter 2.0 (Python). */
export type CellDataPadding = 'completion-tag' | 'zeros';

export function toV2CellObject(cell: Cell, padding: CellDataPadding = 'completion-tag'): V2CellObject {
  const len = cell.bits.length;
  const bytes = Buffer.alloc(Math.ceil(len / 8));
  const full = len - (len % 8);
  if (full > 0) cell.bits.subbuffer(0, full)!.copy(bytes);
  if (len % 8 !== 0) {
    let last = 0;
    for (let i = full; i < len; i++) if (cell.bits.at(i)) last |= 0x80 >> (i - full);
    if (padding === 'completion-tag') last |= 0x80 >> (len - full);
    bytes[bytes.length - 1] = last;
  }
  return {
    data: { b64: bytes.toString('base64'), len },
    refs: cell.refs.map((r) => toV2CellObject(r, padding)),
    special: cell.type !== CellType.Ordinary,
  };
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Rebuilds a cell from its cell object; `what` locates the value in error messages. */
export function parseV2CellObject(json: unknown, what: string, depth = 0): Cell {
  if (depth > 1024) throw new InputError(`${what}: cell object nested deeper than 1024`);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new InputError(`${what}: expected a cell object {data, refs, special}, got ${describeValue(json)}`);
  }
  const o = json as Record<string, unknown>;
  const data = o.data as Record<string, unknown> | undefined;
  if (typeof data !== 'object' || data === null) {
    throw new InputError(`${what}.data: expected {b64, len}, got ${describeValue(o.data)}`);
  }
  const len = data.len;
  if (typeof len !== 'number' || !Number.isInteger(len) || len < 0 || len > 1023) {
    throw new InputError(`${what}.data.len: expected a bit count 0..1023, got ${describeValue(len)}`);
  }
  const b64 = data.b64 ?? '';
  if (typeof b64 !== 'string' || !BASE64_RE.test(b64)) {
    throw new InputError(`${what}.data.b64: expected standard base64, got ${describeValue(b64)}`);
  }
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length * 8 < len) {
    throw new InputError(`${what}.data: ${len} bits need ${Math.ceil(len / 8)} bytes, b64 holds ${bytes.length}`);
  }
  const refs = o.refs ?? [];
  if (!Array.isArray(refs) || refs.length > 4) {
    throw new InputError(`${what}.refs: expected an array of at most 4 cell objects, got ${describeValue(refs)}`);
  }
  const special = o.special ?? false;
  if (typeof special !== 'boolean')
    throw new InputError(`${what}.special: expected a boolean, got ${describeValue(special)}`);
  const b = beginCell().storeBits(new BitString(bytes, 0, len));
  refs.forEach((r, i) => {
    b.storeRef(parseV2CellObject(r, `${what}.refs[${i}]`, depth + 1));
  });
  try {
    return b.endCell({ exotic: special });
  } catch (e) {
    throw new InputError(`${what}: not a valid ${special ? 'exotic ' : ''}cell (${(e as Error).message})`, {
      cause: e,
    });
  }
}
