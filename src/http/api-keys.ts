// API keys: random 32-byte secrets shown once at creation; the database keeps only their SHA-256, so a
// leaked dump reveals no key. Lookups are cached briefly (revocation reaches every instance within
// CACHE_TTL_MS) so a keyed request costs no query in the steady state.
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/index.ts';

export const KEY_PREFIX = 'tg_';
const CACHE_TTL_MS = 10_000;
const CACHE_MAX = 10_000;

export interface ApiKeyInfo {
  id: number;
  name: string;
  /** Requests per second for this key; null = the deployment's default for keys. */
  rps: number | null;
}

export interface ApiKeyRow extends ApiKeyInfo {
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface ApiKeyStore {
  create(name: string, rps: number | null): Promise<{ key: string; info: ApiKeyRow }>;
  list(): Promise<ApiKeyRow[]>;
  /** true when a live key was revoked now. */
  revoke(id: number): Promise<boolean>;
  /** The live key with this secret, or null (unknown or revoked). */
  lookup(key: string): Promise<ApiKeyInfo | null>;
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

function toRow(r: Record<string, unknown>): ApiKeyRow {
  return {
    id: Number(r.id),
    name: String(r.name),
    rps: r.rps === null ? null : Number(r.rps),
    prefix: String(r.key_prefix),
    createdAt: new Date(r.created_at as string | Date),
    revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at as string | Date),
  };
}

export function createApiKeyStore(db: Database, opts: { now?: () => number } = {}): ApiKeyStore {
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { at: number; info: ApiKeyInfo | null }>();
  return {
    async create(name, rps) {
      const key = KEY_PREFIX + randomBytes(32).toString('base64url');
      const r = await db.query(
        `INSERT INTO api_keys (name, key_hash, key_prefix, rps) VALUES ($1, $2, $3, $4)
         RETURNING id, name, rps, key_prefix, created_at, revoked_at`,
        [name, hashApiKey(key), key.slice(0, KEY_PREFIX.length + 6), rps],
      );
      return { key, info: toRow(r.rows[0] as Record<string, unknown>) };
    },
    async list() {
      const r = await db.query('SELECT id, name, rps, key_prefix, created_at, revoked_at FROM api_keys ORDER BY id');
      return r.rows.map(toRow);
    },
    async revoke(id) {
      const r = await db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id]);
      cache.clear();
      return r.rowCount > 0;
    },
    async lookup(key) {
      const hash = hashApiKey(key).toString('hex');
      const hit = cache.get(hash);
      if (hit && now() - hit.at < CACHE_TTL_MS) return hit.info;
      const r = await db.query('SELECT id, name, rps FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [
        hashApiKey(key),
      ]);
      const row = r.rows[0];
      const info = row
        ? { id: Number(row.id), name: String(row.name), rps: row.rps === null ? null : Number(row.rps) }
        : null;
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(hash, { at: now(), info });
      return info;
    },
  };
}
