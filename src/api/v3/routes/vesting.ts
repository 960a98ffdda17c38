// /vesting (v3-api.md §3.8): vesting contracts by contract address, or by a wallet that owns one or funded it
// (and, with check_whitelist, one on its whitelist); exactly one of the two filters. In id order, as toncenter.

import type { V3RouteGroup } from '../context.ts';
import { addressListParam, boolParam, invalid, type Page, pageParams, type Query, Where } from '../params.ts';
import { addressBookFor } from '../queries/enrichment.ts';
import { VESTING_COLUMNS } from '../queries/vesting.ts';
import { vestingJson } from '../render/vesting.ts';
import type { SqlQuery } from '../sql-query.ts';

export type VestingFilter = { contractAddress: string[] } | { walletAddress: string[]; checkWhitelist: boolean };

/** contract_address xor wallet_address, with toncenter's messages. */
export function vestingFilter(q: Query): VestingFilter {
  const contractAddress = addressListParam(q, 'contract_address');
  const walletAddress = addressListParam(q, 'wallet_address');
  const checkWhitelist = boolParam(q, 'check_whitelist') ?? false;
  if (contractAddress.length === 0 && walletAddress.length === 0) {
    throw invalid('at least one of contract_address or wallet_address is required');
  }
  if (contractAddress.length > 0 && walletAddress.length > 0) {
    throw invalid('only one of contract_address or wallet_address should be specified');
  }
  return contractAddress.length > 0 ? { contractAddress } : { walletAddress, checkWhitelist };
}

/**
 * The wallet filter is a union of index lookups (vesting_index_3 owner, vesting_index_2 sender, vesting_index_1
 * whitelist) rather than toncenter's OR, which no index can serve once the whitelist's EXISTS joins it.
 */
export function vestingQuery(f: VestingFilter, page: Pick<Page, 'limit' | 'offset'>): SqlQuery {
  const where = new Where();
  if ('contractAddress' in f) where.add(`V.address = ANY(${where.value(f.contractAddress)})`);
  else {
    const w = where.value(f.walletAddress);
    const matches = [
      `SELECT address FROM vesting_contracts WHERE owner_address = ANY(${w})`,
      `SELECT address FROM vesting_contracts WHERE vesting_sender_address = ANY(${w})`,
    ];
    if (f.checkWhitelist) {
      matches.push(`SELECT vesting_contract_address FROM vesting_whitelist WHERE wallet_address = ANY(${w})`);
    }
    where.add(`V.address IN (${matches.join(' UNION ')})`);
  }
  const sql = `SELECT ${VESTING_COLUMNS} FROM vesting_contracts V ${where.sql()}
    ORDER BY V.id ASC LIMIT ${where.value(page.limit)} OFFSET ${where.value(page.offset)}`;
  return { sql, params: where.params };
}

/** The whitelists of the given contracts (vesting_whitelist's primary key), in address order. */
export function whitelistQuery(contracts: string[]): SqlQuery {
  return {
    sql: `SELECT vesting_contract_address, wallet_address FROM vesting_whitelist
      WHERE vesting_contract_address = ANY($1) ORDER BY vesting_contract_address, wallet_address`,
    params: [contracts],
  };
}

export const vestingRoutes: V3RouteGroup = (app, ctx) => {
  app.get('/vesting', async (req) => {
    // limit and offset only: the endpoint has no sort, so a stray one must not fail the request.
    const { sort: _ignored, ...q } = req.query as Query;
    const filter = vestingFilter(q);
    const page = pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: ctx.defaultLimit });
    const { sql, params } = vestingQuery(filter, page);
    return ctx.read(req, async (db) => {
      const rows = (await db.query(sql, params)).rows;
      const whitelists = new Map<string, string[]>();
      if (rows.length > 0) {
        const wq = whitelistQuery(rows.map((r) => r.address as string));
        for (const w of (await db.query(wq.sql, wq.params)).rows) {
          const list = whitelists.get(w.vesting_contract_address as string) ?? [];
          list.push(w.wallet_address as string);
          whitelists.set(w.vesting_contract_address as string, list);
        }
      }
      const contracts = rows.map((r) => vestingJson(r, whitelists.get(r.address as string) ?? []));
      const addresses = contracts.flatMap((c) => [
        c.address as string,
        c.sender_address as string | null,
        c.owner_address as string | null,
        ...(c.whitelist as string[]),
      ]);
      const book = await addressBookFor(req, db, addresses, ctx.testnet);
      return { vesting_contracts: contracts, address_book: book };
    });
  });
};
