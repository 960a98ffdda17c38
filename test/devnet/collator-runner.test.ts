// The collator driven by src/tvm's runner gives exactly the blocks it gives when driven by a bare
// @ton/sandbox Executor: collation is deterministic in its inputs, whichever emulator front end runs it.
import { createHash } from 'node:crypto';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChainTops,
  type ChainTvm,
  collateStep,
  createZeroStates,
  uninitAccount,
} from '../../src/devnet/chain/index.ts';
import { createExecutorTvm } from '../../src/devnet/chain/test-support.ts';
import { buildDevnetConfig, deriveGenesisKeys, shardLayout } from '../../src/devnet/genesis/index.ts';
import { createTvmRunner, type TvmRunnerHandle } from '../../src/tvm/index.ts';

const GEN_UTIME = 1_700_000_000;
const keys = deriveGenesisKeys('collator-runner');
const validator = { seed: keys.validator.seed, publicKey: keys.validator.publicKey };
const layout = shardLayout(2);
const wkey = keyPairFromSeed(createHash('sha256').update('collator-runner-wallet').digest());
const wallet = WalletContractV4.create({ workchain: 0, publicKey: wkey.publicKey });

async function run(tvm: ChainTvm): Promise<string[]> {
  const config = buildDevnetConfig({
    validatorPublicKey: keys.validator.publicKey,
    genUtime: GEN_UTIME,
    wcZeroStateRootHash: Buffer.alloc(32),
    wcZeroStateFileHash: Buffer.alloc(32),
  });
  const z = createZeroStates({
    config,
    accounts: [uninitAccount(wallet.address, toNano('100'))],
    masterchainAccounts: [uninitAccount(Address.parse(`-1:${'55'.repeat(32)}`), 1n << 60n)],
    layout,
    genUtime: GEN_UTIME,
    globalId: -217,
    validatorPublicKey: keys.validator.publicKey,
  });
  const body = wallet.createTransfer({
    seqno: 0,
    secretKey: wkey.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    timeout: GEN_UTIME + 10_000,
    messages: [internal({ to: Address.parse(`0:${'22'.repeat(32)}`), value: toNano('1'), bounce: false })],
  });
  const deploy = beginCell()
    .store(storeMessage(external({ to: wallet.address, init: wallet.init, body })))
    .endCell();
  let tops: ChainTops = { mc: z.masterchain, shards: [z.workchain] };
  const ids: string[] = [];
  for (let step = 1; step <= 6; step++) {
    const r = await collateStep(tops, {
      now: GEN_UTIME + 2 * step,
      seed: Buffer.from([step]),
      externals: step === 4 ? [deploy] : [],
      tvm,
      validator,
      layout,
    });
    ids.push(r.mcBlock.id.rootHash.toString('hex'), ...r.shardBlocks.map((b) => b.id.rootHash.toString('hex')));
    tops = r.tops;
  }
  return ids;
}

describe('collation through src/tvm', () => {
  let runner: TvmRunnerHandle;
  beforeAll(async () => {
    runner = await createTvmRunner({ threads: 0 });
  }, 60_000);
  afterAll(async () => {
    await runner.close();
  });

  it('produces the same blocks as a bare Executor', async () => {
    const viaRunner = await run(runner);
    const viaExecutor = await run(await createExecutorTvm());
    expect(viaRunner.length).toBeGreaterThan(10);
    expect(viaRunner).toEqual(viaExecutor);
  }, 120_000);
});
