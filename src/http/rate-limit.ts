// Requests per second per bucket (an API key, or a client IP for keyless calls), counted in one-second
// windows. With Redis every API instance shares the counters (INCR on a key that expires with its
// window), without it each process counts alone. While Redis cannot be reached the limiter cannot count:
// `closed` (the managed profile's default) refuses what it would have counted, which the API answers with 503 and
// Retry-After, `open` lets it through uncounted. Either way it says so once when Redis is lost and once when it is
// back, and its state is part of /healthz.
import type { Redis } from 'ioredis';

/** What a Redis-backed limiter does while Redis cannot be reached. */
export type RedisLossMode = 'closed' | 'open';
export const REDIS_LOSS_MODES: readonly RedisLossMode[] = ['closed', 'open'];

/** Thrown by take() of a `closed` limiter that cannot count (Redis unreachable). */
export class RateLimiterUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('the rate limiter cannot reach Redis', cause === undefined ? undefined : { cause });
    this.name = 'RateLimiterUnavailableError';
  }
}

/** The limiter's state in /healthz. */
export interface RateLimiterHealth {
  backend: 'redis';
  /** connecting: not connected yet since start; ok: counting; lost: Redis unreachable. */
  redis: 'connecting' | 'ok' | 'lost';
  on_redis_loss: RedisLossMode;
  /** True while counted requests are refused (closed and not connected). */
  refusing: boolean;
  /** When Redis was lost (ISO time), while it is. */
  lost_since?: string;
}

export interface RateLimiter {
  /**
   * Counts one request; false when the bucket already had `rps` requests in this second. Throws
   * RateLimiterUnavailableError when it cannot count and is closed.
   */
  take(bucket: string, rps: number): Promise<boolean>;
  /** The state for /healthz (limiters that can lose their backend). */
  health?(): RateLimiterHealth;
  close(): Promise<void>;
}

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  let window = -1;
  let counts = new Map<string, number>();
  return {
    async take(bucket, rps) {
      const sec = Math.floor(now() / 1000);
      if (sec !== window) {
        window = sec;
        counts = new Map();
      }
      const n = (counts.get(bucket) ?? 0) + 1;
      counts.set(bucket, n);
      return n <= rps;
    },
    async close() {},
  };
}

const INCR_WINDOW = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], 2000) end
return n`;

export interface RedisRateLimiterOptions {
  prefix?: string;
  /** Clock of the windows (tests inject one). */
  now?: () => number;
  /** Default 'open'. */
  onRedisLoss?: RedisLossMode;
  /** Called once when Redis is lost (or cannot be reached at start), not again until it was back. */
  onLost?: (e: Error) => void;
  /** Called once when Redis is back after a loss, with how long it was gone. */
  onBack?: (downMs: number) => void;
}

export function createRedisRateLimiter(redis: Redis, opts: RedisRateLimiterOptions = {}): RateLimiter {
  const prefix = opts.prefix ?? 'tongate';
  const now = opts.now ?? Date.now;
  const mode = opts.onRedisLoss ?? 'open';
  let state: RateLimiterHealth['redis'] = redis.status === 'ready' ? 'ok' : 'connecting';
  let lostAt = 0;
  let closing = false;
  const lost = (e: Error) => {
    if (closing || state === 'lost') return;
    state = 'lost';
    lostAt = Date.now();
    opts.onLost?.(e);
  };
  const back = () => {
    if (closing || state === 'ok') return;
    const was = state;
    state = 'ok';
    if (was === 'lost') opts.onBack?.(Date.now() - lostAt);
  };
  const onReady = () => back();
  const onError = (e: Error) => lost(e);
  const onClose = () => lost(new Error('connection to Redis closed'));
  redis.on('ready', onReady);
  redis.on('error', onError);
  redis.on('close', onClose);
  return {
    async take(bucket, rps) {
      const sec = Math.floor(now() / 1000);
      try {
        const n = Number(await redis.eval(INCR_WINDOW, 1, `${prefix}:rl:${bucket}:${sec}`));
        back();
        return n <= rps;
      } catch (e) {
        // Before the first connection a refused command is not a loss; the connection's own error event says so.
        if (state === 'ok') lost(e as Error);
        if (mode === 'closed') throw new RateLimiterUnavailableError(e);
        return true;
      }
    },
    health() {
      return {
        backend: 'redis',
        redis: state,
        on_redis_loss: mode,
        refusing: mode === 'closed' && state !== 'ok',
        ...(state === 'lost' ? { lost_since: new Date(lostAt).toISOString() } : {}),
      };
    },
    async close() {
      closing = true;
      redis.off('ready', onReady);
      redis.off('error', onError);
      redis.off('close', onClose);
      redis.disconnect();
    },
  };
}
