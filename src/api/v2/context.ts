// What every v2 method gets: the liteserver pool (or any LiteMethods, e.g. a devnet's), the response cache
// and the network flavour of addresses.

import type { AccessControl } from '../../http/access.ts';
import type { LitePool } from '../../lite/index.ts';
import type { V2Cache } from './cache.ts';

export type V2Lite = Pick<LitePool, Exclude<keyof LitePool, 'close'>>;

export interface V2Options {
  lite: V2Lite;
  access: AccessControl;
  /** Testnet instance: user-friendly addresses carry the test-only flag. */
  testnet: boolean;
  /** X-API-Version header value. */
  version: string;
  /** Response cache shared by the methods (issue 7); the plugin creates one when none is given. */
  cache?: V2Cache;
}
