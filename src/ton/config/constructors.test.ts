// Constructors no vector holds (older or newer than the collected configs). Each reference cell is
// written here field by field from its block.tlb line, independently of the codec, then decoded and
// re-encoded: the values must be the ones written and the cell must come back bit for bit.
import { type Builder, beginCell, type Cell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { CodecError } from '../../common/errors.ts';
import { configParamToJson } from './config-json.ts';
import { type ConfigParam, loadConfigParam, storeConfigParam } from './config-params.ts';

const h = (byte: number): Buffer => Buffer.alloc(32, byte);

function cell(write: (b: Builder) => void): Cell {
  const b = beginCell();
  write(b);
  return b.endCell();
}

function roundTrip(id: number, ref: Cell): ConfigParam {
  const p = loadConfigParam(id, ref);
  expect(storeConfigParam(id, p).equals(ref)).toBe(true);
  return p;
}

describe('config param constructors absent from the vectors', () => {
  it('param 3 (fee_collector_addr) and 6 (mint prices)', () => {
    expect(
      roundTrip(
        3,
        cell((b) => b.storeBuffer(h(7))),
      ),
    ).toMatchObject({ feeCollectorAddr: h(7) });
    const p6 = roundTrip(
      6,
      cell((b) => b.storeCoins(123n).storeCoins(0n)),
    );
    expect(p6).toMatchObject({ mintNewPrice: 123n, mintAddPrice: 0n });
  });

  it('param 5 burning_config#01 without a blackhole address', () => {
    const p = roundTrip(
      5,
      cell((b) => b.storeUint(0x01, 8).storeBit(false).storeUint(1, 32).storeUint(3, 32)),
    );
    expect(p).toMatchObject({ burningConfig: { blackholeAddr: null, feeBurnNum: 1, feeBurnDenom: 3 } });
    expect(configParamToJson(p)).toEqual({ burningConfig: { blackholeAddr: null, feeBurnNum: 1, feeBurnDenom: 3 } });
  });

  it('param 12 workchain#a6 with wfmt_ext#0', () => {
    const descr = (b: Builder) =>
      b
        .storeUint(0xa6, 8)
        .storeUint(1000, 32) // enabled_since
        .storeUint(1, 8) // monitor_min_split
        .storeUint(2, 8) // min_split
        .storeUint(5, 8) // max_split
        .storeUint(0, 1) // basic
        .storeBit(true) // active
        .storeBit(false) // accept_msgs
        .storeUint(0, 13) // flags
        .storeBuffer(h(1))
        .storeBuffer(h(2))
        .storeUint(9, 32) // version
        .storeUint(0x0, 4) // wfmt_ext
        .storeUint(64, 12)
        .storeUint(1023, 12)
        .storeUint(8, 12)
        .storeUint(77, 32);
    const dict = Dictionary.empty(Dictionary.Keys.Int(32), {
      serialize: (_v: null, b: Builder) => descr(b),
      parse: () => null,
    });
    dict.set(7, null);
    const p = roundTrip(
      12,
      cell((b) => b.storeDict(dict)),
    );
    expect(p.kind === 'config_param_12' && p.workchains.get(7)).toEqual({
      kind: 'workchain',
      enabledSince: 1000,
      monitorMinSplit: 1,
      minSplit: 2,
      maxSplit: 5,
      basic: 0,
      active: true,
      acceptMsgs: false,
      flags: 0,
      zerostateRootHash: h(1),
      zerostateFileHash: h(2),
      version: 9,
      format: { kind: 'wfmt_ext', minAddrLen: 64, maxAddrLen: 1023, addrLenStep: 8, workchainTypeId: 77 },
    });
  });

  it('param 20 gas_prices#dd', () => {
    const p = roundTrip(
      20,
      cell((b) => {
        b.storeUint(0xdd, 8);
        for (const v of [1000n, 2n, 3n, 4n, 5n, 6n]) b.storeUint(v, 64);
      }),
    );
    expect(p).toMatchObject({
      gasLimitsPrices: {
        kind: 'gas_prices',
        gasPrice: 1000n,
        gasLimit: 2n,
        gasCredit: 3n,
        blockGasLimit: 4n,
        freezeDueLimit: 5n,
        deleteDueLimit: 6n,
      },
    });
  });

  it('param 23 block_limits_v2#5e', () => {
    const limits = (b: Builder, u: number) =>
      b
        .storeUint(0xc3, 8)
        .storeUint(u, 32)
        .storeUint(u + 1, 32)
        .storeUint(u + 2, 32);
    const ref = cell((b) => {
      b.storeUint(0x5e, 8);
      for (const u of [10, 20, 30, 40]) limits(b, u);
      b.storeUint(0xd3, 8).storeUint(5000, 32).storeUint(60, 32);
    });
    const p = roundTrip(23, ref);
    expect(p).toMatchObject({
      blockLimits: {
        kind: 'block_limits_v2',
        ltDelta: { underload: 30, softLimit: 31, hardLimit: 32 },
        collatedData: { underload: 40, softLimit: 41, hardLimit: 42 },
        importedMsgQueue: { maxBytes: 5000, maxMsgs: 60 },
      },
    });
  });

  it('param 28 catchain_config#c1', () => {
    const p = roundTrip(
      28,
      cell((b) => b.storeUint(0xc1, 8).storeUint(1, 32).storeUint(2, 32).storeUint(3, 32).storeUint(4, 32)),
    );
    expect(p).toMatchObject({
      catchainConfig: {
        kind: 'catchain_config',
        mcCatchainLifetime: 1,
        shardCatchainLifetime: 2,
        shardValidatorsLifetime: 3,
        shardValidatorsNum: 4,
      },
    });
  });

  it('param 29 consensus_config#d6 (32-bit round_candidates) and consensus_config_v3#d8', () => {
    const tail = (b: Builder) => {
      for (let i = 1; i <= 7; i++) b.storeUint(i * 100, 32);
    };
    const v1 = roundTrip(
      29,
      cell((b) => {
        b.storeUint(0xd6, 8).storeUint(3, 32);
        tail(b);
      }),
    );
    expect(v1).toMatchObject({
      consensusConfig: { kind: 'consensus_config', roundCandidates: 3, maxCollatedBytes: 700 },
    });
    const v3 = roundTrip(
      29,
      cell((b) => {
        b.storeUint(0xd8, 8).storeUint(0, 7).storeBit(true).storeUint(2, 8);
        tail(b);
        b.storeUint(4, 16);
      }),
    );
    expect(v3).toMatchObject({
      consensusConfig: { kind: 'consensus_config_v3', newCatchainIds: true, roundCandidates: 2, protoVersion: 4 },
    });
  });

  it('param 30 simplex_config#21 for mc and no shard config', () => {
    const simplex = cell((b) =>
      b
        .storeUint(0x21, 8)
        .storeUint(0, 7)
        .storeBit(true)
        .storeUint(400, 32)
        .storeUint(4, 32)
        .storeUint(1000, 32)
        .storeUint(2, 32),
    );
    const p = roundTrip(
      30,
      cell((b) => b.storeUint(0x10, 8).storeMaybeRef(simplex).storeMaybeRef(null)),
    );
    expect(p).toMatchObject({
      newConsensusConfigAll: {
        mc: {
          kind: 'simplex_config',
          useQuic: true,
          targetRateMs: 400,
          slotsPerLeaderWindow: 4,
          firstBlockTimeoutMs: 1000,
        },
        shard: null,
      },
    });
  });

  it('param 35 validators#11 (non-empty Hashmap inline) with validator#53', () => {
    const descr = (b: Builder, key: number) =>
      b
        .storeUint(0x53, 8)
        .storeUint(0x8e81278a, 32)
        .storeBuffer(h(key))
        .storeUint(key * 10, 64);
    const dict = Dictionary.empty(Dictionary.Keys.Uint(16), {
      serialize: (v: number, b: Builder) => descr(b, v),
      parse: () => 0,
    });
    dict.set(0, 1).set(1, 2);
    const ref = cell((b) => {
      b.storeUint(0x11, 8).storeUint(100, 32).storeUint(200, 32).storeUint(2, 16).storeUint(1, 16);
      dict.storeDirect(b);
    });
    const p = roundTrip(35, ref);
    expect(p.kind === 'config_param_35' && p.curTempValidators).toEqual({
      kind: 'validators',
      utimeSince: 100,
      utimeUntil: 200,
      total: 2,
      main: 1,
      list: new Map([
        [0, { kind: 'validator', publicKey: h(1), weight: 10n }],
        [1, { kind: 'validator', publicKey: h(2), weight: 20n }],
      ]),
    });
  });

  it('param 40 misbehaviour_punishment_config_v1#01', () => {
    const ref = cell((b) => {
      b.storeUint(0x01, 8).storeCoins(101n).storeUint(21, 32);
      for (let i = 1; i <= 9; i++) b.storeUint(i, 16);
    });
    const p = roundTrip(40, ref);
    expect(p).toMatchObject({
      misbehaviourPunishmentConfig: {
        defaultFlatFine: 101n,
        defaultProportionalFine: 21,
        severityFlatMult: 1,
        mediumProportionalMult: 9,
      },
    });
  });

  it('param 43 size_limits_config #01, #02 (no library load limit) and #03', () => {
    const v1 = (b: Builder) =>
      b
        .storeUint(1 << 21, 32)
        .storeUint(1 << 13, 32)
        .storeUint(1000, 32)
        .storeUint(512, 16)
        .storeUint(65535, 32)
        .storeUint(512, 16);
    const v2 = (b: Builder, loads: number | null) => {
      v1(b);
      b.storeUint(1 << 16, 32)
        .storeUint(1 << 11, 32)
        .storeUint(256, 32)
        .storeUint(27, 32)
        .storeUint(2, 32)
        .storeUint(8, 8)
        .storeUint(26, 32);
      b.storeMaybeUint(loads, 32);
    };
    expect(
      roundTrip(
        43,
        cell((b) => v1(b.storeUint(0x01, 8))),
      ),
    ).toMatchObject({
      sizeLimitsConfig: { kind: 'size_limits_config', maxMsgBits: 1 << 21, maxExtMsgDepth: 512 },
    });
    expect(
      roundTrip(
        43,
        cell((b) => v2(b.storeUint(0x02, 8), null)),
      ),
    ).toMatchObject({
      sizeLimitsConfig: { kind: 'size_limits_config_v2', maxAccFixedPrefixLength: 8, maxTransactionLibraryLoads: null },
    });
    const p3 = roundTrip(
      43,
      cell((b) => {
        v2(b.storeUint(0x03, 8), 5);
        b.storeUint(1 << 22, 32).storeUint(1 << 14, 32);
      }),
    );
    expect(p3).toMatchObject({
      sizeLimitsConfig: { kind: 'size_limits_config_v3', maxTransactionLibraryLoads: 5, maxTotalMsgCells: 1 << 14 },
    });
  });

  it('params 73 (oracle bridge) and 81/82 jetton_bridge_params_v0#00', () => {
    const oracles = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Buffer(32));
    oracles.set(5n, h(9));
    const p73 = roundTrip(
      73,
      cell((b) => b.storeBuffer(h(1)).storeBuffer(h(2)).storeDict(oracles).storeBuffer(h(3))),
    );
    expect(p73).toMatchObject({ oracleBridgeParams: { bridgeAddress: h(1), oracles: new Map([[5n, h(9)]]) } });
    for (const id of [81, 82]) {
      const p = roundTrip(
        id,
        cell((b) =>
          b.storeUint(0x00, 8).storeBuffer(h(4)).storeBuffer(h(5)).storeDict(null).storeUint(1, 8).storeCoins(7n),
        ),
      );
      expect(p).toMatchObject({
        jettonBridgeParams: { kind: 'jetton_bridge_params_v0', oracles: new Map(), stateFlags: 1, burnBridgeFee: 7n },
      });
      expect(configParamToJson(p)).toEqual({
        jettonBridgeParams: {
          kind: 'jetton_bridge_params_v0',
          bridgeAddress: `-1:${h(4).toString('hex')}`,
          oraclesAddress: `-1:${h(5).toString('hex')}`,
          oracles: {},
          stateFlags: 1,
          burnBridgeFee: '7',
        },
      });
    }
  });

  it('an unknown param id comes back raw and stores as the same cell', () => {
    const raw = cell((b) => b.storeUint(42, 8));
    const p = roundTrip(39, raw);
    expect(p).toEqual({ kind: 'config_param_unknown', id: 39, raw });
    expect(configParamToJson(p)).toEqual({ raw: raw.toBoc().toString('base64') });
  });

  it('refuses to store a workchain whose basic bit contradicts its format', () => {
    const p = loadConfigParam(
      12,
      cell((b) => b.storeDict(null)),
    );
    expect(p.kind).toBe('config_param_12');
    if (p.kind !== 'config_param_12') return;
    p.workchains.set(0, {
      kind: 'workchain',
      enabledSince: 0,
      monitorMinSplit: 0,
      minSplit: 0,
      maxSplit: 0,
      basic: 1,
      active: true,
      acceptMsgs: true,
      flags: 0,
      zerostateRootHash: h(0),
      zerostateFileHash: h(0),
      version: 0,
      format: { kind: 'wfmt_ext', minAddrLen: 64, maxAddrLen: 64, addrLenStep: 0, workchainTypeId: 1 },
    });
    expect(() => storeConfigParam(12, p)).toThrow(CodecError);
    expect(() => storeConfigParam(12, p)).toThrow('WorkchainDescr: basic=1 does not match format wfmt_ext');
  });
});
