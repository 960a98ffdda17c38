// A pool of liteserver connections: health-watched, round robin, bounded retries on another server, archive
// routing for history misses, typed failures, and a close() after which no timer or socket is left.
//
// Server states: `connecting` (first connect + first probe not finished: requests wait for it, within their
// deadline), `up` (session open; in rotation unless `failing` or lagging), `down` (session lost: reconnects with
// backoff; counts as excluded, so a request that finds every server down or excluded fails at once).
import { performance } from 'node:perf_hooks';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { AdnlError, ConfigError, LiteTimeoutError, NoLiteServersError } from '../../common/index.ts';
import type { Log } from '../../common/logger.ts';
import type { LiteServerEndpoint } from '../global-config.ts';
import { classifyFailure, type FailureKind, isRetryable, penalizesServer } from './failure.ts';
import { LiteConnection } from './lite-connection.ts';
import {
  type AttemptContext,
  createAttemptLiteClient,
  createLiteMethods,
  type LiteMethods,
  type LiteRequestOptions,
} from './lite-methods.ts';
import { createCounter, createHistogram, type LitePoolMetrics } from './pool-metrics.ts';

export interface LitePoolOptions {
  servers: LiteServerEndpoint[];
  /** Deadline of one request across all its attempts; default 10 s. */
  requestTimeoutMs?: number;
  /** Deadline of one attempt on one server (so a hung server leaves time for another); default requestTimeoutMs / 2. */
  attemptTimeoutMs?: number;
  /** Attempts per request, each on a different server; default 3. */
  maxAttempts?: number;
  /** A server more than this many masterchain blocks behind the best known head leaves the rotation; default 3. */
  lagThreshold?: number;
  /** Period of the getMasterchainInfo probe of each healthy server (failing ones: every second); default 1 s. */
  healthIntervalMs?: number;
  /** Deadline of one probe; default min(attemptTimeoutMs, 3 s). */
  probeTimeoutMs?: number;
  /** Deadline of the TCP connect + ADNL handshake; default 5 s. */
  connectTimeoutMs?: number;
  /** Reconnect backoff after a lost session: doubles from min to max; defaults 500 ms and 30 s. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Ids of servers known to keep full history (archive nodes). */
  archive?: string[];
  log?: Log<'debug' | 'info' | 'warn'>;
}

export type LiteServerState = 'connecting' | 'up' | 'down' | 'closed';

export interface LiteServerHealth {
  id: string;
  host: string;
  port: number;
  archive: boolean;
  state: LiteServerState;
  /** Session open and the last probe (or request) did not fail. */
  healthy: boolean;
  inRotation: boolean;
  mcSeqno: number | null;
  /** Blocks behind the best known head (null while unknown). */
  lagBlocks: number | null;
  /** Round trip of the last successful probe. */
  latencyMs: number | null;
  lastError: string | null;
}

export interface WithServerOptions {
  /** Deadline of the whole callback (all attempts); default requestTimeoutMs. */
  timeoutMs?: number;
  /** Start on an archive server. */
  archive?: boolean;
  /** Pin to this server id instead of choosing one. */
  server?: string;
  /**
   * Run the callback again on another server when a query inside it fails for a server reason (connection,
   * timeout, garbled answer, history miss); default true. Errors of the callback's own making are never retried.
   */
  retry?: boolean;
}

/** The client handed to a `withServer` callback: every call goes to the same server. */
export interface PinnedLiteClient extends LiteMethods {
  readonly server: string;
  /** ton-lite-client's LiteClient on this server (e.g. for `getFullBlock` or `open(contract)`); caches off. */
  liteClient(): import('ton-lite-client').LiteClient;
}

export interface LitePool extends LiteMethods {
  withServer<T>(fn: (client: PinnedLiteClient) => Promise<T>, opts?: WithServerOptions): Promise<T>;
  /** Resolves once a server is in rotation; rejects with NoLiteServersError when every server is down. */
  ready(opts?: { timeoutMs?: number }): Promise<void>;
  health(): LiteServerHealth[];
  /** Best masterchain seqno reported by a healthy server (toncenter's "consensus block"). */
  headSeqno(): number | null;
  metrics(): LitePoolMetrics;
  /** Ends every timer and socket; pending and later requests fail with NoLiteServersError. */
  close(): Promise<void>;
}

interface Slot {
  index: number;
  endpoint: LiteServerEndpoint;
  conn: LiteConnection;
  archive: boolean;
  state: LiteServerState;
  failing: boolean;
  /** performance.now() of the last penalty: only a probe sent after it may clear `failing`. */
  penaltyAt: number;
  mcSeqno: number | undefined;
  latencyMs: number | undefined;
  lastError: string | undefined;
  /** Incremented on every new session; results that arrive from an older session are ignored. */
  session: number;
  /** Session of the probe in flight, if any. */
  probingSession: number | undefined;
  /** performance.now() when the last probe was sent. */
  lastProbeAt: number;
  probeFailures: number;
  reconnects: number;
  reconnectTimer: NodeJS.Timeout | undefined;
  wasInRotation: boolean;
}

/** A probe failing this many times in a row on an open session: drop the session and reconnect. */
const RECYCLE_AFTER_PROBE_FAILURES = 3;

export function createLitePool(opts: LitePoolOptions): LitePool {
  if (opts.servers.length === 0) throw new ConfigError('createLitePool: expected at least one liteserver, got none');
  const requestTimeoutMs = opts.requestTimeoutMs ?? 10_000;
  const attemptTimeoutMs = Math.min(opts.attemptTimeoutMs ?? Math.ceil(requestTimeoutMs / 2), requestTimeoutMs);
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 3);
  const lagThreshold = opts.lagThreshold ?? 3;
  const healthIntervalMs = opts.healthIntervalMs ?? 1000;
  const probeTimeoutMs = opts.probeTimeoutMs ?? Math.min(attemptTimeoutMs, 3000);
  const connectTimeoutMs = opts.connectTimeoutMs ?? 5000;
  const reconnectMinMs = opts.reconnectMinMs ?? 500;
  const reconnectMaxMs = opts.reconnectMaxMs ?? 30_000;
  const log: Log<'debug' | 'info' | 'warn'> = opts.log ?? (() => {});

  const ids = new Set<string>();
  for (const s of opts.servers) {
    if (ids.has(s.id)) throw new ConfigError(`createLitePool: expected unique server ids, ${s.id} is listed twice`);
    if (!s.host || !Number.isInteger(s.port) || s.port < 1 || s.port > 65535) {
      throw new ConfigError(
        `createLitePool: server ${s.id}: expected a host and a port in 1..65535, got ${s.host}:${s.port}`,
      );
    }
    if (s.publicKey?.length !== 32) {
      throw new ConfigError(
        `createLitePool: server ${s.id}: expected a 32-byte ed25519 public key, got ${s.publicKey?.length} bytes`,
      );
    }
    ids.add(s.id);
  }
  const archiveIds = new Set(opts.archive ?? []);
  for (const id of archiveIds) {
    if (!ids.has(id)) log('warn', 'Ignored unknown archive liteserver id', { server: id });
  }
  const hasArchive = opts.servers.some((s) => archiveIds.has(s.id));

  const slots: Slot[] = opts.servers.map((endpoint, index) => ({
    index,
    endpoint,
    conn: new LiteConnection(endpoint, {
      connectTimeoutMs,
      // A killed server is noticed at once, not at the next probe or request.
      onSessionLost: (err) => {
        const slot = slots[index];
        if (slot && slot.state === 'up') markDown(slot, err);
      },
    }),
    archive: archiveIds.has(endpoint.id),
    state: 'connecting',
    failing: false,
    penaltyAt: -1,
    mcSeqno: undefined,
    latencyMs: undefined,
    lastError: undefined,
    session: 0,
    probingSession: undefined,
    lastProbeAt: -Infinity,
    probeFailures: 0,
    reconnects: 0,
    reconnectTimer: undefined,
    wasInRotation: false,
  }));

  let closed = false;
  let cursor = 0;
  const waiters = new Set<() => void>();
  /** Errors already counted and acted upon by a pinned call (the withServer loop must not count them again). */
  const accounted = new WeakSet<object>();

  const requests = createCounter('tongate_lite_requests_total', 'Pool requests by method and outcome');
  const requestSeconds = createHistogram('tongate_lite_request_seconds', 'Pool request latency incl. retries');
  const attempts = createCounter('tongate_lite_attempts_total', 'Attempts sent to each liteserver');
  const failures = createCounter('tongate_lite_attempt_failures_total', 'Failed attempts by server and kind');
  const retries = createCounter('tongate_lite_retries_total', 'Requests sent again to another server, by reason');
  const probes = createCounter('tongate_lite_probes_total', 'Health probes by server and outcome');

  // ---- state -------------------------------------------------------------------------------------------------

  function notify(): void {
    for (const slot of slots) {
      const now = inRotation(slot);
      if (now !== slot.wasInRotation) {
        slot.wasInRotation = now;
        const lag = lagOf(slot);
        log(now ? 'info' : 'warn', now ? 'Admitted liteserver to rotation' : 'Removed liteserver from rotation', {
          server: slot.endpoint.id,
          state: slot.state,
          failing: slot.failing,
          lagBlocks: lag,
          lastError: slot.lastError,
        });
      }
    }
    const ws = [...waiters];
    waiters.clear();
    for (const w of ws) w();
  }

  function head(): number | undefined {
    let best: number | undefined;
    for (const s of slots) {
      if (s.state === 'up' && !s.failing && s.mcSeqno !== undefined && (best === undefined || s.mcSeqno > best)) {
        best = s.mcSeqno;
      }
    }
    return best;
  }

  function lagOf(slot: Slot, h = head()): number | undefined {
    return h === undefined || slot.mcSeqno === undefined ? undefined : Math.max(0, h - slot.mcSeqno);
  }

  function healthy(slot: Slot): boolean {
    return slot.state === 'up' && !slot.failing && slot.conn.isOpen;
  }

  function inRotation(slot: Slot, h = head()): boolean {
    if (!healthy(slot) || slot.mcSeqno === undefined) return false;
    return (lagOf(slot, h) ?? 0) <= lagThreshold;
  }

  function penalize(slot: Slot, session: number, kind: FailureKind, e: unknown): void {
    if (closed || session !== slot.session) return; // a failure of a session that is already gone
    // Running out of the caller's time before sending says nothing about the server.
    if (e instanceof LiteTimeoutError && e.details.reason === 'deadline') return;
    slot.lastError = errorText(e);
    if (kind === 'transport') {
      markDown(slot, e);
      return;
    }
    slot.failing = true;
    slot.penaltyAt = performance.now();
    notify();
  }

  function markDown(slot: Slot, e: unknown): void {
    if (closed || slot.state === 'closed') return;
    const wasUp = slot.state === 'up';
    slot.state = 'down';
    slot.failing = true;
    slot.penaltyAt = performance.now();
    slot.lastError = errorText(e);
    slot.conn.close();
    if (wasUp) log('warn', 'Lost liteserver', { server: slot.endpoint.id, error: slot.lastError });
    scheduleReconnect(slot);
    notify();
  }

  function scheduleReconnect(slot: Slot): void {
    if (closed || slot.reconnectTimer) return;
    const delay = Math.min(reconnectMaxMs, reconnectMinMs * 2 ** Math.min(slot.reconnects, 16));
    slot.reconnects++;
    slot.reconnectTimer = setTimeout(() => {
      slot.reconnectTimer = undefined;
      void connectSlot(slot);
    }, delay);
    slot.reconnectTimer.unref();
  }

  async function connectSlot(slot: Slot): Promise<void> {
    if (closed) return;
    try {
      await slot.conn.connect();
    } catch (e) {
      if (closed) return;
      if (slot.state === 'connecting') {
        log('warn', 'Failed to connect to liteserver', { server: slot.endpoint.id, error: errorText(e) });
      }
      markDown(slot, e);
      return;
    }
    if (closed) {
      slot.conn.close();
      return;
    }
    slot.session++;
    slot.probeFailures = 0;
    await probe(slot, true);
  }

  async function probe(slot: Slot, afterConnect = false): Promise<void> {
    const session = slot.session;
    if (closed || slot.probingSession === session) return;
    slot.probingSession = session;
    const started = performance.now();
    slot.lastProbeAt = started;
    try {
      const info = await slot.conn.query(
        Functions.liteServer_getMasterchainInfo,
        { kind: 'liteServer.getMasterchainInfo' },
        { timeoutMs: probeTimeoutMs, method: 'getMasterchainInfo' },
      );
      if (closed || session !== slot.session) return;
      probes.inc({ server: slot.endpoint.id, outcome: 'ok' });
      slot.latencyMs = performance.now() - started;
      slot.mcSeqno = info.last.seqno;
      slot.probeFailures = 0;
      if (slot.penaltyAt < started) slot.failing = false;
      if (slot.state !== 'up') {
        slot.state = 'up';
        slot.reconnects = 0;
        log('info', afterConnect ? 'Connected to liteserver' : 'Recovered liteserver', {
          server: slot.endpoint.id,
          mcSeqno: slot.mcSeqno,
          latencyMs: Math.round(slot.latencyMs),
        });
      }
    } catch (e) {
      if (closed || session !== slot.session) return;
      const kind = classifyFailure(e);
      probes.inc({ server: slot.endpoint.id, outcome: kind });
      slot.lastError = errorText(e);
      if (kind === 'transport' || ++slot.probeFailures >= RECYCLE_AFTER_PROBE_FAILURES) {
        markDown(slot, e);
        return;
      }
      // The session is open but the server does not answer properly: keep it out until a probe succeeds.
      if (slot.state === 'connecting' || afterConnect) slot.state = 'up';
      slot.failing = true;
      slot.penaltyAt = performance.now();
    } finally {
      if (slot.probingSession === session) slot.probingSession = undefined;
      if (!closed) notify();
    }
  }

  // Healthy servers are probed every healthIntervalMs; failing ones on every tick (at least once a second), so
  // a server excluded by one slow answer is back soon even when the regular interval is long.
  const healthTimer = setInterval(
    () => {
      const now = performance.now();
      for (const slot of slots) {
        if (slot.state !== 'up') continue;
        if (!slot.conn.isOpen) markDown(slot, new AdnlError(`liteserver ${slot.endpoint.id} closed the connection`));
        else if (slot.failing || now - slot.lastProbeAt >= healthIntervalMs - 1) void probe(slot);
      }
    },
    Math.min(healthIntervalMs, 1000),
  );
  healthTimer.unref();

  for (const slot of slots) void connectSlot(slot);

  // ---- routing -----------------------------------------------------------------------------------------------

  /** Next server in round-robin order that is in rotation and not yet tried; archive ones first if asked. */
  function pick(tried: Set<Slot>, wantArchive: boolean, archiveOnly: boolean): Slot | undefined {
    for (const s of slots) {
      // A session can die between probes: notice it here rather than send into a closed socket.
      if (s.state === 'up' && !s.conn.isOpen)
        markDown(s, new AdnlError(`liteserver ${s.endpoint.id} closed the connection`));
    }
    const n = slots.length;
    const h = head();
    const rounds: Array<(s: Slot) => boolean> = [];
    if (wantArchive || archiveOnly) rounds.push((s) => s.archive);
    if (!archiveOnly) rounds.push(() => true);
    for (const accept of rounds) {
      for (let k = 0; k < n; k++) {
        const s = slots[(cursor + k) % n]!;
        if (!tried.has(s) && accept(s) && inRotation(s, h)) {
          cursor = (s.index + 1) % n;
          return s;
        }
      }
    }
    return undefined;
  }

  function anyConnecting(): boolean {
    return slots.some((s) => s.state === 'connecting');
  }

  function waitForChange(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, deadline - performance.now()));
      function done() {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      }
      waiters.add(done);
    });
  }

  function noServers(method: string, cause?: unknown): NoLiteServersError {
    const states = slots.map((s) => {
      const lag = lagOf(s);
      const why =
        s.state !== 'up'
          ? s.state
          : s.failing
            ? 'failing'
            : lag !== undefined && lag > lagThreshold
              ? `lagging ${lag} blocks`
              : 'in rotation';
      return `${s.endpoint.id} ${why}${s.lastError ? ` (${s.lastError})` : ''}`;
    });
    return new NoLiteServersError(
      closed
        ? `${method}: the liteserver pool is closed`
        : `${method}: no liteserver in rotation: ${states.join('; ')}`,
      { cause, details: { method, servers: slots.map((s) => s.endpoint.id) } },
    );
  }

  interface SlotContext extends AttemptContext {
    slot: Slot;
    session: number;
    deadline: number;
  }

  function makeContext(slot: Slot, deadline: number, perCallMs: number, awaitSeqno?: number): SlotContext {
    const callTimeout = (method: string): number => {
      const left = deadline - performance.now();
      if (left <= 0) {
        throw new LiteTimeoutError(`${method}: the deadline passed before the query was sent to ${slot.endpoint.id}`, {
          details: { server: slot.endpoint.id, method, reason: 'deadline' },
        });
      }
      return Math.min(perCallMs, left);
    };
    const ctx: SlotContext = {
      slot,
      session: slot.session,
      deadline,
      server: slot.endpoint.id,
      query: async (fn, req, method = 'query') =>
        slot.conn.query(fn, req, { timeoutMs: callTimeout(method), method, awaitSeqno }),
      queryRaw: async (body, method = 'queryRaw') =>
        slot.conn.queryRaw(body, { timeoutMs: callTimeout(method), method, awaitSeqno }),
      liteClient: () => createAttemptLiteClient(ctx),
    };
    return ctx;
  }

  interface RunOptions extends LiteRequestOptions {
    /** Whole attempt may use all remaining time; each query inside gets at most attemptTimeoutMs. */
    chain?: boolean;
    server?: string;
    retry?: boolean;
  }

  async function execute<T>(method: string, run: (ctx: AttemptContext) => Promise<T>, o: RunOptions = {}): Promise<T> {
    const started = performance.now();
    let outcome: string = 'ok';
    try {
      return await attemptLoop(method, run, o, started);
    } catch (e) {
      outcome = e instanceof NoLiteServersError ? 'no_servers' : classifyFailure(e);
      throw e;
    } finally {
      requests.inc({ method, outcome });
      requestSeconds.observe({ method }, (performance.now() - started) / 1000);
    }
  }

  async function attemptLoop<T>(
    method: string,
    run: (ctx: AttemptContext) => Promise<T>,
    o: RunOptions,
    started: number,
  ): Promise<T> {
    if (closed) throw noServers(method);
    const timeoutMs = o.timeoutMs ?? requestTimeoutMs;
    const deadline = started + timeoutMs;
    const limit = o.retry === false ? 1 : maxAttempts;
    const pinned = o.server === undefined ? undefined : slots.find((s) => s.endpoint.id === o.server);
    if (o.server !== undefined && !pinned) throw noServers(`${method} (unknown server ${o.server})`);
    const tried = new Set<Slot>();
    let wantArchive = o.archive === true;
    let archiveOnly = false;
    let lastError: unknown;
    let lastKind: FailureKind | undefined;
    let count = 0;
    let outOfServers = false;

    while (count < limit) {
      let slot: Slot | undefined;
      if (pinned) slot = !tried.has(pinned) && inRotation(pinned) ? pinned : undefined;
      else slot = pick(tried, wantArchive, archiveOnly);
      if (!slot) {
        // Only the very first servers' startup is waited for; a known-bad pool fails at once.
        const waitable = pinned ? pinned.state === 'connecting' : anyConnecting();
        if (lastError === undefined && waitable && performance.now() < deadline) {
          await waitForChange(deadline);
          if (closed) throw noServers(method);
          continue;
        }
        outOfServers = true;
        break;
      }
      const left = deadline - performance.now();
      if (left <= 0) break;
      if (lastKind !== undefined) retries.inc({ reason: lastKind });
      count++;
      tried.add(slot);
      attempts.inc({ server: slot.endpoint.id });
      const attemptDeadline = o.chain ? deadline : performance.now() + Math.min(attemptTimeoutMs, left);
      const ctx = makeContext(slot, attemptDeadline, o.chain ? attemptTimeoutMs : left, o.awaitSeqno);
      try {
        return await run(ctx);
      } catch (e) {
        const kind = classifyFailure(e);
        if (kind === 'caller') throw e;
        if (!accounted.has(e as object)) {
          failures.inc({ server: slot.endpoint.id, kind });
          if (penalizesServer(kind)) penalize(slot, ctx.session, kind, e);
        }
        if (closed) throw noServers(method, e);
        if (!isRetryable(kind)) throw e;
        lastError = e;
        lastKind = kind;
        if (kind === 'history_miss') {
          // This server pruned the history: only archive servers (or, without any, other servers) can help.
          wantArchive = true;
          archiveOnly = hasArchive;
        }
        log('debug', 'Liteserver attempt failed', { server: slot.endpoint.id, method, kind, error: errorText(e) });
      }
    }

    if (lastError === undefined) {
      if (performance.now() >= deadline) {
        throw new LiteTimeoutError(`${method}: no liteserver became ready within ${timeoutMs} ms`, {
          details: { method, timeoutMs },
        });
      }
      throw noServers(method);
    }
    // Lost connections everywhere: the pool has no server left, whatever the last socket said.
    if (lastKind === 'transport' && outOfServers) throw noServers(method, lastError);
    if (lastKind === 'timeout') {
      throw new LiteTimeoutError(
        `${method}: no liteserver answered in time (${count} attempt${count === 1 ? '' : 's'} within ${timeoutMs} ms; ` +
          `last: ${errorText(lastError)})`,
        { cause: lastError, details: { method, timeoutMs, attempts: count } },
      );
    }
    throw lastError;
  }

  // ---- public surface ----------------------------------------------------------------------------------------

  const methods = createLiteMethods((method, run, o) => execute(method, run, o));

  function pinnedClient(chain: SlotContext): PinnedLiteClient {
    // Each call inside the callback is its own query on the same server, bounded by the callback's deadline.
    const m = createLiteMethods(async (method, run, o) => {
      const t0 = performance.now();
      let outcome = 'ok';
      const ctx = makeContext(chain.slot, chain.deadline, o?.timeoutMs ?? attemptTimeoutMs, o?.awaitSeqno);
      ctx.session = chain.session;
      try {
        return await run(ctx);
      } catch (e) {
        const kind = classifyFailure(e);
        outcome = kind;
        if (kind !== 'caller' && typeof e === 'object' && e !== null && !accounted.has(e)) {
          accounted.add(e);
          failures.inc({ server: chain.server, kind });
          if (penalizesServer(kind)) penalize(chain.slot, chain.session, kind, e);
        }
        throw e;
      } finally {
        requests.inc({ method, outcome });
        requestSeconds.observe({ method }, (performance.now() - t0) / 1000);
      }
    });
    return { ...m, server: chain.server, liteClient: () => createAttemptLiteClient(chain) };
  }

  return {
    ...methods,

    withServer: (fn, o = {}) =>
      execute('withServer', (ctx) => fn(pinnedClient(ctx as SlotContext)), {
        timeoutMs: o.timeoutMs,
        archive: o.archive,
        server: o.server,
        retry: o.retry,
        chain: true,
      }),

    ready: async (o = {}) => {
      const deadline = performance.now() + (o.timeoutMs ?? requestTimeoutMs);
      for (;;) {
        if (closed) throw noServers('ready');
        if (slots.some((s) => inRotation(s))) return;
        if (!anyConnecting() && !slots.some((s) => s.state === 'up')) throw noServers('ready');
        if (performance.now() >= deadline) {
          throw new LiteTimeoutError(
            `ready: no liteserver came into rotation within ${o.timeoutMs ?? requestTimeoutMs} ms`,
          );
        }
        await waitForChange(deadline);
      }
    },

    health: () =>
      slots.map((s) => ({
        id: s.endpoint.id,
        host: s.endpoint.host,
        port: s.endpoint.port,
        archive: s.archive,
        state: s.state,
        healthy: healthy(s),
        inRotation: inRotation(s),
        mcSeqno: s.mcSeqno ?? null,
        lagBlocks: lagOf(s) ?? null,
        latencyMs: s.latencyMs === undefined ? null : Math.round(s.latencyMs * 1000) / 1000,
        lastError: s.lastError ?? null,
      })),

    headSeqno: () => head() ?? null,

    metrics: () => {
      const h = head();
      const gauge = (name: string, help: string, value: (s: Slot) => number | undefined) => ({
        name,
        help,
        samples: slots.flatMap((s) => {
          const v = value(s);
          return v === undefined ? [] : [{ labels: { server: s.endpoint.id }, value: v }];
        }),
      });
      return {
        counters: [requests, attempts, failures, retries, probes].map((c) => c.family()),
        gauges: [
          gauge('tongate_lite_server_in_rotation', '1 if the server takes requests', (s) => (inRotation(s) ? 1 : 0)),
          gauge('tongate_lite_server_up', '1 if the session is open', (s) => (s.state === 'up' ? 1 : 0)),
          gauge('tongate_lite_server_mc_seqno', 'Last masterchain seqno the server reported', (s) => s.mcSeqno),
          gauge('tongate_lite_server_latency_seconds', 'Round trip of the last probe', (s) =>
            s.latencyMs === undefined ? undefined : s.latencyMs / 1000,
          ),
          {
            name: 'tongate_lite_head_mc_seqno',
            help: 'Best masterchain seqno among healthy servers',
            samples: h === undefined ? [] : [{ labels: {}, value: h }],
          },
        ],
        histograms: [requestSeconds.family()],
      };
    },

    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(healthTimer);
      for (const s of slots) {
        if (s.reconnectTimer) clearTimeout(s.reconnectTimer);
        s.reconnectTimer = undefined;
        s.state = 'closed';
        s.conn.close();
      }
      const ws = [...waiters];
      waiters.clear();
      for (const w of ws) w();
    },
  };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
