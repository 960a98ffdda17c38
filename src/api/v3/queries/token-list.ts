// What the jetton and NFT list reads share: the SQL of their pages (LIMIT/OFFSET, the lt/utime window and order of an
// event list) and the read every such list makes, rows plus the address_book and metadata of the addresses toncenter
// lists for the row kind.
import type { FastifyRequest } from 'fastify';
import type { Row } from '../../../db/index.ts';
import type { V3Context } from '../context.ts';
import { buildMetadata, metadataSkipped } from '../metadata.ts';
import type { Page, Where } from '../params.ts';
import { hasUtime, type Window } from '../render/filters.ts';
import type { SqlQuery } from '../sql-query.ts';
import { addressBookFor } from './enrichment.ts';

/** LIMIT and OFFSET as placeholders of `w`. */
export function limitOffset(w: Where, page: Pick<Page, 'limit' | 'offset'>): string {
  return `LIMIT ${w.value(page.limit)} OFFSET ${w.value(page.offset)}`;
}

/**
 * The lt/utime window of an event list (on tx_lt/tx_now of table alias T) and its order: tx_lt, or tx_now then
 * tx_lt with a utime bound, as toncenter orders them; tx_hash last makes the order total.
 */
export function eventWindowOrder(w: Where, win: Window, sort: 'asc' | 'desc'): string {
  if (win.startUtime !== undefined) w.add(`T.tx_now >= ${w.value(win.startUtime)}`);
  if (win.endUtime !== undefined) w.add(`T.tx_now <= ${w.value(win.endUtime)}`);
  if (win.startLt !== undefined) w.add(`T.tx_lt >= ${w.value(win.startLt)}`);
  if (win.endLt !== undefined) w.add(`T.tx_lt <= ${w.value(win.endLt)}`);
  const byLt = `T.tx_lt ${sort}, T.tx_hash ${sort}`;
  return hasUtime(win) ? `T.tx_now ${sort}, ${byLt}` : byLt;
}

export interface TokenList {
  rows: Row[];
  address_book: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** Runs `built` and adds the address_book and metadata of the addresses `addressesOf` lists for each row. */
export async function readTokenList(
  req: FastifyRequest,
  ctx: V3Context,
  built: SqlQuery,
  addressesOf: (r: Row) => unknown[],
): Promise<TokenList> {
  return ctx.read(req, async (q) => {
    const rows = (await q.query(built.sql, built.params)).rows;
    const addresses = rows.flatMap(addressesOf).filter((a): a is string => typeof a === 'string');
    if (addresses.length === 0) return { rows, address_book: {}, metadata: {} };
    const book = await addressBookFor(req, q, addresses, ctx.testnet);
    const metadata = metadataSkipped(req) ? {} : await buildMetadata(q, addresses);
    return { rows, address_book: book, metadata };
  });
}
