// The liteserver side of lite_api: what a node must know (ChainView), the dispatcher that answers every
// liteServer.* function from it, and the ADNL server wired to that dispatcher.
export type {
  BlockLookup,
  BlockRecord,
  BlockSignature,
  BlockSignatureSet,
  ChainView,
  LiteVersion,
  MasterchainInfo,
  PendingShardBlocks,
  RunGetMethodArgs,
  RunGetMethodResult,
  ZeroStateIdExt,
} from './chain-view.ts';
export { MASTERCHAIN, SHARD_ALL } from './chain-view.ts';
export {
  createLiteDispatcher,
  LITE_HANDLERS,
  type LiteDispatcher,
  type LiteDispatcherOptions,
  type LiteQueryContext,
} from './dispatcher.ts';
export { LITE_BAD_REQUEST, LITE_NOT_FOUND, LITE_TIMEOUT, LITE_UNKNOWN_QUERY } from './lite-errors.ts';
export { createLiteServer, type LiteServer, type LiteServerOptions } from './lite-server.ts';
export { DEFAULT_VERSION } from './misc.ts';
