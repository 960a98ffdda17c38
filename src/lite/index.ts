// The lite part (lite_api over ADNL): the TON global config, the client pool other parts query liteservers
// through, the liteserver side (ChainView, dispatcher, createLiteServer) and the TL codec both sides share.
export {
  type GlobalConfig,
  type GlobalConfigBlockId,
  type LiteServerEndpoint,
  type LoadGlobalConfigOptions,
  loadGlobalConfig,
  parseGlobalConfig,
  readGlobalConfigText,
} from './global-config.ts';
export * from './pool/index.ts';
export * from './server/index.ts';
export * from './tl/index.ts';
