// The Redis side of the BullMQ back end: how its connections are made, how they come back after an outage and
// what the log says meanwhile. Every client of one queue object reports to one link, so an outage is one story
// however many connections notice it: a line when Redis goes away, one a minute while it stays away, one when
// it is back. Reconnects back off exponentially up to a cap. Producers never retry in the background before
// their first connection (the caller is told at once, e.g. `tongate work` exits 75 when Redis is unreachable
// at start) and fail fast while Redis is away; workers wait for it and resume.
import { Redis, type RedisOptions } from 'ioredis';
import { QueueError } from '../common/index.ts';
import type { Log } from '../common/logger.ts';
import type { RedisLinkPolicy } from './types.ts';

export const DEFAULT_REDIS_LINK_POLICY: RedisLinkPolicy = {
  firstDelayMs: 250,
  maxDelayMs: 5000,
  stillDownEveryMs: 60_000,
  connectTimeoutMs: 5000,
};

/**
 * Internal, for tests that run the CLI as a child process: `first,max,stillDownEvery[,connectTimeout]` in ms
 * overrides the defaults (e.g. `100,800,3000`), so an outage of seconds spans several backoff steps.
 */
export const ENV_REDIS_BACKOFF = 'TONGATE_REDIS_BACKOFF';

export function resolveRedisLinkPolicy(
  p: Partial<RedisLinkPolicy> | undefined,
  env: Record<string, string | undefined> = process.env,
): RedisLinkPolicy {
  const fromEnv: Partial<RedisLinkPolicy> = {};
  const parts = (env[ENV_REDIS_BACKOFF] ?? '').split(',').map((s) => s.trim());
  const keys = ['firstDelayMs', 'maxDelayMs', 'stillDownEveryMs', 'connectTimeoutMs'] as const;
  keys.forEach((k, i) => {
    const v = parts[i];
    if (v !== undefined && /^\d+$/.test(v) && Number(v) > 0) fromEnv[k] = Number(v);
  });
  const policy = { ...DEFAULT_REDIS_LINK_POLICY, ...fromEnv, ...p };
  for (const k of keys) {
    if (!Number.isSafeInteger(policy[k]) || policy[k] < 1) {
      throw new QueueError('TG_QUEUE_USAGE', `${k} must be a positive integer, got ${policy[k]}`);
    }
  }
  if (policy.maxDelayMs < policy.firstDelayMs) policy.maxDelayMs = policy.firstDelayMs;
  return policy;
}

/** The delay before reconnect attempt `attempt` (1 = first): doubling from firstDelayMs, capped, up to 20% less at random. */
export function reconnectDelay(attempt: number, policy: RedisLinkPolicy, random: () => number = Math.random): number {
  const raw = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.max(1, Math.round(raw * (1 - 0.2 * random())));
}

/** A redis:// URL without its password, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable Redis URL>';
  }
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
]);

/** Whether an error only says that Redis cannot be reached (as opposed to a refused command or a bug). */
export function isConnectionError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
  return /Connection is closed|Stream isn't writeable|max retries per request|Command timed out|connect ETIMEDOUT|ECONNREFUSED|ECONNRESET|socket closed|Socket closed|not connected/i.test(
    e.message,
  );
}

/**
 * Ends a client now, whatever it is doing. ioredis's disconnect() on a client that waits between reconnect
 * attempts (status `reconnecting`, no socket) only cancels the timer: the client never reaches `end` and its
 * pending commands never settle. Finish that close as ioredis would after a socket closed on purpose.
 */
export function endClient(c: Redis): void {
  // Ended already: disconnect() again would only arm a timer for the socket that is gone.
  if (c.status === 'end') return;
  const idle = c.status === 'reconnecting';
  c.disconnect();
  if (idle && c.status === 'reconnecting') {
    const inner = c as unknown as { setStatus?: (s: string) => void; flushQueue?: (e: Error) => void };
    inner.setStatus?.('end');
    inner.flushQueue?.(new Error('Connection is closed.'));
  }
}

/** Ends a client the link watches: QUIT (at most a second) when connected, then the socket, then the watch. */
export async function closeClient(c: Redis, link: { unwatch(c: Redis): void }): Promise<void> {
  if (c.status === 'ready') {
    await Promise.race([c.quit(), new Promise((r) => setTimeout(r, 1000).unref())]).catch(() => {});
  }
  endClient(c);
  link.unwatch(c);
}

/**
 * Lets a worker's client go without failing the commands it still has pending. Once a BullMQ worker is closing it
 * retries a job's completion without any delay, so a command failed by a closed connection would spin forever; such
 * commands are abandoned instead (the job's lock runs out and a worker takes it again as stalled). Connected: QUIT
 * (pending replies first). Waiting to reconnect: the retry is cancelled (ioredis's disconnect() then leaves queued
 * commands alone, and nothing holds the process). Mid-attempt: the same once the attempt ends, or QUIT if it connects.
 */
export function releaseClient(c: Redis): void {
  switch (c.status) {
    case 'end':
      return;
    case 'ready':
      c.quit().catch(() => {});
      return;
    case 'wait':
    case 'reconnecting':
      c.disconnect();
      return;
    default: {
      const onReady = () => {
        c.off('reconnecting', onReconnecting);
        c.quit().catch(() => {});
      };
      const onReconnecting = () => {
        c.off('ready', onReady);
        c.disconnect();
      };
      c.once('ready', onReady);
      c.once('reconnecting', onReconnecting);
    }
  }
}

export type ClientRole = 'producer' | 'worker';

export interface RedisLink {
  /** The URL without its password. */
  readonly where: string;
  readonly policy: RedisLinkPolicy;
  /**
   * A new watched client. `producer`: lazy, no offline queue (commands fail at once while Redis is away), no
   * background retries until it was connected once. `worker`: commands wait for Redis, reconnects never stop.
   */
  client(role: ClientRole): Redis;
  /** Reports this client's state changes to the link (clients BullMQ makes from ours, e.g. duplicates). */
  watch(c: Redis): void;
  unwatch(c: Redis): void;
  /** Whether Redis is unreachable right now, as far as the watched clients know. */
  readonly down: boolean;
  /** The last connection error a watched client saw. */
  readonly lastError: string | undefined;
  /** Runs `fn` now if Redis is down, else the next time it goes down (once). Returns a canceller. */
  whenDown(fn: () => void): () => void;
  /**
   * An error event of a BullMQ Queue or Worker: the consequences of an outage are the outage's (already reported
   * once), anything else is logged.
   */
  reportError(source: Record<string, unknown>, e: Error): void;
  /** Stops the reminders; the clients are closed by their owners. */
  close(): void;
}

export function createRedisLink(url: string, log: Log, policy: RedisLinkPolicy): RedisLink {
  const where = redactRedisUrl(url);
  const watched = new Set<Redis>();
  const listeners = new Map<Redis, Array<[string, (...a: unknown[]) => void]>>();
  const downWaiters = new Set<() => void>();
  let everUp = false;
  let downSince: number | undefined;
  let lastError: string | undefined;
  let reminder: NodeJS.Timeout | undefined;
  let closed = false;
  const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

  const goDown = () => {
    if (closed || downSince !== undefined) return;
    const since = Date.now();
    downSince = since;
    log('warn', everUp ? 'Lost the connection to Redis, reconnecting' : 'Could not connect to Redis, retrying', {
      redis: where,
      error: lastError ?? 'connection closed',
      retryMs: `${policy.firstDelayMs}..${policy.maxDelayMs}`,
    });
    reminder = setInterval(() => {
      log('warn', 'Redis is still unreachable, reconnecting', {
        redis: where,
        downSeconds: seconds(since),
        error: lastError,
      });
    }, policy.stillDownEveryMs);
    reminder.unref();
    for (const w of [...downWaiters]) w();
  };

  const goUp = () => {
    everUp = true;
    if (downSince === undefined) return;
    // Back once no watched client still waits to reconnect: one line for the whole outage.
    for (const c of watched) if (c.status === 'reconnecting') return;
    const since = downSince;
    downSince = undefined;
    lastError = undefined;
    if (reminder) clearInterval(reminder);
    reminder = undefined;
    if (!closed) log('info', 'Reconnected to Redis', { redis: where, downSeconds: seconds(since) });
  };

  const link: RedisLink = {
    where,
    policy,
    client(role) {
      let connectedOnce = false;
      const common: RedisOptions = {
        connectTimeout: policy.connectTimeoutMs,
        // How long a closing socket may linger before it is destroyed (ioredis: 2 s, which also holds the process
        // that long when the socket is gone already).
        disconnectTimeout: 200,
        // Producers connect on first use; workers at once (BullMQ would call connect() on a lazy one itself, and
        // take its first failure as final).
        lazyConnect: role === 'producer',
        // A client that never connected gives up at once: the caller reports it (exit 75 at start).
        retryStrategy: (n) => (role === 'worker' || connectedOnce ? reconnectDelay(n, policy) : null),
      };
      const c = new Redis(
        url,
        role === 'producer'
          ? { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1 }
          : { ...common, maxRetriesPerRequest: null },
      );
      c.on('ready', () => {
        connectedOnce = true;
      });
      link.watch(c);
      return c;
    },
    watch(c) {
      if (watched.has(c)) return;
      watched.add(c);
      const on: Array<[string, (...a: unknown[]) => void]> = [
        [
          'error',
          (e) => {
            lastError = e instanceof Error ? e.message : String(e);
          },
        ],
        ['reconnecting', goDown],
        ['ready', goUp],
      ];
      for (const [ev, fn] of on) c.on(ev, fn);
      listeners.set(c, on);
    },
    unwatch(c) {
      watched.delete(c);
      // The error listener stays: an ended client must never report an unhandled 'error'.
      for (const [ev, fn] of listeners.get(c) ?? []) if (ev !== 'error') c.off(ev, fn);
      listeners.delete(c);
      if (downSince !== undefined && ![...watched].some((x) => x.status === 'reconnecting')) {
        // The client that kept the outage open is gone: nothing is known to be down any more.
        downSince = undefined;
        if (reminder) clearInterval(reminder);
        reminder = undefined;
      }
    },
    get down() {
      return downSince !== undefined;
    },
    get lastError() {
      return lastError;
    },
    whenDown(fn) {
      if (downSince !== undefined) {
        fn();
        return () => {};
      }
      const once = () => {
        downWaiters.delete(once);
        fn();
      };
      downWaiters.add(once);
      return () => downWaiters.delete(once);
    },
    reportError(source, e) {
      if (downSince !== undefined || isConnectionError(e)) {
        lastError = e.message;
        return;
      }
      log('warn', 'Reported a queue error', { ...source, error: e.message });
    },
    close() {
      closed = true;
      if (reminder) clearInterval(reminder);
      reminder = undefined;
      downWaiters.clear();
    },
  };
  return link;
}
