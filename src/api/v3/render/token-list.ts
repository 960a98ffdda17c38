// What the jetton and NFT routes share: their list parameters as toncenter reads them (v3-api.md §3.4-3.5: owner
// with its `address` alias, in/out/both direction, bounded address lists) and the answer every such list gives,
// rows plus the address_book and metadata of the addresses toncenter lists for the row kind.
import type { FastifyRequest } from 'fastify';
import type { Row } from '../../../db/index.ts';
import type { V3Context } from '../context.ts';
import { buildMetadata, metadataSkipped } from '../metadata.ts';
import { addressListParam, invalid, listParam, oneParam, type Page, type Query, type Where } from '../params.ts';
import type { SqlQuery } from '../sql-query.ts';
import { hasUtime, type Window } from './filters.ts';
import { addressBookFor } from './values.ts';

/**
 * An address list parameter, normalised and deduplicated, with the documented maximum enforced (toncenter
 * documents "Maximum: N addresses" but does not check it, v3-api.md §11.8; a bounded list keeps one request
 * from becoming an unbounded ANY(...) scan).
 */
export function boundedAddresses(q: Query, name: string, max: number): string[] {
  const list = [...new Set(addressListParam(q, name))];
  if (list.length > max) throw invalid(`too many values in ${name}: ${list.length} > ${max}`);
  return list;
}

/** owner_address, or its alias `address` when owner_address is absent (toncenter's handlers do the same). */
export function ownerAddresses(q: Query, max: number): string[] {
  return listParam(q, 'owner_address').length > 0
    ? boundedAddresses(q, 'owner_address', max)
    : boundedAddresses(q, 'address', max);
}

/** direction of the transfer lists: in, out, or both (the same as none); anything else is refused. */
export function transferDirection(q: Query): 'in' | 'out' | undefined {
  const v = oneParam(q, 'direction');
  if (v === undefined || v === 'both') return undefined;
  if (v !== 'in' && v !== 'out') throw invalid('direction should be one of: in, out, both');
  return v;
}

/** `sort` is not a parameter of this list: toncenter ignores one sent anyway, so a stray one must not fail. */
export function withoutSort(q: Query): Query {
  const { sort: _ignored, ...rest } = q;
  return rest;
}

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
