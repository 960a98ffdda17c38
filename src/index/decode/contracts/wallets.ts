// Wallets by code hash (contracts.md §1.2, §8): toncenter names a wallet only by the exact hash of its code and
// reads seqno and wallet id from fixed data offsets (ton-index-go wallet_parse.go), never by running getters.
// The table of codes, names and data layouts is src/ton/contracts/wallets.ts.
import type { Cell } from '@ton/core';
import { walletCode } from '../../../ton/index.ts';

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
