// A call as the runner queues it (cells, not bytes), and its encoding for one executor. Encoding happens when the
// call is handed to an executor, because which blobs need bytes depends on what that executor already holds.
import { serializeTuple } from '@ton/core';
import type { TvmGetArgs, TvmTxArgs } from './types.ts';
import { type BlobSender, ownBytes, prevBlocksToWire, transferList, type WireJob } from './wire.ts';

export type TickTockArgs = Omit<TvmTxArgs, 'message'> & { which: 'tick' | 'tock' };

export type Call =
  | { kind: 'tx'; args: TvmTxArgs }
  | { kind: 'ticktock'; args: TickTockArgs }
  | { kind: 'get'; args: TvmGetArgs };

export const CALL_NAMES: Record<Call['kind'], string> = {
  tx: 'runTransaction',
  ticktock: 'runTickTock',
  get: 'runGetMethod',
};

export const DEFAULT_GET_GAS_LIMIT = 300_000n;

function boc(cell: { toBoc(): Buffer }): Uint8Array {
  return ownBytes(cell.toBoc());
}

export function encodeCall(call: Call, sender: BlobSender): { job: WireJob; transfer: ArrayBuffer[] } {
  const a = call.args;
  // Config before libs: the executor resolves them in this order, which keeps both caches in step.
  const config = sender.ref(a.config.hash(), () => boc(a.config));
  const libs = a.libs === null ? null : sender.ref(a.libs.hash(), () => boc(a.libs!));
  const prevBlocks = prevBlocksToWire(a.prevBlocksInfo);
  let job: WireJob;
  if (call.kind === 'get') {
    const g = call.args;
    job = {
      kind: 'get',
      code: boc(g.code),
      data: boc(g.data),
      address: g.address.toRawString(),
      balance: g.balance,
      methodId: g.methodId,
      stack: boc(serializeTuple(g.stack)),
      now: g.now,
      config,
      libs,
      randomSeed: Uint8Array.from(g.randomSeed),
      gasLimit: g.gasLimit ?? DEFAULT_GET_GAS_LIMIT,
      prevBlocks,
      extraCurrency: g.extraCurrency ?? null,
    };
    return { job, transfer: transferList([job.code, job.data, job.stack, config.boc, libs?.boc]) };
  }
  const t = call.args;
  const common = {
    shardAccount: boc(t.shardAccount),
    now: t.now,
    lt: t.lt,
    randomSeed: Uint8Array.from(t.randomSeed),
    config,
    libs,
    prevBlocks,
    ignoreChksig: t.ignoreChksig ?? false,
  };
  job =
    call.kind === 'tx'
      ? { kind: 'tx', message: boc(call.args.message), ...common }
      : { kind: 'ticktock', which: call.args.which, ...common };
  const message = job.kind === 'tx' ? job.message : null;
  return { job, transfer: transferList([common.shardAccount, message, config.boc, libs?.boc]) };
}
