export { BOC_MAGIC, type BocHeader, parseBocHeader } from './boc-header.ts';
export { type ReadBocOptions, readCellTable } from './boc-reader.ts';
export { type BocOptions, cellToBoc } from './cell-boc.ts';
export {
  CellTable,
  LIBRARY,
  levelOfMask,
  MERKLE_PROOF,
  MERKLE_UPDATE,
  ORDINARY,
  PRUNED_BRANCH,
} from './cell-table.ts';
export { cellFromBase64, cellsFromBoc } from './cells-from-boc.ts';
export { fastPaddedBitsInstalled, installFastPaddedBits, uninstallFastPaddedBits } from './core-padded-bits.ts';
export { crc32c } from './crc32c.ts';
export { lazyCell } from './lazy-cell.ts';
export { cellHasherName } from './native-hash.ts';
export { installNativeSha256, nativeSha256Installed, sha256Sync, uninstallNativeSha256 } from './native-sha256.ts';
export { bitsDescriptor, paddedBits, writePaddedBits } from './padded-bits.ts';
export { cellOf, rootsOf, tableOf } from './table-cell.ts';
