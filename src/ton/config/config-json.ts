// JSON form of decoded config params for the APIs: field names as in the typed values (TL-B names in
// camelCase), sum types keep their `kind`, 64-bit numbers and coins become decimal strings, hashes and
// keys become lowercase hex, and account ids of masterchain contracts become raw `-1:<hex>` addresses.
// Dictionaries become objects keyed by the decimal key (32-bit and smaller) or by the address / hex key.
import type { Address, Cell } from '@ton/core';
import type { JettonBridgeParams, OracleBridgeParams } from './bridges.ts';
import type { ConfigParam } from './config-params.ts';
import type { NewConsensusConfig } from './new-consensus-config.ts';
import type { ValidatorSet } from './validator-set.ts';
import type { WorkchainDescr } from './workchain-descr.ts';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Config contracts, the elector, bridges, oracles... all live in the masterchain. */
const MASTERCHAIN = -1;

const hex = (b: Buffer): string => b.toString('hex');
const hex256 = (k: bigint): string => k.toString(16).padStart(64, '0');
const mcAddr = (id: Buffer | bigint): string => `${MASTERCHAIN}:${typeof id === 'bigint' ? hex256(id) : hex(id)}`;
const rawAddr = (a: Address): string => `${a.workChain}:${hex(a.hash)}`;
const boc = (c: Cell): string => c.toBoc().toString('base64');

/** Plain conversion of a flat record of numbers, booleans, strings, bigints and buffers. */
function flat(value: object): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'bigint') out[k] = v.toString();
    else if (Buffer.isBuffer(v)) out[k] = hex(v);
    else if (v === null || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') out[k] = v;
    else if (v instanceof Map || Array.isArray(v)) throw new Error(`config JSON: ${k} needs its own converter`);
    else out[k] = flat(v as object);
  }
  return out;
}

function mapJson<K, V>(map: ReadonlyMap<K, V>, key: (k: K) => string, value: (v: V) => Json): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of map) out[key(k)] = value(v);
  return out;
}

function workchainJson(w: WorkchainDescr): JsonObject {
  return flat(w);
}

function validatorSetJson(v: ValidatorSet): JsonObject {
  const { list, ...rest } = v;
  return { ...flat(rest), list: mapJson(list, String, (d) => flat(d)) };
}

function newConsensusJson(c: NewConsensusConfig | null): Json {
  if (c === null) return null;
  if (c.kind === 'simplex_config') return flat(c);
  const { noncriticalParams, ...rest } = c;
  return { ...flat(rest), noncriticalParams: mapJson(noncriticalParams, String, (v) => v) };
}

function oraclesJson(oracles: ReadonlyMap<bigint, Buffer>): JsonObject {
  return mapJson(oracles, mcAddr, hex);
}

function oracleBridgeJson(p: OracleBridgeParams): JsonObject {
  return {
    bridgeAddress: mcAddr(p.bridgeAddress),
    oracleMutlisigAddress: mcAddr(p.oracleMutlisigAddress),
    oracles: oraclesJson(p.oracles),
    externalChainAddress: hex(p.externalChainAddress),
  };
}

function jettonBridgeJson(p: JettonBridgeParams): JsonObject {
  const common: JsonObject = {
    kind: p.kind,
    bridgeAddress: mcAddr(p.bridgeAddress),
    oraclesAddress: mcAddr(p.oraclesAddress),
    oracles: oraclesJson(p.oracles),
    stateFlags: p.stateFlags,
  };
  if (p.kind === 'jetton_bridge_params_v0') return { ...common, burnBridgeFee: p.burnBridgeFee.toString() };
  return { ...common, prices: flat(p.prices), externalChainAddress: hex(p.externalChainAddress) };
}

/** The JSON body of one decoded param (without its raw cell; unknown params give `{ raw: <BoC base64> }`). */
export function configParamToJson(param: ConfigParam): JsonObject {
  switch (param.kind) {
    case 'config_param_0':
      return { configAddr: mcAddr(param.configAddr) };
    case 'config_param_1':
      return { electorAddr: mcAddr(param.electorAddr) };
    case 'config_param_2':
      return { minterAddr: mcAddr(param.minterAddr) };
    case 'config_param_3':
      return { feeCollectorAddr: mcAddr(param.feeCollectorAddr) };
    case 'config_param_4':
      return { dnsRootAddr: mcAddr(param.dnsRootAddr) };
    case 'config_param_5': {
      const c = param.burningConfig;
      const blackholeAddr = c.blackholeAddr === null ? null : mcAddr(c.blackholeAddr);
      return { burningConfig: { blackholeAddr, feeBurnNum: c.feeBurnNum, feeBurnDenom: c.feeBurnDenom } };
    }
    case 'config_param_6':
      return { mintNewPrice: param.mintNewPrice.toString(), mintAddPrice: param.mintAddPrice.toString() };
    case 'config_param_7':
      return { toMint: mapJson(param.toMint, String, (v) => v.toString()) };
    case 'config_param_8':
      return { globalVersion: flat(param.globalVersion) };
    case 'config_param_9':
      return { mandatoryParams: [...param.mandatoryParams] };
    case 'config_param_10':
      return { criticalParams: [...param.criticalParams] };
    case 'config_param_11':
      return { configVotingSetup: flat(param.configVotingSetup) };
    case 'config_param_12':
      return { workchains: mapJson(param.workchains, String, workchainJson) };
    case 'config_param_13':
      return { complaintPricing: flat(param.complaintPricing) };
    case 'config_param_14':
      return { blockCreateFees: flat(param.blockCreateFees) };
    case 'config_param_15':
    case 'config_param_16':
    case 'config_param_17':
    case 'config_param_19': {
      const { kind: _kind, raw: _raw, ...body } = param;
      return flat(body);
    }
    case 'config_param_18':
      return { storagePrices: mapJson(param.storagePrices, String, (p) => flat(p)) };
    case 'config_param_20':
    case 'config_param_21':
      return { gasLimitsPrices: flat(param.gasLimitsPrices) };
    case 'config_param_22':
    case 'config_param_23':
      return { blockLimits: flat(param.blockLimits) };
    case 'config_param_24':
    case 'config_param_25':
      return { msgForwardPrices: flat(param.msgForwardPrices) };
    case 'config_param_28':
      return { catchainConfig: flat(param.catchainConfig) };
    case 'config_param_29':
      return { consensusConfig: flat(param.consensusConfig) };
    case 'config_param_30': {
      const { mc, shard } = param.newConsensusConfigAll;
      return { newConsensusConfigAll: { mc: newConsensusJson(mc), shard: newConsensusJson(shard) } };
    }
    case 'config_param_31':
      return { fundamentalSmcAddr: param.fundamentalSmcAddr.map(mcAddr) };
    case 'config_param_32':
      return { prevValidators: validatorSetJson(param.prevValidators) };
    case 'config_param_33':
      return { prevTempValidators: validatorSetJson(param.prevTempValidators) };
    case 'config_param_34':
      return { curValidators: validatorSetJson(param.curValidators) };
    case 'config_param_35':
      return { curTempValidators: validatorSetJson(param.curTempValidators) };
    case 'config_param_36':
      return { nextValidators: validatorSetJson(param.nextValidators) };
    case 'config_param_37':
      return { nextTempValidators: validatorSetJson(param.nextTempValidators) };
    case 'config_param_40':
      return { misbehaviourPunishmentConfig: flat(param.misbehaviourPunishmentConfig) };
    case 'config_param_43':
      return { sizeLimitsConfig: flat(param.sizeLimitsConfig) };
    case 'config_param_44': {
      const l = param.suspendedAddressList;
      return { suspendedAddressList: { addresses: l.addresses.map(rawAddr), suspendedUntil: l.suspendedUntil } };
    }
    case 'config_param_45':
      return {
        precompiledContractsConfig: { list: mapJson(param.precompiledContractsConfig.list, hex256, (s) => flat(s)) },
      };
    case 'config_param_71':
    case 'config_param_72':
    case 'config_param_73':
      return { oracleBridgeParams: oracleBridgeJson(param.oracleBridgeParams) };
    case 'config_param_79':
    case 'config_param_81':
    case 'config_param_82':
      return { jettonBridgeParams: jettonBridgeJson(param.jettonBridgeParams) };
    case 'config_param_unknown':
      return { raw: boc(param.raw) };
  }
}
