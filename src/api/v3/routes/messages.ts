// /messages (v3-api.md §3.1): messages de-duplicated by hash (an internal message has an `out` row on its
// sender's transaction and an `in` row on its receiver's), with the two transaction hashes, the address book
// and the (still empty) metadata. Builders are exported for test/api/v3-explain.test.ts.

import type { V3RouteGroup } from '../context.ts';
import {
  boolParam,
  hashListParam,
  hashParam,
  oneParam,
  type Page,
  pageParams,
  parseAddressParam,
  parseOpcode,
  type Query,
  Where,
} from '../params.ts';
import { addressBookFor } from '../queries/enrichment.ts';
import { MESSAGE_COLUMNS, MESSAGE_CONTENT_JOINS } from '../queries/message.ts';
import { type Direction, directionParam, hasUtime, type Window, windowParams } from '../render/filters.ts';
import { messageJson } from '../render/message.ts';
import type { SqlQuery } from '../sql-query.ts';

export interface MessageFilter {
  msgHashes?: string[];
  bodyHash?: string;
  /** A raw address, or null for "no address" (source=null: external-in; destination=null: external-out). */
  source?: string | null;
  destination?: string | null;
  opcode?: number;
  direction?: Direction;
  excludeExternals?: boolean;
  onlyExternals?: boolean;
  window?: Window;
  page: Page;
}

/**
 * One row per message, ordered by `created_lt <sort>, msg_hash <sort>` (created_at with a utime bound), as
 * toncenter's GROUP BY msg_hash does; here DISTINCT ON over the same order, so the (created_lt, msg_hash),
 * (created_at, msg_hash), (source|destination|opcode, created_lt) indexes feed the page without an aggregate
 * over every matching row. The two rows of an internal message agree on every column shown, so either
 * represents it. Externals-in have no created_lt and come first in a desc page (NULLS FIRST, like toncenter).
 */
export function messagesQuery(f: MessageFilter): SqlQuery {
  const w = new Where();
  if (f.direction) w.add(`M.direction = ${w.value(f.direction)}`);
  if (f.source === null) w.add('M.source IS NULL');
  else if (f.source !== undefined) w.add(`M.source = ${w.value(f.source)}`);
  if (f.destination === null) w.add('M.destination IS NULL');
  else if (f.destination !== undefined) w.add(`M.destination = ${w.value(f.destination)}`);
  if (f.opcode !== undefined) w.add(`M.opcode = ${w.value(f.opcode)}`);
  if (f.msgHashes?.length) {
    const p = w.value(f.msgHashes);
    w.add(`(M.msg_hash = ANY(${p}) OR M.msg_hash_norm = ANY(${p}))`);
  }
  if (f.bodyHash !== undefined) w.add(`M.body_hash = ${w.value(f.bodyHash)}`);
  const win = f.window ?? {};
  const col = hasUtime(win) ? 'M.created_at' : 'M.created_lt';
  if (win.startUtime !== undefined) w.add(`M.created_at >= ${w.value(win.startUtime)}`);
  if (win.endUtime !== undefined) w.add(`M.created_at <= ${w.value(win.endUtime)}`);
  if (win.startLt !== undefined) w.add(`M.created_lt >= ${w.value(win.startLt)}`);
  if (win.endLt !== undefined) w.add(`M.created_lt <= ${w.value(win.endLt)}`);
  // Only external-in messages lack created_lt/created_at (external-out "logs" have both).
  if (f.excludeExternals) w.add(`${col} IS NOT NULL`);
  if (f.onlyExternals) w.add(`${col} IS NULL`);
  const order = `${col} ${f.page.sort}, M.msg_hash ${f.page.sort}`;
  const page = `SELECT DISTINCT ON (${col}, M.msg_hash) M.* FROM messages M ${w.sql()} ORDER BY ${order}
    LIMIT ${w.value(f.page.limit)} OFFSET ${w.value(f.page.offset)}`;
  // The contents are joined to the page only; the outer ORDER BY restates the page's order.
  const sql = `SELECT ${MESSAGE_COLUMNS} FROM (${page}) M ${MESSAGE_CONTENT_JOINS} ORDER BY ${order}`;
  return { sql, params: w.params };
}

/** The transactions holding the given messages (messages_index_1), for in_msg_tx_hash / out_msg_tx_hash. */
export function messageTransactionsQuery(msgHashes: readonly string[], direction?: Direction): SqlQuery {
  const params: unknown[] = [[...new Set(msgHashes)]];
  if (direction) params.push(direction);
  return {
    sql: `SELECT M.msg_hash, M.direction, M.tx_hash FROM messages M WHERE M.msg_hash = ANY($1)
      ${direction ? 'AND M.direction = $2' : ''}`,
    params,
  };
}

/** source/destination: an address in any form, or the literal `null`. */
function nullableAddressParam(q: Query, name: string): string | null | undefined {
  const v = oneParam(q, name);
  if (v === undefined) return undefined;
  return v === 'null' ? null : parseAddressParam(v, name);
}

export function messageFilterParams(q: Query, page: Page): MessageFilter {
  let msgHashes = hashListParam(q, 'msg_hash');
  // `hash` is the legacy name of msg_hash, read only when msg_hash is absent (toncenter drops a bad value
  // silently and answers an unfiltered page; a bad hash is a 422 here like everywhere else).
  if (msgHashes.length === 0) {
    const legacy = hashParam(q, 'hash');
    if (legacy) msgHashes = [legacy];
  }
  const op = oneParam(q, 'opcode');
  return {
    msgHashes,
    bodyHash: hashParam(q, 'body_hash'),
    source: nullableAddressParam(q, 'source'),
    destination: nullableAddressParam(q, 'destination'),
    opcode: op === undefined ? undefined : parseOpcode(op),
    direction: directionParam(q),
    excludeExternals: boolParam(q, 'exclude_externals'),
    onlyExternals: boolParam(q, 'only_externals'),
    window: windowParams(q),
    page,
  };
}

export const messageRoutes: V3RouteGroup = (app, ctx) => {
  app.get('/messages', async (req) => {
    const q = req.query as Query;
    const f = messageFilterParams(q, pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: ctx.defaultLimit }));
    const built = messagesQuery(f);
    return ctx.read(req, async (db) => {
      const rows = (await db.query(built.sql, built.params)).rows;
      const txs = new Map<string, { in?: string; out?: string }>();
      if (rows.length > 0) {
        const t = messageTransactionsQuery(
          rows.map((r) => r.msg_hash as string),
          f.direction,
        );
        for (const r of (await db.query(t.sql, t.params)).rows) {
          const e = txs.get(r.msg_hash as string) ?? {};
          // Of several transactions on one side (a hash collision), the greatest hash, as toncenter's max().
          const side = r.direction === 'in' ? 'in' : 'out';
          if (!e[side] || (r.tx_hash as string) > (e[side] as string)) e[side] = r.tx_hash as string;
          txs.set(r.msg_hash as string, e);
        }
      }
      const messages = rows.map((r) => {
        const t = txs.get(r.msg_hash as string) ?? {};
        return messageJson(r, { inMsgTxHash: t.in, outMsgTxHash: t.out });
      });
      const addressBook = await addressBookFor(
        req,
        db,
        rows.flatMap((r) => [r.source as string | null, r.destination as string | null]),
        ctx.testnet,
      );
      // metadata: jetton/NFT token info arrives with the decoders (issue 9); no address has any yet.
      return { messages, address_book: addressBook, metadata: {} };
    });
  });
};
