// The address_book section (v3-api.md §2.8): for each raw address, its user-friendly form (non-bounceable
// when the account has no code or runs a user wallet code, bounceable otherwise; test-only on testnet),
// the reverse-resolved domain (null until the DNS decoder lands, issue 9) and the interfaces known from the
// code hash. One query for the whole page.
import { Address } from '@ton/core';
import type { Queryable } from '../../db/index.ts';
import { formatUserFriendlyV3, isUserWalletCode, knownWalletCode } from '../../ton/index.ts';

export interface AddressBookEntry {
  user_friendly: string;
  domain: string | null;
  interfaces: string[];
}

/** Raw v3 address -> Address, or null for forms that are not std addresses (addr_none, ext$, var$). */
function parseRaw(raw: string): Address | null {
  try {
    return Address.parseRaw(raw);
  } catch {
    return null;
  }
}

/**
 * Entries for `addresses` (raw upper-case forms; duplicates and nulls ignored), keyed by `keyOf(address)`
 * (the raw form itself, or for /addressBook the string the caller sent).
 */
export async function buildAddressBook(
  q: Queryable,
  addresses: Iterable<string | null | undefined>,
  opts: { testnet: boolean; keys?: Map<string, string> },
): Promise<Record<string, AddressBookEntry>> {
  const wanted = [...new Set([...addresses].filter((a): a is string => typeof a === 'string' && a.includes(':')))];
  const book: Record<string, AddressBookEntry> = {};
  if (wanted.length === 0) return book;
  const rows = await q.query<{ account: string; code_hash: string | null }>(
    'SELECT account, code_hash FROM latest_account_states WHERE account = ANY($1)',
    [wanted],
  );
  const codeOf = new Map(rows.rows.map((r) => [r.account, r.code_hash]));
  for (const raw of wanted) {
    const address = parseRaw(raw);
    const code = codeOf.get(raw) ?? null;
    const wallet = knownWalletCode(code);
    book[opts.keys?.get(raw) ?? raw] = {
      user_friendly: address
        ? formatUserFriendlyV3(address, {
            bounceable: !(code === null || isUserWalletCode(code)),
            testOnly: opts.testnet,
          })
        : 'addr_none',
      domain: null,
      interfaces: wallet ? [wallet.v3Interface] : [],
    };
  }
  return book;
}
