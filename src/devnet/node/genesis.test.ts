// The node's genesis: the emulator runs transactions under the devnet's global version 13 exactly as under the base
// config's 12; the genesis is a function of its inputs; ton-lite-client's parser (@ton/core) reads the masterchain
// zero state's config when global_balance (the sum of what genesis funded) is in [2^56, 2^62).
import { Address, type Cell, internal, loadMasterchainStateExtra, SendMode, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigParams } from '../../ton/index.ts';
import { createTvmRunner, type TvmRunnerHandle } from '../../tvm/index.ts';
import { uninitAccount, viewMc } from '../chain/index.ts';
import { buildDevnetConfig, DEVNET_WALLET_BALANCE, deriveGenesisKeys, deriveWallets } from '../genesis/index.ts';
import {
  createDevnetGenesis,
  DEVNET_GLOBAL_VERSION,
  DEVNET_RESERVE_BALANCE,
  reserveAddress,
  walletDeployMessage,
} from './genesis.ts';
import { walletTransferMessage } from './wallet-messages.ts';

const GEN_UTIME = 1_700_000_000;

describe('devnet genesis', () => {
  let tvm: TvmRunnerHandle;
  beforeAll(async () => {
    tvm = await createTvmRunner({ threads: 0 });
  });
  afterAll(async () => {
    await tvm.close();
  });

  it('the emulator runs wallet deploys and transfers under version 13 exactly as under the base 12', async () => {
    expect(DEVNET_GLOBAL_VERSION).toBe(13);
    const keys = deriveGenesisKeys('genesis-test');
    const wallets = await deriveWallets('genesis-test');
    const base = { validatorPublicKey: keys.validator.publicKey, genUtime: GEN_UTIME };
    const zeros = { wcZeroStateRootHash: Buffer.alloc(32), wcZeroStateFileHash: Buffer.alloc(32) };
    const v12 = buildDevnetConfig({ ...base, ...zeros });
    const v13 = buildDevnetConfig({ ...base, ...zeros, globalVersion: 13 });
    expect(v12.equals(v13)).toBe(false);
    const to = new Address(0, Buffer.alloc(32, 7));
    for (const w of wallets) {
      const run = async (config: typeof v12) => {
        const deploy = await tvm.runTransaction({
          shardAccount: uninitAccount(w.address, toNano('10')),
          message: walletTransferMessage(w, { seqno: 0, messages: [], validUntil: 0xffffffff, deploy: true }),
          now: GEN_UTIME + 10,
          lt: 2_000_000n,
          randomSeed: Buffer.alloc(32, 1),
          config,
          libs: null,
        });
        if (!deploy.ok) throw new Error(`${w.version} deploy refused: ${deploy.error}`);
        const transfer = await tvm.runTransaction({
          shardAccount: deploy.shardAccount,
          message: walletTransferMessage(w, {
            seqno: 1,
            messages: [internal({ to, value: toNano('1'), bounce: false })],
            validUntil: GEN_UTIME + 100,
            deploy: false,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
          }),
          now: GEN_UTIME + 20,
          lt: 3_000_000n,
          randomSeed: Buffer.alloc(32, 2),
          config,
          libs: null,
        });
        if (!transfer.ok) throw new Error(`${w.version} transfer refused: ${transfer.error}`);
        return [deploy.transaction, deploy.shardAccount, transfer.transaction, transfer.shardAccount].map((c) =>
          c.hash().toString('hex'),
        );
      };
      expect(await run(v13), w.version).toEqual(await run(v12));
    }
  });

  it('is a function of (seed, shards, time): same inputs, same zero states; another seed, another chain', async () => {
    const a = await createDevnetGenesis({ seed: 'g', shards: 2, genUtime: GEN_UTIME });
    const b = await createDevnetGenesis({ seed: 'g', shards: 2, genUtime: GEN_UTIME });
    const c = await createDevnetGenesis({ seed: 'h', shards: 2, genUtime: GEN_UTIME });
    expect(a.zero.zeroStateId.rootHash.equals(b.zero.zeroStateId.rootHash)).toBe(true);
    expect(a.zero.masterchain.boc.equals(b.zero.masterchain.boc)).toBe(true);
    const deploys = (g: typeof a) => g.wallets.map((w) => walletDeployMessage(w).hash().toString('hex'));
    expect(deploys(a)).toEqual(deploys(b));
    expect(a.zero.zeroStateId.rootHash.equals(c.zero.zeroStateId.rootHash)).toBe(false);
    expect(reserveAddress('g').equals(reserveAddress('h'))).toBe(false);
    expect(a.layout).toEqual([0x4000000000000000n, 0xc000000000000000n]);
  });

  it('funds the wallets and the reserve; global_balance is their sum, in the range ton-lite-client can parse', async () => {
    const g = await createDevnetGenesis({ seed: 'g', shards: 4, genUtime: GEN_UTIME, walletsPerVersion: 2 });
    expect(g.wallets).toHaveLength(6);
    const total = 6n * DEVNET_WALLET_BALANCE + DEVNET_RESERVE_BALANCE;
    expect(viewMc(g.zero.masterchain).extra.globalBalance.coins).toBe(total);
    expect(total).toBeGreaterThanOrEqual(1n << 56n);
    expect(total).toBeLessThan(1n << 62n);
    // @ton/core's reader (what ton-lite-client's getConfig runs) gets the config right only in that range.
    const extra = loadMasterchainStateExtra((g.zero.masterchain.state.refs[3] as Cell).beginParse());
    expect(extra.config.get(34)?.hash()).toEqual(loadConfigParams(g.zero.config).get(34)?.hash());
  });
});
