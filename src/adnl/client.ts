// ADNL-TCP client: handshake, wait for the server's empty packet, then queries matched by random 32-byte ids
// and tcp.ping/pong. Socket events never throw: every failure closes the client and rejects what is pending.
import type { Cipher } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { AdnlError } from '../common/index.ts';
import { createFrameDecoder, DEFAULT_MAX_PACKET_BYTES, encodeFrame, type FrameDecoder } from './frame.ts';
import { createClientHandshake } from './handshake.ts';
import { decodeAdnlMessage, encodeAdnlMessage } from './messages.ts';

export interface AdnlClientOptions {
  host: string;
  port: number;
  /** The server's raw 32-byte Ed25519 public key. */
  serverPublicKey: Buffer;
  /** Deadline for TCP connect + handshake (default 10 s). */
  timeoutMs?: number;
  /** Largest accepted packet `len` (default 16 MiB). */
  maxPacketBytes?: number;
  /** Aborts a connect in progress (the socket is destroyed at once, so nothing keeps the process alive). */
  signal?: AbortSignal;
}

const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

interface Pending {
  resolve: (answer: Buffer) => void;
  reject: (err: AdnlError) => void;
  timer: NodeJS.Timeout;
}

export class AdnlClient {
  readonly remote: string;
  #socket: Socket;
  #tx: Cipher;
  #decoder: FrameDecoder;
  #ready = false;
  #closed = false;
  #closeError: AdnlError | undefined;
  #queries = new Map<string, Pending>();
  #pings = new Map<bigint, Pending>();
  #closeListeners: Array<(err: AdnlError | undefined) => void> = [];
  #onReady: (() => void) | undefined;

  private constructor(o: AdnlClientOptions) {
    this.remote = `${o.host}:${o.port}`;
    const handshake = createClientHandshake(o.serverPublicKey);
    this.#tx = handshake.ciphers.tx;
    this.#decoder = createFrameDecoder(handshake.ciphers.rx, o.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES);
    this.#socket = netConnect({ host: o.host, port: o.port });
    this.#socket.setNoDelay(true);
    this.#socket.on('connect', () => this.#socket.write(handshake.packet));
    this.#socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    this.#socket.on('error', (err) =>
      this.#fail(new AdnlError(`ADNL client ${this.remote}: socket error: ${err.message}`, { cause: err })),
    );
    this.#socket.on('close', () => this.#fail(new AdnlError(`ADNL client ${this.remote}: connection closed`)));
  }

  /** Connects and completes the handshake; rejects with AdnlError on refusal, close or timeout. */
  static connect(o: AdnlClientOptions): Promise<AdnlClient> {
    const timeoutMs = o.timeoutMs ?? 10_000;
    return new Promise((resolve, reject) => {
      let client: AdnlClient;
      try {
        client = new AdnlClient(o);
      } catch (e) {
        reject(e);
        return;
      }
      const timer = setTimeout(() => {
        client.#fail(new AdnlError(`ADNL client ${client.remote}: no handshake confirmation in ${timeoutMs} ms`));
      }, timeoutMs);
      const onAbort = () => client.#fail(new AdnlError(`ADNL client ${client.remote}: connect aborted`));
      if (o.signal?.aborted) onAbort();
      else o.signal?.addEventListener('abort', onAbort, { once: true });
      client.#onReady = () => {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
        resolve(client);
      };
      client.onClose((err) => {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
        if (!client.#ready) reject(err ?? new AdnlError(`ADNL client ${client.remote}: closed during the handshake`));
      });
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Calls `listener` once when the connection ends (with the error, or undefined after close()). */
  onClose(listener: (err: AdnlError | undefined) => void): void {
    if (this.#closed) queueMicrotask(() => listener(this.#closeError));
    else this.#closeListeners.push(listener);
  }

  /** Sends `adnl.message.query` and resolves with the answer bytes. */
  query(query: Buffer, timeoutMs = DEFAULT_QUERY_TIMEOUT_MS): Promise<Buffer> {
    const queryId = randomBytes(32);
    const key = queryId.toString('hex');
    return this.#request(this.#queries, key, timeoutMs, 'query', () =>
      encodeAdnlMessage({ _: 'adnl.message.query', queryId, query }),
    );
  }

  /** Sends tcp.ping and resolves when the matching tcp.pong arrives. */
  async ping(timeoutMs = DEFAULT_QUERY_TIMEOUT_MS): Promise<void> {
    const randomId = randomBytes(8).readBigInt64LE(0);
    await this.#request(this.#pings, randomId, timeoutMs, 'ping', () => encodeAdnlMessage({ _: 'tcp.ping', randomId }));
  }

  close(): void {
    this.#fail(undefined);
  }

  #request<K>(map: Map<K, Pending>, key: K, timeoutMs: number, what: string, encode: () => Buffer): Promise<Buffer> {
    if (this.#closed) {
      return Promise.reject(this.#closeError ?? new AdnlError(`ADNL client ${this.remote}: closed`));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        map.delete(key);
        reject(
          new AdnlError(`ADNL client ${this.remote}: no answer to the ${what} in ${timeoutMs} ms`, {
            details: { reason: 'timeout', timeoutMs },
          }),
        );
      }, timeoutMs);
      map.set(key, { resolve, reject, timer });
      try {
        this.#socket.write(encodeFrame(this.#tx, encode()));
      } catch (e) {
        clearTimeout(timer);
        map.delete(key);
        reject(e instanceof AdnlError ? e : new AdnlError(`ADNL client ${this.remote}: cannot send`, { cause: e }));
      }
    });
  }

  #onData(chunk: Buffer): void {
    try {
      if (this.#closed) return;
      for (const payload of this.#decoder.push(chunk)) {
        if (this.#closed) return;
        this.#onPacket(payload);
      }
    } catch (e) {
      this.#fail(e instanceof AdnlError ? e : new AdnlError(`ADNL client ${this.remote}: ${String(e)}`, { cause: e }));
    }
  }

  #onPacket(payload: Buffer): void {
    if (!this.#ready) {
      if (payload.length !== 0) {
        throw new AdnlError(
          `ADNL client ${this.remote}: expected the empty handshake packet, got ${payload.length} bytes`,
        );
      }
      this.#ready = true;
      this.#onReady?.();
      return;
    }
    if (payload.length === 0) return; // keepalive
    const m = decodeAdnlMessage(payload);
    if (m._ === 'adnl.message.answer') {
      settle(this.#queries, m.queryId.toString('hex'), m.answer);
    } else if (m._ === 'tcp.pong') {
      settle(this.#pings, m.randomId, Buffer.alloc(0));
    } else {
      throw new AdnlError(`ADNL client ${this.remote}: expected an answer or tcp.pong from the server, got ${m._}`);
    }
  }

  #fail(err: AdnlError | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closeError = err;
    this.#socket.destroy();
    const reason = err ?? new AdnlError(`ADNL client ${this.remote}: closed`);
    for (const map of [this.#queries, this.#pings] as Map<unknown, Pending>[]) {
      for (const p of map.values()) {
        clearTimeout(p.timer);
        p.reject(reason);
      }
      map.clear();
    }
    for (const l of this.#closeListeners.splice(0)) {
      try {
        l(err);
      } catch {
        // a listener's failure must not escape into a socket event
      }
    }
  }
}

function settle<K>(map: Map<K, Pending>, key: K, value: Buffer): void {
  const p = map.get(key);
  if (!p) return; // a late answer to a query that already timed out
  map.delete(key);
  clearTimeout(p.timer);
  p.resolve(value);
}
