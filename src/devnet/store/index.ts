// The devnet store: classic-level persistence of blocks, states, indexes and the external-message queue,
// plus a lock-free file layer other processes read (LAYOUT.md).
export { LAYOUT_VERSION } from './files.ts';
export { type DevnetStoreReader, openDevnetStoreReader } from './reader.ts';
export { openDevnetStore } from './store.ts';
export type {
  AccountInput,
  DevnetHead,
  DevnetMeta,
  DevnetMetaInput,
  DevnetStore,
  DevnetStoreOptions,
  FileEntry,
  GenesisInput,
  MessageTransaction,
  QueuedExternal,
  StepBlockInput,
  StepInput,
  StepManifest,
  StoredAccount,
  StoredBlock,
  StoredTransaction,
  TransactionLocation,
  ZeroStateInput,
} from './types.ts';
