// What every v2 method gets: the liteserver pool (or any LiteMethods, e.g. a devnet's), the response cache
// and the network flavour of addresses.

import type { Logger } from 'pino';
import type { AccessControl } from '../../http/access.ts';
import type { LitePool } from '../../lite/index.ts';
import type { V2Cache } from './cache.ts';
import type { ApiTvm } from './emulate/executor.ts';

export type V2Lite = Pick<LitePool, Exclude<keyof LitePool, 'close'>>;

/** An inbound external message the network accepted from one of our send calls. */
export interface ExternalMessage {
  /** The BoC as sent. */
  boc: Buffer;
  /** Hash of the message cell. */
  hash: Buffer;
  /** TEP-467 normalised hash (what explorers and toncenter's message_hash_norm name it by). */
  hashNorm: Buffer;
}

/**
 * Called after every successful send (v2 sendBoc / sendBocReturnHash, v3 /message), e.g. to emulate the message's
 * trace before it lands. Its failure (a throw or a rejected promise) is logged and never fails the send.
 */
export type ExternalMessageHook = (m: ExternalMessage) => void;

export interface V2Options {
  lite: V2Lite;
  access: AccessControl;
  /** Testnet instance: user-friendly addresses carry the test-only flag. */
  testnet: boolean;
  /** X-API-Version header value. */
  version: string;
  /** Response cache shared by the methods (issue 7); the plugin creates one when none is given. */
  cache?: V2Cache;
  /** The TVM get-methods and emulations run on; the plugin creates one (and closes it) when none is given. */
  tvm?: ApiTvm;
  onExternalMessage?: ExternalMessageHook;
  /** Where a failing onExternalMessage hook is reported. */
  logger?: Logger;
}

/** The options as the methods see them: the cache and the TVM are always there (the plugin fills them in). */
export interface V2Context extends V2Options {
  cache: V2Cache;
  tvm: ApiTvm;
}
