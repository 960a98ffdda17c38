// Shared pieces of the ADNL socket tests: a raw client that speaks the protocol by hand (so tests can break
// it on purpose) and small promise helpers. Everything opened here is closed by the caller's afterEach/All.
import { connect, type Socket } from 'node:net';
import {
  type AdnlSessionCiphers,
  createClientHandshake,
  createFrameDecoder,
  encodeFrame,
  type FrameDecoder,
} from '../../src/adnl/index.ts';

export interface RawConn {
  socket: Socket;
  /** Resolves when the socket has closed (for any reason). */
  closed: Promise<void>;
  /** Every byte received, in order. */
  received: Buffer[];
  /** 'closed' if the peer closed before sending anything, 'data' as soon as a byte arrives. */
  outcome: Promise<'closed' | 'data'>;
}

export function rawConnect(port: number): Promise<RawConn> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const received: Buffer[] = [];
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    const firstData = new Promise<void>((r) => socket.once('data', () => r()));
    const outcome = Promise.race([closed.then(() => 'closed' as const), firstData.then(() => 'data' as const)]);
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', () => {}); // a server reset is an expected outcome in these tests
    socket.once('connect', () => resolve({ socket, closed, received, outcome }));
    socket.once('error', reject);
  });
}

export interface RawSession extends RawConn {
  ciphers: AdnlSessionCiphers;
  decoder: FrameDecoder;
  /** Payloads received after the handshake's empty packet. */
  packets: Buffer[];
  /** Frames, enciphers and writes one payload. */
  send(payload: Buffer): void;
  /** Enciphers and writes raw plaintext (to forge lengths and checksums). */
  sendPlain(plain: Buffer): void;
  /** Resolves with the next packet received. */
  next(): Promise<Buffer>;
}

/** Connects, handshakes by hand and waits for the server's empty packet. */
export async function rawSession(port: number, serverPublicKey: Buffer): Promise<RawSession> {
  const conn = await rawConnect(port);
  const hs = createClientHandshake(serverPublicKey);
  const decoder = createFrameDecoder(hs.ciphers.rx);
  const packets: Buffer[] = [];
  const waiters: Array<(b: Buffer) => void> = [];
  let ready: () => void;
  const readyP = new Promise<void>((r) => {
    ready = r;
  });
  let gotEmpty = false;
  conn.socket.on('data', (d: Buffer) => {
    for (const p of decoder.push(d)) {
      if (!gotEmpty) {
        gotEmpty = p.length === 0;
        ready();
        continue;
      }
      const w = waiters.shift();
      if (w) w(p);
      else packets.push(p);
    }
  });
  conn.socket.write(hs.packet);
  await Promise.race([readyP, conn.closed.then(() => Promise.reject(new Error('closed during handshake')))]);
  if (!gotEmpty) throw new Error('first packet was not empty');
  return {
    ...conn,
    ciphers: hs.ciphers,
    decoder,
    packets,
    send: (payload) => conn.socket.write(encodeFrame(hs.ciphers.tx, payload)),
    sendPlain: (plain) => conn.socket.write(hs.ciphers.tx.update(plain)),
    next: () => {
      const p = packets.shift();
      if (p) return Promise.resolve(p);
      return new Promise((r) => waiters.push(r));
    },
  };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
