// block.tlb:554-555
// _ config_addr:bits256 config:^(Hashmap 32 ^Cell)
//   = ConfigParams;
//
// The dictionary maps a param id (int32: negative ids are in use, e.g. -999, -71) to the param's cell.
// Each param cell is decoded by the loader of its id (block.tlb:623-863, one file per group here);
// every decoded param keeps its raw cell, so a caller can hash or re-serve exactly what arrived.
import { type Builder, beginCell, type Cell, Dictionary, type Slice } from '@ton/core';
import { CodecError } from '../../common/errors.ts';
import { type BlockLimits, loadBlockLimits, storeBlockLimits } from './block-limits.ts';
import {
  type JettonBridgeParams,
  loadJettonBridgeParams,
  loadOracleBridgeParams,
  type OracleBridgeParams,
  storeJettonBridgeParams,
  storeOracleBridgeParams,
} from './bridges.ts';
import { type BurningConfig, loadBurningConfig, storeBurningConfig } from './burning-config.ts';
import { type CatchainConfig, loadCatchainConfig, storeCatchainConfig } from './catchain-config.ts';
import { cellRefValue, dictToMap, expectEnd, mapToDict } from './codec-helpers.ts';
import {
  type ConfigParam0,
  type ConfigParam1,
  type ConfigParam2,
  type ConfigParam3,
  type ConfigParam4,
  loadConfigParam0,
  loadConfigParam1,
  loadConfigParam2,
  loadConfigParam3,
  loadConfigParam4,
  storeConfigParam0,
  storeConfigParam1,
  storeConfigParam2,
  storeConfigParam3,
  storeConfigParam4,
} from './config-addresses.ts';
import { type ConfigVotingSetup, loadConfigVotingSetup, storeConfigVotingSetup } from './config-voting-setup.ts';
import { type ConsensusConfig, loadConsensusConfig, storeConsensusConfig } from './consensus-config.ts';
import {
  type ConfigParam15,
  type ConfigParam16,
  type ConfigParam17,
  loadConfigParam15,
  loadConfigParam16,
  loadConfigParam17,
  storeConfigParam15,
  storeConfigParam16,
  storeConfigParam17,
} from './elections.ts';
import {
  type BlockCreateFees,
  type ComplaintPricing,
  loadBlockCreateFees,
  loadComplaintPricing,
  storeBlockCreateFees,
  storeComplaintPricing,
} from './fees.ts';
import { type ConfigParam31, loadConfigParam31, storeConfigParam31 } from './fundamental-smc.ts';
import { type GasLimitsPrices, loadGasLimitsPrices, storeGasLimitsPrices } from './gas-limits-prices.ts';
import {
  type ConfigParam9,
  type ConfigParam10,
  type GlobalVersion,
  loadConfigParam9,
  loadConfigParam10,
  loadGlobalVersion,
  storeConfigParam9,
  storeConfigParam10,
  storeGlobalVersion,
} from './global-version.ts';
import {
  type ConfigParam6,
  type ConfigParam7,
  loadConfigParam6,
  loadConfigParam7,
  storeConfigParam6,
  storeConfigParam7,
} from './minting.ts';
import {
  loadMisbehaviourPunishmentConfig,
  type MisbehaviourPunishmentConfig,
  storeMisbehaviourPunishmentConfig,
} from './misbehaviour-punishment.ts';
import { loadMsgForwardPrices, type MsgForwardPrices, storeMsgForwardPrices } from './msg-forward-prices.ts';
import {
  loadNewConsensusConfigAll,
  type NewConsensusConfigAll,
  storeNewConsensusConfigAll,
} from './new-consensus-config.ts';
import {
  loadPrecompiledContractsConfig,
  type PrecompiledContractsConfig,
  storePrecompiledContractsConfig,
} from './precompiled-contracts.ts';
import { loadSizeLimitsConfig, type SizeLimitsConfig, storeSizeLimitsConfig } from './size-limits.ts';
import {
  type ConfigParam18,
  type ConfigParam19,
  loadConfigParam18,
  loadConfigParam19,
  storeConfigParam18,
  storeConfigParam19,
} from './storage-prices.ts';
import {
  loadSuspendedAddressList,
  type SuspendedAddressList,
  storeSuspendedAddressList,
} from './suspended-address-list.ts';
import { loadValidatorSet, storeValidatorSet, type ValidatorSet } from './validator-set.ts';
import { type ConfigParam12, loadConfigParam12, storeConfigParam12 } from './workchain-descr.ts';

// ---------------------------------------------------------------------------------------------
// The dictionary

const paramIdKey = Dictionary.Keys.Int(32);

/** The `Hashmap 32 ^Cell` of ConfigParams: param id -> param cell, ascending ids. */
export function loadConfigParams(dictCell: Cell): Map<number, Cell> {
  try {
    return dictToMap(Dictionary.loadDirect(paramIdKey, cellRefValue, dictCell));
  } catch (e) {
    if (e instanceof CodecError) throw new CodecError(`ConfigParams: ${e.message}`, { cause: e });
    throw new CodecError(`ConfigParams: cannot read the dictionary: ${(e as Error).message}`, { cause: e });
  }
}

/** The dictionary root cell holding `params` (a Hashmap, so at least one param). */
export function storeConfigParams(params: ReadonlyMap<number, Cell>): Cell {
  if (params.size === 0) throw new CodecError('ConfigParams: a Hashmap 32 ^Cell cannot be empty');
  const b = beginCell();
  mapToDict(params, paramIdKey, cellRefValue).storeDirect(b);
  return b.endCell();
}

/** ConfigParams as it sits in McStateExtra / McBlockExtra. */
export type ConfigParamsRoot = { configAddr: Buffer; config: Map<number, Cell> };

export function loadConfigParamsRoot(slice: Slice): ConfigParamsRoot {
  const configAddr = slice.loadBuffer(32);
  return { configAddr, config: loadConfigParams(slice.loadRef()) };
}

export function storeConfigParamsRoot(value: ConfigParamsRoot): (b: Builder) => void {
  return (b) => {
    if (value.configAddr.length !== 32) throw new CodecError('ConfigParams: config_addr must be 32 bytes');
    b.storeBuffer(value.configAddr);
    b.storeRef(storeConfigParams(value.config));
  };
}

// ---------------------------------------------------------------------------------------------
// One typed value per param id

/**
 * The decoded body of each param we know. Named TL-B fields keep their names; a param declared as a
 * bare type (`_ BurningConfig = ConfigParam 5`) gets one field named after that type.
 */
export interface ConfigParamBodies {
  0: ConfigParam0;
  1: ConfigParam1;
  2: ConfigParam2;
  3: ConfigParam3;
  4: ConfigParam4;
  5: { burningConfig: BurningConfig };
  6: ConfigParam6;
  7: ConfigParam7;
  8: { globalVersion: GlobalVersion };
  9: ConfigParam9;
  10: ConfigParam10;
  11: { configVotingSetup: ConfigVotingSetup };
  12: ConfigParam12;
  13: { complaintPricing: ComplaintPricing };
  14: { blockCreateFees: BlockCreateFees };
  15: ConfigParam15;
  16: ConfigParam16;
  17: ConfigParam17;
  18: ConfigParam18;
  19: ConfigParam19;
  20: { gasLimitsPrices: GasLimitsPrices };
  21: { gasLimitsPrices: GasLimitsPrices };
  22: { blockLimits: BlockLimits };
  23: { blockLimits: BlockLimits };
  24: { msgForwardPrices: MsgForwardPrices };
  25: { msgForwardPrices: MsgForwardPrices };
  28: { catchainConfig: CatchainConfig };
  29: { consensusConfig: ConsensusConfig };
  30: { newConsensusConfigAll: NewConsensusConfigAll };
  31: ConfigParam31;
  32: { prevValidators: ValidatorSet };
  33: { prevTempValidators: ValidatorSet };
  34: { curValidators: ValidatorSet };
  35: { curTempValidators: ValidatorSet };
  36: { nextValidators: ValidatorSet };
  37: { nextTempValidators: ValidatorSet };
  40: { misbehaviourPunishmentConfig: MisbehaviourPunishmentConfig };
  43: { sizeLimitsConfig: SizeLimitsConfig };
  44: { suspendedAddressList: SuspendedAddressList };
  45: { precompiledContractsConfig: PrecompiledContractsConfig };
  71: { oracleBridgeParams: OracleBridgeParams };
  72: { oracleBridgeParams: OracleBridgeParams };
  73: { oracleBridgeParams: OracleBridgeParams };
  79: { jettonBridgeParams: JettonBridgeParams };
  81: { jettonBridgeParams: JettonBridgeParams };
  82: { jettonBridgeParams: JettonBridgeParams };
}

export type KnownConfigParamId = keyof ConfigParamBodies;

/** A decoded param: its body plus the cell it was decoded from. */
export type ConfigParamOf<N extends KnownConfigParamId> = {
  kind: `config_param_${N}`;
  raw: Cell;
} & ConfigParamBodies[N];

/** A param we have no TL-B for (negative ids, 38, 39, ...): kept as its cell. */
export type UnknownConfigParam = { kind: 'config_param_unknown'; id: number; raw: Cell };

export type ConfigParam = { [N in KnownConfigParamId]: ConfigParamOf<N> }[KnownConfigParamId] | UnknownConfigParam;

type ParamCodec<T> = { type: string; load: (s: Slice) => T; store: (v: T) => (b: Builder) => void };

function fields<T>(type: string, load: (s: Slice) => T, store: (v: T) => (b: Builder) => void): ParamCodec<T> {
  return { type, load, store };
}

/** For `_ SomeType = ConfigParam N`: the body is `{ [key]: SomeType }`. */
function single<K extends string, T>(
  type: string,
  key: K,
  load: (s: Slice) => T,
  store: (v: T) => (b: Builder) => void,
): ParamCodec<{ [P in K]: T }> {
  return {
    type,
    load: (s) => ({ [key]: load(s) }) as { [P in K]: T },
    store: (v) => store(v[key]),
  };
}

const codecs: { [N in KnownConfigParamId]: ParamCodec<ConfigParamBodies[N]> } = {
  0: fields('ConfigParam0', loadConfigParam0, storeConfigParam0),
  1: fields('ConfigParam1', loadConfigParam1, storeConfigParam1),
  2: fields('ConfigParam2', loadConfigParam2, storeConfigParam2),
  3: fields('ConfigParam3', loadConfigParam3, storeConfigParam3),
  4: fields('ConfigParam4', loadConfigParam4, storeConfigParam4),
  5: single('BurningConfig', 'burningConfig', loadBurningConfig, storeBurningConfig),
  6: fields('ConfigParam6', loadConfigParam6, storeConfigParam6),
  7: fields('ConfigParam7', loadConfigParam7, storeConfigParam7),
  8: single('GlobalVersion', 'globalVersion', loadGlobalVersion, storeGlobalVersion),
  9: fields('ConfigParam9', loadConfigParam9, storeConfigParam9),
  10: fields('ConfigParam10', loadConfigParam10, storeConfigParam10),
  11: single('ConfigVotingSetup', 'configVotingSetup', loadConfigVotingSetup, storeConfigVotingSetup),
  12: fields('ConfigParam12', loadConfigParam12, storeConfigParam12),
  13: single('ComplaintPricing', 'complaintPricing', loadComplaintPricing, storeComplaintPricing),
  14: single('BlockCreateFees', 'blockCreateFees', loadBlockCreateFees, storeBlockCreateFees),
  15: fields('ConfigParam15', loadConfigParam15, storeConfigParam15),
  16: fields('ConfigParam16', loadConfigParam16, storeConfigParam16),
  17: fields('ConfigParam17', loadConfigParam17, storeConfigParam17),
  18: fields('ConfigParam18', loadConfigParam18, storeConfigParam18),
  19: fields('ConfigParam19', loadConfigParam19, storeConfigParam19),
  20: single('GasLimitsPrices', 'gasLimitsPrices', loadGasLimitsPrices, storeGasLimitsPrices),
  21: single('GasLimitsPrices', 'gasLimitsPrices', loadGasLimitsPrices, storeGasLimitsPrices),
  22: single('BlockLimits', 'blockLimits', loadBlockLimits, storeBlockLimits),
  23: single('BlockLimits', 'blockLimits', loadBlockLimits, storeBlockLimits),
  24: single('MsgForwardPrices', 'msgForwardPrices', loadMsgForwardPrices, storeMsgForwardPrices),
  25: single('MsgForwardPrices', 'msgForwardPrices', loadMsgForwardPrices, storeMsgForwardPrices),
  28: single('CatchainConfig', 'catchainConfig', loadCatchainConfig, storeCatchainConfig),
  29: single('ConsensusConfig', 'consensusConfig', loadConsensusConfig, storeConsensusConfig),
  30: single('NewConsensusConfigAll', 'newConsensusConfigAll', loadNewConsensusConfigAll, storeNewConsensusConfigAll),
  31: fields('ConfigParam31', loadConfigParam31, storeConfigParam31),
  32: single('ValidatorSet', 'prevValidators', loadValidatorSet, storeValidatorSet),
  33: single('ValidatorSet', 'prevTempValidators', loadValidatorSet, storeValidatorSet),
  34: single('ValidatorSet', 'curValidators', loadValidatorSet, storeValidatorSet),
  35: single('ValidatorSet', 'curTempValidators', loadValidatorSet, storeValidatorSet),
  36: single('ValidatorSet', 'nextValidators', loadValidatorSet, storeValidatorSet),
  37: single('ValidatorSet', 'nextTempValidators', loadValidatorSet, storeValidatorSet),
  40: single(
    'MisbehaviourPunishmentConfig',
    'misbehaviourPunishmentConfig',
    loadMisbehaviourPunishmentConfig,
    storeMisbehaviourPunishmentConfig,
  ),
  43: single('SizeLimitsConfig', 'sizeLimitsConfig', loadSizeLimitsConfig, storeSizeLimitsConfig),
  44: single('SuspendedAddressList', 'suspendedAddressList', loadSuspendedAddressList, storeSuspendedAddressList),
  45: single(
    'PrecompiledContractsConfig',
    'precompiledContractsConfig',
    loadPrecompiledContractsConfig,
    storePrecompiledContractsConfig,
  ),
  71: single('OracleBridgeParams', 'oracleBridgeParams', loadOracleBridgeParams, storeOracleBridgeParams),
  72: single('OracleBridgeParams', 'oracleBridgeParams', loadOracleBridgeParams, storeOracleBridgeParams),
  73: single('OracleBridgeParams', 'oracleBridgeParams', loadOracleBridgeParams, storeOracleBridgeParams),
  79: single('JettonBridgeParams', 'jettonBridgeParams', loadJettonBridgeParams, storeJettonBridgeParams),
  81: single('JettonBridgeParams', 'jettonBridgeParams', loadJettonBridgeParams, storeJettonBridgeParams),
  82: single('JettonBridgeParams', 'jettonBridgeParams', loadJettonBridgeParams, storeJettonBridgeParams),
};

/** Every param id with a TL-B declaration in block.tlb that we decode, ascending. */
export const KNOWN_CONFIG_PARAM_IDS: readonly KnownConfigParamId[] = Object.keys(codecs)
  .map(Number)
  .sort((a, b) => a - b) as KnownConfigParamId[];

export function isKnownConfigParamId(id: number): id is KnownConfigParamId {
  return Object.hasOwn(codecs, id);
}

/** The TL-B type a param id is declared with ('GasLimitsPrices' for 20), or undefined if unknown. */
export function configParamTypeName(id: number): string | undefined {
  return isKnownConfigParamId(id) ? codecs[id].type : undefined;
}

function codecFor(id: KnownConfigParamId): ParamCodec<unknown> {
  return codecs[id] as ParamCodec<unknown>;
}

/**
 * Decodes param `id` from its cell. Unknown ids come back as `config_param_unknown` with the cell;
 * a known id whose cell does not match its TL-B throws CodecError naming the param and the type.
 */
export function loadConfigParam<N extends KnownConfigParamId>(id: N, cell: Cell): ConfigParamOf<N>;
export function loadConfigParam(id: number, cell: Cell): ConfigParam;
export function loadConfigParam(id: number, cell: Cell): ConfigParam {
  if (!isKnownConfigParamId(id)) return { kind: 'config_param_unknown', id, raw: cell };
  const codec = codecFor(id);
  try {
    if (cell.isExotic) {
      throw new CodecError(`${codec.type}: expected an ordinary cell, got an exotic (${cell.type}) one`);
    }
    const s = cell.beginParse();
    const body = codec.load(s);
    expectEnd(s, codec.type);
    return { kind: `config_param_${id}`, raw: cell, ...(body as object) } as ConfigParam;
  } catch (e) {
    const inner = e instanceof CodecError ? e.message : `${codec.type}: ${(e as Error).message}`;
    throw new CodecError(`ConfigParam ${id}: ${inner}`, { cause: e, details: { param: id, type: codec.type } });
  }
}

/** Param `id` of a ConfigParams map (loadConfigParams), decoded as loadConfigParam does; undefined if absent. */
export function loadConfigParamFrom<N extends KnownConfigParamId>(
  params: ReadonlyMap<number, Cell>,
  id: N,
): ConfigParamOf<N> | undefined {
  const cell = params.get(id);
  return cell === undefined ? undefined : loadConfigParam(id, cell);
}

/** Encodes a param back to its cell; `id` must be the param's own id. Unknown params give their raw cell. */
export function storeConfigParam(id: number, value: ConfigParam): Cell {
  if (value.kind === 'config_param_unknown') {
    if (value.id !== id) throw new CodecError(`ConfigParam ${id}: got the raw cell of param ${value.id}`);
    return value.raw;
  }
  if (value.kind !== `config_param_${id}` || !isKnownConfigParamId(id)) {
    throw new CodecError(`ConfigParam ${id}: expected a value of kind config_param_${id}, got ${value.kind}`);
  }
  return beginCell().store(codecFor(id).store(value)).endCell();
}
