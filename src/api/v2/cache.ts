// Response cache of v2 (issue 7): answers about a fixed block or transaction never change, so they are
// kept until evicted; "latest" answers (masterchain info, account state at the head) live for a fraction
// of a block interval. Keys are the method name and its parsed parameters. Concurrent identical requests
// share one liteserver call.
import { Lru } from '../../common/index.ts';

export interface V2Cache {
  /** `ttlMs` = Infinity for immutable answers. */
  get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T>;
  hits(): number;
}

export function createV2Cache(opts: { max?: number; now?: () => number } = {}): V2Cache {
  const now = opts.now ?? Date.now;
  const lru = new Lru<string, { at: number; value: Promise<unknown> }>(opts.max ?? 10_000);
  let hits = 0;
  return {
    async get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
      const hit = lru.get(key);
      if (hit && now() - hit.at < ttlMs) {
        hits++;
        return hit.value as Promise<T>;
      }
      const value = load();
      lru.set(key, { at: now(), value });
      // A failed call is not cached.
      value.catch(() => {
        if (lru.get(key)?.value === value) lru.delete(key);
      });
      return value;
    },
    hits: () => hits,
  };
}

/**
 * How long a "latest" answer (the head block, an account's history from the head) is reused: half of
 * mainnet's 400 ms block interval, so a client polling the head never misses a block by more than that.
 */
export const LATEST_TTL_MS = 200;

/** `cache.get` for one request, which it marks as answered from the cache (toncenter's ":c" in @extra). */
export function cachedAnswer<T>(
  cache: V2Cache,
  request: { cached: boolean },
  key: string,
  ttlMs: number,
  load: () => Promise<T>,
): Promise<T> {
  const hits = cache.hits();
  // get() counts a hit before its first await, so the comparison sees this call's own outcome.
  const value = cache.get(key, ttlMs, load);
  if (cache.hits() > hits) request.cached = true;
  return value;
}
