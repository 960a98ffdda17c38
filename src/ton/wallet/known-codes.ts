// Wallet contracts recognised by the hash of their code cell: the standard wallets of the code-hash table
// (../contracts/wallets.ts), as v2's getWalletInformation and v3's wallet states read them. `v2Type` is the
// wallet_type string of toncenter v2 getWalletInformation (v2-api.md §8), `v3Interface` the interface name
// toncenter v3 reports (v3-api.md Appendix B).
import { STANDARD_WALLET_CODES } from '../contracts/wallets.ts';

export interface KnownWalletCode {
  /** Code cell representation hash, hex. */
  hash: string;
  v2Type: string | null;
  v3Interface: string;
  /** What the wallet's data holds, in order: the fields getWalletInformation parses. */
  data: 'seqno' | 'seqno_id' | 'v5' | 'highload_v2' | 'highload_v3';
}

export const KNOWN_WALLET_CODES: readonly KnownWalletCode[] = STANDARD_WALLET_CODES.map((c) => ({
  hash: c.hash,
  v2Type: c.v2Type,
  v3Interface: c.type,
  data: c.layout,
}));

const byHash = new Map(KNOWN_WALLET_CODES.map((c) => [c.hash, c]));

/** The wallet whose code cell has this hash (hex or a 32-byte Buffer or standard base64), or undefined. */
export function knownWalletCode(hash: string | Buffer | null | undefined): KnownWalletCode | undefined {
  if (hash === null || hash === undefined) return undefined;
  const hex = Buffer.isBuffer(hash)
    ? hash.toString('hex')
    : hash.length === 64
      ? hash.toLowerCase()
      : Buffer.from(hash, 'base64').toString('hex');
  return byHash.get(hex);
}

/** The 11 "user wallet" codes (v1r1…v5r1) for which toncenter v3 prints non-bounceable user-friendly forms. */
export function isUserWalletCode(hash: string | Buffer | null | undefined): boolean {
  return knownWalletCode(hash)?.v2Type !== null && knownWalletCode(hash) !== undefined;
}
