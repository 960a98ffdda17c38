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
// The address forms of toncenter v2, as ton-http-api-cpp 2.1 produces them
// (src/core/tonlib_worker_utils.cpp, src/converters/utils.hpp, types/ton_addr.cpp):
//   detectAddress  {"@type": "ext.utils.detectedAddress", "raw_form": lower-case raw,
//                   "bounceable"/"non_bounceable": {"@type": "ext.utils.detectedAddressVariant", "b64", "b64url"},
//                   "given_type", "test_only"}; both variants keep the input's test-only flag.
//   packAddress    url-safe user-friendly, flags as given (raw input is bounceable, not test-only)
//   unpackAddress  upper-case raw
// and as tonlib writes message and transaction addresses (accountAddress.account_address, to_std_address in
// tonlib/tonlib/TonlibClient.cpp): url-safe, bounceable, never test-only, "" for addr_none, addr_extern and
// addr_var. tonlib uses the address bits as stored (no anycast rewrite); @ton/core applies the rewrite.

import { Address, type ExternalAddress } from '@ton/core';
import { type AddressForm, formatFriendlyAddress, formatRawAddress, parseAddress } from './address.ts';

export interface V2DetectedAddressVariant {
  '@type': 'ext.utils.detectedAddressVariant';
  b64: string;
  b64url: string;
}

export interface V2DetectedAddress {
  '@type': 'ext.utils.detectedAddress';
  raw_form: string;
  bounceable: V2DetectedAddressVariant;
  non_bounceable: V2DetectedAddressVariant;
  given_type: AddressForm;
  test_only: boolean;
}

function variant(address: Address, bounceable: boolean, testOnly: boolean): V2DetectedAddressVariant {
  return {
    '@type': 'ext.utils.detectedAddressVariant',
    b64: formatFriendlyAddress(address, { bounceable, testOnly, urlSafe: false }),
    b64url: formatFriendlyAddress(address, { bounceable, testOnly, urlSafe: true }),
  };
}

/** The result of v2 `detectAddress`. */
export function detectAddressV2(text: string): V2DetectedAddress {
  const p = parseAddress(text);
  return {
    '@type': 'ext.utils.detectedAddress',
    raw_form: formatRawAddress(p.address),
    bounceable: variant(p.address, true, p.testOnly),
    non_bounceable: variant(p.address, false, p.testOnly),
    given_type: p.givenType,
    test_only: p.testOnly,
  };
}

/** The result of v2 `packAddress`. */
export function packAddressV2(text: string): string {
  const p = parseAddress(text);
  return formatFriendlyAddress(p.address, { bounceable: p.bounceable, testOnly: p.testOnly, urlSafe: true });
}

/** The result of v2 `unpackAddress`. */
export function unpackAddressV2(text: string): string {
  return formatRawAddress(parseAddress(text).address, { upperCase: true });
}

/**
 * An address echoed back by the v2 server (e.g. `address` in getTokenData): raw input is normalised to
 * upper-case raw, user-friendly input is re-serialised url-safe with its flags.
 */
export function normalizeAddressV2(text: string): string {
  const p = parseAddress(text);
  return p.givenType === 'raw_form'
    ? formatRawAddress(p.address, { upperCase: true })
    : formatFriendlyAddress(p.address, { bounceable: p.bounceable, testOnly: p.testOnly, urlSafe: true });
}

/** A message or transaction address as tonlib writes it (accountAddress.account_address); null is addr_none. */
export function formatMsgAddressV2(address: Address | ExternalAddress | null | undefined): string {
  if (!Address.isAddress(address)) return '';
  return formatFriendlyAddress(address, { bounceable: true, testOnly: false, urlSafe: true });
}
