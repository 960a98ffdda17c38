// The /api/v2 plugin (toncenter 2.1 behaviour, v2-api.md §2-4): every read method answers GET (query) and
// POST (JSON body); send/fee/get-method methods POST only; POST /jsonRPC dispatches to the same table.
// Envelope {ok, result, @extra} and errors {ok:false, error, code, @extra} with HTTP status = code.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../http/errors.ts';
import { createV2Cache } from './cache.ts';
import type { V2Context, V2Options } from './context.ts';
import { createApiTvm } from './emulate/executor.ts';
import { describeV2Error } from './errors.ts';
import { v2Methods } from './methods/index.ts';
import type { V2Method } from './methods/types.ts';
import { openApiRoute } from './openapi/route.ts';
import { V2Params } from './params.ts';

/**
 * "@extra" as toncenter 2.1 writes it: "<unix seconds>:<liteserver indexes or _>:<elapsed ms>", plus ":c" for an
 * answer from the cache. The pool does not report which servers answered, so the index list is always "_". The
 * elapsed time is printed like C++ streams print a double (6 significant digits, no trailing zeros).
 */
function extra(req: FastifyRequest, cached = false): string {
  const ms = performance.now() - (req.startedAt ?? performance.now());
  return `${Math.floor(Date.now() / 1000)}:_:${Number(ms.toPrecision(6))}${cached ? ':c' : ''}`;
}

declare module 'fastify' {
  interface FastifyRequest {
    startedAt?: number;
  }
}

function errorBody(
  req: FastifyRequest,
  err: unknown,
): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  const m = describeV2Error(err);
  if (m.internal) req.log.error({ err, url: req.url.split('?')[0] }, 'Failed request');
  return {
    status: m.status,
    headers: m.headers,
    body: { ok: false, error: m.message, code: m.status, '@extra': extra(req) },
  };
}

export function v2Plugin(opts: V2Options): FastifyPluginAsync {
  return async (app) => {
    const ctx: V2Context = { ...opts, cache: opts.cache ?? createV2Cache(), tvm: opts.tvm ?? createApiTvm() };
    if (opts.tvm === undefined) app.addHook('onClose', () => ctx.tvm.close());
    const byName = new Map<string, V2Method>();
    for (const m of v2Methods) for (const n of [m.name, ...(m.aliases ?? [])]) byName.set(n, m);

    app.addHook('onRequest', async (req, reply) => {
      req.startedAt = performance.now();
      reply.header('x-api-version', opts.version);
      await opts.access.check(req);
    });
    app.setErrorHandler((err, req, reply) => {
      const { status, body, headers } = errorBody(req, err);
      reply.code(status).headers(headers).send(body);
    });
    app.setNotFoundHandler((req, reply) => {
      reply.code(404).send({ ok: false, error: 'Not Found', code: 404, '@extra': extra(req) });
    });

    const bodyOf = (req: FastifyRequest): Record<string, unknown> => {
      const b = req.body;
      if (b === undefined || b === null || b === '') return {};
      if (typeof b !== 'object' || Array.isArray(b))
        throw new HttpError(422, 'failed to parse post request: body must be a JSON object');
      return b as Record<string, unknown>;
    };
    const answer = async (method: V2Method, p: V2Params, req: FastifyRequest, reply: FastifyReply) => {
      const result = await method.run(p, ctx);
      reply.send({ ok: true, result, '@extra': extra(req, p.cached) });
    };

    for (const [name, method] of byName) {
      if (method.verbs === 'read') {
        app.get(`/${name}`, (req, reply) =>
          answer(method, new V2Params(req.query as Record<string, unknown>, 'get'), req, reply),
        );
      } else {
        app.get(`/${name}`, async () => {
          throw new HttpError(405, 'Method Not Allowed');
        });
      }
      app.post(`/${name}`, (req, reply) => answer(method, new V2Params(bodyOf(req), 'post'), req, reply));
    }

    app.get('/jsonRPC', async () => {
      throw new HttpError(405, 'method GET is not supported');
    });
    app.post('/jsonRPC', async (req, reply) => {
      const body = req.body as Record<string, unknown> | undefined;
      const given = body && typeof body === 'object' && !Array.isArray(body) ? body.id : undefined;
      // The id comes back as a string, and not at all when the request had none (toncenter's Python JSON-RPC,
      // v2-api.md §4; ecosystem.md §4.5). Errors carry it too, in the same envelope.
      const id = typeof given === 'string' || typeof given === 'number' ? String(given) : undefined;
      const rpc = id === undefined ? { jsonrpc: '2.0' } : { jsonrpc: '2.0', id };
      try {
        if (!body || typeof body !== 'object' || Array.isArray(body))
          throw new HttpError(422, 'request must be a JSON-RPC object');
        if (given !== undefined && given !== null && id === undefined)
          throw new HttpError(422, 'id must be a string or a number');
        if (typeof body.method !== 'string') throw new HttpError(422, 'method must be a string');
        const method = byName.get(body.method);
        if (!method) throw new HttpError(422, 'Unknown method');
        const params = body.params;
        if (Array.isArray(params) && params.length > 0) throw new HttpError(422, 'params must contain an object');
        const values =
          params && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
        const p = new V2Params(values, 'post');
        const result = await method.run(p, ctx);
        reply.send({ ok: true, result, ...rpc, '@extra': extra(req, p.cached) });
      } catch (err) {
        const { status, body: b, headers } = errorBody(req, err);
        reply
          .code(status)
          .headers(headers)
          .send({ ...b, ...rpc });
      }
    });
    openApiRoute(app, v2Methods, opts.version);
  };
}
