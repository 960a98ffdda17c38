// The /api/v2 plugin (toncenter 2.1 behaviour, v2-api.md §2-4): every read method answers GET (query) and
// POST (JSON body); send/fee/get-method methods POST only; POST /jsonRPC dispatches to the same table.
// Envelope {ok, result, @extra} and errors {ok:false, error, code, @extra} with HTTP status = code.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isTongateError } from '../../common/index.ts';
import { type ErrorMapping, HttpError, mapError } from '../../http/errors.ts';
import { BodyParseError } from '../../http/input-guard.ts';
import { createV2Cache, type V2Cache } from './cache.ts';
import type { V2Options } from './context.ts';
import { type ApiTvm, createApiTvm } from './emulate/executor.ts';
import { v2Methods } from './methods/index.ts';
import type { V2Method } from './methods/types.ts';
import { openApiRoute } from './openapi/route.ts';
import { V2Params } from './params.ts';

export interface V2Context extends V2Options {
  cache: V2Cache;
  tvm: ApiTvm;
}

/** v2's status for our error codes: liteserver errors are 500 with the liteserver's message (2.1). */
export function v2Status(code: string, fallback: number): number {
  if (code === 'TG_INPUT_INVALID' || code === 'TG_CODEC_INVALID') return 422;
  if (code === 'TG_LITE_SERVER_ERROR' || code === 'TG_PROOF_INVALID' || code === 'TG_ADNL_PROTOCOL') return 500;
  if (code === 'TG_LITE_TIMEOUT') return 504;
  if (code === 'TG_LITE_NO_SERVERS') return 542;
  return fallback;
}

/**
 * "@extra" as toncenter 2.1 writes it: "<unix seconds>:<liteserver indexes or _>:<elapsed ms>", plus ":c" for an
 * answer from the cache. The pool does not report which servers answered, so the index list is always "_". The
 * elapsed time is printed like C++ streams print a double (6 significant digits, no trailing zeros).
 */
function extra(req: FastifyRequest, cached = false): string {
  const ms = performance.now() - (req.startedAt ?? performance.now());
  return `${Math.floor(Date.now() / 1000)}:_:${Number(ms.toPrecision(6))}${cached ? ':c' : ''}`;
}

/** tonlib's names for the node's error codes (TonlibError::LiteServer): its messages read "LITE_SERVER_<NAME>: …". */
const LITE_CODE_NAMES: Record<number, string> = {
  601: 'FAILURE',
  602: 'ERROR',
  603: 'WARNING',
  621: 'PROTOVIOLATION',
  651: 'NOTREADY',
  652: 'TIMEOUT',
  653: 'CANCELLED',
};

/** A liteserver's error as tonlib words it (toncenter passes tonlib's text on), without our server's address. */
function liteErrorText(err: unknown): string | undefined {
  if (!isTongateError(err) || err.code !== 'TG_LITE_SERVER_ERROR') return undefined;
  const code = Number(err.details.liteCode);
  const text = err.details.liteMessage;
  if (typeof text !== 'string') return undefined;
  return `LITE_SERVER_${LITE_CODE_NAMES[code] ?? 'UNKNOWN'}: ${text}`;
}

declare module 'fastify' {
  interface FastifyRequest {
    startedAt?: number;
  }
}

/** Status and message of an error as v2 answers it (v3's legacy methods pass them on the same way). */
export function describeV2Error(err: unknown): ErrorMapping {
  // toncenter's C++ server answers a body it cannot parse with 422 "failed to parse post request: …".
  if (err instanceof BodyParseError) {
    return { ...mapError(err, v2Status), status: 422, message: `failed to parse post request: ${err.message}` };
  }
  const m = mapError(err, v2Status);
  return { ...m, message: liteErrorText(err) ?? m.message };
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
