export { createDevnetStoreSource, type DevnetStoreSourceOptions } from './devnet-store-source.ts';
export { createFileSource, type FileSource, type FileSourceInput } from './file-source.ts';
export { blockKey, MC_SHARD } from './ids.ts';
export { mapLimit } from './limit.ts';
export { createLiteSource, type LiteSourceOptions } from './lite-source.ts';
export { createNodeDbSource, type NodeDbSource, type NodeDbSourceOptions } from './node-db-source.ts';
export { ACCOUNT_NONE, accountInState, statesFromStateUpdate } from './state-update.ts';
export type { AccountStateAfter, BlockSource, DeclaredUnit, FetchedBlock } from './types.ts';
