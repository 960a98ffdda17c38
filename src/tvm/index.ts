// The devnet's TVM: @ton/sandbox's Executor (the C++ transaction emulator as WASM) off the main thread.
export { DEFAULT_GET_GAS_LIMIT } from './calls.ts';
export { createTvmRunner } from './runner.ts';
export type {
  PrevBlocksInfo,
  TvmGetArgs,
  TvmGetResult,
  TvmRunner,
  TvmRunnerHandle,
  TvmRunnerOptions,
  TvmTxArgs,
  TvmTxResult,
} from './types.ts';
