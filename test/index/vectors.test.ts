// The real mainnet blocks in vectors/blocks, fed through the file source (each vector's BoC), index with exactly
// the transactions their vector files list (account, lt, hash: computed by the vectors' own decoder, not ours),
// on PGlite and PostgreSQL; a second run changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/index.ts';
import { createFileSource, type FileSource, indexMcBlock } from '../../src/index/index.ts';
import { KINDS, setupDatabase, type TestDatabase } from '../db/setup-database.ts';
import { loadVectors } from '../support/vectors.ts';
import { checksums } from './support.ts';

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

  it('re-running skips on checkpoints, and a forced replace leaves identical rows', async () => {
    const before = await checksums(t.db);
    for (const n of source.unitSeqnos()) expect((await indexMcBlock(n, { source, db: t.db })).skipped).toBe(true);
    for (const n of source.unitSeqnos()) await indexMcBlock(n, { source, db: t.db, replace: true });
    expect(await checksums(t.db)).toEqual(before);
    expect(before.transactions!.rows).toBe(vectors.flatMap((v) => v.data.transactions).length);
  }, 300_000);
});
