// Cells in the JSON stack forms travel as standard-base64 BoCs. tonlib writes them with
// vm::std_boc_serialize(cell, Mode::WithCRC32C) (tonlib/tonlib/TonlibClient.cpp to_bytes): one root, CRC32C,
// no index, cells in the node's order (src/ton/boc serializeBoc; @ton/core's toBoc orders the cells of a
// DAG differently, so its bytes would not match toncenter's). Input is read with the node's checks.

import type { Cell } from '@ton/core';
import { InputError } from '../../common/errors.ts';
import { parseBoc, serializeBoc } from '../boc/index.ts';

/** Standard base64 of the one-root BoC that tonlib returns for a cell (CRC32C, no index, node cell order). */
export function formatBocBase64(cell: Cell): string {
  return serializeBoc([cell], { crc32: true }).toString('base64');
}

// td::base64_decode: standard alphabet, padding required (tdutils/td/utils/base64.cpp).
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decodes a standard-base64 BoC with exactly one root; `what` names the field in error messages. */
export function parseBocBase64(text: unknown, what: string): Cell {
  if (typeof text !== 'string') {
    throw new InputError(`${what}: expected a base64 BoC string, got ${describeValue(text)}`);
  }
  if (text.length === 0) throw new InputError(`${what}: expected a base64 BoC, got an empty string`);
  if (!BASE64_RE.test(text)) {
    throw new InputError(
      `${what}: expected standard base64 (A-Z a-z 0-9 + / with = padding), got ${describeValue(text)}`,
    );
  }
  let cells: Cell[];
  try {
    cells = parseBoc(Buffer.from(text, 'base64'));
  } catch (e) {
    throw new InputError(`${what}: not a valid BoC (${(e as Error).message})`, { cause: e });
  }
  if (cells.length !== 1) throw new InputError(`${what}: expected a BoC with one root, got ${cells.length}`);
  return cells[0]!;
}

/** A short description of an unexpected JSON value for error messages. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `'${v.length > 60 ? `${v.slice(0, 57)}...` : v}'`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}
