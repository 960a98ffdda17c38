import { beginCell, type Cell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors } from '../../../test/helpers/vectors.ts';
import { CodecError } from '../../common/errors.ts';
import {
  isKnownConfigParamId,
  KNOWN_CONFIG_PARAM_IDS,
  loadConfigParam,
  loadConfigParamFrom,
  loadConfigParams,
  storeConfigParam,
  storeConfigParams,
} from './config-params.ts';
import { type ConfigVector, configVectors } from './test-fixtures.ts';

/**
 * Counts dictionary nodes whose label is not the one the node writes (crypto/vm/dict.cpp,
 * append_dict_label): with k = bit length of the remaining key length n, a constant label of length
 * l > 1 with k < 2l - 1 is hml_same; otherwise hml_long if k < l, else hml_short.
 */
function nonCanonicalLabels(root: Cell, keyBits: number): number {
  let bad = 0;
  const walk = (cell: Cell, n: number): void => {
    const s = cell.beginParse();
    const k = n.toString(2).length;
    let len: number;
    let form: 'short' | 'long' | 'same';
    let constant: boolean;
    if (!s.preloadBit()) {
      s.skip(1);
      form = 'short';
      len = 0;
      while (s.loadBit()) len++;
      constant = isConstant(cell, len + 2, len);
      s.skip(len);
    } else {
      const head = s.loadUint(2);
      if (head === 0b10) {
        form = 'long';
        len = s.loadUint(k);
        constant = isConstant(cell, 2 + k, len);
        s.skip(len);
      } else {
        form = 'same';
        s.skip(1);
        len = s.loadUint(k);
        constant = true;
      }
    }
    const want = constant && len > 1 && k < 2 * len - 1 ? 'same' : k < len ? 'long' : 'short';
    if (form !== want) bad++;
    const rest = n - len;
    if (rest > 0) {
      walk(cell.refs[0]!, rest - 1);
      walk(cell.refs[1]!, rest - 1);
    }
  };
  walk(root, keyBits);
  return bad;
}

function isConstant(cell: Cell, offset: number, len: number): boolean {
  if (len <= 1) return true;
  const first = cell.bits.at(offset);
  for (let i = 1; i < len; i++) if (cell.bits.at(offset + i) !== first) return false;
  return true;
}

const vectors = hasVectors ? configVectors() : [];

/** The param ids of a config dictionary as @ton/core's Dictionary reads them, in numeric order. */
function coreParamIds(dict: Cell): number[] {
  return Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), dict)
    .keys()
    .sort((a, b) => a - b);
}

// Dictionaries whose root is not node-built: all three come from tonkeeper's tools (tongo, opentonapi),
// which re-serialized the dictionary with hml_long labels where the node writes hml_same. Every param
// cell inside is still the chain's own (each re-encodes to its hash above).
const REBUILT_BY_TONGO = [
  'config_dict_mainnet_tongo_tvm',
  'config_dict_testnet_tongo_decoder',
  'config_params_opentonapi_1',
];

describe.skipIf(!hasVectors)('ConfigParams on real chain data', () => {
  it('finds the config dictionary of every config vector and of the liteserver getConfigAll answer', () => {
    expect(vectors.map((v) => v.name).sort()).toEqual([
      'config_dict_mainnet_toncore',
      'config_dict_mainnet_tongo_tvm',
      'config_dict_mainnet_tonutils',
      'config_dict_mainnet_tonutils_replay_2026',
      'config_dict_testnet_tongo_decoder',
      'config_params_opentonapi_1',
      'config_proof_mainnet_33651872',
      'config_proof_mainnet_65466080',
      'config_proof_testnet_4324374',
      'config_state_pruned_toncore',
      'get_config_all_tongo',
    ]);
  });

  describe.each(vectors.map((v) => [v.name, v] as [string, ConfigVector]))('%s', (_name, v) => {
    const params = loadConfigParams(v.dict);
    const broken = (v.data.expected.broken_params as number[] | null | undefined) ?? [];

    it('loads the params the vector lists (else the keys @ton/core reads from the dictionary)', () => {
      const listed = v.data.verification.params as number[] | undefined;
      // @ton/core's own walk of the Hashmap 32 ^Cell, in signed order.
      const core = coreParamIds(v.dict);
      expect(core.length).toBeGreaterThan(0);
      expect([...params.keys()]).toEqual(core);
      if (listed) expect([...params.keys()]).toEqual(listed);
    });

    it('decodes every param block.tlb declares and re-encodes each to the same cell', () => {
      let decoded = 0;
      for (const [id, cell] of params) {
        if (id >= 0) expect(isKnownConfigParamId(id), `param ${id} has no loader`).toBe(true);
        if (broken.includes(id)) continue;
        const p = loadConfigParam(id, cell);
        if (isKnownConfigParamId(id)) {
          expect(p.kind).toBe(`config_param_${id}`);
          decoded++;
        } else {
          expect(p.kind).toBe('config_param_unknown');
        }
        expect(p.raw).toBe(cell);
        expect(storeConfigParam(id, p).hash().toString('hex'), `param ${id}`).toBe(cell.hash().toString('hex'));
      }
      expect(decoded).toBe([...params.keys()].filter((id) => id >= 0).length - broken.length);
    });

    if (REBUILT_BY_TONGO.includes(v.name)) {
      it('differs from the node-built dictionary only in non-canonical labels', () => {
        const rebuilt = storeConfigParams(params);
        expect(nonCanonicalLabels(v.dict, 32)).toBeGreaterThan(0);
        expect(nonCanonicalLabels(rebuilt, 32)).toBe(0);
        expect(rebuilt.hash().equals(v.dict.hash())).toBe(false);
        const again = loadConfigParams(rebuilt);
        expect([...again].map(([id, c]) => [id, c.hash().toString('hex')])).toEqual(
          [...params].map(([id, c]) => [id, c.hash().toString('hex')]),
        );
      });
    } else {
      it('reproduces the dictionary root bit for bit', () => {
        expect(nonCanonicalLabels(v.dict, 32)).toBe(0);
        const root = storeConfigParams(params);
        expect(root.hash().toString('hex')).toBe(v.dict.hash().toString('hex'));
        const asserted = v.data.ids.root_hash as string | undefined;
        if (v.name.startsWith('config_dict_') && asserted) expect(root.hash().toString('hex')).toBe(asserted);
      });
    }

    if (v.provenStateHash) {
      it('takes the dictionary from the masterchain state the Merkle proof proves', () => {
        const want =
          (v.data.ids.state_hash_in_proof as string | undefined) ??
          ((v.data.verification.config_proof as { virtual_root_hash: string }).virtual_root_hash as string);
        expect(v.provenStateHash!.toString('hex')).toBe(want);
      });
    }

    const ver = v.data.verification;
    if (ver.p8_global_version !== undefined) {
      it('matches the global version, addresses and current validator set the vector records', () => {
        const p8 = loadConfigParam(8, params.get(8)!);
        expect(p8.globalVersion.version).toBe(ver.p8_global_version);
        expect(p8.globalVersion.capabilities.toString()).toBe(ver.p8_capabilities);
        expect(loadConfigParam(0, params.get(0)!).configAddr.toString('hex')).toBe(ver.p0_config_addr);
        expect(loadConfigParam(1, params.get(1)!).electorAddr.toString('hex')).toBe(ver.p1_elector_addr);
        const p34 = loadConfigParam(34, params.get(34)!).curValidators;
        expect(p34.kind).toBe(ver.p34_tag === '12' ? 'validators_ext' : 'validators');
        expect(p34.utimeSince).toBe(ver.p34_utime_since);
        expect(p34.utimeUntil).toBe(ver.p34_utime_until);
        expect(p34.total).toBe(ver.p34_total);
        expect(p34.main).toBe(ver.p34_main);
        expect(p34.list.size).toBe(p34.total);
        if (p34.kind === 'validators_ext') {
          const sum = [...p34.list.values()].reduce((a, d) => a + d.weight, 0n);
          expect(sum).toBe(p34.totalWeight);
        }
      });
    }
  });

  it('asserts global_version 13 for the 2026 replay config (tonutils-go replay fixture)', () => {
    const v = vectors.find((x) => x.name === 'config_dict_mainnet_tonutils_replay_2026')!;
    expect(v.data.expected.global_version).toBe(13);
    expect(loadConfigParam(8, loadConfigParams(v.dict).get(8)!).globalVersion.version).toBe(13);
  });

  it('loadConfigParamFrom decodes a param of the map, undefined when the map lacks it', () => {
    const v = vectors.find((x) => x.name === 'config_dict_mainnet_tonutils_replay_2026')!;
    const params = loadConfigParams(v.dict);
    expect(loadConfigParamFrom(params, 8)?.globalVersion.version).toBe(13);
    const without = new Map(params);
    without.delete(8);
    expect(loadConfigParamFrom(without, 8)).toBeUndefined();
  });

  it('rejects testnet param 79 that tongo reports as broken (config_proof_testnet_4324374)', () => {
    const v = vectors.find((x) => x.name === 'config_proof_testnet_4324374')!;
    expect(v.data.expected.broken_params).toEqual([79]);
    const cell = loadConfigParams(v.dict).get(79)!;
    expect(() => loadConfigParam(79, cell)).toThrowError(
      /^ConfigParam 79: JettonBridgeParams: expected tag 0x00 or 0x01, got 0xe9$/,
    );
  });

  it('covers every param id of the brief that the vectors hold', () => {
    const seen = new Set(vectors.flatMap((v) => [...loadConfigParams(v.dict).keys()]));
    const held = KNOWN_CONFIG_PARAM_IDS.filter((id) => seen.has(id));
    // What the vectors record: the union of their verification.params (the collector's walk), and for the
    // one without that list (get_config_all_tongo) the keys @ton/core reads.
    const recorded = new Set(
      vectors.flatMap((v) => (v.data.verification.params as number[] | undefined) ?? coreParamIds(v.dict)),
    );
    expect(vectors.filter((v) => v.data.verification.params === undefined).map((v) => v.name)).toEqual([
      'get_config_all_tongo',
    ]);
    expect(held).toEqual(KNOWN_CONFIG_PARAM_IDS.filter((id) => recorded.has(id)));
    expect(held.length).toBeGreaterThan(30);
    // Every id the vectors hold that is not in the brief is a negative (unknown / custom) one.
    expect([...recorded].filter((id) => !isKnownConfigParamId(id) && id >= 0)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Negative: tampered real param cells must throw CodecError naming the param and its type.

function retag(cell: Cell, bits: number, tag: number): Cell {
  const b = beginCell()
    .storeUint(tag, bits)
    .storeBits(cell.bits.substring(bits, cell.bits.length - bits));
  for (const r of cell.refs) b.storeRef(r);
  return b.endCell();
}

function codecError(fn: () => unknown): CodecError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CodecError);
    return e as CodecError;
  }
  throw new Error('expected a CodecError');
}

describe.skipIf(!hasVectors)('ConfigParam on tampered real cells', () => {
  const params = hasVectors
    ? loadConfigParams(vectors.find((v) => v.name === 'config_proof_mainnet_65466080')!.dict)
    : new Map<number, Cell>();

  // param id -> [tag bits, TL-B type, expected tags as printed]
  const tagged: Array<[number, number, string, string]> = [
    [5, 8, 'BurningConfig', '0x01'],
    [8, 8, 'GlobalVersion', '0xc4'],
    [11, 8, 'ConfigVotingSetup', '0x91'],
    [13, 8, 'ComplaintPricing', '0x1a'],
    [14, 8, 'BlockCreateFees', '0x6b'],
    [20, 8, 'GasLimitsPrices', '0xdd or 0xde or 0xd1'],
    [21, 8, 'GasLimitsPrices', '0xdd or 0xde or 0xd1'],
    [22, 8, 'BlockLimits', '0x5d or 0x5e'],
    [23, 8, 'BlockLimits', '0x5d or 0x5e'],
    [24, 8, 'MsgForwardPrices', '0xea'],
    [25, 8, 'MsgForwardPrices', '0xea'],
    [28, 8, 'CatchainConfig', '0xc1 or 0xc2'],
    [29, 8, 'ConsensusConfig', '0xd6 or 0xd7 or 0xd8 or 0xd9'],
    [30, 8, 'NewConsensusConfigAll', '0x10'],
    [32, 8, 'ValidatorSet', '0x11 or 0x12'],
    [34, 8, 'ValidatorSet', '0x11 or 0x12'],
    [44, 8, 'SuspendedAddressList', '0x00'],
    [45, 8, 'PrecompiledContractsConfig', '0xc0'],
    [79, 8, 'JettonBridgeParams', '0x00 or 0x01'],
  ];

  it.each(tagged)('param %i with a wrong %i-bit tag throws (%s)', (id, bits, type, want) => {
    const e = codecError(() => loadConfigParam(id, retag(params.get(id)!, bits, 0xff)));
    expect(e.message).toBe(`ConfigParam ${id}: ${type}: expected tag ${want}, got 0xff`);
    expect(e.code).toBe('TG_CODEC_INVALID');
    expect(e.details).toEqual({ param: id, type });
  });

  it('a wrong tag deep inside a param names the inner type (param 20: gas_flat_pfx -> other)', () => {
    const cell = params.get(20)!;
    // other:GasLimitsPrices starts after tag(8) + flat_gas_limit(64) + flat_gas_price(64)
    const bits = cell.bits;
    const b = beginCell().storeBits(bits.substring(0, 136)).storeUint(0x33, 8);
    b.storeBits(bits.substring(144, bits.length - 144));
    const e = codecError(() => loadConfigParam(20, b.endCell()));
    expect(e.message).toBe('ConfigParam 20: GasLimitsPrices: expected tag 0xdd or 0xde or 0xd1, got 0x33');
  });

  it('a wrong SigPubKey tag in a validator of param 34 throws', () => {
    const set = loadConfigParam(34, params.get(34)!).curValidators;
    const first = set.list.get(0)!;
    const badDescr = beginCell().storeUint(0x73, 8).storeUint(0x12345678, 32).storeBuffer(first.publicKey);
    badDescr.storeUint(first.weight, 64).storeBuffer(Buffer.alloc(32));
    const leaf = beginCell().storeUint(0x12, 8).storeUint(1, 32).storeUint(2, 32).storeUint(1, 16).storeUint(1, 16);
    leaf.storeUint(first.weight, 64);
    // a HashmapE 16 with one entry (key 0: hml_same label of 16 zero bits) holding the broken descriptor
    const list = beginCell().storeUint(0b11, 2).storeBit(false).storeUint(16, 5).storeBuilder(badDescr).endCell();
    const e = codecError(() => loadConfigParam(34, leaf.storeMaybeRef(list).endCell()));
    expect(e.message).toBe('ConfigParam 34: SigPubKey: expected tag 0x8e81278a, got 0x12345678');
  });

  it('trailing data after a param throws', () => {
    const cell = params.get(15)!;
    const longer = beginCell().storeBits(cell.bits).storeBit(true).endCell();
    expect(codecError(() => loadConfigParam(15, longer)).message).toBe(
      'ConfigParam 15: ConfigParam15: expected end of cell, got 1 bits and 0 refs left',
    );
  });

  it('a truncated param throws CodecError, not a bare underflow', () => {
    const cell = params.get(24)!;
    const short = beginCell().storeBits(cell.bits.substring(0, 100)).endCell();
    const e = codecError(() => loadConfigParam(24, short));
    expect(e.message).toMatch(/^ConfigParam 24: MsgForwardPrices: /);
    expect(e.cause).toBeInstanceOf(Error);
  });

  it('a TL-B constraint break throws (param 16: min_validators >= 1)', () => {
    const bad = beginCell().storeUint(400, 16).storeUint(100, 16).storeUint(0, 16).endCell();
    expect(codecError(() => loadConfigParam(16, bad)).message).toBe(
      'ConfigParam 16: ConfigParam16: constraint min_validators >= 1 violated (got 0)',
    );
  });

  it('a pruned branch in place of a param throws', () => {
    const real = params.get(15)!;
    const pruned = beginCell()
      .storeUint(1, 8)
      .storeUint(1, 8)
      .storeBuffer(real.hash())
      .storeUint(real.depth(), 16)
      .endCell({ exotic: true });
    expect(codecError(() => loadConfigParam(15, pruned)).message).toBe(
      'ConfigParam 15: ConfigParam15: expected an ordinary cell, got an exotic (1) one',
    );
  });

  it('storing a value under another param id throws', () => {
    const p = loadConfigParam(24, params.get(24)!);
    expect(codecError(() => storeConfigParam(25, p)).message).toBe(
      'ConfigParam 25: expected a value of kind config_param_25, got config_param_24',
    );
    const unknown = loadConfigParam(-999, params.get(-999)!);
    expect(codecError(() => storeConfigParam(-71, unknown)).message).toBe(
      'ConfigParam -71: got the raw cell of param -999',
    );
  });

  it('an empty ConfigParams dictionary cannot be stored, and a broken one cannot be loaded', () => {
    expect(codecError(() => storeConfigParams(new Map())).message).toBe(
      'ConfigParams: a Hashmap 32 ^Cell cannot be empty',
    );
    // a leaf (32-bit hml_same label) whose value has data bits besides the ^Cell
    const leaf = beginCell().storeUint(0b11, 2).storeBit(false).storeUint(32, 6).storeBit(true);
    leaf.storeRef(beginCell().endCell());
    expect(codecError(() => loadConfigParams(leaf.endCell())).message).toBe(
      'ConfigParams: ^Cell: expected end of cell, got 1 bits and 0 refs left',
    );
  });
});
