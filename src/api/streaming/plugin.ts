// toncenter's Streaming API v2 under /api/streaming (streaming.md §1): POST /v2/sse and the WebSocket at /v2/ws, on
// the same server as v2 and v3. Keys: X-API-Key or ?api_key= (browsers cannot set headers on a WebSocket), checked
// against the API's key store; the per-key limits toncenter's gateway passes in headers (parallel connections,
// subscribed addresses) come from the deployment's profile here, counted per key (per IP without one) in this
// process.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import type { ApiKeyInfo, ApiKeyStore } from '../../http/api-keys.ts';
import { checkJsonText, jsonBodyText } from '../../http/input-guard.ts';
import { parseCursor } from './cursor.ts';
import type { StreamHub } from './hub.ts';
import { SseConnection } from './sse.ts';
import { parseSseRequest, sseAddressLimitError, unsupportedContentType, WsSession } from './subscription.ts';
import { WsConnection } from './ws.ts';

export const STREAMING_PREFIX = '/api/streaming';
const WS_PATH = `${STREAMING_PREFIX}/v2/ws`;
/** A subscription is small; toncenter sets no bound, we do. */
const MAX_REQUEST_BYTES = 256 * 1024;

/** -1: unlimited (toncenter's value for "no limit"). */
export interface StreamLimit {
  connections: number;
  addresses: number;
}

export interface StreamLimits {
  keyless: StreamLimit;
  keyed: StreamLimit;
}

export const OPEN_STREAM_LIMITS: StreamLimits = {
  keyless: { connections: -1, addresses: -1 },
  keyed: { connections: -1, addresses: -1 },
};

/** The managed profile's: a keyless caller may watch a few addresses; a key many. */
export const MANAGED_STREAM_LIMITS: StreamLimits = {
  keyless: { connections: 2, addresses: 10 },
  keyed: { connections: 20, addresses: 1000 },
};

export interface StreamingContext {
  hub: StreamHub;
  keys?: ApiKeyStore;
  limits: StreamLimits;
  logger: Logger;
  maxBufferedBytes?: number;
  keepaliveMs?: number;
}

class KeyError extends Error {}

function firstHeader(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function allHeaders(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

export function streamingPlugin(ctx: StreamingContext): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const open = new Map<string, number>();
    const log = ctx.logger;
    /** Open SSE streams: closed when the server closes, which would otherwise wait on them forever. */
    const streams = new Set<SseConnection>();

    async function identify(key: string | undefined, ip: string): Promise<{ id: string; limit: StreamLimit }> {
      if (key === undefined || key === '') return { id: `ip:${ip}`, limit: ctx.limits.keyless };
      const info: ApiKeyInfo | null = ctx.keys ? await ctx.keys.lookup(key) : null;
      if (!info) throw new KeyError('API key does not exist');
      return { id: `key:${info.id}`, limit: ctx.limits.keyed };
    }

    /** Takes a connection slot; null when the limit is reached. */
    function take(id: string, limit: StreamLimit): (() => void) | null {
      const n = open.get(id) ?? 0;
      if (limit.connections !== -1 && n >= limit.connections) return null;
      open.set(id, n + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (open.get(id) ?? 1) - 1;
        if (left <= 0) open.delete(id);
        else open.set(id, left);
      };
    }

    // The SSE body is decoded here, by its content type, as toncenter's server decodes it (§1.3).
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_REQUEST_BYTES }, (_req, body, done) =>
      done(null, body),
    );

    app.post('/v2/sse', async (req: FastifyRequest, reply: FastifyReply) => {
      const query = req.query as Record<string, unknown>;
      let who: { id: string; limit: StreamLimit };
      try {
        const key =
          firstHeader(req.headers['x-api-key']) ?? (typeof query.api_key === 'string' ? query.api_key : undefined);
        who = await identify(key, req.ip);
      } catch (e) {
        if (e instanceof KeyError) return reply.code(401).send({ error: e.message });
        throw e;
      }
      const type =
        String(req.headers['content-type'] ?? '')
          .split(';')[0]
          ?.trim()
          .toLowerCase() ?? '';
      let body: unknown;
      if (!type.endsWith('json')) {
        return reply.code(400).send(unsupportedContentType());
      }
      try {
        // Bounded before parsing (UTF-8, nesting depth), then strings checked (NUL, lone surrogates).
        body = JSON.parse(jsonBodyText(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)));
        checkJsonText(body);
      } catch (e) {
        return reply.code(400).send({ error: `invalid subscription request: ${(e as Error).message.slice(0, 200)}` });
      }
      // The address limit is checked after the connection limit, as toncenter's server orders them (§2.5 #8, #9).
      const parsed = parseSseRequest(body, {
        actionsVersionHeader: allHeaders(req.headers['x-actions-version']),
        maxAddresses: -1,
      });
      if (!parsed.ok) return reply.code(parsed.status).send(parsed.body);
      const lastEventId = firstHeader(req.headers['last-event-id']);
      const cursor = lastEventId ? parseCursor(lastEventId) : null;
      if (lastEventId && !cursor) {
        return reply.code(400).send({
          ...(parsed.id !== undefined ? { id: parsed.id } : {}),
          error: 'invalid Last-Event-ID: not a cursor this server gave',
        });
      }
      const release = take(who.id, who.limit);
      if (!release) {
        return reply.code(429).send({ error: `connection limit reached: ${who.limit.connections} active connections` });
      }
      const tooMany = sseAddressLimitError(parsed.subscription.addresses.size, who.limit.addresses, parsed.id);
      if (tooMany && !tooMany.ok) {
        release();
        return reply.code(tooMany.status).send(tooMany.body);
      }
      reply.hijack();
      let detach = () => {};
      const conn = new SseConnection(reply.raw, parsed.subscription, {
        keepaliveMs: ctx.keepaliveMs,
        maxBufferedBytes: ctx.maxBufferedBytes,
        onClose: (reason) => {
          streams.delete(conn);
          detach();
          release();
          log.debug({ reason, who: who.id }, 'Stream closed (SSE)');
        },
      });
      streams.add(conn);
      const connected: Record<string, unknown> = {};
      if (parsed.id !== undefined) connected.id = parsed.id;
      connected.status = 'subscribed';
      if (cursor) connected.resumed_from = lastEventId;
      conn.connected(connected);
      const attachment = ctx.hub.attach(conn);
      detach = () => attachment.detach();
      if (cursor) {
        attachment.resume(cursor).then(
          (r) => {
            if (r.gap) log.info({ who: who.id, cursor: lastEventId }, 'Stream resumed past its replay window');
          },
          (e: Error) => {
            log.warn({ err: e.message }, 'Stream replay failed');
            conn.close('replay failed');
          },
        );
      }
    });

    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_REQUEST_BYTES, perMessageDeflate: false });

    const refuse = (socket: Duplex, status: number, text: string, body: Record<string, unknown>) => {
      const json = JSON.stringify(body);
      socket.end(
        `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\nconnection: close\r\n\r\n${json}`,
      );
    };

    async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
      const url = new URL(req.url ?? '/', 'http://x');
      const key = firstHeader(req.headers['x-api-key']) ?? url.searchParams.get('api_key') ?? undefined;
      let who: { id: string; limit: StreamLimit };
      try {
        who = await identify(key, req.socket.remoteAddress ?? '');
      } catch (e) {
        if (e instanceof KeyError) return refuse(socket, 401, 'Unauthorized', { error: e.message });
        throw e;
      }
      const resumeText = url.searchParams.get('resume_from');
      wss.handleUpgrade(req, socket, head, (ws) => {
        const release = take(who.id, who.limit);
        if (!release) {
          // toncenter: the upgrade succeeds, one error frame, then the connection is dropped.
          ws.send(JSON.stringify({ error: `connection limit reached: ${who.limit.connections} active connections` }));
          ws.terminate();
          return;
        }
        const session = new WsSession({
          actionsVersion: firstHeader(req.headers['x-actions-version']),
          maxAddresses: who.limit.addresses,
        });
        let detach = () => {};
        const conn = new WsConnection(ws, session, {
          maxBufferedBytes: ctx.maxBufferedBytes,
          onClose: (reason) => {
            detach();
            release();
            log.debug({ reason, who: who.id }, 'Stream closed (WebSocket)');
          },
        });
        const attachment = ctx.hub.attach(conn);
        detach = () => attachment.detach();
        let pendingResume = resumeText;
        ws.on('message', (data: Buffer | Buffer[] | ArrayBuffer) => {
          const text = Buffer.isBuffer(data)
            ? data.toString('utf8')
            : Array.isArray(data)
              ? Buffer.concat(data).toString('utf8')
              : Buffer.from(data).toString('utf8');
          const answer = session.handle(text);
          conn.reply(answer);
          if (answer.status !== 'subscribed') return;
          const asked = resumeFromMessage(text) ?? pendingResume;
          pendingResume = null;
          if (!asked) return;
          const cursor = parseCursor(asked);
          if (!cursor) {
            conn.reply({ ...idOf(answer), error: 'invalid resume_from: not a cursor this server gave' });
            return;
          }
          attachment.resume(cursor).then(
            (r) => conn.reply({ ...idOf(answer), status: 'resumed', replayed: r.replayed, replay_gap: r.gap }),
            (e: Error) => {
              log.warn({ err: e.message }, 'Stream replay failed');
              ws.terminate();
            },
          );
        });
      });
    }

    app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== WS_PATH && path !== `${WS_PATH}/`) {
        refuse(socket, 404, 'Not Found', { error: `no route GET ${path?.slice(0, 100)}` });
        return;
      }
      upgrade(req, socket, head).catch((e: Error) => {
        log.warn({ err: e.message }, 'WebSocket upgrade failed');
        socket.destroy();
      });
    });

    // A plain GET of the WebSocket path (no upgrade): 426, as toncenter's server answers.
    app.get('/v2/ws', async (_req, reply) => reply.code(426).header('upgrade', 'websocket').send('Upgrade Required'));
    app.addHook('preClose', async () => {
      for (const c of streams) c.close('server closing');
      for (const c of wss.clients) c.terminate();
      wss.close();
    });
  };
}

function idOf(answer: Record<string, unknown>): Record<string, unknown> {
  return 'id' in answer ? { id: answer.id } : {};
}

/** The `resume_from` of a subscribe message (our addition; toncenter ignores unknown keys). */
function resumeFromMessage(text: string): string | null {
  try {
    const v = JSON.parse(text) as { resume_from?: unknown };
    return typeof v.resume_from === 'string' ? v.resume_from : null;
  } catch {
    return null;
  }
}
