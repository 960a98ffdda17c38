// What every v3 route gets: the database (read with the request's statement timeout), the network flavour of
// user-friendly addresses, the limits, and the v2 context when the deployment has a liteserver pool.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database, Queryable, Row } from '../../db/index.ts';
import type { AccessControl } from '../../http/access.ts';
import type { V2Context } from '../v2/shared.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from './limits.ts';

export interface V3Options {
  db: Database;
  access: AccessControl;
  /** Testnet instance: user-friendly addresses carry the test-only flag. */
  testnet: boolean;
  /** Largest `limit` accepted (default MAX_LIMIT, limits.ts). */
  maxLimit: number;
  /** `limit` when none is given (default DEFAULT_LIMIT, limits.ts). */
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

/** The options plus the database reads every handler goes through (the plugin builds them). */
export interface V3Context extends V3Options {
  /** Runs read-only statements with the request's statement timeout (X-Timeout, capped). */
  read<T>(req: FastifyRequest, fn: (q: Queryable) => Promise<T>): Promise<T>;
  query<R extends Row = Row>(req: FastifyRequest, sql: string, params?: readonly unknown[]): Promise<R[]>;
}

export type V3RouteGroup = (app: FastifyInstance, ctx: V3Context) => void;

export const V3_DEFAULTS = { maxLimit: MAX_LIMIT, defaultLimit: DEFAULT_LIMIT, queryTimeoutMs: 3000 } as const;
