// /jetton/masters, /jetton/wallets, /jetton/transfers, /jetton/burns (v3-api.md §3.4). One statement per page over the
// jetton tables, then the address book and metadata of the addresses in it. Orderings are toncenter's, each served
// by an index of v3-api.md §5.3, with a unique tie-breaker last so pages never overlap. Builders are exported for
// the tests.

import type { V3RouteGroup } from '../context.ts';
import { addressParam, boolParam, invalid, oneParam, type Page, pageParams, type Query, Where } from '../params.ts';
import {
  JETTON_BURN_COLUMNS,
  JETTON_MASTER_COLUMNS,
  JETTON_TRANSFER_COLUMNS,
  JETTON_WALLET_COLUMNS,
} from '../queries/jetton.ts';
import { eventWindowOrder, limitOffset, readTokenList } from '../queries/token-list.ts';
import { type Window, windowParams } from '../render/filters.ts';
import {
  jettonAddresses,
  jettonBurnJson,
  jettonMasterJson,
  jettonTransferJson,
  jettonWalletJson,
} from '../render/jetton.ts';
import { boundedAddresses, ownerAddresses, transferDirection, withoutSort } from '../render/token-list.ts';
import type { SqlQuery } from '../sql-query.ts';

/** The documented maxima of the address lists (v3-openapi.yaml: 1024 for masters, 1000 elsewhere). */
const MAX_MASTERS = 1024;
const MAX_ADDRESSES = 1000;

export interface JettonMasterFilter {
  addresses?: string[];
  admins?: string[];
  page: Pick<Page, 'limit' | 'offset'>;
}

/** By id (indexes (id), (admin_address, id)); toncenter leaves the order open with `address`, id keeps it stable. */
export function jettonMastersQuery(f: JettonMasterFilter): SqlQuery {
  const w = new Where();
  if (f.addresses?.length) w.add(`J.address = ANY(${w.value(f.addresses)})`);
  if (f.admins?.length) w.add(`J.admin_address = ANY(${w.value(f.admins)})`);
  const sql = `SELECT ${JETTON_MASTER_COLUMNS} FROM jetton_masters J ${w.sql()} ORDER BY J.id ASC ${limitOffset(w, f.page)}`;
  return { sql, params: w.params };
}

export interface JettonWalletFilter {
  addresses?: string[];
  owners?: string[];
  jettons?: string[];
  excludeZeroBalance?: boolean;
  /** Given: order by balance this way; absent: by id. */
  balanceSort?: 'asc' | 'desc';
  page: Pick<Page, 'limit' | 'offset'>;
}

/**
 * toncenter's rules, later ones winning: `id asc`, or `balance <sort>` with sort; `address` -> `address`; owner ->
 * `owner, (id | balance)`; exactly one jetton -> `jetton, (id | balance)` (indexes (owner, id), (jetton, id),
 * (owner, balance desc), (jetton, balance desc)). Ties on balance are broken by id.
 */
export function jettonWalletsQuery(f: JettonWalletFilter): SqlQuery {
  const w = new Where();
  const base = f.balanceSort ? `J.balance ${f.balanceSort}, J.id ASC` : 'J.id ASC';
  let order = base;
  if (f.addresses?.length) {
    w.add(`J.address = ANY(${w.value(f.addresses)})`);
    order = 'J.address ASC';
  }
  if (f.owners?.length) {
    w.add(`J.owner = ANY(${w.value(f.owners)})`);
    order = `J.owner ASC, ${base}`;
  }
  if (f.jettons?.length === 1) {
    w.add(`J.jetton = ${w.value(f.jettons[0])}`);
    order = `J.jetton ASC, ${base}`;
  } else if (f.jettons?.length) {
    w.add(`J.jetton = ANY(${w.value(f.jettons)})`);
  }
  // A mintless wallet's unclaimed airdrop counts as balance (toncenter: balance + mintless_amount > 0).
  if (f.excludeZeroBalance) w.add('J.balance + COALESCE(J.mintless_amount, 0) > 0');
  const sql = `SELECT ${JETTON_WALLET_COLUMNS} FROM jetton_wallets J
    LEFT JOIN mintless_jetton_masters MJM ON MJM.address = J.jetton
    ${w.sql()} ORDER BY ${order} ${limitOffset(w, f.page)}`;
  return { sql, params: w.params };
}

export interface JettonEventFilter {
  owners?: string[];
  /** Transfers only: in = the owner received, out = the owner sent, none = either. */
  direction?: 'in' | 'out';
  wallets?: string[];
  master?: string;
  window: Window;
  page: Page;
}

/**
 * One row per transfer#0f8a7ea5 a jetton wallet accepted; aborted transactions are never listed (toncenter,
 * v3-api.md §11.13). Owner filters match source/destination (indexes (source|destination, tx_lt|tx_now)).
 */
export function jettonTransfersQuery(f: JettonEventFilter): SqlQuery {
  const w = new Where();
  w.add('T.tx_aborted IS FALSE');
  if (f.owners?.length) {
    const p = w.value(f.owners);
    if (f.direction === 'in') w.add(`T.destination = ANY(${p})`);
    else if (f.direction === 'out') w.add(`T.source = ANY(${p})`);
    else w.add(`(T.source = ANY(${p}) OR T.destination = ANY(${p}))`);
  }
  if (f.wallets?.length) w.add(`T.jetton_wallet_address = ANY(${w.value(f.wallets)})`);
  if (f.master !== undefined) w.add(`T.jetton_master_address = ${w.value(f.master)}`);
  const order = eventWindowOrder(w, f.window, f.page.sort);
  const sql = `SELECT ${JETTON_TRANSFER_COLUMNS} FROM jetton_transfers T ${w.sql()} ORDER BY ${order}
    ${limitOffset(w, f.page)}`;
  return { sql, params: w.params };
}

/** One row per burn#595f07bc a jetton wallet received, aborted ones included (toncenter). */
export function jettonBurnsQuery(f: JettonEventFilter): SqlQuery {
  const w = new Where();
  if (f.owners?.length) w.add(`T.owner = ANY(${w.value(f.owners)})`);
  if (f.wallets?.length) w.add(`T.jetton_wallet_address = ANY(${w.value(f.wallets)})`);
  if (f.master !== undefined) w.add(`T.jetton_master_address = ${w.value(f.master)}`);
  const order = eventWindowOrder(w, f.window, f.page.sort);
  const sql = `SELECT ${JETTON_BURN_COLUMNS} FROM jetton_burns T ${w.sql()} ORDER BY ${order} ${limitOffset(w, f.page)}`;
  return { sql, params: w.params };
}

export const jettonRoutes: V3RouteGroup = (app, ctx) => {
  const page = (q: Query) => pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: ctx.defaultLimit });

  app.get('/jetton/masters', async (req) => {
    const q = req.query as Query;
    const built = jettonMastersQuery({
      addresses: boundedAddresses(q, 'address', MAX_MASTERS),
      admins: boundedAddresses(q, 'admin_address', MAX_MASTERS),
      page: page(withoutSort(q)),
    });
    const r = await readTokenList(req, ctx, built, jettonAddresses.master);
    return { jetton_masters: r.rows.map(jettonMasterJson), address_book: r.address_book, metadata: r.metadata };
  });

  app.get('/jetton/wallets', async (req) => {
    const q = req.query as Query;
    const owners = boundedAddresses(q, 'owner_address', MAX_ADDRESSES);
    const jettons = boundedAddresses(q, 'jetton_address', MAX_ADDRESSES);
    if (jettons.length > 1 && owners.length !== 1) {
      throw invalid('exact one owner_address required for multiple jetton_address');
    }
    const p = page(q);
    const built = jettonWalletsQuery({
      addresses: boundedAddresses(q, 'address', MAX_ADDRESSES),
      owners,
      jettons,
      excludeZeroBalance: boolParam(q, 'exclude_zero_balance'),
      balanceSort: oneParam(q, 'sort') === undefined ? undefined : p.sort,
      page: p,
    });
    const r = await readTokenList(req, ctx, built, jettonAddresses.wallet);
    return { jetton_wallets: r.rows.map(jettonWalletJson), address_book: r.address_book, metadata: r.metadata };
  });

  app.get('/jetton/transfers', async (req) => {
    const q = req.query as Query;
    const built = jettonTransfersQuery({
      owners: ownerAddresses(q, MAX_ADDRESSES),
      direction: transferDirection(q),
      wallets: boundedAddresses(q, 'jetton_wallet', MAX_ADDRESSES),
      master: addressParam(q, 'jetton_master'),
      window: windowParams(q),
      page: page(q),
    });
    const r = await readTokenList(req, ctx, built, jettonAddresses.transfer);
    return { jetton_transfers: r.rows.map(jettonTransferJson), address_book: r.address_book, metadata: r.metadata };
  });

  app.get('/jetton/burns', async (req) => {
    const q = req.query as Query;
    const built = jettonBurnsQuery({
      owners: ownerAddresses(q, MAX_ADDRESSES),
      wallets: boundedAddresses(q, 'jetton_wallet', MAX_ADDRESSES),
      master: addressParam(q, 'jetton_master'),
      window: windowParams(q),
      page: page(q),
    });
    const r = await readTokenList(req, ctx, built, jettonAddresses.burn);
    return { jetton_burns: r.rows.map(jettonBurnJson), address_book: r.address_book, metadata: r.metadata };
  });
};
