// The contract tables' share of a unit's transaction (issue 9): events are plain COPY (a re-run deletes them by
// mc_seqno first), latest-state tables are staged and upserted only forward in last_transaction_lt (so units
// committed out of order leave the newest state; an equal lt replaces, which is what a re-derive needs),
// contract_methods is insert-if-absent (content-addressed by code hash), and a vesting contract's whitelist is
// replaced together with the contract row it belongs to.
import type { Queryable } from '../../db/index.ts';
import type { Row } from '../decode/columns.ts';
import { CONTRACT_TABLE_COLUMNS } from '../decode/contracts/columns.ts';
import { stageRows } from './stage.ts';

/** Tables of one row per event, keyed by (tx_hash, tx_lt), carrying mc_seqno. */
export const EVENT_TABLES = ['jetton_transfers', 'jetton_burns', 'jetton_mints', 'nft_transfers'] as const;

/** Latest-state tables and their key column. */
export const LATEST_TABLES: Record<string, string> = {
  jetton_masters: 'address',
  jetton_wallets: 'address',
  nft_collections: 'address',
  nft_items: 'address',
  dns_entries: 'nft_item_address',
  multisig: 'address',
  multisig_orders: 'address',
  vesting_contracts: 'address',
  getgems_nft_sales: 'address',
  getgems_nft_auctions: 'address',
};

const ORDERED_LATEST = Object.keys(LATEST_TABLES);

function columnsOf(table: string): readonly string[] {
  const c = CONTRACT_TABLE_COLUMNS[table];
  if (!c) throw new Error(`write-contracts: no column list for ${table}`);
  return c;
}

const stage = (tx: Queryable, table: string, rows: Row[]) => stageRows(tx, table, columnsOf(table), rows);

/** Keeps the last row per key (the unit's newest), sorted by key so concurrent writers lock rows in one order. */
function newestByKey(table: string, rows: Row[]): Row[] {
  const cols = columnsOf(table);
  const k = cols.indexOf(LATEST_TABLES[table] ?? 'address');
  const lt = cols.indexOf('last_transaction_lt');
  const m = new Map<string, Row>();
  for (const r of rows) {
    const key = String(r[k]);
    const have = m.get(key);
    if (!have || BigInt(have[lt] as bigint) <= BigInt(r[lt] as bigint)) m.set(key, r);
  }
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

async function upsertLatest(tx: Queryable, table: string, rows: Row[]): Promise<void> {
  const cols = columnsOf(table);
  const key = LATEST_TABLES[table]!;
  const name = await stage(tx, table, newestByKey(table, rows));
  const list = cols.join(', ');
  const set = cols
    .filter((c) => c !== key)
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(', ');
  await tx.query(
    `INSERT INTO ${table} (${list}) SELECT ${list} FROM ${name} ORDER BY ${key}
     ON CONFLICT (${key}) DO UPDATE SET ${set} WHERE ${table}.last_transaction_lt <= EXCLUDED.last_transaction_lt`,
  );
}

/** Replaces the whitelists of the vesting contracts whose row this unit just wrote. */
async function replaceWhitelists(tx: Queryable, rows: Row[]): Promise<void> {
  const fresh = `SELECT s.address FROM stage_vesting_contracts s
                 JOIN vesting_contracts v ON v.address = s.address AND v.last_transaction_lt = s.last_transaction_lt`;
  await tx.query(`DELETE FROM vesting_whitelist WHERE vesting_contract_address IN (${fresh})`);
  if (rows.length === 0) return;
  const name = await stage(tx, 'vesting_whitelist', rows);
  const list = columnsOf('vesting_whitelist').join(', ');
  await tx.query(
    `INSERT INTO vesting_whitelist (${list}) SELECT ${list} FROM ${name}
     WHERE vesting_contract_address IN (${fresh}) ON CONFLICT DO NOTHING`,
  );
}

/** Writes a unit's contract rows inside the unit's transaction. */
export async function writeContractRows(tx: Queryable, tables: ReadonlyMap<string, Row[]>): Promise<number> {
  let n = 0;
  for (const t of EVENT_TABLES) {
    const rows = tables.get(t);
    if (rows?.length) n += await tx.copyFrom(t, columnsOf(t), rows);
  }
  for (const t of ORDERED_LATEST) {
    const rows = tables.get(t);
    if (!rows?.length) continue;
    await upsertLatest(tx, t, rows);
    n += rows.length;
    if (t === 'vesting_contracts') await replaceWhitelists(tx, tables.get('vesting_whitelist') ?? []);
  }
  const methods = tables.get('contract_methods');
  if (methods?.length) {
    const name = await stage(tx, 'contract_methods', methods);
    const list = columnsOf('contract_methods').join(', ');
    await tx.query(
      `INSERT INTO contract_methods (${list}) SELECT DISTINCT ON (code_hash) ${list} FROM ${name}
       ORDER BY code_hash ON CONFLICT (code_hash) DO NOTHING`,
    );
  }
  return n;
}

/** Deletes the event rows a masterchain block wrote (latest-state rows are kept: they hold newer states). */
export async function deleteContractEvents(tx: Queryable, mcSeqno: number, tables = EVENT_TABLES): Promise<void> {
  for (const t of tables) await tx.query(`DELETE FROM ${t} WHERE mc_seqno = $1`, [mcSeqno]);
}
