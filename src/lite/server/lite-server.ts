// A liteserver: the ADNL-TCP listener with the lite_api dispatcher as its query handler.
import { AdnlServer, type AdnlServerOptions, type AdnlServerStats, type Ed25519KeyPair } from '../../adnl/index.ts';
import type { Log } from '../../common/logger.ts';
import type { ChainView } from './chain-view.ts';
import { createLiteDispatcher, type LiteDispatcherOptions } from './dispatcher.ts';

export interface LiteServerOptions
  extends Omit<AdnlServerOptions, 'onQuery' | 'log'>,
    Omit<LiteDispatcherOptions, 'log'> {
  view: ChainView;
  keys: Ed25519KeyPair[];
  log?: Log<'debug' | 'info' | 'warn'>;
}

export interface LiteServer {
  /** Starts listening; port 0 picks a free port. */
  listen(): Promise<{ host: string; port: number }>;
  /** Closes every connection (their pending queries are dropped) and the listener. */
  close(): Promise<void>;
  /** The first key's Ed25519 public key: what a global config's `id.key` carries. */
  readonly publicKey: Buffer;
  readonly connectionCount: number;
  stats(): AdnlServerStats;
}

export function createLiteServer(opts: LiteServerOptions): LiteServer {
  const { view, log, queryTimeoutMs, maxWaitMs, maxAnswerBytes, ...adnl } = opts;
  const first = opts.keys[0];
  const dispatch = createLiteDispatcher(view, { log, queryTimeoutMs, maxWaitMs, maxAnswerBytes });
  const server = new AdnlServer({ ...adnl, log, onQuery: (query, ctx) => dispatch(query, ctx) });
  return {
    listen: () => server.listen(),
    close: () => server.close(),
    publicKey: first ? Buffer.from(first.publicKey) : Buffer.alloc(0),
    get connectionCount() {
      return server.connectionCount;
    },
    stats: () => server.stats(),
  };
}
