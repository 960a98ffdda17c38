export { createDevnetStoreSource, type DevnetStoreSourceOptions } from './devnet-store-source.ts';
export { createFileSource, type FileSource, type FileSourceInput } from './file-source.ts';
export { mapLimit } from './limit.ts';
export { createLiteSource, type LiteSourceOptions } from './lite-source.ts';
export { createNodeDbSource, type NodeDbSource, type NodeDbSourceOptions } from './node-db-source.ts';
export type { BlockSource, DeclaredUnit } from './types.ts';
