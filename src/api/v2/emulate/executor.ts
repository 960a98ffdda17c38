// The TVM that v2's get-methods, fee estimates and the pending-trace emulation run on: @ton/sandbox's Executor (the
// C++ emulator as WASM), as tonlib runs them locally on the account state it fetched (tonlib/TonlibClient.cpp
// smc_runGetMethod, Query::estimate_fees). The emulator is synchronous WASM, so it never runs on the API's event
// loop: calls go to src/tvm's worker threads (the runner the devnet uses), behind a bounded queue. A full queue is
// the server's answer to overload, 503 with Retry-After, and cheap requests (/healthz, cached reads) keep being
// served while get-methods run. One ApiTvm per API server (buildApiServer), started on first use so a server that
// never runs a get-method never compiles the WASM module.
import { availableParallelism } from 'node:os';
import type { Address, Cell, TupleItem } from '@ton/core';
import { TvmError } from '../../../common/errors.ts';
import { HttpError } from '../../../http/errors.ts';
import { createTvmRunner, type TvmRunnerHandle } from '../../../tvm/index.ts';

/** tonlib's get-method gas limit (SmartContract::run_get_method: vm::GasLimits{1000000, 1000000}). */
export const GET_METHOD_GAS_LIMIT = 1_000_000n;

/** Calls allowed to wait for a free executor before the API answers 503. */
export const DEFAULT_TVM_QUEUE = 64;

/** Seconds a client is asked to wait after a 503 from a full queue. */
const RETRY_AFTER_S = '1';

/** Executors by default: every core but one (the event loop's), at least one, at most four. */
export const defaultApiTvmThreads = (): number => Math.max(1, Math.min(4, availableParallelism() - 1));

export interface GetMethodCall {
  code: Cell;
  data: Cell;
  address: Address;
  balance: bigint;
  extraCurrencies: Map<number, bigint>;
  methodId: number;
  stack: TupleItem[];
  /** ConfigParams dictionary root. */
  config: Cell;
  /** Hashmap 256 ^Cell of the libraries the code needs, or null. */
  libs: Cell | null;
  now: number;
}

export interface GetMethodOutcome {
  exitCode: number;
  gasUsed: number;
  stack: TupleItem[];
}

export interface TransactionCall {
  /** ShardAccount cell of the account as of the state read. */
  shardAccount: Cell;
  message: Cell;
  config: Cell;
  libs: Cell | null;
  now: number;
  lt: bigint;
  ignoreChksig: boolean;
}

export type TransactionOutcome =
  | {
      accepted: true;
      transaction: Cell;
      actions: Cell | null;
      /** ShardAccount after the transaction (the state the next message to the account runs on). */
      shardAccount: Cell;
    }
  | { accepted: false; error: string; exitCode: number | null };

export interface ApiTvmOptions {
  /** Worker threads (default defaultApiTvmThreads()); 0 runs the emulator on this thread (tools, tests). */
  threads?: number;
  /** Calls waiting for an executor before 503 (default DEFAULT_TVM_QUEUE). */
  maxQueue?: number;
}

export interface ApiTvm {
  runGetMethod(call: GetMethodCall): Promise<GetMethodOutcome>;
  runTransaction(call: TransactionCall): Promise<TransactionOutcome>;
  /** Executors, queued and running calls (zeros before the first call started the runner). */
  stats(): { threads: number; queued: number; busy: number; restarts: number };
  close(): Promise<void>;
}

// tonlib's c7 has a zero rand_seed unless one is given (smc-envelope/SmartContract.cpp prepare_vm_c7).
const ZERO_SEED = Buffer.alloc(32);

/** The runner's errors as the API answers them: a full queue is 503 + Retry-After, anything else 500. */
function apiError(e: unknown, what: string): unknown {
  if (!(e instanceof TvmError)) return e;
  if (e.retryable && e.details.maxQueue !== undefined) {
    return new HttpError(503, `too many ${what} calls are waiting for the TVM (${e.details.maxQueue}); retry later`, {
      headers: { 'retry-after': RETRY_AFTER_S },
      cause: e,
      expected: true,
    });
  }
  return new HttpError(500, `the TVM emulator failed to run the ${what}`, { cause: e });
}

export function createApiTvm(opts: ApiTvmOptions = {}): ApiTvm {
  const threads = opts.threads ?? defaultApiTvmThreads();
  const maxQueue = opts.maxQueue ?? DEFAULT_TVM_QUEUE;
  let runner: Promise<TvmRunnerHandle> | null = null;
  let ready: TvmRunnerHandle | null = null;
  let closed = false;

  function get(): Promise<TvmRunnerHandle> {
    if (closed) return Promise.reject(new HttpError(503, 'the server is shutting down', { expected: true }));
    if (runner === null) {
      runner = createTvmRunner({ threads, maxQueue }).then((r) => {
        ready = r;
        return r;
      });
      // A runner that failed to start is tried again by the next call.
      runner.catch(() => {
        runner = null;
      });
    }
    return runner;
  }

  /** One call on the runner, its errors as the API answers them. */
  async function run<T>(what: string, fn: (r: TvmRunnerHandle) => Promise<T>): Promise<T> {
    const r = await get();
    try {
      return await fn(r);
    } catch (e) {
      throw apiError(e, what);
    }
  }

  return {
    async runGetMethod(call) {
      const res = await run('get-method', (r) =>
        r.runGetMethod({
          code: call.code,
          data: call.data,
          address: call.address,
          balance: call.balance,
          methodId: call.methodId,
          stack: call.stack,
          now: call.now,
          config: call.config,
          libs: call.libs,
          randomSeed: ZERO_SEED,
          gasLimit: GET_METHOD_GAS_LIMIT,
          ...(call.extraCurrencies.size === 0 ? {} : { extraCurrency: Object.fromEntries(call.extraCurrencies) }),
        }),
      );
      if (res.stackParseError !== undefined) {
        // A continuation or another value with no JSON form in the result: tonlib renders it as
        // tvm.stackEntryUnsupported; @ton/core cannot read it at all.
        throw new HttpError(500, `get-method result stack cannot be rendered: ${res.stackParseError}`);
      }
      return { exitCode: res.exitCode, gasUsed: Number(res.gasUsed), stack: res.stack };
    },
    async runTransaction(call) {
      const res = await run('message emulation', (r) =>
        r.runTransaction({
          shardAccount: call.shardAccount,
          message: call.message,
          now: call.now,
          lt: call.lt,
          randomSeed: ZERO_SEED,
          config: call.config,
          libs: call.libs,
          ignoreChksig: call.ignoreChksig,
        }),
      );
      if (!res.ok) return { accepted: false, error: res.error, exitCode: res.exitCode };
      return { accepted: true, transaction: res.transaction, actions: res.actions, shardAccount: res.shardAccount };
    },
    stats() {
      return ready?.stats() ?? { threads: 0, queued: 0, busy: 0, restarts: 0 };
    },
    async close() {
      closed = true;
      const r = runner;
      runner = null;
      if (r !== null) await (await r.catch(() => null))?.close();
    },
  };
}
