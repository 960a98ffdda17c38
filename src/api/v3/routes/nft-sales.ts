// /nft/sales (v3-api.md §3.5): GetGems fix-price sales and auctions by contract address, as toncenter 1.2.8 serves
// them (ton-index-go crud_sales.go): the sales first, then the auctions, each a primary-key lookup with its item and
// the item's collection joined, then the address book and metadata of the addresses toncenter lists. toncenter also
// answers Telemint items (type teleitem) from telemint_nft_items; we keep no such table, so an item address is
// answered like any address that is no sale contract: not listed. Builders are exported for the tests.
import type { Row } from '../../../db/index.ts';
import type { V3RouteGroup } from '../context.ts';
import { buildMetadata, metadataSkipped } from '../metadata.ts';
import { invalid, listParam, parseAddressParam, type Query } from '../params.ts';
import { addressBookFor } from '../queries/enrichment.ts';
import { NFT_AUCTION_COLUMNS, NFT_SALE_COLUMNS } from '../queries/nft-sale.ts';
import { type NftSaleType, nftSaleAddresses, nftSaleJson } from '../render/nft-sale.ts';
import type { SqlQuery } from '../sql-query.ts';

/** The one limit toncenter enforces on an address list of v3 (v3-api.md §11.8). */
export const MAX_SALE_ADDRESSES = 1000;

/** toncenter leaves the order within each table open; id (the order the index first saw them) keeps it stable. */
export function nftSalesQuery(addresses: string[]): SqlQuery {
  return {
    sql: `SELECT ${NFT_SALE_COLUMNS} FROM getgems_nft_sales S
      LEFT JOIN nft_items N ON N.address = S.nft_address
      LEFT JOIN nft_collections C ON C.address = N.collection_address
      WHERE S.address = ANY($1) ORDER BY S.id`,
    params: [addresses],
  };
}

export function nftAuctionsQuery(addresses: string[]): SqlQuery {
  return {
    sql: `SELECT ${NFT_AUCTION_COLUMNS} FROM getgems_nft_auctions A
      LEFT JOIN nft_items N ON N.address = A.nft_addr
      LEFT JOIN nft_collections C ON C.address = N.collection_address
      WHERE A.address = ANY($1) ORDER BY A.id`,
    params: [addresses],
  };
}

/**
 * `address`, required, repeated or comma-separated, in any form; toncenter's messages for none and for more than
 * 1000 values (counted as sent, before duplicates are dropped, as toncenter counts them).
 */
export function saleAddresses(q: Query): string[] {
  const sent = listParam(q, 'address');
  const addresses = sent.map((v) => parseAddressParam(v, 'address'));
  if (addresses.length === 0) throw invalid('at least 1 address required');
  if (addresses.length > MAX_SALE_ADDRESSES) throw invalid(`maximum ${MAX_SALE_ADDRESSES} addresses allowed`);
  return [...new Set(addresses)];
}

export const nftSaleRoutes: V3RouteGroup = (app, ctx) => {
  app.get('/nft/sales', async (req) => {
    const addresses = saleAddresses(req.query as Query);
    return ctx.read(req, async (db) => {
      const found: Array<{ row: Row; type: NftSaleType }> = [];
      for (const [type, built] of [
        ['getgems_sale', nftSalesQuery(addresses)],
        ['getgems_auction', nftAuctionsQuery(addresses)],
      ] as const) {
        for (const row of (await db.query(built.sql, built.params)).rows) found.push({ row, type });
      }
      const listed = found
        .flatMap(({ row, type }) => nftSaleAddresses(row, type))
        .filter((a): a is string => typeof a === 'string');
      const none = listed.length === 0;
      return {
        nft_sales: found.map(({ row, type }) => nftSaleJson(row, type)),
        address_book: none ? {} : await addressBookFor(req, db, listed, ctx.testnet),
        metadata: none || metadataSkipped(req) ? {} : await buildMetadata(db, listed),
      };
    });
  });
};
