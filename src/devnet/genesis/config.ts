// The devnet's blockchain config: @ton/sandbox's defaultConfig (a mainnet config the emulator is built for) with
// the params that describe *this* chain replaced, each re-encoded through src/ton/config so it stays TL-B exact:
//   8  GlobalVersion      kept (the emulator supports the base's version); `globalVersion` overrides the version only
//   12 workchains         basechain 0 only: our zero state root/file hash, enabled since genesis, active, accepting
//                         messages, flags 0; split limits, version and format kept from the base (max_split 4 already
//                         allows the 16 shards of --shards 16)
//   19 global_id          the devnet's global id (blocks carry the same value)
//   28 CatchainConfig     catchain_config_new, no shuffling, one shard validator; lifetimes kept from the base
//   32, 33, 35, 36, 37    removed: there are no previous/next/temporary validator sets on the devnet
//   34 cur_validators     validators_ext: our single validator, main = total = 1, weight = total_weight = 2^60
//                         (mainnet's normalisation), valid from genesis for 50 years (capped at uint32)
// Everything else, including 0 (config address) and 1 (elector address), keeps the base's exact cells.
//
// global_balance is not a config param: it lives in McStateExtra, which the collator builds (keep it in
// [2^56, 2^62) nanoTON for @ton/core's parser, ton-libs.md §4.3).
import { Cell } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import { ConfigError } from '../../common/errors.ts';
import {
  type CatchainConfig,
  type ConfigParam,
  type ConfigParamBodies,
  type KnownConfigParamId,
  loadConfigParam,
  loadConfigParamFrom,
  loadConfigParams,
  nodeIdShort,
  storeConfigParam,
  storeConfigParams,
  type ValidatorSet,
  type WorkchainDescr,
} from '../../ton/index.ts';
import { DEVNET_GLOBAL_ID } from './wallets.ts';

export interface DevnetConfigArgs {
  /** The config to start from (a ConfigParams dictionary root). Default: @ton/sandbox's defaultConfig. */
  base?: Cell;
  validatorPublicKey: Buffer;
  genUtime: number;
  wcZeroStateRootHash: Buffer;
  wcZeroStateFileHash: Buffer;
  /** Overrides param 8's version (capabilities kept). Default: the base's version. */
  globalVersion?: number;
  /** Param 19. Default -217. */
  globalId?: number;
  /** Param 34 utime_until. Default genUtime + 50 years, capped at 2^32 - 1. */
  validatorSetUntil?: number;
}

export const DEVNET_VALIDATOR_WEIGHT = 1n << 60n;
const VALIDATOR_SET_LIFETIME = 50 * 365 * 86_400;
const UINT32_MAX = 0xffff_ffff;

/** Param ids this builder drops from the base. */
export const DEVNET_REMOVED_PARAMS: readonly number[] = [32, 33, 35, 36, 37];

// Used only when the base has no basechain descriptor: mainnet's values (split limits, timings, format).
const BASECHAIN_TEMPLATE: WorkchainDescr = {
  kind: 'workchain_v2',
  enabledSince: 0,
  monitorMinSplit: 0,
  minSplit: 0,
  maxSplit: 4,
  basic: 1,
  active: true,
  acceptMsgs: true,
  flags: 0,
  zerostateRootHash: Buffer.alloc(32),
  zerostateFileHash: Buffer.alloc(32),
  version: 0,
  format: { kind: 'wfmt_basic', vmVersion: -1, vmMode: 0n },
  splitMergeTimings: {
    splitMergeDelay: 100,
    splitMergeInterval: 100,
    minSplitMergeInterval: 30,
    maxSplitMergeDelay: 1000,
  },
  persistentStateSplitDepth: 4,
};

/**
 * Encodes one param through our codec and checks that it decodes back (loadConfigParam enforces the TL-B
 * constraints, e.g. main >= 1) and re-encodes to the same cell.
 */
function encodeParam<N extends KnownConfigParamId>(id: N, body: ConfigParamBodies[N]): Cell {
  // storeConfigParam encodes the body fields; `raw` is what a *decoded* param arrived in and is ignored here.
  const value = { kind: `config_param_${id}`, raw: Cell.EMPTY, ...body } as ConfigParam;
  const cell = storeConfigParam(id, value);
  const again = storeConfigParam(id, loadConfigParam(id as number, cell));
  if (!again.equals(cell)) throw new ConfigError(`buildDevnetConfig: param ${id} does not re-encode to the same cell`);
  return cell;
}

function check32(name: string, b: Buffer): void {
  if (b.length !== 32) throw new ConfigError(`buildDevnetConfig: ${name} must be 32 bytes, got ${b.length}`);
}

function checkUint32(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0 || v > UINT32_MAX) {
    throw new ConfigError(`buildDevnetConfig: ${name} must be a uint32, got ${v}`);
  }
}

/** The devnet's ConfigParams dictionary root (see the header for what changes against the base). */
export function buildDevnetConfig(p: DevnetConfigArgs): Cell {
  check32('validatorPublicKey', p.validatorPublicKey);
  check32('wcZeroStateRootHash', p.wcZeroStateRootHash);
  check32('wcZeroStateFileHash', p.wcZeroStateFileHash);
  checkUint32('genUtime', p.genUtime);
  const until = p.validatorSetUntil ?? Math.min(p.genUtime + VALIDATOR_SET_LIFETIME, UINT32_MAX);
  checkUint32('validatorSetUntil', until);
  if (until <= p.genUtime) throw new ConfigError(`buildDevnetConfig: validatorSetUntil ${until} <= genUtime`);
  const globalId = p.globalId ?? DEVNET_GLOBAL_ID;
  if (!Number.isInteger(globalId) || globalId < -(2 ** 31) || globalId >= 2 ** 31) {
    throw new ConfigError(`buildDevnetConfig: globalId must be an int32, got ${globalId}`);
  }

  const params = loadConfigParams(p.base ?? Cell.fromBase64(defaultConfig));

  if (p.globalVersion !== undefined) {
    checkUint32('globalVersion', p.globalVersion);
    const capabilities = loadConfigParamFrom(params, 8)?.globalVersion.capabilities ?? 0n;
    params.set(8, encodeParam(8, { globalVersion: { version: p.globalVersion, capabilities } }));
  }

  const baseWc = loadConfigParamFrom(params, 12)?.workchains.get(0) ?? BASECHAIN_TEMPLATE;
  const basechain: WorkchainDescr = {
    ...baseWc,
    enabledSince: p.genUtime,
    active: true,
    acceptMsgs: true,
    flags: 0,
    zerostateRootHash: Buffer.from(p.wcZeroStateRootHash),
    zerostateFileHash: Buffer.from(p.wcZeroStateFileHash),
  };
  params.set(12, encodeParam(12, { workchains: new Map([[0, basechain]]) }));

  params.set(19, encodeParam(19, { globalId }));

  const baseCc = loadConfigParamFrom(params, 28)?.catchainConfig;
  const catchainConfig: CatchainConfig = {
    kind: 'catchain_config_new',
    flags: 0,
    shuffleMcValidators: false,
    mcCatchainLifetime: baseCc?.mcCatchainLifetime ?? 250,
    shardCatchainLifetime: baseCc?.shardCatchainLifetime ?? 250,
    shardValidatorsLifetime: baseCc?.shardValidatorsLifetime ?? 1000,
    shardValidatorsNum: 1,
  };
  params.set(28, encodeParam(28, { catchainConfig }));

  const curValidators: ValidatorSet = {
    kind: 'validators_ext',
    utimeSince: p.genUtime,
    utimeUntil: until,
    total: 1,
    main: 1,
    totalWeight: DEVNET_VALIDATOR_WEIGHT,
    list: new Map([
      [
        0,
        {
          kind: 'validator_addr',
          publicKey: Buffer.from(p.validatorPublicKey),
          weight: DEVNET_VALIDATOR_WEIGHT,
          // The key's node id short, which also signs blocks. Clients only hash it into the validator set.
          adnlAddr: nodeIdShort(p.validatorPublicKey),
        },
      ],
    ]),
  };
  params.set(34, encodeParam(34, { curValidators }));

  for (const id of DEVNET_REMOVED_PARAMS) params.delete(id);
  return storeConfigParams(params);
}
