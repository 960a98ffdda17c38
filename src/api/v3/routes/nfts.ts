// /nft/collections, /nft/items, /nft/transfers (v3-api.md §3.5). One statement per page over the NFT tables (items
// with their collection joined), then the address book and metadata of the addresses in it. Orderings are
// toncenter's, each served by an index of v3-api.md §5.3, with a unique tie-breaker last. Builders are exported for
// the tests.

import type { V3RouteGroup } from '../context.ts';
import { addressParam, boolParam, invalid, listParam, type Page, pageParams, type Query, Where } from '../params.ts';
import { NFT_COLLECTION_COLUMNS, NFT_ITEM_COLUMNS, NFT_ITEM_FROM, NFT_TRANSFER_COLUMNS } from '../queries/nft.ts';
import { eventWindowOrder, limitOffset, readTokenList } from '../queries/token-list.ts';
import { type Window, windowParams } from '../render/filters.ts';
import { nftAddresses, nftCollectionJson, nftItemJson, nftTransferJson } from '../render/nft.ts';
import { boundedAddresses, ownerAddresses, transferDirection, withoutSort } from '../render/token-list.ts';
import type { SqlQuery } from '../sql-query.ts';

/** The documented maxima of the lists (v3-openapi.yaml: 1024 for collections, 1000 elsewhere). */
const MAX_COLLECTIONS = 1024;
const MAX_ADDRESSES = 1000;
const MAX_INDEXES = 1000;

export interface NftCollectionFilter {
  addresses?: string[];
  owners?: string[];
  page: Pick<Page, 'limit' | 'offset'>;
}

/** By id (indexes (id), (owner_address, id)); toncenter leaves the order open when filtered, id keeps it stable. */
export function nftCollectionsQuery(f: NftCollectionFilter): SqlQuery {
  const w = new Where();
  if (f.addresses?.length) w.add(`N.address = ANY(${w.value(f.addresses)})`);
  if (f.owners?.length) w.add(`N.owner_address = ANY(${w.value(f.owners)})`);
  const sql = `SELECT ${NFT_COLLECTION_COLUMNS} FROM nft_collections N ${w.sql()} ORDER BY N.id ASC
    ${limitOffset(w, f.page)}`;
  return { sql, params: w.params };
}

export interface NftItemFilter {
  addresses?: string[];
  owners?: string[];
  /** With owners: match the seller of items held by a sale or auction contract (real_owner). */
  includeOnSale?: boolean;
  collections?: string[];
  /** Decimal digit strings; only with collections. */
  indexes?: string[];
  sortByLastTransactionLt?: boolean;
  page: Pick<Page, 'limit' | 'offset'>;
}

/**
 * toncenter's rules, later ones winning: `id`; owner -> `owner_address, collection_address, index`; exactly one
 * collection -> `collection_address, index`; sort_by_last_transaction_lt -> `last_transaction_lt desc` (indexes
 * (owner_address, collection_address, index), (collection_address, index), (last_transaction_lt)). id breaks ties.
 */
export function nftItemsQuery(f: NftItemFilter): SqlQuery {
  const w = new Where();
  let order = 'N.id ASC';
  if (f.addresses?.length) w.add(`N.address = ANY(${w.value(f.addresses)})`);
  if (f.owners?.length) {
    const p = w.value(f.owners);
    // toncenter filters on the real_owner column (indexes 7 and 8), which the indexer sets to the seller while a
    // sale or auction holds the item, from the same sale rows the on_sale fields are joined from; toncenter's
    // indexer writes the owner otherwise, ours leaves NULL, so a NULL counts as owned directly.
    w.add(
      f.includeOnSale
        ? `(N.real_owner = ANY(${p}) OR (N.real_owner IS NULL AND N.owner_address = ANY(${p})))`
        : `N.owner_address = ANY(${p})`,
    );
    order = 'N.owner_address ASC, N.collection_address ASC, N.index ASC, N.id ASC';
  }
  if (f.collections?.length === 1) {
    w.add(`N.collection_address = ${w.value(f.collections[0])}`);
    order = 'N.collection_address ASC, N.index ASC, N.id ASC';
  } else if (f.collections?.length) {
    w.add(`N.collection_address = ANY(${w.value(f.collections)})`);
  }
  if (f.indexes?.length) w.add(`N.index = ANY(${w.value(f.indexes)}::numeric[])`);
  if (f.sortByLastTransactionLt) order = 'N.last_transaction_lt DESC, N.id ASC';
  const sql = `SELECT ${NFT_ITEM_COLUMNS} FROM ${NFT_ITEM_FROM} ${w.sql()} ORDER BY ${order} ${limitOffset(w, f.page)}`;
  return { sql, params: w.params };
}

export interface NftTransferFilter {
  owners?: string[];
  /** in = the owner received the item, out = the owner gave it, none = either. */
  direction?: 'in' | 'out';
  items?: string[];
  collection?: string;
  window: Window;
  page: Page;
}

/** One row per transfer#5fcc3d14 an NFT item received, aborted ones included (toncenter); by tx_lt or tx_now. */
export function nftTransfersQuery(f: NftTransferFilter): SqlQuery {
  const w = new Where();
  if (f.owners?.length) {
    const p = w.value(f.owners);
    if (f.direction === 'in') w.add(`T.new_owner = ANY(${p})`);
    else if (f.direction === 'out') w.add(`T.old_owner = ANY(${p})`);
    else w.add(`(T.old_owner = ANY(${p}) OR T.new_owner = ANY(${p}))`);
  }
  if (f.items?.length) w.add(`T.nft_item_address = ANY(${w.value(f.items)})`);
  if (f.collection !== undefined) w.add(`T.nft_collection_address = ${w.value(f.collection)}`);
  const order = eventWindowOrder(w, f.window, f.page.sort);
  const sql = `SELECT ${NFT_TRANSFER_COLUMNS} FROM nft_transfers T ${w.sql()} ORDER BY ${order} ${limitOffset(w, f.page)}`;
  return { sql, params: w.params };
}

/** `index` values: decimal digits only (toncenter's message), at most MAX_INDEXES, only with collection_address. */
function indexParams(q: Query, collections: string[]): string[] {
  const indexes = [...new Set(listParam(q, 'index'))];
  if (indexes.length === 0) return [];
  for (const i of indexes) if (!/^\d+$/.test(i)) throw invalid('index should contain digits only');
  if (collections.length === 0) throw invalid('index parameter is not allowed without the collection_address');
  if (indexes.length > MAX_INDEXES) throw invalid(`too many values in index: ${indexes.length} > ${MAX_INDEXES}`);
  return indexes;
}

export const nftRoutes: V3RouteGroup = (app, ctx) => {
  const page = (q: Query) => pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: ctx.defaultLimit });

  app.get('/nft/collections', async (req) => {
    const q = req.query as Query;
    const built = nftCollectionsQuery({
      addresses: boundedAddresses(q, 'collection_address', MAX_COLLECTIONS),
      owners: boundedAddresses(q, 'owner_address', MAX_COLLECTIONS),
      page: page(withoutSort(q)),
    });
    const r = await readTokenList(req, ctx, built, nftAddresses.collection);
    return {
      nft_collections: r.rows.map((row) => nftCollectionJson(row)),
      address_book: r.address_book,
      metadata: r.metadata,
    };
  });

  app.get('/nft/items', async (req) => {
    const q = req.query as Query;
    const owners = boundedAddresses(q, 'owner_address', MAX_ADDRESSES);
    const collections = boundedAddresses(q, 'collection_address', MAX_ADDRESSES);
    const indexes = indexParams(q, collections);
    if (collections.length > 1 && owners.length !== 1) {
      throw invalid('exact one owner_address required for multiple collection_address');
    }
    const built = nftItemsQuery({
      addresses: boundedAddresses(q, 'address', MAX_ADDRESSES),
      owners,
      includeOnSale: boolParam(q, 'include_on_sale') ?? false,
      collections,
      indexes,
      sortByLastTransactionLt: boolParam(q, 'sort_by_last_transaction_lt') ?? false,
      page: page(withoutSort(q)),
    });
    const r = await readTokenList(req, ctx, built, nftAddresses.item);
    return { nft_items: r.rows.map(nftItemJson), address_book: r.address_book, metadata: r.metadata };
  });

  app.get('/nft/transfers', async (req) => {
    const q = req.query as Query;
    const built = nftTransfersQuery({
      owners: ownerAddresses(q, MAX_ADDRESSES),
      direction: transferDirection(q),
      items: boundedAddresses(q, 'item_address', MAX_ADDRESSES),
      collection: addressParam(q, 'collection_address'),
      window: windowParams(q),
      page: page(q),
    });
    const r = await readTokenList(req, ctx, built, nftAddresses.transfer);
    return { nft_transfers: r.rows.map(nftTransferJson), address_book: r.address_book, metadata: r.metadata };
  });
};
