export { isUserWalletCode, KNOWN_WALLET_CODES, type KnownWalletCode, knownWalletCode } from './known-codes.ts';
