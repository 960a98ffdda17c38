// /masterchainInfo, /blocks, /masterchainBlockShardState, /masterchainBlockShards (v3-api.md §3.1).
import type { V3RouteGroup } from '../plugin.ts';
import { BLOCK_COLUMNS, blockJson } from '../render/block.ts';

export const blockRoutes: V3RouteGroup = (app, ctx) => {
  app.get('/masterchainInfo', async (req) => {
    const rows = await ctx.read(req, async (q) => {
      const last = await q.query(
        `SELECT ${BLOCK_COLUMNS} FROM blocks WHERE workchain = -1 ORDER BY seqno DESC LIMIT 1`,
      );
      const first = await q.query(
        `SELECT ${BLOCK_COLUMNS} FROM blocks WHERE workchain = -1 ORDER BY seqno ASC LIMIT 1`,
      );
      return { last: last.rows[0], first: first.rows[0] };
    });
    if (!rows.last || !rows.first)
      throw new (await import('../../../http/errors.ts')).HttpError(404, 'masterchain block not found');
    return { first: blockJson(rows.first), last: blockJson(rows.last) };
  });
};
