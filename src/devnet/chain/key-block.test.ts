// A config change makes a key block: McBlockExtra carries the new config, the state is a key state, the catchain
// seqnos move on, and later blocks point at it (prev_key_block_seqno, last_key_block, prev_blocks' key flag).
import { Address, type Cell, toNano } from '@ton/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { listShards, loadBlockCell, loadShardStateUnsplit, oldMcBlocksInfoEntries } from '../../ton/index.ts';
import { buildDevnetConfig, deriveGenesisKeys, shardLayout } from '../genesis/index.ts';
import { checkBlock, checkMcBlock } from './chain-check.test-util.ts';
import { readChainConfig, withConfigParam } from './config-view.ts';
import { type ChainTops, collateStep, type StepResult } from './step.ts';
import { createExecutorTvm } from './test-support.ts';
import { createZeroStates, uninitAccount } from './zero-state.ts';

const GEN_UTIME = 1_700_000_000;
const keys = deriveGenesisKeys('key-block-test');
const validator = { seed: keys.validator.seed, publicKey: keys.validator.publicKey };
const layout = shardLayout(1);
const steps: StepResult[] = [];
let newConfig: Cell;

beforeAll(async () => {
  const config = buildDevnetConfig({
    validatorPublicKey: keys.validator.publicKey,
    genUtime: GEN_UTIME,
    wcZeroStateRootHash: Buffer.alloc(32),
    wcZeroStateFileHash: Buffer.alloc(32),
  });
  const z = createZeroStates({
    config,
    accounts: [uninitAccount(Address.parse(`0:${'33'.repeat(32)}`), toNano('10'))],
    masterchainAccounts: [uninitAccount(Address.parse(`-1:${'55'.repeat(32)}`), 1n << 60n)],
    layout,
    genUtime: GEN_UTIME,
    globalId: -217,
    validatorPublicKey: keys.validator.publicKey,
  });
  newConfig = withConfigParam(z.config, 14, {
    kind: 'config_param_14',
    raw: z.config,
    blockCreateFees: { masterchainBlockFee: 2_000_000_000n, basechainBlockFee: 500_000_000n },
  });
  const tvm = await createExecutorTvm();
  let tops: ChainTops = { mc: z.masterchain, shards: [z.workchain] };
  for (let step = 1; step <= 4; step++) {
    const r = await collateStep(tops, {
      now: GEN_UTIME + 2 * step,
      seed: Buffer.from([step]),
      tvm,
      validator,
      layout,
      newConfig: step === 2 ? newConfig : undefined,
    });
    checkBlock(r.mcBlock, { prev: tops.mc });
    for (const b of r.shardBlocks) checkBlock(b, { prev: tops.shards[0] as never, mcRef: tops.mc });
    checkMcBlock(r.mcBlock, r.tops.shards, validator.publicKey);
    steps.push(r);
    tops = r.tops;
  }
}, 120_000);

describe('a key block', () => {
  it('carries the new config in McBlockExtra and installs it in the state', () => {
    const key = steps[1]?.mcBlock;
    expect(key?.keyBlock).toBe(true);
    const blk = loadBlockCell(key?.block as Cell);
    expect(blk.info.keyBlock).toBe(true);
    expect(blk.extra.custom?.keyBlock).toBe(true);
    expect(blk.extra.custom?.config?.config.hash().equals(newConfig.hash())).toBe(true);
    const st = loadShardStateUnsplit(must(key).state.beginParse());
    const extra = st.custom as {
      config: { config: Cell };
      r1: { afterKeyBlock: boolean; validatorInfo: { catchainSeqno: number } };
    };
    expect(extra.config.config.hash().equals(newConfig.hash())).toBe(true);
    expect(extra.r1.afterKeyBlock).toBe(true);
    expect(extra.r1.validatorInfo.catchainSeqno).toBe(1);
    // The shards' validator groups move on too.
    expect(listShards(blk.extra.custom?.shardHashes ?? new Map())[0]?.descr.nextCatchainSeqno).toBe(1);
    expect(readChainConfig(newConfig).basechainBlockFee).toBe(500_000_000n);
    for (const s of [steps[0], steps[2], steps[3]]) expect(s?.mcBlock.keyBlock).toBe(false);
  });

  it('is the previous key block of the blocks after it', () => {
    const key = steps[1]?.mcBlock;
    const next = steps[2]?.mcBlock;
    expect(loadBlockCell(next?.block as Cell).info.prevKeyBlockSeqno).toBe(key?.id.seqno);
    expect(loadBlockCell(key?.block as Cell).info.prevKeyBlockSeqno).toBe(0);
    for (const b of steps[2]?.shardBlocks ?? [])
      expect(loadBlockCell(b.block).info.prevKeyBlockSeqno).toBe(key?.id.seqno);
    const st = loadShardStateUnsplit(must(steps[3]).mcBlock.state.beginParse());
    const r1 = (
      st.custom as unknown as { r1: { lastKeyBlock: { seqNo: number; rootHash: Buffer } | null; prevBlocks: never } }
    ).r1;
    expect(r1.lastKeyBlock?.seqNo).toBe(key?.id.seqno);
    expect(r1.lastKeyBlock?.rootHash.equals(key?.id.rootHash as Buffer)).toBe(true);
    const flags = oldMcBlocksInfoEntries(r1.prevBlocks).entries.map((e) => [Number(e.key), e.value.key]);
    expect(flags).toEqual([
      [0, true],
      [1, false],
      [2, true],
      [3, false],
    ]);
  });

  it('uses the new config from the next block on (block creation fee of ConfigParam 14)', () => {
    const before = steps[1]?.mcBlock.valueFlow.created.coins;
    const after = steps[2]?.mcBlock.valueFlow.created.coins;
    expect(before).toBe(readChainConfig(loadMcConfig(must(steps[0]).mcBlock.state)).masterchainBlockFee);
    expect(after).toBe(2_000_000_000n);
  });
});

function loadMcConfig(state: Cell): Cell {
  return (loadShardStateUnsplit(state.beginParse()).custom as { config: { config: Cell } }).config.config;
}

function must<T>(v: T | undefined): T {
  if (v === undefined) throw new Error('missing step');
  return v;
}
