import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors } from '../../../test/helpers/vectors.ts';
import { configParamToJson, type Json } from './config-json.ts';
import { loadConfigParam, loadConfigParams } from './config-params.ts';
import { type ConfigVector, configVectors } from './test-fixtures.ts';

type Obj = { [k: string]: unknown };

const vectors = hasVectors ? configVectors() : [];
const byName = (name: string): ConfigVector => vectors.find((v) => v.name === name)!;

function jsonOf(v: ConfigVector, id: number): Obj {
  const cell = loadConfigParams(v.dict).get(id);
  if (!cell) throw new Error(`${v.name} has no param ${id}`);
  return configParamToJson(loadConfigParam(id, cell)) as Obj;
}

function scalarEq(ours: unknown, theirs: unknown, path: string): void {
  // Both sources print some uint64 fields as JSON numbers; beyond 2^53 only the float value survives.
  if (typeof theirs === 'number' && !Number.isSafeInteger(theirs)) {
    expect(Number(ours), path).toBe(theirs);
  } else {
    expect(String(ours), path).toBe(String(theirs));
  }
}

// ---------------------------------------------------------------------------------------------
// opentonapi: GET /v2/blockchain/config as converted from the same BoC (pkg/api/testdata/config-params-1.json)

const camel = (snake: string): string => snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** Field names that opentonapi spells differently from block.tlb. */
const OPENTONAPI_RENAMES: Record<string, string> = {
  fee_burn_nom: 'feeBurnNum',
  actual_min_split: 'monitorMinSplit',
  bridge_addr: 'bridgeAddress',
  oracle_multisig_address: 'oracleMutlisigAddress',
  wallet_min_gram_for_storage: 'walletMinTonsForStorage',
  minter_min_gram_for_storage: 'minterMinTonsForStorage',
};

/** Every field opentonapi gives must be ours, under the TL-B name, with the same value. */
function expectLike(ours: unknown, theirs: unknown, path: string): void {
  if (theirs !== null && typeof theirs === 'object' && !Array.isArray(theirs)) {
    expect(ours, path).toBeTypeOf('object');
    for (const [k, tv] of Object.entries(theirs)) {
      const key = OPENTONAPI_RENAMES[k] ?? camel(k);
      expect(Object.hasOwn(ours as Obj, key), `${path}.${key}`).toBe(true);
      expectLike((ours as Obj)[key], tv, `${path}.${key}`);
    }
  } else {
    scalarEq(ours, theirs, path);
  }
}

/** gas_flat_pfx + its inner constructor, flattened the way opentonapi prints them. */
function flattenGas(g: Obj): Obj {
  const { kind: _k, other, ...rest } = g;
  return other ? { ...rest, ...flattenGas(other as Obj) } : rest;
}

function oraclesOf(list: Array<{ address: string; secp_pubkey: string }>): Obj {
  return Object.fromEntries(list.map((o) => [o.address, o.secp_pubkey]));
}

describe.skipIf(!hasVectors)('configParamToJson against opentonapi (config_params_opentonapi_1)', () => {
  const v = byName('config_params_opentonapi_1');
  const expected = (v?.data.expected.converted_json ?? {}) as Record<string, Obj & string>;
  const checked = new Set<string>(['raw']); // opentonapi's raw BoC echo, empty in the fixture

  const check = (id: number, fn: (ours: Obj, theirs: Obj & string & unknown[]) => void) => {
    checked.add(String(id));
    it(`param ${id}`, () => fn(jsonOf(v, id), expected[String(id)] as Obj & string & unknown[]));
  };

  check(0, (o, t) => expect(o.configAddr).toBe(t));
  check(1, (o, t) => expect(o.electorAddr).toBe(t));
  check(2, (o, t) => expect(o.minterAddr).toBe(t));
  check(4, (o, t) => expect(o.dnsRootAddr).toBe(t));
  check(5, (o, t) => expectLike(o.burningConfig, t, 'p5'));
  check(7, (o, t) => {
    const list = (t as unknown as { currencies: Array<{ currency_id: number; amount: string }> }).currencies;
    expect(o.toMint).toEqual(Object.fromEntries(list.map((c) => [String(c.currency_id), c.amount])));
  });
  check(8, (o, t) => expectLike(o.globalVersion, t, 'p8'));
  check(9, (o, t) => expect(o.mandatoryParams).toEqual([...(t.mandatory_params as number[])].sort((a, b) => a - b)));
  check(10, (o, t) => expect(o.criticalParams).toEqual([...(t.critical_params as number[])].sort((a, b) => a - b)));
  check(11, (o, t) => expectLike(o.configVotingSetup, t, 'p11'));
  check(12, (o, t) => {
    const list = t.workchains as Array<Obj & { workchain: number }>;
    const ours = o.workchains as Obj;
    expect(Object.keys(ours)).toEqual(list.map((w) => String(w.workchain)));
    for (const { workchain, ...w } of list) expectLike(ours[String(workchain)], w, `p12.${workchain}`);
  });
  check(14, (o, t) => expectLike(o.blockCreateFees, t, 'p14'));
  check(15, (o, t) => expectLike(o, t, 'p15'));
  check(16, (o, t) => expectLike(o, t, 'p16'));
  check(17, (o, t) => expectLike(o, t, 'p17'));
  check(18, (o, t) => {
    const ours = Object.values(o.storagePrices as Obj);
    const theirs = t.storage_prices as Obj[];
    expect(ours).toHaveLength(theirs.length);
    for (const [i, p] of theirs.entries()) expectLike(ours[i], p, `p18[${i}]`);
  });
  for (const id of [20, 21]) {
    check(id, (o, t) => {
      expect((o.gasLimitsPrices as Obj).kind).toBe('gas_flat_pfx');
      expectLike(flattenGas(o.gasLimitsPrices as Obj), t.gas_limits_prices, `p${id}`);
    });
  }
  for (const id of [22, 23]) check(id, (o, t) => expectLike(o.blockLimits, t.block_limits, `p${id}`));
  for (const id of [24, 25]) check(id, (o, t) => expectLike(o.msgForwardPrices, t.msg_forward_prices, `p${id}`));
  check(28, (o, t) => expectLike(o.catchainConfig, t, 'p28'));
  check(29, (o, t) => expectLike(o.consensusConfig, t, 'p29'));
  check(31, (o, t) => expect(o.fundamentalSmcAddr).toEqual(t.fundamental_smc_addr));
  for (const [id, field] of [
    [32, 'prevValidators'],
    [34, 'curValidators'],
  ] as const) {
    check(id, (o, t) => {
      const { list, ...head } = t as Obj;
      const set = o[field] as Obj;
      expectLike(set, head, `p${id}`);
      const ours = Object.values(set.list as Obj);
      const theirs = list as Obj[];
      expect(ours).toHaveLength(theirs.length);
      expect(ours).toHaveLength(Number(set.total));
      for (const [i, d] of theirs.entries()) expectLike(ours[i], d, `p${id}.list[${i}]`);
    });
  }
  check(44, (o, t) => {
    const l = o.suspendedAddressList as { addresses: string[]; suspendedUntil: number };
    expect([...l.addresses].sort()).toEqual([...(t.accounts as string[])].sort());
    expect(l.suspendedUntil).toBe(t.suspended_until);
  });
  for (const id of [71, 72]) {
    check(id, (o, t) => {
      const { oracles, ...rest } = t.oracle_bridge_params as Obj;
      const ours = o.oracleBridgeParams as Obj;
      expectLike(ours, rest, `p${id}`);
      expect(ours.oracles).toEqual(oraclesOf(oracles as Array<{ address: string; secp_pubkey: string }>));
    });
  }
  check(79, (o, t) => {
    const { oracles, ...rest } = t.jetton_bridge_params as Obj;
    const ours = o.jettonBridgeParams as Obj;
    expect(ours.kind).toBe('jetton_bridge_params_v1');
    expectLike(ours, rest, 'p79');
    expect(ours.oracles).toEqual(oraclesOf(oracles as Array<{ address: string; secp_pubkey: string }>));
  });

  it('checks every param opentonapi converted', () => {
    expect(Object.keys(expected).sort()).toEqual([...checked].sort());
  });
});

// ---------------------------------------------------------------------------------------------
// tongo: ton/config_test.go TestConvertBlockchainConfig decodes the same proofs (ton/testdata/config_*.json)

const TONGO_RENAMES: Record<string, string> = {
  ActualMinSplit: 'monitorMinSplit',
  FeeBurnNom: 'feeBurnNum',
  Value: 'storagePrices', // the anonymous Hashmap of param 18
};

/** tongo names WorkchainFormat's constructors by their type parameter. */
const TONGO_KINDS: Record<string, string> = { WorkchainFormat1: 'wfmt_basic', WorkchainFormat0: 'wfmt_ext' };

const snake = (pascal: string): string =>
  pascal
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([a-z])(V\d)/g, '$1_$2')
    .toLowerCase();

/** Fields newer than tongo's schema snapshot; present on our side only. */
const NEWER_FIELDS = new Set(['kind', 'useQuic', 'protocolVersion']);

/** tongo JSON -> our JSON shape: sum types become `kind`, Magic goes, names become camelCase. */
function fromTongo(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  const o = v as Obj;
  if (typeof o.SumType === 'string') {
    return { kind: TONGO_KINDS[o.SumType] ?? snake(o.SumType), ...(fromTongo(o[o.SumType]) as Obj) };
  }
  const keys = Object.keys(o).filter((k) => k !== 'Magic');
  if (keys.length === 1 && keys[0] === 'PubKey') return o.PubKey; // SigPubKey
  const out: Obj = {};
  for (const k of keys) {
    const key = TONGO_RENAMES[k] ?? (/^[A-Z]/.test(k) ? k[0]!.toLowerCase() + k.slice(1) : k);
    out[key] = fromTongo(o[k]);
  }
  return out;
}

/** tongo prints masterchain account ids as bare hex; we print `-1:<hex>`. */
const mc = (s: string): string => s.replace(/^-1:/, '');

function expectTongo(ours: unknown, theirs: unknown, path: string): void {
  if (theirs !== null && typeof theirs === 'object') {
    const t = theirs as Obj;
    const tKeys = Object.keys(t);
    if (Array.isArray(ours)) {
      // a set (HashmapE n True / Unit): tongo gives { key: {} }
      expect(Object.values(t).every((x) => x !== null && typeof x === 'object' && Object.keys(x).length === 0)).toBe(
        true,
      );
      const norm = (k: string | number) => (typeof k === 'number' ? String(k) : mc(k));
      // param ids are int32; tongo prints them unsigned
      const theirKeys = tKeys.map((k) => (typeof ours[0] === 'number' ? String(Number(k) | 0) : mc(k)));
      expect(ours.map(norm).sort(), path).toEqual(theirKeys.sort());
      return;
    }
    expect(ours, path).toBeTypeOf('object');
    const o = Object.fromEntries(Object.entries(ours as Obj).map(([k, x]) => [mc(k), x]));
    const extra = Object.keys(o).filter((k) => !tKeys.map(mc).includes(k) && !NEWER_FIELDS.has(k));
    expect(extra, `${path}: fields tongo does not have`).toEqual([]);
    for (const k of tKeys) {
      expect(Object.hasOwn(o, mc(k)), `${path}.${k}`).toBe(true);
      expectTongo(o[mc(k)], t[k], `${path}.${k}`);
    }
  } else if (typeof theirs === 'string' && typeof ours === 'string') {
    expect(mc(ours), path).toBe(theirs);
  } else {
    scalarEq(ours, theirs, path);
  }
}

const TONGO_VECTORS = [
  'config_proof_mainnet_33651872',
  'config_proof_mainnet_65466080',
  'config_proof_testnet_4324374',
];

describe.skipIf(!hasVectors).each(TONGO_VECTORS)('configParamToJson against tongo (%s)', (name) => {
  const v = byName(name);
  const decoded = (v?.data.expected.decoded_config ?? {}) as Obj;
  const params = v ? loadConfigParams(v.dict) : new Map<number, Cell>();

  for (const [key, value] of Object.entries(decoded)) {
    const neg = /^ConfigParamNegative(\d+)$/.exec(key);
    const id = neg ? -Number(neg[1]) : Number(key.replace('ConfigParam', ''));
    it(key, () => {
      const cell = params.get(id);
      expect(cell, `${name} holds param ${id}`).toBeDefined();
      if (neg) {
        // tongo keeps params without TL-B as BoC hex, as we do (raw cell)
        const p = loadConfigParam(id, cell!);
        expect(p.kind).toBe('config_param_unknown');
        expect(
          Cell.fromBoc(Buffer.from(value as string, 'hex'))[0]!
            .hash()
            .equals(p.raw.hash()),
        ).toBe(true);
        return;
      }
      expectTongo(configParamToJson(loadConfigParam(id, cell!)) as Json, fromTongo(value), key);
    });
  }

  it('decodes every param tongo decodes; only the one tongo calls broken fails', () => {
    const broken = (v.data.expected.broken_params as number[] | null) ?? [];
    const tongoIds = Object.keys(decoded)
      .filter((k) => !k.startsWith('ConfigParamNegative'))
      .map((k) => Number(k.replace('ConfigParam', '')));
    const ours = [...params.keys()].filter((id) => id >= 0 && !broken.includes(id));
    // tongo's BlockchainConfig has no field for param 19 (global_id); we decode it too
    expect(ours.filter((id) => id !== 19)).toEqual(tongoIds.sort((a, b) => a - b));
  });
});
