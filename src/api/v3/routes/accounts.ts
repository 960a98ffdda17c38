// /accountStates, /walletStates, /addressBook, /metadata, /topAccountsByBalance (v3-api.md §3.2).
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../../db/index.ts';
import { buildAddressBook, invalidAddressEntry } from '../address-book.ts';
import type { V3Context, V3RouteGroup } from '../context.ts';
import { buildMetadata, metadataSkipped } from '../metadata.ts';
import {
  boolParam,
  hashListParam,
  invalid,
  listParam,
  type Page,
  pageParams,
  parseAddressParam,
  type Query,
  Where,
} from '../params.ts';
import { ACCOUNT_STATE_COLUMNS } from '../queries/account.ts';
import { addressBookFor } from '../queries/enrichment.ts';
import {
  type AccountStateRow,
  accountBalanceJson,
  accountStateJson,
  asAccountStateRow,
  walletStateJson,
} from '../render/account.ts';
import type { SqlQuery } from '../sql-query.ts';
import { parseWalletState } from '../wallet-state.ts';

/** toncenter answers at most 1000 account rows per request (its query ends with LIMIT 1000). */
const MAX_ACCOUNT_ROWS = 1000;

/** `address` of /accountStates and /walletStates: at least one, each a valid address (raw forms, deduplicated). */
function requiredAccounts(q: Query): string[] {
  const given = listParam(q, 'address');
  if (given.length === 0) throw invalid('address of account is required');
  return [...new Set(given.map((a) => parseAddressParam(a, 'address')))];
}

/** `address` of /addressBook and /metadata: the strings as sent (at least one). */
function requiredAddressStrings(q: Query): string[] {
  const given = listParam(q, 'address');
  if (given.length === 0) throw invalid('at least 1 address required');
  return given;
}

function tryRaw(address: string): string | null {
  try {
    return parseAddressParam(address, 'address');
  } catch {
    return null;
  }
}

/** /accountStates and /walletStates: the rows of `accounts`, optionally only those running one of `codeHashes`. */
export function latestStatesQuery(accounts: string[], codeHashes: string[], withData: boolean): SqlQuery {
  const where = new Where();
  where.add(`account = ANY(${where.value(accounts)})`);
  if (codeHashes.length > 0) where.add(`code_hash = ANY(${where.value(codeHashes)})`);
  // ORDER BY account: toncenter leaves the order unspecified; a stable one costs a sort of <= 1000 rows.
  const sql = `SELECT ${ACCOUNT_STATE_COLUMNS}, ${withData ? 'data_boc' : 'NULL AS data_boc'}
    FROM latest_account_states ${where.sql()} ORDER BY account LIMIT ${MAX_ACCOUNT_ROWS}`;
  return { sql, params: where.params };
}

/** /topAccountsByBalance: by balance (index latest_account_states_index_1), ties by account. */
export function topAccountsQuery(page: Pick<Page, 'limit' | 'offset'>): SqlQuery {
  return {
    sql: 'SELECT account, balance FROM latest_account_states ORDER BY balance DESC, account LIMIT $1 OFFSET $2',
    params: [page.limit, page.offset],
  };
}

/** The latest states of `accounts` (optionally only those running one of `codeHashes`), with the sections. */
async function readAccountStates(
  ctx: V3Context,
  req: FastifyRequest,
  accounts: string[],
  codeHashes: string[],
  withData: boolean,
): Promise<{ rows: AccountStateRow[]; book: Record<string, unknown>; metadata: Record<string, unknown> }> {
  const { sql, params } = latestStatesQuery(accounts, codeHashes, withData);
  return ctx.read(req, async (q: Queryable) => {
    const rows = (await q.query(sql, params)).rows.map(asAccountStateRow);
    const found = rows.map((r) => r.account);
    const book = found.length > 0 ? await addressBookFor(req, q, found, ctx.testnet) : {};
    const metadata = found.length > 0 && !metadataSkipped(req) ? await buildMetadata(q, found) : {};
    return { rows, book, metadata };
  });
}

export const accountRoutes: V3RouteGroup = (app, ctx) => {
  app.get('/accountStates', async (req) => {
    const q = req.query as Query;
    const accounts = requiredAccounts(q);
    const includeBoc = boolParam(q, 'include_boc') ?? true;
    const codeHashes = hashListParam(q, 'code_hash');
    const { rows, book, metadata } = await readAccountStates(ctx, req, accounts, codeHashes, includeBoc);
    return {
      accounts: rows.map((r) => accountStateJson(r, includeBoc)),
      address_book: book,
      metadata,
    };
  });

  app.get('/walletStates', async (req) => {
    const q = req.query as Query;
    const accounts = requiredAccounts(q);
    const codeHashes = hashListParam(q, 'code_hash');
    const { rows, book, metadata } = await readAccountStates(ctx, req, accounts, codeHashes, true);
    return {
      wallets: rows.map((r) => walletStateJson(r, parseWalletState(r.code_hash, r.data_boc))),
      address_book: book,
      metadata,
    };
  });

  app.get('/addressBook', async (req) => {
    const given = requiredAddressStrings(req.query as Query);
    // Keyed by the string as sent; an input that is no address still gets an entry ("addr_none"), as toncenter.
    const rawOf = new Map(given.map((a) => [a, tryRaw(a)]));
    const raws = [...rawOf.values()].filter((r): r is string => r !== null);
    const book = raws.length > 0 ? await ctx.read(req, (q) => buildAddressBook(q, raws, ctx)) : {};
    const out: Record<string, unknown> = {};
    for (const [sent, raw] of rawOf) out[sent] = raw === null ? invalidAddressEntry() : book[raw];
    return out;
  });

  app.get('/metadata', async (req) => {
    const given = requiredAddressStrings(req.query as Query);
    // Inputs that are no address cannot be token objects: they are simply absent from the map.
    const raws = given.map(tryRaw).filter((r): r is string => r !== null);
    return raws.length > 0 ? ctx.read(req, (q) => buildMetadata(q, raws)) : {};
  });

  app.get('/topAccountsByBalance', async (req) => {
    // limit and offset only: toncenter ignores `sort` here, so a stray one must not fail the request.
    const { sort: _ignored, ...q } = req.query as Query;
    const page = pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: ctx.defaultLimit });
    const { sql, params } = topAccountsQuery(page);
    const rows = await ctx.query<{ account: string; balance: bigint }>(req, sql, params);
    return rows.map(accountBalanceJson);
  });
};
