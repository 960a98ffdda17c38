import { beginCell, Cell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector } from '../../../test/helpers/vectors.ts';
import { loadBlockInfo } from '../block/block-info.ts';
import { binTreeLeaves } from '../dict/index.ts';
import {
  loadMcStateExtra,
  loadMcStateExtraR1,
  loadValidatorInfo,
  type McStateExtra,
  type McStateExtraR1,
  mcStateShardHashes,
  storeMcStateExtra,
  storeMcStateExtraR1,
  storeValidatorInfo,
} from './mc-state-extra.ts';
import { isPruned } from './pruned.ts';
import { loadShardStateUnsplit } from './shard-state.ts';
import { cellOf, type RealState, realStates } from './vectors.test-util.ts';

type Json = Record<string, unknown>;

interface McState {
  st: RealState;
  extra: McStateExtra;
  cell: Cell;
}

function mcStates(): McState[] {
  return realStates().flatMap((st) => {
    if (st.block && st.block.workchain !== -1) return [];
    const s = loadShardStateUnsplit(st.cell.beginParse());
    if (s.custom === null) return [];
    if (isPruned(s.custom)) throw new Error(`${st.label}: McStateExtra pruned`);
    return [{ st, extra: s.custom, cell: st.cell.refs[3]! }];
  });
}

function r1Of(m: McState): McStateExtraR1 {
  if (isPruned(m.extra.r1)) throw new Error('r1 pruned');
  return m.extra.r1;
}

describe.skipIf(!hasVectors)('McStateExtra in real masterchain states', () => {
  const states = hasVectors ? mcStates() : [];

  it('finds the masterchain states: 4 config proofs, 2 liteserver proofs, 3 blocks × 2', () => {
    expect(states.length).toBe(12);
  });

  it.each(states.map((m) => [m.st.label, m] as const))('%s re-encodes bit-exactly', (_, m) => {
    const again = cellOf(storeMcStateExtra(loadMcStateExtra(m.cell.beginParse())));
    expect(again.hash().toString('hex')).toBe(m.cell.hash().toString('hex'));
    if (!isPruned(m.extra.r1)) {
      const r1Cell = m.cell.refs[2]!;
      expect(cellOf(storeMcStateExtraR1(loadMcStateExtraR1(r1Cell.beginParse()))).hash()).toEqual(r1Cell.hash());
    }
  });

  it('config proofs: config_addr and the config dictionary are what the source decoded', () => {
    let checked = 0;
    for (const m of states) {
      if (!m.st.label.startsWith('config/config_proof_')) continue;
      const file = m.st.label.slice('config/'.length);
      const vector = realVector(file);
      // tongo ton/testdata/config_<seqno>.json: ConfigParam0 ConfigAddr, ConfigParam1 ElectorAddr, …
      const decodedConfig = (vector.expected as Json).decoded_config as Record<string, Json>;
      expect(m.extra.config.configAddr.toString('hex')).toBe((decodedConfig.ConfigParam0 as Json).ConfigAddr);
      const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), m.extra.config.config);
      const wantKeys = Object.keys(decodedConfig)
        .map((k) => /^ConfigParam(Negative)?(\d+)$/.exec(k))
        .filter((x) => x !== null)
        .map((x) => (x[1] ? -1 : 1) * Number(x[2]));
      for (const k of wantKeys) expect(dict.has(k), `${file} param ${k}`).toBe(true);
      expect(dict.get(0)!.beginParse().loadBuffer(32).toString('hex')).toBe(
        (decodedConfig.ConfigParam0 as Json).ConfigAddr,
      );
      expect(dict.get(1)!.beginParse().loadBuffer(32).toString('hex')).toBe(
        (decodedConfig.ConfigParam1 as Json).ElectorAddr,
      );
      // The collector walked the same dictionary: same key set.
      expect(dict.keys().sort((a, b) => a - b)).toEqual((vector.verification as Json).params);
      checked++;
    }
    expect(checked).toBe(3);
  });

  it('global_balance is the whole supply (not @ton/core’s misread 0), in the currencies config param 7 mints', () => {
    for (const m of states) {
      const gb = m.extra.globalBalance;
      expect(gb.coins, m.st.label).toBeGreaterThan(4_000_000_000n * 1_000_000_000n);
      expect(gb.coins, m.st.label).toBeLessThan(6_000_000_000n * 1_000_000_000n);
    }
    for (const file of ['config_proof_mainnet_33651872.json', 'config_proof_mainnet_65466080.json']) {
      const m = states.find((s) => s.st.label === `config/${file}`)!;
      const toMint = (((realVector(file).expected as Json).decoded_config as Json).ConfigParam7 as Json).ToMint as Json;
      expect([...(m.extra.globalBalance.other?.keys() ?? [])].sort()).toEqual(Object.keys(toMint).map(Number).sort());
    }
  });

  it('the state after a masterchain block names its catchain, previous key block and previous block', () => {
    let checked = 0;
    for (const m of states) {
      if (!m.st.block || m.st.side !== 'new') continue;
      const info = loadBlockInfo(m.st.block.blockRoot.refs[0]!.beginParse());
      const r1 = r1Of(m);
      expect(r1.validatorInfo.catchainSeqno).toBe(info.genCatchainSeqno);
      expect(r1.lastKeyBlock?.seqNo).toBe(info.prevKeyBlockSeqno);
      expect(r1.afterKeyBlock).toBe(info.keyBlock);
      expect(r1.flags).toBe(1);
      expect(r1.blockCreateStats?.kind).toBe('block_create_stats');
      checked++;
    }
    expect(checked).toBe(3);
  });

  it('shard_hashes of the state after a block is the one in that block’s McBlockExtra', () => {
    let checked = 0;
    for (const m of states) {
      if (!m.st.block || m.st.side !== 'new') continue;
      // Block: refs[3] = BlockExtra, whose refs[3] = McBlockExtra (#cca5 key_block:(## 1) shard_hashes …).
      const mcBlockExtra = m.st.block.blockRoot.refs[3]!.refs[3]!.beginParse();
      expect(mcBlockExtra.loadUint(16)).toBe(0xcca5);
      mcBlockExtra.loadBit();
      const blockShardHashes = mcBlockExtra.loadMaybeRef();
      expect(m.extra.shardHashes?.hash(0).toString('hex')).toBe(blockShardHashes?.hash(0).toString('hex'));
      // These blocks carry their whole shard_hashes: one basechain shard, newer than the masterchain's start.
      const shards = mcStateShardHashes(m.extra);
      expect([...shards.keys()]).toEqual([0]);
      const leaves = binTreeLeaves(shards.get(0)!);
      expect(leaves.length).toBe(1);
      expect(leaves[0]!.leaf.seqNo).toBeGreaterThan(0);
      expect(leaves[0]!.leaf.genUtime).toBeLessThanOrEqual(
        loadBlockInfo(m.st.block.blockRoot.refs[0]!.beginParse()).genUtime,
      );
      checked++;
    }
    expect(checked).toBe(3);
  });
});

function realVector(file: string): Json {
  return loadVector<Json>('config', file);
}

describe('McStateExtra negative cases', () => {
  const r1: McStateExtraR1 = {
    flags: 0,
    validatorInfo: { validatorListHashShort: 1, catchainSeqno: 2, nxCcUpdated: true },
    prevBlocks: { root: null, extra: { key: false, maxEndLt: 0n } },
    afterKeyBlock: false,
    lastKeyBlock: null,
    blockCreateStats: null,
  };
  const extra = (): McStateExtra => ({
    shardHashes: null,
    config: { configAddr: Buffer.alloc(32, 0x55), config: beginCell().storeUint(1, 8).endCell() },
    r1,
    globalBalance: { coins: 5n },
  });

  it('round-trips values, including the global balance @ton/core misreads', () => {
    const cell = cellOf(storeMcStateExtra(extra()));
    const back = loadMcStateExtra(cell.beginParse());
    expect(back.globalBalance.coins).toBe(5n);
    expect(back.config.configAddr.toString('hex')).toBe('55'.repeat(32));
    expect(cellOf(storeMcStateExtra(back)).hash()).toEqual(cell.hash());
    expect(
      cellOf(storeValidatorInfo(loadValidatorInfo(cellOf(storeValidatorInfo(r1.validatorInfo)).beginParse()))).bits
        .length,
    ).toBe(65);
  });

  it('throws CodecError naming McStateExtra on a wrong tag', () => {
    const cell = cellOf(storeMcStateExtra(extra()));
    const s = cell.beginParse();
    s.skip(16);
    const tampered = beginCell().storeUint(0xcc27, 16).storeSlice(s).endCell();
    expect(() => loadMcStateExtra(tampered.beginParse())).toThrow(/McStateExtra: expected tag 0xcc26, got 0xcc27/);
  });

  it('rejects flags above 1 and block_create_stats that disagree with flags', () => {
    const bad = cellOf(storeMcStateExtraR1(r1)).beginParse();
    bad.skip(16);
    const flags2 = beginCell().storeUint(2, 16).storeSlice(bad).endCell();
    expect(() => loadMcStateExtraR1(flags2.beginParse())).toThrow(/McStateExtra: expected flags <= 1, got 2/);
    expect(() => storeMcStateExtraR1({ ...r1, flags: 1 })).toThrow(/block_create_stats must be present/);
  });

  it('refuses to decode pruned shard_hashes', () => {
    const pruned = new Cell({
      exotic: true,
      bits: beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(Buffer.alloc(32)).storeUint(0, 16).endCell().bits,
    });
    expect(() => mcStateShardHashes({ ...extra(), shardHashes: pruned })).toThrow(
      /shard_hashes, its root is a pruned branch/,
    );
  });
});
