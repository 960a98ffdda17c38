// /multisig/wallets and /multisig/orders (v3-api.md §3.7): multisig v2 wallets by address or by a signer or
// proposer wallet (GIN indexes on signers and proposers), with their orders unless include_orders=false; orders by
// address or by multisig, with parse_actions decoding order_boc. Both page by the internal id (sort, default desc),
// as toncenter does (its docs say last_transaction_lt; its query orders by id).
import type { Cell } from '@ton/core';
import type { Row } from '../../../db/index.ts';
import { cellFromBase64 } from '../../../ton/index.ts';
import type { V3RouteGroup } from '../context.ts';
import { addressListParam, boolParam, invalid, type Page, pageParams, type Query, Where } from '../params.ts';
import { addressBookFor } from '../queries/enrichment.ts';
import { MULTISIG_COLUMNS, ORDER_COLUMNS } from '../queries/multisig.ts';
import { multisigAddresses, multisigJson, orderAddresses, orderJson } from '../render/multisig.ts';
import { actionAddresses, type OrderAction, parseOrderActions } from '../render/order-actions.ts';
import type { SqlQuery } from '../sql-query.ts';

export interface MultisigFilter {
  address: string[];
  walletAddress: string[];
}

export interface OrderFilter {
  address: string[];
  multisigAddress: string[];
}

export function multisigQuery(f: MultisigFilter, page: Page): SqlQuery {
  const where = new Where();
  if (f.address.length > 0) where.add(`M.address = ANY(${where.value(f.address)})`);
  if (f.walletAddress.length > 0) {
    const w = where.value(f.walletAddress);
    // text[] then tonaddr[]: the parameter's own type stays one both drivers send (PGlite cannot serialise a
    // domain array), and the comparison is tonaddr[] && tonaddr[], which the GIN indexes serve.
    where.add(`(M.signers && ${w}::text[]::tonaddr[] OR M.proposers && ${w}::text[]::tonaddr[])`);
  }
  const sql = `SELECT ${MULTISIG_COLUMNS} FROM multisig M ${where.sql()}
    ORDER BY M.id ${page.sort} LIMIT ${where.value(page.limit)} OFFSET ${where.value(page.offset)}`;
  return { sql, params: where.params };
}

/** Every order of the given multisigs, in id order (multisig_orders_index_2). */
export function ordersOfQuery(multisigs: string[]): SqlQuery {
  return {
    sql: `SELECT ${ORDER_COLUMNS} FROM multisig_orders O WHERE O.multisig_address = ANY($1) ORDER BY O.id`,
    params: [multisigs],
  };
}

export function ordersQuery(f: OrderFilter, page: Page): SqlQuery {
  const where = new Where();
  if (f.address.length > 0) where.add(`O.address = ANY(${where.value(f.address)})`);
  if (f.multisigAddress.length > 0) where.add(`O.multisig_address = ANY(${where.value(f.multisigAddress)})`);
  const sql = `SELECT ${ORDER_COLUMNS} FROM multisig_orders O ${where.sql()}
    ORDER BY O.id ${page.sort} LIMIT ${where.value(page.limit)} OFFSET ${where.value(page.offset)}`;
  return { sql, params: where.params };
}

function actionsOf(r: Row): OrderAction[] {
  if (typeof r.order_boc !== 'string' || r.order_boc === '') return [];
  let order: Cell;
  try {
    order = cellFromBase64(r.order_boc);
  } catch {
    return [];
  }
  return parseOrderActions(order) ?? [];
}

export const multisigRoutes: V3RouteGroup = (app, ctx) => {
  app.get('/multisig/wallets', async (req) => {
    const q = req.query as Query;
    const filter: MultisigFilter = {
      address: addressListParam(q, 'address'),
      walletAddress: addressListParam(q, 'wallet_address'),
    };
    if (filter.address.length === 0 && filter.walletAddress.length === 0) {
      throw invalid('At least one of address or wallet_address should be specified');
    }
    const includeOrders = boolParam(q, 'include_orders') ?? true;
    const page = pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: ctx.defaultLimit });
    const { sql, params } = multisigQuery(filter, page);
    return ctx.read(req, async (db) => {
      const wallets = (await db.query(sql, params)).rows;
      const ordersBy = new Map<string, Row[]>();
      if (includeOrders && wallets.length > 0) {
        const oq = ordersOfQuery(wallets.map((w) => w.address as string));
        for (const o of (await db.query(oq.sql, oq.params)).rows) {
          const list = ordersBy.get(o.multisig_address as string) ?? [];
          list.push(o);
          ordersBy.set(o.multisig_address as string, list);
        }
      }
      const addresses = wallets.flatMap((w) => [
        ...multisigAddresses(w),
        ...(ordersBy.get(w.address as string) ?? []).flatMap(orderAddresses),
      ]);
      const book = await addressBookFor(req, db, addresses, ctx.testnet);
      return {
        multisigs: wallets.map((w) =>
          multisigJson(
            w,
            (ordersBy.get(w.address as string) ?? []).map((o) => orderJson(o)),
          ),
        ),
        address_book: book,
      };
    });
  });

  app.get('/multisig/orders', async (req) => {
    const q = req.query as Query;
    const filter: OrderFilter = {
      address: addressListParam(q, 'address'),
      multisigAddress: addressListParam(q, 'multisig_address'),
    };
    if (filter.address.length === 0 && filter.multisigAddress.length === 0) {
      throw invalid('At least one of address or multisig_address should be specified');
    }
    const parseActions = boolParam(q, 'parse_actions') ?? false;
    const page = pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: ctx.defaultLimit });
    const { sql, params } = ordersQuery(filter, page);
    return ctx.read(req, async (db) => {
      const rows = (await db.query(sql, params)).rows;
      const actions = rows.map((r) => (parseActions ? actionsOf(r) : []));
      const addresses = rows.flatMap((r, i) => [...orderAddresses(r), ...(actions[i] ?? []).flatMap(actionAddresses)]);
      const book = await addressBookFor(req, db, addresses, ctx.testnet);
      return { orders: rows.map((r, i) => orderJson(r, actions[i])), address_book: book };
    });
  });
};
