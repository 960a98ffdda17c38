// TVM stack values (@ton/core TupleItem, as serializeTuple/parseTuple read and write a VmStack) and the three JSON
// forms the APIs use: v2 runGetMethod (legacy [type, value]), v2 runGetMethodStd (tonlib typed entries), v3.
export { formatBocBase64, parseBocBase64 } from './boc-base64.ts';
export { checkTvmStack, MAX_STACK_CELL_DEPTH, MAX_TUPLE_ITEMS } from './tvm-bounds.ts';
export { formatTvmIntHex, parseTvmInt, TVM_INT_MAX, TVM_INT_MIN } from './tvm-int.ts';
export { type CellDataPadding, parseV2CellObject, toV2CellObject, type V2CellObject } from './v2-cell-object.ts';
export {
  parseV2LegacyStack,
  parseV2LegacyStackEntry,
  toV2LegacyStack,
  type V2LegacyCell,
  type V2LegacyStackEntry,
  type V2LegacyStackOptions,
} from './v2-legacy-stack.ts';
export {
  listElements,
  makeList,
  parseTvmStackEntry,
  parseV2StdStack,
  type TvmCell,
  type TvmList,
  type TvmNumberDecimal,
  type TvmSlice,
  type TvmStackEntry,
  type TvmTuple,
  toTvmStackEntry,
  toV2StdStack,
} from './v2-std-stack.ts';
export { parseV3Stack, toV3Stack, type V3StackEntry } from './v3-stack.ts';
