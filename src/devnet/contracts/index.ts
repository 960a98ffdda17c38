// The devnet's own contracts (Tolk sources in contracts/, compiled by scripts/build-contracts.ts): a TEP-74
// jetton minter and wallet, a TEP-62/TEP-66 NFT collection and item, with typed message writers, StateInit
// builders, address derivations and getter readers.
export { JETTON_MINTER_CODE, JETTON_WALLET_CODE, NFT_COLLECTION_CODE, NFT_ITEM_CODE } from './codes.ts';
export * from './jetton.ts';
export { JETTON_MINTER_CODE_HASH } from './jetton-minter.compiled.ts';
export { JETTON_WALLET_CODE_HASH } from './jetton-wallet.compiled.ts';
export * from './nft.ts';
export { NFT_COLLECTION_CODE_HASH } from './nft-collection.compiled.ts';
export { NFT_ITEM_CODE_HASH } from './nft-item.compiled.ts';
export * from './payload.ts';
