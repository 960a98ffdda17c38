// The real mainnet blocks in vectors/blocks, fed through the file source (each vector's BoC), index with exactly
// the transactions their vector files list (account, lt, hash: computed by the vectors' own decoder, not ours),
// on PGlite and PostgreSQL; their traces assemble as the in-block message links say; a second run (and a forced
// replace) changes nothing, trace ids included.
import { Cell } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/index.ts';
import { linkTrees, traceTxOfView } from '../../src/index/actions/index.ts';
import { createFileSource, type FileSource, indexMcBlock } from '../../src/index/index.ts';
import { assembleTraces } from '../../src/index/traces/index.ts';
import { listBlockTransactions, loadBlockCell, transactionFromCell, transactionView } from '../../src/ton/index.ts';
import { KINDS, setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { checksums } from '../helpers/index-checksums.ts';
import { loadVectors } from '../helpers/vectors.ts';

interface BlockVector {
  ids: { workchain: number; shard: string; seqno: number; root_hash: string };
  transactions: Array<{ account: string; lt: string; hash: string }>;
  boc_base64: string;
}

const vectors = loadVectors<BlockVector>('blocks');

describe.each(KINDS)('vector blocks through the file source (%s)', (kind) => {
  let t: TestDatabase;
  let source: FileSource;

  beforeAll(async () => {
    expect(vectors.length).toBeGreaterThan(0);
    t = await setupDatabase(kind);
    await migrate(t.db);
    source = await createFileSource({ blocks: vectors.map((v) => Buffer.from(v.data.boc_base64, 'base64')) });
  }, 120_000);

  afterAll(async () => {
    await source?.close();
    await t?.cleanup();
  });

  it('indexes every unit, with exactly the transactions the vector files list', async () => {
    let total = 0;
    for (const n of source.unitSeqnos()) {
      const r = await indexMcBlock(n, { source, db: t.db });
      expect(r.skipped).toBe(false);
      total += r.transactions;
    }
    const want = vectors.flatMap((v) => v.data.transactions);
    expect(total).toBe(want.length);
    for (const { file, data } of vectors) {
      const rows = await t.db.query<{ account: string; lt: string; hash: string }>(
        `SELECT account, lt::text AS lt, hash FROM transactions
         WHERE block_workchain = $1 AND block_shard = $2 AND block_seqno = $3 ORDER BY account, lt`,
        [data.ids.workchain, BigInt.asIntN(64, BigInt(`0x${data.ids.shard}`)), data.ids.seqno],
      );
      const expected = data.transactions
        .map((x) => ({
          account: x.account.toUpperCase().replace(/^(-?\d+):/, '$1:'),
          lt: x.lt,
          hash: Buffer.from(x.hash, 'hex').toString('base64'),
        }))
        .sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : Number(BigInt(a.lt) - BigInt(b.lt))));
      expect(rows.rows, file).toEqual(expected);
      const block = await t.db.query<{ root_hash: string; tx_count: number }>(
        'SELECT root_hash, tx_count FROM blocks WHERE workchain = $1 AND seqno = $2',
        [data.ids.workchain, data.ids.seqno],
      );
      expect(block.rows, file).toEqual([
        { root_hash: Buffer.from(data.ids.root_hash, 'hex').toString('base64'), tx_count: data.transactions.length },
      ]);
    }
    const dup = await t.db.query('SELECT hash, lt FROM transactions GROUP BY hash, lt HAVING count(*) > 1');
    expect(dup.rowCount).toBe(0);
  }, 300_000);

  it("assembles each block's traces: every transaction under the root its in-block message links give", async () => {
    // The units are isolated blocks far apart: assemble each on its own (the watermark moved to it), as an operator
    // assembling separate ranges would.
    for (const n of source.unitSeqnos()) {
      await t.db.query(
        `INSERT INTO trace_assembly (id, first_mc_seqno, next_mc_seqno) VALUES (1, $1, $1)
         ON CONFLICT (id) DO UPDATE SET next_mc_seqno = $1`,
        [n],
      );
      expect((await assembleTraces(t.db, { maxBlocks: 1 })).map((b) => b.mcSeqno)).toEqual([n]);
    }
    let broken = 0;
    for (const { file, data } of vectors) {
      const block = loadBlockCell(Cell.fromBase64(data.boc_base64));
      const workchain = block.info.shard.workchainId;
      const txs = listBlockTransactions(block).map((x) =>
        traceTxOfView(transactionView(transactionFromCell(x.cell), { workchain }), 0),
      );
      const expected = new Map<string, string>();
      for (const tree of linkTrees(txs)) for (const n of tree.nodes) expected.set(n.tx.hash, tree.root.tx.hash);
      const stored = await t.db.query<{ hash: string; trace_id: string }>(
        'SELECT hash, trace_id FROM transactions WHERE block_workchain = $1 AND block_seqno = $2',
        [data.ids.workchain, data.ids.seqno],
      );
      expect(stored.rows.length, file).toBe(expected.size);
      for (const r of stored.rows) expect(r.trace_id, `${file} ${r.hash}`).toBe(expected.get(r.hash));
    }
    const states = await t.db.query<{ state: string; n: number }>(
      'SELECT state, count(*)::int AS n FROM traces GROUP BY 1',
    );
    broken = states.rows.find((r) => r.state === 'broken')?.n ?? 0;
    // Isolated blocks: many traces enter from a block that is not here.
    expect(broken).toBeGreaterThan(0);
    const mismatch = await t.db.query(
      'SELECT 1 FROM messages m JOIN transactions x ON x.hash = m.tx_hash AND x.lt = m.tx_lt WHERE m.trace_id IS DISTINCT FROM x.trace_id',
    );
    expect(mismatch.rowCount).toBe(0);
  }, 300_000);

  it('re-running skips on checkpoints, and a forced replace leaves identical rows', async () => {
    const before = await checksums(t.db);
    for (const n of source.unitSeqnos()) expect((await indexMcBlock(n, { source, db: t.db })).skipped).toBe(true);
    for (const n of source.unitSeqnos()) await indexMcBlock(n, { source, db: t.db, replace: true });
    expect(await checksums(t.db)).toEqual(before);
    expect(before.transactions!.rows).toBe(vectors.flatMap((v) => v.data.transactions).length);
  }, 300_000);
});
