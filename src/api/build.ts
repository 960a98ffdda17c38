// Assembles the API server from what a deployment has: v3 when there is a database, v2 when there is a
// liteserver pool (or the devnet's), both usually. One function for `tongate up`, `tongate serve` and tests.
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import { createMetricsRegistry, type Registry } from '../common/index.ts';
import { TONGATE_VERSION } from '../common/version.ts';
import type { Database } from '../db/index.ts';
import { type AccessProfile, createAccessControl, policyFor } from '../http/access.ts';
import { type ApiKeyStore, createApiKeyStore } from '../http/api-keys.ts';
import type { ExplorerApi } from '../http/explorer.ts';
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
  type RedisLossMode,
} from '../http/rate-limit.ts';
import { createHttpServer, type HealthReport } from '../http/server.ts';
import { createPendingTraces, type PendingTraces, type PendingTracesOptions } from './pending/index.ts';
import { createMemoryBus, createRedisBus, type FeedBus } from './streaming/bus.ts';
import { createStreamHub, type StreamHub } from './streaming/hub.ts';
import { pendingTraceEvent } from './streaming/pending-events.ts';
import {
  MANAGED_STREAM_LIMITS,
  OPEN_STREAM_LIMITS,
  STREAMING_PREFIX,
  type StreamLimits,
  streamingPlugin,
} from './streaming/plugin.ts';
import { createV2Cache } from './v2/cache.ts';
import type { ExternalMessageHook, V2Context, V2Lite } from './v2/context.ts';
import { createApiTvm } from './v2/emulate/executor.ts';
import { v2Plugin } from './v2/plugin.ts';
import { V3_DEFAULTS } from './v3/context.ts';
import { v3Plugin } from './v3/plugin.ts';

/** Our v2 answers toncenter's 2.1 (C++) behaviour; the patch part is ours. */
export const V2_API_VERSION = '2.1.0-tongate.1';
/** v3 reports the schema generation it serves, like toncenter's X-API-Version. */
export const V3_API_VERSION = '1.2.0-tongate.1';

export interface ApiServerOptions {
  db?: Database;
  lite?: V2Lite;
  profile?: AccessProfile;
  /** keyless requests per second on v3 under the managed profile (toncenter: 1). */
  v3KeylessRps?: number;
  testnet?: boolean;
  /** Redis shares rate limits across API instances. */
  redisUrl?: string;
  /**
   * While that Redis cannot be reached: 'closed' answers counted requests 503 + Retry-After (and /healthz is not ok
   * under the managed profile), 'open' lets them through uncounted. Default 'open' (the CLI defaults to 'closed'
   * under the managed profile).
   */
  rateLimitOnRedisLoss?: RedisLossMode;
  logger?: Logger;
  metrics?: Registry;
  health?: () => Promise<HealthReport>;
  /** v3 limits (defaults: toncenter's). */
  maxLimit?: number;
  defaultLimit?: number;
  queryTimeoutMs?: number;
  bodyLimit?: number;
  /** Clock of the rate-limit windows and the API-key cache (tests inject one; default Date.now). */
  now?: () => number;
  /** Called after every message a client sent through us was accepted (v2 sendBoc*, v3 /message). */
  onExternalMessage?: ExternalMessageHook;
  /**
   * Pending traces: with a database and a pool, every message sent through us is emulated into pending_traces
   * (on by default; false turns it off).
   */
  pending?: false | Omit<PendingTracesOptions, 'db' | 'v2' | 'logger'>;
  /** TVM worker threads for get-methods, fee estimates and emulation (default: cores - 1, 1..4). */
  tvmThreads?: number;
  /** Get-method/emulation calls allowed to wait before the API answers 503 (default 64). */
  tvmQueue?: number;
  /**
   * The Streaming API (/api/streaming/v2/sse and /ws; needs a database): on by default; false turns it off. With
   * redisUrl the processes share their pending events through Redis.
   */
  streaming?: false | StreamingOptions;
}

export interface StreamingOptions {
  /** Masterchain blocks a reconnecting client may resume across (default 1000). */
  replayBlocks?: number;
  /** How often the index is polled for newly final blocks (default 250 ms). */
  pollMs?: number;
  /** Per-key limits (default: by profile). */
  limits?: StreamLimits;
  /** Unsent bytes after which a slow client is closed (default 4 MiB). */
  maxBufferedBytes?: number;
  keepaliveMs?: number;
  /** The Redis pub/sub channel of the shared feed (default STREAM_CHANNEL). */
  channel?: string;
  /** false: no `confirmed` events from the liteserver's uncommitted shard blocks (on by default with a liteserver). */
  confirmed?: false;
}

export interface ApiServer {
  app: FastifyInstance;
  keys?: ApiKeyStore;
  /** The pending-trace emulation, when on. */
  pending?: PendingTraces;
  /** The Streaming API's hub, when on. */
  streams?: StreamHub;
  metrics: Registry;
  close(): Promise<void>;
}

export async function buildApiServer(opts: ApiServerOptions): Promise<ApiServer> {
  const logger = opts.logger ?? pino({ level: 'silent' });
  const metrics = opts.metrics ?? createMetricsRegistry();
  const profile = opts.profile ?? 'open';
  let limiter: RateLimiter;
  let health = opts.health;
  if (opts.redisUrl) {
    // A command waits at most a second: a hung Redis counts as lost instead of holding every request.
    const redis = new Redis(opts.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: false,
      commandTimeout: 1000,
    });
    redis.on('error', () => {});
    const onRedisLoss = opts.rateLimitOnRedisLoss ?? 'open';
    const redisLimiter = createRedisRateLimiter(redis, {
      now: opts.now,
      onRedisLoss,
      onLost: (e) =>
        logger.warn(
          { err: e.message, on_redis_loss: onRedisLoss },
          onRedisLoss === 'closed'
            ? 'Rate limiter lost Redis; limited requests get 503 until it is back'
            : 'Rate limiter lost Redis; requests pass unlimited until it is back',
        ),
      onBack: (downMs) => logger.warn({ down_ms: downMs }, 'Rate limiter reached Redis again; requests are counted'),
    });
    limiter = redisLimiter;
    // /healthz shows the limiter; a closed one that cannot count refuses every request of the managed profile.
    const inner = opts.health;
    health = async () => {
      const report = inner ? await inner() : { ok: true };
      const state = redisLimiter.health?.();
      if (!state) return report;
      return { ...report, ok: report.ok && !(state.refusing && profile === 'managed'), rate_limiter: state };
    };
  } else {
    limiter = createMemoryRateLimiter(opts.now);
  }
  const keys = opts.db ? createApiKeyStore(opts.db, { now: opts.now }) : undefined;
  const apis = [];
  let pending: PendingTraces | undefined;
  const userHook = opts.onExternalMessage;
  const wantPending = opts.db !== undefined && opts.lite !== undefined && opts.pending !== false;
  const onExternalMessage: ExternalMessageHook | undefined = wantPending
    ? (m) => {
        pending?.submit(m);
        // Passed on as returned: the send path reports a hook's rejected promise.
        return userHook?.(m);
      }
    : userHook;
  // One v2 context (pool, response cache, send hook) for /api/v2 and for v3's v2-style methods, which call the
  // same functions.
  const v2: V2Context | undefined = opts.lite
    ? {
        lite: opts.lite,
        access: createAccessControl({ api: 'v2', policy: policyFor(profile, 'v2'), keys, limiter }),
        testnet: opts.testnet ?? false,
        version: V2_API_VERSION,
        cache: createV2Cache(),
        tvm: createApiTvm({ threads: opts.tvmThreads, maxQueue: opts.tvmQueue }),
        onExternalMessage,
        logger,
      }
    : undefined;
  let hub: StreamHub | undefined;
  let bus: FeedBus | undefined;
  if (opts.db && opts.streaming !== false) {
    const s = opts.streaming ?? {};
    bus = opts.redisUrl ? createRedisBus(opts.redisUrl, { logger, channel: s.channel }) : createMemoryBus();
    hub = createStreamHub({
      db: opts.db,
      bus,
      testnet: opts.testnet ?? false,
      logger,
      replayBlocks: s.replayBlocks,
      pollMs: s.pollMs,
      confirmed: s.confirmed === false ? undefined : opts.lite,
    });
    apis.push({
      prefix: STREAMING_PREFIX,
      plugin: streamingPlugin({
        hub,
        keys,
        limits: s.limits ?? (profile === 'managed' ? MANAGED_STREAM_LIMITS : OPEN_STREAM_LIMITS),
        logger,
        maxBufferedBytes: s.maxBufferedBytes,
        keepaliveMs: s.keepaliveMs,
      }),
    });
  }
  if (wantPending && opts.db && v2) {
    const db = opts.db;
    const given = opts.pending || {};
    const streams = hub;
    pending = createPendingTraces({
      ...given,
      db,
      v2,
      logger,
      onStored: (row) => {
        given.onStored?.(row);
        if (!streams) return;
        pendingTraceEvent(row, { db, testnet: opts.testnet ?? false }).then(
          (event) => streams.publish({ event }),
          (e: Error) => logger.warn({ err: e.message, trace: row.traceKey }, 'Pending trace not streamed'),
        );
      },
      onExpired: (keys) => {
        given.onExpired?.(keys);
        for (const traceKey of keys) streams?.publish({ event: { kind: 'trace_invalidated', traceKey } });
      },
    });
  }
  if (v2) apis.push({ prefix: '/api/v2', plugin: v2Plugin(v2) });
  if (opts.db) {
    apis.push({
      prefix: '/api/v3',
      plugin: v3Plugin({
        db: opts.db,
        access: createAccessControl({
          api: 'v3',
          policy: policyFor(profile, 'v3', { v3KeylessRps: opts.v3KeylessRps }),
          keys,
          limiter,
        }),
        testnet: opts.testnet ?? false,
        maxLimit: opts.maxLimit ?? V3_DEFAULTS.maxLimit,
        defaultLimit: opts.defaultLimit ?? V3_DEFAULTS.defaultLimit,
        queryTimeoutMs: opts.queryTimeoutMs ?? V3_DEFAULTS.queryTimeoutMs,
        version: V3_API_VERSION,
        v2,
      }),
    });
  }
  const explorers: ExplorerApi[] = [];
  if (opts.db) {
    explorers.push({
      prefix: '/api/v3',
      title: 'API v3',
      summary: 'the index: blocks, transactions, traces, actions, jettons, NFTs, DNS (toncenter v3)',
      document: '/api/v3/openapi.json',
    });
  }
  if (v2) {
    explorers.push({
      prefix: '/api/v2',
      title: 'API v2',
      summary: 'REST and JSON-RPC bridge to the liteservers (toncenter v2)',
      document: '/api/v2/openapi.json',
    });
  }
  const app = await createHttpServer({
    logger,
    explorer: {
      apis: explorers,
      links: [
        ...(hub
          ? [
              {
                href: `${STREAMING_PREFIX}/v2/sse`,
                label: `POST ${STREAMING_PREFIX}/v2/sse`,
                summary:
                  'Streaming API v2 over Server-Sent Events (toncenter compatible; resumable with Last-Event-ID)',
              },
              {
                href: `${STREAMING_PREFIX}/v2/ws`,
                label: `${STREAMING_PREFIX}/v2/ws`,
                summary: 'Streaming API v2 over WebSocket (resumable with resume_from)',
              },
            ]
          : []),
        { href: '/healthz', label: '/healthz', summary: 'health: ok, index lag, parts that are down' },
        { href: '/metrics', label: '/metrics', summary: 'Prometheus metrics' },
      ],
      version: TONGATE_VERSION,
    },
    metrics,
    health,
    bodyLimit: opts.bodyLimit,
    extraMetrics: opts.lite
      ? () => {
          const m = opts.lite?.metrics();
          if (!m) return [];
          return [
            ...m.counters.map((f) => ({ ...f, type: 'counter' as const })),
            ...m.gauges.map((f) => ({ ...f, type: 'gauge' as const })),
            ...m.histograms.map((f) => ({ ...f, type: 'histogram' as const })),
          ];
        }
      : undefined,
    apis,
  });
  return {
    app,
    keys,
    pending,
    streams: hub,
    metrics,
    async close() {
      await app.close();
      await pending?.close();
      await hub?.close();
      await bus?.close();
      await v2?.tvm.close();
      await limiter.close();
    },
  };
}
