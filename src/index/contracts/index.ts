// The contract decoders' I/O side: their environment (TVM, config, libraries, DNS roots), stored lookups, rederive.
export { createContractsEnv, MAINNET_DNS_ROOTS, type OwnedContractsEnv, parseDnsRoots } from './env.ts';
export { storedAccount, storedDetection } from './stored.ts';
