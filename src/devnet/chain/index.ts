// The devnet collator: zero states, shard and masterchain blocks built as the node builds them (README.md says
// what is exact and what is simplified). Pure: everything (time, seeds, the emulator) arrives as arguments.
export { readShardAccount } from './account-dict.ts';
export { extBlkRefOf, topEndLt, viewBlockInfo, viewMc, viewState } from './chain-view.ts';
export { type ChainConfig, readChainConfig } from './config-view.ts';
export { type CollateMcArgs, collateMasterchainBlock } from './masterchain-block.ts';
export { type CollateShardArgs, collateShardBlock } from './shard-block.ts';
export { chainFile } from './state-parts.ts';
export { blockRandSeed, type ChainTops, collateStep, type StepArgs, type StepResult } from './step.ts';
export type {
  BlockSignature,
  BlockTransaction,
  ChainTop,
  ChainTvm,
  ChangedAccount,
  CollatedBlock,
  CollatedMcBlock,
  McChainState,
  OutboundMessage,
  RejectedMessage,
  ShardChainState,
  ValidatorKey,
  ZeroState,
} from './types.ts';
export {
  blockSignatureMessage,
  computeValidatorNodes,
  signBlock,
  type ValidatorNode,
  validatorSetHash,
} from './validator-set.ts';
export {
  createZeroStates,
  GLOBAL_BALANCE_MAX,
  GLOBAL_BALANCE_MIN,
  uninitAccount,
  type ZeroStates,
  type ZeroStatesArgs,
} from './zero-state.ts';
