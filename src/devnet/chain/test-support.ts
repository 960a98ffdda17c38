// Test-only helpers: a TvmRunner-shaped adapter over @ton/sandbox's Executor (in this thread), and genesis inputs.
import { Cell } from '@ton/core';
import { Executor } from '@ton/sandbox';
import type { TvmTxArgs, TvmTxResult } from '../../tvm/index.ts';
import type { ChainTvm } from './types.ts';

/** runTransaction as the TvmRunner contract has it, straight on one Executor. */
export async function createExecutorTvm(): Promise<ChainTvm & { calls: number }> {
  const executor = await Executor.create();
  const configCache = new Map<string, string>();
  const tvm = {
    calls: 0,
    async runTransaction(a: TvmTxArgs): Promise<TvmTxResult> {
      tvm.calls++;
      const key = a.config.hash().toString('hex');
      let config = configCache.get(key);
      if (!config) {
        config = a.config.toBoc().toString('base64');
        configCache.set(key, config);
      }
      const r = await executor.runTransaction({
        message: a.message,
        config,
        libs: a.libs,
        verbosity: 'short',
        shardAccount: a.shardAccount.toBoc().toString('base64'),
        now: a.now,
        lt: a.lt,
        randomSeed: a.randomSeed,
        ignoreChksig: a.ignoreChksig ?? false,
        debugEnabled: false,
        prevBlocksInfo: a.prevBlocksInfo,
      });
      const res = r.result;
      if (!res.success) {
        return {
          ok: false,
          error: res.error,
          exitCode: res.vmResults?.vmExitCode ?? null,
          vmLog: res.vmResults?.vmLog ?? '',
        };
      }
      return {
        ok: true,
        transaction: Cell.fromBase64(res.transaction),
        shardAccount: Cell.fromBase64(res.shardAccount),
        actions: res.actions ? Cell.fromBase64(res.actions) : null,
        vmLog: res.vmLog,
      };
    },
  };
  return tvm;
}
