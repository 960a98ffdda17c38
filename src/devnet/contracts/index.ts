// The devnet's own contracts (Tolk sources in contracts/, compiled by scripts/build-contracts.ts): a TEP-74
// jetton minter and wallet, a TEP-62/TEP-66 NFT collection and item, with typed message writers, StateInit
// builders, address derivations and getter readers; and wrappers of standard codes shipped by tonweb (highload
// wallet v3, the editable NFT collection and simple item, the vesting wallet, the jetton minter and wallet), and of
// GetGems' fixed-price sale v3r2 (shipped by @ton-community/assets-sdk).
export { JETTON_MINTER_CODE, JETTON_WALLET_CODE, NFT_COLLECTION_CODE, NFT_ITEM_CODE } from './codes.ts';
export * from './dns.ts';
export { DNS_COLLECTION_CODE_HASH } from './dns-collection.compiled.ts';
export { DNS_ITEM_CODE_HASH } from './dns-item.compiled.ts';
export * from './getgems-sale.ts';
export * from './highload-v3.ts';
export * from './jetton.ts';
export * from './jetton-governed.ts';
export { JETTON_GOVERNED_MINTER_CODE_HASH } from './jetton-governed-minter.compiled.ts';
export { JETTON_GOVERNED_WALLET_CODE_HASH } from './jetton-governed-wallet.compiled.ts';
export { JETTON_MINTER_CODE_HASH } from './jetton-minter.compiled.ts';
export { JETTON_WALLET_CODE_HASH } from './jetton-wallet.compiled.ts';
export * from './multisig.ts';
export * from './nft.ts';
export { NFT_COLLECTION_CODE_HASH } from './nft-collection.compiled.ts';
export { NFT_ITEM_CODE_HASH } from './nft-item.compiled.ts';
export * from './payload.ts';
export * from './standard-codes.ts';
export * from './standard-jetton.ts';
export * from './standard-nft.ts';
export * from './vesting.ts';
