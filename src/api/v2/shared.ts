// What the other APIs use of v2, in one module: v3's v2-style methods (src/api/v3/routes/legacy.ts answers
// /addressInformation, /walletInformation, /message, /runGetMethod and /estimateFee with v2's own functions on the
// v2 context, render/legacy.ts reshapes their results) and the pending-trace emulator (src/api/pending reads
// accounts, config and libraries through the pool as v2 does). They import this module and no other of v2's, so
// what they depend on is listed here and v2's method files stay v2's own.
export {
  decodeAccount,
  latestConfig,
  librariesFor,
  masterchainBlock,
  readAccount,
  shardAccountCell,
} from './chain-reads.ts';
export type { ExternalMessage, V2Context } from './context.ts';
export type { FeesV2, QueryFeesV2 } from './emulate/fees.ts';
export { describeV2Error } from './errors.ts';
export { accountAt } from './methods/accounts.ts';
export { runGetMethodWith } from './methods/run.ts';
export { estimateFeeOf, sendExternalMessage } from './methods/send.ts';
export { V2Params } from './params.ts';
export { rawFullAccountStateV2, walletInformationV2 } from './render/account.ts';
