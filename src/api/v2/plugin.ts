// The /api/v2 plugin (toncenter 2.1 behaviour, v2-api.md §2-4): every read method answers GET (query) and
// POST (JSON body); send/fee/get-method methods POST only; POST /jsonRPC dispatches to the same table.
// Envelope {ok, result, @extra} and errors {ok:false, error, code, @extra} with HTTP status = code.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, mapError } from '../../http/errors.ts';
import type { V2Options } from './context.ts';
import { v2Methods } from './methods/index.ts';
import type { V2Method } from './methods/types.ts';
import { V2Params } from './params.ts';

export interface V2Context extends V2Options {}

/** v2's status for our error codes: liteserver errors are 500 with the liteserver's message (2.1). */
export function v2Status(code: string, fallback: number): number {
  if (code === 'TG_INPUT_INVALID' || code === 'TG_CODEC_INVALID') return 422;
  if (code === 'TG_LITE_SERVER_ERROR' || code === 'TG_PROOF_INVALID' || code === 'TG_ADNL_PROTOCOL') return 500;
  if (code === 'TG_LITE_TIMEOUT') return 504;
  if (code === 'TG_LITE_NO_SERVERS') return 542;
  return fallback;
}

/** "@extra" as toncenter 2.1 writes it: "<unix seconds>:<liteserver indexes or _>:<elapsed ms>". */
function extra(req: FastifyRequest): string {
  return `${Math.floor(Date.now() / 1000)}:_:${(performance.now() - (req.startedAt ?? performance.now())).toFixed(3)}`;
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
  const m = mapError(err, v2Status);
  if (m.internal) req.log.error({ err, url: req.url.split('?')[0] }, 'Failed request');
  return {
    status: m.status,
    headers: m.headers,
    body: { ok: false, error: m.message, code: m.status, '@extra': extra(req) },
  };
}

export function v2Plugin(opts: V2Options): FastifyPluginAsync {
  return async (app) => {
    const ctx: V2Context = { ...opts };
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
      reply.send({ ok: true, result, '@extra': extra(req) });
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
      const id = body && typeof body === 'object' && !Array.isArray(body) ? (body.id ?? null) : null;
      const rpc = { jsonrpc: '2.0', id };
      try {
        if (!body || typeof body !== 'object' || Array.isArray(body))
          throw new HttpError(422, 'request must be a JSON-RPC object');
        if (typeof body.method !== 'string') throw new HttpError(422, 'method must be a string');
        const method = byName.get(body.method);
        if (!method) throw new HttpError(422, 'Unknown method');
        const params = body.params;
        if (Array.isArray(params) && params.length > 0) throw new HttpError(422, 'params must contain an object');
        const values =
          params && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
        const result = await method.run(new V2Params(values, 'post'), ctx);
        reply.send({ ok: true, result, ...rpc, '@extra': extra(req) });
      } catch (err) {
        const { status, body: b, headers } = errorBody(req, err);
        reply
          .code(status)
          .headers(headers)
          .send({ ...b, ...rpc });
      }
    });
  };
}
