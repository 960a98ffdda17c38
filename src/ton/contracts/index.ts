// The standard contracts' vocabulary, one module (or pair) a standard, shared by the devnet, the decoders, the
// matchers and the APIs: opcodes, message body loaders, TEP-64 content, wallet code hashes.
export type { BodyParser, ParsedBody, QueryOnly } from './body-parser.ts';
export {
  type EitherCell,
  loadEitherCell,
  loadMaybeRefOrEnd,
  loadMsgAddress,
  loadMsgAddressInt,
  loadRest,
  payloadCell,
  readBody,
  readCell,
  refuse,
} from './body-reader.ts';
export { DNS_OP } from './dns.ts';
export * from './dns-body.ts';
export { JETTON_OP } from './jetton.ts';
export * from './jetton-body.ts';
export {
  type KnownBody,
  type KnownBodyType,
  type KnownExternalBody,
  type KnownOpcodeBody,
  knownOpcodeName,
  type ParseKnownBodyOptions,
  parseKnownBody,
} from './known-body.ts';
export { type AirdropItem, airdropItemOf, loadAirdropItem } from './mintless.ts';
export { MULTISIG_OP } from './multisig.ts';
export * from './multisig-body.ts';
export { NFT_OP } from './nft.ts';
export * from './nft-body.ts';
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
export * from './vesting-body.ts';
export {
  STANDARD_WALLET_CODES,
  WALLET_CODES,
  type WalletCode,
  type WalletLayout,
  walletCode,
  walletCodeHashes,
} from './wallets.ts';
export * from './wallets-body.ts';
