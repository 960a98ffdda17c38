// Shared helpers for the indexer tests: an order-independent checksum over every table the core indexer writes
// (and the trace assembler and classifier after it)
// (every column except latest_account_states.id and the checkpoints' indexed_at, which a re-run legitimately
// changes), and row counts.
import type { DatabaseConfig } from '../../src/common/index.ts';
import { createDatabase, type Database, type Queryable } from '../../src/db/index.ts';
import { classifyMcBlock } from '../../src/index/actions/index.ts';
import type { ContractsEnv } from '../../src/index/decode/contracts/index.ts';
import { type BlockSource, indexMcBlock } from '../../src/index/index.ts';
import { assembleTraces } from '../../src/index/traces/index.ts';

const TABLES: Array<{ table: string; exclude: string[] }> = [
  { table: 'blocks', exclude: [] },
  { table: 'shard_state', exclude: [] },
  { table: 'transactions', exclude: [] },
  { table: 'messages', exclude: [] },
  { table: 'message_contents', exclude: [] },
  { table: 'account_states', exclude: [] },
  { table: 'latest_account_states', exclude: ['id'] },
  { table: 'index_checkpoints', exclude: ['indexed_at'] },
  // Traces and actions (issue 10): empty where a test indexes without assembling.
  { table: 'traces', exclude: [] },
  { table: 'trace_pending_edges', exclude: [] },
  { table: 'actions', exclude: [] },
  { table: 'action_accounts', exclude: [] },
];

/** The contract decoders' tables (issue 9): every column but the row-number id. */
export const CONTRACT_TABLES: Array<{ table: string; exclude: string[] }> = [
  'contract_methods',
  'jetton_masters',
  'jetton_wallets',
  'jetton_transfers',
  'jetton_burns',
  'jetton_mints',
  'nft_collections',
  'nft_items',
  'nft_transfers',
  'dns_entries',
  'multisig',
  'multisig_orders',
  'vesting_contracts',
  'vesting_whitelist',
  'getgems_nft_sales',
  'getgems_nft_auctions',
].map((table) => ({ table, exclude: ['id'] }));

/** Per table: row count and md5 of the sorted md5s of each row's text form (order-independent). */
export async function checksums(
  db: Queryable,
  tables: Array<{ table: string; exclude: string[] }> = TABLES,
): Promise<Record<string, { rows: number; md5: string }>> {
  const out: Record<string, { rows: number; md5: string }> = {};
  for (const { table, exclude } of tables) {
    const cols = await db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
      [table],
    );
    const list = cols.rows.map((c) => c.column_name).filter((c) => !exclude.includes(c));
    const row = `ROW(${list.map((c) => `t."${c}"`).join(', ')})::text`;
    const r = await db.query<{ n: string; h: string | null }>(
      `SELECT count(*)::text AS n, md5(coalesce(string_agg(x, ',' ORDER BY x), '')) AS h
       FROM (SELECT md5(${row}) AS x FROM ${table} t) s`,
    );
    out[table] = { rows: Number(r.rows[0]!.n), md5: r.rows[0]!.h ?? '' };
  }
  return out;
}

/** checksums() of a database given by its config (opened and closed here). */
export async function checksumsOf(config: DatabaseConfig): Promise<Record<string, { rows: number; md5: string }>> {
  const db = await createDatabase(config);
  try {
    return await checksums(db);
  } finally {
    await db.close();
  }
}

/** What a worker does per masterchain block, in order over [from, to]: index, assemble traces, classify. */
export async function indexInOrder(
  db: Database,
  source: BlockSource,
  from: number,
  to: number,
  contracts?: ContractsEnv,
): Promise<void> {
  for (let n = from; n <= to; n++) {
    await indexMcBlock(n, { source, db, ...(contracts ? { contracts } : {}) });
    await assembleTraces(db);
    await classifyMcBlock(n, { db });
  }
}
