// The address_book section (v3-api.md §2.8) and GET /addressBook: for each raw address, its user-friendly form
// (non-bounceable when the account has no code or runs a user wallet code, bounceable otherwise; test-only on
// testnet; "addr_none" for what is not a std address), the reverse-resolved domain (null until the DNS decoder
// lands) and the interfaces known from the code hash. One query for the whole page.
import { Address } from '@ton/core';
import type { Queryable } from '../../db/index.ts';
import { formatUserFriendlyV3, isUserWalletCode, knownWalletCode } from '../../ton/index.ts';
import type { SqlQuery } from './render/values.ts';

export interface AddressBookEntry {
  user_friendly: string;
  domain: string | null;
  interfaces: string[];
}

/** The entry of an address the index does not know or that is not a std address. */
function entryFor(raw: string, codeHash: string | null, testnet: boolean): AddressBookEntry {
  const wallet = knownWalletCode(codeHash);
  return {
    user_friendly: userFriendly(raw, codeHash, testnet),
    domain: null,
    interfaces: wallet ? [wallet.v3Interface] : [],
  };
}

function userFriendly(raw: string, codeHash: string | null, testnet: boolean): string {
  try {
    // Throws for addr_none, ext$/var$ forms and workchains outside int8 (no user-friendly form): toncenter
    // prints "addr_none" for every address its raw parser refuses.
    return formatUserFriendlyV3(Address.parseRaw(raw), {
      bounceable: !(codeHash === null || isUserWalletCode(codeHash)),
      testOnly: testnet,
    });
  } catch {
    return 'addr_none';
  }
}

/** The one statement of an address book: code hashes of the accounts (served by the primary key). */
export function addressBookQuery(accounts: string[]): SqlQuery {
  return { sql: 'SELECT account, code_hash FROM latest_account_states WHERE account = ANY($1)', params: [accounts] };
}

/** Entries for `addresses` (raw upper-case forms; duplicates and nulls ignored), keyed by the raw form. */
export async function buildAddressBook(
  q: Queryable,
  addresses: Iterable<string | null | undefined>,
  opts: { testnet: boolean },
): Promise<Record<string, AddressBookEntry>> {
  const wanted = [...new Set([...addresses].filter((a): a is string => typeof a === 'string' && a.includes(':')))];
  const book: Record<string, AddressBookEntry> = {};
  if (wanted.length === 0) return book;
  const { sql, params } = addressBookQuery(wanted);
  const rows = await q.query<{ account: string; code_hash: string | null }>(sql, params);
  const codeOf = new Map(rows.rows.map((r) => [r.account, r.code_hash]));
  for (const raw of wanted) book[raw] = entryFor(raw, codeOf.get(raw) ?? null, opts.testnet);
  return book;
}

/** The entry /addressBook gives an input that is not an address at all. */
export function invalidAddressEntry(): AddressBookEntry {
  return { user_friendly: 'addr_none', domain: null, interfaces: [] };
}
