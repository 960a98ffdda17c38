// The TVM runner's public surface (the devnet module contract): one message applied to one raw account, a
// tick-tock, or a get-method, always driven by the caller's lt/now/seed/config/libs so blocks stay reproducible.
import type { Address, Cell, TupleItem } from '@ton/core';
import type { ExecutorVerbosity, PrevBlocksInfo } from '@ton/sandbox';

export type { PrevBlocksInfo };

export interface TvmTxArgs {
  /** The account's ShardAccount cell (account_none for a new address). */
  shardAccount: Cell;
  message: Cell;
  now: number;
  /** Requested start lt; the emulator raises it to the account's last end lt / in_msg created_lt + 1 if needed. */
  lt: bigint;
  /** 32 bytes: the block's rand_seed. */
  randomSeed: Buffer;
  /** ConfigParams dictionary root (Hashmap 32 ^Cell). */
  config: Cell;
  /**
   * Libraries the VM may load: the masterchain state's `libraries` root (HashmapE 256 LibDescr) as it is, or a
   * Hashmap 256 ^Cell; the VM takes the first ref of the entry keyed by the library hash. Null for none.
   */
  libs: Cell | null;
  prevBlocksInfo?: PrevBlocksInfo;
  ignoreChksig?: boolean;
}

export type TvmTxResult =
  | { ok: true; transaction: Cell; shardAccount: Cell; actions: Cell | null; vmLog: string }
  | { ok: false; error: string; exitCode: number | null; vmLog: string };

export interface TvmGetArgs {
  code: Cell;
  data: Cell;
  address: Address;
  balance: bigint;
  methodId: number;
  stack: TupleItem[];
  now: number;
  config: Cell;
  /** As in TvmTxArgs. */
  libs: Cell | null;
  randomSeed: Buffer;
  /** Default 300 000: the C++ liteserver's client_method_gas_limit (validator/impl/liteserver.hpp:83). */
  gasLimit?: bigint;
  /** Extra currencies of the account's balance (id -> amount), as the VM's c7 sees them. */
  extraCurrency?: Record<number, bigint>;
  prevBlocksInfo?: PrevBlocksInfo;
}

export interface TvmGetResult {
  exitCode: number;
  /** The result stack parsed by @ton/core; empty (see stackParseError) if it holds values @ton/core cannot read. */
  stack: TupleItem[];
  /** The VmStack cell exactly as the emulator produced it: what liteServer.runSmcMethod returns as `result`. */
  stackBoc: Cell;
  gasUsed: bigint;
  /** Hash of a library cell the code needed and the libs did not hold (the VM then exits with code 9). */
  missingLibrary: Buffer | null;
  vmLog: string;
  stackParseError?: string;
}

export interface TvmRunner {
  runTransaction(a: TvmTxArgs): Promise<TvmTxResult>;
  runTickTock(a: Omit<TvmTxArgs, 'message'> & { which: 'tick' | 'tock' }): Promise<TvmTxResult>;
  runGetMethod(a: TvmGetArgs): Promise<TvmGetResult>;
  close(): Promise<void>;
}

export interface TvmRunnerOptions {
  /** Worker threads, each with one Executor. Default 1; 0 runs the same code in this thread (tests, tools). */
  threads?: number;
  /** Calls allowed to wait for a free executor; beyond that calls reject with a retryable TvmError. Default 1024. */
  maxQueue?: number;
  /** Emulator log level for vmLog. Default 'short'. */
  verbosity?: ExecutorVerbosity;
}

/** The runner plus supervision hooks (tests and the node's health view use them). */
export interface TvmRunnerHandle extends TvmRunner {
  /** Terminates executor `index` as a crash would: its in-flight call rejects, a fresh one replaces it. */
  killWorker(index: number): Promise<void>;
  stats(): { threads: number; queued: number; busy: number; restarts: number };
}
