// ADNL-TCP listener: accepts connections for any of its keys and hands `adnl.message.query` bodies to
// onQuery. It sends only the handshake's empty packet, tcp.pong and answers (ton-lite-client dies on
// anything unsolicited).
import { createServer, type Server, type Socket } from 'node:net';
import { AdnlError } from '../common/index.ts';
import type { Log } from '../common/logger.ts';
import { DEFAULT_MAX_PACKET_BYTES } from './frame.ts';
import { indexServerKeys, type ServerKey } from './handshake.ts';
import type { Ed25519KeyPair } from './keys.ts';
import {
  type AdnlQueryHandler,
  type AdnlServerStats,
  type ConnectionLimits,
  ServerConnection,
} from './server-connection.ts';

export interface AdnlServerOptions {
  keys: Ed25519KeyPair[];
  host?: string;
  /** 0 (default) = an ephemeral port. */
  port?: number;
  onQuery: AdnlQueryHandler;
  /** Largest accepted packet `len` (default 16 MiB, the reference node's limit). */
  maxPacketBytes?: number;
  /** Close after this long without a byte from the client (default 60 s, like the C++ node). */
  idleTimeoutMs?: number;
  /** Close a connection that has not completed the 256-byte handshake in this time (default 10 s). */
  handshakeTimeoutMs?: number;
  /** Further connections are closed at once (default unlimited). */
  maxConnections?: number;
  /** Drop a connection whose unsent answers exceed this (a reader too slow for its queries; default 64 MiB). */
  maxSendQueueBytes?: number;
  /** Stop reading from a connection while this many of its queries are being answered (default 1024). */
  maxQueriesInFlight?: number;
  log?: Log<'debug' | 'info' | 'warn'>;
}

export class AdnlServer {
  #server: Server;
  #keys: Map<string, ServerKey>;
  #onQuery: AdnlQueryHandler;
  #limits: ConnectionLimits;
  #maxConnections: number;
  #host: string;
  #port: number;
  #log: Log<'debug' | 'info' | 'warn'>;
  #connections = new Set<ServerConnection>();
  #nextId = 1;
  #listening = false;
  #stats: AdnlServerStats = {
    accepted: 0,
    rejected: 0,
    handshakes: 0,
    queries: 0,
    answers: 0,
    queryErrors: 0,
    pings: 0,
    protocolErrors: 0,
    idleClosed: 0,
    overflowClosed: 0,
  };

  constructor(o: AdnlServerOptions) {
    if (o.keys.length === 0) throw new AdnlError('ADNL server: expected at least one key, got none');
    this.#keys = indexServerKeys(o.keys);
    this.#onQuery = o.onQuery;
    this.#host = o.host ?? '127.0.0.1';
    this.#port = o.port ?? 0;
    this.#maxConnections = o.maxConnections ?? Number.POSITIVE_INFINITY;
    this.#limits = {
      maxPacketBytes: o.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES,
      idleTimeoutMs: o.idleTimeoutMs ?? 60_000,
      handshakeTimeoutMs: o.handshakeTimeoutMs ?? 10_000,
      maxSendQueueBytes: o.maxSendQueueBytes ?? 64 * 1024 * 1024,
      maxQueriesInFlight: o.maxQueriesInFlight ?? 1024,
    };
    this.#log = o.log ?? (() => {});
    this.#server = createServer((socket) => this.#accept(socket));
    this.#server.on('error', (err) => this.#log('warn', 'Failed ADNL listener', { error: err.message }));
  }

  listen(): Promise<{ host: string; port: number }> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => {
        reject(
          new AdnlError(`ADNL server: cannot listen on ${this.#host}:${this.#port}: ${err.message}`, { cause: err }),
        );
      };
      this.#server.once('error', onError);
      this.#server.listen(this.#port, this.#host, () => {
        this.#server.off('error', onError);
        this.#listening = true;
        const addr = this.#server.address();
        const bound =
          addr && typeof addr === 'object' ? { host: addr.address, port: addr.port } : { host: this.#host, port: 0 };
        this.#log('info', 'Started ADNL server', { ...bound, keys: this.#keys.size });
        resolve(bound);
      });
    });
  }

  /** Stops accepting, closes every connection (aborting their queries' signals) and waits for the listener. */
  close(): Promise<void> {
    for (const c of [...this.#connections]) c.close('server closed');
    if (!this.#listening) return Promise.resolve();
    this.#listening = false;
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  get connectionCount(): number {
    return this.#connections.size;
  }

  stats(): AdnlServerStats {
    return { ...this.#stats };
  }

  #accept(socket: Socket): void {
    try {
      if (this.#connections.size >= this.#maxConnections) {
        this.#stats.rejected++;
        socket.on('error', () => {});
        socket.destroy();
        this.#log('warn', 'Rejected ADNL connection over the limit', { maxConnections: this.#maxConnections });
        return;
      }
      this.#stats.accepted++;
      const conn = new ServerConnection(socket, {
        id: this.#nextId++,
        keys: this.#keys,
        onQuery: this.#onQuery,
        limits: this.#limits,
        stats: this.#stats,
        log: this.#log,
        onClosed: (c) => this.#connections.delete(c),
      });
      this.#connections.add(conn);
    } catch (e) {
      // A socket that is already gone can make remote* or setNoDelay throw; never let that take the server down.
      socket.destroy();
      this.#log('warn', 'Failed to accept ADNL connection', { error: e instanceof Error ? e.message : String(e) });
    }
  }
}
