// The everyday way to read a BoC from a trusted or hash-checked source: roots as lazy cells, nothing hashed until
// asked. Untrusted input goes through src/ton/boc's parseBoc, which also checks level masks and stored hashes.
import type { Cell } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { type ReadBocOptions, readCellTable } from './boc-reader.ts';
import { rootsOf } from './table-cell.ts';

/** The roots of a BoC as @ton/core cells (lazy views of one CellTable). */
export function cellsFromBoc(bytes: Uint8Array, opts?: ReadBocOptions): Cell[] {
  return rootsOf(readCellTable(bytes, opts));
}

/** The one root of a base64 BoC as a lazy cell; throws when the BoC has another number of roots. */
export function cellFromBase64(b64: string): Cell {
  const roots = cellsFromBoc(Buffer.from(b64, 'base64'));
  if (roots.length !== 1) throw new CodecError(`BoC: expected one root, got ${roots.length}`);
  return roots[0] as Cell;
}
