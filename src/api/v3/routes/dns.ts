// /dns/records (v3-api.md §3.6): the DNS items whose wallet record points at `wallet`, or the item named exactly
// `domain`; exactly one of the two. Shortest names first (dns_entries_index_3 for wallet, dns_entries_index_domain
// for domain), ties by name, then by item address so pages never overlap.

import type { V3RouteGroup } from '../context.ts';
import { addressParam, invalid, oneParam, type Page, pageParams, type Query, Where } from '../params.ts';
import { DNS_RECORD_COLUMNS } from '../queries/dns.ts';
import { addressBookFor } from '../queries/enrichment.ts';
import { dnsRecordAddresses, dnsRecordJson } from '../render/dns.ts';
import type { SqlQuery } from '../sql-query.ts';

/** The document's default for this endpoint (100, where the others have 10). */
const DNS_DEFAULT_LIMIT = 100;

export type DnsFilter = { wallet: string } | { domain: string };

/** `wallet` xor `domain`, with toncenter's messages. */
export function dnsFilter(q: Query): DnsFilter {
  const wallet = addressParam(q, 'wallet');
  const domain = oneParam(q, 'domain');
  if (wallet === undefined && domain === undefined) throw invalid('either wallet address or domain is required');
  if (wallet !== undefined && domain !== undefined) {
    throw invalid('provide either wallet address or domain, not both');
  }
  return wallet !== undefined ? { wallet } : { domain: domain as string };
}

export function dnsRecordsQuery(filter: DnsFilter, page: Pick<Page, 'limit' | 'offset'>): SqlQuery {
  const where = new Where();
  if ('wallet' in filter) where.add(`dns_wallet = ${where.value(filter.wallet)}`);
  else where.add(`domain = ${where.value(filter.domain)}`);
  const sql = `SELECT ${DNS_RECORD_COLUMNS} FROM dns_entries ${where.sql()}
    ORDER BY length(domain), domain, nft_item_address LIMIT ${where.value(page.limit)} OFFSET ${where.value(page.offset)}`;
  return { sql, params: where.params };
}

export const dnsRoutes: V3RouteGroup = (app, ctx) => {
  app.get('/dns/records', async (req) => {
    // limit and offset only: the endpoint has no sort, so a stray one must not fail the request.
    const { sort: _ignored, ...q } = req.query as Query;
    const filter = dnsFilter(q);
    const page = pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: DNS_DEFAULT_LIMIT });
    const { sql, params } = dnsRecordsQuery(filter, page);
    return ctx.read(req, async (db) => {
      const rows = (await db.query(sql, params)).rows;
      const book = await addressBookFor(req, db, dnsRecordAddresses(rows), ctx.testnet);
      return { records: rows.map(dnsRecordJson), address_book: book };
    });
  });
};
