// Wallets by code hash (contracts.md §1.2, §8): toncenter names a wallet only by the exact hash of its code and
// reads seqno and wallet id from fixed data offsets (ton-index-go wallet_parse.go), never by running getters.
// The table is data: the standard wallet codes of src/ton/wallet/known-codes.ts plus the other wallet-like codes of
// shared/vectors/code_hashes.json (highload v1 and v2r1, the code behind the v5 beta library, the preprocessed
// v2, the lockup and vesting wallets). Data layouts (contracts.md §1.2, §7.1, §8.1):
//   seqno      v1, v2:                     seqno:uint32 …
//   seqno_id   v3, v4, lockup, vesting:    seqno:uint32 wallet_id:uint32 …
//   v5         v5 beta, v5r1:              <1 bit> seqno:uint32 wallet_id:uint32 … (toncenter applies the v5r1
//                                          layout to v5 beta too)
//   highload_v2                            subwallet_id:uint32 last_cleaned:uint64 public_key:uint256 …
//   highload_v3                            public_key:uint256 subwallet_id:uint32 …
//   none       layouts not checked here:   named only
import type { Cell } from '@ton/core';
import { KNOWN_WALLET_CODES } from '../../../ton/index.ts';

export type WalletLayout = 'seqno' | 'seqno_id' | 'v5' | 'highload_v2' | 'highload_v3' | 'none';

export interface WalletCode {
  /** Code cell representation hash, hex. */
  hash: string;
  /** The interface name toncenter v3 reports (address_book interfaces). */
  type: string;
  /** getWalletInformation's wallet_type; null for the codes toncenter does not parse as user wallets. */
  v2Type: string | null;
  layout: WalletLayout;
}

const EXTRA_WALLET_CODES: readonly WalletCode[] = [
  {
    hash: 'e4cf3b2f4c6d6a61ea0f2b5447d266785b26af3637db2deee6bcd1aa826f3412',
    type: 'wallet_v5_beta',
    v2Type: null,
    layout: 'v5',
  },
  {
    hash: 'd8cdbbb79f2c5caa677ac450770be0351be21e1250486de85cc52aa33dd16484',
    type: 'wallet_highload_v1r1',
    v2Type: null,
    layout: 'none',
  },
  {
    hash: '0dceed21269d66013e95b19fbb5c55a6f01adad40837baa8e521cde3a02aa46c',
    type: 'wallet_highload_v1r2',
    v2Type: null,
    layout: 'none',
  },
  {
    hash: '8ceb45b3cd4b5cc60eaae1c13b9c092392677fe536b2e9b2d801b62eff931fe1',
    type: 'wallet_highload_v2r1',
    v2Type: null,
    layout: 'none',
  },
  {
    hash: '45ebbce9b5d235886cb6bfe1c3ad93b708de058244892365c9ee0dfe439cb7b5',
    type: 'wallet_preprocessed_v2',
    v2Type: null,
    layout: 'none',
  },
  {
    // code_hashes.json "wallet_v3r2_lockup" (tonweb LockupWalletV1); no toncenter v3 interface has this hash.
    hash: '88fbf818e47d5f328f7dc34bad4323bb28a12ec6c75ce9ec25d77746c56e1ded',
    type: 'wallet_v3r2_lockup',
    v2Type: null,
    layout: 'seqno_id',
  },
  {
    hash: 'b48b531abec3b714638291f7d77ed6dc9f6a2729efca20477137374d4ae8b590',
    type: 'wallet_vesting',
    v2Type: null,
    layout: 'seqno_id',
  },
];

export const WALLET_CODES: readonly WalletCode[] = [
  ...KNOWN_WALLET_CODES.map((c) => ({ hash: c.hash, type: c.v3Interface, v2Type: c.v2Type, layout: c.data })),
  ...EXTRA_WALLET_CODES,
];

const byHash = new Map(WALLET_CODES.map((c) => [c.hash, c]));

/** The wallet whose code has this hash (a 32-byte Buffer or hex), or undefined. */
export function walletCode(codeHash: Buffer | string): WalletCode | undefined {
  return byHash.get(Buffer.isBuffer(codeHash) ? codeHash.toString('hex') : codeHash.toLowerCase());
}

export interface WalletInfo {
  type: string;
  v2Type: string | null;
  /** Null where the layout has no seqno (highload) or is not checked. */
  seqno: number | null;
  /** wallet_id / subwallet_id; null where the layout has none or is not checked. */
  walletId: number | null;
  /** v5 wallets: the flag bit before the seqno; null otherwise. */
  isSignatureAllowed: boolean | null;
}

/**
 * The wallet type of code hash `codeHash` and what its data says, or null when the code is no known wallet.
 * Data too short for its layout (or exotic) gives the type with null fields rather than failing.
 */
export function walletInfo(codeHash: Buffer | string, data: Cell | null): WalletInfo | null {
  const code = walletCode(codeHash);
  if (!code) return null;
  const info: WalletInfo = {
    type: code.type,
    v2Type: code.v2Type,
    seqno: null,
    walletId: null,
    isSignatureAllowed: null,
  };
  if (!data || data.isExotic) return info;
  const s = data.beginParse();
  const need = { seqno: 32, seqno_id: 64, v5: 65, highload_v2: 32, highload_v3: 288, none: 0 }[code.layout];
  if (s.remainingBits < need) return info;
  switch (code.layout) {
    case 'seqno':
      return { ...info, seqno: s.loadUint(32) };
    case 'seqno_id':
      return { ...info, seqno: s.loadUint(32), walletId: s.loadUint(32) };
    case 'v5': {
      const isSignatureAllowed = s.loadBit();
      return { ...info, isSignatureAllowed, seqno: s.loadUint(32), walletId: s.loadUint(32) };
    }
    case 'highload_v2':
      return { ...info, walletId: s.loadUint(32) };
    case 'highload_v3':
      return { ...info, walletId: s.skip(256).loadUint(32) };
    case 'none':
      return info;
  }
}
