// The running devnet node: genesis on first start, block production (collator + store), the liteserver and the
// HTTP endpoint over them, the published global config and wallets, and the faucet client.
export type { DevnetView, HotBlock, Published } from './devnet-view.ts';
export { EXTERNAL_REFUSED_CODE, MAX_EXTERNAL_BYTES } from './external-check.ts';
export { type FaucetArgs, type FaucetResult, runFaucet } from './faucet.ts';
export {
  createDevnetGenesis,
  DEVNET_GLOBAL_VERSION,
  DEVNET_RESERVE_BALANCE,
  type DevnetGenesis,
  type DevnetGenesisParams,
  reserveAddress,
  walletDeployMessage,
} from './genesis.ts';
export {
  createDevnetNode,
  DEFAULT_BLOCK_INTERVAL_MS,
  DEFAULT_LITE_PORT,
  DEFAULT_SEED,
  DEFAULT_SHARDS,
  GLOBAL_CONFIG_FILE,
  loadHeadTops,
  WALLETS_FILE,
} from './node.ts';
export {
  type DevnetNetworkInfo,
  devnetGlobalConfigText,
  devnetNetworkInfo,
  devnetNetworkInfoOf,
  type GlobalConfigArgs,
  ipv4ToInt32,
  readDevnetNetworkInfo,
  type WalletsFileEntry,
  walletsFileEntries,
} from './published-files.ts';
export type {
  DevnetBlockEvent,
  DevnetInfo,
  DevnetNode,
  DevnetNodeOptions,
  DevnetStepStats,
} from './types.ts';
export {
  type SigningWallet,
  type WalletTransferArgs,
  walletStateInit,
  walletTransferMessage,
} from './wallet-messages.ts';
