// The blockchain config as the collator reads it (block::Config / FetchConfigParams): the params a block's
// contents depend on, decoded once per config root with src/ton/config.
import type { Cell } from '@ton/core';
import { CollateError } from '../../common/errors.ts';
import {
  type BlockLimits,
  type BurningConfig,
  type CatchainConfig,
  type ConfigParam,
  type GlobalVersion,
  loadConfigParamFrom,
  loadConfigParams,
  storeConfigParam,
  storeConfigParams,
  type ValidatorSet,
  type WorkchainDescr,
} from '../../ton/index.ts';

/** Capability bits of ConfigParam 8 (ton/ton-types.h). */
export const CAP = {
  ihrEnabled: 1n,
  createStatsEnabled: 2n,
  bounceMsgBody: 4n,
  reportVersion: 8n,
  splitMergeTransactions: 16n,
  shortDequeue: 32n,
  storeOutMsgQueueSize: 64n,
  msgMetadata: 128n,
  deferMessages: 256n,
  fullCollatedData: 512n,
} as const;

export interface ChainConfig {
  /** The `Hashmap 32 ^Cell` root of ConfigParams. */
  root: Cell;
  params: Map<number, Cell>;
  /** ConfigParam 0: the configuration smart contract (ConfigParams.config_addr). */
  configAddr: Buffer;
  /** ConfigParam 8; version 0 and no capabilities when absent (as the node reads it). */
  globalVersion: GlobalVersion;
  /** ConfigParam 14; zero fees when absent. */
  masterchainBlockFee: bigint;
  basechainBlockFee: bigint;
  catchain: CatchainConfig;
  /** ConfigParam 35 if present, else 34: the set that creates blocks now. */
  validators: ValidatorSet;
  workchains: Map<number, WorkchainDescr>;
  burning: BurningConfig | null;
  /** ConfigParam 22 (masterchain) / 23 (workchains). */
  mcBlockLimits: BlockLimits | null;
  wcBlockLimits: BlockLimits | null;
}

const cache = new WeakMap<Cell, ChainConfig>();

export function readChainConfig(root: Cell): ChainConfig {
  const hit = cache.get(root);
  if (hit) return hit;
  const params = loadConfigParams(root);
  const p0 = loadConfigParamFrom(params, 0);
  if (!p0) throw new CollateError('config: ConfigParam 0 (configuration smart contract address) is missing');
  const p28 = loadConfigParamFrom(params, 28);
  if (!p28) throw new CollateError('config: ConfigParam 28 (catchain config) is missing');
  const vset = loadConfigParamFrom(params, 35)?.curTempValidators ?? loadConfigParamFrom(params, 34)?.curValidators;
  if (!vset) throw new CollateError('config: ConfigParam 34 (current validator set) is missing');
  const fees = loadConfigParamFrom(params, 14)?.blockCreateFees;
  const cfg: ChainConfig = {
    root,
    params,
    configAddr: p0.configAddr,
    globalVersion: loadConfigParamFrom(params, 8)?.globalVersion ?? { version: 0, capabilities: 0n },
    masterchainBlockFee: fees?.masterchainBlockFee ?? 0n,
    basechainBlockFee: fees?.basechainBlockFee ?? 0n,
    catchain: p28.catchainConfig,
    validators: vset,
    workchains: loadConfigParamFrom(params, 12)?.workchains ?? new Map(),
    burning: loadConfigParamFrom(params, 5)?.burningConfig ?? null,
    mcBlockLimits: loadConfigParamFrom(params, 22)?.blockLimits ?? null,
    wcBlockLimits: loadConfigParamFrom(params, 23)?.blockLimits ?? null,
  };
  cache.set(root, cfg);
  return cfg;
}

export function hasCapability(cfg: ChainConfig, cap: bigint): boolean {
  return (cfg.globalVersion.capabilities & cap) !== 0n;
}

/** block::BurningConfig::calculate_burned_fees: floor(x * num / denom). */
export function burnedFees(cfg: ChainConfig, x: bigint): bigint {
  if (!cfg.burning) return 0n;
  return (x * BigInt(cfg.burning.feeBurnNum)) / BigInt(cfg.burning.feeBurnDenom);
}

/** Split/merge timings of a workchain (WorkchainInfo defaults for the old workchain#a6 descriptor). */
export function splitMergeTimings(wc: WorkchainDescr): { delay: number; interval: number } {
  if (wc.kind === 'workchain_v2') {
    return { delay: wc.splitMergeTimings.splitMergeDelay, interval: wc.splitMergeTimings.splitMergeInterval };
  }
  return { delay: 100, interval: 100 };
}

/** A copy of the config with param `id` replaced. */
export function withConfigParam(root: Cell, id: number, value: ConfigParam): Cell {
  const params = new Map(loadConfigParams(root));
  params.set(id, storeConfigParam(id, value));
  return storeConfigParams(params);
}
