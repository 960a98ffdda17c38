// One accepted ADNL-TCP connection on the server side: handshake, framing, ping/pong, query dispatch,
// timeouts and write backpressure. Nothing a peer sends may throw out of a socket handler: every failure
// ends in close(), counted and logged.

import { type Cipher, createPublicKey, randomBytes, verify } from 'node:crypto';
import type { Socket } from 'node:net';
import { AdnlError } from '../common/index.ts';
import type { Log } from '../common/logger.ts';
import { createFrameDecoder, encodeFrame, type FrameDecoder, MIN_PACKET_LEN } from './frame.ts';
import { acceptHandshake, HANDSHAKE_BYTES, type ServerKey } from './handshake.ts';
import { decodeAdnlMessage, encodeAdnlMessage, TCP_PING_BYTES, TL_TCP_PING } from './messages.ts';
import { tlBytesSize } from './tl.ts';

// SubjectPublicKeyInfo DER of an Ed25519 key (RFC 8410) before its raw 32 bytes.
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface AdnlQueryContext {
  connectionId: number;
  remote: string;
  /** Aborted when the connection closes: the answer would have nowhere to go. */
  signal: AbortSignal;
}

export type AdnlQueryHandler = (query: Buffer, ctx: AdnlQueryContext) => Promise<Buffer>;

/** Counters shared by all connections of one server. */
export interface AdnlServerStats {
  /** TCP connections taken (under maxConnections). */
  accepted: number;
  /** Connections refused before a session existed: over maxConnections, unknown key id, bad key or digest, handshake timeout. */
  rejected: number;
  /** Handshakes completed. */
  handshakes: number;
  /** adnl.message.query packets received. */
  queries: number;
  /** Answers sent. */
  answers: number;
  /** Queries whose handler rejected (or returned something unsendable): nothing was sent. */
  queryErrors: number;
  /** tcp.ping packets answered. */
  pings: number;
  /** Sessions closed for a bad length, a bad checksum or a malformed message. */
  protocolErrors: number;
  /** Sessions closed after idleTimeoutMs without a byte from the client. */
  idleClosed: number;
  /** Connections dropped because the client read too slowly (send queue over its limit). */
  overflowClosed: number;
}

export interface ConnectionLimits {
  maxPacketBytes: number;
  idleTimeoutMs: number;
  handshakeTimeoutMs: number;
  maxSendQueueBytes: number;
  maxQueriesInFlight: number;
}

export interface ConnectionDeps {
  id: number;
  keys: Map<string, ServerKey>;
  onQuery: AdnlQueryHandler;
  limits: ConnectionLimits;
  stats: AdnlServerStats;
  log: Log<'debug' | 'info' | 'warn'>;
  onClosed: (conn: ServerConnection) => void;
}

export class ServerConnection {
  readonly id: number;
  readonly remote: string;
  #socket: Socket;
  #deps: ConnectionDeps;
  #state: 'handshake' | 'open' | 'closed' = 'handshake';
  #handshakeBytes: Buffer[] = [];
  #handshakeLength = 0;
  #decoder: FrameDecoder | undefined;
  #tx: Cipher | undefined;
  #abort = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #lastRx = Date.now();
  #inFlight = 0;
  #backlog: Buffer[] = [];
  #paused = false;
  /** tcp.authentificate: the client's nonce followed by ours, until the client signs it. */
  #authNonce: Buffer | undefined;
  /** The Ed25519 key the client proved it holds (tcp.authentificationComplete). */
  #clientKey: Buffer | undefined;

  constructor(socket: Socket, deps: ConnectionDeps) {
    this.id = deps.id;
    this.#socket = socket;
    this.#deps = deps;
    this.remote = `${socket.remoteAddress}:${socket.remotePort}`;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', (err) => this.#log('debug', 'Failed ADNL socket', { error: err.message }));
    socket.on('end', () => this.close('peer ended'));
    socket.on('close', () => this.close('socket closed'));
    this.#arm(deps.limits.handshakeTimeoutMs);
  }

  get closed(): boolean {
    return this.#state === 'closed';
  }

  /** Ends the connection (idempotent); `reset` discards unsent data instead of flushing it. */
  close(reason: string, reset = false): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    clearTimeout(this.#timer);
    this.#abort.abort(new AdnlError(`ADNL connection ${this.id} from ${this.remote} closed: ${reason}`));
    if (reset) this.#socket.resetAndDestroy();
    else this.#socket.destroy();
    this.#log('debug', 'Closed ADNL connection', { reason });
    this.#deps.onClosed(this);
  }

  #log(level: 'debug' | 'info' | 'warn', msg: string, fields: Record<string, unknown> = {}): void {
    try {
      this.#deps.log(level, msg, { connectionId: this.id, remote: this.remote, ...fields });
    } catch {
      // a failing logger must not break the connection or escape a socket handler
    }
  }

  #arm(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#onTimer(), ms);
    this.#timer.unref();
  }

  #onTimer(): void {
    if (this.#state === 'closed') return;
    const { limits, stats } = this.#deps;
    if (this.#state === 'handshake') {
      stats.rejected++;
      this.#log('debug', 'Rejected ADNL connection without a handshake', { timeoutMs: limits.handshakeTimeoutMs });
      this.close('handshake timeout');
      return;
    }
    // Like the C++ node, idleness counts from the last received byte; a connection still waiting for our
    // answers is not idle (its client has nothing to say until they arrive).
    const idleFor = Date.now() - this.#lastRx;
    if (this.#inFlight > 0 || idleFor < limits.idleTimeoutMs) {
      this.#arm(this.#inFlight > 0 ? limits.idleTimeoutMs : limits.idleTimeoutMs - idleFor);
      return;
    }
    stats.idleClosed++;
    this.close('idle timeout');
  }

  #onData(chunk: Buffer): void {
    try {
      if (this.#state === 'closed') return;
      this.#lastRx = Date.now();
      if (this.#state === 'handshake') {
        const rest = this.#collectHandshake(chunk);
        if (rest === undefined || rest.length === 0) return;
        chunk = rest;
      }
      for (const payload of this.#decoder!.push(chunk)) this.#backlog.push(payload);
      this.#drain();
    } catch (e) {
      this.#protocolError(e);
    }
  }

  /**
   * Handles received packets in order while fewer than maxQueriesInFlight queries are running; the rest wait
   * here and the socket stops reading, so TCP pushes back on a client that floods queries.
   */
  #drain(): void {
    const max = this.#deps.limits.maxQueriesInFlight;
    while (this.#backlog.length > 0 && this.#inFlight < max) {
      if (this.closed) return;
      this.#onPacket(this.#backlog.shift()!);
    }
    if (this.closed) return;
    if (this.#backlog.length > 0 && !this.#paused) {
      this.#paused = true;
      this.#socket.pause();
    } else if (this.#backlog.length === 0 && this.#paused) {
      this.#paused = false;
      this.#socket.resume();
    }
  }

  /** Returns the bytes after the handshake once it succeeded, undefined while waiting or after a refusal. */
  #collectHandshake(chunk: Buffer): Buffer | undefined {
    this.#handshakeBytes.push(chunk);
    this.#handshakeLength += chunk.length;
    if (this.#handshakeLength < HANDSHAKE_BYTES) return undefined;
    const all = Buffer.concat(this.#handshakeBytes, this.#handshakeLength);
    this.#handshakeBytes = [];
    const { keys, limits, stats } = this.#deps;
    const result = acceptHandshake(all.subarray(0, HANDSHAKE_BYTES), keys);
    if (!result.ok) {
      stats.rejected++;
      this.#log('debug', 'Rejected ADNL handshake', { reason: result.reason, error: result.message });
      this.close(result.reason);
      return undefined;
    }
    stats.handshakes++;
    this.#state = 'open';
    this.#decoder = createFrameDecoder(result.ciphers.rx, limits.maxPacketBytes);
    this.#tx = result.ciphers.tx;
    this.#arm(limits.idleTimeoutMs);
    this.#send(Buffer.alloc(0)); // the empty packet tells the client the session is ready
    return all.subarray(HANDSHAKE_BYTES);
  }

  #onPacket(payload: Buffer): void {
    if (payload.length === 0) return; // keepalive
    if (payload.length === TCP_PING_BYTES && payload.readUInt32LE(0) === TL_TCP_PING) {
      this.#deps.stats.pings++;
      this.#send(encodeAdnlMessage({ _: 'tcp.pong', randomId: payload.readBigInt64LE(4) }));
      return;
    }
    const m = decodeAdnlMessage(payload);
    if (m._ === 'tcp.authentificate' || m._ === 'tcp.authentificationComplete') {
      this.#authenticate(m);
      return;
    }
    if (m._ !== 'adnl.message.query') {
      throw new AdnlError(`ADNL server: expected adnl.message.query or tcp.ping from the client, got ${m._}`);
    }
    this.#dispatch(Buffer.from(m.queryId), Buffer.from(m.query));
  }

  /**
   * Client authentication as the C++ node does it (tonlib opens every session with it): tcp.authentificate is
   * answered with 256 random bytes; tcp.authentificationComplete must sign client nonce ‖ ours with the key it
   * names. Queries never wait for it; a second attempt, a bad signature or a Complete without a nonce close.
   */
  #authenticate(
    m:
      | { _: 'tcp.authentificate'; nonce: Buffer }
      | { _: 'tcp.authentificationComplete'; publicKey: Buffer; signature: Buffer },
  ): void {
    if (m._ === 'tcp.authentificate') {
      if (this.#authNonce || this.#clientKey) throw new AdnlError('ADNL server: duplicate tcp.authentificate');
      const ours = randomBytes(256);
      this.#authNonce = Buffer.concat([m.nonce, ours]);
      this.#send(encodeAdnlMessage({ _: 'tcp.authentificationNonce', nonce: ours }));
      return;
    }
    if (!this.#authNonce || this.#clientKey) {
      throw new AdnlError('ADNL server: tcp.authentificationComplete without a pending tcp.authentificate');
    }
    const key = createPublicKey({
      key: Buffer.concat([SPKI_ED25519_PREFIX, m.publicKey]),
      format: 'der',
      type: 'spki',
    });
    if (m.signature.length !== 64 || !verify(null, this.#authNonce, key, m.signature)) {
      throw new AdnlError('ADNL server: tcp.authentificationComplete signature does not verify');
    }
    this.#clientKey = Buffer.from(m.publicKey);
    this.#authNonce = undefined;
    this.#log('debug', 'Authenticated ADNL client', { clientKey: this.#clientKey.toString('hex') });
  }

  #dispatch(queryId: Buffer, query: Buffer): void {
    const { stats, onQuery } = this.#deps;
    stats.queries++;
    this.#inFlight++;
    const ctx: AdnlQueryContext = { connectionId: this.id, remote: this.remote, signal: this.#abort.signal };
    Promise.resolve()
      .then(() => onQuery(query, ctx))
      .then(
        (answer) => {
          try {
            this.#answer(queryId, answer);
          } catch (e) {
            this.#protocolError(e); // not reachable by peer input; keep the promise chain from rejecting
          }
        },
        (err: unknown) => {
          stats.queryErrors++;
          this.#log('warn', 'Failed ADNL query handler', {
            queryId: queryId.toString('hex'),
            error: err instanceof Error ? err.message : String(err),
          });
        },
      )
      .finally(() => {
        this.#inFlight--;
        try {
          this.#drain();
        } catch (e) {
          this.#protocolError(e);
        }
      });
  }

  #answer(queryId: Buffer, answer: Buffer): void {
    if (this.#state === 'closed') return;
    const { stats, limits } = this.#deps;
    const drop = (msg: string, fields: Record<string, unknown>) => {
      stats.queryErrors++;
      this.#log('warn', msg, { queryId: queryId.toString('hex'), ...fields });
    };
    if (!Buffer.isBuffer(answer)) {
      drop('Dropped ADNL answer that is not a Buffer', {});
      return;
    }
    // A packet over the limit would make the client close the connection; losing one answer is better.
    if (answer.length >= 1 << 24 || MIN_PACKET_LEN + 36 + tlBytesSize(answer.length) > limits.maxPacketBytes) {
      drop('Dropped oversized ADNL answer', { bytes: answer.length, max: limits.maxPacketBytes });
      return;
    }
    stats.answers++;
    this.#send(encodeAdnlMessage({ _: 'adnl.message.answer', queryId, answer }));
  }

  #send(payload: Buffer): void {
    if (this.#state === 'closed' || !this.#tx) return;
    this.#socket.write(encodeFrame(this.#tx, payload));
    const queued = this.#socket.writableLength;
    if (queued > this.#deps.limits.maxSendQueueBytes) {
      this.#deps.stats.overflowClosed++;
      this.#log('warn', 'Dropped slow ADNL reader', { queuedBytes: queued, max: this.#deps.limits.maxSendQueueBytes });
      this.close('send queue overflow', true);
    }
  }

  #protocolError(e: unknown): void {
    if (this.#state === 'closed') return;
    this.#deps.stats.protocolErrors++;
    this.#log('debug', 'Closed ADNL connection on a protocol error', {
      error: e instanceof Error ? e.message : String(e),
    });
    this.close('protocol error');
  }
}
