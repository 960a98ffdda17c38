// Devnet genesis inputs, all deterministic in `--seed`: keys, funded wallets, the config and the fixed shard split.
export {
  buildDevnetConfig,
  DEVNET_REMOVED_PARAMS,
  DEVNET_VALIDATOR_WEIGHT,
  type DevnetConfigArgs,
} from './config.ts';
export { deriveGenesisKeys, GENESIS_KDF_SALT, type GenesisKey, type GenesisKeys } from './keys.ts';
export { MAX_DEVNET_SHARDS, shardIdOf, shardLayout } from './shard-layout.ts';
export {
  DEVNET_GLOBAL_ID,
  DEVNET_USER_WALLET_VERSIONS,
  DEVNET_USER_WALLETS_PER_VERSION,
  DEVNET_WALLET_BALANCE,
  DEVNET_WALLET_VERSIONS,
  type DeriveWalletsOptions,
  type DevnetWallet,
  type DevnetWalletVersion,
  deriveMnemonic,
  deriveUserWallets,
  deriveWallets,
  walletContract,
} from './wallets.ts';

/** What a devnet is created from. */
export interface GenesisParams {
  seed: string;
  /** 1..16 basechain shards (see shardLayout). */
  shards: number;
  genUtime: number;
  /** Default -217 (DEVNET_GLOBAL_ID). */
  globalId?: number;
}
