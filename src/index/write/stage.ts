// Staging for writes that COPY cannot do alone (insert-if-absent, forward-only upserts): rows go into a temporary
// twin of the table, emptied at commit, and one INSERT ... SELECT moves them with its conflict rule.
import type { CopyRows, EncodedCopy, Queryable } from '../../db/index.ts';
import type { Row } from '../decode/columns.ts';

/** COPYs `rows` into `stage_<table>`, a temporary twin emptied at commit; returns the stage's name. */
export async function stageRows(
  tx: Queryable,
  table: string,
  columns: readonly string[],
  rows: CopyRows,
): Promise<string> {
  const stage = `stage_${table}`;
  await tx.query(`CREATE TEMP TABLE IF NOT EXISTS ${stage} (LIKE ${table} INCLUDING DEFAULTS) ON COMMIT DELETE ROWS`);
  await tx.query(`TRUNCATE ${stage}`);
  await tx.copyFrom(stage, columns, rows);
  return stage;
}

/** Rows into `table` through its stage, with the INSERT's conflict rule (`ON CONFLICT …`); returns rows inserted or updated. */
export async function copyThroughStage(
  tx: Queryable,
  table: string,
  columns: readonly string[],
  rows: Row[] | EncodedCopy,
  conflict: string,
): Promise<number> {
  if ((Array.isArray(rows) ? rows.length : rows.count) === 0) return 0;
  const stage = await stageRows(tx, table, columns, rows);
  const cols = columns.join(', ');
  const r = await tx.query(`INSERT INTO ${table} (${cols}) SELECT ${cols} FROM ${stage} ORDER BY 1 ${conflict}`);
  return r.rowCount;
}
