// Who may call, and how often: the API key (X-API-Key header or api_key query parameter, as toncenter
// accepts both) is resolved to its stored row, then the request is counted against the key's rate or,
// without a key, against the caller's IP. Profiles: `open` (a local devnet: no limit unless a key has
// one) and `managed` (toncenter's defaults: keyless v2 at 1 rps, keys at 10 rps). A limiter that cannot count
// (its Redis is gone, and it is closed) turns a counted request into 503 with Retry-After.
import type { FastifyRequest } from 'fastify';
import type { ApiKeyInfo, ApiKeyStore } from './api-keys.ts';
import { HttpError } from './errors.ts';
import { type RateLimiter, RateLimiterUnavailableError } from './rate-limit.ts';

export type AccessProfile = 'open' | 'managed';

export interface AccessPolicy {
  /** Requests per second per IP without a key; null = no limit. */
  keylessRps: number | null;
  /** Rate of keys whose own rps is null; null = no limit. */
  keyRps: number | null;
}

/** toncenter's public defaults (v2-api.md §3.4, v3-api.md §2.2): keyless 1 rps, Free plan keys 10 rps. */
export function policyFor(
  profile: AccessProfile,
  api: 'v2' | 'v3',
  opts: { v3KeylessRps?: number } = {},
): AccessPolicy {
  if (profile === 'open') return { keylessRps: null, keyRps: null };
  return { keylessRps: api === 'v3' ? (opts.v3KeylessRps ?? 1) : 1, keyRps: 10 };
}

export const RATE_LIMIT_MESSAGE = 'Ratelimit exceeded';
export const LIMITER_UNAVAILABLE_MESSAGE = 'rate limiting is unavailable (its Redis cannot be reached); retry later';
/** Seconds a client is asked to wait when the limiter cannot count. */
export const LIMITER_UNAVAILABLE_RETRY_AFTER = 1;

export function requestApiKey(req: FastifyRequest): string | undefined {
  const h = req.headers['x-api-key'];
  const header = Array.isArray(h) ? h[0] : h;
  if (header !== undefined && header !== '') return header;
  const q = (req.query as Record<string, unknown> | undefined)?.api_key;
  const query = Array.isArray(q) ? q[0] : q;
  return typeof query === 'string' && query !== '' ? query : undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKeyInfo;
  }
}

export interface AccessControl {
  check(req: FastifyRequest): Promise<void>;
}

export function createAccessControl(opts: {
  api: 'v2' | 'v3';
  policy: AccessPolicy;
  keys?: ApiKeyStore;
  limiter: RateLimiter;
}): AccessControl {
  const { api, policy, keys } = opts;
  const take = async (bucket: string, rps: number): Promise<boolean> => {
    try {
      return await opts.limiter.take(bucket, rps);
    } catch (e) {
      if (!(e instanceof RateLimiterUnavailableError)) throw e;
      // The limiter logs losing Redis once; each refused request is not a failure of its own.
      throw new HttpError(503, LIMITER_UNAVAILABLE_MESSAGE, {
        headers: { 'retry-after': String(LIMITER_UNAVAILABLE_RETRY_AFTER) },
        expected: true,
      });
    }
  };
  return {
    async check(req) {
      const key = requestApiKey(req);
      if (key !== undefined) {
        // Without a key store (no database: a v2-only deployment) every key is unknown, as on toncenter.
        const info = keys ? await keys.lookup(key) : null;
        if (!info) throw new HttpError(401, 'API key does not exist');
        req.apiKey = info;
        const rps = info.rps ?? policy.keyRps;
        if (rps !== null && !(await take(`key:${info.id}`, rps))) {
          throw new HttpError(429, RATE_LIMIT_MESSAGE, { headers: { 'retry-after': '1' } });
        }
        return;
      }
      if (policy.keylessRps !== null && !(await take(`${api}:ip:${req.ip}`, policy.keylessRps))) {
        throw new HttpError(429, RATE_LIMIT_MESSAGE, { headers: { 'retry-after': '1' } });
      }
    },
  };
}
