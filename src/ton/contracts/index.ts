// The standard contracts' vocabulary, one module a standard, shared by the devnet, the decoders, the matchers and
// the APIs: opcodes, TEP-64 content, wallet code hashes.
export { DNS_OP } from './dns.ts';
export { JETTON_OP } from './jetton.ts';
export { MULTISIG_OP } from './multisig.ts';
export { NFT_OP } from './nft.ts';
export {
  CONTENT_KEY_HASHES,
  CONTENT_KEYS,
  type ContentKey,
  type ContentReading,
  contentText,
  loadContentData,
  loadSnakeBytes,
  parseCell,
} from './tep64.ts';
export { VESTING_OP } from './vesting.ts';
export {
  STANDARD_WALLET_CODES,
  WALLET_CODES,
  type WalletCode,
  type WalletLayout,
  walletCode,
  walletCodeHashes,
} from './wallets.ts';
