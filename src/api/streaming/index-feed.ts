// Finalized events, read from the index: the same function makes the live feed (each masterchain block once it is
// indexed, its traces assembled and classified) and the replay a reconnecting client asks for with its cursor, so
// both give the same events in the same order. Every API process reads them itself (no leader, nothing to hand over):
// two processes give the same events with the same cursors, and a client may resume on another process.
//
// A block's events, in order: each trace that became complete in it (end_lt, trace_id), as one trace event carrying
// its transactions, actions and tree; then each account whose state its transactions moved (by address), with the
// state after its last transaction in the block (account_states by hash: history, so a replay gives what the live
// feed gave) and, for a jetton wallet whose row still holds that state, the jetton wallet. A jetton wallet that has
// moved on since is left out of a replay: the later block's event carries its newer state.
import type { FastifyRequest } from 'fastify';
import { groupBy } from '../../common/index.ts';
import type { Queryable, Row } from '../../db/index.ts';
import { buildAddressBook } from '../v3/address-book.ts';
import { buildMetadata } from '../v3/metadata.ts';
import { ACTION_COLUMNS, actionAccountsQuery } from '../v3/queries/action.ts';
import { JETTON_WALLET_COLUMNS } from '../v3/queries/jetton.ts';
import { TRACE_COLUMNS, traceTransactionsQuery } from '../v3/queries/trace.ts';
import { renderTransactions } from '../v3/queries/transaction.ts';
import { actionAddresses, actionJson } from '../v3/render/action.ts';
import { jettonWalletJson } from '../v3/render/jetton.ts';
import { buildTraceTree, transactionAddresses } from '../v3/render/trace.ts';
import { type Cursor, formatCursor } from './cursor.ts';
import type { AccountFeedEvent, Json, Positioned, StreamAction, TraceFeedEvent } from './events.ts';
import { streamTree } from './trace-tree.ts';
import { withoutDecodedBodies } from './undecoded.ts';

/**
 * The v3 renderers read two request flags (X-No-Address-Book, X-No-Metadata); a stream asks for neither and decides
 * about address books per client, so they see a request without headers.
 */
const NO_FLAGS = { headers: {}, query: {} } as unknown as FastifyRequest;

/** Traces larger than this are streamed without their transactions' bodies listed (as v3 lists them). */
const MAX_STREAM_TRACE_TXS = 4000;

export interface BlockEventsOptions {
  testnet: boolean;
  /** Build address books and metadata (only when a client asked for them). */
  enrich: boolean;
}

/** The highest masterchain block whose events are final: indexed, its traces assembled and classified. */
export async function readyThrough(db: Queryable): Promise<number | null> {
  const r = await db.query<{ assembled: number | null; unclassified: number | null }>(
    `SELECT (SELECT next_mc_seqno - 1 FROM trace_assembly WHERE id = 1) AS assembled,
            (SELECT min(mc_seqno_end) FROM traces
              WHERE classification_state = 'unclassified' AND state <> 'pending' AND pending_edges_ = 0) AS unclassified`,
  );
  const row = r.rows[0];
  if (!row || row.assembled === null) return null;
  const assembled = Number(row.assembled);
  return row.unclassified === null ? assembled : Math.min(assembled, Number(row.unclassified) - 1);
}

async function traceEvents(
  db: Queryable,
  mcSeqno: number,
  opts: BlockEventsOptions,
): Promise<Array<{ key: string; event: TraceFeedEvent; addresses: string[] }>> {
  const traces = (
    await db.query(
      `SELECT ${TRACE_COLUMNS}, E.external_hash_norm FROM traces E
       WHERE E.state = 'complete' AND E.mc_seqno_end = $1 ORDER BY E.end_lt, E.trace_id`,
      [mcSeqno],
    )
  ).rows;
  if (traces.length === 0) return [];
  const ids = traces.filter((t) => Number(t.nodes_) <= MAX_STREAM_TRACE_TXS).map((t) => String(t.trace_id));
  const tq = traceTransactionsQuery(ids);
  const txRows = ids.length > 0 ? (await db.query(tq.sql, tq.params)).rows : [];
  const rendered = await renderTransactions(NO_FLAGS, db, txRows, opts.testnet);
  const actionRows = (
    await db.query(
      `SELECT ${ACTION_COLUMNS}, A.ancestor_type::text[] AS ancestor_type FROM actions A
       WHERE A.trace_id = ANY($1::text[]) ORDER BY A.trace_id, A.end_lt DESC, A.start_lt DESC, A.action_id`,
      [traces.map((t) => String(t.trace_id))],
    )
  ).rows;
  const aq = actionAccountsQuery(actionRows.map((r) => String(r.action_id)));
  const accountsOf = new Map(
    actionRows.length > 0
      ? (await db.query(aq.sql, aq.params)).rows.map((r) => [`${r.trace_id}/${r.action_id}`, r.accounts as string[]])
      : [],
  );
  const txsOf = groupBy(rendered.transactions, (t) => String(t.trace_id));
  const actionsOf = groupBy(actionRows, (r) => String(r.trace_id));
  return traces.map((t) => {
    const id = String(t.trace_id);
    // v3's transactions carry their finality already (rows of committed blocks: finalized).
    const txs = txsOf.get(id) ?? [];
    const byHash = new Map(txs.map((tx) => [String(tx.hash), tx]));
    const outCounts = new Map(txs.map((tx) => [String(tx.hash), ((tx.out_msgs as unknown[]) ?? []).length]));
    const { tree } = buildTraceTree([...byHash.keys()], byHash);
    const actions: StreamAction[] = (actionsOf.get(id) ?? []).map((r) => ({
      json: actionJson(r, { accounts: accountsOf.get(`${r.trace_id}/${r.action_id}`) ?? [] }),
      ancestorType: (r.ancestor_type as string[] | null) ?? [],
      addresses: actionAddresses(r),
    }));
    const addresses = [...txs.flatMap(transactionAddresses), ...actions.flatMap((a) => a.addresses)];
    const event: TraceFeedEvent = {
      kind: 'trace',
      finality: 'finalized',
      traceKey: String(t.external_hash_norm ?? id),
      transactions: txs.map(withoutDecodedBodies),
      traceTransactions: txs,
      actions,
      tree: tree ? streamTree(tree, outCounts) : null,
      classified: true,
    };
    return { key: `t:${String(t.end_lt).padStart(20, '0')}:${id}`, event, addresses };
  });
}

/** An account_states row as streaming.md §3.5 shows it (also the confirmed feed's, from a block's state update). */
export function accountStateJson(r: Row): Json {
  // streaming.md §3.5: extra_currencies always null; no BoCs.
  return {
    hash: r.hash,
    balance: r.balance === null ? null : String(r.balance),
    extra_currencies: null,
    account_status: r.account_status ?? null,
    frozen_hash: r.frozen_hash ?? null,
    data_hash: r.data_hash ?? null,
    code_hash: r.code_hash ?? null,
  };
}

async function accountEvents(
  db: Queryable,
  mcSeqno: number,
): Promise<Array<{ key: string; event: AccountFeedEvent; addresses: string[]; metaAddresses: string[] }>> {
  // The last transaction of each account in the block: its state after is the account's state at the block's end.
  const last = (
    await db.query(
      `SELECT DISTINCT ON (T.account) T.account, T.lt, T.account_state_hash_after AS state_hash
       FROM transactions T WHERE T.mc_block_seqno = $1 ORDER BY T.account, T.lt DESC`,
      [mcSeqno],
    )
  ).rows;
  if (last.length === 0) return [];
  const hashes = last.map((r) => r.state_hash).filter((h): h is string => typeof h === 'string');
  const states = new Map(
    (
      await db.query(
        `SELECT hash, account, balance, account_status, frozen_hash, data_hash, code_hash FROM account_states
         WHERE hash = ANY($1::text[])`,
        [hashes],
      )
    ).rows.map((r) => [String(r.hash), r]),
  );
  const accounts = last.map((r) => String(r.account));
  const jettons = new Map(
    (
      await db.query(
        `SELECT ${JETTON_WALLET_COLUMNS} FROM jetton_wallets J
         LEFT JOIN mintless_jetton_masters MJM ON MJM.address = J.jetton WHERE J.address = ANY($1::text[])`,
        [accounts],
      )
    ).rows.map((r) => [String(r.address), r]),
  );
  const out: Array<{ key: string; event: AccountFeedEvent; addresses: string[]; metaAddresses: string[] }> = [];
  for (const r of last) {
    const account = String(r.account);
    const state = states.get(String(r.state_hash));
    if (!state) continue;
    const event: AccountFeedEvent = { kind: 'account', finality: 'finalized', account, state: accountStateJson(state) };
    const j = jettons.get(account);
    const addresses: string[] = [];
    const metaAddresses: string[] = [];
    if (j && String(j.last_transaction_lt) === String(r.lt)) {
      // streaming.md §3.6: the v3 JettonWallet without mintless_info.
      const { mintless_info: _m, ...wallet } = jettonWalletJson(j);
      event.jetton = wallet;
      for (const a of [j.address, j.owner, j.jetton]) if (typeof a === 'string') addresses.push(a);
      for (const a of [j.owner, j.jetton]) if (typeof a === 'string') metaAddresses.push(a);
    }
    // 'u:' sorts after every trace's 't:' key: cursors compare keys as strings, in the order the block emits them.
    out.push({ key: `u:${account}`, event, addresses, metaAddresses });
  }
  return out;
}

/** Every finalized event of one masterchain block, in feed order, each with its cursor. */
export async function blockEvents(db: Queryable, mcSeqno: number, opts: BlockEventsOptions): Promise<Positioned[]> {
  const traces = await traceEvents(db, mcSeqno, opts);
  const accounts = await accountEvents(db, mcSeqno);
  if (opts.enrich) {
    const all = [...traces.flatMap((t) => t.addresses), ...accounts.flatMap((a) => a.addresses)];
    const book = all.length > 0 ? await buildAddressBook(db, all, { testnet: opts.testnet }) : {};
    const meta = all.length > 0 ? await buildMetadata(db, all) : {};
    const pick = (from: Record<string, unknown>, list: readonly string[]) => {
      const o: Record<string, Json> = {};
      for (const a of list) if (from[a] !== undefined) o[a] = from[a] as Json;
      return o;
    };
    for (const t of traces) {
      t.event.addressBook = pick(book, t.addresses);
      t.event.metadata = pick(meta, t.addresses);
    }
    for (const a of accounts) {
      if (!a.event.jetton) continue;
      a.event.addressBook = pick(book, a.addresses);
      a.event.metadata = pick(meta, a.metaAddresses);
    }
  }
  const cursorOf = (key: string): Cursor => ({ mcSeqno, key });
  // In cursor order (compareCursors: keys by UTF-16 code units), not the database collation's, which may differ
  // (en_US ignores ':' and '-', folds case): a replay skips what sorts at or before the client's cursor.
  traces.sort(byKey);
  accounts.sort(byKey);
  return [
    ...traces.map((t) => ({ event: t.event, cursor: formatCursor(cursorOf(t.key)) })),
    ...accounts.map((a) => ({ event: a.event, cursor: formatCursor(cursorOf(a.key)) })),
  ];
}

function byKey(a: { key: string }, b: { key: string }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
