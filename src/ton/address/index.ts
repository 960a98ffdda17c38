// Address text forms: raw and user-friendly parsing/formatting, toncenter v2 detect/pack/unpack, v3 raw forms,
// and formatters for any MsgAddress as each API writes it.
export {
  type AddressForm,
  type FriendlyAddressOptions,
  formatFriendlyAddress,
  formatRawAddress,
  isStoredRawAddress,
  type ParsedAddress,
  parseAddress,
  type RawAddressOptions,
  STORED_RAW_ADDRESS,
} from './address.ts';
export {
  detectAddressV2,
  formatMsgAddressV2,
  normalizeAddressV2,
  packAddressV2,
  unpackAddressV2,
  type V2DetectedAddress,
  type V2DetectedAddressVariant,
} from './v2-address.ts';
export {
  formatAddressV3,
  formatAddrVarV3,
  formatMsgAddressV3,
  formatUserFriendlyV3,
  normalizeAddressV3,
  type V3UserFriendlyOptions,
} from './v3-address.ts';
