// block.tlb:100-110
// addr_none$00 = MsgAddressExt;
// addr_extern$01 len:(## 9) external_address:(bits len)
//              = MsgAddressExt;
// anycast_info$_ depth:(#<= 30) { depth >= 1 }
//    rewrite_pfx:(bits depth) = Anycast;
// addr_std$10 anycast:(Maybe Anycast)
//    workchain_id:int8 address:bits256  = MsgAddressInt;
// addr_var$11 anycast:(Maybe Anycast) addr_len:(## 9)
//    workchain_id:int32 address:(bits addr_len) = MsgAddressInt;
// _ _:MsgAddressInt = MsgAddress;
// _ _:MsgAddressExt = MsgAddress;
//
// The address forms of toncenter v3 (ton-index-go, fed by ton-index-worker):
//   every address field   raw, upper-case hex: "0:ED16…F8A7" (index/parse.go AccountAddressConverter, which also
//                         normalises any input form to this; ton-index-worker convert::to_raw_address)
//   address_book key      the same raw form; `user_friendly` is url-safe, non-bounceable when the account has no
//                         code or a known wallet code, bounceable otherwise, test-only on testnet
//                         (index/crud.go getAccountAddressFriendly)
//   other MsgAddress      as the indexer stores them (ton-index-worker convert::to_raw_address, 2025):
//                         "addr_none", "ext$<len>:<HEX>" (bits left-aligned, last digit zero-padded),
//                         "var$<workchain>:<len>:<HEX>" (td::BitString::to_hex: an incomplete last digit carries
//                         the completion tag and a trailing '_'); the message source of external-in and
//                         destination of external-out are JSON null instead (DataParser.cpp never stores them).

import { Address, type ExternalAddress } from '@ton/core';
import { formatFriendlyAddress, formatRawAddress, parseAddress } from './address.ts';

/** The raw upper-case form every v3 address field uses. */
export function formatAddressV3(address: Address): string {
  return formatRawAddress(address, { upperCase: true });
}

/** Any input form (raw, user-friendly std or url-safe) normalised to the v3 raw form; throws InputError. */
export function normalizeAddressV3(text: string): string {
  return formatAddressV3(parseAddress(text).address);
}

export interface V3UserFriendlyOptions {
  /** False when the account has no code or runs one of the known wallet codes (v1r1…v5r1). */
  bounceable: boolean;
  /** True on a testnet instance. */
  testOnly: boolean;
}

/** `address_book[raw].user_friendly`. */
export function formatUserFriendlyV3(address: Address, opts: V3UserFriendlyOptions): string {
  return formatFriendlyAddress(address, { bounceable: opts.bounceable, testOnly: opts.testOnly, urlSafe: true });
}

/** `bits` bits of `value` (the last bit lowest) left-aligned in upper-case hex digits; `tag` marks a cut digit. */
function bitsToHex(value: bigint, bits: number, tag: boolean): string {
  if (bits === 0) return '';
  const digits = Math.ceil(bits / 4);
  const pad = digits * 4 - bits;
  let aligned = value << BigInt(pad);
  if (tag && pad > 0) aligned |= 1n << BigInt(pad - 1);
  const hex = aligned.toString(16).toUpperCase().padStart(digits, '0');
  return tag && pad > 0 ? `${hex}_` : hex;
}

/** Any MsgAddress as the v3 indexer writes it; null or undefined is addr_none. */
export function formatMsgAddressV3(address: Address | ExternalAddress | null | undefined): string {
  if (address === null || address === undefined) return 'addr_none';
  if (Address.isAddress(address)) return formatAddressV3(address);
  return `ext$${address.bits}:${bitsToHex(address.value, address.bits, false)}`;
}

/** An addr_var (which @ton/core cannot load) in the v3 indexer's text form. */
export function formatAddrVarV3(workchainId: number, addrLen: number, address: bigint): string {
  return `var$${workchainId}:${addrLen}:${bitsToHex(address, addrLen, true)}`;
}
