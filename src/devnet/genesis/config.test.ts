import { Cell } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { defaultConfig } from '@ton/sandbox';
import { configParse12, configParse28, configParseValidatorSet, loadConfigParamsAsSlice } from '@ton/ton';
import { describe, expect, it } from 'vitest';
import { loadConfigParam, loadConfigParams, nodeIdShort, storeConfigParam } from '../../ton/index.ts';
import { buildDevnetConfig, DEVNET_REMOVED_PARAMS, type DevnetConfigArgs } from './config.ts';
import { deriveGenesisKeys } from './keys.ts';

const GEN_UTIME = 1_760_000_000;
const args: DevnetConfigArgs = {
  validatorPublicKey: deriveGenesisKeys('config-seed').validator.publicKey,
  genUtime: GEN_UTIME,
  wcZeroStateRootHash: sha256_sync('root'),
  wcZeroStateFileHash: sha256_sync('file'),
};
const CHANGED = new Set([12, 19, 28, 34]);

describe('buildDevnetConfig', () => {
  const config = buildDevnetConfig(args);
  const params = loadConfigParams(config);
  const base = loadConfigParams(Cell.fromBase64(defaultConfig));

  it('sets param 34 to our single validator (checked with our codec and with @ton/ton)', () => {
    const p34 = loadConfigParam(34, params.get(34)!);
    expect(p34.curValidators).toMatchObject({
      kind: 'validators_ext',
      utimeSince: GEN_UTIME,
      total: 1,
      main: 1,
      totalWeight: 1n << 60n,
    });
    expect(p34.curValidators.utimeUntil).toBeGreaterThan(GEN_UTIME + 10 * 365 * 86_400);
    expect([...p34.curValidators.list.keys()]).toEqual([0]);
    const v = p34.curValidators.list.get(0)!;
    expect(v.publicKey.equals(args.validatorPublicKey)).toBe(true);
    expect(v.weight).toBe(1n << 60n);

    const ton = configParseValidatorSet(params.get(34)!.beginParse())!;
    expect([ton.timeSince, ton.total, ton.main, ton.totalWeight]).toEqual([GEN_UTIME, 1, 1, 1n << 60n]);
    const entry = ton.list.get(0)!;
    expect(entry.publicKey.equals(args.validatorPublicKey)).toBe(true);
    expect(entry.adnlAddress?.equals(nodeIdShort(args.validatorPublicKey))).toBe(true);
  });

  it('sets param 12 to the basechain with our zero state', () => {
    const wcs = loadConfigParam(12, params.get(12)!).workchains;
    expect([...wcs.keys()]).toEqual([0]);
    const wc = wcs.get(0)!;
    expect(wc).toMatchObject({ enabledSince: GEN_UTIME, active: true, acceptMsgs: true, flags: 0, basic: 1 });
    expect(wc.zerostateRootHash.equals(args.wcZeroStateRootHash)).toBe(true);
    expect(wc.zerostateFileHash.equals(args.wcZeroStateFileHash)).toBe(true);
    expect(wc.maxSplit).toBeGreaterThanOrEqual(4); // room for --shards 16

    const ton = configParse12(params.get(12)!.beginParse()).get(0)!;
    expect(ton.zerostateRootHash.equals(args.wcZeroStateRootHash)).toBe(true);
    expect([ton.active, ton.accept_msgs, ton.enabledSince]).toEqual([true, true, GEN_UTIME]);
  });

  it('sets param 28 for one validator and param 19 to the devnet global id', () => {
    const cc = loadConfigParam(28, params.get(28)!).catchainConfig;
    expect(cc).toMatchObject({
      kind: 'catchain_config_new',
      flags: 0,
      shuffleMcValidators: false,
      shardValidatorsNum: 1,
    });
    expect(configParse28(params.get(28)!.beginParse())).toMatchObject({
      shardValidatorsCount: 1,
      suffleMasterValidators: false,
    });
    expect(params.get(19)!.beginParse().loadInt(32)).toBe(-217);
    expect(loadConfigParam(19, params.get(19)!).globalId).toBe(-217);
  });

  it('drops the other validator sets and keeps every other base param cell as it was', () => {
    for (const id of DEVNET_REMOVED_PARAMS) expect(params.has(id)).toBe(false);
    for (const [id, cell] of base) {
      if (CHANGED.has(id) || DEVNET_REMOVED_PARAMS.includes(id)) continue;
      expect(params.get(id)?.equals(cell), `param ${id}`).toBe(true);
    }
    expect([...params.keys()].filter((id) => !base.has(id))).toEqual([]);
    // 0 and 1 (config and elector addresses) come from the base.
    expect(params.get(0)!.equals(base.get(0)!)).toBe(true);
    expect(params.get(1)!.equals(base.get(1)!)).toBe(true);
  });

  it('re-encodes every param bit-exactly with our codec, and @ton/ton reads the dictionary', () => {
    for (const [id, cell] of params) {
      expect(storeConfigParam(id, loadConfigParam(id, cell)).equals(cell), `param ${id}`).toBe(true);
    }
    const slices = loadConfigParamsAsSlice(config.toBoc().toString('base64'));
    expect([...slices.keys()].sort((a, b) => a - b)).toEqual([...params.keys()].sort((a, b) => a - b));
  });

  it('is deterministic, and depends on its inputs', () => {
    expect(buildDevnetConfig(args).equals(config)).toBe(true);
    const other = buildDevnetConfig({ ...args, validatorPublicKey: deriveGenesisKeys('other').validator.publicKey });
    expect(other.equals(config)).toBe(false);
  });

  it('overrides only the version of param 8 when asked', () => {
    const baseGv = loadConfigParam(8, base.get(8)!).globalVersion;
    expect(loadConfigParam(8, params.get(8)!).globalVersion).toEqual(baseGv);
    const c = loadConfigParams(buildDevnetConfig({ ...args, globalVersion: 11 }));
    expect(loadConfigParam(8, c.get(8)!).globalVersion).toEqual({ version: 11, capabilities: baseGv.capabilities });
  });

  it('refuses malformed inputs', () => {
    expect(() => buildDevnetConfig({ ...args, wcZeroStateRootHash: Buffer.alloc(31) })).toThrow(/32 bytes/);
    expect(() => buildDevnetConfig({ ...args, genUtime: -1 })).toThrow(/uint32/);
  });
});
