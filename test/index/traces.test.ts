// Trace assembly over a real devnet chain (the core activity cycle: transfers, jetton and NFT flows, a bounce, a
// failed compute): blocks indexed in order into PGlite, and in a shuffled order by three concurrent "workers" into
// PostgreSQL, each worker running the assembler after its block as the index worker does. Checked against trees
// built independently here from every stored transaction and message (a message's receiver is the child of its
// sender), not against the assembler's own bookkeeping; both orders must give identical traces.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/index.ts';
import { migrate } from '../../src/db/index.ts';
import { classifyMcBlock } from '../../src/index/actions/index.ts';
import { createDevnetStoreSource, indexMcBlock } from '../../src/index/index.ts';
import { assembleTraces, traceAssemblyState } from '../../src/index/traces/index.ts';
import { setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { type DevnetChain, startDevnetChain } from '../helpers/devnet-chain.ts';

let chain: DevnetChain;
let head: number;
const dbs: TestDatabase[] = [];

beforeAll(async () => {
  chain = await startDevnetChain({ seed: 'traces-assembly', stop: true });
  head = await (await createDevnetStoreSource(chain.info.devnetDir)).head();
}, 300_000);

afterAll(async () => {
  for (const d of dbs) await d.cleanup();
  await rm(chain.dir, { recursive: true, force: true });
});

interface Expected {
  traceOf: Map<string, string>;
  nodes: Map<string, number>;
  edges: Map<string, number>;
  pending: Map<string, number>;
  orphans: string[];
}

/** Trees from the stored rows alone: union of each transaction with the sender of its inbound internal message. */
async function expectedTraces(db: Database): Promise<Expected> {
  const txs = (await db.query<{ hash: string; lt: string }>('SELECT hash, lt::text AS lt FROM transactions')).rows;
  const msgs = (
    await db.query<{
      tx_hash: string;
      msg_hash: string;
      direction: string;
      source: string | null;
      destination: string | null;
    }>('SELECT tx_hash, msg_hash, direction, source, destination FROM messages')
  ).rows;
  const sender = new Map<string, string>();
  const parent = new Map<string, string>();
  for (const m of msgs) if (m.direction === 'out' && m.destination !== null) sender.set(m.msg_hash, m.tx_hash);
  for (const m of msgs) {
    if (m.direction !== 'in' || m.source === null) continue;
    const p = sender.get(m.msg_hash);
    if (p) parent.set(m.tx_hash, p);
  }
  const rootOf = (h: string): string => {
    let cur = h;
    for (let p = parent.get(cur); p; p = parent.get(cur)) cur = p;
    return cur;
  };
  const e: Expected = { traceOf: new Map(), nodes: new Map(), edges: new Map(), pending: new Map(), orphans: [] };
  const received = new Set(msgs.filter((m) => m.direction === 'in').map((m) => m.msg_hash));
  const add = (m: Map<string, number>, k: string, n = 1) => m.set(k, (m.get(k) ?? 0) + n);
  for (const t of txs) {
    const r = rootOf(t.hash);
    e.traceOf.set(t.hash, r);
    add(e.nodes, r);
  }
  for (const m of msgs) {
    const r = e.traceOf.get(m.tx_hash)!;
    if (m.direction === 'in') add(e.edges, r);
    else if (m.destination === null) add(e.edges, r);
    else if (!received.has(m.msg_hash)) add(e.pending, r);
    if (m.direction === 'in' && m.source !== null && !sender.has(m.msg_hash) && m.source !== `-1:${'0'.repeat(64)}`) {
      e.orphans.push(m.tx_hash);
    }
  }
  return e;
}

async function storedTraces(db: Database) {
  const traces = (
    await db.query<Record<string, unknown>>(
      `SELECT trace_id, external_hash, external_hash_norm, mc_seqno_start, mc_seqno_end, start_lt::text, start_utime,
              end_lt::text, end_utime, state, pending_edges_::int, edges_::int, nodes_::int FROM traces ORDER BY trace_id`,
    )
  ).rows;
  const txTrace = (await db.query<{ hash: string; trace_id: string | null }>('SELECT hash, trace_id FROM transactions'))
    .rows;
  const msgTrace = (
    await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages m JOIN transactions t ON t.hash = m.tx_hash AND t.lt = m.tx_lt
       WHERE m.trace_id IS DISTINCT FROM t.trace_id`,
    )
  ).rows[0]!.n;
  return { traces, txTrace: new Map(txTrace.map((r) => [r.hash, r.trace_id])), msgTrace };
}

async function checkAgainstRows(db: Database) {
  const e = await expectedTraces(db);
  const s = await storedTraces(db);
  expect(s.txTrace.size).toBeGreaterThan(20);
  for (const [hash, root] of e.traceOf) expect(s.txTrace.get(hash), hash).toBe(root);
  expect(s.msgTrace).toBe(0);
  expect(e.orphans).toEqual([]);
  expect(s.traces.map((t) => t.trace_id).sort()).toEqual([...new Set(e.traceOf.values())].sort());
  for (const t of s.traces) {
    const id = String(t.trace_id);
    expect(t.nodes_, id).toBe(e.nodes.get(id));
    expect(t.edges_, id).toBe(e.edges.get(id) ?? 0);
    expect(t.pending_edges_, id).toBe(e.pending.get(id) ?? 0);
    expect(t.state, id).toBe((e.pending.get(id) ?? 0) > 0 ? 'pending' : 'complete');
  }
  // Traces that span blocks: the activity's jetton and NFT flows cross shards and blocks.
  expect(s.traces.filter((t) => Number(t.mc_seqno_end) > Number(t.mc_seqno_start)).length).toBeGreaterThan(3);
  return s;
}

describe('trace assembly on the devnet', () => {
  let inOrder: Awaited<ReturnType<typeof storedTraces>>;

  it('in order into PGlite: every transaction gets the trace its message links imply', async () => {
    const t = await setupDatabase('pglite');
    dbs.push(t);
    await migrate(t.db);
    const source = await createDevnetStoreSource(chain.info.devnetDir);
    for (let n = 1; n <= head; n++) {
      await indexMcBlock(n, { source, db: t.db });
      const done = await assembleTraces(t.db);
      expect(done.map((b) => b.mcSeqno)).toEqual([n]);
    }
    expect(await traceAssemblyState(t.db)).toEqual({ firstMcSeqno: 1, nextMcSeqno: head + 1 });
    inOrder = await checkAgainstRows(t.db);
    // Every final trace is classified into at least one action; pending ones are not.
    let classified = 0;
    for (let n = 1; n <= head; n++) classified += (await classifyMcBlock(n, { db: t.db })).traces;
    const states = (
      await t.db.query<{ state: string; classification_state: string; n: number }>(
        'SELECT state, classification_state, count(*)::int AS n FROM traces GROUP BY 1, 2',
      )
    ).rows;
    for (const r of states) expect(r.classification_state).toBe(r.state === 'complete' ? 'ok' : 'unclassified');
    expect(classified).toBeGreaterThan(0);
    const orphanActions = await t.db.query(
      'SELECT 1 FROM actions a LEFT JOIN traces t ON t.trace_id = a.trace_id WHERE t.trace_id IS NULL',
    );
    expect(orphanActions.rowCount).toBe(0);
  }, 300_000);

  it('shuffled, three concurrent workers, into PostgreSQL: the same traces', async () => {
    const t = await setupDatabase('postgres');
    dbs.push(t);
    await migrate(t.db);
    const source = await createDevnetStoreSource(chain.info.devnetDir);
    await t.db.query('INSERT INTO trace_assembly (id, first_mc_seqno, next_mc_seqno) VALUES (1, 1, 1)');
    const order = Array.from({ length: head }, (_, i) => i + 1);
    // A fixed permutation (deterministic; not sorted): reverse pairs and interleave the halves.
    const shuffled = order.map((_, i) => order[(i * 7919) % order.length]!);
    expect(new Set(shuffled).size).toBe(head);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < shuffled.length; i = next++) {
        await indexMcBlock(shuffled[i]!, { source, db: t.db });
        await assembleTraces(t.db);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    await assembleTraces(t.db);
    expect(await traceAssemblyState(t.db)).toEqual({ firstMcSeqno: 1, nextMcSeqno: head + 1 });
    const shuffledResult = await checkAgainstRows(t.db);
    expect(shuffledResult.traces).toEqual(inOrder.traces);
    expect([...shuffledResult.txTrace].sort()).toEqual([...inOrder.txTrace].sort());
  }, 300_000);
});
