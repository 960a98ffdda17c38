// The address_book section (v3-api.md §2.8) and GET /addressBook: for each raw address, its user-friendly form
// (non-bounceable when the account has no code or runs a user wallet code, bounceable otherwise; test-only on
// testnet; "addr_none" for what is not a std address), the reverse-resolved domain (the shortest domain whose
// NFT owner is the account and whose wallet record points back at it, from dns_entries) and the interfaces of
// its code (interfaces.ts: exact code hash, else the get-method ids of contract_methods). One query for the
// whole page; an account the index has no state for gets neither domain nor interfaces, as in toncenter.
import { Address } from '@ton/core';
import type { Queryable, Row } from '../../db/index.ts';
import { cellFromBase64, createContractMethodsCache, formatUserFriendlyV3, isUserWalletCode } from '../../ton/index.ts';
import { detectInterfaces, knownInterfaceCodeHashes } from './interfaces.ts';
import type { SqlQuery } from './sql-query.ts';

export interface AddressBookEntry {
  user_friendly: string;
  domain: string | null;
  interfaces: string[];
}

interface BookRow extends Row {
  account: string;
  code_hash: string | null;
  methods: readonly (number | bigint | string)[] | null;
  /** Only for codes without a contract_methods row (an index built without the contract decoders). */
  code_boc: string | null;
  domain: string | null;
}

/** Method ids read from code BoCs, for codes the contract_methods table does not hold. */
const methodsOfCode = createContractMethodsCache();

function methodsOf(r: BookRow): number[] | null {
  if (r.methods) return r.methods.map(Number);
  const boc = r.code_boc;
  if (r.code_hash === null || boc === null) return null;
  return methodsOfCode.get(r.code_hash, () => {
    try {
      return cellFromBase64(boc);
    } catch {
      return null;
    }
  });
}

function entryFor(raw: string, r: BookRow | undefined, testnet: boolean): AddressBookEntry {
  const codeHash = r?.code_hash ?? null;
  return {
    user_friendly: userFriendly(raw, codeHash, testnet),
    domain: r?.domain ?? null,
    interfaces: r ? detectInterfaces(codeHash, methodsOf(r)) : [],
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

const KNOWN_CODES = knownInterfaceCodeHashes();

/**
 * The one statement of an address book: code hashes by the primary key, the code's method ids from
 * contract_methods (the code BoC instead when there is no such row and the hash alone does not name the
 * contract), and the shortest domain from dns_entries_index_4 (its predicate nft_item_owner = dns_wallet
 * written out so the planner can use it; ties by name, toncenter leaves them open).
 */
export function addressBookQuery(accounts: string[]): SqlQuery {
  return {
    sql: `SELECT las.account, las.code_hash, cm.methods,
        CASE WHEN cm.code_hash IS NULL AND NOT (las.code_hash = ANY($2)) THEN las.code_boc END AS code_boc, d.domain
      FROM latest_account_states las
      LEFT JOIN contract_methods cm ON cm.code_hash = las.code_hash
      LEFT JOIN LATERAL (
        SELECT e.domain FROM dns_entries e
        WHERE e.nft_item_owner = e.dns_wallet AND e.nft_item_owner = las.account
        ORDER BY length(e.domain), e.domain LIMIT 1
      ) d ON true
      WHERE las.account = ANY($1)`,
    params: [accounts, KNOWN_CODES],
  };
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
  const rows = await q.query<BookRow>(sql, params);
  const byAccount = new Map(rows.rows.map((r) => [r.account, r]));
  for (const raw of wanted) book[raw] = entryFor(raw, byAccount.get(raw), opts.testnet);
  return book;
}

/** The entry /addressBook gives an input that is not an address at all. */
export function invalidAddressEntry(): AddressBookEntry {
  return { user_friendly: 'addr_none', domain: null, interfaces: [] };
}
