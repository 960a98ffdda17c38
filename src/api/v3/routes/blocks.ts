// /masterchainInfo, /blocks, /masterchainBlockShardState, /masterchainBlockShards (v3-api.md §3.1). Each
// statement is built by an exported function returning {sql, params}, so test/api/v3-explain.test.ts can
// check that an index serves it.
import { HttpError } from '../../../http/errors.ts';
import { MC_SHARD_SIGNED } from '../../../ton/index.ts';
import type { V3RouteGroup } from '../context.ts';
import { hashParam, type Page, pageParams, type Query, Where } from '../params.ts';
import { BLOCK_COLUMNS } from '../queries/block.ts';
import { blockJson } from '../render/block.ts';
import { int32Param, requiredSeqno, shardParam, type Window, windowParams } from '../render/filters.ts';
import type { SqlQuery } from '../sql-query.ts';

/** The signed 64-bit masterchain shard id, as blocks.shard stores it. */
export { MC_SHARD_SIGNED as MC_SHARD } from '../../../ton/index.ts';

/** The lowest ('first') or highest ('last') indexed masterchain block (blocks_index_3). */
export function masterchainBlockQuery(which: 'first' | 'last'): SqlQuery {
  return {
    sql: `SELECT ${BLOCK_COLUMNS} FROM blocks B WHERE B.workchain = -1
      ORDER BY B.seqno ${which === 'first' ? 'ASC' : 'DESC'} LIMIT 1`,
    params: [],
  };
}

/** Whether masterchain block `seqno` is indexed (primary key). */
export function masterchainBlockExistsQuery(seqno: number): SqlQuery {
  return {
    sql: 'SELECT 1 AS found FROM blocks WHERE workchain = -1 AND shard = $1 AND seqno = $2',
    params: [MC_SHARD_SIGNED, seqno],
  };
}

export interface BlockFilter {
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  rootHash?: string;
  fileHash?: string;
  mcSeqno?: number;
  window?: Window;
  page: Page;
}

/**
 * /blocks and /masterchainBlockShards. toncenter orders by gen_utime only when `sort` is given and leaves
 * the order unspecified otherwise; we always order (desc by default, as the OpenAPI document says), with the
 * block id as tie-breaker so pages are stable and an asc page is exactly a reversed desc page. start_lt and
 * end_lt both bound the block's start_lt, as toncenter's do.
 */
export function blocksQuery(f: BlockFilter): SqlQuery {
  const w = new Where();
  if (f.workchain !== undefined) w.add(`B.workchain = ${w.value(f.workchain)}`);
  if (f.shard !== undefined) w.add(`B.shard = ${w.value(f.shard)}`);
  if (f.seqno !== undefined) w.add(`B.seqno = ${w.value(f.seqno)}`);
  if (f.rootHash !== undefined) w.add(`B.root_hash = ${w.value(f.rootHash)}`);
  if (f.fileHash !== undefined) w.add(`B.file_hash = ${w.value(f.fileHash)}`);
  if (f.mcSeqno !== undefined) w.add(`B.mc_block_seqno = ${w.value(f.mcSeqno)}`);
  const win = f.window ?? {};
  if (win.startUtime !== undefined) w.add(`B.gen_utime >= ${w.value(win.startUtime)}`);
  if (win.endUtime !== undefined) w.add(`B.gen_utime <= ${w.value(win.endUtime)}`);
  if (win.startLt !== undefined) w.add(`B.start_lt >= ${w.value(win.startLt)}`);
  if (win.endLt !== undefined) w.add(`B.start_lt <= ${w.value(win.endLt)}`);
  const s = f.page.sort;
  const sql = `SELECT ${BLOCK_COLUMNS} FROM blocks B ${w.sql()}
    ORDER BY B.gen_utime ${s}, B.workchain ${s}, B.shard ${s}, B.seqno ${s}
    LIMIT ${w.value(f.page.limit)} OFFSET ${w.value(f.page.offset)}`;
  return { sql, params: w.params };
}

/** The shard tips masterchain block `seqno` lists (shard_state), as blocks, by workchain/shard/seqno. */
export function shardStateQuery(seqno: number): SqlQuery {
  return {
    sql: `SELECT ${BLOCK_COLUMNS} FROM shard_state S
      JOIN blocks B ON B.workchain = S.workchain AND B.shard = S.shard AND B.seqno = S.seqno
      WHERE S.mc_seqno = $1 ORDER BY S.workchain, S.shard, S.seqno`,
    params: [seqno],
  };
}

export function blockFilterParams(q: Query, page: Page): BlockFilter {
  return {
    workchain: int32Param(q, 'workchain'),
    shard: shardParam(q),
    seqno: int32Param(q, 'seqno'),
    rootHash: hashParam(q, 'root_hash'),
    fileHash: hashParam(q, 'file_hash'),
    mcSeqno: int32Param(q, 'mc_seqno'),
    window: windowParams(q),
    page,
  };
}

export const blockRoutes: V3RouteGroup = (app, ctx) => {
  const page = (q: Query) => pageParams(q, { maxLimit: ctx.maxLimit, defaultLimit: ctx.defaultLimit });

  app.get('/masterchainInfo', async (req) => {
    const { first, last } = await ctx.read(req, async (q) => {
      const l = masterchainBlockQuery('last');
      const f = masterchainBlockQuery('first');
      return { last: (await q.query(l.sql, l.params)).rows[0], first: (await q.query(f.sql, f.params)).rows[0] };
    });
    // toncenter answers an empty index with a 500 ("no rows in result set"); nothing indexed is a 404 here.
    if (!first || !last) throw new HttpError(404, 'masterchain block not found');
    return { last: blockJson(last), first: blockJson(first) };
  });

  app.get('/blocks', async (req) => {
    const q = req.query as Query;
    const built = blocksQuery(blockFilterParams(q, page(q)));
    const rows = await ctx.query(req, built.sql, built.params);
    return { blocks: rows.map(blockJson) };
  });

  app.get('/masterchainBlockShardState', async (req) => {
    const built = shardStateQuery(requiredSeqno(req.query as Query));
    const rows = await ctx.query(req, built.sql, built.params);
    if (rows.length === 0) throw new HttpError(404, 'blocks not found');
    return { blocks: rows.map(blockJson) };
  });

  // Every block committed by masterchain block `seqno` (the masterchain block itself included, as its own
  // mc_block_seqno is its seqno); `sort` is undocumented but honoured, as toncenter does.
  app.get('/masterchainBlockShards', async (req) => {
    const q = req.query as Query;
    const built = blocksQuery({ mcSeqno: requiredSeqno(q), page: page(q) });
    const rows = await ctx.query(req, built.sql, built.params);
    if (rows.length === 0) throw new HttpError(404, 'blocks not found');
    return { blocks: rows.map(blockJson) };
  });
};
