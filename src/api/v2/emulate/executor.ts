// The TVM that v2's get-methods and fee estimates run on: @ton/sandbox's Executor (the C++ emulator as WASM), as
// tonlib runs them locally on the account state it fetched (tonlib/TonlibClient.cpp smc_runGetMethod,
// Query::estimate_fees). One Executor per process, created on first use (compiling the WASM takes about a second);
// calls run one at a time because the emulator is synchronous WASM behind a promise, so each call also holds this
// thread's event loop for its duration (a few milliseconds for wallets and tokens; a get-method may use up to
// GET_METHOD_GAS_LIMIT). Moving it to worker threads, as src/tvm does for the node, is the way out if that
// shows up in latency. A call that aborts the module (a C++ exception surfacing as a bare number) drops the
// Executor, so the next call starts a fresh one.
import { type Address, type Cell, parseTuple, type TupleItem } from '@ton/core';
import { Executor } from '@ton/sandbox';
import { HttpError } from '../../../http/errors.ts';
import { cellFromBase64 } from '../../../ton/index.ts';

/** tonlib's get-method gas limit (SmartContract::run_get_method: vm::GasLimits{1000000, 1000000}). */
export const GET_METHOD_GAS_LIMIT = 1_000_000n;

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

let executor: Promise<Executor> | null = null;
let queue: Promise<unknown> = Promise.resolve();
const configText = new WeakMap<Cell, string>();

function getExecutor(): Promise<Executor> {
  if (executor === null) {
    executor = Executor.create();
    executor.catch(() => {
      executor = null;
    });
  }
  return executor;
}

/** The Executor keeps one emulator per config string and compares by value: keep one string per config cell. */
function configBase64(config: Cell): string {
  let text = configText.get(config);
  if (text === undefined) {
    text = config.toBoc({ idx: false, crc32: false }).toString('base64');
    configText.set(config, text);
  }
  return text;
}

/** Runs `fn` after every earlier call finished; a WASM abort resets the Executor. */
function serialized<T>(fn: (ex: Executor) => Promise<T>): Promise<T> {
  const run = queue.then(async () => {
    const ex = await getExecutor();
    try {
      return await fn(ex);
    } catch (e) {
      executor = null;
      if (typeof e === 'number' || (e instanceof Error && /^\d+$/.test(e.message))) {
        throw new HttpError(500, 'the TVM emulator aborted the call', { cause: e });
      }
      throw e;
    }
  });
  queue = run.catch(() => {});
  return run;
}

function extraCurrency(m: Map<number, bigint>): Record<number, bigint> | undefined {
  if (m.size === 0) return undefined;
  return Object.fromEntries(m);
}

export function runGetMethod(call: GetMethodCall): Promise<GetMethodOutcome> {
  return serialized(async (ex) => {
    const ec = extraCurrency(call.extraCurrencies);
    const res = await ex.runGetMethod({
      code: call.code,
      data: call.data,
      methodId: call.methodId,
      stack: call.stack,
      config: configBase64(call.config),
      verbosity: 'short',
      ...(call.libs === null ? {} : { libs: call.libs }),
      address: call.address,
      unixTime: call.now,
      balance: call.balance,
      // tonlib's c7 has a zero rand_seed unless one is given (smc-envelope/SmartContract.cpp prepare_vm_c7).
      randomSeed: Buffer.alloc(32),
      gasLimit: GET_METHOD_GAS_LIMIT,
      debugEnabled: false,
      ...(ec === undefined ? {} : { extraCurrency: ec }),
    });
    const out = res.output;
    if (!out.success) throw new HttpError(500, `failed to run get-method: ${out.error}`);
    let stack: TupleItem[];
    try {
      stack = parseTuple(cellFromBase64(out.stack));
    } catch (e) {
      // A continuation or another value with no JSON form in the result: tonlib renders it as
      // tvm.stackEntryUnsupported; @ton/core cannot read it at all.
      throw new HttpError(500, `get-method result stack cannot be rendered: ${(e as Error).message}`, { cause: e });
    }
    return { exitCode: out.vm_exit_code, gasUsed: Number(out.gas_used), stack };
  });
}

export function runTransaction(call: TransactionCall): Promise<TransactionOutcome> {
  return serialized(async (ex) => {
    const res = await ex.runTransaction({
      config: configBase64(call.config),
      libs: call.libs,
      verbosity: 'short',
      shardAccount: call.shardAccount.toBoc({ idx: false, crc32: false }).toString('base64'),
      now: call.now,
      lt: call.lt,
      randomSeed: Buffer.alloc(32),
      ignoreChksig: call.ignoreChksig,
      debugEnabled: false,
      message: call.message,
    });
    const r = res.result;
    if (!r.success) return { accepted: false, error: r.error, exitCode: r.vmResults?.vmExitCode ?? null };
    return {
      accepted: true,
      transaction: cellFromBase64(r.transaction),
      actions: r.actions === null ? null : cellFromBase64(r.actions),
      shardAccount: cellFromBase64(r.shardAccount),
    };
  });
}
