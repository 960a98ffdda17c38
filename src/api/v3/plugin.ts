// The /api/v3 plugin: access control, toncenter's error body ({"error": "..."}), X-API-Version, the
// statement timeout from X-Timeout / x_timeout, then the route groups in routes/. A route group is a
// function (app, ctx) that registers its GET handlers; handlers read the query through params.ts and the
// database through ctx.query, which applies the timeout.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { HttpError, INTERNAL_MESSAGE, mapError } from '../../http/errors.ts';
import type { V3Context, V3Options } from './context.ts';
import { oneParam, type Query } from './params.ts';
import { routeGroups } from './routes/index.ts';

/** v3's status for our error codes: bad input is 422, a statement past its timeout is toncenter's 500. */
function v3Status(code: string, fallback: number): number {
  if (code === 'TG_INPUT_INVALID' || code === 'TG_CODEC_INVALID') return 422;
  if (code === 'TG_DB_TIMEOUT') return 500;
  return fallback;
}

export function timeoutFor(req: FastifyRequest, capMs: number): number {
  const h = req.headers['x-timeout'];
  const given = (Array.isArray(h) ? h[0] : h) ?? oneParam(req.query as Query, 'x_timeout');
  if (given === undefined || given === '') return capMs;
  if (!/^\d+$/.test(given)) throw new HttpError(422, `invalid X-Timeout: '${String(given).slice(0, 20)}'`);
  return Math.max(1, Math.min(Number(given), capMs));
}

export function v3Plugin(opts: V3Options): FastifyPluginAsync {
  return async (app) => {
    const ctx: V3Context = {
      ...opts,
      async read(req, fn) {
        const ms = timeoutFor(req, opts.queryTimeoutMs);
        return opts.db.transaction(async (tx) => {
          await tx.query(`SET LOCAL statement_timeout = ${ms}`);
          await tx.query('SET TRANSACTION READ ONLY');
          return fn(tx);
        });
      },
      async query(req, sql, params = []) {
        return ctx.read(req, async (q) => (await q.query(sql, params)).rows as never);
      },
    };
    app.addHook('onRequest', async (req, reply) => {
      reply.header('x-api-version', opts.version);
      await opts.access.check(req);
    });
    app.setErrorHandler((err, req, reply) => {
      const m = mapError(err, v3Status);
      if (m.internal) req.log.error({ err, url: req.url.split('?')[0] }, 'Failed request');
      // An internal failure's text (SQL errors, stack traces) stays in the log line, which carries the request id
      // the client also has (X-Request-Id).
      const message =
        m.status === 500 && (err as { code?: string }).code === 'TG_DB_TIMEOUT'
          ? 'timeout: context deadline exceeded'
          : m.status >= 500 && !(err instanceof HttpError)
            ? INTERNAL_MESSAGE
            : m.message;
      // A limited request gets the body toncenter's gateway sends in front of v3 (v3-api.md §2.2).
      const body = m.status === 429 ? { ok: false, result: 'Ratelimit exceed', code: 429 } : { error: message };
      reply.code(m.status).headers(m.headers).send(body);
    });
    app.setNotFoundHandler((req, reply) => {
      reply.code(404).send({ error: `no route ${req.method} ${req.url.split('?')[0]}` });
    });
    for (const group of routeGroups) group(app, ctx);
  };
}
