// The optional off-chain metadata job (issue 9): jetton masters, NFT collections and NFT items whose decoded
// content has a `uri` and no fresh address_metadata row get that JSON fetched and stored (toncenter's
// ton-metadata-fetcher keeps the same table). It runs beside indexing, never inside it: it only reads the
// contract tables and writes address_metadata, one request at a time under a rate limit. Off unless started.

import type { Log } from '../../common/logger.ts';
import type { Queryable } from '../../db/index.ts';
import { type FetchFn, fetchJson } from './fetch-json.ts';

export interface MetadataJobOptions {
  db: Queryable;
  /** The HTTP client (default: the global fetch). */
  fetch?: FetchFn;
  /** Most requests started per second. */
  ratePerSecond: number;
  /** Largest document accepted, in bytes. */
  maxBytes: number;
  /** Deadline per document, headers and body. */
  timeoutMs: number;
  log: Log;
  /** Documents per pass (default 100). */
  batch?: number;
  /** Seconds until a fetched document is fetched again (default 7 days). */
  refreshSeconds?: number;
  /** Seconds until a failed fetch is tried again (default 1 hour). */
  retrySeconds?: number;
  /** Gateway for ipfs:// URIs; without it they are marked invalid like other non-http schemes. */
  ipfsGateway?: string;
  /** Unix seconds now (tests). */
  now?: () => number;
}

export interface MetadataPassResult {
  /** Documents requested. */
  fetched: number;
  valid: number;
  invalid: number;
}

/** Columns of address_metadata that TEP-64 names; every other key of the document goes to extra. */
const NAMED = ['name', 'description', 'symbol', 'image'] as const;

/** Spaces request starts at least 1/rate seconds apart. */
export function rateLimiter(ratePerSecond: number): () => Promise<void> {
  const gap = 1000 / ratePerSecond;
  let next = 0;
  return async () => {
    let now = performance.now();
    const at = Math.max(now, next);
    next = at + gap;
    // Timers count whole milliseconds and may fire a fraction early: wait until `at` has really passed.
    while (now < at) {
      await new Promise((r) => setTimeout(r, at - now));
      now = performance.now();
    }
    // A timer that fired late released this start late: the next one keeps its distance from when it really was.
    next = Math.max(next, now + gap);
  };
}

/** Text PostgreSQL accepts: no NUL, no lone UTF-16 surrogate (documents are anyone's bytes). */
function cleanText(s: string): string {
  return s
    .replaceAll('\u0000', '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function clean(v: unknown): unknown {
  if (typeof v === 'string') return cleanText(v);
  if (Array.isArray(v)) return v.map(clean);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[cleanText(k)] = clean(x);
    return out;
  }
  return v;
}

interface Candidate {
  address: string;
  type: string;
  uri: string;
}

/** Contracts with a content uri and no address_metadata row, or one past expires_at that may be refetched. */
async function candidates(db: Queryable, now: number, limit: number): Promise<Candidate[]> {
  const r = await db.query<Candidate & Record<string, unknown>>(
    `SELECT c.address, c.type, c.uri FROM (
       SELECT address, 'jetton_masters' AS type, jetton_content->>'uri' AS uri FROM jetton_masters
        WHERE jetton_content ? 'uri'
       UNION ALL
       SELECT address, 'nft_collections', collection_content->>'uri' FROM nft_collections
        WHERE collection_content ? 'uri'
       UNION ALL
       SELECT address, 'nft_items', content->>'uri' FROM nft_items WHERE content ? 'uri'
     ) c
     LEFT JOIN address_metadata m ON m.address = c.address AND m.type = c.type
     WHERE m.address IS NULL OR (m.reindex_allowed AND m.expires_at <= $1)
     ORDER BY m.expires_at NULLS FIRST, c.address
     LIMIT $2`,
    [now, limit],
  );
  return r.rows;
}

async function storeValid(db: Queryable, c: Candidate, doc: Record<string, unknown>, now: number, expires: number) {
  const named = (k: string) => (typeof doc[k] === 'string' ? (doc[k] as string) : null);
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc))
    if (!(NAMED as readonly string[]).includes(k) || typeof v !== 'string') extra[k] = v;
  await db.query(
    `INSERT INTO address_metadata (address, type, valid, name, description, extra, symbol, image, updated_at, expires_at)
     VALUES ($1, $2, true, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (address, type) DO UPDATE SET valid = true, name = EXCLUDED.name, description = EXCLUDED.description,
       extra = EXCLUDED.extra, symbol = EXCLUDED.symbol, image = EXCLUDED.image, updated_at = EXCLUDED.updated_at,
       expires_at = EXCLUDED.expires_at
     WHERE address_metadata.reindex_allowed`,
    [c.address, c.type, named('name'), named('description'), extra, named('symbol'), named('image'), now, expires],
  );
}

/**
 * A failed fetch: a new row is stored invalid; a row that was valid keeps its document (a site that is down for
 * a while does not erase what it served) and is tried again after `expires`.
 */
async function storeInvalid(db: Queryable, c: Candidate, now: number, expires: number) {
  await db.query(
    `INSERT INTO address_metadata (address, type, valid, updated_at, expires_at) VALUES ($1, $2, false, $3, $4)
     ON CONFLICT (address, type) DO UPDATE SET expires_at = EXCLUDED.expires_at,
       updated_at = CASE WHEN address_metadata.valid THEN address_metadata.updated_at ELSE EXCLUDED.updated_at END
     WHERE address_metadata.reindex_allowed`,
    [c.address, c.type, now, expires],
  );
}

/** One pass: up to `batch` documents fetched and stored. Throws only when the database does. */
export async function fetchOffchainMetadata(
  o: MetadataJobOptions,
  wait: () => Promise<void> = rateLimiter(o.ratePerSecond),
): Promise<MetadataPassResult> {
  const now = o.now ?? (() => Math.floor(Date.now() / 1000));
  const refresh = o.refreshSeconds ?? 7 * 86400;
  const retry = o.retrySeconds ?? 3600;
  const result: MetadataPassResult = { fetched: 0, valid: 0, invalid: 0 };
  for (const c of await candidates(o.db, now(), o.batch ?? 100)) {
    await wait();
    const got = await fetchJson(c.uri, {
      fetch: o.fetch ?? fetch,
      maxBytes: o.maxBytes,
      timeoutMs: o.timeoutMs,
      ...(o.ipfsGateway ? { ipfsGateway: o.ipfsGateway } : {}),
    });
    result.fetched++;
    const t = now();
    const doc = got.ok ? clean(got.json) : null;
    if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
      try {
        await storeValid(o.db, c, doc as Record<string, unknown>, t, t + refresh);
        result.valid++;
        continue;
      } catch (e) {
        o.log('warn', 'Refused a metadata document the database would not store', {
          address: c.address,
          url: got.url,
          error: (e as Error).message,
        });
      }
    } else {
      const reason = got.ok ? 'not a JSON object' : got.reason;
      o.log('debug', 'Marked metadata invalid', { address: c.address, type: c.type, url: got.url, reason });
    }
    await storeInvalid(o.db, c, t, t + retry);
    result.invalid++;
  }
  return result;
}

export interface MetadataLoop {
  /** Stops after the document in flight; resolves when the loop has ended. */
  stop(): Promise<void>;
}

/** Runs passes until stopped: back to back while there is work, `intervalMs` apart when there is none. */
export function startMetadataLoop(o: MetadataJobOptions & { intervalMs: number }): MetadataLoop {
  let stopped = false;
  let wake: (() => void) | null = null;
  const wait = rateLimiter(o.ratePerSecond);
  const gate = async () => {
    if (stopped) throw new StopSignal();
    await wait();
  };
  const sleep = (ms: number) =>
    new Promise<void>((r) => {
      const t = setTimeout(r, ms);
      wake = () => {
        clearTimeout(t);
        r();
      };
    });
  const done = (async () => {
    while (!stopped) {
      let idle = true;
      try {
        const r = await fetchOffchainMetadata(o, gate);
        if (r.fetched > 0) o.log('info', 'Fetched off-chain metadata', { ...r });
        idle = r.fetched < (o.batch ?? 100);
      } catch (e) {
        if (e instanceof StopSignal) break;
        o.log('error', 'Metadata pass failed', { error: (e as Error).message });
      }
      if (idle && !stopped) await sleep(o.intervalMs);
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await done;
    },
  };
}

class StopSignal extends Error {}
