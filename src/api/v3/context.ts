// What every v3 route gets: the database, the network flavour of user-friendly addresses, the limits, and the
// v2 context when the deployment has a liteserver pool.
import type { Database } from '../../db/index.ts';
import type { AccessControl } from '../../http/access.ts';
import type { V2Context } from '../v2/plugin.ts';

export interface V3Options {
  db: Database;
  access: AccessControl;
  /** Testnet instance: user-friendly addresses carry the test-only flag. */
  testnet: boolean;
  /** Largest `limit` accepted (toncenter: 1000). */
  maxLimit: number;
  /** `limit` when none is given (toncenter's docs: 10). */
  defaultLimit: number;
  /** Default and cap of a statement's run time in ms (X-Timeout may lower it; toncenter caps it at 3000). */
  queryTimeoutMs: number;
  /** X-API-Version header value. */
  version: string;
  /**
   * The v2 API's context (liteserver pool, response cache, send hook) for the v2-style methods (routes/legacy.ts),
   * which toncenter proxies to ton-http-api and we answer with our own v2 functions. Absent without a pool: then
   * /message, /runGetMethod and /estimateFee are not served and use_v2=true is refused.
   */
  v2?: V2Context;
}

export const V3_DEFAULTS = { maxLimit: 1000, defaultLimit: 10, queryTimeoutMs: 3000 } as const;
