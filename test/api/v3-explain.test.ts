// Every statement the v3 blockchain endpoints run is served by an index: EXPLAIN (FORMAT JSON) of each
// builder's SQL (the same text and parameters the routes send) on PostgreSQL, with sequential scans priced
// out (enable_seqscan=off), must not read a big table with a Seq Scan. On a table no index can serve, the
// planner still has to choose a Seq Scan, so a missing index shows up whatever the table's size. So that
// the planner also picks the index a large table would need (not whatever is cheapest on 50 rows), the
// fixture's rows are first replicated with fresh keys (hashes, accounts, lts, seqnos) to tens of thousands of
// rows per table and analyzed (bench/support/replicate.ts, shared with bench/v3); parameter values are real rows
// of the devnet index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicateIndex } from '../../bench/support/replicate.ts';
import type { Page } from '../../src/api/v3/params.ts';
import { accountStatesQuery, transactionMessagesQuery } from '../../src/api/v3/queries/transaction.ts';
import {
  blocksQuery,
  masterchainBlockExistsQuery,
  masterchainBlockQuery,
  shardStateQuery,
} from '../../src/api/v3/routes/blocks.ts';
import { messagesQuery, messageTransactionsQuery } from '../../src/api/v3/routes/messages.ts';
import { adjacentTransactionsQuery, transactionsQuery } from '../../src/api/v3/routes/transactions.ts';
import type { SqlQuery } from '../../src/api/v3/sql-query.ts';
import type { Row } from '../../src/db/index.ts';
import { type ApiFixture, startApiFixture } from '../helpers/api-fixture.ts';

const REPLICAS = 1000;

const BIG_TABLES = new Set(['transactions', 'messages', 'blocks', 'account_states', 'message_contents', 'shard_state']);

let f: ApiFixture;
/** Real values to plan with. */
let v: {
  tx: Row;
  multiAccounts: string[];
  msg: Row;
  extIn: Row;
  block: Row;
  mcSeqno: number;
};

beforeAll(async () => {
  f = await startApiFixture({ seed: 'v3-explain', db: 'postgres', activitySteps: 4 });
  const db = (f.db as NonNullable<ApiFixture['db']>).db;
  const one = async (sql: string) => (await db.query(sql)).rows[0] as Row;
  v = {
    tx: await one(`SELECT T.*, M.msg_hash AS in_hash FROM transactions T
      JOIN messages M ON M.tx_hash = T.hash AND M.direction = 'in' WHERE M.source IS NOT NULL ORDER BY T.lt DESC LIMIT 1`),
    multiAccounts: (await db.query('SELECT DISTINCT account FROM transactions LIMIT 3')).rows.map(
      (r) => r.account as string,
    ),
    msg: await one(`SELECT * FROM messages WHERE source IS NOT NULL AND opcode IS NOT NULL LIMIT 1`),
    extIn: await one(`SELECT * FROM messages WHERE msg_hash_norm IS NOT NULL LIMIT 1`),
    block: await one('SELECT * FROM blocks WHERE workchain = 0 ORDER BY seqno DESC LIMIT 1'),
    mcSeqno: Number((await one('SELECT max(seqno) AS s FROM blocks WHERE workchain = -1')).s),
  };
  await replicateIndex(db, { copies: REPLICAS });
}, 600_000);
afterAll(async () => {
  await f?.close();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function walk(n: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(n);
  for (const c of n.Plans ?? []) walk(c, out);
  return out;
}

/** One line per node, indented: shown when an expectation fails. */
function planText(n: PlanNode, depth = 0): string {
  const self = `${'  '.repeat(depth)}${n['Node Type']}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}${
    n['Index Name'] ? ` using ${n['Index Name']}` : ''
  }`;
  return [self, ...(n.Plans ?? []).map((c) => planText(c, depth + 1))].join('\n');
}

async function plan(q: SqlQuery): Promise<PlanNode[]> {
  const db = (f.db as NonNullable<ApiFixture['db']>).db;
  return db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off');
    const r = await tx.query(`EXPLAIN (FORMAT JSON) ${q.sql}`, q.params);
    const json = r.rows[0]?.['QUERY PLAN'] as Array<{ Plan: PlanNode }>;
    return walk(json[0]?.Plan as PlanNode);
  });
}

/** Asserts no big table is read by a Seq Scan and returns the indexes the plan uses. */
async function expectIndexed(name: string, q: SqlQuery): Promise<string[]> {
  const nodes = await plan(q);
  const text = `${name}:\n${planText(nodes[0] as PlanNode)}`;
  const seq = nodes.filter((n) => n['Node Type'] === 'Seq Scan' && BIG_TABLES.has(n['Relation Name'] ?? ''));
  expect(seq.length, text).toBe(0);
  const used = nodes.filter((n) => n['Index Name']).map((n) => n['Index Name'] as string);
  expect(used.length, text).toBeGreaterThan(0);
  return used;
}

const page = (sort: 'asc' | 'desc' = 'desc'): Page => ({ limit: 10, offset: 0, sort });

describe('the check', () => {
  it('sees the Seq Scan of a filter no index serves, even with sequential scans priced out', async () => {
    const nodes = await plan({ sql: 'SELECT hash FROM transactions WHERE total_fees = $1 LIMIT 1', params: [1] });
    expect(nodes.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'transactions')).toBe(true);
  });
});

describe('blocks endpoints', () => {
  it('masterchainInfo and the masterchain block check use blocks_index_3 (or the primary key)', async () => {
    expect(await expectIndexed('mc first', masterchainBlockQuery('first'))).toContain('blocks_index_3');
    expect(await expectIndexed('mc last', masterchainBlockQuery('last'))).toContain('blocks_index_3');
    expect(await expectIndexed('mc exists', masterchainBlockExistsQuery(v.mcSeqno))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^blocks_(pkey|index_3)$/)]),
    );
  });

  it('every /blocks filter and the shard endpoints', async () => {
    const b = v.block;
    const cases: Array<[string, SqlQuery, string[]?]> = [
      ['none', blocksQuery({ page: page() }), ['blocks_index_1']],
      ['none asc', blocksQuery({ page: page('asc') }), ['blocks_index_1']],
      ['workchain', blocksQuery({ workchain: 0, page: page() })],
      ['workchain+shard', blocksQuery({ workchain: 0, shard: b.shard as bigint, page: page() })],
      [
        'id',
        blocksQuery({ workchain: 0, shard: b.shard as bigint, seqno: b.seqno as number, page: page() }),
        ['blocks_pkey'],
      ],
      ['workchain+seqno', blocksQuery({ workchain: 0, seqno: b.seqno as number, page: page() })],
      ['root_hash', blocksQuery({ rootHash: b.root_hash as string, page: page() }), ['blocks_index_5']],
      ['file_hash', blocksQuery({ fileHash: b.file_hash as string, page: page() }), ['blocks_index_6']],
      ['mc_seqno', blocksQuery({ mcSeqno: v.mcSeqno, page: page() }), ['blocks_index_2']],
      ['utime', blocksQuery({ window: { startUtime: 1, endUtime: Number(b.gen_utime) }, page: page() })],
      ['lt', blocksQuery({ window: { startLt: 1n, endLt: BigInt(b.start_lt as bigint) }, page: page() })],
      ['shard state', shardStateQuery(v.mcSeqno), ['shard_state_pkey']],
    ];
    for (const [name, q, allowed] of cases) {
      const used = await expectIndexed(name, q);
      if (allowed)
        expect(
          allowed.some((i) => used.includes(i)),
          `${name} uses ${allowed} (got ${used})`,
        ).toBe(true);
    }
  });
});

describe('transactions endpoints', () => {
  it('every /transactions filter shape', async () => {
    const t = v.tx;
    const account = t.account as string;
    const cases: Array<[string, SqlQuery, string[]?]> = [
      ['none', transactionsQuery({ page: page() }), ['transactions_index_2']],
      ['utime', transactionsQuery({ window: { startUtime: 1, endUtime: Number(t.now) }, page: page() })],
      ['lt window', transactionsQuery({ window: { startLt: 1n, endLt: BigInt(t.lt as bigint) }, page: page() })],
      [
        'one account',
        transactionsQuery({ accounts: [account], page: page() }),
        ['transactions_index_4', 'transactions_index_5', 'transactions_index_9'],
      ],
      [
        'one account + utime',
        transactionsQuery({ accounts: [account], window: { startUtime: 1 }, page: page() }),
        ['transactions_index_4', 'transactions_index_5', 'transactions_index_9'],
      ],
      ['accounts', transactionsQuery({ accounts: v.multiAccounts, page: page() })],
      ['exclude_account', transactionsQuery({ excludeAccounts: [account], page: page() })],
      ['hash', transactionsQuery({ hashes: [t.hash as string], page: page() }), ['transactions_pkey']],
      ['lt', transactionsQuery({ lt: BigInt(t.lt as bigint), page: page() }), ['transactions_index_2']],
      ['mc_seqno', transactionsQuery({ mcSeqno: t.mc_block_seqno as number, page: page() }), ['transactions_index_8']],
      [
        'block',
        transactionsQuery({
          workchain: t.block_workchain as number,
          shard: t.block_shard as bigint,
          seqno: t.block_seqno as number,
          page: page(),
        }),
        ['transactions_index_1'],
      ],
      ['workchain', transactionsQuery({ workchain: 0, page: page() })],
      [
        'by msg_hash',
        transactionsQuery({ message: { msgHashes: [t.in_hash as string] }, page: page() }),
        ['messages_index_1'],
      ],
      [
        'by msg_hash + direction',
        transactionsQuery({ message: { msgHashes: [t.in_hash as string], direction: 'in' }, page: page() }),
        ['messages_index_1'],
      ],
      ['by body_hash', transactionsQuery({ message: { bodyHash: v.msg.body_hash as string }, page: page() })],
      ['by opcode', transactionsQuery({ message: { opcode: v.msg.opcode as number }, page: page() })],
      // The linked transactions are fetched by (hash, lt): the planner may seek either key.
      ['adjacent', adjacentTransactionsQuery(t.hash as string), ['transactions_pkey', 'transactions_index_2']],
      ['adjacent in', adjacentTransactionsQuery(t.hash as string, 'in'), ['messages_index_1']],
      ['adjacent out', adjacentTransactionsQuery(t.hash as string, 'out')],
      ['messages of a page', transactionMessagesQuery([t.hash as string]), ['messages_pkey']],
      [
        'account states of a page',
        accountStatesQuery([t.account_state_hash_before as string, t.account_state_hash_after as string]),
        ['account_states_pkey'],
      ],
    ];
    for (const [name, q, allowed] of cases) {
      const used = await expectIndexed(name, q);
      if (allowed)
        expect(
          allowed.some((i) => used.includes(i)),
          `${name} uses ${allowed} (got ${used})`,
        ).toBe(true);
    }
  });
});

describe('messages endpoint', () => {
  it('every /messages filter shape', async () => {
    const m = v.msg;
    const cases: Array<[string, SqlQuery, string[]?]> = [
      ['none', messagesQuery({ page: page() }), ['messages_index_7']],
      ['none asc', messagesQuery({ page: page('asc') }), ['messages_index_7']],
      ['utime', messagesQuery({ window: { startUtime: 1 }, page: page() }), ['messages_index_8']],
      ['lt', messagesQuery({ window: { startLt: 1n, endLt: BigInt(m.created_lt as bigint) }, page: page() })],
      ['source', messagesQuery({ source: m.source as string, page: page() }), ['messages_index_2']],
      ['source null', messagesQuery({ source: null, page: page() }), ['messages_index_2', 'messages_index_7']],
      ['destination', messagesQuery({ destination: m.destination as string, page: page() }), ['messages_index_3']],
      [
        'destination null',
        messagesQuery({ destination: null, page: page() }),
        ['messages_index_3', 'messages_index_7'],
      ],
      // The devnet has a handful of opcodes, so one is common enough that the planner walks the lt order.
      ['opcode', messagesQuery({ opcode: m.opcode as number, page: page() }), ['messages_index_6']],
      ['msg_hash', messagesQuery({ msgHashes: [m.msg_hash as string], page: page() }), ['messages_index_1']],
      [
        'msg_hash_norm',
        messagesQuery({ msgHashes: [v.extIn.msg_hash_norm as string], page: page() }),
        ['messages_index_9'],
      ],
      ['body_hash', messagesQuery({ bodyHash: m.body_hash as string, page: page() }), ['messages_index_4']],
      ['direction', messagesQuery({ direction: 'in', page: page() })],
      ['exclude_externals', messagesQuery({ excludeExternals: true, page: page() })],
      ['only_externals', messagesQuery({ onlyExternals: true, page: page() })],
      ['transactions of a page', messageTransactionsQuery([m.msg_hash as string], 'out'), ['messages_index_1']],
    ];
    for (const [name, q, allowed] of cases) {
      const used = await expectIndexed(name, q);
      if (allowed)
        expect(
          allowed.some((i) => used.includes(i)),
          `${name} uses ${allowed} (got ${used})`,
        ).toBe(true);
    }
  });
});
