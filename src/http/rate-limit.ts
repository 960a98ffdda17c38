// Requests per second per bucket (an API key, or a client IP for keyless calls), counted in one-second
// windows. With Redis every API instance shares the counters (INCR on a key that expires with its
// window), without it each process counts alone. When Redis is unreachable the limiter lets requests
// through and says so once: a lost limiter must not take the API down with it.
import type { Redis } from 'ioredis';

export interface RateLimiter {
  /** Counts one request; false when the bucket already had `rps` requests in this second. */
  take(bucket: string, rps: number): Promise<boolean>;
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

export function createRedisRateLimiter(
  redis: Redis,
  opts: { prefix?: string; now?: () => number; onError?: (e: Error) => void } = {},
): RateLimiter {
  const prefix = opts.prefix ?? 'tongate';
  const now = opts.now ?? Date.now;
  let warned = false;
  return {
    async take(bucket, rps) {
      const sec = Math.floor(now() / 1000);
      try {
        const n = Number(await redis.eval(INCR_WINDOW, 1, `${prefix}:rl:${bucket}:${sec}`));
        warned = false;
        return n <= rps;
      } catch (e) {
        if (!warned) opts.onError?.(e as Error);
        warned = true;
        return true;
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
