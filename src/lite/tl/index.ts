// lite_api TL: generated types and schema table (schema.generated.ts) plus the codec that walks it.
export {
  decodeTl,
  decodeTlBare,
  decodeTlPrefix,
  encodeTl,
  encodeTlBare,
  tlConstructor,
  tlConstructorId,
} from './codec.ts';
export type * from './schema.generated.ts';
// `LiteServerError` (the TL object) shares its name with the error class in src/common; this alias avoids the clash.
export type { LiteServerError as LiteServerErrorObject } from './schema.generated.ts';
export { TL_BUILTIN_IDS, TL_SCHEMA } from './schema.generated.ts';
export type * from './schema-types.ts';

import type { TlFunctionObject, TlFunctionResults } from './schema.generated.ts';
/** Name of a lite_api function (`liteServer.getAccountState`, ...). */
export type TlFunctionName = TlFunctionObject['_'];
/** What a liteserver answers to function F (besides liteServer.error). */
export type TlResultOf<F extends TlFunctionName> = TlFunctionResults[F];
