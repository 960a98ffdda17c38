// `tongate index rederive`: recompute the contract rows from what the database stores, so a better decoder never
// needs the chain again (issue 9). Latest-state tables are recomputed from latest_account_states (code and data of
// every account), then event tables from the stored transactions, messages and bodies of the masterchain blocks
// in range, joined with the fresh detections. Each batch commits in its own transaction; a crash leaves every
// batch either old or new, and a re-run redoes it.
import { Address } from '@ton/core';
import type { Database, Queryable } from '../../db/index.ts';
import { cellFromBase64 } from '../../ton/index.ts';
import type { Row } from '../decode/columns.ts';
import { transactionInputFromRows } from '../decode/contracts/events/index.ts';
import type { AccountInput, TransactionInput } from '../decode/contracts/types.ts';
import { decodeUnitContracts } from '../decode/contracts/unit.ts';
import { EVENT_TABLES, LATEST_TABLES, writeContractRows } from '../write/write-contracts.ts';
import type { OwnedContractsEnv } from './env.ts';
import { storedAccount } from './stored.ts';

export const FAMILIES = ['jetton', 'nft', 'dns', 'multisig', 'vesting'] as const;
export type Family = (typeof FAMILIES)[number];

/** The tables each family owns (latest-state, then events). */
export const FAMILY_TABLES: Record<Family, { latest: string[]; events: string[] }> = {
  jetton: {
    latest: ['jetton_masters', 'jetton_wallets'],
    events: ['jetton_transfers', 'jetton_burns', 'jetton_mints'],
  },
  nft: {
    latest: ['nft_collections', 'nft_items', 'getgems_nft_sales', 'getgems_nft_auctions'],
    events: ['nft_transfers'],
  },
  dns: { latest: ['dns_entries'], events: [] },
  multisig: { latest: ['multisig', 'multisig_orders'], events: [] },
  vesting: { latest: ['vesting_contracts'], events: [] },
};

/** Inbound opcodes whose transactions can yield each event table (signed int32 as messages.opcode holds them). */
const EVENT_OPCODES: Record<string, number[]> = {
  jetton_transfers: [0x0f8a7ea5],
  jetton_burns: [0x595f07bc],
  jetton_mints: [0x178d4519],
  nft_transfers: [0x5fcc3d14],
};

export interface RederiveOptions {
  db: Database;
  env: OwnedContractsEnv;
  families: readonly Family[];
  /** Masterchain range; default every checkpointed block. Latest-state rows: accounts whose last transaction is in it. */
  from?: number;
  to?: number;
  /** Accounts or masterchain blocks per transaction. */
  batch?: number;
  onProgress?: (p: RederiveProgress) => void;
  signal?: AbortSignal;
}

export interface RederiveProgress {
  phase: 'states' | 'events';
  done: number;
  total: number;
  rows: number;
}

type LatestRow = {
  account: string;
  code_boc: string;
  data_boc: string;
  balance: string;
  last_trans_lt: string;
  now: string;
};

function only(tables: Map<string, Row[]>, keep: ReadonlySet<string>): Map<string, Row[]> {
  return new Map([...tables].filter(([t]) => keep.has(t)));
}

async function checkpointRange(db: Queryable, from?: number, to?: number): Promise<[number, number] | null> {
  const r = await db.query<{ lo: number | null; hi: number | null }>(
    `SELECT min(mc_seqno) AS lo, max(mc_seqno) AS hi FROM index_checkpoints WHERE part = 'core'`,
  );
  const lo = r.rows[0]?.lo;
  const hi = r.rows[0]?.hi;
  if (lo == null || hi == null) return null;
  return [Math.max(Number(lo), from ?? 0), Math.min(Number(hi), to ?? Number.MAX_SAFE_INTEGER)];
}

/** Recomputes the latest-state tables of `families` for the accounts in range. */
async function rederiveStates(o: RederiveOptions, range: [number, number], tables: Set<string>): Promise<number> {
  const { db, env } = o;
  const batch = o.batch ?? 500;
  const where = `l.account_status = 'active' AND l.code_boc IS NOT NULL AND l.data_boc IS NOT NULL
    AND EXISTS (SELECT 1 FROM transactions t WHERE t.hash = l.last_trans_hash AND t.lt = l.last_trans_lt
                AND t.mc_block_seqno BETWEEN $1 AND $2)`;
  const total = Number(
    (await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM latest_account_states l WHERE ${where}`, range))
      .rows[0]?.n ?? 0,
  );
  let done = 0;
  let rows = 0;
  let after = '';
  const latestTables = [...tables].filter((t) => t in LATEST_TABLES);
  while (!o.signal?.aborted) {
    const page = await db.query<LatestRow>(
      `SELECT l.account, l.code_boc, l.data_boc, l.balance::text AS balance, l.last_trans_lt::text AS last_trans_lt,
              l.timestamp::text AS now
         FROM latest_account_states l WHERE ${where} AND l.account > $3 ORDER BY l.account LIMIT $4`,
      [...range, after, batch],
    );
    if (page.rows.length === 0) break;
    after = page.rows[page.rows.length - 1]!.account;
    const states: AccountInput[] = page.rows.map((r) => ({
      address: Address.parseRaw(r.account),
      code: cellFromBase64(r.code_boc),
      data: cellFromBase64(r.data_boc),
      balance: BigInt(r.balance),
      lastTransLt: BigInt(r.last_trans_lt),
    }));
    const now = Math.max(...page.rows.map((r) => Number(r.now)));
    const decoded = await decodeUnitContracts(
      { mcSeqno: range[1], now, transactions: [], states, account: (a) => storedAccount(db, a) },
      env,
    );
    const out = only(decoded.tables, new Set([...tables, 'contract_methods', 'vesting_whitelist']));
    const accounts = page.rows.map((r) => r.account);
    await db.transaction(async (tx) => {
      // An account the better decoder no longer recognises loses its old row.
      for (const t of latestTables) {
        await tx.query(`DELETE FROM ${t} WHERE ${LATEST_TABLES[t]} = ANY($1)`, [accounts]);
      }
      if (tables.has('vesting_contracts')) {
        await tx.query('DELETE FROM vesting_whitelist WHERE vesting_contract_address = ANY($1)', [accounts]);
      }
      rows += await writeContractRows(tx, out);
    });
    done += page.rows.length;
    o.onProgress?.({ phase: 'states', done, total, rows });
  }
  return rows;
}

/** Recomputes the event tables of `families` for the masterchain blocks in range. */
async function rederiveEvents(o: RederiveOptions, range: [number, number], tables: Set<string>): Promise<number> {
  const { db, env } = o;
  const eventTables = EVENT_TABLES.filter((t) => tables.has(t));
  if (eventTables.length === 0) return 0;
  const opcodes = eventTables.flatMap((t) => EVENT_OPCODES[t] ?? []);
  const batch = o.batch ?? 500;
  const total = range[1] - range[0] + 1;
  let rows = 0;
  for (let lo = range[0]; lo <= range[1] && !o.signal?.aborted; lo += batch) {
    const hi = Math.min(range[1], lo + batch - 1);
    const txs = await loadTransactions(db, lo, hi, opcodes);
    const decoded = await decodeUnitContracts(
      { mcSeqno: hi, now: 0, transactions: txs, states: [], account: (a) => storedAccount(db, a) },
      env,
    );
    const out = only(decoded.tables, new Set(eventTables));
    await db.transaction(async (tx) => {
      for (const t of eventTables) await tx.query(`DELETE FROM ${t} WHERE mc_seqno BETWEEN $1 AND $2`, [lo, hi]);
      rows += await writeContractRows(tx, out);
      // Event rows carry their transaction's assembled trace id.
      for (const t of eventTables) {
        await tx.query(
          `UPDATE ${t} e SET trace_id = x.trace_id FROM transactions x
           WHERE e.mc_seqno BETWEEN $1 AND $2 AND x.hash = e.tx_hash AND x.lt = e.tx_lt AND x.trace_id IS NOT NULL`,
          [lo, hi],
        );
      }
    });
    o.onProgress?.({ phase: 'events', done: hi - range[0] + 1, total, rows });
  }
  return rows;
}

/** Transactions of masterchain blocks lo..hi whose inbound message has one of `opcodes`, with all their messages. */
export async function loadTransactions(
  db: Queryable,
  lo: number,
  hi: number,
  opcodes: number[],
): Promise<TransactionInput[]> {
  const txs = await db.query<Record<string, unknown>>(
    `SELECT t.* FROM transactions t
      WHERE t.mc_block_seqno BETWEEN $1 AND $2
        AND EXISTS (SELECT 1 FROM messages m WHERE m.tx_hash = t.hash AND m.tx_lt = t.lt
                    AND m.direction = 'in' AND m.opcode = ANY($3))
      ORDER BY t.lt, t.hash`,
    [lo, hi, opcodes],
  );
  if (txs.rows.length === 0) return [];
  const msgs = await db.query<Record<string, unknown>>(
    `SELECT m.*, b.body AS body_boc, i.body AS init_boc FROM messages m
       LEFT JOIN message_contents b ON b.hash = m.body_hash
       LEFT JOIN message_contents i ON i.hash = m.init_state_hash
      WHERE (m.tx_hash, m.tx_lt) IN (SELECT * FROM unnest($1::text[], $2::bigint[]))`,
    [txs.rows.map((t) => t.hash), txs.rows.map((t) => String(t.lt))],
  );
  const byTx = new Map<string, Record<string, unknown>[]>();
  for (const m of msgs.rows) {
    const k = `${m.tx_hash}:${m.tx_lt}`;
    const list = byTx.get(k) ?? [];
    if (list.length === 0) byTx.set(k, list);
    list.push(m);
  }
  return txs.rows.map((t) => transactionInputFromRows(t, byTx.get(`${t.hash}:${t.lt}`) ?? []));
}

/** Runs a rederive of `families` and returns the rows written per phase. */
export async function rederive(o: RederiveOptions): Promise<{ states: number; events: number }> {
  const range = await checkpointRange(o.db, o.from, o.to);
  if (!range || range[0] > range[1]) return { states: 0, events: 0 };
  const tables = new Set(o.families.flatMap((f) => [...FAMILY_TABLES[f].latest, ...FAMILY_TABLES[f].events]));
  const states = await rederiveStates(o, range, tables);
  const events = await rederiveEvents(o, range, tables);
  return { states, events };
}
