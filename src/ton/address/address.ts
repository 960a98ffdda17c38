// block.tlb:105-106
// addr_std$10 anycast:(Maybe Anycast)
//   workchain_id:int8 address:bits256  = MsgAddressInt;
//
// The text forms of a standard address, as the reference node reads and writes them (block::StdAddress::parse_addr
// and pack_std_smc_addr in crypto/block/block.cpp):
//   raw           "<workchain>:<64 hex digits>", any case
//   user-friendly 48 base64 characters (standard or url-safe alphabet, even mixed) of 36 bytes:
//                 tag, workchain (int8), 32-byte account id, CRC16-XMODEM (big-endian) of the first 34 bytes.
//                 tag 0x11 bounceable, 0x51 non-bounceable, | 0x80 test-only.
// The node accepts any int32 workchain in the raw form but can only pack int8 ones; tongate accepts int8 in both.

import { Address, crc16 } from '@ton/core';
import { InputError } from '../../common/errors.ts';

export type AddressForm = 'raw_form' | 'friendly_bounceable' | 'friendly_non_bounceable';

/** The raw form as the v3 API and the index store it: `<workchain>:<64 upper-case hex digits>` (schema's tonaddr). */
export const STORED_RAW_ADDRESS = /^-?[0-9]{1,10}:[0-9A-F]{64}$/;

/** Whether a stored value is an address in that raw form (some action columns hold other values: a bitcoin txid…). */
export function isStoredRawAddress(v: string): boolean {
  return STORED_RAW_ADDRESS.test(v);
}

export interface ParsedAddress {
  address: Address;
  /** Which form the text was in (the names toncenter's detectAddress uses). */
  givenType: AddressForm;
  /** From the tag; the node treats a raw address as bounceable. */
  bounceable: boolean;
  /** From the tag; false for a raw address. */
  testOnly: boolean;
}

const TAG_BOUNCEABLE = 0x11;
const TAG_NON_BOUNCEABLE = 0x51;
const TAG_TEST_ONLY = 0x80;

const B64_VALUE = new Map<string, number>(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'].map((c, i) => [c, i]),
);
for (const [c, v] of [
  ['+', 62],
  ['-', 62],
  ['/', 63],
  ['_', 63],
] as const)
  B64_VALUE.set(c, v);

function show(text: string): string {
  return text.length > 70 ? `'${text.slice(0, 67)}...'` : `'${text}'`;
}

function parseRaw(text: string, colon: number): ParsedAddress {
  const wcText = text.slice(0, colon);
  const hex = text.slice(colon + 1);
  if (!/^-?[0-9]+$/.test(wcText)) {
    throw new InputError(`Address ${show(text)}: bad workchain '${wcText}', expected an integer such as 0 or -1`);
  }
  const wc = Number(wcText);
  if (wc < -128 || wc > 127) {
    throw new InputError(`Address ${show(text)}: bad workchain ${wcText}, expected -128..127`);
  }
  if (hex.length !== 64) {
    throw new InputError(`Address ${show(text)}: bad length, expected 64 hex digits after ':', got ${hex.length}`);
  }
  const bad = hex.search(/[^0-9a-fA-F]/);
  if (bad >= 0) {
    throw new InputError(`Address ${show(text)}: bad hex digit '${hex[bad]}' at position ${colon + 1 + bad}`);
  }
  return {
    address: new Address(wc, Buffer.from(hex, 'hex')),
    givenType: 'raw_form',
    bounceable: true,
    testOnly: false,
  };
}

function parseFriendly(text: string): ParsedAddress {
  const bytes = Buffer.alloc(36);
  for (let i = 0; i < 48; i += 4) {
    let x = 0;
    for (let j = 0; j < 4; j++) {
      const v = B64_VALUE.get(text[i + j]!);
      if (v === undefined) {
        throw new InputError(`Address ${show(text)}: bad base64 character '${text[i + j]}' at position ${i + j}`);
      }
      x = (x << 6) | v;
    }
    bytes[(i / 4) * 3] = x >>> 16;
    bytes[(i / 4) * 3 + 1] = (x >>> 8) & 0xff;
    bytes[(i / 4) * 3 + 2] = x & 0xff;
  }
  const body = bytes.subarray(0, 34);
  const crc = crc16(body);
  if (!crc.equals(bytes.subarray(34))) {
    throw new InputError(
      `Address ${show(text)}: bad checksum, the address carries 0x${bytes.subarray(34).toString('hex')}, ` +
        `its first 34 bytes give 0x${crc.toString('hex')}`,
    );
  }
  const tag = bytes[0]!;
  const base = tag & ~TAG_TEST_ONLY;
  if (base !== TAG_BOUNCEABLE && base !== TAG_NON_BOUNCEABLE) {
    throw new InputError(
      `Address ${show(text)}: bad tag 0x${tag.toString(16).padStart(2, '0')}, ` +
        'expected 0x11 (bounceable) or 0x51 (non-bounceable), optionally | 0x80 (test-only)',
    );
  }
  const bounceable = base === TAG_BOUNCEABLE;
  return {
    address: new Address(bytes.readInt8(1), Buffer.from(bytes.subarray(2, 34))),
    givenType: bounceable ? 'friendly_bounceable' : 'friendly_non_bounceable',
    bounceable,
    testOnly: (tag & TAG_TEST_ONLY) !== 0,
  };
}

/** Parses a raw or user-friendly address; throws InputError saying what is wrong. */
export function parseAddress(text: unknown): ParsedAddress {
  if (typeof text !== 'string') {
    throw new InputError(`Address: expected a string, got ${text === null ? 'null' : typeof text}`);
  }
  const colon = text.indexOf(':');
  if (colon >= 0) return parseRaw(text, colon);
  if (text.length === 48) return parseFriendly(text);
  if (/^[0-9a-fA-F]{64}$/.test(text)) {
    throw new InputError(`Address ${show(text)}: missing workchain, expected '<workchain>:<64 hex digits>'`);
  }
  throw new InputError(
    `Address ${show(text)}: bad length ${text.length}, expected '<workchain>:<64 hex digits>' ` +
      'or a 48-character user-friendly address',
  );
}

export interface RawAddressOptions {
  /** Upper-case hex (toncenter v3, v2 unpackAddress); default lower-case. */
  upperCase?: boolean;
}

/** "<workchain>:<hex>" */
export function formatRawAddress(address: Address, opts: RawAddressOptions = {}): string {
  const hex = address.hash.toString('hex');
  return `${address.workChain}:${opts.upperCase ? hex.toUpperCase() : hex}`;
}

export interface FriendlyAddressOptions {
  bounceable: boolean;
  testOnly?: boolean;
  /** '-' and '_' instead of '+' and '/'; default true. */
  urlSafe?: boolean;
}

/** The 48-character user-friendly form. */
export function formatFriendlyAddress(address: Address, opts: FriendlyAddressOptions): string {
  const wc = address.workChain;
  if (!Number.isInteger(wc) || wc < -128 || wc > 127) {
    throw new InputError(`Address ${wc}:…: workchain ${wc} does not fit the user-friendly form (int8)`);
  }
  const bytes = Buffer.alloc(36);
  bytes[0] = (opts.bounceable ? TAG_BOUNCEABLE : TAG_NON_BOUNCEABLE) | (opts.testOnly ? TAG_TEST_ONLY : 0);
  bytes.writeInt8(wc, 1);
  address.hash.copy(bytes, 2);
  crc16(bytes.subarray(0, 34)).copy(bytes, 34);
  const b64 = bytes.toString('base64');
  return (opts.urlSafe ?? true) ? b64.replace(/\+/g, '-').replace(/\//g, '_') : b64;
}
