// The HTTP server both APIs run in: Fastify with request ids, CORS, body limits, one log line per request
// (secrets removed by parsed parameter, src/http/redact.ts), Prometheus /metrics and /healthz. Each API is a plugin under its prefix with its own
// error body and access policy (see v2/v3 plugin files); this file knows nothing about either.
import cors from '@fastify/cors';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync, LogController } from 'fastify';
import type { Logger } from 'pino';
import { Histogram, type Registry, renderFamilies } from '../common/index.ts';
import { requestApiKey } from './access.ts';
import { type ExplorerOptions, registerExplorers } from './explorer.ts';
import { BodyParseError, checkJsonText, checkQueryText, jsonBodyText } from './input-guard.ts';
import { REDACTING_SERIALIZERS, redactUrl } from './redact.ts';

export const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024;

export interface HealthReport {
  ok: boolean;
  [part: string]: unknown;
}

export interface HttpServerOptions {
  logger: Logger;
  metrics: Registry;
  /** Extra Prometheus text appended to /metrics (parts with their own counters, e.g. the lite pool). */
  extraMetrics?: () => Parameters<typeof renderFamilies>[0];
  health?: () => Promise<HealthReport>;
  bodyLimit?: number;
  apis: Array<{ prefix: string; plugin: FastifyPluginAsync }>;
  /** The explorer pages (<prefix>/ of each documented API) and the landing page at /. */
  explorer?: ExplorerOptions;
  /** Seconds a request may take end to end before the socket is answered 503 by Node; default 60. */
  requestTimeoutSec?: number;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function createHttpServer(opts: HttpServerOptions): Promise<FastifyInstance> {
  let seq = 0;
  const app = Fastify({
    // Every line logged through a request's logger passes url, headers and bodies through the redaction.
    loggerInstance: opts.logger.child({}, { serializers: REDACTING_SERIALIZERS }) as FastifyBaseLogger,
    // Our onResponse hook writes the one line per request (with api_key redacted) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT,
    requestTimeout: (opts.requestTimeoutSec ?? 60) * 1000,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    genReqId(req) {
      const given = req.headers['x-request-id'];
      const id = Array.isArray(given) ? given[0] : given;
      return id !== undefined && REQUEST_ID.test(id) ? id : `${process.pid.toString(36)}-${(++seq).toString(36)}`;
    },
  });
  await app.register(cors, { origin: '*', exposedHeaders: ['X-Request-Id', 'X-API-Version', 'Retry-After'] });

  const durations = new Histogram({
    name: 'tongate_http_request_duration_seconds',
    help: 'HTTP requests by API route, method and status, with their duration',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [opts.metrics],
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // Before any handler or parser reads a parameter (the API's own error handler renders the 422).
    checkQueryText(req.url);
  });
  // JSON bodies: UTF-8 and nesting checked on the bytes, Fastify's own parser (prototype-poisoning checks), then
  // every string checked for NUL and lone surrogates.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    let text: string;
    try {
      text = jsonBodyText(body as Buffer);
    } catch (e) {
      done(e as Error, undefined);
      return;
    }
    parseJson(req, text, (err, value) => {
      if (err) {
        const empty = (err as { code?: string }).code === 'FST_ERR_CTP_EMPTY_JSON_BODY';
        done(empty ? err : new BodyParseError(`invalid JSON body: ${err.message}`, err), undefined);
        return;
      }
      try {
        checkJsonText(value);
      } catch (e) {
        done(e as Error, undefined);
        return;
      }
      done(null, value);
    });
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    durations.observe({ route, method: req.method, status: String(reply.statusCode) }, seconds);
    req.log.info(
      {
        method: req.method,
        url: redactUrl(req.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        key: req.apiKey?.id,
        keyed: requestApiKey(req) !== undefined,
      },
      'Served request',
    );
  });

  app.get('/metrics', async (_req, reply) => {
    const text = (await opts.metrics.metrics()) + renderFamilies(opts.extraMetrics?.() ?? []);
    reply.type(opts.metrics.contentType).send(text);
  });
  app.get('/healthz', async (_req, reply) => {
    const report = opts.health
      ? await opts.health().catch((e: Error) => ({ ok: false, error: e.message }))
      : { ok: true };
    reply.code(report.ok ? 200 : 503).send(report);
  });
  for (const api of opts.apis) await app.register(api.plugin, { prefix: api.prefix });
  if (opts.explorer) registerExplorers(app, opts.explorer);
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ error: `no route ${req.method} ${redactUrl(req.url).split('?')[0]}` });
  });
  return app;
}
