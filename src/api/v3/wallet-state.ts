// The wallet fields of /walletStates (v3-api.md §3.2), read from the account's data cell for the 11 user wallet
// codes, exactly as toncenter reads them (ton-index-go ParseWalletState):
//   v1r1 … v2r2          seqno:uint32 …
//   v3r1 … v4r2          seqno:uint32 wallet_id:uint32 …
//   v5 beta, v5r1        <1 bit> seqno:uint32 wallet_id:uint32 …
// v5r1 stores is_signature_allowed:Bool first (wallet-contract-v5 types.tlb), so the bit is that flag. v5 beta
// stores seqno:int33 instead, whose first bit is the sign, and its wallet id is 80 bits starting with the
// network id; toncenter applies the v5r1 layout to it anyway (the bit becomes is_signature_allowed, wallet_id the
// network id as uint32). We follow toncenter, since clients compare against it.
// Highload wallets are recognised elsewhere (address_book interfaces) but are not "wallets" here: toncenter
// parses only these 11 codes.
import type { Cell } from '@ton/core';
import { cellFromBase64, knownWalletCode } from '../../ton/index.ts';

export interface WalletFields {
  /** toncenter's wallet_type string: "wallet v4 r2", "wallet v5 beta", … */
  walletType: string;
  seqno: number;
  walletId?: number;
  isSignatureAllowed?: boolean;
}

/**
 * The wallet fields of an account with code hash `codeHash` (base64) and data `dataBoc` (base64 BoC), or null
 * when the code is not one of the 11 user wallets, there is no data, or the data is too short for the layout
 * (toncenter fails the whole request there; one odd account should not, so it is reported as not a wallet).
 */
export function parseWalletState(codeHash: string | null, dataBoc: string | null): WalletFields | null {
  const known = knownWalletCode(codeHash);
  if (!known || known.v2Type === null || dataBoc === null) return null;
  let cell: Cell;
  try {
    cell = cellFromBase64(dataBoc);
  } catch {
    return null;
  }
  if (cell.isExotic) return null;
  const s = cell.beginParse();
  const need = known.data === 'seqno' ? 32 : known.data === 'seqno_id' ? 64 : 65;
  if (s.remainingBits < need) return null;
  switch (known.data) {
    case 'seqno':
      return { walletType: known.v2Type, seqno: s.loadUint(32) };
    case 'seqno_id':
      return { walletType: known.v2Type, seqno: s.loadUint(32), walletId: s.loadUint(32) };
    case 'v5': {
      const isSignatureAllowed = s.loadBit();
      return { walletType: known.v2Type, seqno: s.loadUint(32), walletId: s.loadUint(32), isSignatureAllowed };
    }
    default:
      return null;
  }
}
