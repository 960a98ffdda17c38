// detectAddress, detectHash, packAddress, unpackAddress (v2-api.md §6.6): no liteserver, nothing to cache.
// Also the address parameter every v2 method reads the way ton-http-api-cpp does (raw "wc:hex" or 48-character
// user-friendly, either base64 alphabet; anything else is 422 "Failed to parse ton_addr: '…'").
import {
  detectAddressV2,
  type ParsedAddress,
  packAddressV2,
  parseAddress,
  unpackAddressV2,
} from '../../../ton/index.ts';
import type { V2Params } from '../params.ts';
import type { V2Method } from './types.ts';

function parseOrFail(p: V2Params, text: string): ParsedAddress {
  try {
    return parseAddress(text);
  } catch {
    throw p.fail(`Failed to parse ton_addr: '${text.slice(0, 100)}'`);
  }
}

export function optAddressParam(p: V2Params, name: string): ParsedAddress | undefined {
  const text = p.optString(name);
  return text === undefined ? undefined : parseOrFail(p, text);
}

export function addressParam(p: V2Params, name: string): ParsedAddress {
  return parseOrFail(p, p.string(name));
}

/** The parameter's text once it is known to be an address (for the src/ton formatters that take text). */
function addressText(p: V2Params, name: string): string {
  const text = p.string(name);
  parseOrFail(p, text);
  return text;
}

export const utilityMethods: V2Method[] = [
  {
    name: 'detectAddress',
    verbs: 'read',
    async run(p) {
      return detectAddressV2(addressText(p, 'address'));
    },
  },
  {
    // 2.1: the hash in three spellings; hex is lower case and base64url has no padding (td::base64url_encode).
    name: 'detectHash',
    verbs: 'read',
    async run(p) {
      const h = p.hash('hash');
      return {
        '@type': 'ext.utils.detectedHash',
        b64: h.toString('base64'),
        b64url: h.toString('base64url'),
        hex: h.toString('hex'),
      };
    },
  },
  {
    name: 'packAddress',
    verbs: 'read',
    async run(p) {
      return packAddressV2(addressText(p, 'address'));
    },
  },
  {
    name: 'unpackAddress',
    verbs: 'read',
    async run(p) {
      return unpackAddressV2(addressText(p, 'address'));
    },
  },
];
