// The block-source vocabulary: what a source of blocks hands over (FetchedBlock, AccountStateAfter), block keys and
// file checks (blockKey, checkedBlock, MC_SHARD), and account states read from a block's own state update. Shared by
// the indexer's sources (src/index/source) and the node database reader (src/nodedb).
export { blockKey, checkedBlock, fileCheckedBlock, MC_SHARD, MC_SHARD_SIGNED, MC_SHARD_TEXT } from './ids.ts';
export {
  ACCOUNT_NONE,
  accountInState,
  statesFromNewState,
  statesFromStateUpdate,
  stateUpdateNewSide,
} from './state-update.ts';
export type { AccountStateAfter, FetchedBlock } from './types.ts';
