// Bag-of-cells reader for input from outside (layout in serialize-boc.ts). @ton/core's `Cell.fromBoc` reads the
// same format, but fails with bare messages ("Invalid magic") and accepts some malformed input (trailing bytes,
// references to earlier cells, unused bytes in the index). This reader checks what the node checks
// (BagOfCells::deserialize) and says what was expected and what arrived. The cells come from src/ton/cell's table
// (one read, native hashing); on top of its structural checks this one hashes every cell and compares level masks
// and stored hashes.
import type { Cell } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { type CellTable, readCellTable, rootsOf } from '../cell/index.ts';
import { significantLevels } from './serialize-boc.ts';

export interface ParseBocOptions {
  /**
   * Accept a cell whose d1 level mask differs from the one its contents imply. The node rejects such cells
   * ("level mask mismatch"); some tools write them (tonutils-go writes 0 above pruned branches, and the
   * historical 280-bit pruned-branch form has no mask). Default false.
   */
  allowLevelMaskMismatch?: boolean;
}

/** Parses a bag of cells into its roots (in root-list order). Throws CodecError on any malformation. */
export function parseBoc(bytes: Uint8Array, opts: ParseBocOptions = {}): Cell[] {
  const table = readCellTable(bytes);
  if (!opts.allowLevelMaskMismatch) {
    for (let i = 0; i < table.count; i++) {
      if (table.storedMask[i] !== table.mask[i]) {
        throw new CodecError(`BoC: cell #${i}: level mask ${table.storedMask[i]} in d1, computed ${table.mask[i]}`);
      }
    }
  }
  table.hashAll();
  for (let i = 0; i < table.count; i++) {
    if ((table.storedHashesAt[i] as number) >= 0) checkStoredHashes(table, i);
  }
  return rootsOf(table);
}

/** A cell written with_hashes carries its hashes and depths for every significant level; they must be the real ones. */
function checkStoredHashes(table: CellTable, i: number): void {
  const mask = table.storedMask[i] as number;
  const levels = significantLevels(mask);
  const n = levels.length;
  const at = table.storedHashesAt[i] as number;
  levels.forEach((l, k) => {
    const hash = table.bytes.subarray(at + k * 32, at + k * 32 + 32);
    const depth = table.bytes.readUInt16BE(at + n * 32 + k * 2);
    const h = table.hash(i, l);
    const d = table.depth(i, l);
    if (!hash.equals(h) || depth !== d) {
      throw new CodecError(
        `BoC: cell #${i}: stored hash/depth of level ${l} is ${hash.toString('hex')}/${depth}, computed ${h.toString('hex')}/${d}`,
      );
    }
  });
}
